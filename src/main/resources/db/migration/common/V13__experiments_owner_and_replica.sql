-- The API key (its NAME in schedlab.auth.keys-file) that submitted each experiment, NULL when the
-- service ran without keys; lists of a submitter are filtered on it. run_by: the replica (db-scheduler
-- picked_by, see JobsConfiguration.replicaName) that last started the experiment's run.
ALTER TABLE experiments ADD COLUMN owner VARCHAR(200);
ALTER TABLE experiments ADD COLUMN run_by VARCHAR(255);
CREATE INDEX experiments_owner_created_idx ON experiments (owner, created_at DESC);
