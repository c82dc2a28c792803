-- Koda's initial schema. IDs are application-generated strings that sort by creation
-- time, so no table needs AUTOINCREMENT/SERIAL; events are numbered per project.
-- Times are stored in UTC by the store.

-- +goose Up
CREATE TABLE projects (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL DEFAULT '',
    prompt       TEXT NOT NULL,
    style        TEXT NOT NULL DEFAULT '',
    style_note   TEXT NOT NULL DEFAULT '',
    duration_s   DOUBLE PRECISION NOT NULL DEFAULT 0,
    auto_approve BOOLEAN NOT NULL DEFAULT FALSE,
    presets      TEXT NOT NULL DEFAULT '[]',
    callback_url TEXT NOT NULL DEFAULT '',
    metadata     TEXT,
    phase        TEXT NOT NULL,
    question     TEXT,
    plan         TEXT,
    execution    TEXT NOT NULL DEFAULT '{}',
    preview      TEXT,
    error        TEXT,
    feedback     TEXT NOT NULL DEFAULT '[]',
    step         INTEGER NOT NULL DEFAULT 0,
    pending      TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);
-- Listing a tenant's projects pages by id.
CREATE INDEX projects_tenant_id_idx ON projects (tenant_id, id);
-- The reconciler looks for projects waiting on a task that have not moved for a while.
CREATE INDEX projects_pending_idx ON projects (pending, updated_at);
CREATE INDEX projects_phase_idx ON projects (phase, updated_at);
CREATE INDEX projects_step_idx ON projects (step);

CREATE TABLE renders (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL DEFAULT '',
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    batch_id     TEXT NOT NULL DEFAULT '',
    kind         TEXT NOT NULL,
    preset       TEXT NOT NULL,
    duration_s   DOUBLE PRECISION NOT NULL DEFAULT 0,
    status       TEXT NOT NULL,
    stage        TEXT NOT NULL DEFAULT '',
    percent      DOUBLE PRECISION NOT NULL DEFAULT 0,
    frames_done  INTEGER NOT NULL DEFAULT 0,
    frames_total INTEGER NOT NULL DEFAULT 0,
    video_key    TEXT NOT NULL DEFAULT '',
    thumb_key    TEXT NOT NULL DEFAULT '',
    size_bytes   BIGINT NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    error        TEXT,
    created_at   TIMESTAMP NOT NULL,
    started_at   TIMESTAMP,
    finished_at  TIMESTAMP
);
CREATE INDEX renders_project_id_idx ON renders (project_id, id);
CREATE INDEX renders_batch_id_idx ON renders (batch_id);
CREATE INDEX renders_status_idx ON renders (status, created_at);

CREATE TABLE batches (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL DEFAULT '',
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    render_ids   TEXT NOT NULL DEFAULT '[]',
    created_at   TIMESTAMP NOT NULL,
    completed_at TIMESTAMP
);
CREATE INDEX batches_project_id_idx ON batches (project_id);

CREATE TABLE events (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (project_id, seq)
);

-- Deliveries outlive their project on purpose: they are an outbox, and a delivery may
-- still be owed after the project is deleted.
CREATE TABLE webhook_deliveries (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL DEFAULT '',
    project_id   TEXT NOT NULL DEFAULT '',
    url          TEXT NOT NULL,
    event_type   TEXT NOT NULL,
    payload      TEXT NOT NULL,
    status       TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    delivered_at TIMESTAMP
);
CREATE INDEX webhook_deliveries_status_idx ON webhook_deliveries (status, created_at);
CREATE INDEX webhook_deliveries_project_id_idx ON webhook_deliveries (project_id);
CREATE INDEX webhook_deliveries_tenant_id_idx ON webhook_deliveries (tenant_id, id);

CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    status_code INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    duration_ms BIGINT NOT NULL DEFAULT 0,
    at          TIMESTAMP NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);

CREATE TABLE idempotency_keys (
    tenant_id    TEXT NOT NULL,
    "key"        TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status_code  INTEGER NOT NULL,
    body         TEXT NOT NULL,
    location     TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (tenant_id, "key")
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE events;
DROP TABLE batches;
DROP TABLE renders;
DROP TABLE projects;
