package notation

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// sanCase pins the friendly form of one move: the move is given in
// coordinate form, want is what SAN must write; ParseSAN must read want
// back as the same move.
type sanCase struct {
	name string
	fen  string // "" = the start position
	move string // coordinate form
	want string
}

func runSANCases(t *testing.T, key string, cases []sanCase) {
	t.Helper()
	r := newRegistry(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := position(t, r, key, c.fen)
			m := coordMove(t, &p, c.move)
			if got := SAN(&p, m); got != c.want {
				t.Errorf("SAN(%s) = %q, want %q", c.move, got, c.want)
			}
			back, err := ParseSAN(&p, c.want)
			if err != nil {
				t.Fatalf("ParseSAN(%q): %v", c.want, err)
			}
			if back != m {
				t.Errorf("ParseSAN(%q) = %v, want %v", c.want, back, m)
			}
		})
	}
}

func TestSANChess(t *testing.T) {
	const (
		castling   = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		promotion  = "7k/4P3/8/8/8/8/8/K7 w - - 0 1"
		threeQ     = "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1"
		twoKnights = "rnbqkbnr/pppppppp/8/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1"
		twoRooks   = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
		enPassant  = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
		underPromo = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
	)
	runSANCases(t, "chess", []sanCase{
		{"knight", "", "g1f3", "Nf3"},
		{"pawn push", "", "e2e4", "e4"},
		{"pawn capture", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"},
		{"promotion giving check", promotion, "e7e8q", "e8=Q+"},
		{"rook promotion giving check", promotion, "e7e8r", "e8=R+"},
		{"knight promotion", promotion, "e7e8n", "e8=N"},
		{"en passant", enPassant, "e5d6", "exd6"},
		{"push beside an en-passant target", enPassant, "e5e6", "e6"},
		{"castling toward the h-side", castling, "e1g1", "O-O"},
		{"castling toward the a-side", castling, "e1c1", "O-O-O"},
		{"black castles toward the a-side", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"},
		{"disambiguation by file", twoKnights, "b1d2", "Nbd2"},
		{"disambiguation by file, other knight", twoKnights, "f3d2", "Nfd2"},
		{"disambiguation by rank", twoRooks, "a1a3", "R1a3"},
		{"disambiguation by rank, other rook", twoRooks, "a5a3", "R5a3"},
		{"three queens: file and rank", threeQ, "h4e1", "Qh4e1"},
		{"three queens: file", threeQ, "e4e1", "Qee1"},
		{"three queens: rank", threeQ, "h1e1", "Q1e1"},
		{"pinned knight needs no disambiguation", "4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1", "b1c3", "Nc3"},
		{"checkmate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
		{"promotion with capture", underPromo, "b7a8n", "bxa8=N"},
		{"promotion with capture giving check", underPromo, "b7a8q", "bxa8=Q+"},
		{"discovered check", "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", "Nc3+"},
		{"discovered check, knight to the centre", "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2d4", "Nd4+"},
		{"double check", "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4d6", "Nd6+"},
		{"black pawn capture", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "d5e4", "dxe4"},
	})
}

func TestSANCrazyhouse(t *testing.T) {
	const hand = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NPp] w KQkq - 0 1"
	runSANCases(t, "crazyhouse", []sanCase{
		{"knight drop", hand, "N@e4", "N@e4"},
		{"pawn drop keeps its letter", hand, "P@e4", "P@e4"},
		{"drop giving check", hand, "N@d6", "N@d6+"},
		{"drop giving mate", "rnbqkbnr/ppppp1pp/8/8/2B5/8/PPPP1PPP/RNBQK1NR[Q] w KQkq - 0 1", "Q@f7", "Q@f7#"},
		{"black drop", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[Pp] b KQkq - 0 1", "P@d5", "P@d5"},
		{"board move", hand, "g1f3", "Nf3"},
	})
}

func TestSANGrand(t *testing.T) {
	const (
		ninth     = "9k/10/P9/10/10/10/10/10/10/K9 w - - 0 1"
		tenth     = "9k/P9/10/10/10/10/10/10/10/K9 w - - 0 1"
		farRooks  = "R9/10/10/9k/10/10/10/10/10/R3K5 w - - 0 1"
		marshalJ1 = "k9/10/10/10/10/10/10/10/10/K8C w - - 0 1"
	)
	runSANCases(t, "grand", []sanCase{
		{"optional promotion declined", ninth, "a8a9", "a9"},
		{"optional promotion to a Marshal", ninth, "a8a9c", "a9=C"},
		{"optional promotion to a Queen", ninth, "a8a9q", "a9=Q"},
		{"compulsory promotion on the 10th rank", tenth, "a9a10c", "a10=C+"},
		{"Marshal to the 10th rank", marshalJ1, "j1j10", "Cj10+"},
		{"Marshal's knight leap", marshalJ1, "j1i3", "Ci3"},
		{"10th-rank square", "10/10/9k/10/10/10/10/10/10/K3R5 w - - 0 1", "e1e10", "Re10"},
		{"two-digit rank disambiguation", farRooks, "a10a5", "R10a5"},
		{"one-digit rank disambiguation", farRooks, "a1a5", "R1a5"},
		{"Cardinal", "", "g2f4", "Af4"},
		{"pawn double step", "", "e3e5", "e5"},
	})
}

func TestSANWide(t *testing.T) {
	const (
		soldiers = "r4k5r/12/12/12/12/12/12/12/12/3S1S6/12/R4K5R w KJQkq - 0 1"
		mixed    = "5k6/12/12/12/12/12/12/12/2p9/2S9/3P8/5K6 w - - 0 1"
	)
	runSANCases(t, "wide", []sanCase{
		{"soldiers to one square: file", soldiers, "d3e4", "de4"},
		{"soldiers to one square: other file", soldiers, "f3e4", "fe4"},
		{"soldier alone", soldiers, "d3c4", "c4"},
		{"two same-side castlings: coordinate form", soldiers, "f1j1", "f1j1"},
		{"the other same-side castling", soldiers, "f1k1", "f1k1"},
		{"castling alone on its side", soldiers, "f1c1", "O-O-O"},
		{"rook to the 12th rank with capture and check", soldiers, "a1a12", "Rxa12+"},
		{"l-file", soldiers, "l1l7", "Rl7"},
		{"pawn push alone", mixed, "d2d3", "d3"},
		{"pawn and soldier to one square", mixed, "d2d4", "dd4"},
		{"soldier and pawn to one square", mixed, "c3d4", "cd4"},
		{"soldier alone on its square", mixed, "c3b4", "b4"},
		{"soldier captures straight ahead", mixed, "c3c4", "cxc4"},
	})
}

func TestSANRelay(t *testing.T) {
	runSANCases(t, "relay", []sanCase{
		{"knight move ending the turn", "", "g1f3", "Nf3"},
		{"knight move continuing the turn", "", "g1f3>", "Nf3>"},
		{"special move: coordinate form", "", "e1e1#1", "e1e1#1"},
		{"pass", "", "pass", "pass"},
		{"no check mark after a continuing move", "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3>", "Nf3>"},
	})
}

// TestSANNotLegal pins that SAN of a move that is not legal in the
// position falls back to the coordinate form instead of failing.
func TestSANNotLegal(t *testing.T) {
	r := newRegistry(t)
	p := position(t, r, "chess", "")
	q := position(t, r, "chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	m := coordMove(t, &q, "g8f6")
	if got := SAN(&p, m); got != "g8f6" {
		t.Errorf("SAN of a move that is not legal = %q, want g8f6", got)
	}
}

// TestSANPlace pins moves that also put a piece on a square
// (rules.Move.Place): the square follows '@' at the end, after any
// promotion and before the check mark, and tells such a move from the
// same move without it (a captured Queen re-placed in easymate).
func TestSANPlace(t *testing.T) {
	const (
		queen = "r3k3/8/8/3q4/2B5/8/8/4K3 w - - 0 1"
		promo = "rn1qkbnr/2P5/8/8/8/8/8/4K3 w - - 0 1"
	)
	runSANCases(t, "easymate", []sanCase{
		{"capture", queen, "c4d5", "Bxd5"},
		{"capture putting the piece back", queen, "c4d5@d8", "Bxd5@d8"},
		{"promotion putting the piece back", promo, "c7d8q@c8", "cxd8=Q@c8"},
		{"promotion putting the piece back, mating", promo, "c7d8r@c8", "cxd8=R@c8#"},
	})
	r := newRegistry(t)
	p := position(t, r, "easymate", queen)
	for _, s := range []string{"Bd5@d8", "Bc4xd5@d8", "Bxd5@d8!", "c4d5@d8"} {
		if m, err := ParseMove(&p, s); err != nil || rules.FormatMove(&p, m) != "c4d5@d8" {
			t.Errorf("ParseMove(%q) = %v, %v", s, rules.FormatMove(&p, m), err)
		}
	}
	for s, want := range map[string]string{
		"Bxd5@e8": "did you mean Bxd5, Bxd5@b8",
		"Ke2@d8":  "did you mean Ke2?",
		"Bxd5@z9": "after '@'",
	} {
		if _, err := ParseMove(&p, s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMove(%q) = %v, want an error saying %q", s, err, want)
		}
	}
}

// BenchmarkSANs measures an autocomplete list: the SANs of all legal moves.
func BenchmarkSANs(b *testing.B) {
	r := newRegistry(b)
	for _, c := range []struct{ name, key, fen string }{
		{"chess-kiwipete", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{"crazyhouse-full-pockets", "crazyhouse", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"},
		{"grand-start", "grand", ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := position(b, r, c.key, c.fen)
			legal := p.Legal(nil)
			for b.Loop() {
				SANs(&p, legal)
			}
		})
	}
}

// TestSANContinuingTwinHasNoCheckMark: Winning Chess's Attacker step that
// gives check exists ending the turn and continuing it; the ending one is
// written without "+" (so "Ad6+" never names one of two moves), the
// continuing one keeps it; a check without a twin keeps its mark.
func TestSANContinuingTwinHasNoCheckMark(t *testing.T) {
	runSANCases(t, "winning", []sanCase{
		{"ending step that checks", "4k7/12/12/2A9/12/12/12/K11 w - - 0 1", "c5d6", "Ad6"},
		{"continuing step that checks", "4k7/12/12/2A9/12/12/12/K11 w - - 0 1", "c5d6>", "Ad6+>"},
		{"rook check without a twin", "4k7/12/12/12/12/12/12/K3R7 w - - 0 1", "e1e2", "Re2+"},
	})
}

// TestSANPassHasNoCheckMark: a pass moves nothing, so it never gives
// check. White's continuing Attacker step Ad6+> checks (and is marked);
// after Black's answer (a pass), White passes instead of the second step,
// which hands Black the turn still in that check: the pass reads "pass",
// not "pass+", and ParseSAN reads it back.
func TestSANPassHasNoCheckMark(t *testing.T) {
	r := newRegistry(t)
	p := position(t, r, "winning", "4k7/12/12/2A9/12/12/12/K11 w - - 0 1")
	g := rules.NewGame(p)
	for _, s := range []string{"c5d6>", "pass"} {
		q := g.Position()
		if err := g.Play(coordMove(t, &q, s)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	q := g.Position()
	pass := coordMove(t, &q, "pass")
	after, ok := q.After(pass)
	if !ok || after.ToAct() == q.ToAct() || !after.InCheck() {
		t.Fatalf("the position %s does not test a pass that leaves the opponent in check", q.FEN())
	}
	if got := SAN(&q, pass); got != "pass" {
		t.Errorf("SAN(pass) = %q, want \"pass\"", got)
	}
	if back, err := ParseSAN(&q, "pass"); err != nil || back != pass {
		t.Errorf("ParseSAN(\"pass\") = %v, %v; want %v", back, err, pass)
	}
}
