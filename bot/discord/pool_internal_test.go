package discord

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestDeferDelay: the time left before an interaction must be deferred is
// counted from its creation (its ID's timestamp), never below zero nor
// above DeferAfter, and from now for an ID that is not a snowflake.
func TestDeferDelay(t *testing.T) {
	const after = 1500 * time.Millisecond
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	id := func(created time.Time) string {
		return strconv.FormatUint(uint64(created.UnixMilli()-1420070400000)<<22, 10)
	}
	for _, c := range []struct {
		name string
		id   string
		want time.Duration
	}{
		{"just created", id(now), after},
		{"a second old", id(now.Add(-time.Second)), 500 * time.Millisecond},
		{"older than DeferAfter", id(now.Add(-5 * time.Second)), 0},
		{"from the future (clocks differ)", id(now.Add(3 * time.Second)), after},
		{"not a snowflake", "abc", after},
	} {
		if got := deferDelay(&discordgo.Interaction{ID: c.id}, after, now); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAckGate: an acknowledgement is sent while it can still be on time
// and skipped (errAckTooLate, the request not made) once Discord's
// deadline has passed since the interaction arrived; waitIdle waits for
// the acknowledgements in flight.
func TestAckGate(t *testing.T) {
	g := newAckGate(2)
	sent := 0
	ack := func() error { sent++; return nil }
	if err := g.send(time.Now(), ack); err != nil || sent != 1 {
		t.Fatalf("a fresh acknowledgement: err %v, sent %d", err, sent)
	}
	if err := g.send(time.Now().Add(-discordgo.InteractionDeadline-time.Second), ack); !errors.Is(err, errAckTooLate) || sent != 1 {
		t.Fatalf("an expired acknowledgement: err %v, sent %d; want errAckTooLate and no request", err, sent)
	}
	release := make(chan struct{})
	inFlight := make(chan struct{})
	go func() {
		_ = g.send(time.Now(), func() error { close(inFlight); <-release; return nil })
	}()
	<-inFlight
	idle := make(chan struct{})
	go func() { g.waitIdle(); close(idle) }()
	select {
	case <-idle:
		t.Fatal("waitIdle returned while an acknowledgement was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-idle
}
