-- Experiments (owned by the experiments feature). H2 variant: JSON columns use H2's JSON type.
CREATE TABLE experiments (
    id               UUID                     NOT NULL PRIMARY KEY,
    name             VARCHAR(200),
    labels           VARCHAR(8000)            NOT NULL,
    policy           VARCHAR(64)              NOT NULL,
    status           VARCHAR(16)              NOT NULL,
    progress         DOUBLE PRECISION         NOT NULL DEFAULT 0,
    simulated_nanos  BIGINT                   NOT NULL DEFAULT 0,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    started_at       TIMESTAMP WITH TIME ZONE,
    finished_at      TIMESTAMP WITH TIME ZONE,
    failure_reason   VARCHAR(2000),
    cancel_requested BOOLEAN                  NOT NULL DEFAULT FALSE,
    input_raw        CLOB                     NOT NULL,
    input_normalized JSON                     NOT NULL,
    result           JSON,
    wall_seconds     DOUBLE PRECISION,
    events           BIGINT,
    context_switches BIGINT,
    migrations       BIGINT,
    jain_fairness    DOUBLE PRECISION,
    engine_version   VARCHAR(32)              NOT NULL,
    version          BIGINT                   NOT NULL DEFAULT 0
);
-- no CHECK on status here: H2 2.4.240 fails evaluating it from Hibernate inserts ("Check constraint invalid",
-- caused by "The database has been closed"); the PostgreSQL migration keeps the check.

CREATE INDEX experiments_created_idx ON experiments (created_at DESC, id DESC);
CREATE INDEX experiments_status_created_idx ON experiments (status, created_at DESC);
