package events

import (
	"testing"
	"time"
)

func TestPublishWakesOnlyThatProject(t *testing.T) {
	b := NewBroker()
	a, cancelA := b.Subscribe("prj_a")
	defer cancelA()
	other, cancelOther := b.Subscribe("prj_b")
	defer cancelOther()

	b.Publish("prj_a")
	b.Publish("prj_a") // coalesces with the pending wake-up instead of blocking
	select {
	case <-a:
	case <-time.After(time.Second):
		t.Fatal("subscriber of prj_a was not woken")
	}
	select {
	case <-other:
		t.Fatal("subscriber of prj_b was woken by prj_a's event")
	default:
	}
	cancelA()
	b.Publish("prj_a") // no subscriber left: must not panic or block
}
