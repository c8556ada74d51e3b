-- H2 only: write every commit to the database file before the commit returns (WRITE_DELAY 0; the
-- setting is stored in the database, so it holds whatever JDBC URL opens it). With H2's default
-- (500 ms) an experiment answered 202 Accepted, with its job, was lost when the process was killed
-- within half a second (SubmissionSurvivesAKillTest). Costs ~40% of the peak submission rate on H2
-- (docs/benchmarks.md); PostgreSQL commits durably anyway.
SET WRITE_DELAY 0;
