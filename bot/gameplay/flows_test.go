package gameplay_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// refusedMove tries move as user in game id and checks that it is refused
// with code and a message holding every want, changing nothing.
func (e *env) refusedMove(t *testing.T, id uint64, user, move, code string, wants ...string) {
	t.Helper()
	snap := e.snapshot(t)
	_, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: id, UserID: user, Move: move})
	if bot.ErrorCode(err) != code {
		t.Fatalf("%s %s: %v, want %s", user, move, err, code)
	}
	for _, w := range wants {
		if !strings.Contains(bot.ErrorMessage(err), w) {
			t.Errorf("%s %s: message %q lacks %q", user, move, bot.ErrorMessage(err), w)
		}
	}
	e.wantUnchanged(t, snap)
}

// TestCheckMarkOnContinuableStep: in Winning Chess a quiet Attacker step
// exists as a move that ends the turn (Af3) and one that continues it
// (Af3>). "Af3+" says neither, so it is refused with both forms, in either
// notation; "Af3" ends the turn with a remark saying what Af3> would have
// done; "Af3+>" continues.
func TestCheckMarkOnContinuableStep(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "winning", winningWindowFEN)
	for _, mv := range []string{"Af3+", "Af3#", "Af3+!", "e1f3+", " Af3 + "} {
		e.refusedMove(t, g.ID, "alice", mv, bot.EINVALID,
			"could mean two moves: Af3 ends your turn; Af3> continues it (then Black may answer with the Defender, or pass, "+
				"before White's Attacker steps again). Send the one you mean: Af3 or Af3>.")
	}
	res := e.play(t, g.ID, "alice Af3")
	if res.Played != "e1f3" || res.Game.ToAct != "bob" || res.SameTurn || res.AutoMoves != nil {
		t.Fatalf("Af3: %+v", res)
	}
	if want := "Af3 ended your turn. Af3> would have continued it (then Black may answer with the Defender, or pass, " +
		"before White's Attacker steps again): a move marked > continues the turn."; res.Remark != want {
		t.Errorf("remark %q, want %q", res.Remark, want)
	}

	e = newEnv(t)
	g = e.startFrom(t, "winning", winningWindowFEN)
	res = e.play(t, g.ID, "alice Af3+>")
	if res.Played != "e1f3>" || res.Remark != "" || !res.SameTurn {
		t.Fatalf("Af3+>: %+v", res)
	}
	// The second step cannot continue: its check mark is only a check mark.
	res = e.play(t, g.ID, "alice Ac6+")
	if res.Played != "f3c6" || res.Remark != "" || res.Game.ToAct != "bob" {
		t.Fatalf("Ac6+: %+v", res)
	}
	// Chess has no continuing moves: check marks are read as ever.
	e = newEnv(t)
	g = e.start(t, "chess")
	if res := e.play(t, g.ID, "alice e4+", "bob e5", "alice Qh5", "bob Nc6", "alice Bc4", "bob Nf6", "alice Qxf7#"); res.Game.Reason != "checkmate" {
		t.Fatalf("scholar's mate: %+v", res.Game)
	}
}

// TestCheckMarkOnlyContinuingLegal: the Attacker on b2 shields its King
// from the Queen on h8, so leaving that line is legal only as a
// continuing step after which it attacks the Black King (W12): "Ad3+" can
// only mean Ad3>, and is played so. Black cannot answer (no Defender), and
// the second step takes the King.
func TestCheckMarkOnlyContinuingLegal(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "winning", "7q4/7k4/12/12/12/12/1A10/K11 w - - 0 1")
	e.refusedMove(t, g.ID, "alice", "Ad3", bot.EINVALID)
	res := e.play(t, g.ID, "alice Ad3+")
	// SAN marks the check the step gives, which the window hands to Black.
	if res.Played != "b2d3>" || res.SAN != "Ad3+>" || !res.SameTurn || len(res.AutoMoves) != 1 {
		t.Fatalf("Ad3+: %+v", res)
	}
	res = e.play(t, g.ID, "alice Axh7")
	if res.Game.Status != bot.GameFinished || res.Game.Result != bot.WhiteWins {
		t.Fatalf("the second step takes the King: %+v", res.Game)
	}
}

// TestAutoPassDefenderCannotAnswer: Black's only Defender move in the
// window, the swap with its King, would put the King on k8 where the
// Knight i7 attacks it (W4), so Black can only pass, and the bot passes
// for Black at once.
func TestAutoPassDefenderCannotAnswer(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "winning", "9ndk/8Nppp/12/12/12/12/12/K3A7 w - - 0 1")
	n := len(e.outbox(t))
	res := e.play(t, g.ID, "alice Af3>")
	if !reflect.DeepEqual(res.AutoMoves, []string{"pass"}) || !reflect.DeepEqual(res.AutoPlayers, []string{"bob"}) ||
		!res.SameTurn || res.Game.ToAct != "alice" {
		t.Fatalf("after the step: %+v", res)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"auto-move alice", "auto-move bob", "your-turn alice"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if want := []string{"e1f3>", "pass"}; !reflect.DeepEqual(res.Game.Moves, want) {
		t.Errorf("moves %q, want %q", res.Game.Moves, want)
	}
}

// TestAutoPassAttackerTaken: Black's Defender answers by taking the
// pending Attacker, so White has no second step: the bot passes for
// White at once and Black's own turn begins.
func TestAutoPassAttackerTaken(t *testing.T) {
	e := newEnv(t)
	g := e.startFrom(t, "winning", "6k5/12/12/12/6d5/12/12/K3A7 w - - 0 1")
	res := e.play(t, g.ID, "alice Af3>")
	if res.AutoMoves != nil || res.Game.ToAct != "bob" {
		t.Fatalf("Black can answer: %+v", res)
	}
	n := len(e.outbox(t))
	res = e.play(t, g.ID, "bob Dxf3")
	if !reflect.DeepEqual(res.AutoMoves, []string{"pass"}) || !reflect.DeepEqual(res.AutoPlayers, []string{"alice"}) ||
		!res.SameTurn || res.Game.ToAct != "bob" {
		t.Fatalf("after the answer: %+v", res)
	}
	if got, want := notificationKinds(e.notifications(t, n)), []string{"auto-move alice", "auto-move bob", "your-turn bob"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if want := []string{"e1f3>", "g4f3", "pass"}; !reflect.DeepEqual(res.Game.Moves, want) {
		t.Errorf("moves %q, want %q", res.Game.Moves, want)
	}
}
