package command

import (
	"strings"
	"testing"
)

// TestWinningDoubleStep plays a Winning Chess Attacker's double step by
// commands: "Af3+" is refused with the two forms it could mean; "Af3>"
// opens Black's window, whose few moves the reply lists; after Black's
// pass White is told the second steps it may make.
func TestWinningDoubleStep(t *testing.T) {
	e := newEnv(t)
	e.start("winning")
	e.refused("alice", "/move move:Af3+", "Af3+ could mean two moves: Af3 ends your turn; Af3> continues it "+
		"(then Black may answer with the Defender, or pass, before White's Attacker steps again). Send the one you mean: Af3 or Af3>.")
	r := e.ok("alice", "/move move:Af3>")
	wantText(t, "step", r, "<@alice> played **Af3>**",
		"<@bob>, your move: Black may answer with the Defender, or pass, before White's Attacker steps again. Your moves: D~K or pass.")
	if !mentions(r, "bob") || strings.Contains(r.Text, "ended your turn") {
		t.Errorf("step: %s", show(r))
	}
	r = e.ok("bob", "/move move:pass")
	wantText(t, "window", r, "<@alice>, your move: White may make the Attacker's second step from f3 (a Bishop step), or pass. Your moves: ",
		"Ad5", "Axb7", "or pass.")
	r = e.ok("alice", "/move move:Ad5")
	wantText(t, "second step", r, "<@bob>, your move: Black to move")
}

// TestWinningTurnEndedRemark: an Attacker step without '>' ends the turn,
// and the reply says what the marked form would have done.
func TestWinningTurnEndedRemark(t *testing.T) {
	e := newEnv(t)
	e.start("winning")
	r := e.ok("alice", "/move move:Af3")
	wantText(t, "step", r, "<@alice> played **Af3** in game #1.\nAf3 ended your turn. Af3> would have continued it "+
		"(then Black may answer with the Defender, or pass, before White's Attacker steps again): a move marked > continues the turn.",
		"<@bob>, your move")
}

// TestAutoPassReplies: the moves the bot plays for a player who can only
// pass are announced in the reply of the move that led to them, naming
// the player, and the mover is told whether their turn continues or a
// new one began.
func TestAutoPassReplies(t *testing.T) {
	e := newEnv(t)
	// Black's Defender takes the pending Attacker: White has no second
	// step, so the bot passes for White and Black's own turn begins.
	e.startFrom("winning", "6k5/12/12/12/6d5/12/12/K3A7 w - - 0 1")
	e.ok("alice", "/move move:Af3>")
	r := e.ok("bob", "/move move:Dxf3")
	wantText(t, "answer", r, "<@bob> answered **Dxf3** in game #1; <@alice> passed (the only legal move, so the bot played it).\n"+
		"<@bob>, it is your turn again: Black to move (no Defender pre-move: Black answered in the last turn).")
	if !mentions(r, "bob") {
		t.Errorf("answer: %s", show(r))
	}

	// Crazyhouse Annihilation: Black's blocked pawn leaves a pass only.
	e = newEnv(t)
	e.startFrom("annihilation", "8/8/8/4p3/4P3/8/8/8[N] w - - 0 1")
	r = e.ok("alice", "/move move:N@d5")
	wantText(t, "drop", r, "<@alice> played **N@d5** in game #1; <@bob> passed (the only legal move, so the bot played it).\n<@alice>, it is your turn again.")

	// Two forced passes in a row: Black's in the window, then White's
	// second step blocked by White's own pawns.
	e = newEnv(t)
	e.startFrom("winning", "6k5/p11/12/12/4P1P5/12/4P1P5/4A1K5 w - - 0 1")
	r = e.ok("alice", "/move move:Af3>")
	wantText(t, "double", r, "<@alice> played **Af3>** in game #1; <@bob> passed (the only legal move, so the bot played it); "+
		"<@alice> passed (the only legal move, so the bot played it).\n<@bob>, your move")
}
