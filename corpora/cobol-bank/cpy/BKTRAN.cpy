000100*****************************************************************
000200* BKTRAN - DAILY TRANSACTION RECORD, SEQUENTIAL FILE DALYTRAN,  *
000300* LRECL 100. ONE RECORD PER CARD OR COUNTER TRANSACTION.        *
000400*****************************************************************
000500 01  TRAN-RECORD.
000600     05  TRAN-ID                 PIC X(16).
000700     05  TRAN-ACCT-ID            PIC 9(11).
000800     05  TRAN-CARD-NUM           PIC X(16).
000900     05  TRAN-TYPE               PIC X(2).
001000         88  TRAN-DEBIT                    VALUE 'DB'.
001100         88  TRAN-CREDIT                   VALUE 'CR'.
001200         88  TRAN-FEE                      VALUE 'FE'.
001300         88  TRAN-VALID-TYPE               VALUE 'DB' 'CR' 'FE'.
001400     05  TRAN-AMOUNT             PIC S9(7)V99 COMP-3.
001500     05  TRAN-DATE               PIC X(8).
001600     05  TRAN-DESC               PIC X(40).
001700     05  FILLER                  PIC X(2).
