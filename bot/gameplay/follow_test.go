package gameplay_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// followTexts returns the texts of the NotifyFollow notifications to
// user among ns.
func followTexts(ns []bot.Notification, user string) []string {
	var out []string
	for _, n := range ns {
		if n.Kind == bot.NotifyFollow && n.UserID == user {
			out = append(out, n.Text)
		}
	}
	return out
}

// TestFollowersToldOfMovesAndResult: followers kept in the follow store
// are told each move and the result of a game that ends on time (the
// sweep's update), in the transaction of the update; following changes
// neither the game nor its version; a player cannot follow, nor anyone
// past MaxFollowers; unfollowing stops it.
func TestFollowersToldOfMovesAndResult(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	e.play(t, g.ID, "alice e4", "bob e5")
	before := must(t)(e.svc.Views().Game(ctx, g.ID))
	if _, err := e.svc.Follow(ctx, g.ID, "carol"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Follow(ctx, g.ID, "carol"); bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(err.Error(), "already") {
		t.Errorf("following twice: %v", err)
	}
	if _, err := e.svc.Follow(ctx, g.ID, "alice"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("a player following: %v", err)
	}
	if after := must(t)(e.svc.Views().Game(ctx, g.ID)); after.Version != before.Version {
		t.Errorf("following moved the game from version %d to %d", before.Version, after.Version)
	}
	for i := 2; i <= gameplay.MaxFollowers; i++ {
		if _, err := e.svc.Follow(ctx, g.ID, fmt.Sprint("fan", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.svc.Follow(ctx, g.ID, "one-too-many"); bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(err.Error(), "the most there can be") {
		t.Errorf("follower %d: %v", gameplay.MaxFollowers+1, err)
	}
	if _, err := e.svc.Unfollow(ctx, g.ID, "fan2"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Unfollow(ctx, g.ID, "fan2"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("unfollowing twice: %v", err)
	}
	skip := len(e.outbox(t))
	e.play(t, g.ID, "alice Nf3")
	ns := e.notifications(t, skip)
	if got := followTexts(ns, "carol"); len(got) != 1 || !strings.Contains(got[0], "played Nf3") {
		t.Errorf("carol was told of alice's move: %q", got)
	}
	if got := followTexts(ns, "fan2"); got != nil {
		t.Errorf("fan2, who unfollowed, was told %q", got)
	}
	// bob lets his time run out: the sweep ends the game, and the
	// followers learn the result as the players do.
	skip = len(e.outbox(t))
	e.clock.Advance(4 * 24 * time.Hour)
	if rep := e.sweep(t); rep.TimedOut != 1 {
		t.Fatalf("sweep: %+v", rep)
	}
	ns = e.notifications(t, skip)
	var over string
	for _, n := range ns {
		if n.Kind == bot.NotifyGameOver && n.UserID == "alice" {
			over = n.Text
		}
	}
	if got := followTexts(ns, "carol"); over == "" || !slices.Equal(got, []string{over}) {
		t.Errorf("carol was told %q of the time-out; the players %q", got, over)
	}
	if got := followTexts(ns, "fan3"); !slices.Equal(got, []string{over}) {
		t.Errorf("fan3 was told %q", got)
	}
	if _, err := e.svc.Follow(ctx, g.ID, "dave"); bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(err.Error(), "is over") {
		t.Errorf("following a game over: %v", err)
	}
}

// TestNotesKeptApart: a player's note lives in the note store: adding
// lines and clearing change neither the game nor its version, the other
// player does not see it, and an opponent's or a spectator's attempt is
// refused.
func TestNotesKeptApart(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	notes := e.svc.Notes()
	if _, err := notes.Add(ctx, g.ID, "alice", "castle long"); err != nil {
		t.Fatal(err)
	}
	if got, err := notes.Add(ctx, g.ID, "alice", "then h4"); err != nil || got != "castle long\nthen h4" {
		t.Errorf("the second line: %q, %v", got, err)
	}
	if got, err := notes.Read(ctx, g.ID, "bob"); err != nil || got != "" {
		t.Errorf("bob reads %q, %v", got, err)
	}
	if _, err := notes.Add(ctx, g.ID, "carol", "mine"); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Errorf("a spectator's note: %v", err)
	}
	if _, err := notes.Read(ctx, g.ID+100, "alice"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("a note on no game: %v", err)
	}
	if after := must(t)(e.svc.Views().Game(ctx, g.ID)); after.Version != g.Version {
		t.Errorf("notes moved the game from version %d to %d", g.Version, after.Version)
	}
	if err := notes.Clear(ctx, g.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	if err := notes.Clear(ctx, g.ID, "alice"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("clearing no note: %v", err)
	}
	if got, _ := notes.Read(ctx, g.ID, "alice"); got != "" {
		t.Errorf("after clearing: %q", got)
	}
}
