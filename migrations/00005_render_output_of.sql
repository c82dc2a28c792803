-- A render may take its video from another render of its batch with the same output
-- (koda.PresetSpec.SameOutput): output_of names that render, whose one job renders and
-- stores the file for all of them; '' for a render that runs its own job.

-- +goose Up
ALTER TABLE renders ADD COLUMN output_of TEXT NOT NULL DEFAULT '';
CREATE INDEX renders_output_of_idx ON renders (output_of);

-- +goose Down
DROP INDEX renders_output_of_idx;
ALTER TABLE renders DROP COLUMN output_of;
