package rules

import (
	"errors"
	"strings"
	"testing"
)

// canonicalFENs are FENs already in the form Position.FEN writes: ParseFEN
// then FEN gives each back unchanged, counters included.
var canonicalFENs = []struct{ variant, fen string }{
	{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
	{"chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
	{"chess", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
	{"chess", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 17 42"},
	{"chess", "8/8/8/8/8/8/8/K6k b - - 99 100000"},
	{"chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"},
	{"crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"},
	{"crazyhouse", "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1"},
	{"crazyhouse", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"},
	{"crazyhouse", "4k3/1Q~6/8/8/4b3/8/Kpp5/8[PPPpp] b - - 3 30"},
	{"crazyhouse", "Q~Q~Q~Q~k3/8/8/8/8/8/8/4K3[] b - - 0 9"},
	{"grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"},
	{"grand", "r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3"},
	{"grand", "10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1"},
	{"grand", "5k4/1P8/10/10/10/10/10/10/10/R3K4R b - - 12 7"},
}

// nonCanonicalFENs are accepted FENs that ParseFEN puts into canonical
// form: rights the board contradicts are dropped, fields are completed and
// letters put in order.
var nonCanonicalFENs = []struct{ name, variant, fen, want string }{
	{"missing fields get their defaults", "chess",
		"8/8/8/8/8/8/8/K6k w", "8/8/8/8/8/8/8/K6k w - - 0 1"},
	{"missing counters get their defaults", "chess",
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq -", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"},
	{"extra spaces are ignored", "chess",
		"  8/8/8/8/8/8/8/K6k   w  -  -  3   4 ", "8/8/8/8/8/8/8/K6k w - - 3 4"},
	{"castling letters are put in order", "chess",
		"r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
	{"a castling right without its rook is dropped", "chess",
		"r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1"},
	{"a castling right without its king on e1 is dropped", "chess",
		"r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1"},
	{"an en-passant target no pawn can capture on is dropped", "chess",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
	{"an en-passant target without a pawn that double-stepped is dropped", "chess",
		"4k3/8/8/3pP3/8/8/8/4K3 w - c6 0 2", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2"},
	{"pockets are written White first, strongest first", "crazyhouse",
		"4k3/8/8/8/8/8/8/4K3[pPnNqQ] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[QNPqnp] w - - 0 1"},
	{"a '-' pocket is empty", "crazyhouse",
		"4k3/8/8/8/8/8/8/4K3[-] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"},
	{"a missing pocket is empty", "crazyhouse",
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"},
	{"the impossible q right of perft row asymmetrical-and-king-on-h", "chess",
		"r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1", "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQ - 0 1"},
}

// checkFENRoundTrip checks that fen parses, that its canonical form parses
// back to itself with the same hash, and returns the canonical form.
func checkFENRoundTrip(t *testing.T, v *Variant, fen string) string {
	t.Helper()
	p, err := ParseFEN(v, fen)
	if err != nil {
		t.Errorf("ParseFEN(%s, %q): %v", v.Key, fen, err)
		return ""
	}
	canon := p.FEN()
	q, err := ParseFEN(v, canon)
	if err != nil {
		t.Errorf("ParseFEN(%s, %q) (the canonical form of %q): %v", v.Key, canon, fen, err)
		return canon
	}
	if again := q.FEN(); again != canon {
		t.Errorf("FEN not idempotent for %q:\n first %s\nsecond %s", fen, canon, again)
	}
	if q.Hash() != p.Hash() {
		t.Errorf("%q: hash %x, hash of its canonical form %x", fen, p.Hash(), q.Hash())
	}
	return canon
}

// TestFENRoundTrip pins FEN reading and writing: a canonical FEN (every
// start position, every position of the perft files, hand-picked ones
// with pockets, promoted pieces, en passant and counters) comes back
// exactly, and the canonical form of any accepted FEN is a fixed point.
func TestFENRoundTrip(t *testing.T) {
	r, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range r.Keys() {
		v := r.Default(key)
		start := v.Start()
		if got := start.FEN(); got != v.StartFEN {
			t.Errorf("%s: Start().FEN() = %q, StartFEN = %q", key, got, v.StartFEN)
		}
		if got := checkFENRoundTrip(t, v, v.StartFEN); got != v.StartFEN {
			t.Errorf("%s start: FEN(ParseFEN(s)) = %q, want %q", key, got, v.StartFEN)
		}
	}
	for _, c := range canonicalFENs {
		if got := checkFENRoundTrip(t, mustVariant(t, c.variant), c.fen); got != c.fen {
			t.Errorf("%s: FEN(ParseFEN(s)) = %q, want s = %q", c.variant, got, c.fen)
		}
	}
	for _, c := range nonCanonicalFENs {
		if got := checkFENRoundTrip(t, mustVariant(t, c.variant), c.fen); got != c.want {
			t.Errorf("%s (%s): FEN(ParseFEN(%q)) = %q, want %q", c.name, c.variant, c.fen, got, c.want)
		}
	}
	// Every position of the perft files is written canonically, but for
	// the rows listed in nonCanonicalFENs.
	known := map[string]string{}
	for _, c := range nonCanonicalFENs {
		known[c.fen] = c.want
	}
	for _, key := range perftFiles {
		v := mustVariant(t, key)
		for _, c := range loadPerft(t, key) {
			want := c.EPD
			if w, ok := known[c.EPD]; ok {
				want = w
			}
			if got := checkFENRoundTrip(t, v, c.EPD); got != want {
				t.Errorf("%s.perft %s: FEN(ParseFEN(s)) = %q, want %q", key, c.ID, got, want)
			}
		}
	}
	// The positions of the legality table (some deliberately not canonical).
	for _, c := range legalityCases {
		checkFENRoundTrip(t, mustVariant(t, c.variant), c.fen)
	}
}

// TestParseFENErrors pins that malformed FENs are refused with an error
// wrapping ErrBadFEN whose message names the problem.
func TestParseFENErrors(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	for _, c := range []struct {
		name, variant, fen, want string
	}{
		{"empty", "chess", "", "0 fields"},
		{"board only", "chess", start, "1 fields"},
		{"too many fields", "chess", start + " w KQkq - 0 1 x", "7 fields"},
		{"seven ranks", "chess", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks, the board has 8"},
		{"nine ranks", "chess", "8/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 ranks, the board has 8"},
		{"too many files (pieces)", "chess", "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 8 has more than 8 files"},
		{"too many files (empty run)", "chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has more than 8 files"},
		{"too few files", "chess", "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 7 files"},
		{"grand: eleven files", "grand", "r8r/1nbqkcabn1/pppppppppp/11/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1", "rank 7 has more than 10 files"},
		{"grand: chess-sized board", "grand", start + " w - - 0 1", "8 ranks, the board has 10"},
		{"empty run of zero", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0R w KQkq - 0 1", "empty run of 0"},
		{"unknown letter", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X' is not a piece of Chess"},
		{"marshal letter in chess", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1", "'C' is not a piece of Chess"},
		{"non-ASCII letter", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w KQkq - 0 1", "not a piece"},
		{"two white kings", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "white has more than one King"},
		{"two black kings", "chess", "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "black has more than one King"},
		{"bad side", "chess", start + " x KQkq - 0 1", `side "x"`},
		{"side spelled out", "chess", start + " white KQkq - 0 1", `side "white"`},
		{"uppercase side", "chess", start + " W KQkq - 0 1", `side "W"`},
		{"phase in a variant without phases", "chess", start + " w1 KQkq - 0 1", `side "w1"`},
		{"bad castling letter", "chess", start + " w KQkx - 0 1", "is not a castling right of Chess"},
		{"castling letter twice", "chess", start + " w KQkk - 0 1", "appears twice"},
		{"castling in grand", "grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w KQkq - 0 1", "is not a castling right of Grand Chess"},
		{"en passant not a square", "chess", start + " w KQkq e9 0 1", `en passant "e9"`},
		{"en passant off the board", "chess", start + " w KQkq i3 0 1", `en passant "i3"`},
		{"negative halfmove clock", "chess", start + " w KQkq - -1 1", `halfmove clock "-1"`},
		{"halfmove clock not a number", "chess", start + " w KQkq - x 1", `halfmove clock "x"`},
		{"absurd halfmove clock", "chess", start + " w KQkq - 100001 1", `halfmove clock "100001"`},
		{"move number zero", "chess", start + " w KQkq - 0 0", `move number "0"`},
		{"negative move number", "chess", start + " w KQkq - 0 -3", `move number "-3"`},
		{"side not to move in check", "chess", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "black is in check but it is white's turn"},
		{"side not to move in check (white)", "chess", "4k3/8/8/8/8/8/8/4K2r b - - 0 1", "white is in check but it is black's turn"},
		{"grand: side not to move in check by a marshal's knight leap", "grand", "4k5/10/3C6/10/10/10/10/10/10/9K w - - 0 1", "black is in check but it is white's turn"},
		{"pocket in chess", "chess", start + "[] w KQkq - 0 1", "this variant has no pockets"},
		{"royal King in hand (it could be dropped into check)", "crazyhouse", "2B5/8/8/8/8/8/8/4B3[k] b - - 0 1", "royal King cannot be in hand"},
		{"pocket in grand", "grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[Q] w - - 0 1", "this variant has no pockets"},
		{"unclosed pocket", "crazyhouse", start + "[Qq w KQkq - 0 1", "lacks its closing ']'"},
		{"unknown pocket letter", "crazyhouse", start + "[X] w KQkq - 0 1", "pocket: 'X' is not a piece of Crazyhouse"},
		{"promoted mark in chess", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ~KBNR w KQkq - 0 1", "does not mark promoted pieces"},
		{"promoted mark in grand", "grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQ~KCABN1/R8R w - - 0 1", "does not mark promoted pieces"},
		{"promoted mark without a piece", "crazyhouse", "~rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "'~' must follow a piece"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFEN(mustVariant(t, c.variant), c.fen)
			switch {
			case err == nil:
				t.Fatalf("ParseFEN(%s, %q) accepted", c.variant, c.fen)
			case !errors.Is(err, ErrBadFEN):
				t.Errorf("ParseFEN(%s, %q): %v does not wrap ErrBadFEN", c.variant, c.fen, err)
			case !strings.Contains(err.Error(), c.want):
				t.Errorf("ParseFEN(%s, %q): %q does not say %q", c.variant, c.fen, err, c.want)
			}
		})
	}
}

// FuzzParseFEN pins that ParseFEN never panics on any text in any of the
// three variants, that every FEN it accepts has a canonical form that
// parses back to itself (same FEN, same hash), and that the moves and the
// outcome of an accepted position can be computed without a panic. The
// variant argument is a registry key (the seeds use chess, crazyhouse and
// grand); other text picks a registered variant by its length. Seeds are
// in testdata/fuzz/FuzzParseFEN.
func FuzzParseFEN(f *testing.F) {
	r, err := sharedRegistry()
	if err != nil {
		f.Fatal(err)
	}
	keys := r.Keys()
	f.Fuzz(func(t *testing.T, variant, fen string) {
		v := r.Default(variant)
		if v == nil {
			v = r.Default(keys[len(variant)%len(keys)])
		}
		p, err := ParseFEN(v, fen)
		if err != nil {
			if !errors.Is(err, ErrBadFEN) {
				t.Fatalf("error %v does not wrap ErrBadFEN", err)
			}
			return
		}
		canon := p.FEN()
		q, err := ParseFEN(v, canon)
		if err != nil {
			t.Fatalf("%s: canonical FEN %q of %q does not parse: %v", v.Key, canon, fen, err)
		}
		if again := q.FEN(); again != canon {
			t.Fatalf("%s: FEN of %q not a fixed point:\n%s\n%s", v.Key, fen, canon, again)
		}
		if p.Hash() != q.Hash() {
			t.Fatalf("%s: %q: hash differs after a FEN round trip", v.Key, fen)
		}
		moves := p.Legal(nil)
		o := p.Outcome()
		drawByRule := o.Result == Draw && (o.Reason == "move-count rule" || o.Reason == "insufficient material")
		if len(moves) == 0 && !o.Over() || len(moves) > 0 && o.Over() && !drawByRule {
			t.Fatalf("%s %q: %d legal moves but outcome %+v", v.Key, canon, len(moves), o)
		}
		p.InCheck()
		for _, m := range moves {
			next, err := p.Play(m)
			if err != nil {
				t.Fatalf("%s %q: Play(%s) of a legal move: %v", v.Key, canon, FormatMove(&p, m), err)
			}
			if _, err := ParseFEN(v, next.FEN()); err != nil {
				t.Fatalf("%s %q: after %s, FEN %q does not parse: %v", v.Key, canon, FormatMove(&p, m), next.FEN(), err)
			}
		}
	})
}
