package gameplay_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

// threeDays is the time per move of the games of this file.
const threeDays = 3 * 24 * time.Hour

// startFrom creates, through the store as Accept would, an active game of
// variant between alice (White) and bob (Black) in channel "chan" from
// fen, with 3 days per move: the positions the rules of this file need,
// which would take long sequences of moves to reach from the start.
func (e *env) startFrom(tb testing.TB, variant, fen string) *bot.Game {
	tb.Helper()
	return testkit.StartFrom(tb, e.db, e.clock.Now(), variant, fen)
}

// must returns a function that fails tb on err and returns g, to wrap
// a call: must(t)(e.svc.Abort(...)).
func must(tb testing.TB) func(g *bot.Game, err error) *bot.Game {
	return func(g *bot.Game, err error) *bot.Game {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return g
	}
}

// notifications returns the pending notifications after the first skip, as
// "kind user: text".
func (e *env) notifications(tb testing.TB, skip int) []bot.Notification {
	tb.Helper()
	ns, err := e.db.PendingNotifications(ctx, endOfTime, 0)
	if err != nil {
		tb.Fatal(err)
	}
	if skip > len(ns) {
		tb.Fatalf("%d notifications, want more than %d", len(ns), skip)
	}
	return ns[skip:]
}

// notificationKinds returns "kind user" of each notification.
func notificationKinds(ns []bot.Notification) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Kind.String()+" "+n.UserID)
	}
	return out
}

// wantClock fails unless g's turn started at start (with its deadline 3
// days later), no reminder was sent for it and one is due when 20% of it
// is left (the default setting).
func wantClock(tb testing.TB, g *bot.Game, start time.Time) {
	tb.Helper()
	remind := start.Add(threeDays - threeDays/5) // the default: 20% left
	if !g.TurnStarted.Equal(start) || !g.Deadline.Equal(start.Add(threeDays)) || g.Reminded || !g.RemindAt.Equal(remind) {
		tb.Errorf("turn started %v, deadline %v, reminded %v, remind at %v; want %v, %v, false, %v",
			g.TurnStarted, g.Deadline, g.Reminded, g.RemindAt, start, start.Add(threeDays), remind)
	}
}

// setReminded marks the current turn of game id as reminded, as the
// sweep does.
func (e *env) setReminded(tb testing.TB, id uint64) {
	tb.Helper()
	if _, err := e.db.UpdateGame(ctx, id, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Reminded, g.RemindAt = true, time.Time{}
		return nil, nil
	}); err != nil {
		tb.Fatal(err)
	}
}

// TestMoveRestartsTheClock: the clock restarts (TurnStarted, Deadline,
// Reminded) whenever the player to act changes, and not between the parts
// of a multi-part turn.
func TestMoveRestartsTheClock(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "trainwreck")
	wantClock(t, g, t0)
	e.clock.Advance(time.Hour)
	e.setReminded(t, g.ID)
	g = e.play(t, g.ID, "alice g1f3").Game
	if !g.TurnStarted.Equal(t0) || !g.Deadline.Equal(t0.Add(threeDays)) || !g.Reminded || !g.RemindAt.IsZero() {
		t.Errorf("the clock changed within alice's turn: %+v", g)
	}
	e.clock.Advance(time.Hour)
	g = e.play(t, g.ID, "alice g8f6").Game
	wantClock(t, g, t0.Add(2*time.Hour))
	if g.ToAct != "bob" {
		t.Fatalf("to act %q", g.ToAct)
	}
}

// TestDrawOffers: an offer, its answers, and its lapse by moves.
func TestDrawOffers(t *testing.T) {
	t.Run("accepted", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
		n := len(e.outbox(t))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		if g.DrawOffer != "alice" || g.Status != bot.GameActive {
			t.Fatalf("after the offer: %+v", g)
		}
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		if g.Status != bot.GameFinished || g.Result != bot.Draw || g.Reason != "agreement" || g.DrawOffer != "" || g.ToAct != "" || !g.Deadline.IsZero() {
			t.Fatalf("after accepting: %+v", g)
		}
		if got, want := notificationKinds(e.notifications(t, n)), []string{"draw-offered bob", "game-over alice", "game-over bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %q, want %q", got, want)
		}
	})
	t.Run("offering when the opponent offered accepts", func(t *testing.T) {
		e := newEnv(t)
		g := e.start(t, "chess")
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		if g.Status != bot.GameFinished || g.Result != bot.Draw || g.Reason != "agreement" {
			t.Fatalf("after both offered: %+v", g)
		}
	})
	t.Run("declined", func(t *testing.T) {
		e := newEnv(t)
		g := e.start(t, "chess")
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		n := len(e.outbox(t))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActDeclineDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		if g.DrawOffer != "" || g.Status != bot.GameActive {
			t.Fatalf("after declining: %+v", g)
		}
		ns := e.notifications(t, n)
		if got, want := kinds(ns), []string{"draw-declined bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %q, want %q", got, want)
		}
		if !strings.Contains(ns[0].Text, "<@alice>") {
			t.Errorf("the decline does not say who: %q", ns[0].Text)
		}
		// bob may offer again once declined.
		must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}))
	})
	t.Run("lapses when the offerer moves", func(t *testing.T) {
		e := newEnv(t)
		g := e.start(t, "chess")
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		g = e.play(t, g.ID, "alice e4").Game
		if g.DrawOffer != "" {
			t.Fatalf("the offer stands after the offerer moved: %+v", g)
		}
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("accepting a lapsed offer: %v, want EINVALID", err)
		}
	})
	t.Run("the opponent's move declines it", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		g = e.play(t, g.ID, "bob e5").Game
		if g.DrawOffer != "" {
			t.Fatalf("the offer stands after the opponent moved: %+v", g)
		}
	})
	t.Run("lapses within a multi-part turn", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "trainwreck").ID, "alice g1f3").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		g = e.play(t, g.ID, "alice g8f6").Game
		if g.DrawOffer != "" {
			t.Fatalf("the offer stands after the offerer's second part: %+v", g)
		}
	})
}

// TestClaimDraw: threefold repetition in chess, claimed by the player to
// act only once it happened; a variant without claims says so.
func TestClaimDraw(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	g = e.play(t, g.ID, "alice Nf3").Game
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}); !strings.Contains(bot.ErrorMessage(err), "the position has occurred once, a claim needs it 3 times;") {
		t.Fatalf("claim at once: %v", err)
	}
	g = e.play(t, g.ID, "bob Nf6", "alice Ng1", "bob Ng8", "alice Nf3", "bob Nf6", "alice Ng1").Game
	snap := e.snapshot(t)
	_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: g.ID, Version: g.Version, UserID: "bob"})
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "occurred twice, a claim needs it 3 times") ||
		!strings.Contains(bot.ErrorMessage(err), "a claim needs 100") {
		t.Fatalf("claim after twofold: %v", err)
	}
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Fatalf("claim by the player not to act: %v, want EFORBIDDEN", err)
	}
	e.wantUnchanged(t, snap)
	g = e.play(t, g.ID, "bob Ng8").Game
	if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Fatalf("claim by bob after his move: %v, want EFORBIDDEN", err)
	}
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: g.ID, Version: g.Version, UserID: "alice"}))
	if g.Status != bot.GameFinished || g.Result != bot.Draw || g.Reason != "repetition" {
		t.Fatalf("after the claim: %+v", g)
	}

	tw := e.start(t, "trainwreck")
	_, err = e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: tw.ID, Version: tw.Version, UserID: "alice"})
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "no draw claims") {
		t.Errorf("claim in Train Wreck: %v", err)
	}
}

// TestAbort: either player aborts until both have moved; in Train Wreck
// the first player's two parts are not the second player's move.
func TestAbort(t *testing.T) {
	t.Run("chess", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
		if e.svc.BothMoved(g) {
			t.Error("BothMoved after one move")
		}
		n := len(e.outbox(t))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		if g.Status != bot.GameAborted || g.Result != bot.NoResult || g.Reason != "aborted" || g.ToAct != "" || !g.Deadline.IsZero() {
			t.Fatalf("after the abort: %+v", g)
		}
		if got, want := notificationKinds(e.notifications(t, n)), []string{"game-over alice", "game-over bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %q, want %q", got, want)
		}
		if _, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "e5"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("a move in an aborted game: %v", err)
		}
	})
	t.Run("chess after both moved", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4", "bob e5").Game
		if !e.svc.BothMoved(g) {
			t.Error("not BothMoved after e4 e5")
		}
		snap := e.snapshot(t)
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: g.ID, Version: g.Version, UserID: "alice"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Fatalf("abort after both moved: %v, want EINVALID", err)
		}
		e.wantUnchanged(t, snap)
	})
	t.Run("train wreck", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "trainwreck").ID, "alice g1f3", "alice g8f6").Game
		if e.svc.BothMoved(g) {
			t.Fatal("BothMoved after alice's two-part turn")
		}
		g = e.play(t, g.ID, "bob b8c6").Game
		if !e.svc.BothMoved(g) {
			t.Fatal("not BothMoved after bob's first part")
		}
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: g.ID, Version: g.Version, UserID: "bob"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Fatalf("abort after both moved: %v, want EINVALID", err)
		}
	})
	t.Run("train wreck before the second player moved", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "trainwreck").ID, "alice g1f3", "alice g8f6").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		if g.Status != bot.GameAborted {
			t.Fatalf("after the abort: %+v", g)
		}
	})
}

// TestTakeback: by consent, in chess and in Train Wreck's multi-part
// turns.
func TestTakeback(t *testing.T) {
	t.Run("chess, asked on the opponent's turn", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4", "bob e5", "alice Nf3").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		e.clock.Advance(time.Hour)
		n := len(e.outbox(t))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		if g.Takeback != "alice" {
			t.Fatalf("after asking: %+v", g)
		}
		e.clock.Advance(time.Hour)
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		if want := []string{"e2e4", "e7e5"}; !reflect.DeepEqual(g.Moves, want) || g.ToAct != "alice" || g.Takeback != "" || g.DrawOffer != "" {
			t.Fatalf("after the takeback: %+v", g)
		}
		wantClock(t, g, t0.Add(2*time.Hour))
		if got, want := notificationKinds(e.notifications(t, n)), []string{"takeback-asked bob", "taken-back alice", "taken-back bob"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %q, want %q", got, want)
		}
		if want := e.play(t, e.start(t, "chess").ID, "alice e4", "bob e5").Game.FEN; g.FEN != want {
			t.Errorf("FEN %s, want %s", g.FEN, want)
		}
		e.play(t, g.ID, "alice d4")
	})
	t.Run("chess, asked on one's own turn", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4", "bob e5").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		v := registry(t).Default("chess")
		if start := v.Start(); len(g.Moves) != 0 || g.FEN != start.FEN() || g.ToAct != "alice" {
			t.Fatalf("after the takeback: %+v", g)
		}
		if e.svc.BothMoved(g) {
			t.Error("BothMoved with no moves left")
		}
	})
	t.Run("declined", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		n := len(e.outbox(t))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActDeclineTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		if g.Takeback != "" || len(g.Moves) != 1 {
			t.Fatalf("after declining: %+v", g)
		}
		if got, want := notificationKinds(e.notifications(t, n)), []string{"takeback-declined alice"}; !reflect.DeepEqual(got, want) {
			t.Errorf("notifications %q, want %q", got, want)
		}
	})
	t.Run("cleared by a move", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		g = e.play(t, g.ID, "bob e5").Game
		if g.Takeback != "" {
			t.Fatalf("the request stands after a move: %+v", g)
		}
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("accepting a cleared request: %v, want EINVALID", err)
		}
	})
	t.Run("train wreck", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "trainwreck").ID, "alice g1f3", "alice g8f6", "bob b8c6", "bob b1c3").Game
		afterFirst := e.play(t, e.start(t, "trainwreck").ID, "alice g1f3").Game.FEN
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		// Bob's turn and alice's last part are gone: alice moves one of
		// bob's pieces again.
		if want := []string{"g1f3"}; !reflect.DeepEqual(g.Moves, want) || g.ToAct != "alice" || g.FEN != afterFirst {
			t.Fatalf("after the takeback: moves %q, to act %q, FEN %s (want %s)", g.Moves, g.ToAct, g.FEN, afterFirst)
		}
		g = e.play(t, g.ID, "alice b8c6").Game
		// Bob asks in the middle of his own turn: his first part goes.
		g = e.play(t, g.ID, "bob g8f6").Game
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}))
		g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: g.Version, UserID: "alice"}))
		if want := []string{"g1f3", "b8c6"}; !reflect.DeepEqual(g.Moves, want) || g.ToAct != "bob" {
			t.Fatalf("after bob's takeback: moves %q, to act %q", g.Moves, g.ToAct)
		}
	})
	t.Run("nothing to take back", func(t *testing.T) {
		e := newEnv(t)
		g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
		snap := e.snapshot(t)
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: "bob"}); bot.ErrorCode(err) != bot.EINVALID {
			t.Fatalf("bob, who has not moved, asks: %v, want EINVALID", err)
		}
		e.wantUnchanged(t, snap)
	})
}

// winningWindowFEN is a Winning Chess position (12x8) where Black has no
// Defender, so Black's only answer in the response window is "pass"
// (docs/variants/winning.md#w13): White's King g1 and Attacker e1, Black's King g8 and a
// pawn a7.
const winningWindowFEN = "6k5/p11/12/12/12/12/12/4A1K5 w - - 0 1"

// TestAutoPassWinning: White's continuing Attacker step opens the window;
// Black can only pass, so the bot passes for Black at once, and White
// makes the second step.
func TestAutoPassWinning(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "winning", winningWindowFEN)
	e.clock.Advance(time.Hour)
	n := len(e.outbox(t))
	res := e.play(t, g.ID, "alice e1f3>")
	g = res.Game
	if want := []string{"pass"}; !reflect.DeepEqual(res.AutoMoves, want) {
		t.Fatalf("auto moves %q, want %q", res.AutoMoves, want)
	}
	if want := []string{"e1f3>", "pass"}; !reflect.DeepEqual(g.Moves, want) || g.ToAct != "alice" || !res.SameTurn {
		t.Fatalf("after the step: moves %q, to act %q, same turn %v", g.Moves, g.ToAct, res.SameTurn)
	}
	if res.SAN != "Af3>" {
		t.Errorf("SAN %q, want Af3>", res.SAN)
	}
	// The turn went to bob and back: alice's clock restarted.
	wantClock(t, g, t0.Add(time.Hour))
	ns := e.notifications(t, n)
	if got, want := kinds(ns), []string{"auto-move alice", "auto-move bob", "your-turn alice"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if want := "Game 1: the bot played pass for <@bob> (Black): it was the only legal move."; ns[0].Text != want || ns[1].Text != want {
		t.Errorf("auto-move text %q, want %q", ns[0].Text, want)
	}
	// The second step: a Bishop step after a Knight leap.
	res = e.play(t, g.ID, "alice f3c6")
	if res.AutoMoves != nil || res.Game.ToAct != "bob" || res.SameTurn {
		t.Fatalf("after the second step: %+v", res)
	}
	if e.svc.BothMoved(res.Game) {
		t.Error("BothMoved counts the pass the bot played for bob")
	}

	// Two forced passes in a row: White's own pawns on e2, g2, e4 and g4
	// block every Bishop step of the Attacker from f3, so after Black's
	// forced answer White's second step is a forced pass too, and the
	// turn passes to Black.
	e = newEnv(t)
	g = e.startFrom(t, "winning", "6k5/p11/12/12/4P1P5/12/4P1P5/4A1K5 w - - 0 1")
	n = len(e.outbox(t))
	res = e.play(t, g.ID, "alice e1f3>")
	if want := []string{"pass", "pass"}; !reflect.DeepEqual(res.AutoMoves, want) || res.Game.ToAct != "bob" || res.SameTurn {
		t.Fatalf("after the step: auto moves %q, to act %q, same turn %v", res.AutoMoves, res.Game.ToAct, res.SameTurn)
	}
	ns = e.notifications(t, n)
	if got, want := notificationKinds(ns), []string{"auto-move alice", "auto-move bob", "auto-move alice", "auto-move bob", "your-turn bob"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if want := "Game 1: the bot played pass for <@alice> (White): it was the only legal move."; ns[2].Text != want {
		t.Errorf("second auto-move text %q, want %q", ns[2].Text, want)
	}
}

// TestAutoPassAnnihilation: a player with no move but a pass passes at
// once; two passes in a row end the game in a draw, which the forced pass
// may bring about.
func TestAutoPassAnnihilation(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "annihilation", "8/8/8/4p3/4P3/8/8/8[N] w - - 0 1")
	n := len(e.outbox(t))
	res := e.play(t, g.ID, "alice N@d5")
	if want := []string{"pass"}; !reflect.DeepEqual(res.AutoMoves, want) || res.Game.ToAct != "alice" || !res.SameTurn {
		t.Fatalf("after the drop: %+v", res)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"auto-move alice", "auto-move bob", "your-turn alice"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if want := []string{"N@d5", "pass"}; !reflect.DeepEqual(res.Game.Moves, want) {
		t.Errorf("moves %q, want %q", res.Game.Moves, want)
	}

	// Black's pawn e6 can still move; once it stands blocked on e5, a
	// pass by White leaves Black only a pass, the second in a row.
	e = newEnv(t)
	g = e.startFrom(t, "annihilation", "8/8/4p3/8/4P3/8/8/8[N] w - - 0 1")
	res = e.play(t, g.ID, "alice pass", "bob e5")
	if res.AutoMoves != nil || res.Game.ToAct != "alice" {
		t.Fatalf("after bob's move: %+v", res)
	}
	n = len(e.outbox(t))
	res = e.play(t, g.ID, "alice pass")
	g = res.Game
	if want := []string{"pass"}; !reflect.DeepEqual(res.AutoMoves, want) || res.SameTurn {
		t.Fatalf("auto moves %q, same turn %v", res.AutoMoves, res.SameTurn)
	}
	if g.Status != bot.GameFinished || g.Result != bot.Draw || g.Reason != "consecutive passes" || g.ToAct != "" {
		t.Fatalf("after two passes: %+v", g)
	}
	if want := []string{"pass", "e6e5", "pass", "pass"}; !reflect.DeepEqual(g.Moves, want) {
		t.Errorf("moves %q, want %q", g.Moves, want)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"auto-move alice", "auto-move bob", "game-over alice", "game-over bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications %q, want %q", got, want)
	}
}

// TestPreGame plays Crazyhouse Annihilation's pre-game choice end to end
// with the seed the tests' Services draw, in each of the four ways it can
// go and with either player picking the army (docs/variants/annihilation.md#z6), and checks
// the start against the rules engine's normalisation.
func TestPreGame(t *testing.T) {
	const seed = testSeed
	v := registry(t).Default("annihilation")
	drawn := rules.AnnihilationStart(v, seed)
	for _, chooser := range []bot.ArmyChooser{0, bot.ChooserChallenged, bot.ChooserChallenger} {
		armyPicker, firstPicker := "bob", "alice"
		if chooser == bot.ChooserChallenger {
			armyPicker, firstPicker = "alice", "bob"
		}
		for _, tc := range []struct {
			army, first string
		}{{"white", "me"}, {"white", "opponent"}, {"black", "me"}, {"black", "opponent"}} {
			// Who plays White after the choice, and the colour of the
			// first-moving army in the drawn position.
			white, colour := firstPicker, rules.White
			if tc.first == "opponent" {
				white = armyPicker
			}
			if (tc.army == "black") == (white == armyPicker) {
				colour = rules.Black
			}
			t.Run(fmt.Sprintf("chooser %d %s %s", chooser, tc.army, tc.first), func(t *testing.T) {
				e := newEnv(t)
				c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
					Variant: "annihilation", DaysPerMove: 3, Chooser: chooser})
				if err != nil {
					t.Fatal(err)
				}
				wantChooser := chooser
				if chooser == 0 {
					wantChooser = bot.ChooserChallenged
				}
				if c.Chooser != wantChooser || c.Color != bot.ColorRandom {
					t.Fatalf("challenge chooser %d colour %s, want %d random", c.Chooser, c.Color, wantChooser)
				}
				n := len(e.outbox(t))
				g := must(t)(e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan))
				if g.Status != bot.GameSetup || g.ToAct != armyPicker || g.StartFEN != drawn.FEN() || g.FEN != drawn.FEN() || len(g.Moves) != 0 {
					t.Fatalf("accepted: %+v", g)
				}
				if want := (bot.Setup{Seed: seed, Challenger: "alice", Challenged: "bob", Chooser: wantChooser}); g.Setup == nil || *g.Setup != want {
					t.Fatalf("setup %+v, want %+v", g.Setup, want)
				}
				wantClock(t, g, t0)
				ns := e.notifications(t, n)
				if got, want := notificationKinds(ns), []string{"challenge-accepted alice", "choice " + armyPicker}; !reflect.DeepEqual(got, want) {
					t.Fatalf("notifications %q, want %q", got, want)
				}
				if !strings.Contains(ns[1].Text, "then <@"+firstPicker+"> chooses who moves first") {
					t.Errorf("choice text %q does not name who chooses next", ns[1].Text)
				}

				e.clock.Advance(time.Hour)
				n = len(e.outbox(t))
				if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: firstPicker, Choice: tc.army}); bot.ErrorCode(err) != bot.EFORBIDDEN {
					t.Fatalf("%s picks the army: %v, want EFORBIDDEN", firstPicker, err)
				}
				g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: armyPicker, Choice: " " + strings.ToUpper(tc.army)}))
				if g.Status != bot.GameSetup || g.ToAct != firstPicker || g.Setup.Army != tc.army || g.Setup.FirstMover != "" {
					t.Fatalf("after the army: %+v %+v", g, g.Setup)
				}
				wantClock(t, g, t0.Add(time.Hour))
				if got, want := notificationKinds(e.notifications(t, n)), []string{"choice " + firstPicker}; !reflect.DeepEqual(got, want) {
					t.Fatalf("notifications %q, want %q", got, want)
				}

				e.clock.Advance(time.Hour)
				n = len(e.outbox(t))
				g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: firstPicker, Choice: tc.first}))
				start := rules.AnnihilationNormalize(drawn, colour)
				black := map[string]string{"alice": "bob", "bob": "alice"}[white]
				if g.Status != bot.GameActive || g.White != white || g.Black != black || g.ToAct != white ||
					g.StartFEN != start.FEN() || g.FEN != start.FEN() || g.Setup.FirstMover != colour.String() {
					t.Fatalf("started: %+v %+v; want White %s from %s", g, g.Setup, white, start.FEN())
				}
				if p, _ := rules.ParseFEN(v, g.StartFEN); p.ToAct() != rules.White {
					t.Errorf("the first mover is not White: %s", g.StartFEN)
				}
				wantClock(t, g, t0.Add(2*time.Hour))
				if got, want := notificationKinds(e.notifications(t, n)), []string{"your-turn " + white}; !reflect.DeepEqual(got, want) {
					t.Fatalf("notifications %q, want %q", got, want)
				}
				// The game goes on from there: the first mover passes, the
				// other moves a pawn.
				g = e.play(t, g.ID, white+" pass").Game
				if g.ToAct != black {
					t.Fatalf("after the pass: %+v", g)
				}
			})
		}
	}
}

// TestPreGameChallengeOptions: a colour with a variant whose colours
// follow from its pre-game choice, and an army chooser with a variant
// without one, are refused with a message that says why; nothing is
// stored.
func TestPreGameChallengeOptions(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		req  gameplay.ChallengeRequest
		want string
	}{
		{gameplay.ChallengeRequest{Variant: "annihilation", Color: bot.ColorBlack}, "no colour to ask for"},
		{gameplay.ChallengeRequest{Variant: "annihilation", Color: bot.ColorWhite, Chooser: bot.ChooserChallenger}, "Leave color out"},
		{gameplay.ChallengeRequest{Variant: "annihilation", Chooser: 9}, "Unknown army chooser"},
		{gameplay.ChallengeRequest{Variant: "chess", Chooser: bot.ChooserChallenger}, "no pre-game choice of armies"},
		{gameplay.ChallengeRequest{Variant: "chess", Chooser: bot.ChooserChallenged}, "leave chooser out"},
	} {
		snap := e.snapshot(t)
		tc.req.Challenger, tc.req.Challenged, tc.req.ChannelID, tc.req.DaysPerMove = "alice", "bob", "chan", 3
		_, err := e.svc.Challenges().Challenge(ctx, tc.req)
		if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), tc.want) {
			t.Errorf("%+v: %v, want EINVALID saying %q", tc.req, err, tc.want)
		}
		e.wantUnchanged(t, snap)
	}
	// A random colour is what the variant does anyway: accepted.
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan",
		Variant: "annihilation", DaysPerMove: 3, Color: bot.ColorRandom})
	if err != nil || c.Chooser != bot.ChooserChallenged {
		t.Fatalf("random colour: %+v, %v", c, err)
	}
	// The challenge notification says who picks the army.
	for _, tc := range []struct {
		challenged string
		chooser    bot.ArmyChooser
		want       string
	}{
		{"bob", 0, "<@alice> challenges you to Crazyhouse Annihilation (3 days per move, the challenged player picks the army)."},
		{"bob", bot.ChooserChallenger, "<@alice> challenges you to Crazyhouse Annihilation (3 days per move, the challenger picks the army)."},
		{"", 0, "<@alice> challenges anyone to Crazyhouse Annihilation (3 days per move, whoever accepts picks the army)."},
	} {
		n := len(e.outbox(t))
		if _, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: tc.challenged, ChannelID: "chan",
			Variant: "annihilation", DaysPerMove: 3, Chooser: tc.chooser}); err != nil {
			t.Fatal(err)
		}
		if ns := e.notifications(t, n); len(ns) != 1 || ns[0].Text != tc.want {
			t.Errorf("challenge notification %+v, want %q", ns, tc.want)
		}
	}
	for _, ch := range []string{"", "challenged", "challenger"} {
		a, err := bot.ParseArmyChooser(ch)
		if err != nil || (ch != "" && a.String() != ch) {
			t.Errorf("ParseArmyChooser(%q) = %d (%s), %v", ch, a, a, err)
		}
	}
	if _, err := bot.ParseArmyChooser("me"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("ParseArmyChooser(me): %v, want EINVALID", err)
	}
}

// TestPreGameRefused: choices out of turn, unknown words and moves before
// the start change nothing; the game can be aborted during the choice.
func TestPreGameRefused(t *testing.T) {
	e := newEnv(t)
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "chan", Variant: "annihilation"})
	if err != nil {
		t.Fatal(err)
	}
	g := must(t)(e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", inChan))
	refuse := func(step string, do func() error, code string) {
		t.Helper()
		snap := e.snapshot(t)
		if err := do(); bot.ErrorCode(err) != code {
			t.Errorf("%s: %v, want %s", step, err, code)
		}
		e.wantUnchanged(t, snap)
	}
	choose := func(user, word string, version uint64) func() error {
		return func() error {
			_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: version, UserID: user, Choice: word})
			return err
		}
	}
	refuse("the challenger picks the army", choose("alice", "white", g.Version), bot.EFORBIDDEN)
	refuse("a stranger picks", choose("carol", "white", g.Version), bot.EFORBIDDEN)
	refuse("a bad army", choose("bob", "red", g.Version), bot.EINVALID)
	refuse("who moves first instead of the army", choose("bob", "me", g.Version), bot.EINVALID)
	refuse("a move before the start", func() error {
		_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "bob", Move: "pass"})
		return err
	}, bot.EINVALID)
	refuse("resigning before the start", func() error {
		_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: g.Version, UserID: "bob"})
		return err
	}, bot.EINVALID)
	refuse("a draw offer before the start", func() error {
		_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: "bob"})
		return err
	}, bot.EINVALID)
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: "bob", Choice: "black"}))
	refuse("the army again", choose("bob", "white", g.Version), bot.EFORBIDDEN)
	refuse("a stale version", choose("alice", "me", g.Version-1), bot.ECONFLICT)
	refuse("a bad first mover", choose("alice", "white", g.Version), bot.EINVALID)
	g = must(t)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: g.ID, Version: g.Version, UserID: "alice"}))
	if g.Status != bot.GameAborted || g.Reason != "aborted" || g.ToAct != "" || !g.Deadline.IsZero() {
		t.Fatalf("aborted in the pre-game: %+v", g)
	}
	refuse("a choice after the abort", choose("alice", "me", g.Version), bot.EINVALID)
	chess := e.start(t, "chess")
	refuse("a choice in chess", func() error {
		_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: chess.ID, Version: chess.Version, UserID: "bob", Choice: "white"})
		return err
	}, bot.EINVALID)
}

// TestActionsRefused: every action refused for a stranger, the wrong
// player, a stale version and a finished game, with nothing changed.
func TestActionsRefused(t *testing.T) {
	actions := map[string]func(s *gameplay.Service, id, version uint64, user string) (*bot.Game, error){
		"offer draw": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: id, Version: v, UserID: u})
		},
		"accept draw": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: id, Version: v, UserID: u})
		},
		"decline draw": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActDeclineDraw, GameID: id, Version: v, UserID: u})
		},
		"claim draw": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActClaimDraw, GameID: id, Version: v, UserID: u})
		},
		"abort": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAbort, GameID: id, Version: v, UserID: u})
		},
		"request takeback": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: id, Version: v, UserID: u})
		},
		"accept takeback": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: id, Version: v, UserID: u})
		},
		"decline takeback": func(s *gameplay.Service, id, v uint64, u string) (*bot.Game, error) {
			return s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActDeclineTakeback, GameID: id, Version: v, UserID: u})
		},
	}
	for _, tc := range []struct {
		name   string
		action string
		setup  func(tb testing.TB, e *env, g *bot.Game) *bot.Game // from a chess game after 1. e4
		user   string
		stale  bool
		code   string
	}{
		// Strangers, for every action.
		{"stranger offers", "offer draw", nil, "carol", false, bot.EFORBIDDEN},
		{"stranger accepts", "accept draw", offerBy("alice"), "carol", false, bot.EFORBIDDEN},
		{"stranger declines", "decline draw", offerBy("alice"), "carol", false, bot.EFORBIDDEN},
		{"stranger claims", "claim draw", nil, "carol", false, bot.EFORBIDDEN},
		{"stranger aborts", "abort", nil, "carol", false, bot.EFORBIDDEN},
		{"stranger asks a takeback", "request takeback", nil, "carol", false, bot.EFORBIDDEN},
		{"stranger grants a takeback", "accept takeback", takebackBy("alice"), "carol", false, bot.EFORBIDDEN},
		{"stranger refuses a takeback", "decline takeback", takebackBy("alice"), "carol", false, bot.EFORBIDDEN},
		// The wrong player.
		{"offer twice", "offer draw", offerBy("alice"), "alice", false, bot.EINVALID},
		{"accept one's own offer", "accept draw", offerBy("alice"), "alice", false, bot.EINVALID},
		{"decline one's own offer", "decline draw", offerBy("alice"), "alice", false, bot.EINVALID},
		{"accept without an offer", "accept draw", nil, "bob", false, bot.EINVALID},
		{"decline without an offer", "decline draw", nil, "bob", false, bot.EINVALID},
		{"claim out of turn", "claim draw", nil, "alice", false, bot.EFORBIDDEN},
		{"claim without grounds", "claim draw", nil, "bob", false, bot.EINVALID},
		{"ask a takeback twice", "request takeback", takebackBy("alice"), "alice", false, bot.EINVALID},
		{"ask while the opponent asks", "request takeback", takebackBy("alice"), "bob", false, bot.EINVALID},
		{"grant one's own takeback", "accept takeback", takebackBy("alice"), "alice", false, bot.EINVALID},
		{"refuse one's own takeback", "decline takeback", takebackBy("alice"), "alice", false, bot.EINVALID},
		{"grant without a request", "accept takeback", nil, "bob", false, bot.EINVALID},
		{"refuse without a request", "decline takeback", nil, "bob", false, bot.EINVALID},
		// Stale versions.
		{"stale offer", "offer draw", nil, "bob", true, bot.ECONFLICT},
		{"stale accept", "accept draw", offerBy("alice"), "bob", true, bot.ECONFLICT},
		{"stale decline", "decline draw", offerBy("alice"), "bob", true, bot.ECONFLICT},
		{"stale claim", "claim draw", nil, "bob", true, bot.ECONFLICT},
		{"stale abort", "abort", nil, "bob", true, bot.ECONFLICT},
		{"stale takeback request", "request takeback", nil, "alice", true, bot.ECONFLICT},
		{"stale takeback grant", "accept takeback", takebackBy("alice"), "bob", true, bot.ECONFLICT},
		{"stale takeback refusal", "decline takeback", takebackBy("alice"), "bob", true, bot.ECONFLICT},
		// A finished game.
		{"offer after the end", "offer draw", resigned, "bob", false, bot.EINVALID},
		{"accept after the end", "accept draw", resigned, "bob", false, bot.EINVALID},
		{"decline after the end", "decline draw", resigned, "bob", false, bot.EINVALID},
		{"claim after the end", "claim draw", resigned, "bob", false, bot.EINVALID},
		{"abort after the end", "abort", resigned, "bob", false, bot.EINVALID},
		{"takeback after the end", "request takeback", resigned, "alice", false, bot.EINVALID},
		{"grant after the end", "accept takeback", resigned, "bob", false, bot.EINVALID},
		{"refuse after the end", "decline takeback", resigned, "bob", false, bot.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			g := e.play(t, e.start(t, "chess").ID, "alice e4").Game
			if tc.setup != nil {
				g = tc.setup(t, e, g)
			}
			version := g.Version
			if tc.stale {
				version--
			}
			snap := e.snapshot(t)
			_, err := actions[tc.action](e.svc, g.ID, version, tc.user)
			if got := bot.ErrorCode(err); got != tc.code {
				t.Fatalf("%v: code %q, want %q", err, got, tc.code)
			}
			if bot.ErrorMessage(err) == "" || bot.ErrorMessage(err) == "Internal error." {
				t.Errorf("no clear message: %v", err)
			}
			e.wantUnchanged(t, snap)
		})
	}
	t.Run("unknown game", func(t *testing.T) {
		e := newEnv(t)
		for name, do := range actions {
			if _, err := do(e.svc, 99, bot.AnyVersion, "alice"); bot.ErrorCode(err) != bot.ENOTFOUND {
				t.Errorf("%s: %v, want ENOTFOUND", name, err)
			}
		}
		if _, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: 99, Version: bot.AnyVersion, UserID: "alice", Choice: "me"}); bot.ErrorCode(err) != bot.ENOTFOUND {
			t.Errorf("choose: %v, want ENOTFOUND", err)
		}
	})
}

// offerBy returns a setup in which user offers a draw.
func offerBy(user string) func(tb testing.TB, e *env, g *bot.Game) *bot.Game {
	return func(tb testing.TB, e *env, g *bot.Game) *bot.Game {
		return must(tb)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: g.ID, Version: g.Version, UserID: user}))
	}
}

// takebackBy returns a setup in which user asks to take back a move.
func takebackBy(user string) func(tb testing.TB, e *env, g *bot.Game) *bot.Game {
	return func(tb testing.TB, e *env, g *bot.Game) *bot.Game {
		return must(tb)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAskTakeback, GameID: g.ID, Version: g.Version, UserID: user}))
	}
}

// resigned is a setup in which bob resigns.
func resigned(tb testing.TB, e *env, g *bot.Game) *bot.Game {
	return must(tb)(e.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: g.Version, UserID: "bob"}))
}

// TestActDispatch: Act knows every action of bot.Actions (each reaches
// its game: an unknown game is ENOTFOUND, not an unknown action), and
// refuses an action it does not know with EINVALID, changing nothing.
func TestActDispatch(t *testing.T) {
	e := newEnv(t)
	g := e.start(t, "chess")
	seen := map[gameplay.Action]bool{}
	for _, a := range gameplay.Actions() {
		if seen[a] {
			t.Errorf("bot.Actions lists %q twice", a)
		}
		seen[a] = true
		_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: a, GameID: g.ID + 1000, Version: bot.AnyVersion, UserID: "alice"})
		if bot.ErrorCode(err) != bot.ENOTFOUND {
			t.Errorf("%s on an unknown game: %v, want ENOTFOUND", a, err)
		}
	}
	snap := e.snapshot(t)
	for _, a := range []gameplay.Action{"", "castle", "Resign", "draw-"} {
		_, err := e.svc.Act(ctx, gameplay.ActionRequest{Action: a, GameID: g.ID, Version: g.Version, UserID: "alice"})
		if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(bot.ErrorMessage(err), "Unknown game action") {
			t.Errorf("action %q: %v, want EINVALID naming an unknown game action", a, err)
		}
	}
	e.wantUnchanged(t, snap)
}
