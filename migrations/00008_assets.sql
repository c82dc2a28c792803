-- A tenant's asset library (issue 25): checked images, fonts and audio. The bytes are
-- in storage under a key named by their SHA-256 (koda.AssetKey); several rows of one
-- tenant may share them, so an upload of bytes already stored stores nothing new and
-- deleting one row keeps the object while another refers to it. And a tenant limit on
-- the bytes of the library, each distinct content counted once.

-- +goose Up
CREATE TABLE assets (
    id            TEXT PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    kind          TEXT NOT NULL,
    format        TEXT NOT NULL,
    source_format TEXT NOT NULL DEFAULT '',
    media_type    TEXT NOT NULL,
    size          BIGINT NOT NULL,
    sha256        TEXT NOT NULL,
    storage_key   TEXT NOT NULL,
    width         INTEGER NOT NULL DEFAULT 0,
    height        INTEGER NOT NULL DEFAULT 0,
    duration_s    DOUBLE PRECISION NOT NULL DEFAULT 0,
    codec         TEXT NOT NULL DEFAULT '',
    name          TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMP NOT NULL
);
CREATE INDEX assets_tenant_id_idx ON assets (tenant_id, id);
CREATE INDEX assets_tenant_kind_idx ON assets (tenant_id, kind, id);
CREATE INDEX assets_tenant_sha256_idx ON assets (tenant_id, sha256);

ALTER TABLE tenants ADD COLUMN limit_asset_bytes BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE tenants DROP COLUMN limit_asset_bytes;
DROP TABLE assets;
