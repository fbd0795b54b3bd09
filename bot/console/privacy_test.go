package console_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/fairypost/fairypost/bot/command"
)

// TestForecastBoardStaysPrivate is issue 24's privacy bug as it was met
// in the console: alice stores a conditional line, then in a fresh
// process shows it; carol's and alice's /board must be the real board,
// byte for byte the board a process that never drew the line draws, and
// the line's board must differ from it.
func TestForecastBoardStaysPrivate(t *testing.T) {
	e := newEnv(t)
	e.run(t, `
as alice /challenge @bob variant:chess color:white
as bob /accept
as alice /move e4
as alice /forecast add line:"e5 Nf3 Nc6 Bb5"
`)
	fresh := func() {
		e.handler = command.New(e.svc, e.prefs, command.Options{BoardSize: 320, Tournaments: e.tours, Ratings: e.rates})
	}
	fresh()
	out := e.run(t, `
as alice /forecast show number:1
as carol /board game:1
as alice /board game:1
`)
	read := func(what, section string) []byte {
		t.Helper()
		paths := files(t, section)
		if len(paths) != 1 {
			t.Fatalf("%s: want one image, got %q in:\n%s", what, paths, section)
		}
		data, err := os.ReadFile(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	line := read("the line", section(t, out, "as alice /forecast show number:1"))
	carol := read("carol's board", section(t, out, "as carol /board game:1"))
	alice := read("alice's board", section(t, out, "as alice /board game:1"))
	fresh()
	ref := e.run(t, "as carol /board game:1\nas alice /board game:1\n")
	if !bytes.Equal(carol, read("carol's board, empty cache", section(t, ref, "as carol /board game:1"))) {
		t.Errorf("carol's /board after alice's line is not the board drawn with an empty cache")
	}
	if !bytes.Equal(alice, read("alice's board, empty cache", section(t, ref, "as alice /board game:1"))) {
		t.Errorf("alice's /board after her line is not the board drawn with an empty cache")
	}
	if bytes.Equal(line, carol) || bytes.Equal(line, alice) {
		t.Errorf("the line's board is the real board")
	}
}
