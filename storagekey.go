package koda

import (
	"fmt"
	"strings"
)

// The layout of every file Koda keeps in Storage. Workers write these keys, the API
// and webhooks turn them into URLs, the sandbox pool saves checkpoints under them and
// the maintenance jobs find orphans by parsing them, so all of them are built here:
//
//	projects/<project>/checkpoint.tar.gz           a project's files between sandboxes
//	projects/<project>/state.json                  the agent's state next to them
//	projects/<project>/renders/<render>.<format>   a render's video (previews too)
//	projects/<project>/renders/<render>.jpg        its thumbnail
//	                                               (renders of one batch with the same
//	                                               output share the files under the key
//	                                               of the render that ran the job, see
//	                                               Render.OutputOf)
//	projects/<project>/renders/<render>/chunk-<attempt>-<index>.<format>
//	                                               one chunk of a split render, until stitched
//	tenants/<tenant>/sandboxes/<project>/…         checkpoints of a tenant's API sandboxes
//	templates/<template>/checkpoint.tar.gz         a template's files, copied from its
//	                                               project so deleting the project keeps it
//	assets/<tenant>/<sha256>.<format>              a tenant's checked asset bytes, shared by
//	                                               every asset of the tenant with that content

// ProjectFolder is the storage folder of a Koda project; deleting the project deletes
// everything under ProjectFolder(id)+"/".
func ProjectFolder(projectID string) string { return "projects/" + projectID }

// TenantSandboxFolder is where the checkpoints of a sandbox created through the API
// live: under the tenant, so a project ID chosen by one tenant can never reach another
// tenant's or Koda's own project files.
func TenantSandboxFolder(tenantID, projectID string) string {
	return TenantFolder(tenantID) + "/sandboxes/" + projectID
}

// TenantFolder holds a tenant's own files outside its projects (its API sandboxes'
// checkpoints); deleting the tenant deletes everything under TenantFolder(id)+"/".
func TenantFolder(tenantID string) string { return "tenants/" + tenantID }

// AssetFolder holds a tenant's asset bytes (AssetKey); deleting the tenant deletes
// everything under AssetFolder(id)+"/".
func AssetFolder(tenantID string) string { return "assets/" + tenantID }

// TemplateFolder is the storage folder of a template's files.
func TemplateFolder(templateID string) string { return "templates/" + templateID }

// CheckpointKey is where the files of the sandbox saved under folder are kept.
func CheckpointKey(folder string) string { return folder + "/checkpoint.tar.gz" }

// StateKey is where an agent's execution state is kept next to its checkpoint.
func StateKey(folder string) string { return folder + "/state.json" }

// RenderVideoKey is where a finished render's video is kept; format is the preset's
// container ("mp4", "webm").
func RenderVideoKey(projectID, renderID, format string) string {
	return renderBase(projectID, renderID) + "." + format
}

// RenderThumbKey is where a finished render's thumbnail is kept.
func RenderThumbKey(projectID, renderID string) string {
	return renderBase(projectID, renderID) + ".jpg"
}

// ChunkKey is where chunk index of attempt of a split render is kept until stitched.
func ChunkKey(projectID, renderID string, attempt, index int, format string) string {
	return fmt.Sprintf("%s/chunk-%d-%03d.%s", renderBase(projectID, renderID), attempt, index, format)
}

func renderBase(projectID, renderID string) string {
	return ProjectFolder(projectID) + "/renders/" + renderID
}

// StorageKeyOwner tells which project and render (if any) a key under projects/ belongs
// to; ok is false for keys outside that folder. The orphan clean-up uses it to find
// files whose project or render no longer exists.
func StorageKeyOwner(key string) (projectID, renderID string, ok bool) {
	rest, found := strings.CutPrefix(key, "projects/")
	if !found {
		return "", "", false
	}
	projectID, rest, found = strings.Cut(rest, "/")
	if !found || projectID == "" {
		return "", "", false
	}
	if rest, found = strings.CutPrefix(rest, "renders/"); found {
		renderID, _, _ = strings.Cut(rest, "/")
		renderID, _, _ = strings.Cut(renderID, ".")
	}
	return projectID, renderID, true
}

// AssetKey is where a tenant's asset bytes are kept, named by their SHA-256 so the
// same content is stored once per tenant; the format's extension makes file servers
// send the right Content-Type. Assets live outside tenants/ on purpose: the orphan
// clean-up deletes files there whose tenant has no row, and a tenant served by a key
// from configuration (the default tenant) may have none.
func AssetKey(tenantID, sha256Hex, format string) string {
	return AssetFolder(tenantID) + "/" + sha256Hex + "." + format
}
