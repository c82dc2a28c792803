package koda

import (
	"encoding/json"
	"fmt"
	"math"
)

// SharedStretch is the part of a template batch's timeline whose frames no row of the
// batch changes: the frames before HeadS (an intro before the first field appears)
// and, when TailS > 0, the frames after TailS (an end card after the last one left).
// Those frames are rendered and encoded once per preset spec for the whole batch, and
// each row renders only the frames between, joined to them without re-encoding (as a
// split render's chunks are). agent/templates decides it; the row projects carry it in
// their metadata under MetaSharedStretch.
type SharedStretch struct {
	HeadS float64 `json:"head_s,omitempty"`
	TailS float64 `json:"tail_s,omitempty"`
}

// MetaSharedStretch is the key of a row project's metadata that holds its batch's
// SharedStretch.
const MetaSharedStretch = "shared_stretch"

// sharedEps keeps a frame whose time is within a microsecond of a boundary on the
// row's side: it may show the field.
const sharedEps = 1e-6

// A shared part costs each row a download, a remux and a place in the join (a few
// ffmpeg runs, about half a second of a 2-core worker), which a few frames do not pay
// back: a 1 s preview row sharing 5 of its 15 frames rendered 100 rows in 2m20s against
// 1m27s whole (TestTemplateBatchSurvivesKilledWorkerAndFlushedRedis, both at once on one
// machine). So a part is shared only when it is at least half a second of frames, and
// the parts together at least a second.
const minSharedFrames = 3

// Frames returns, for a video of total frames at fps, how many frames at its start are
// shared (head) and the first shared frame at its end (tail; total when none). Frame i
// shows time i/fps. ok is false when nothing is shared or nothing is the row's own; a
// stretch too short to pay for its join is not shared.
func (s SharedStretch) Frames(fps, total int) (head, tail int, ok bool) {
	if fps <= 0 || total <= 0 {
		return 0, total, false
	}
	if s.HeadS > 0 {
		// Frames i with i/fps < HeadS.
		head = int(math.Ceil((s.HeadS - sharedEps) * float64(fps)))
		head = min(max(head, 0), total)
	}
	tail = total
	if s.TailS > 0 {
		// Frames i with i/fps > TailS.
		tail = int(math.Floor((s.TailS+sharedEps)*float64(fps))) + 1
		tail = min(max(tail, 0), total)
	}
	part := max(minSharedFrames, (fps+1)/2)
	if head < part {
		head = 0
	}
	if total-tail < part {
		tail = total
	}
	if head+total-tail < max(minSharedFrames, fps) {
		head, tail = 0, total
	}
	if head >= tail || (head == 0 && tail == total) {
		return 0, total, false
	}
	return head, tail, true
}

// SharedStretchOf reads a project's SharedStretch from its metadata; ok is false for a
// project that has none.
func SharedStretchOf(meta json.RawMessage) (SharedStretch, bool) {
	if len(meta) == 0 {
		return SharedStretch{}, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil || m[MetaSharedStretch] == nil {
		return SharedStretch{}, false
	}
	var s SharedStretch
	if json.Unmarshal(m[MetaSharedStretch], &s) != nil || (s.HeadS <= 0 && s.TailS <= 0) {
		return SharedStretch{}, false
	}
	return s, true
}

// BatchSharedFolder is the storage folder of a template batch's shared stretch: the
// checkpoint of the scene it is rendered from, and the stretch's videos per spec.
func BatchSharedFolder(batchID string) string { return "batches/" + batchID + "/shared" }

// SharedPartKey is where frames [start, end) of a batch's shared stretch, encoded at
// p's spec, are kept. Renders of the batch with the same spec (PresetSpec.SameOutput)
// share the file.
func SharedPartKey(batchID string, p PresetSpec, start, end int) string {
	return fmt.Sprintf("%s/%dx%d@%d-crf%d-%s-%d-%d.%s", BatchSharedFolder(batchID), p.Width, p.Height, p.FPS, p.CRF,
		p.encoderSpeed(), start, end, p.Format)
}
