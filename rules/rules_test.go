package rules

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"testing"
)

// sharedRegistry is the registry every test of the package shares (building
// a variant's tables takes a moment; variants are immutable once built).
var sharedRegistry = sync.OnceValues(NewRegistry)

// mustVariant returns the variant key with its default options.
func mustVariant(tb testing.TB, key string) *Variant {
	tb.Helper()
	r, err := sharedRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	v := r.Default(key)
	if v == nil {
		tb.Fatalf("no variant %q", key)
	}
	return v
}

// mustVariantWith returns the variant key with options ("k=v,..."; "" =
// the defaults).
func mustVariantWith(tb testing.TB, key, options string) *Variant {
	tb.Helper()
	r, err := sharedRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	v, err := r.Variant(key, options)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// mustFEN parses fen as a position of v.
func mustFEN(tb testing.TB, v *Variant, fen string) Position {
	tb.Helper()
	p, err := ParseFEN(v, fen)
	if err != nil {
		tb.Fatalf("ParseFEN(%s, %q): %v", v.Key, fen, err)
	}
	return p
}

// mustPlay plays the moves (canonical text, separated by spaces) from p.
func mustPlay(tb testing.TB, p Position, moves string) Position {
	tb.Helper()
	for _, text := range strings.Fields(moves) {
		m, err := ParseMove(&p, text)
		if err != nil {
			tb.Fatalf("in %s: %v", p.FEN(), err)
		}
		if p, err = p.Play(m); err != nil {
			tb.Fatalf("in %s: Play(%s): %v", p.FEN(), text, err)
		}
	}
	return p
}

// mustGamePlay plays the moves (canonical text, separated by spaces) in g.
func mustGamePlay(tb testing.TB, g *Game, moves string) {
	tb.Helper()
	for _, text := range strings.Fields(moves) {
		p := g.Position()
		m, err := ParseMove(&p, text)
		if err != nil {
			tb.Fatalf("in %s: %v", p.FEN(), err)
		}
		if err := g.Play(m); err != nil {
			tb.Fatalf("in %s: Game.Play(%s): %v", p.FEN(), text, err)
		}
	}
}

// legalMoveSet returns the canonical text of every legal move of p.
func legalMoveSet(p *Position) map[string]bool {
	out := map[string]bool{}
	for _, m := range p.Legal(nil) {
		out[FormatMove(p, m)] = true
	}
	return out
}

// legalityCase is one row of TestLegality: after playing setup from fen,
// move (canonical text) is legal or not. The name says the rule.
type legalityCase struct {
	name    string
	variant string
	fen     string
	setup   string // moves played first, separated by spaces
	move    string
	legal   bool
}

const (
	grandStart = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
	// grandFullArmyPawnB9: White has every piece of the start array on the
	// board, so a pawn has nothing to promote to; its b-pawn is on b9.
	grandFullArmyPawnB9 = "4k5/1P8/10/10/10/10/10/P1PPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
	grandFullArmyPawnB8 = "4k5/10/1P8/10/10/10/10/P1PPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
)

var legalityCases = []legalityCase{
	// Castling.
	{"castling out of check is illegal (kingside)", "chess", "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1", "", "e1g1", false},
	{"castling out of check is illegal (queenside)", "chess", "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1", "", "e1c1", false},
	{"castling through an attacked square (f1) is illegal", "chess", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "e1g1", false},
	{"castling the other way is unaffected by an attack on f1", "chess", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "e1c1", true},
	{"castling into check (g1 attacked) is illegal", "chess", "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "e1g1", false},
	{"castling queenside through an attacked d1 is illegal", "chess", "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1", "", "e1c1", false},
	{"castling queenside into an attacked c1 is illegal", "chess", "2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "", "e1c1", false},
	{"castling queenside with b1 attacked is allowed (the king does not cross b1)", "chess", "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "", "e1c1", true},
	{"castling with a piece between king and rook (g1) is illegal", "chess", "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "", "e1g1", false},
	{"castling queenside with a knight on b1 is illegal", "chess", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "", "e1c1", false},
	{"castling kingside is legal with f1 and g1 empty and safe", "chess", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "", "e1g1", true},
	{"castling after the rook moved away and back is illegal", "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1h2 h8h7 h2h1 h7h8", "e1g1", false},
	{"castling with the other, unmoved rook is still legal", "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1h2 h8h7 h2h1 h7h8", "e1c1", true},
	{"castling after the king moved away and back is illegal", "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1f1 e8f8 f1e1 f8e8", "e1c1", false},
	{"castling after the rook was captured on h1 and replaced is illegal", "chess", "r3k2r/8/8/8/8/8/6bR/R3K2R b KQkq - 0 1", "g2h1 h2h1 a8a7", "e1g1", false},
	{"castling without the right in the FEN is illegal", "chess", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "", "e1g1", false},
	{"castling right in the FEN without its rook is dropped", "chess", "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "", "e1g1", false},
	{"black castles kingside", "chess", "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "", "e8g8", true},
	{"black castles queenside", "chess", "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "", "e8c8", true},
	{"crazyhouse: castling through a square attacked by a dropped piece is illegal", "crazyhouse", "r3k2r/8/8/8/8/8/8/R3K2R[b] b KQkq - 0 1", "B@h3", "e1g1", false},
	{"crazyhouse: castling queenside away from the dropped attacker", "crazyhouse", "r3k2r/8/8/8/8/8/8/R3K2R[b] b KQkq - 0 1", "B@h3", "e1c1", true},

	// En passant.
	{"en passant right after the double step", "chess", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5", "e5d6", true},
	{"en passant only right after the double step", "chess", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5 e1e2 e8e7", "e5d6", false},
	{"en passant after a single step twice is not possible", "chess", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d6 e1e2 d6d5", "e5d6", false},
	{"en passant target from the FEN", "chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "", "e5d6", true},
	{"black captures en passant", "chess", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "", "e4d3", true},
	{"en passant exposing the king along the rank is illegal", "chess", "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", "", "e5d6", false},
	{"the pawn that may not capture e.p. (rank pin) may still push", "chess", "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", "", "e5e6", true},
	{"en passant capturing the pawn that gives check is legal", "chess", "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", "", "e5d6", true},
	{"a pawn push that ignores a pawn's check is illegal", "chess", "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", "", "e5e6", false},
	{"en passant by a pawn pinned on a diagonal, leaving it, is illegal", "chess", "7K/8/8/3pP3/8/8/8/b3k3 w - d6 0 2", "", "e5d6", false},
	{"en passant by a pawn pinned on a diagonal, along it, is legal", "chess", "1b2k3/8/8/3pP3/8/8/7K/8 w - d6 0 2", "", "e5d6", true},
	{"a pawn pinned on a diagonal may not push", "chess", "1b2k3/8/8/3pP3/8/8/7K/8 w - d6 0 2", "", "e5e6", false},

	// Promotion.
	{"promotion to a queen", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8q", true},
	{"promotion to a rook", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8r", true},
	{"promotion to a bishop", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8b", true},
	{"promotion to a knight", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8n", true},
	{"a pawn may not reach the last rank without promoting", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8", false},
	{"promotion to a king is illegal", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8k", false},
	{"promotion to a pawn is illegal", "chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8p", false},
	{"promotion with a capture", "chess", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7b8n", true},
	{"a capture onto the last rank must promote", "chess", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7b8", false},
	{"black promotes on the 1st rank", "chess", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "", "a2a1q", true},
	{"a promotion letter on a move that does not promote is illegal", "chess", "4k3/P7/8/8/8/8/4P3/4K3 w - - 0 1", "", "e2e3q", false},

	// Grand Chess: promotion zone, limits, double steps.
	{"grand: promotion is optional on the 8th rank", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8", true},
	{"grand: promotion to a captured queen on the 8th", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8q", true},
	{"grand: promotion to a captured marshal on the 8th", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8c", true},
	{"grand: promotion to a captured cardinal on the 8th", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8a", true},
	{"grand: promotion to a captured bishop on the 8th", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8b", true},
	{"grand: promotion to a captured knight on the 8th", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8n", true},
	{"grand: no promotion to a rook while both rooks are on the board", "grand", "5k4/10/10/1P8/10/10/10/10/10/R3K4R w - - 0 1", "", "b7b8r", false},
	{"grand: promotion is optional on the 9th rank", "grand", "5k4/10/1P8/10/10/10/10/10/10/R3K4R w - - 0 1", "", "b8b9", true},
	{"grand: promotion on the 9th rank", "grand", "5k4/10/1P8/10/10/10/10/10/10/R3K4R w - - 0 1", "", "b8b9q", true},
	{"grand: promotion is mandatory on the 10th rank", "grand", "5k4/1P8/10/10/10/10/10/10/10/R3K4R w - - 0 1", "", "b9b10", false},
	{"grand: promotion on the 10th rank", "grand", "5k4/1P8/10/10/10/10/10/10/10/R3K4R w - - 0 1", "", "b9b10q", true},
	{"grand: no promotion to a rook on the 10th while both rooks are on the board", "grand", "5k4/1P8/10/10/10/10/10/10/10/R3K4R w - - 0 1", "", "b9b10r", false},
	{"grand: promotion to a rook once one was captured", "grand", "5k4/1P8/10/10/10/10/10/10/10/4K4R w - - 0 1", "", "b9b10r", true},
	{"grand: no promotion to a king", "grand", "5k4/1P8/10/10/10/10/10/10/10/R3K4R w - - 0 1", "", "b9b10k", false},
	{"grand: a pawn with nothing to promote to may not step onto the 10th", "grand", grandFullArmyPawnB9, "", "b9b10", false},
	{"grand: a pawn with nothing to promote to may not promote on the 10th", "grand", grandFullArmyPawnB9, "", "b9b10q", false},
	{"grand: a pawn with nothing to promote to may step onto the 9th", "grand", grandFullArmyPawnB8, "", "b8b9", true},
	{"grand: a pawn with nothing to promote to may not promote on the 9th", "grand", grandFullArmyPawnB8, "", "b8b9q", false},
	{"grand: a pawn on the 9th with nothing to promote to still attacks the 10th", "grand", "3k6/1P8/10/10/10/10/10/P1PPPPPPPP/1NBQKCABN1/R8R b - - 0 1", "", "d10c10", false},
	{"grand: a king may step beside a 9th-rank pawn out of its attack", "grand", "3k6/1P8/10/10/10/10/10/P1PPPPPPPP/1NBQKCABN1/R8R b - - 0 1", "", "d10e10", true},
	{"grand: a pawn double-steps from the 3rd rank", "grand", grandStart, "", "e3e5", true},
	{"grand: black double-steps from the 8th rank", "grand", grandStart, "e3e4", "e8e6", true},
	{"grand: a pawn on the 2nd rank may not double-step", "grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/1PPPPPPPPP/PNBQKCABN1/R8R w - - 0 1", "", "a2a4", false},
	{"grand: a pawn on the 2nd rank steps once", "grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/1PPPPPPPPP/PNBQKCABN1/R8R w - - 0 1", "", "a2a3", true},
	{"grand: a pawn on the 4th rank may not double-step", "grand", grandStart, "e3e4 e8e7", "e4e6", false},
	{"grand: en passant after a double step from the 8th", "grand", "r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3", "", "f6e7", true},
	{"grand: there is no castling", "grand", "r3k4r/10/10/10/10/10/10/10/10/R3K4R w - - 0 1", "", "e1h1", false},

	// Crazyhouse drops.
	{"crazyhouse: no pawn drop on the 1st rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "", "P@a1", false},
	{"crazyhouse: no pawn drop on the 8th rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "", "P@a8", false},
	{"crazyhouse: a pawn drop on the 2nd rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "", "P@a2", true},
	{"crazyhouse: a pawn drop on the 7th rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "", "P@a7", true},
	{"crazyhouse: no black pawn drop on the 1st rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "", "P@h1", false},
	{"crazyhouse: no black pawn drop on the 8th rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "", "P@h8", false},
	{"crazyhouse: a knight may be dropped on the 1st rank", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", "N@a1", true},
	{"crazyhouse: no drop on one's own piece", "crazyhouse", "4k3/8/8/8/8/8/4P3/4K3[N] w - - 0 1", "", "N@e2", false},
	{"crazyhouse: no drop on an enemy piece", "crazyhouse", "4k3/8/8/8/8/8/4P3/4K3[N] w - - 0 1", "", "N@e8", false},
	{"crazyhouse: a drop on an empty square", "crazyhouse", "4k3/8/8/8/8/8/4P3/4K3[N] w - - 0 1", "", "N@d3", true},
	{"crazyhouse: a drop that blocks a check", "crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", "", "N@c1", true},
	{"crazyhouse: a drop that ignores a check is illegal", "crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", "", "N@h8", false},
	{"crazyhouse: no drop of a piece the player does not hold", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1", "", "N@d3", false},
	{"crazyhouse: a pawn dropped on the 2nd rank may double-step", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@a2 e8d8", "a2a4", true},
	{"crazyhouse: a black pawn dropped on the 7th rank may double-step", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "P@h7 e1d1", "h7h5", true},
	{"crazyhouse: a captured piece may be dropped by the captor", "crazyhouse", "4k3/8/8/8/8/8/8/q2RK3[] w - - 0 1", "d1a1 e8d8", "Q@d4", true},
	{"crazyhouse: a captured promoted queen may only be dropped as a pawn", "crazyhouse", "4k3/8/8/8/8/8/8/q~2RK3[] w - - 0 1", "d1a1 e8d8", "Q@d4", false},
	{"crazyhouse: a captured promoted queen is dropped as a pawn", "crazyhouse", "4k3/8/8/8/8/8/8/q~2RK3[] w - - 0 1", "d1a1 e8d8", "P@d4", true},
	{"chess has no drops", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "", "N@e4", false},
}

// TestLegality pins the rules of legal moves of chess, Grand Chess and
// crazyhouse that a count of moves cannot tell apart: castling, en
// passant, promotion, Grand Chess promotion limits and double steps, and
// crazyhouse drops. Each row's name says its rule.
func TestLegality(t *testing.T) {
	for _, c := range legalityCases {
		t.Run(c.name, func(t *testing.T) {
			v := mustVariant(t, c.variant)
			p := mustPlay(t, mustFEN(t, v, c.fen), c.setup)
			listed := legalMoveSet(&p)[c.move]
			m, err := ParseMove(&p, c.move)
			switch {
			case c.legal && err != nil:
				t.Fatalf("%s in %s: %v, want legal (legal moves: %v)", c.move, p.FEN(), err, sortedKeys(legalMoveSet(&p)))
			case c.legal && !listed:
				t.Fatalf("%s in %s: parsed, but not in Legal", c.move, p.FEN())
			case c.legal:
				if _, err := p.Play(m); err != nil {
					t.Fatalf("%s in %s: Play: %v", c.move, p.FEN(), err)
				}
			case err == nil:
				t.Fatalf("%s in %s: accepted as %+v, want illegal", c.move, p.FEN(), m)
			case listed:
				t.Fatalf("%s in %s: in Legal but ParseMove says %v", c.move, p.FEN(), err)
			case !errors.Is(err, ErrIllegalMove) || errors.Is(err, ErrBadMove):
				t.Fatalf("%s in %s: error %v, want one wrapping ErrIllegalMove only", c.move, p.FEN(), err)
			}
		})
	}
}

// TestPlayResults pins what moves do to the position: castling moves the
// rook, en passant removes the pawn, a double step leaves an en-passant
// target only when a capture is possible, promotion, castling rights lost
// to captures, crazyhouse captures (promoted pieces return to hand as
// pawns, captured pieces change sides), drops and the move counters.
func TestPlayResults(t *testing.T) {
	for _, c := range []struct {
		name, variant, fen, moves, want string
	}{
		{"kingside castling moves the rook to f1 and clears White's rights", "chess",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
		{"queenside castling moves the rook to d1", "chess",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"},
		{"black castles queenside; the move number grows after Black", "chess",
			"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2"},
		{"a rook captured on its square takes that castling right with it", "chess",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8", "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"},
		{"a rook move loses only its own side's right", "chess",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 1", "h1h5", "r3k2r/8/8/7R/8/8/8/R3K3 b Qkq - 4 1"},
		{"en passant removes the pawn that double-stepped", "chess",
			"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"},
		{"a double step with no pawn to capture leaves no en-passant target", "chess",
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"a double step next to an enemy pawn leaves an en-passant target", "chess",
			"4k3/8/8/8/3p4/8/4P3/4K3 w - - 5 9", "e2e4", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 9"},
		{"promotion replaces the pawn", "chess",
			"4k3/P7/8/8/8/8/8/4K3 w - - 7 40", "a7a8n", "N3k3/8/8/8/8/8/8/4K3 b - - 0 40"},
		{"grand: promotion on the 10th", "grand",
			"5k4/1P8/10/10/10/10/10/10/10/R3K4R w - - 0 1", "b9b10c", "1C3k4/10/10/10/10/10/10/10/10/R3K4R b - - 0 1"},
		{"grand: en passant on the 10x10 board", "grand",
			"r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3", "f6e7",
			"r8r/1nbqkcabn1/ppp2ppppp/3pP5/10/10/10/PPPPP1PPPP/1NBQKCABN1/R8R b - - 0 3"},
		{"crazyhouse: a promoted piece is marked with ~", "crazyhouse",
			"4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "a7a8q", "Q~3k3/8/8/8/8/8/8/4K3[] b - - 0 1"},
		{"crazyhouse: a captured promoted queen goes to hand as a pawn", "crazyhouse",
			"4k3/8/8/8/8/8/8/q~2RK3[] w - - 0 1", "d1a1", "4k3/8/8/8/8/8/8/R3K3[P] b - - 0 1"},
		{"crazyhouse: a captured queen changes sides", "crazyhouse",
			"4k3/8/8/8/8/8/8/q2RK3[] w - - 0 1", "d1a1", "4k3/8/8/8/8/8/8/R3K3[Q] b - - 0 1"},
		{"crazyhouse: Black's captures go to Black's pocket", "crazyhouse",
			"4k3/8/8/8/8/8/7K/Q2r4[P] b - - 0 1", "d1a1", "4k3/8/8/8/8/8/7K/r7[Pq] w - - 0 2"},
		{"crazyhouse: captured by en passant, a pawn goes to hand", "crazyhouse",
			"4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 2", "e5d6", "4k3/8/3P4/8/8/8/8/4K3[P] b - - 0 2"},
		{"crazyhouse: a piece drop leaves the pocket and counts toward the 50 moves", "crazyhouse",
			"4k3/8/8/8/8/8/8/4K3[Np] w - - 4 1", "N@d3", "4k3/8/8/8/8/3N4/8/4K3[p] b - - 5 1"},
		{"crazyhouse: a pawn drop resets the 50-move count", "crazyhouse",
			"4k3/8/8/8/8/8/8/4K3[Np] b - - 4 1", "P@d5", "4k3/8/8/3p4/8/8/8/4K3[N] w - - 0 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := mustVariant(t, c.variant)
			p := mustPlay(t, mustFEN(t, v, c.fen), c.moves)
			if got := p.FEN(); got != c.want {
				t.Errorf("%s after %s:\n got %s\nwant %s", c.fen, c.moves, got, c.want)
			}
		})
	}
}

// TestOutcome pins check, checkmate, stalemate, insufficient material in
// chess and the 75-move rule: Position.Outcome with its result and
// reason, and Position.InCheck.
func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		name, variant, fen string
		result             Result
		reason             Reason
		check              bool
	}{
		{"a check that can be answered goes on", "chess", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", Ongoing, "", true},
		{"fool's mate is checkmate: Black wins", "chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", BlackWins, "checkmate", true},
		{"back-rank mate: White wins", "chess", "R6k/6pp/8/8/8/8/8/4K3 b - - 0 1", WhiteWins, "checkmate", true},
		{"stalemate is a draw", "chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Draw, "stalemate", false},
		{"grand: checkmate by two rooks", "grand", "k8R/9R/2K7/10/10/10/10/10/10/10 b - - 0 1", WhiteWins, "checkmate", true},
		{"grand: stalemate is a draw", "grand", "k9/2Q7/1K8/10/10/10/10/10/10/10 b - - 0 1", Draw, "stalemate", false},
		{"grand: a 9th-rank pawn with nothing to promote to gives check", "grand", "2k7/1P8/10/10/10/10/10/P1PPPPPPPP/1NBQKCABN1/R8R b - - 0 1", Ongoing, "", true},
		{"crazyhouse: a back-rank check that a drop can block is not mate", "crazyhouse", "R6k/6pp/8/8/8/8/8/4K3[n] b - - 0 1", Ongoing, "", true},
		{"crazyhouse: a back-rank check with an empty pocket is mate", "crazyhouse", "R6k/6pp/8/8/8/8/8/4K3[] b - - 0 1", WhiteWins, "checkmate", true},
		{"crazyhouse: a smothered king is mated even when the pocket is full", "crazyhouse", "6rk/5Npp/8/8/8/8/8/4K3[qrbnp] b - - 0 1", WhiteWins, "checkmate", true},
		{"insufficient material: king against king", "chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", Draw, "insufficient material", false},
		{"insufficient material: king and knight against king", "chess", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", Draw, "insufficient material", false},
		{"insufficient material: king and bishop against king", "chess", "4k3/8/8/8/8/8/8/4KB2 b - - 0 1", Draw, "insufficient material", false},
		{"insufficient material: bishops on squares of one colour", "chess", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", Draw, "insufficient material", false},
		{"sufficient material: bishops on squares of both colours", "chess", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Ongoing, "", false},
		{"sufficient material: a knight on each side", "chess", "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", Ongoing, "", false},
		{"sufficient material: two knights", "chess", "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", Ongoing, "", false},
		{"sufficient material: a rook", "chess", "4k3/8/8/8/8/8/8/4KR2 w - - 0 1", Ongoing, "", false},
		{"sufficient material: a pawn", "chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Ongoing, "", false},
		{"crazyhouse: bare kings with a piece in hand go on", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", Ongoing, "", false},
		{"75-move rule: 150 plies without capture or pawn move is a draw", "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 150 100", Draw, "move-count rule", false},
		{"75-move rule: 149 plies go on", "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", Ongoing, "", false},
		{"75-move rule: a checkmate on the 150th ply takes precedence (FIDE 9.6.2)", "chess", "R3k3/8/4K3/8/8/8/8/8 b - - 150 100", WhiteWins, "checkmate", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := mustVariant(t, c.variant)
			p := mustFEN(t, v, c.fen)
			want := Outcome{Result: c.result, Reason: c.reason}
			if got := p.Outcome(); got != want {
				t.Errorf("Outcome of %s = %+v, want %+v", c.fen, got, want)
			}
			if got := p.InCheck(); got != c.check {
				t.Errorf("InCheck of %s = %v, want %v", c.fen, got, c.check)
			}
			// Checkmate and stalemate leave no legal move; draws by rule
			// end the game (Game.Legal) but Position.Legal still lists the
			// moves, as perft counts them.
			n := len(p.Legal(nil))
			if noMoves := c.reason == "checkmate" || c.reason == "stalemate"; (n == 0) != noMoves {
				t.Errorf("%s: %d legal moves in a position that is %+v", c.fen, n, want)
			}
			g := NewGame(p)
			if got := g.Outcome(); got != p.Outcome() {
				t.Errorf("Game.Outcome = %+v, Position.Outcome = %+v", got, p.Outcome())
			}
			if n := len(g.Legal()); (n == 0) != want.Over() {
				t.Errorf("%s: Game.Legal lists %d moves, but Over() = %v", c.fen, n, want.Over())
			}
		})
	}
}

// TestFiftyMoveClaim pins the 50-move rule as a claim: Game.DrawClaim
// offers it once 100 plies passed without capture or pawn move, not
// before, and a pawn move starts the count again.
func TestFiftyMoveClaim(t *testing.T) {
	for _, key := range []string{"chess", "crazyhouse"} {
		t.Run(key, func(t *testing.T) {
			v := mustVariant(t, key)
			fen := "4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80"
			if v.Drops.Enabled {
				fen = "4k3/8/8/8/8/8/4P3/R3K3[] w - - 98 80"
			}
			g := NewGame(mustFEN(t, v, fen))
			claim := func(want bool) {
				t.Helper()
				reason, ok := g.DrawClaim()
				if ok != want || (ok && reason != "move-count rule") {
					p := g.Position()
					t.Errorf("DrawClaim at halfmove %d = %q, %v; want %v", p.HalfmoveClock(), reason, ok, want)
				}
			}
			claim(false)
			mustGamePlay(t, g, "a1a2")
			claim(false)
			mustGamePlay(t, g, "e8d8")
			claim(true)
			if o := g.Outcome(); o.Over() {
				t.Errorf("a claimable 50-move draw ended the game: %+v", o)
			}
			mustGamePlay(t, g, "e2e4")
			claim(false)
		})
	}
}

// TestSeventyFiveMoveRule pins the automatic draw of chess after 150 plies
// without capture or pawn move, reached by playing (not only read from a
// FEN): the game ends and no move may follow.
func TestSeventyFiveMoveRule(t *testing.T) {
	v := mustVariant(t, "chess")
	g := NewGame(mustFEN(t, v, "4k3/8/8/8/8/8/8/R3K3 w - - 148 80"))
	mustGamePlay(t, g, "a1a2")
	if o := g.Outcome(); o.Over() {
		t.Fatalf("over after 149 plies: %+v", o)
	}
	mustGamePlay(t, g, "e8d8")
	want := Outcome{Result: Draw, Reason: "move-count rule"}
	if o := g.Outcome(); o != want {
		t.Fatalf("after 150 plies: %+v, want %+v", o, want)
	}
	checkGameOverByRule(t, g, "move-count rule")
}

// checkGameOverByRule checks that g, drawn by rule (reason), lists no
// moves and refuses the moves the position itself still allows.
func checkGameOverByRule(t *testing.T, g *Game, reason Reason) {
	t.Helper()
	if ms := g.Legal(); len(ms) != 0 {
		t.Errorf("Game.Legal lists %d moves after the draw by %s", len(ms), reason)
	}
	if _, ok := g.DrawClaim(); ok {
		t.Errorf("a draw claim is offered in a finished game")
	}
	p := g.Position()
	moves := p.Legal(nil)
	if len(moves) == 0 {
		t.Fatalf("Position.Legal lists no moves in %s: a draw by rule does not remove moves", p.FEN())
	}
	played := len(g.Moves())
	err := g.Play(moves[0])
	if !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), "the game is over ("+string(reason)+")") {
		t.Errorf("Game.Play after the draw by %s: %v, want ErrIllegalMove saying the game is over", reason, err)
	}
	if len(g.Moves()) != played || g.Position().String() != p.FEN() {
		t.Errorf("a refused Game.Play changed the game")
	}
}

// TestInsufficientMaterialEndsGame pins that a capture leaving king
// against king ends a chess game (Game.Outcome, Game.Legal, Game.Play)
// while the position itself still has moves.
func TestInsufficientMaterialEndsGame(t *testing.T) {
	v := mustVariant(t, "chess")
	g := NewGame(mustFEN(t, v, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"))
	if o := g.Outcome(); o.Over() {
		t.Fatalf("over before the capture: %+v", o)
	}
	mustGamePlay(t, g, "e1d2")
	if want := (Outcome{Result: Draw, Reason: "insufficient material"}); g.Outcome() != want {
		t.Fatalf("after Kxd2: %+v, want %+v", g.Outcome(), want)
	}
	checkGameOverByRule(t, g, "insufficient material")
}

// TestRepetition pins threefold repetition as a claim (Game.DrawClaim) and
// fivefold repetition as an automatic draw (Game.Outcome), with knights
// shuffling from the start position, in each variant.
func TestRepetition(t *testing.T) {
	for _, c := range []struct{ key, cycle string }{
		{"chess", "g1f3 g8f6 f3g1 f6g8"},
		{"crazyhouse", "b1c3 b8c6 c3b1 c6b8"},
		{"grand", "b2c4 b9c7 c4b2 c7b9"},
	} {
		t.Run(c.key, func(t *testing.T) {
			v := mustVariant(t, c.key)
			g := NewGame(v.Start())
			for occurrence := 2; occurrence <= 5; occurrence++ {
				mustGamePlay(t, g, c.cycle)
				if got := g.Repetitions(); got != occurrence {
					t.Fatalf("after %d plies: Repetitions = %d, want %d", len(g.Moves()), got, occurrence)
				}
				reason, ok := g.DrawClaim()
				wantClaim := occurrence >= 3 && occurrence < 5
				if ok != wantClaim || (ok && reason != "repetition") {
					t.Errorf("occurrence %d: DrawClaim = %q, %v; want %v", occurrence, reason, ok, wantClaim)
				}
				o := g.Outcome()
				if occurrence < 5 && o.Over() {
					t.Errorf("occurrence %d: game over: %+v", occurrence, o)
				}
				if occurrence == 5 {
					if want := (Outcome{Result: Draw, Reason: "repetition"}); o != want {
						t.Errorf("occurrence 5: Outcome = %+v, want %+v", o, want)
					}
				}
			}
			if ms := g.Legal(); len(ms) != 0 {
				t.Errorf("%d legal moves after fivefold repetition", len(ms))
			}
			p := g.Position()
			m := p.Legal(nil)[0] // legal for the position, but the game is over
			if err := g.Play(m); !errors.Is(err, ErrIllegalMove) {
				t.Errorf("Game.Play after fivefold repetition: %v, want ErrIllegalMove", err)
			}
		})
	}
}

// TestRepetitionCastlingRights pins that positions with the same pieces
// but different castling rights are not the same position for repetition.
func TestRepetitionCastlingRights(t *testing.T) {
	v := mustVariant(t, "chess")
	g := NewGame(mustFEN(t, v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))
	const cycle = "h1g1 h8g8 g1h1 g8h8"
	for i, want := range []int{1, 2, 3} {
		mustGamePlay(t, g, cycle)
		if got := g.Repetitions(); got != want {
			t.Errorf("after cycle %d (%s): Repetitions = %d, want %d (the start had castling rights KQkq)",
				i+1, g.Position().String(), got, want)
		}
	}
	if _, ok := g.DrawClaim(); !ok {
		t.Errorf("no repetition claim after the third occurrence without kingside rights")
	}
}

// TestRepetitionEnPassant pins that a position with a capturable
// en-passant target differs from the same placement without it.
func TestRepetitionEnPassant(t *testing.T) {
	v := mustVariant(t, "chess")
	// After d7d5 White may take en passant; after the knights' round trip
	// the same placement occurs without that right.
	g := NewGame(mustFEN(t, v, "4k1n1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"))
	mustGamePlay(t, g, "d7d5 g1f3 g8f6 f3g1 f6g8")
	if got := g.Repetitions(); got != 1 {
		t.Errorf("Repetitions = %d, want 1: the first occurrence had an en-passant capture", got)
	}
	mustGamePlay(t, g, "g1f3 g8f6 f3g1 f6g8")
	if got := g.Repetitions(); got != 2 {
		t.Errorf("Repetitions = %d, want 2", got)
	}
}

// sortedKeys returns the keys of a set, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
