-- Idempotency-Key on every submitting operation (experiments, sweeps, scenario runs), not only
-- POST /api/v1/experiments: a key remembers the operation it was used with (the operationId of
-- openapi.yaml, with the scenario for a scenario run) and the ids of what it created, in order
-- (one experiment, one sweep, or a scenario run's sweeps), as UUIDs separated by spaces.
-- A key used with another operation or body is refused (422), like another body before.
ALTER TABLE idempotency_keys ADD COLUMN operation VARCHAR(100) DEFAULT 'submitExperiment' NOT NULL;
ALTER TABLE idempotency_keys ADD COLUMN resource_ids VARCHAR(4000);
UPDATE idempotency_keys SET resource_ids = CAST(experiment_id AS VARCHAR(36));
ALTER TABLE idempotency_keys ALTER COLUMN resource_ids SET NOT NULL;
ALTER TABLE idempotency_keys DROP COLUMN experiment_id;

-- Per-key quota of running experiments (schedlab.quotas.max-running-per-key): a job starting an
-- experiment locks its owner's row here (SELECT ... FOR UPDATE) while it counts the owner's RUNNING
-- experiments and marks its own RUNNING, so two workers, of one replica or of two, never both take
-- the last slot. One row per owner that ever started under a quota; nothing else is stored.
CREATE TABLE quota_owners (
    owner VARCHAR(200) NOT NULL PRIMARY KEY
);
-- the quota counts (owner, status) on every submission and every start
CREATE INDEX experiments_owner_status_idx ON experiments (owner, status);
