package koda

import (
	"context"
	"time"
)

// SandboxState is where a sandbox is in its life: created → ready → busy → ready … → stopped.
type SandboxState string

const (
	SandboxCreated SandboxState = "created"
	SandboxReady   SandboxState = "ready"
	SandboxBusy    SandboxState = "busy"
	SandboxStopped SandboxState = "stopped"
)

// SandboxSpec asks a provider for a sandbox.
type SandboxSpec struct {
	TenantID  string
	ProjectID string
	Name      string // several sandboxes per project are told apart by name
	// Internal marks Koda's own sandboxes (codegen, preview), which the sandbox pool
	// makes; false is a tenant's sandbox, which providers that can (sandbox/local) hold
	// under the node's ceiling for all tenants together.
	Internal bool
}

// CommandRequest runs a command inside a sandbox (field names of DESIGN.md §3.7).
type CommandRequest struct {
	Command    string        `json:"command"`
	WorkingDir string        `json:"working_dir,omitempty"`
	Background bool          `json:"background,omitempty"`
	Timeout    time.Duration `json:"-"`
	TimeoutMS  int64         `json:"timeout_ms,omitempty"`
}

// CommandResult is the outcome of a command; a background command returns only its PID.
type CommandResult struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
	PID      int    `json:"pid,omitempty"`
}

// SearchMatch is one line matching a search_file_content pattern.
type SearchMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Sandbox is an isolated place where a project's files live and its commands run.
// Paths are relative to the project root; "..", absolute paths and symlink escapes
// answer INVALID_PATH. Missing files answer FILE_NOT_FOUND.
type Sandbox interface {
	ID() string
	ProjectID() string
	State() SandboxState
	// Dir is the host folder holding the project files, for checkpoints and rendering.
	Dir() string

	WriteFile(ctx context.Context, path string, data []byte, append bool) (int64, error)
	ReadFile(ctx context.Context, path string, offset, limit int64) ([]byte, error)
	ListFiles(ctx context.Context, path string, recursive bool) ([]FileInfo, error)
	// Replace swaps old for new and fails unless exactly expected occurrences exist
	// (expected 0 means 1). It returns the number replaced.
	Replace(ctx context.Context, path, old, new string, expected int) (int, error)
	SearchFiles(ctx context.Context, pattern, include string) ([]SearchMatch, error)
	Glob(ctx context.Context, pattern string) ([]string, error)
	RunCommand(ctx context.Context, req CommandRequest) (*CommandResult, error)
}

// SandboxProvider creates and destroys sandboxes. Missing sandboxes answer SANDBOX_NOT_FOUND.
type SandboxProvider interface {
	Create(ctx context.Context, spec SandboxSpec) (Sandbox, error)
	Get(ctx context.Context, id string) (Sandbox, error)
	List(ctx context.Context) ([]Sandbox, error)
	// Destroy stops every process of the sandbox and removes its files.
	Destroy(ctx context.Context, id string) error
}

// SandboxLeases counts each tenant's live sandboxes across every process of a cluster.
// Each sandbox holds a lease that the process holding it renews while it lives, so the
// sandboxes of a process that died stop counting once their leases lapse.
type SandboxLeases interface {
	// TakeSandbox leases one more sandbox for tenant unless limit (≥ 1) are leased
	// already; ok false refuses, with held the count leased. release gives the lease
	// back when the sandbox is gone; calling it more than once does nothing.
	TakeSandbox(ctx context.Context, tenant string, limit int) (release func(), held int, ok bool, err error)
}
