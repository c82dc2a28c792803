package koda

import "testing"

func TestStorageKeyOwner(t *testing.T) {
	cases := []struct {
		key, project, render string
		ok                   bool
	}{
		{CheckpointKey(ProjectFolder("prj_1")), "prj_1", "", true},
		{StateKey(ProjectFolder("prj_1")), "prj_1", "", true},
		{RenderVideoKey("prj_1", "rnd_2", "mp4"), "prj_1", "rnd_2", true},
		{RenderThumbKey("prj_1", "rnd_2"), "prj_1", "rnd_2", true},
		{ChunkKey("prj_1", "rnd_2", 3, 4, "webm"), "prj_1", "rnd_2", true},
		{CheckpointKey(TenantSandboxFolder("ten_1", "p")), "", "", false},
		{"projects/", "", "", false},
		{"projects/prj_1", "", "", false},
	}
	for _, c := range cases {
		p, r, ok := StorageKeyOwner(c.key)
		if p != c.project || r != c.render || ok != c.ok {
			t.Errorf("StorageKeyOwner(%q) = %q, %q, %v; want %q, %q, %v", c.key, p, r, ok, c.project, c.render, c.ok)
		}
	}
	if got := ChunkKey("p", "r", 1, 7, "mp4"); got != "projects/p/renders/r/chunk-1-007.mp4" {
		t.Errorf("chunk key %q", got)
	}
}
