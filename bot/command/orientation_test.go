package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

// TestBoardOrientation checks how boards are turned: the posts of a game
// (the start, each move, whoever made it and whoever acts next) keep White
// at the bottom and the first post says so; the turn notification sent to
// a player shows that player's side, and White's when posted in the thread
// (Reply.PublicFiles); /board shows the requester's side and says so to
// Black.
func TestBoardOrientation(t *testing.T) {
	e := newEnv(t)
	r := e.ok("alice", "/challenge opponent:bob variant:chess color:white")
	start := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, r)))
	id := start.GameID
	if !strings.Contains(start.Text, "White at the bottom") {
		t.Errorf("the game's first post does not say how boards are turned: %q", start.Text)
	}
	// side returns which side of the current position the reply's board
	// shows at the bottom: "white", "black" or "?" (neither).
	side := func(rep Reply) string {
		t.Helper()
		if len(rep.Files) == 0 {
			t.Fatalf("no board: %s", show(rep))
		}
		g := e.game(id)
		rg, err := e.h.replay(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ name, viewer string }{{"white", g.White}, {"black", g.Black}} {
			f, err := e.h.boardPNG(g, rg, c.viewer)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(f.Data, rep.Files[0].Data) {
				return c.name
			}
		}
		return "?"
	}
	if got := side(start); got != "white" {
		t.Errorf("start post: %s at the bottom, want white", got)
	}
	for i, mv := range []struct{ user, move string }{{"alice", "e4"}, {"bob", "e5"}, {"alice", "Nf3"}} {
		rep := e.ok(mv.user, "/move move:"+mv.move)
		if got := side(rep); got != "white" {
			t.Errorf("move %d (%s by %s, in the thread): %s at the bottom, want white", i+1, mv.move, mv.user, got)
		}
	}
	// Bob is to act: his notification (a DM) shows his side.
	n := e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyYourTurn, UserID: "bob", GameID: id, Text: "your turn"})
	if got := side(n); got != "black" {
		t.Errorf("bob's turn notification: %s at the bottom, want black", got)
	}
	// Posted in the thread instead (notify:channel), it keeps White at the
	// bottom.
	if len(n.PublicFiles) != 1 || side(Reply{Files: n.PublicFiles}) != "white" {
		t.Errorf("bob's turn notification as posted in the thread: %d files; want White's board", len(n.PublicFiles))
	}
	if a := e.h.Notification(e.ctx, bot.Notification{Kind: bot.NotifyReminder, UserID: "alice", GameID: id, Text: "x"}); len(a.PublicFiles) != 0 {
		t.Errorf("a notification to White has public files: %s", show(a))
	}
	b := e.ok("bob", "/board game:"+itoa(id))
	if got := side(b); got != "black" || !strings.Contains(b.Text, "Black, is at the bottom") {
		t.Errorf("bob's /board: %s at the bottom, text %q; want black, said", got, b.Text)
	}
	if a := e.ok("alice", "/board game:"+itoa(id)); side(a) != "white" || strings.Contains(a.Text, "at the bottom") {
		t.Errorf("alice's /board: %s at the bottom, text %q; want white, nothing said", side(a), a.Text)
	}
	if s := e.ok("carol", "/board game:"+itoa(id)); side(s) != "white" {
		t.Errorf("a spectator's /board: %s at the bottom, want white", side(s))
	}
}
