package workers

import (
	"context"
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

// deliver makes one attempt at a webhook delivery; the lifecycle decides what the
// delivery becomes. Retries keep the delivery's ID, so receivers see the same
// webhook-id on every attempt.
func (h *Handlers) deliver(ctx context.Context, _ *asynq.Task, a jobs.WebhookArgs) error {
	d, err := h.Lifecycle.DeliveryToSend(ctx, a.DeliveryID)
	if err != nil {
		if koda.ErrorKind(err) == koda.ENOTFOUND {
			return fmt.Errorf("delivery %s: %w", a.DeliveryID, asynq.SkipRetry)
		}
		return err
	}
	if d == nil {
		return nil
	}
	attempt, sendErr := h.Webhooks.Deliver(ctx, d)
	lastTry := lastAttempt(ctx) || webhookExhausted(ctx, h.WebhookSchedule)
	settled, err := h.Lifecycle.DeliveryAttempted(context.WithoutCancel(ctx), d, attempt, sendErr, lastTry)
	if err != nil {
		return err
	}
	if sendErr != nil && settled {
		return fmt.Errorf("deliver %s: %w: %w", d.ID, sendErr, asynq.SkipRetry)
	}
	return sendErr
}

// webhookExhausted reports whether this attempt is the last the retry policy allows;
// a redelivery starts a new task and a new count.
func webhookExhausted(ctx context.Context, s webhook.Schedule) bool {
	n, ok := asynq.GetRetryCount(ctx)
	return ok && s.Exhausted(n+1)
}
