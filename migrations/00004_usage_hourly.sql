-- Hourly usage aggregates: one row per tenant, UTC hour and render kind, recomputed
-- from usage_records by the maintenance:usage job. A record is marked rolled once an
-- aggregate counts it; GET /v1/usage adds the records not rolled yet, so answers are
-- current between runs. A record that arrives late for an hour already rolled is
-- unrolled like any new one, and the next run recomputes that hour whole.

-- +goose Up
CREATE TABLE usage_hourly (
    tenant_id      TEXT NOT NULL,
    hour           TIMESTAMP NOT NULL,
    kind           TEXT NOT NULL,
    renders        INTEGER NOT NULL DEFAULT 0,
    frames         BIGINT NOT NULL DEFAULT 0,
    duration_s     DOUBLE PRECISION NOT NULL DEFAULT 0,
    render_seconds DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, hour, kind)
);

ALTER TABLE usage_records ADD COLUMN rolled BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX usage_records_unrolled_idx ON usage_records (tenant_id, at) WHERE NOT rolled;

-- +goose Down
DROP INDEX usage_records_unrolled_idx;
ALTER TABLE usage_records DROP COLUMN rolled;
DROP TABLE usage_hourly;
