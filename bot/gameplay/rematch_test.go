package gameplay_test

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestRematch: a rematch keeps the variant, its options and the days per
// move, swaps the colours, and is answered as any challenge; a second
// request while one stands, a game not finished and a stranger are
// refused.
func TestRematch(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "easymate", Options: "tigers=on", DaysPerMove: 5, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g := must(t)(e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan))
	if _, err := e.svc.Challenges().Rematch(ctx, g.ID, "bob"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("rematch of a game being played: %v", err)
	}
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	if _, err := e.svc.Challenges().Rematch(ctx, g.ID, "carol"); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Errorf("rematch by a stranger: %v", err)
	}
	n := len(e.outbox(t))
	r, err := e.svc.Challenges().Rematch(ctx, g.ID, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if r.Challenger != "bob" || r.Challenged != "alice" || r.Variant != "easymate" || r.Options != g.Options ||
		r.DaysPerMove != 5 || r.Color != bot.ColorWhite || r.ChannelID != "chan" {
		t.Fatalf("rematch challenge %+v of game %+v", r, g)
	}
	if got := notificationKinds(e.notifications(t, n)); len(got) != 1 || got[0] != "challenge-received alice" {
		t.Errorf("notifications %q", got)
	}
	for _, who := range []string{"bob", "alice"} {
		_, err := e.svc.Challenges().Rematch(ctx, g.ID, who)
		if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "#2") {
			t.Errorf("a second rematch by %s: %v", who, err)
		}
	}
	ng := must(t)(e.svc.Challenges().Accept(ctx, r.ID, r.Version, "alice", inChan))
	if ng.White != "bob" || ng.Black != "alice" || ng.Options != g.Options || ng.DaysPerMove != 5 || ng.Variant != "easymate" || ng.Rated {
		t.Errorf("the rematch %+v, after %+v", ng, g)
	}
}

// TestRematchPreGame: in Crazyhouse Annihilation, whose colours follow
// from the pre-game choice, the rematch swaps the choices: the player
// who picked the army picks who moves first.
func TestRematchPreGame(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "annihilation") // bob, the challenged player, picks the army
	if g.Setup == nil || g.Setup.ArmyPicker() != "bob" {
		t.Fatalf("setup %+v", g.Setup)
	}
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: "bob", Choice: "white"}))
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: "alice", Choice: "me"}))
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: "alice"}))
	for _, c := range []struct{ asker, picker string }{{"bob", "alice"}, {"alice", "alice"}} {
		r, err := e.svc.Challenges().Rematch(ctx, g.ID, c.asker)
		if err != nil {
			t.Fatal(err)
		}
		s := bot.Setup{Challenger: r.Challenger, Challenged: r.Challenged, Chooser: r.Chooser}
		if s.ArmyPicker() != c.picker || r.Color != bot.ColorRandom {
			t.Errorf("rematch asked by %s: army picked by %s, colour %v; want %s", c.asker, s.ArmyPicker(), r.Color, c.picker)
		}
		if _, err := e.svc.Challenges().Cancel(ctx, r.ID, bot.AnyVersion, c.asker); err != nil {
			t.Fatal(err)
		}
	}
}
