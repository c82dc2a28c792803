-- Deleting a tenant (issue 26) is a soft delete: the row stays, with the time it was
-- deleted, so its usage and audit records keep their tenant and its ID can never be
-- taken again (a new key for it, or a new tenant with it, is refused).

-- +goose Up
ALTER TABLE tenants ADD COLUMN deleted_at TIMESTAMP;

-- +goose Down
ALTER TABLE tenants DROP COLUMN deleted_at;
