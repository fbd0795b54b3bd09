package command

import "testing"

// TestRematchKeepsRated: the rematch of a rated game is rated, and its
// message says so; the rematch of a casual game stays casual and says
// that (issue 24 §5).
func TestRematchKeepsRated(t *testing.T) {
	for _, c := range []struct {
		rated, want string
		wantRated   bool
	}{{"yes", ", rated.", true}, {"no", ", casual (not rated).", false}} {
		e := newEnv(t)
		ch := e.ok("alice", "/challenge opponent:bob variant:chess color:white rated:"+c.rated)
		id := challengeID(t, ch)
		e.ok("bob", "/accept challenge:"+itoa(id))
		over := e.ok("alice", "/resign game:"+itoa(id))
		r := e.press("alice", over, "Rematch")
		wantText(t, "rematch of a rated:"+c.rated+" game", r, "rematch of game #1: Chess", c.want)
		a := e.ok("bob", "/accept challenge:"+itoa(challengeID(t, r)))
		if g := e.game(a.GameID); g.Rated != c.wantRated || g.White != "bob" {
			t.Errorf("rematch of a rated:%s game: %+v", c.rated, g)
		}
	}
}
