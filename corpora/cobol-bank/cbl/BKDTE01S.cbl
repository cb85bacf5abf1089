       IDENTIFICATION DIVISION.
       PROGRAM-ID. BKDTE01S.
      *****************************************************************
      * BKDTE01S - DATE VALIDATION SUBPROGRAM, CALLED BY BATCH CODE.  *
      * CHECKS THAT A YYYYMMDD DATE EXISTS ON THE CALENDAR (LEAP      *
      * YEARS INCLUDED) AND IS NOT LATER THAN TODAY.                  *
      * RESULT: 'Y' VALID, 'N' NOT A DATE, 'F' IN THE FUTURE.         *
      *****************************************************************
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-TODAY                    PIC X(8).
       01  WS-DAYS-IN-MONTH-TABLE.
           05  FILLER                  PIC X(24)
                                 VALUE '312831303130313130313031'.
       01  WS-DAYS-IN-MONTH-R REDEFINES WS-DAYS-IN-MONTH-TABLE.
           05  WS-MONTH-DAYS           PIC 9(2) OCCURS 12 TIMES.
       01  WS-MAX-DAY                  PIC 9(2).
       01  WS-DIVISION-WORK.
           05  WS-QUOTIENT             PIC 9(6).
           05  WS-REM-4                PIC 9(4).
           05  WS-REM-100              PIC 9(4).
           05  WS-REM-400              PIC 9(4).
       LINKAGE SECTION.
       01  LK-DATE-PARM.
           05  LK-DATE.
               10  LK-YYYY             PIC 9(4).
               10  LK-MM               PIC 9(2).
               10  LK-DD               PIC 9(2).
           05  LK-RESULT               PIC X.
               88  LK-DATE-VALID                 VALUE 'Y'.
               88  LK-DATE-INVALID               VALUE 'N'.
               88  LK-DATE-FUTURE                VALUE 'F'.
       PROCEDURE DIVISION USING LK-DATE-PARM.
       0000-MAIN.
           SET LK-DATE-VALID TO TRUE
           PERFORM 1000-CHECK-RANGES
           IF LK-DATE-VALID
               PERFORM 2000-CHECK-DAY-OF-MONTH
           END-IF
           IF LK-DATE-VALID
               PERFORM 3000-CHECK-NOT-FUTURE
           END-IF
           GOBACK.
       1000-CHECK-RANGES.
           IF LK-DATE IS NOT NUMERIC
               SET LK-DATE-INVALID TO TRUE
           ELSE
               IF LK-YYYY < 1900 OR LK-MM < 1 OR LK-MM > 12 OR LK-DD < 1
                   SET LK-DATE-INVALID TO TRUE
               END-IF
           END-IF.
       2000-CHECK-DAY-OF-MONTH.
           MOVE WS-MONTH-DAYS(LK-MM) TO WS-MAX-DAY
           IF LK-MM = 2
               PERFORM 2100-ADJUST-FOR-LEAP-YEAR
           END-IF
           IF LK-DD > WS-MAX-DAY
               SET LK-DATE-INVALID TO TRUE
           END-IF.
       2100-ADJUST-FOR-LEAP-YEAR.
      *    GREGORIAN RULE: EVERY 4TH YEAR, EXCEPT CENTURIES NOT
      *    DIVISIBLE BY 400 (1900 IS NOT A LEAP YEAR, 2000 IS).
           DIVIDE LK-YYYY BY 4 GIVING WS-QUOTIENT REMAINDER WS-REM-4
           DIVIDE LK-YYYY BY 100 GIVING WS-QUOTIENT REMAINDER WS-REM-100
           DIVIDE LK-YYYY BY 400 GIVING WS-QUOTIENT REMAINDER WS-REM-400
           IF WS-REM-400 = 0
              OR (WS-REM-4 = 0 AND WS-REM-100 NOT = 0)
               MOVE 29 TO WS-MAX-DAY
           END-IF.
       3000-CHECK-NOT-FUTURE.
           MOVE FUNCTION CURRENT-DATE(1:8) TO WS-TODAY
           IF LK-DATE > WS-TODAY
               SET LK-DATE-FUTURE TO TRUE
           END-IF.
