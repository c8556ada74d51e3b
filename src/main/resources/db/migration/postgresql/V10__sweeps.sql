-- Sweeps (owned by the sweeps feature). PostgreSQL variant: documents as text (read back whole, never queried inside).
CREATE TABLE sweeps (
    id               UUID                     NOT NULL PRIMARY KEY,
    name             VARCHAR(200),
    definition       TEXT                     NOT NULL,
    layout           TEXT                     NOT NULL,
    total            INT                      NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    cancel_requested BOOLEAN                  NOT NULL DEFAULT FALSE,
    finished_at      TIMESTAMP WITH TIME ZONE,
    table_json       TEXT
);
CREATE INDEX sweeps_created_idx ON sweeps (created_at DESC, id DESC);

-- Each child experiment of a sweep: which cell (index into the cells of sweeps.layout) and which repetition.
CREATE TABLE sweep_experiments (
    experiment_id UUID NOT NULL PRIMARY KEY REFERENCES experiments (id),
    sweep_id      UUID NOT NULL REFERENCES sweeps (id),
    cell_index    INT  NOT NULL,
    repetition    INT  NOT NULL
);
CREATE INDEX sweep_experiments_sweep_idx ON sweep_experiments (sweep_id, cell_index, repetition);
