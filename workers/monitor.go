package workers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/kodahq/koda"
)

// FormatPayload describes a task for Asynqmon: the IDs of its payload with what the
// database says of them now (project phase, render preset, stage and progress).
// It is asynqmon.PayloadFormatterFunc's shape.
func FormatPayload(store koda.Store) func(taskType string, payload []byte) string {
	return func(_ string, payload []byte) string {
		var r struct {
			refs
			Step       int    `json:"step"`
			DeliveryID string `json:"delivery_id"`
			Attempt    int    `json:"attempt"`
		}
		if err := json.Unmarshal(payload, &r); err != nil {
			return string(payload)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var parts []string
		if r.RenderID != "" {
			parts = append(parts, "render "+r.RenderID)
			if rd, err := store.GetRender(ctx, r.RenderID); err == nil {
				if r.ProjectID == "" {
					parts = append(parts, "project "+rd.ProjectID)
				}
				parts = append(parts, "preset "+rd.Preset.Name, string(rd.Status), progressText(rd.Progress))
			}
		}
		if r.ProjectID != "" {
			parts = append(parts, "project "+r.ProjectID, fmt.Sprintf("step %d", r.Step))
			if p, err := store.GetProject(ctx, r.ProjectID); err == nil {
				parts = append(parts, "phase "+string(p.Phase))
			}
		}
		if r.DeliveryID != "" {
			parts = append(parts, "delivery "+r.DeliveryID)
			if d, err := store.GetDelivery(ctx, r.DeliveryID); err == nil {
				parts = append(parts, "project "+d.ProjectID, d.EventType, string(d.Status), fmt.Sprintf("%d attempts", d.Attempts))
			}
		}
		if r.Attempt > 0 {
			parts = append(parts, fmt.Sprintf("user retry %d", r.Attempt))
		}
		if len(parts) == 0 {
			return string(payload)
		}
		return strings.Join(parts, " · ")
	}
}

// FormatResult describes a task's result for Asynqmon: render progress, or the copy a
// busy task was handed over to. It is asynqmon.ResultFormatterFunc's shape.
func FormatResult(_ string, result []byte) string {
	if s := string(result); strings.HasPrefix(s, handoffPrefix) {
		return "busy: handed over to " + strings.TrimPrefix(s, handoffPrefix)
	}
	var pr koda.RenderProgress
	if err := json.Unmarshal(result, &pr); err == nil && pr.Stage != "" {
		return progressText(pr)
	}
	return string(result)
}

func progressText(pr koda.RenderProgress) string {
	s := fmt.Sprintf("%s %.0f%%", pr.Stage, pr.Percent)
	if pr.FramesTotal > 0 {
		s += fmt.Sprintf(" (%d/%d frames)", pr.FramesDone, pr.FramesTotal)
	}
	return s
}
