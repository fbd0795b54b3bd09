package notation

import (
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// TestFurtherPawnKindsKeepTheirLetter pins PieceDef.LetterInSAN: Cold
// Fusion's Berolina pawn (L) and Sergeant (S) are pawns but are written
// with their letters, so that a Berolina pawn's quiet diagonal step does
// not read like a plain pawn's capture; the plain pawn stays letterless.
func TestFurtherPawnKindsKeepTheirLetter(t *testing.T) {
	r, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	v := r.Default("coldfusion")
	p, err := rules.ParseFEN(v, "r8r/1nbqkcabn1/pppppppppp/10/4L4S/3P6/10/PPP1PPPPPP/1NBQKCABN1/R8R w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for coord, want := range map[string]string{
		"e6f7": "Lf7", // Berolina quiet step, diagonally forward
		"e6d7": "Ld7", // the other diagonal
		"j6j7": "Sj7", // Sergeant straight ahead
		"j6i7": "Si7", // Sergeant diagonally
		"d5d6": "d6",  // the plain pawn keeps no letter
		"a3a5": "a5",  // its double step too
	} {
		m, err := rules.ParseMove(&p, coord)
		if err != nil {
			t.Fatalf("%s: %v", coord, err)
		}
		if got := SAN(&p, m); got != want {
			t.Errorf("SAN(%s) = %q, want %q", coord, got, want)
		}
		back, err := ParseSAN(&p, want)
		if err != nil || back != m {
			t.Errorf("ParseSAN(%q) = %v, %v; want %s", want, back, err, coord)
		}
	}
	if m, err := ParseSAN(&p, "f7"); err == nil {
		t.Errorf("f7 (no pawn can step there) parsed as %s", rules.FormatMove(&p, m))
	}
}
