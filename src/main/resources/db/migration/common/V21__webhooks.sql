-- Completion webhooks (io.schedlab.webhooks). Portable DDL: runs on H2 2.x and PostgreSQL.

-- One row per notify target: WAITING until its experiment or sweep has finished, then SENDING with the
-- CloudEvents body it posts (the same bytes on every attempt), then DELIVERED or GAVE_UP. The id is the
-- event's id, the receiver's key for de-duplication.
create table webhook_deliveries (
  id uuid primary key,
  subject_kind varchar(16) not null,
  subject_id uuid not null,
  owner varchar(255),
  url varchar(2048) not null,
  state varchar(16) not null,
  event text,
  created_at timestamp with time zone not null,
  finished_at timestamp with time zone
);
create index webhook_deliveries_subject_idx on webhook_deliveries (subject_id);
create index webhook_deliveries_state_idx on webhook_deliveries (state);

-- Every attempt to post a delivery's event: when, how long, the receiver's status code (null: no answer).
create table webhook_attempts (
  delivery_id uuid not null,
  attempt int not null,
  started_at timestamp with time zone not null,
  duration_ms bigint not null,
  status_code int,
  outcome varchar(16) not null,
  error varchar(500),
  primary key (delivery_id, attempt)
);

-- The signing secret of each API key (the empty name: the one secret when API keys are off).
create table webhook_secrets (
  owner varchar(255) primary key,
  secret varchar(128) not null,
  created_at timestamp with time zone not null
);

-- db-scheduler's execution table for the webhook tasks (dispatch and delivery), apart from the
-- simulation jobs' scheduled_tasks so a delivery never waits behind a long run for a worker.
-- Columns as scheduled_tasks (V2).
create table webhook_tasks (
  task_name text not null,
  task_instance text not null,
  task_data bytea,
  execution_time timestamp with time zone not null,
  picked boolean not null,
  picked_by text,
  last_success timestamp with time zone,
  last_failure timestamp with time zone,
  consecutive_failures int,
  last_heartbeat timestamp with time zone,
  version bigint not null,
  priority smallint,
  primary key (task_name, task_instance)
);
create index webhook_tasks_execution_time_idx on webhook_tasks (execution_time);
create index webhook_tasks_last_heartbeat_idx on webhook_tasks (last_heartbeat);
create index webhook_tasks_priority_execution_time_idx on webhook_tasks (priority desc, execution_time asc);
