package console_test

import (
	"strings"
	"testing"
)

// TestPhaseToldOnce: a reply that tells the phase of a multi-part turn
// ("White moves a Black piece") tells it once: the text board under it
// names the player to act without repeating it (the image has it as its
// title). /board tells it in its status line, so its text board does not
// either.
func TestPhaseToldOnce(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:trainwreck color:white
as bob /accept
as alice /move e4
as carol /board
`)
	for _, line := range []string{"as alice /move e4", "as carol /board"} {
		reply, _, _ := strings.Cut(section(t, out, line), "\n→ ")
		if n := strings.Count(reply, "White moves a Black piece"); n != 1 {
			t.Errorf("%s: the phase told %d times:\n%s", line, n, reply)
		}
		wantIn(t, line, reply, "@alice (White) to move.\n")
	}
}
