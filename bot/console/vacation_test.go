package console_test

import (
	"testing"
	"time"
)

// TestVacationAndPause: in the console Bob goes on vacation (Alice is
// told, /settings and /board show it), the days are counted when he comes
// back; then both agree to pause the game, a move waits, and Alice
// resumes it.
func TestVacationAndPause(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess color:white days:3
as bob /accept
as alice /move e4
as bob /vacation start
as bob /settings
as alice /board
wait 2d
as bob /vacation end
as alice /pause ask
as bob /pause ask
as bob /move e5
as alice /pause resume
as bob /move e5
`)
	start := section(t, out, "as bob /vacation start")
	wantIn(t, "start", start, "(only @bob sees this) Enjoy your vacation", "2026-03-31 12:00 UTC at the latest",
		"→ @alice: @bob is on vacation until 2026-03-31 12:00 UTC at the latest: their clock in game 1 (Chess) is stopped meanwhile.")
	wantIn(t, "settings", section(t, out, "as bob /settings"), "Vacation: 0 of your 30 days a year used in 2026, 30 left. On vacation since 2026-03-01")
	wantIn(t, "board", section(t, out, "as alice /board"), "@bob is on vacation until 2026-03-31 12:00 UTC at the latest: their clock waits.")
	wantIn(t, "end", section(t, out, "as bob /vacation end"), "Welcome back", "Vacation: 2 of your 30 days a year used in 2026, 28 left.",
		"→ @alice: @bob is back from vacation: their clock in game 1 (Chess) runs again.")
	wantIn(t, "ask", section(t, out, "as alice /pause ask"), "@alice asks to pause game #1.")
	wantIn(t, "agree", section(t, out, "as bob /pause ask"), "@bob agrees: game #1 is paused.")
	wantIn(t, "refused", section(t, out, "as bob /move e5"), "(only @bob sees this) Game 1 is paused")
	wantIn(t, "resumed", section(t, out, "as alice /pause resume"), "@alice resumed game #1: the clock runs again. It is @bob's turn.")
	g := e.game(t, 1)
	if len(g.Moves) != 2 || !g.PausedAt.IsZero() || g.Deadline.Before(time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("game after resuming: %+v", g)
	}
}
