package gameplay_test

import (
	"context"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// TestClaimThread: the first claim of a game's thread is recorded; a
// later one changes nothing and answers the first; bad input changes
// nothing.
func TestClaimThread(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	g := e.start(t, "chess")
	got, err := e.svc.ClaimThread(ctx, g.ID, "t1")
	if err != nil || got != "t1" {
		t.Fatalf("first claim: %q, %v; want t1", got, err)
	}
	before := e.snapshot(t)
	if got, err := e.svc.ClaimThread(ctx, g.ID, "t2"); err != nil || got != "t1" {
		t.Errorf("second claim: %q, %v; want t1 (the first)", got, err)
	}
	for _, bad := range []string{"", string(make([]byte, 65))} {
		if _, err := e.svc.ClaimThread(ctx, g.ID, bad); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("claim %q: %v, want EINVALID", bad, err)
		}
	}
	if _, err := e.svc.ClaimThread(ctx, g.ID+100, "t3"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("claim for an unknown game: %v, want ENOTFOUND", err)
	}
	e.wantUnchanged(t, before)
	if sg := e.game(t, g.ID); sg.ThreadID != "t1" {
		t.Errorf("the game names %q, want t1", sg.ThreadID)
	}
}
