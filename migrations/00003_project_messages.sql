-- Messages a person sends while the agent works (the prompt queue): queued until the
-- current step ends, then applied as feedback. They go with their project.

-- +goose Up
CREATE TABLE project_messages (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL DEFAULT '',
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    applied_at TIMESTAMP
);
CREATE INDEX project_messages_project_idx ON project_messages (project_id, status, id);

-- +goose Down
DROP TABLE project_messages;
