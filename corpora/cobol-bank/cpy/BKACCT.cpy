000100*****************************************************************
000200* BKACCT - ACCOUNT MASTER RECORD, VSAM KSDS ACCTDAT, LRECL 100. *
000300* KEY IS ACCT-ID. BALANCES ARE SIGNED: NEGATIVE MEANS THE       *
000400* CUSTOMER OWES THE BANK, UP TO ACCT-CREDIT-LIMIT.              *
000500*****************************************************************
000600 01  ACCOUNT-RECORD.
000700     05  ACCT-ID                 PIC 9(11).
000800     05  ACCT-STATUS             PIC X.
000900         88  ACCT-ACTIVE                   VALUE 'A'.
001000         88  ACCT-FROZEN                   VALUE 'F'.
001100         88  ACCT-CLOSED                   VALUE 'C'.
001200     05  ACCT-CUST-ID            PIC 9(9).
001300     05  ACCT-CURR-BAL           PIC S9(9)V99 COMP-3.
001400     05  ACCT-CREDIT-LIMIT       PIC S9(7)V99 COMP-3.
001500     05  ACCT-OPEN-DATE          PIC X(8).
001600     05  ACCT-OPEN-DATE-R REDEFINES ACCT-OPEN-DATE.
001700         10  ACCT-OPEN-YYYY      PIC 9(4).
001800         10  ACCT-OPEN-MM        PIC 9(2).
001900         10  ACCT-OPEN-DD        PIC 9(2).
002000     05  ACCT-LAST-TXN-DATE      PIC X(8).
002100     05  ACCT-CYCLE-CREDIT       PIC S9(9)V99 COMP-3.
002200     05  ACCT-CYCLE-DEBIT        PIC S9(9)V99 COMP-3.
002300     05  FILLER                  PIC X(40).
