//BKDEFVSM JOB (BANK,001),'DEFINE BANK VSAM',CLASS=A,MSGCLASS=X,
//             NOTIFY=&SYSUID
//*-------------------------------------------------------------------
//* BKDEFVSM - DELETE AND DEFINE THE VSAM CLUSTERS OF THE BANK
//* APPLICATION: ACCTDAT (ACCOUNT MASTER), USRSEC (USER SECURITY)
//* AND AUDITLG (ONLINE AUDIT LOG). RUN ONCE WHEN SETTING UP A REGION.
//*-------------------------------------------------------------------
//DELDEF   EXEC PGM=IDCAMS
//SYSPRINT DD SYSOUT=*
//SYSIN    DD *
  DELETE BANK.PROD.ACCTDAT CLUSTER PURGE
  DELETE BANK.PROD.USRSEC  CLUSTER PURGE
  DELETE BANK.PROD.AUDITLG CLUSTER PURGE
  SET MAXCC = 0
  DEFINE CLUSTER (NAME(BANK.PROD.ACCTDAT)      -
                  INDEXED                      -
                  KEYS(11 0)                   -
                  RECORDSIZE(100 100)          -
                  SHAREOPTIONS(2 3)            -
                  CYLINDERS(5 1))              -
         DATA    (NAME(BANK.PROD.ACCTDAT.DATA))  -
         INDEX   (NAME(BANK.PROD.ACCTDAT.INDEX))
  DEFINE CLUSTER (NAME(BANK.PROD.USRSEC)       -
                  INDEXED                      -
                  KEYS(8 0)                    -
                  RECORDSIZE(80 80)            -
                  TRACKS(1 1))                 -
         DATA    (NAME(BANK.PROD.USRSEC.DATA))   -
         INDEX   (NAME(BANK.PROD.USRSEC.INDEX))
  DEFINE CLUSTER (NAME(BANK.PROD.AUDITLG)      -
                  INDEXED                      -
                  KEYS(25 0)                   -
                  RECORDSIZE(83 83)            -
                  CYLINDERS(2 2))              -
         DATA    (NAME(BANK.PROD.AUDITLG.DATA))  -
         INDEX   (NAME(BANK.PROD.AUDITLG.INDEX))
/*
