-- Assets in projects and the tenant's brand kit (issue 25). A project keeps the assets
-- it uses (resolved when it is made: role, storage key, file in its folder) and a copy
-- of the brand kit it was made with, both as JSON like its other documents, so a later
-- change of the kit or deletion of an asset never changes a project already made.

-- +goose Up
ALTER TABLE projects ADD COLUMN assets TEXT NOT NULL DEFAULT '[]';
ALTER TABLE projects ADD COLUMN brand TEXT;

CREATE TABLE brands (
    tenant_id        TEXT PRIMARY KEY,
    logo_asset       TEXT NOT NULL DEFAULT '',
    font_asset       TEXT NOT NULL DEFAULT '',
    soundtrack_asset TEXT NOT NULL DEFAULT '',
    color_primary    TEXT NOT NULL DEFAULT '',
    color_secondary  TEXT NOT NULL DEFAULT '',
    color_background TEXT NOT NULL DEFAULT '',
    color_text       TEXT NOT NULL DEFAULT '',
    end_card         TEXT NOT NULL DEFAULT '',
    updated_at       TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE brands;
ALTER TABLE projects DROP COLUMN brand;
ALTER TABLE projects DROP COLUMN assets;
