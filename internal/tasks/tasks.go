// Package tasks administers tasks already on the queue: it cancels the work of deleted
// projects and cancelled batches, and frees a task ID for a manual redelivery. It is
// the asynq Inspector behind the lifecycle's Tasks interface.
package tasks

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// Inspector cancels and forgets tasks by their idempotent IDs.
type Inspector struct {
	insp *asynq.Inspector
}

// New returns an Inspector over the asynq inspector insp.
func New(insp *asynq.Inspector) *Inspector { return &Inspector{insp: insp} }

func queueOf(args jobs.Args) (string, error) {
	spec, ok := jobs.Specs[args.Kind()]
	if !ok {
		return "", fmt.Errorf("tasks: no spec for kind %q", args.Kind())
	}
	return spec.Queue, nil
}

func missing(err error) bool {
	return errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound)
}

// Cancel removes the task when it waits (pending, scheduled, retry) and signals the
// worker running it to stop when it is active. A missing task is not an error.
func (i *Inspector) Cancel(ctx context.Context, args jobs.Args) error {
	queue, err := queueOf(args)
	if err != nil {
		return err
	}
	id := args.TaskID()
	info, err := i.insp.GetTaskInfo(queue, id)
	if missing(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cancel %s: %w", id, err)
	}
	switch info.State {
	case asynq.TaskStateActive:
		if err := i.insp.CancelProcessing(id); err != nil {
			return fmt.Errorf("cancel running %s: %w", id, err)
		}
	case asynq.TaskStateCompleted:
		// Done already; keeping it retained keeps its ID taken, as intended.
	default:
		if err := i.insp.DeleteTask(queue, id); err != nil && !missing(err) {
			return fmt.Errorf("delete %s: %w", id, err)
		}
	}
	return nil
}

// Forget deletes a task that is not running, whatever its state, so a task with the
// same ID can be enqueued again. A running task is an ECONFLICT error.
func (i *Inspector) Forget(ctx context.Context, args jobs.Args) error {
	queue, err := queueOf(args)
	if err != nil {
		return err
	}
	id := args.TaskID()
	err = i.insp.DeleteTask(queue, id)
	switch {
	case err == nil, missing(err):
		return nil
	}
	if info, ierr := i.insp.GetTaskInfo(queue, id); ierr == nil && info.State == asynq.TaskStateActive {
		return koda.Errorf(koda.ECONFLICT, koda.CodeDeliveryInProgress, "an attempt is being made right now; try again in a few seconds")
	}
	return fmt.Errorf("forget %s: %w", id, err)
}
