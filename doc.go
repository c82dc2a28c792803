// Package koda holds Koda's domain: projects and their phase machine, presets, renders,
// events, webhooks, and the interfaces (Store, Storage, Queue, Renderer, Agent,
// SandboxProvider) that the subpackages implement and cmd/koda wires together.
// It imports only the standard library.
package koda
