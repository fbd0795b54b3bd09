package console_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAsSwitchesWhenRefused: "as NAME" switches the current user even
// when the command after it is refused (a missing or unknown option, an
// unknown command), so a script's next lines are typed by NAME, not by
// whoever typed before (issue 24 §5).
func TestAsSwitchesWhenRefused(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /vacation
/settings
as bob /vacation days:3
/settings
as alice /frobnicate
/settings
as bob /press
/settings
as b@d /games
/settings
`)
	for _, tc := range []struct{ line, want string }{
		{"as alice /vacation", "! /vacation needs the option action."},
		{"as bob /vacation days:3", `! /vacation has no option "days".`},
		{"as alice /frobnicate", "! Unknown command /frobnicate."},
		{"as bob /press", "! /press takes one button ID"},
		{"as b@d /games", `! as: "b@d" is not a user name`},
	} {
		wantIn(t, tc.line, section(t, out, tc.line), tc.want)
	}
	// Each /settings follows a refused line: it is typed by the user that
	// line named (the last, after an invalid name, by the one before).
	want := []string{"alice", "bob", "alice", "bob", "bob"}
	var got []string
	for _, chunk := range strings.Split(out, "\n> ")[1:] {
		if rest, ok := strings.CutPrefix(chunk, "/settings\n"); ok {
			got = append(got, rest)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d /settings replies, want %d:\n%s", len(got), len(want), out)
	}
	for i, who := range want {
		wantIn(t, fmt.Sprintf("/settings number %d", i+1), got[i], "(only @"+who+" sees this) ")
	}
}

// TestDigestTellsTheMoves: bob's daily digest (08:00 at UTC+2) gives, for
// each game where it is his turn, what alice played since his last move,
// whole turns grouped as /history groups them (Winning Chess's two-step
// turn on one line), the deadline in his time and the board; your-turn
// notices are not repeated, other held notices keep their text with
// times in his time; /settings names digest: and utc: (issue 24 §5).
func TestDigestTellsTheMoves(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as bob /settings digest:8 utc:+2
as alice /challenge @bob variant:chess color:white days:3
as bob /accept
as alice /challenge @bob variant:winning color:white days:5
as bob /accept
as alice /move game:1 e4
as alice /vacation start
as alice /vacation end
as alice /move game:2 Af3>
as bob /move game:2 pass
as alice /move game:2 Ae4
wait 18h
`)
	wantIn(t, "settings", section(t, out, "as bob /settings digest:8 utc:+2"),
		"A daily digest at 08:00 UTC+2 instead of one message per event",
		"Change them with /settings notify:dm|channel|off reminder:0-99 digest:off|0-23 (one direct message a day at that hour) utc:+2|-5|+5:30")
	digest := section(t, out, "wait 18h")
	wantIn(t, "digest", digest,
		"→ @bob: Your fairypost digest, 2026-03-02 08:00 UTC+2.",
		"It is your turn in 2 games:",
		"• Game #1 (Chess) vs @alice: move before 2026-03-04 14:00 UTC+2 (2d 6h left). Since your last move: 1. e4.",
		"• Game #2 (Winning Chess) vs @alice: move before 2026-03-06 14:00 UTC+2 (4d 6h left). Since your last move: 1. Af3>, (Black passes), Ae4.",
		"Since the last digest:\n  • @alice is on vacation until 2026-03-31 14:00 UTC+2 at the latest: their clock in game 1 (Chess) is stopped meanwhile.")
	if strings.Contains(digest, "Your turn in game") || strings.Contains(digest, " UTC.") {
		t.Errorf("the digest repeats a your-turn notice or a time in UTC:\n%s", digest)
	}
	if n := strings.Count(digest, "file: "); n != 2 {
		t.Errorf("the digest carries %d boards, want 2:\n%s", n, digest)
	}
	files(t, digest)
}
