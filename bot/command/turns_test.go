package command

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/render"
)

// yourTurn returns the text of the latest "your turn" notification
// pending for user, as the adapters show it, acknowledging every pending
// notification.
func (e *env) yourTurn(user string) string {
	e.t.Helper()
	told, err := e.db.PendingNotifications(e.ctx, e.clk.Now().Add(time.Hour), 0)
	if err != nil {
		e.t.Fatal(err)
	}
	text := ""
	for _, n := range told {
		if n.Kind == bot.NotifyYourTurn && n.UserID == user {
			r := e.h.Notification(e.ctx, n)
			checkPNG(e.t, r)
			text = r.Text
		}
		if err := e.db.AckNotification(e.ctx, n.ID); err != nil {
			e.t.Fatal(err)
		}
	}
	if text == "" {
		e.t.Fatalf("no your-turn notification for %s among %d", user, len(told))
	}
	return text
}

// wantLine checks that text has line as one of its lines.
func wantLine(t *testing.T, what, text, line string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return
		}
	}
	t.Errorf("%s: no line %q in\n%s", what, line, text)
}

// TestTurnSummaries: the reply to the move that ends a turn and the
// opponent's "your turn" notification name every atomic move of the
// turn, in order, in every kind of turn.
func TestTurnSummaries(t *testing.T) {
	t.Run("chess", func(t *testing.T) {
		e := newEnv(t)
		id := e.start("chess")
		e.yourTurn("alice") // the game's start
		r := e.ok("alice", "/move move:e4")
		wantLine(t, "reply", r.Text, "<@alice> played **e4** in game #"+itoa(id)+".")
		n := e.yourTurn("bob")
		wantLine(t, "bob's turn", n, "<@alice> played e4.")
		wantLine(t, "bob's turn", n, "Your turn in game "+itoa(id)+" (Chess). Move before 2026-03-04 12:00 UTC.")
		e.ok("bob", "/move move:e5")
		wantLine(t, "alice's turn", e.yourTurn("alice"), "<@bob> played e5.")
	})
	t.Run("trainwreck", func(t *testing.T) {
		e := newEnv(t)
		id := e.start("trainwreck")
		r := e.ok("alice", "/move move:e4")
		wantLine(t, "first half-move", r.Text, "<@alice> played **e4** in game #"+itoa(id)+".")
		r = e.ok("alice", "/move move:e5")
		wantLine(t, "second half-move", r.Text, "<@alice> played e4, **e5** in game #"+itoa(id)+".")
		n := e.yourTurn("bob")
		wantLine(t, "bob's turn", n, "<@alice> played e4, e5.")
		if !strings.Contains(n, "(Train Wreck Chess)") {
			t.Errorf("the variant's name is not in %q", n)
		}
	})
	t.Run("threemove", func(t *testing.T) {
		e := newEnv(t)
		e.start("trainwreck-threemove")
		e.ok("alice", "/move move:e4")
		e.ok("alice", "/move move:e5")
		e.ok("bob", "/move move:Nf6")
		e.ok("bob", "/move move:Nc6")
		r := e.ok("bob", "/move move:Nf3")
		if !strings.HasPrefix(r.Text, "<@bob> played Nf6, Nc6, **Nf3** in game #") {
			t.Errorf("reply: %q", r.Text)
		}
		wantLine(t, "alice's turn", e.yourTurn("alice"), "<@bob> played Nf6, Nc6, Nf3.")
	})
	t.Run("winning answer", func(t *testing.T) {
		e := newEnv(t)
		e.startFrom("winning", "r4kd4r/12/12/12/12/12/12/R4KA4R w - - 0 1")
		e.ok("alice", "/move move:Af3>")
		wantLine(t, "bob's window", e.yourTurn("bob"), "<@alice> played Af3>.")
		r := e.ok("bob", "/move move:Dh7")
		if !strings.HasPrefix(r.Text, "<@bob> answered **Dh7** in game #") {
			t.Errorf("answer reply: %q", r.Text)
		}
		wantLine(t, "alice's second step", e.yourTurn("alice"), "<@alice> played Af3>; <@bob> answered Dh7.")
		r = e.ok("alice", "/move move:Ag4")
		if !strings.HasPrefix(r.Text, "<@alice> played Af3> in game #1; <@bob> answered Dh7; <@alice> played **Ag4**.") {
			t.Errorf("turn's end: %q", r.Text)
		}
		wantLine(t, "bob's turn", e.yourTurn("bob"), "<@alice> played Af3>; <@bob> answered Dh7; <@alice> played Ag4.")
	})
	t.Run("forced pass", func(t *testing.T) {
		e := newEnv(t)
		e.startFrom("winning", "r5k4r/12/12/12/12/12/12/R4KA4R w - - 0 1")
		e.ok("alice", "/move move:Af3>")
		e.ok("alice", "/move move:Ag4")
		wantLine(t, "bob's turn", e.yourTurn("bob"),
			"<@alice> played Af3>; <@bob> passed (the only legal move, so the bot played it); <@alice> played Ag4.")
		h := e.ok("carol", "/history game:1")
		wantLine(t, "history", h.Text, "1. Af3>, (Black had to pass), Ag4")
	})
	t.Run("annihilation forced pass", func(t *testing.T) {
		// White's blocked pawn has no move: White's turn is the bot's pass.
		e := newEnv(t)
		e.startFrom("annihilation", "7r/8/8/8/8/p7/P7/8[] b - - 0 1")
		r := e.ok("bob", "/move move:Rh7")
		if !strings.HasPrefix(r.Text, "<@bob> played **Rh7** in game #1; <@alice> passed (the only legal move, so the bot played it).\n") {
			t.Errorf("reply: %q", r.Text)
		}
		wantLine(t, "bob's turn again", e.yourTurn("bob"), "<@alice> passed (the only legal move, so the bot played it).")
	})
}

// TestSetupPicture: the picture of a game waiting for Crazyhouse
// Annihilation's pre-game choice does not say "White to move": its
// status line is the choice pending (render.Status).
func TestSetupPicture(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:annihilation")
	a := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, c)))
	if len(a.Files) != 1 {
		t.Fatalf("setup: %s", show(a))
	}
	g := e.game(a.GameID)
	rg, err := e.h.replay(g)
	if err != nil {
		t.Fatal(err)
	}
	draw := func(opts ...render.Option) []byte {
		var b bytes.Buffer
		if err := e.h.renderer.PNG(&b, rg.Position(), append([]render.Option{render.Size(240), render.LastTurn(rg)}, opts...)...); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	got := a.Files[0].Data
	if bytes.Equal(got, draw()) || !bytes.Equal(got, draw(render.Status("Pre-game choice pending: which army to play"))) {
		t.Error("the setup picture does not say that the army is to be chosen")
	}
}
