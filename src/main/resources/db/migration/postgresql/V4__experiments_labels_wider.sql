-- Labels are bounded by the engine (SpecValidator.MAX_LABELS_TOTAL_LENGTH: keys and values together
-- at most 4096 characters, at most 64 labels) and stored as canonical JSON (LabelsJson). Worst case
-- of that JSON: every character escaped as \u00XX (6 characters; the service rejects control
-- characters, so in practice at most 2 for '"' and '\') plus 6 characters of quotes, ':' and ','
-- per label and the braces: 6 * 4096 + 64 * 6 + 2 = 24962 characters. VARCHAR(8000) did not hold
-- 64 labels of 63 + 200 characters; 32768 holds the worst case with margin.
ALTER TABLE experiments ALTER COLUMN labels TYPE VARCHAR(32768);
