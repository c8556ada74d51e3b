-- The recorded per-vCPU run slices and waits of an experiment imported from a recorded trace
-- (POST /api/v1/experiments:import with submit=true), which GET /api/v1/experiments/{id}/replay compares
-- with the replay's own trace. Written in the submission's transaction; deleted with its experiment.
CREATE TABLE trace_references (
    experiment_id UUID        NOT NULL PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
    source_format VARCHAR(16) NOT NULL,
    reference     TEXT        NOT NULL
);
