000100*****************************************************************
000200* BKDATEWS - DATE WORK AREA. COPY WITH                          *
000300*     COPY BKDATEWS REPLACING ==:TAG:== BY ==WS==.              *
000400* SO EACH PROGRAM CHOOSES ITS OWN PREFIX.                       *
000500*****************************************************************
000600 01  :TAG:-DATE-AREA.
000700     05  :TAG:-CURR-DATE         PIC X(8).
000800     05  :TAG:-CURR-DATE-R REDEFINES :TAG:-CURR-DATE.
000900         10  :TAG:-CURR-YYYY     PIC 9(4).
001000         10  :TAG:-CURR-MM       PIC 9(2).
001100         10  :TAG:-CURR-DD       PIC 9(2).
001200     05  :TAG:-DATE-DISPLAY      PIC X(10).
