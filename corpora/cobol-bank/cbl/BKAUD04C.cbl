       IDENTIFICATION DIVISION.
       PROGRAM-ID. BKAUD04C.
       AUTHOR. GROUNDJUDGE SAMPLE.
      *****************************************************************
      * BKAUD04C - AUDIT WRITER. LINKED TO BY BKUPD02C WITH A FILLED  *
      * AUDIT-RECORD AS COMMAREA. STAMPS THE TIME AND WRITES THE      *
      * RECORD TO THE AUDITLG FILE. IF THE WRITE FAILS THE TASK IS    *
      * ABENDED SO THAT CICS BACKS OUT THE ACCOUNT CHANGE: NO CHANGE  *
      * IS EVER KEPT WITHOUT ITS AUDIT RECORD.                        *
      *****************************************************************
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-ATTEMPTS                 PIC 9 VALUE ZERO.
           88  RETRIES-EXHAUSTED                 VALUE 3.
       01  WS-WRITE-SW                 PIC X VALUE 'N'.
           88  AUDIT-WRITTEN                     VALUE 'Y'.
           COPY BKAUDR.
       LINKAGE SECTION.
       01  DFHCOMMAREA                 PIC X(83).
       PROCEDURE DIVISION.
       0000-MAIN.
           IF EIBCALEN NOT = LENGTH OF AUDIT-RECORD
               EXEC CICS ABEND ABCODE('BKA1') END-EXEC
           END-IF
           MOVE DFHCOMMAREA TO AUDIT-RECORD
           PERFORM 1000-WRITE-AUDIT-RECORD
               UNTIL AUDIT-WRITTEN OR RETRIES-EXHAUSTED
           IF NOT AUDIT-WRITTEN
               EXEC CICS ABEND ABCODE('BKA2') END-EXEC
           END-IF
           EXEC CICS RETURN END-EXEC.
       1000-WRITE-AUDIT-RECORD.
      *    A DUPLICATE KEY MEANS TWO CHANGES FROM ONE TERMINAL IN THE
      *    SAME HUNDREDTH OF A SECOND: A NEW TIMESTAMP MAKES IT UNIQUE.
           ADD 1 TO WS-ATTEMPTS
           MOVE FUNCTION CURRENT-DATE TO AUD-TIMESTAMP
           EXEC CICS WRITE DATASET('AUDITLG')
                     FROM(AUDIT-RECORD)
                     RIDFLD(AUD-KEY)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NORMAL)
               SET AUDIT-WRITTEN TO TRUE
           END-IF.
