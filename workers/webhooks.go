package workers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/ssrf"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

// deliver makes one attempt at a webhook delivery and records it. Retries keep the
// delivery's ID, so receivers see the same webhook-id on every attempt.
func (h *Handlers) deliver(ctx context.Context, _ *asynq.Task, a jobs.WebhookArgs) error {
	d, err := h.Store.GetDelivery(ctx, a.DeliveryID)
	if err != nil {
		if koda.ErrorKind(err) == koda.ENOTFOUND {
			return fmt.Errorf("delivery %s: %w", a.DeliveryID, asynq.SkipRetry)
		}
		return err
	}
	if d.Status != koda.DeliveryPending {
		return nil
	}
	endpoints, _ := h.Store.(koda.EndpointStore)
	if endpoints != nil {
		ep, err := endpoints.GetEndpoint(ctx, d.TenantID, d.URL)
		if err != nil {
			return err
		}
		if ep.DisabledAt != nil {
			// The receiver said 410 Gone; nothing goes out until the tenant redelivers.
			d.Status, d.LastError = koda.DeliveryFailed, koda.CodeEndpointDisabled+": "+ep.Reason
			if err := h.Store.UpdateDelivery(ctx, d); err != nil {
				return fmt.Errorf("update delivery %s: %w", d.ID, err)
			}
			return nil
		}
	}
	attempt, sendErr := h.Webhooks.Deliver(ctx, d)
	if attempt == nil {
		attempt = &koda.WebhookAttempt{At: time.Now().UTC()}
	}
	d.Attempts++
	attempt.DeliveryID, attempt.Attempt = d.ID, d.Attempts
	if sendErr != nil && attempt.Error == "" {
		attempt.Error = webhook.BoundError(sendErr.Error())
	}
	// Recording must not be lost to the task's deadline: the attempt happened.
	rec := context.WithoutCancel(ctx)
	if err := h.Store.AddAttempt(rec, attempt); err != nil {
		return fmt.Errorf("record attempt of %s: %w", d.ID, err)
	}
	switch {
	case sendErr == nil:
		now := time.Now().UTC()
		d.Status, d.DeliveredAt, d.LastError = koda.DeliveryDelivered, &now, ""
	case errors.Is(sendErr, webhook.ErrGone):
		d.Status, d.LastError = koda.DeliveryFailed, attempt.Error
		if endpoints != nil {
			if err := endpoints.DisableEndpoint(rec, d.TenantID, d.URL, "the endpoint answered 410 Gone", time.Now()); err != nil {
				return fmt.Errorf("disable endpoint of %s: %w", d.ID, err)
			}
		}
	case refused(sendErr), lastAttempt(ctx), webhookExhausted(ctx, h.WebhookSchedule):
		d.Status, d.LastError = koda.DeliveryFailed, attempt.Error
	default:
		d.LastError = attempt.Error
	}
	if err := h.Store.UpdateDelivery(rec, d); err != nil {
		return fmt.Errorf("update delivery %s: %w", d.ID, err)
	}
	if sendErr != nil && d.Status == koda.DeliveryFailed {
		return fmt.Errorf("deliver %s: %w: %w", d.ID, sendErr, asynq.SkipRetry)
	}
	return sendErr
}

// refused reports delivery errors a retry cannot fix: the URL is invalid, or it leads
// to an address webhooks must not reach (SSRF).
func refused(err error) bool {
	var blocked *ssrf.BlockedError
	return errors.As(err, &blocked) || koda.ErrorKind(err) == koda.EINVALID
}

// webhookExhausted reports whether this attempt is the last the retry policy allows;
// a redelivery starts a new task and a new count.
func webhookExhausted(ctx context.Context, s webhook.Schedule) bool {
	n, ok := asynq.GetRetryCount(ctx)
	return ok && s.Exhausted(n+1)
}
