package rules

import (
	"errors"
	"strings"
	"testing"
)

// moveTextPositions returns the positions whose every legal move
// TestMoveTextRoundTrip writes and reads back: the start positions, every
// position of the perft files and of the legality table.
func moveTextPositions(t *testing.T) []Position {
	t.Helper()
	r, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var out []Position
	for _, key := range r.Keys() {
		out = append(out, r.Default(key).Start())
	}
	for _, key := range perftFiles {
		v := mustVariant(t, key)
		for _, c := range loadPerft(t, key) {
			out = append(out, mustFEN(t, v, c.EPD))
		}
	}
	for _, c := range legalityCases {
		v := mustVariant(t, c.variant)
		out = append(out, mustPlay(t, mustFEN(t, v, c.fen), c.setup))
	}
	return out
}

// otherLetterCase returns text with the case of its piece letter (a
// promotion or a drop) swapped; ParseMove reads either case.
func otherLetterCase(text string) string {
	b := []byte(text)
	if len(b) > 1 && b[1] == '@' {
		b[0] ^= 0x20
	} else if c := b[len(b)-1]; c >= 'a' && c <= 'z' && (len(b) < 2 || b[len(b)-2] >= '0' && b[len(b)-2] <= '9') {
		b[len(b)-1] ^= 0x20
	}
	return string(b)
}

// TestMoveTextRoundTrip pins the canonical move text: for every legal
// move of many positions (castling, en passant, promotions, drops, 10x10
// squares), FormatMove's text is unique among the position's moves,
// well-formed, and ParseMove reads it back to the same move, also with
// the piece letter in the other case, all in uppercase and with
// surrounding space.
func TestMoveTextRoundTrip(t *testing.T) {
	n := 0
	for _, p := range moveTextPositions(t) {
		seen := map[string]Move{}
		for _, m := range p.Legal(nil) {
			n++
			text := FormatMove(&p, m)
			if prev, dup := seen[text]; dup {
				t.Errorf("%s: %+v and %+v both written %q", p.FEN(), prev, m, text)
			}
			seen[text] = m
			if err := checkCoordSyntax(text); err != nil {
				t.Errorf("%s: %q is not well-formed: %v", p.FEN(), text, err)
			}
			for _, variant := range []string{text, otherLetterCase(text), strings.ToUpper(text), " " + text + "\n"} {
				got, err := ParseMove(&p, variant)
				if err != nil {
					t.Errorf("%s: ParseMove(%q): %v", p.FEN(), variant, err)
				} else if got != m {
					t.Errorf("%s: ParseMove(%q) = %+v, want %+v", p.FEN(), variant, got, m)
				}
			}
		}
	}
	if n < 5000 {
		t.Errorf("only %d moves checked", n)
	}
}

// TestMoveTextForms pins the canonical text of each kind of move: lowercase
// squares, a lowercase promotion letter, an uppercase drop letter for both
// sides, castling as the king's two squares, two-digit ranks.
func TestMoveTextForms(t *testing.T) {
	for _, c := range []struct{ variant, fen, text string }{
		{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3"},
		{"chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"},
		{"chess", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"},
		{"chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"},
		{"chess", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"},
		{"crazyhouse", "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1", "N@d3"},
		{"crazyhouse", "4k3/8/8/8/8/8/8/4K3[Nn] b - - 0 1", "N@d6"},
		{"grand", "5k4/1P8/10/10/10/10/10/10/10/4K4R w - - 0 1", "b9b10r"},
		{"grand", grandStart, "j1j2"},
	} {
		p := mustFEN(t, mustVariant(t, c.variant), c.fen)
		m, err := ParseMove(&p, c.text)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", c.fen, c.text, err)
			continue
		}
		if got := FormatMove(&p, m); got != c.text {
			t.Errorf("%s: FormatMove = %q, want %q", c.fen, got, c.text)
		}
	}
}

// TestParseMoveErrors pins ParseMove's errors: text that is not a move
// wraps ErrBadMove; a well-formed move that is not legal wraps
// ErrIllegalMove and says why (no piece there, the opponent's piece, the
// king would be left in check, the game is over, ...).
func TestParseMoveErrors(t *testing.T) {
	const (
		board      = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
		chessStart = board + " w KQkq - 0 1"
	)
	for _, c := range []struct {
		name, variant, fen, text string
		want                     error
		reason                   Reason
	}{
		{"empty", "chess", chessStart, "", ErrBadMove, ""},
		{"one square", "chess", chessStart, "e2", ErrBadMove, "destination"},
		{"hyphen", "chess", chessStart, "e2-e4", ErrBadMove, "destination"},
		{"SAN", "chess", chessStart, "Nf3", ErrBadMove, ""},
		{"file beyond l", "chess", chessStart, "z2z4", ErrBadMove, ""},
		{"rank 0", "chess", chessStart, "e0e1", ErrBadMove, ""},
		{"rank 13", "chess", chessStart, "e2e13", ErrBadMove, "destination"},
		{"two promotion letters", "chess", chessStart, "e2e4qq", ErrBadMove, "promotion"},
		{"promotion with =", "chess", chessStart, "e7e8=q", ErrBadMove, ""},
		{"two moves", "chess", chessStart, "e2e4 e7e5", ErrBadMove, ""},
		{"drop without a letter", "crazyhouse", board + "[] w KQkq - 0 1", "@e4", ErrBadMove, ""},
		{"drop with a digit", "crazyhouse", board + "[] w KQkq - 0 1", "1@e4", ErrBadMove, "piece letter"},
		{"drop without a square", "crazyhouse", board + "[] w KQkq - 0 1", "N@", ErrBadMove, ""},
		{"no piece on the square", "chess", chessStart, "e3e4", ErrIllegalMove, "there is no piece on e3"},
		{"the opponent's piece", "chess", chessStart, "e7e5", ErrIllegalMove, "the Pawn on e7 is not White's"},
		{"a move the piece cannot make", "chess", chessStart, "g1g3", ErrIllegalMove, "the Knight on g1 cannot move to g3"},
		{"a pinned piece would leave the king in check", "chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", ErrIllegalMove, "it would leave the king in check"},
		{"a king step into check", "chess", "3rk3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", ErrIllegalMove, "it would leave the king in check"},
		{"castling through check", "chess", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", ErrIllegalMove, ""},
		{"a promotion without its letter", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", ErrIllegalMove, "promotion letter"},
		{"a square off a chess board", "chess", chessStart, "i2i4", ErrIllegalMove, "i2 is not on the board"},
		{"a square off a grand board", "grand", grandStart, "a11a10", ErrIllegalMove, "a11 is not on the board"},
		{"pass in chess", "chess", chessStart, "pass", ErrIllegalMove, "passing is not allowed"},
		{"0000 in chess", "chess", chessStart, "0000", ErrIllegalMove, "passing is not allowed"},
		{"a drop in chess", "chess", chessStart, "N@e4", ErrIllegalMove, "this variant has no drops"},
		{"a drop of a piece not in hand", "crazyhouse", board + "[q] w KQkq - 0 1", "Q@e4", ErrIllegalMove, "White has no Queen in hand"},
		{"a drop of an unknown piece", "crazyhouse", board + "[] w KQkq - 0 1", "C@e4", ErrIllegalMove, "C is not a piece of Crazyhouse"},
		{"a pawn drop on the last rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@d8", ErrIllegalMove, "a Pawn may not be dropped on rank 8"},
		{"a frozen King (easymate)", "easymate", "4k3/8/8/3q4/8/8/8/3RK3 b - - 0 1", "e8e7", ErrIllegalMove, "the King is frozen: it may not move while its Queen is attacked (the Queen on d5 is)"},
		{"the enemy King in Train Wreck's second half-move", "trainwreck", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w1 KQkqHAha - 0 2", "e8e7", ErrIllegalMove, "the enemy King may not be moved"},
		{"a Tank step that leaves the King in check", "tank", "4k3/8/8/8/7b/8/5T2/4K3 w - - 0 1", "f2g2", ErrIllegalMove, "it would leave your King in check"},
		{"a drop on a square nobody attacks (annihilation)", "annihilation", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w - - 0 1", "N@e5", ErrIllegalMove, "no White piece attacks e5"},
		{"a drop that leaves the king in check", "crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", "N@h5", ErrIllegalMove, "it would leave the king in check"},
		{"a drop on an occupied square", "crazyhouse", "4k3/8/8/8/8/8/4P3/4K3[N] w - - 0 1", "N@e2", ErrIllegalMove, "e2 is taken by a White Pawn: a piece is dropped only on an empty square"},
		{"game over: checkmate", "chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "e2e4", ErrIllegalMove, "the game is over (checkmate)"},
		{"game over: stalemate", "chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "h8h7", ErrIllegalMove, "the game is over (stalemate)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := mustVariant(t, c.variant)
			fen := c.fen
			p := mustFEN(t, v, fen)
			m, err := ParseMove(&p, c.text)
			switch {
			case err == nil:
				t.Fatalf("ParseMove(%q) in %s = %+v, want an error", c.text, fen, m)
			case !errors.Is(err, c.want):
				t.Fatalf("ParseMove(%q) in %s: %v, want an error wrapping %v", c.text, fen, err, c.want)
			case errors.Is(err, ErrBadMove) && errors.Is(err, ErrIllegalMove):
				t.Fatalf("ParseMove(%q): %v wraps both ErrBadMove and ErrIllegalMove", c.text, err)
			case !strings.Contains(err.Error(), string(c.reason)):
				t.Fatalf("ParseMove(%q) in %s: %q does not say %q", c.text, fen, err, c.reason)
			}
			if _, err := p.Play(m); !errors.Is(err, ErrIllegalMove) {
				t.Errorf("Play of the zero move: %v, want ErrIllegalMove", err)
			}
		})
	}
}

// FuzzParseMove pins that ParseMove never panics, that its errors wrap
// exactly one of ErrBadMove and ErrIllegalMove, and that a move it accepts
// is legal and is written back by FormatMove as the text it was read from,
// up to letter case and surrounding space. The variant argument picks the
// variant as in FuzzParseFEN; a FEN that does not parse stands for the
// start position. Seeds are in testdata/fuzz/FuzzParseMove.
func FuzzParseMove(f *testing.F) {
	r, err := sharedRegistry()
	if err != nil {
		f.Fatal(err)
	}
	keys := r.Keys()
	f.Fuzz(func(t *testing.T, variant, fen, text string) {
		v := r.Default(variant)
		if v == nil {
			v = r.Default(keys[len(variant)%len(keys)])
		}
		p, err := ParseFEN(v, fen)
		if err != nil {
			p = v.Start()
		}
		m, err := ParseMove(&p, text)
		if err != nil {
			bad, illegal := errors.Is(err, ErrBadMove), errors.Is(err, ErrIllegalMove)
			if bad == illegal {
				t.Fatalf("ParseMove(%q) in %s: %v: ErrBadMove %v, ErrIllegalMove %v", text, p.FEN(), err, bad, illegal)
			}
			return
		}
		want := strings.TrimSpace(text)
		if want == "0000" {
			want = "pass"
		}
		if got := FormatMove(&p, m); !strings.EqualFold(got, want) {
			t.Fatalf("ParseMove(%q) in %s = %+v, written %q", text, p.FEN(), m, got)
		}
		if _, err := p.Play(m); err != nil {
			t.Fatalf("ParseMove(%q) in %s accepted %+v, but Play: %v", text, p.FEN(), m, err)
		}
	})
}
