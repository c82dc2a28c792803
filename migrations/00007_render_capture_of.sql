-- A render may have its frames captured by another render's job of its batch
-- (koda.CaptureGroups: the same aspect, a frame rate dividing the capture's): capture_of
-- names that render, whose one job captures the frames once and encodes this render's
-- own video from them; '' for a render that captures its own.

-- +goose Up
ALTER TABLE renders ADD COLUMN capture_of TEXT NOT NULL DEFAULT '';
CREATE INDEX renders_capture_of_idx ON renders (capture_of);

-- +goose Down
DROP INDEX renders_capture_of_idx;
ALTER TABLE renders DROP COLUMN capture_of;
