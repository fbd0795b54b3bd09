package notation

import (
	"errors"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// fuzzPositions are the positions the fuzz tests parse against: castling,
// en passant and promotions in chess, a full pocket in crazyhouse, optional
// promotions on a 10x10 board, a 12x12 board with two kinds of pawns and
// moves that continue the turn.
var fuzzPositions = []struct{ key, fen string }{
	{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{"chess", fenEnPassant},
	{"chess", "r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1"},
	{"crazyhouse", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[NPp] w KQkq - 0 1"},
	{"grand", "r8r/1nbqkcabn1/pP1ppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"},
	{"wide", "r4k5r/12/12/12/12/12/12/12/2p9/2S1S7/3P8/R4K5R w KJQkq - 0 1"},
	{"relay", ""},
	// The variants whose hooks read text (ExplainText, FriendlySpecial).
	{"coldfusion", fenCFPieces},
	{"coldfusion", fenCFPromotions},
	{"tank", ""},
	{"winning", ""},
	{"annihilation", "rnbqkbnr/ppp1pppp/8/3n4/8/2N5/PPPP1PPP/R1BQKBNR[Pp] w - - 0 4"},
	{"trainwreck-threemove", ""},
}

// fuzzParse checks one parser on one input in every fuzz position: no
// panic, a one-line error wrapping one of the three sentinels, or a legal
// move whose SAN (and coordinate form) read back as the same move.
func fuzzParse(t *testing.T, r *rules.Registry, text string, parse func(*rules.Position, string) (rules.Move, error)) {
	for _, c := range fuzzPositions {
		p := position(t, r, c.key, c.fen)
		m, err := parse(&p, text)
		if err != nil {
			if !errors.Is(err, rules.ErrBadMove) && !errors.Is(err, rules.ErrIllegalMove) && !errors.Is(err, ErrAmbiguousMove) {
				t.Fatalf("%s %q: error %q wraps no sentinel", c.key, text, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("%s %q: error %q is more than one line", c.key, text, err)
			}
			continue
		}
		if !contains(p.Legal(nil), m) {
			t.Fatalf("%s %q: parsed %v, which is not legal", c.key, text, m)
		}
		s := SAN(&p, m)
		if back, err := ParseSAN(&p, s); err != nil || back != m {
			t.Fatalf("%s %q: SAN %q reads back as %v, %v; want %v", c.key, text, s, back, err, m)
		}
		coord := rules.FormatMove(&p, m)
		if back, err := ParseMove(&p, coord); err != nil || back != m {
			t.Fatalf("%s %q: coordinate form %q reads back as %v, %v; want %v", c.key, text, coord, back, err, m)
		}
	}
}

func FuzzParseSAN(f *testing.F) {
	r := newRegistry(f)
	f.Fuzz(func(t *testing.T, text string) {
		fuzzParse(t, r, text, ParseSAN)
	})
}

func FuzzParseMove(f *testing.F) {
	r := newRegistry(f)
	f.Fuzz(func(t *testing.T, text string) {
		fuzzParse(t, r, text, ParseMove)
	})
}
