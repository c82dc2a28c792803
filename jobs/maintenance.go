package jobs

// Periodic maintenance kinds, enqueued by the one elected scheduler of the cluster.
// Never rename: they are stored in Redis. Idle sandboxes are not among them: each
// process reaps the sandboxes it holds itself (sandbox.Pool.RunReaper).
const (
	KindCleanPreviews = "maintenance:previews"    // delete preview videos older than a day
	KindDailyCleanup  = "maintenance:daily"       // orphaned stored files
	KindIdempotency   = "maintenance:idempotency" // purge idempotency records past their window
	KindUsage         = "maintenance:usage"       // roll usage records up into hourly aggregates
)

// CleanPreviewsArgs asks for the deletion of old preview videos (final videos stay).
type CleanPreviewsArgs struct{}

func (CleanPreviewsArgs) Kind() string   { return KindCleanPreviews }
func (CleanPreviewsArgs) TaskID() string { return "" }

// DailyCleanupArgs asks for the daily deletion of stored files nothing refers to.
type DailyCleanupArgs struct{}

func (DailyCleanupArgs) Kind() string   { return KindDailyCleanup }
func (DailyCleanupArgs) TaskID() string { return "" }

// PurgeIdempotencyArgs asks for the deletion of idempotency records older than
// koda.IdempotencyWindow: they hold whole responses.
type PurgeIdempotencyArgs struct{}

func (PurgeIdempotencyArgs) Kind() string   { return KindIdempotency }
func (PurgeIdempotencyArgs) TaskID() string { return "" }

// UsageArgs asks for the roll-up of usage records into hourly aggregates.
type UsageArgs struct{}

func (UsageArgs) Kind() string   { return KindUsage }
func (UsageArgs) TaskID() string { return "" }
