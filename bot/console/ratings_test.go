package console_test

import (
	"strings"
	"testing"
)

// Rated play in the console: the challenge says it is rated, the mating
// move's reply and the game-over notifications announce both rating
// changes, and /leaderboard and /profile answer with an image and the
// same facts as text.
func TestConsoleRatedPlay(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /move f3
as bob /move e5
as alice /move g4
as bob /move Qh4#
as carol /leaderboard variant:chess
as carol /profile @bob
`)
	wantIn(t, "challenge", section(t, out, "as alice /challenge @bob variant:chess color:white"), ", rated.")
	mate := section(t, out, "as bob /move Qh4#")
	wantIn(t, "mate", mate, "@bob (Black) wins by checkmate", "@bob 1500? → 1", "@alice 1500? → 1", "(+", "(−")
	if n := strings.Count(mate, "@bob 1500? → "); n < 2 {
		t.Errorf("the result and its notifications should each announce the change (%d times):\n%s", n, mate)
	}
	g := e.game(t, 1)
	if len(g.Ratings) != 2 || g.Ratings[0].Pool != "global/chess" {
		t.Errorf("console game ratings (global pool only): %+v", g.Ratings)
	}
	lb := section(t, out, "as carol /leaderboard variant:chess")
	wantIn(t, "leaderboard", lb, "Leaderboard · Chess", "(from all rated games)", "Nobody is ranked yet", "file: ")
	prof := section(t, out, "as carol /profile @bob")
	wantIn(t, "profile", prof, "Player card of @bob", "Chess: 1", "1 game (1 won, 0 drawn, 0 lost)", "file: ")
	if got := files(t, lb+prof); len(got) != 2 {
		t.Errorf("files %v, want the leaderboard and the card", got)
	}
}
