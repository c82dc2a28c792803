package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"
	"github.com/kodahq/koda"
)

// Client is the asynq-backed koda.Queue.
type Client struct {
	client *asynq.Client
}

var _ koda.Queue = (*Client)(nil)

// NewClient returns a Client enqueueing through c.
func NewClient(c *asynq.Client) *Client { return &Client{client: c} }

// NewTask encodes args as an asynq task with the options of its kind.
func NewTask(args Args) (*asynq.Task, error) {
	spec, ok := Specs[args.Kind()]
	if !ok {
		return nil, fmt.Errorf("jobs: no spec for kind %q", args.Kind())
	}
	payload, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("jobs: encode %s: %w", args.Kind(), err)
	}
	opts := []asynq.Option{
		asynq.Queue(spec.Queue),
		asynq.Timeout(spec.Timeout),
		asynq.MaxRetry(spec.MaxRetry),
	}
	if id := args.TaskID(); id != "" {
		opts = append(opts, asynq.TaskID(id))
	}
	if spec.Unique > 0 {
		opts = append(opts, asynq.Unique(spec.Unique))
	}
	if spec.Retention > 0 {
		opts = append(opts, asynq.Retention(spec.Retention))
	}
	return asynq.NewTask(args.Kind(), payload, opts...), nil
}

// Enqueue puts args on its queue. A task with the same ID already queued, running or
// retained counts as enqueued, so callers may enqueue the same step twice.
func (c *Client) Enqueue(ctx context.Context, a koda.JobArgs) error {
	args, ok := a.(Args)
	if !ok {
		return fmt.Errorf("jobs: %T is not a jobs.Args", a)
	}
	task, err := NewTask(args)
	if err != nil {
		return err
	}
	if _, err := c.client.EnqueueContext(ctx, task); err != nil {
		if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
			return nil
		}
		return &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable,
			Message: "the queue is unavailable", Err: fmt.Errorf("enqueue %s: %w", args.TaskID(), err)}
	}
	return nil
}

// Decode reads the payload of t into a value of type T.
func Decode[T any](t *asynq.Task) (T, error) {
	var v T
	if err := json.Unmarshal(t.Payload(), &v); err != nil {
		return v, fmt.Errorf("decode %s payload: %w", t.Type(), err)
	}
	return v, nil
}
