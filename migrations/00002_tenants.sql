-- Tenants, their API keys (only SHA-256 hashes are stored), usage records, the
-- disabled state of webhook endpoints, and batches that span several projects.

-- +goose Up
CREATE TABLE tenants (
    id                          TEXT PRIMARY KEY,
    name                        TEXT NOT NULL DEFAULT '',
    limit_concurrent_projects   INTEGER NOT NULL DEFAULT 0,
    limit_live_sandboxes        INTEGER NOT NULL DEFAULT 0,
    limit_renders_per_day       INTEGER NOT NULL DEFAULT 0,
    limit_render_seconds_month  DOUBLE PRECISION NOT NULL DEFAULT 0,
    webhook_secret              TEXT NOT NULL DEFAULT '',
    previous_secret             TEXT NOT NULL DEFAULT '',
    previous_expires_at         TIMESTAMP,
    created_at                  TIMESTAMP NOT NULL,
    updated_at                  TIMESTAMP NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name         TEXT NOT NULL DEFAULT '',
    prefix       TEXT NOT NULL,
    hash         TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at   TIMESTAMP
);
CREATE UNIQUE INDEX api_keys_hash_idx ON api_keys (hash);
CREATE INDEX api_keys_tenant_id_idx ON api_keys (tenant_id, id);

-- Usage outlives projects on purpose: a deleted project's renders were still used.
CREATE TABLE usage_records (
    id             TEXT PRIMARY KEY,
    tenant_id      TEXT NOT NULL,
    project_id     TEXT NOT NULL DEFAULT '',
    render_id      TEXT NOT NULL DEFAULT '',
    kind           TEXT NOT NULL,
    preset         TEXT NOT NULL DEFAULT '',
    duration_s     DOUBLE PRECISION NOT NULL DEFAULT 0,
    frames         INTEGER NOT NULL DEFAULT 0,
    render_seconds DOUBLE PRECISION NOT NULL DEFAULT 0,
    stop_reason    TEXT NOT NULL DEFAULT '',
    at             TIMESTAMP NOT NULL
);
CREATE INDEX usage_records_tenant_at_idx ON usage_records (tenant_id, at);

CREATE TABLE webhook_endpoints (
    tenant_id   TEXT NOT NULL,
    url         TEXT NOT NULL,
    disabled_at TIMESTAMP,
    reason      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tenant_id, url)
);

-- Renders are counted per tenant and day for limits.
CREATE INDEX renders_tenant_created_idx ON renders (tenant_id, created_at);

-- A batch may now span several projects (project_id empty), so it no longer belongs
-- to one project by foreign key; it gains cancellation and its own callback URL.
CREATE TABLE batches_v2 (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL DEFAULT '',
    project_id   TEXT NOT NULL DEFAULT '',
    render_ids   TEXT NOT NULL DEFAULT '[]',
    callback_url TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    completed_at TIMESTAMP,
    cancelled_at TIMESTAMP
);
INSERT INTO batches_v2 (id, tenant_id, project_id, render_ids, created_at, completed_at)
    SELECT id, tenant_id, project_id, render_ids, created_at, completed_at FROM batches;
DROP TABLE batches;
ALTER TABLE batches_v2 RENAME TO batches;
CREATE INDEX batches_project_id_idx ON batches (project_id);
CREATE INDEX batches_tenant_id_idx ON batches (tenant_id, id);

-- +goose Down
CREATE TABLE batches_v1 (
    id           TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL DEFAULT '',
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    render_ids   TEXT NOT NULL DEFAULT '[]',
    created_at   TIMESTAMP NOT NULL,
    completed_at TIMESTAMP
);
INSERT INTO batches_v1 (id, tenant_id, project_id, render_ids, created_at, completed_at)
    SELECT id, tenant_id, project_id, render_ids, created_at, completed_at FROM batches
    WHERE project_id IN (SELECT id FROM projects);
DROP TABLE batches;
ALTER TABLE batches_v1 RENAME TO batches;
CREATE INDEX batches_project_id_idx ON batches (project_id);
DROP INDEX renders_tenant_created_idx;
DROP TABLE webhook_endpoints;
DROP TABLE usage_records;
DROP TABLE api_keys;
DROP TABLE tenants;
