package gameplay_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestPauseByConsent: a pause needs both players; a paused game takes no
// move and cannot time out; resuming gives back the time left.
func TestPauseByConsent(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5")
	e.clock.Advance(day)
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	if g.PauseOffer != "alice" || !g.PausedAt.IsZero() {
		t.Fatalf("after asking: %+v", g)
	}
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("asking twice: %v", err)
	}
	deadline := g.Deadline
	n := len(e.outbox(t))
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if g.PausedAt.IsZero() || !g.Deadline.IsZero() || !g.PausedDeadline.Equal(deadline) {
		t.Fatalf("after agreeing: %+v", g)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"pause alice", "pause bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications %q, want %q", got, want)
	}
	if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "Nf3"}); err == nil || !strings.Contains(bot.ErrorMessage(err), "is paused") {
		t.Errorf("a move in a paused game: %v", err)
	}
	e.clock.Advance(100 * day)
	if rep, err := e.svc.Sweep(ctx); err != nil || rep.Total() != 0 {
		t.Fatalf("sweep of a paused game: %+v, %v", rep, err)
	}
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResume, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if !g.PausedAt.IsZero() || !g.Deadline.Equal(deadline.Add(100*day)) {
		t.Fatalf("after resuming: deadline %v, want %v", g.Deadline, deadline.Add(100*day))
	}
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResume, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("resuming a game not paused: %v", err)
	}
	// A request lapses with the next move.
	must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActPause, GameID: g.ID, Version: bot.AnyVersion, UserID: "bob"}))
	if res := e.play(t, g.ID, "alice Nf3"); res.Game.PauseOffer != "" {
		t.Errorf("the request outlived a move: %+v", res.Game)
	}
}
