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
