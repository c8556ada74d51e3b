-- Idempotency-Key of POST /api/v1/experiments (after the IETF httpapi idempotency-key header draft):
-- one row per (owner, key), written in the submission's own transaction, so a key names exactly one
-- stored experiment. owner_key is the API key name, '' when the service runs without keys.
-- body_sha256: the fingerprint of the request body; rows older than schedlab.idempotency.ttl are expired.
CREATE TABLE idempotency_keys (
    owner_key     VARCHAR(200)             NOT NULL,
    idem_key      VARCHAR(255)             NOT NULL,
    body_sha256   VARCHAR(64)              NOT NULL,
    experiment_id UUID                     NOT NULL,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (owner_key, idem_key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
