package console

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// play returns variant key's position after moves (friendly or
// canonical forms).
func play(t *testing.T, key string, moves ...string) rules.Position {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(reg.Default(key).Start())
	for _, s := range moves {
		p := g.Position()
		m, err := notation.ParseMove(&p, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g.Position()
}

func TestTextBoardChess(t *testing.T) {
	p := play(t, "chess", "e4", "e5", "Nf3")
	want := `   a b c d e f g h
8  r n b q k b n r  8
7  p p p p . p p p  7
6  . . . . . . . .  6
5  . . . . p . . .  5
4  . . . . P . . .  4
3  . . . . . N . .  3
2  P P P P . P P P  2
1  R N B Q K B . R  1
   a b c d e f g h
`
	if got := textBoard(&p); got != want {
		t.Errorf("board\n%s\nwant\n%s", got, want)
	}
	if got, want := turnLine(&p), "Black to move."; got != want {
		t.Errorf("turn line %q, want %q", got, want)
	}
	mate := play(t, "chess", "f3", "e5", "g4", "Qh4#")
	if got, want := turnLine(&mate), "Game over: 0-1 (checkmate)."; got != want {
		t.Errorf("turn line %q, want %q", got, want)
	}
	check := play(t, "chess", "e4", "f5", "Qh5+")
	if got, want := turnLine(&check), "Black to move (in check)."; got != want {
		t.Errorf("turn line %q, want %q", got, want)
	}
}

// TestTextBoardPockets: crazyhouse shows both hands; a captured piece
// goes to the captor's hand.
func TestTextBoardPockets(t *testing.T) {
	p := play(t, "crazyhouse", "e4", "d5", "exd5")
	got := textBoard(&p)
	for _, want := range []string{"White in hand: P\n", "Black in hand: -\n", "4  . . . . . . . .  4"} {
		if !strings.Contains(got, want) {
			t.Errorf("board lacks %q:\n%s", want, got)
		}
	}
}

// TestTextBoardWide: a 10-rank board pads the rank numbers.
func TestTextBoardWide(t *testing.T) {
	p := play(t, "grand")
	lines := strings.Split(textBoard(&p), "\n")
	if want := "    a b c d e f g h i j"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "10  ") || !strings.HasSuffix(lines[1], " 10") {
		t.Errorf("rank 10 line %q", lines[1])
	}
	if !strings.HasPrefix(lines[10], " 1  ") {
		t.Errorf("rank 1 line %q", lines[10])
	}
}

// TestTurnLineMultiPart: Train Wreck's second step names the phase.
func TestTurnLineMultiPart(t *testing.T) {
	p := play(t, "trainwreck", "g1f3")
	got := turnLine(&p)
	if want := "White to move: White moves a Black piece."; got != want {
		t.Errorf("turn line %q, want %q", got, want)
	}
}
