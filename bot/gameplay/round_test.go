package gameplay_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestGameUpdateExtensions: a registered finisher runs inside every game
// update, after the change, seeing the game as read and as changed; what
// it adds is stored with the update, and its error changes nothing. A
// registered event runs after each committed update only, and after the
// creation of a game by an accepted challenge, with the game as stored.
func TestGameUpdateExtensions(t *testing.T) {
	e := newEnv(t)
	var seen []bot.GameBefore
	var fail error
	e.svc.AddFinisher(func(u *bot.GameUpdate) error {
		seen = append(seen, u.Before)
		if fail != nil {
			return fail
		}
		u.Notifications = append(u.Notifications, bot.Notification{Kind: bot.NotifyYourTurn, UserID: "carol",
			GameID: u.Game.ID, Text: "seen by the finisher", Created: u.Game.Updated})
		return nil
	})
	var committed []uint64
	e.svc.OnGameCommitted(func(_ context.Context, g *bot.Game) { committed = append(committed, g.Version) })
	g := e.start(t, "chess")

	res, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e4", Version: g.Version})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0].Moves != 0 || seen[0].ToAct != "alice" || !seen[0].Ongoing {
		t.Fatalf("the finisher saw %+v, want the game as read: no move, alice to act", seen)
	}
	if !slices.Equal(committed, []uint64{g.Version, res.Game.Version}) {
		t.Fatalf("events ran for versions %v, want %d (the game created) and %d (the move)", committed, g.Version, res.Game.Version)
	}
	told, err := e.db.PendingNotifications(ctx, e.clock.Now(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(told, func(n bot.Notification) bool { return n.UserID == "carol" && n.Text == "seen by the finisher" }) {
		t.Errorf("the finisher's notification is not in the outbox: %+v", told)
	}

	fail = errors.New("refused by the finisher")
	if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "e5"}); !errors.Is(err, fail) {
		t.Fatalf("move under a failing finisher: %v, want its error", err)
	}
	after, err := e.svc.Views().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != res.Game.Version || len(after.Moves) != 1 {
		t.Errorf("a failing finisher changed the game: version %d, moves %v", after.Version, after.Moves)
	}
	if len(committed) != 2 {
		t.Errorf("events ran after a failed update: %v", committed)
	}
}
