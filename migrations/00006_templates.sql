-- Templates: a finished project's scene with named fields, versioned (every edit adds a
-- version; a batch keeps the version it was made with); the rows of template batches;
-- and a tenant limit on the rows of one batch.

-- +goose Up
CREATE TABLE templates (
    id          TEXT PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    project_id  TEXT NOT NULL DEFAULT '',
    name        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    duration_s  DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE INDEX templates_tenant_id_idx ON templates (tenant_id, id);

CREATE TABLE template_versions (
    template_id TEXT NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    fields      TEXT NOT NULL,
    scene       TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (template_id, version)
);

-- Rows outlive neither their batch's manifest nor their project: a row's project is
-- deleted like any project, and the manifest then reports the row without renders.
CREATE TABLE batch_rows (
    batch_id         TEXT NOT NULL,
    row_no           INTEGER NOT NULL,
    template_id      TEXT NOT NULL,
    template_version INTEGER NOT NULL,
    project_id       TEXT NOT NULL DEFAULT '',
    field_values     TEXT NOT NULL DEFAULT '{}',
    errors           TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (batch_id, row_no)
);

ALTER TABLE tenants ADD COLUMN limit_batch_rows INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE tenants DROP COLUMN limit_batch_rows;
DROP TABLE batch_rows;
DROP TABLE template_versions;
DROP TABLE templates;
