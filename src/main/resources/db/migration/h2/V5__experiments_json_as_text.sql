-- H2 only: the JSON documents (normalized input, result) as text instead of H2's JSON type.
-- H2 parsed and re-encoded every document written to a JSON column (JSONStringSource.normalize,
-- BigDecimal per number): in a JFR profile of wrk POSTs with the workers simulating, that was
-- ~40% of all bytes the service allocated, and the young-GC pauses it caused set the p99. The
-- documents are written by the service's own Jackson (valid JSON by construction) and H2 offers
-- no JSON query the service uses; PostgreSQL keeps jsonb. The cast keeps each document's text.
ALTER TABLE experiments ALTER COLUMN input_normalized SET DATA TYPE VARCHAR;
ALTER TABLE experiments ALTER COLUMN result SET DATA TYPE VARCHAR;
