package console_test

import (
	"strings"
	"testing"
)

// TestNote: a player's notes on a game are answered only to them, shown
// with the board on request, never to the opponent, and cleared.
func TestNote(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /note add text:"plan: castle long"
as alice /note add text:"watch the h-file"
as bob /note show
as alice /note show
as alice /note clear
as alice /note show
`)
	wantIn(t, "add", section(t, out, `as alice /note add text:"watch the h-file"`),
		"(only @alice sees this) Your private note on game #1", "plan: castle long\nwatch the h-file")
	if s := section(t, out, "as bob /note show"); strings.Contains(s, "castle") {
		t.Errorf("bob sees alice's note:\n%s", s)
	}
	show := section(t, out, "as alice /note show")
	wantIn(t, "show", show, "(only @alice sees this) Game #1", "Your private note:\nplan: castle long\nwatch the h-file", "file: ")
	wantIn(t, "cleared", out, "Your note on game #1 is cleared.", "Your private note:\n(none yet")
}
