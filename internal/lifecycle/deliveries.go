package lifecycle

import (
	"context"
	"errors"
	"fmt"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/ssrf"
	"github.com/kodahq/koda/internal/webhook"
)

// Webhook deliveries: the webhook worker only sends; what a delivery's state becomes
// after an attempt, and when an endpoint is switched off, is decided here.

// DeliveryToSend returns the delivery to attempt, or nil when there is nothing to send:
// it is no longer pending, or its endpoint was disabled (then it fails here, with the
// reason, until the tenant redelivers). A delivery that no longer exists is ENOTFOUND.
func (s *Service) DeliveryToSend(ctx context.Context, id string) (*koda.WebhookDelivery, error) {
	d, err := s.Store.GetDelivery(ctx, id)
	if err != nil {
		return nil, err
	}
	if d.Status != koda.DeliveryPending {
		return nil, nil
	}
	endpoints, ok := s.Store.(koda.EndpointStore)
	if !ok {
		return d, nil
	}
	ep, err := endpoints.GetEndpoint(ctx, d.TenantID, d.URL)
	if err != nil {
		return nil, fmt.Errorf("endpoint of delivery %s: %w", d.ID, err)
	}
	if ep.DisabledAt == nil {
		return d, nil
	}
	// The receiver said 410 Gone; nothing goes out until the tenant redelivers.
	d.Status, d.LastError = koda.DeliveryFailed, koda.CodeEndpointDisabled+": "+ep.Reason
	if err := s.Store.UpdateDelivery(ctx, d); err != nil {
		return nil, fmt.Errorf("update delivery %s: %w", d.ID, err)
	}
	return nil, nil
}

// DeliveryAttempted records one attempt at d and what follows from it: delivered on
// success; failed for good when the receiver answered 410 Gone (its endpoint is then
// disabled), when the URL is refused (invalid, or an address webhooks must not reach),
// or when lastTry says the retry policy allows no more; pending otherwise. It reports
// whether the delivery is settled, so the caller stops retrying.
//
// The caller passes a context that outlives its deadline: the attempt happened and its
// record must not be lost.
func (s *Service) DeliveryAttempted(ctx context.Context, d *koda.WebhookDelivery, attempt *koda.WebhookAttempt, sendErr error, lastTry bool) (settled bool, err error) {
	if attempt == nil {
		attempt = &koda.WebhookAttempt{At: s.now()}
	}
	d.Attempts++
	attempt.DeliveryID, attempt.Attempt = d.ID, d.Attempts
	if sendErr != nil && attempt.Error == "" {
		attempt.Error = webhook.BoundError(sendErr.Error())
	}
	if err := s.Store.AddAttempt(ctx, attempt); err != nil {
		return false, fmt.Errorf("record attempt of %s: %w", d.ID, err)
	}
	switch {
	case sendErr == nil:
		now := s.now()
		d.Status, d.DeliveredAt, d.LastError = koda.DeliveryDelivered, &now, ""
	case errors.Is(sendErr, webhook.ErrGone):
		d.Status, d.LastError = koda.DeliveryFailed, attempt.Error
		if endpoints, ok := s.Store.(koda.EndpointStore); ok {
			if err := endpoints.DisableEndpoint(ctx, d.TenantID, d.URL, "the endpoint answered 410 Gone", s.now()); err != nil {
				return false, fmt.Errorf("disable endpoint of %s: %w", d.ID, err)
			}
		}
	case refused(sendErr), lastTry:
		d.Status, d.LastError = koda.DeliveryFailed, attempt.Error
	default:
		d.LastError = attempt.Error
	}
	if err := s.Store.UpdateDelivery(ctx, d); err != nil {
		return false, fmt.Errorf("update delivery %s: %w", d.ID, err)
	}
	return d.Status != koda.DeliveryPending, nil
}

// refused reports delivery errors a retry cannot fix: the URL is invalid, or it leads
// to an address webhooks must not reach (SSRF).
func refused(err error) bool {
	var blocked *ssrf.BlockedError
	return errors.As(err, &blocked) || koda.ErrorKind(err) == koda.EINVALID
}
