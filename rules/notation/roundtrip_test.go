package notation

import (
	"math/rand/v2"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// roundTripPositions are positions with castling, en passant, promotions
// (capturing, optional, limited), pins, full pockets (more than 256 legal
// moves), two kinds of pawns, moves that continue the turn and moves that
// also put a piece on a square.
var roundTripPositions = []struct{ key, fen string }{
	{"chess", ""},
	{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"},
	{"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
	{"chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
	{"chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
	{"chess", fenEnPassant},
	{"chess", fenPromotion},
	{"chess", "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1"},
	{"chess", "1n2k1n1/P6P/8/8/8/8/p6p/1N2K1N1 b - - 0 1"},
	{"crazyhouse", ""},
	{"crazyhouse", fenHand},
	{"crazyhouse", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"},
	{"crazyhouse", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pp] w KQkq - 0 1"},
	{"crazyhouse", "r2q1rk1/pP3ppp/2n1pn2/3p4/3P4/2N1PN2/Pp3PPP/R2Q1RK1[BBbb] w - - 0 1"},
	{"grand", ""},
	{"grand", "r8r/1nbqkcabn1/p1pppppppp/10/1p8/10/2P7/P2PPPPPPP/1NBQKCABN1/R8R w - b4 0 3"},
	{"grand", "9k/P9/1P8/2P7/10/10/10/10/10/K9 w - - 0 1"},
	{"grand", "r3k4r/P1P7/1P8/10/10/10/10/10/10/R3K4R w - - 0 1"},
	{"wide", ""},
	{"wide", "r4k5r/12/12/12/12/12/12/12/12/3S1S6/12/R4K5R w KJQkq - 0 1"},
	{"wide", "5k6/12/12/12/12/12/12/12/2p9/2S9/3P8/5K6 w - - 0 1"},
	{"relay", ""},
	{"easymate", "r3k3/8/8/3q4/2B5/8/8/4K3 w - - 0 1"},
	{"easymate", "rn1qkbnr/2P5/8/8/8/8/8/4K3 w - - 0 1"},
	{"relay", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
}

// TestRoundTrip checks every legal move of the positions above: SAN is
// unique in the position, ParseSAN and ParseMove read it back, ParseMove
// reads the coordinate form back, and SANs agrees with SAN.
func TestRoundTrip(t *testing.T) {
	r := newRegistry(t)
	for _, c := range roundTripPositions {
		p := position(t, r, c.key, c.fen)
		legal := p.Legal(nil)
		if len(legal) == 0 {
			t.Fatalf("%s %s: no legal moves", c.key, p.FEN())
		}
		all := SANs(&p, legal)
		seen := map[string]rules.Move{}
		for i, m := range legal {
			s := SAN(&p, m)
			if all[i] != s {
				t.Errorf("%s %s: SANs gives %q, SAN %q", c.key, p.FEN(), all[i], s)
			}
			if o, dup := seen[s]; dup {
				t.Errorf("%s %s: %s and %s are both %q", c.key, p.FEN(), rules.FormatMove(&p, o), rules.FormatMove(&p, m), s)
			}
			seen[s] = m
			for name, parse := range map[string]func(*rules.Position, string) (rules.Move, error){"ParseSAN": ParseSAN, "ParseMove": ParseMove} {
				if got, err := parse(&p, s); err != nil || got != m {
					t.Errorf("%s %s: %s(%q) = %v, %v; want %s", c.key, p.FEN(), name, s, got, err, rules.FormatMove(&p, m))
				}
			}
			coord := rules.FormatMove(&p, m)
			if got, err := ParseMove(&p, coord); err != nil || got != m {
				t.Errorf("%s %s: ParseMove(%q) = %v, %v", c.key, p.FEN(), coord, got, err)
			}
		}
	}
}

// TestRandomPlayouts plays 200 seeded random games of up to 200 plies in
// each variant (25 in the test variants); every move played must
// round-trip through SAN, and in every 32nd position all legal moves must
// (with unique SANs).
func TestRandomPlayouts(t *testing.T) {
	const plies = 200
	r := newRegistry(t)
	for vi, key := range []string{"chess", "crazyhouse", "grand", "wide", "relay"} {
		games := 200
		if key == "wide" || key == "relay" {
			games = 25
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			v := r.Default(key)
			rng := rand.New(rand.NewPCG(20240611, uint64(vi)))
			moves := 0
			for g := 0; g < games; g++ {
				p := v.Start()
				var buf [512]rules.Move
				for ply := 0; ply < plies; ply++ {
					legal := p.Legal(buf[:0])
					if len(legal) == 0 {
						break
					}
					if ply%32 == 31 {
						checkAllMoves(t, &p, legal)
					}
					m := legal[rng.IntN(len(legal))]
					s := SAN(&p, m)
					if got, err := ParseSAN(&p, s); err != nil || got != m {
						t.Fatalf("game %d ply %d, %s: ParseSAN(%q) = %v, %v; want %s", g, ply, p.FEN(), s, got, err, rules.FormatMove(&p, m))
					}
					next, err := p.Play(m)
					if err != nil {
						t.Fatalf("game %d ply %d, %s: Play(%s): %v", g, ply, p.FEN(), s, err)
					}
					p = next
					moves++
				}
			}
			t.Logf("%s: %d moves", key, moves)
		})
	}
}

// checkAllMoves checks that the SANs of the legal moves of p are unique
// and read back as the same moves.
func checkAllMoves(t *testing.T, p *rules.Position, legal []rules.Move) {
	t.Helper()
	seen := make(map[string]bool, len(legal))
	for i, s := range SANs(p, legal) {
		if seen[s] {
			t.Fatalf("%s: SAN %q twice", p.FEN(), s)
		}
		seen[s] = true
		if got, err := parseSAN(p, s, legal, false); err != nil || got != legal[i] {
			t.Fatalf("%s: ParseSAN(%q) = %v, %v; want %s", p.FEN(), s, got, err, rules.FormatMove(p, legal[i]))
		}
	}
}
