000100*****************************************************************
000200* BKCOMM - COMMAREA PASSED BETWEEN THE ONLINE PROGRAMS ON XCTL  *
000300* AND ON RETURN TRANSID. LENGTH 34.                             *
000400*****************************************************************
000500 01  BK-COMMAREA.
000600     05  CA-FROM-PROGRAM         PIC X(8).
000700     05  CA-FROM-TRANID          PIC X(4).
000800     05  CA-USER-ID              PIC X(8).
000900     05  CA-USER-TYPE            PIC X.
001000         88  CA-USER-ADMIN                 VALUE 'A'.
001100         88  CA-USER-REGULAR               VALUE 'U'.
001200     05  CA-PGM-CONTEXT          PIC 9.
001300         88  CA-FIRST-ENTRY                VALUE 0.
001400         88  CA-REENTER                    VALUE 1.
001500     05  CA-ACCT-ID              PIC 9(11).
001600     05  CA-UPDATE-MODE          PIC X.
001700         88  CA-MODE-VIEW                  VALUE 'V'.
001800         88  CA-MODE-UPDATE                VALUE 'U'.
001900         88  CA-MODE-CLOSE                 VALUE 'C'.
