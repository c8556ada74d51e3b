-- The API key (its NAME in schedlab.auth.keys-file) that submitted each sweep (or scenario run),
-- NULL when the service ran without keys: only its owner, admin keys and (by default) reader keys
-- read it, and only its owner or an admin key cancels it (io.schedlab.access.CallerAccess).
ALTER TABLE sweeps ADD COLUMN owner VARCHAR(200);
CREATE INDEX sweeps_owner_created_idx ON sweeps (owner, created_at DESC, id DESC);
