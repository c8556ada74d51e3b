-- Sweeps (owned by the sweeps feature). H2 variant: documents as VARCHAR (see V5: H2's JSON type re-encodes them).
CREATE TABLE sweeps (
    id               UUID                     NOT NULL PRIMARY KEY,
    name             VARCHAR(200),
    definition       VARCHAR                  NOT NULL,
    layout           VARCHAR                  NOT NULL,
    total            INT                      NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    cancel_requested BOOLEAN                  NOT NULL DEFAULT FALSE,
    finished_at      TIMESTAMP WITH TIME ZONE,
    table_json       VARCHAR
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
