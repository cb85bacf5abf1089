000100*****************************************************************
000200* BKUSR - USER SECURITY RECORD, VSAM KSDS USRSEC, KEY USR-ID.   *
000300* USR-ALLOWED-TRAN LISTS THE TRANSACTIONS THE USER MAY START;   *
000400* ONLY THE FIRST USR-TRAN-COUNT ENTRIES ARE MEANINGFUL.         *
000500*****************************************************************
000600 01  USER-SEC-RECORD.
000700     05  USR-ID                  PIC X(8).
000800     05  USR-NAME                PIC X(30).
000900     05  USR-TYPE                PIC X.
001000         88  USR-ADMIN                     VALUE 'A'.
001100         88  USR-REGULAR                   VALUE 'U'.
001200     05  USR-STATUS              PIC X.
001300         88  USR-ENABLED                   VALUE 'E'.
001400         88  USR-REVOKED                   VALUE 'R'.
001500     05  USR-TRAN-COUNT          PIC 9.
001600     05  USR-ALLOWED-TRAN        PIC X(4) OCCURS 5 TIMES.
001700     05  FILLER                  PIC X(19).
