      *****************************************************************
      * BKAUDR - AUDIT LOG RECORD, VSAM KSDS AUDITLG, ONE PER CHANGE  *
      * MADE ONLINE. THE KEY IS THE TIMESTAMP PLUS THE TERMINAL ID.   *
      *****************************************************************
       01  AUDIT-RECORD.
           05  AUD-KEY.
               10  AUD-TIMESTAMP       PIC X(21).
               10  AUD-TERMID          PIC X(4).
           05  AUD-USER-ID             PIC X(8).
           05  AUD-PROGRAM             PIC X(8).
           05  AUD-ACTION              PIC X.
               88  AUD-LIMIT-CHANGE              VALUE 'L'.
               88  AUD-STATUS-CHANGE             VALUE 'S'.
               88  AUD-ACCOUNT-DELETE            VALUE 'D'.
           05  AUD-ACCT-ID             PIC 9(11).
           05  AUD-OLD-VALUE           PIC X(15).
           05  AUD-NEW-VALUE           PIC X(15).
