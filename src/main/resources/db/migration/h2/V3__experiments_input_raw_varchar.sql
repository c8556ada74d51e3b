-- H2 only: input_raw as VARCHAR (no length: H2's maximum, 10^9 characters, so a raised
-- schedlab.limits.max-body-bytes still fits) instead of CLOB. A CLOB over 256 bytes went to H2's
-- separate LOB store on every submission (ValueClob.copy and the LOB maps: ~6% of submit CPU in a
-- JFR profile of wrk POSTs). PostgreSQL keeps text (no LOB indirection there).
ALTER TABLE experiments ALTER COLUMN input_raw SET DATA TYPE VARCHAR;
