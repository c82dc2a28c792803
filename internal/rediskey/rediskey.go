// Package rediskey is the one place where Koda's own Redis keys are named. Every
// process of a cluster shares one Redis, so a key built two ways in two files is a
// bug that no single-process test finds; reading this file shows everything Koda
// keeps in Redis besides asynq's own "asynq:*" keys.
package rediskey

import "fmt"

// Prefix starts every key Koda owns, so an operator can tell them from asynq's.
const Prefix = "koda:"

// EventsChannel is the pub/sub channel carrying "project X has new events" between
// processes; the message is the project ID.
const EventsChannel = Prefix + "events"

// SchedulerLeader is held by the one process that runs the periodic scheduler.
const SchedulerLeader = Prefix + "scheduler:leader"

// Semaphore prefixes the keys of the cross-process resource limits.
const Semaphore = Prefix + "sem"

// SemaphoreKeys returns the keys of one resource of the semaphore under prefix: the
// holders by lease expiry, each holder's tenant, the waiting tenants by the time they
// last asked, and each tenant's last grant. The braces keep the four keys of one
// resource in one Redis Cluster slot, which the semaphore's scripts need.
func SemaphoreKeys(prefix, resource string) (holders, owners, waiting, granted string) {
	base := prefix + ":{" + resource + "}"
	return base + ":holders", base + ":owners", base + ":waiting", base + ":granted"
}

// Revived counts how often the reconciler moved an archived task back to pending.
func Revived(taskID string) string { return Prefix + "revived:" + taskID }

// ChunkFrames is the hash of frames done per chunk of one attempt of a split render.
func ChunkFrames(renderID string, attempt int) string {
	return fmt.Sprintf("%schunks:%s:%d:frames", Prefix, renderID, attempt)
}

// ChunksDone is the set of chunks finished in one attempt of a split render.
func ChunksDone(renderID string, attempt int) string {
	return fmt.Sprintf("%schunks:%s:%d:done", Prefix, renderID, attempt)
}

// LiveSandboxes is the semaphore resource whose holders are a tenant's live sandboxes
// on every node (see SemaphoreKeys for its keys). The braces SemaphoreKeys adds keep
// each tenant's keys in one Redis Cluster slot.
func LiveSandboxes(tenant string) string { return "sandboxes:" + tenant }
