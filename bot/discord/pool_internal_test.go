package discord

import (
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
