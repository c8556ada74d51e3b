-- Experiments (owned by the experiments feature). PostgreSQL variant: JSON columns are jsonb.
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
    input_raw        TEXT                     NOT NULL,
    input_normalized JSONB                    NOT NULL,
    result           JSONB,
    wall_seconds     DOUBLE PRECISION,
    events           BIGINT,
    context_switches BIGINT,
    migrations       BIGINT,
    jain_fairness    DOUBLE PRECISION,
    engine_version   VARCHAR(32)              NOT NULL,
    version          BIGINT                   NOT NULL DEFAULT 0,
    CONSTRAINT experiments_status_check CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'))
);

CREATE INDEX experiments_created_idx ON experiments (created_at DESC, id DESC);
CREATE INDEX experiments_status_created_idx ON experiments (status, created_at DESC);
