package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
	"github.com/fogleman/gg"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// Golden images are compared by decoded pixels: a pixel differs when a
// channel is more than goldenChannelTolerance away, and the test fails
// when more than goldenPixelTolerance of the pixels differ (font
// rasterization may round differently on other CPUs). On failure the
// image drawn and a diff image are written to testdata/failed.
const (
	goldenChannelTolerance = 24
	goldenPixelTolerance   = 0.001
)

// newTestRenderer returns a Renderer or stops the test.
func newTestRenderer(tb testing.TB) *Renderer {
	tb.Helper()
	r, err := NewRenderer()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// newTestRegistry returns the registry of every variant, plus the test
// variant "fusiontest" (testRegistryVariant).
func newTestRegistry(tb testing.TB) *rules.Registry {
	tb.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.Register("fusiontest", newFusionTest); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// newFusionTest is a 12x12 variant with drops whose pieces carry the names
// of Cold Fusion's compounds (their moves here are simple stand-ins), and
// one piece the renderer does not know: the largest board, compounds on
// the board and in hand, the letter fallback and the legend.
func newFusionTest(map[string]string) (*rules.Variant, error) {
	return &rules.Variant{
		Key: "fusiontest", Name: "Render test (12x12)", Files: 12, Ranks: 12,
		Help: rules.VariantHelp{Summary: "A render test variant."},
		Pieces: []rules.PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfcF", Art: "pawn", Legend: "a pawn", Pawn: true},
			{Letter: 'U', Name: "Berolina pawn", Betza: "fmFfcW", Art: "pawn+pawn", Legend: "2 pawns", Pawn: true},
			{Letter: 'S', Name: "Sergeant", Betza: "fK", Art: "pawn+pawn+pawn", Legend: "3 pawns", Pawn: true},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight", Legend: "a knight"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: "a rook"},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop", Legend: "a bishop"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: "a queen"},
			{Letter: 'M', Name: "Marshal", Betza: "RN", Art: "rook+knight", Legend: "R+N"},
			{Letter: 'C', Name: "Cardinal", Betza: "BN", Art: "bishop+knight", Legend: "B+N"},
			{Letter: 'H', Name: "Chariot", Betza: "R", Art: "rook+rook", Legend: "R+R"},
			{Letter: 'A', Name: "Archbishop", Betza: "B", Art: "bishop+bishop", Legend: "B+B"},
			{Letter: 'I', Name: "Knightrider", Betza: "NN", Art: "knight+knight", Legend: "N+N"},
			{Letter: 'G', Name: "Guard", Betza: "R", Art: "rook+pawn", Legend: "R+P"},
			{Letter: 'T', Name: "Berolina Templar", Betza: "B", Art: "bishop+pawn+pawn", Legend: "B+P+P"},
			{Letter: 'V', Name: "Cavalry Sergeant", Betza: "N", Art: "knight+pawn+pawn+pawn", Legend: "N+P+P+P"},
			{Letter: 'D', Name: "Dragon King", Betza: "KR", Art: "king+rook", Legend: "K+R, royal", Royal: true},
			{Letter: 'Z', Name: "Zebra", Betza: "N", Art: "zebra", Legend: "leaps 3+2"},
		},
		StartFEN:  "zhmaitgvcqdb/pppppppppppp/uuss8/12/12/12/12/12/12/8SSUU/PPPPPPPPPPPP/ZHMAITGVCQDB[MIGabtv] w - - 0 1",
		Drops:     rules.Drops{Enabled: true},
		CheckRule: true,
	}, nil
}

// goldenCase is one golden image: a position reached by moves, drawn with
// the last move marked.
type goldenCase struct {
	name             string
	variant, fen     string
	variantOptions   string // the variant's options ("k=v,k=v"; "" for the defaults)
	moves            string
	perspective      rules.Color
	size             int
	wantInCheck      bool
	wantOver         bool
	wantPhaseContain string
	turn             bool   // mark the whole last turn (LastTurn), not the last move
	status           string // the Status option
}

// goldenCases lists the golden images: the start position of every
// variant in the registry (a variant registered later gets its case, and
// fails until its golden is generated with -update), then the positions
// that show pockets, check, special moves, results and orientation.
func goldenCases(reg *rules.Registry) []goldenCase {
	var cs []goldenCase
	for _, k := range reg.Keys() {
		if k == "fusiontest" {
			continue
		}
		cs = append(cs, goldenCase{name: "start-" + k, variant: k})
	}
	return append(cs,
		goldenCase{name: "start-chess-black", variant: "chess", perspective: rules.Black},
		goldenCase{name: "crazyhouse-pockets", variant: "crazyhouse",
			moves: "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bg4 Bd2 Bxf3 gxf3 Nc6 Bb5 P@d5 Bxc6+ bxc6 N@e5 Qxc3 bxc3"},
		goldenCase{name: "crazyhouse-pockets-black", variant: "crazyhouse", perspective: rules.Black,
			moves: "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bg4 Bd2 Bxf3 gxf3 Nc6 Bb5 P@d5 Bxc6+ bxc6 N@e5 Qxc3 bxc3"},
		goldenCase{name: "chess-check", variant: "chess", moves: "e4 f5 Qh5+", wantInCheck: true},
		goldenCase{name: "chess-check-black", variant: "chess", moves: "e4 f5 Qh5+", perspective: rules.Black, wantInCheck: true},
		goldenCase{name: "chess-castling", variant: "chess", moves: "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O"},
		goldenCase{name: "chess-en-passant", variant: "chess", moves: "e4 Nf6 e5 d5 exd6"},
		goldenCase{name: "chess-mate", variant: "chess", moves: "f3 e5 g4 Qh4#", wantInCheck: true, wantOver: true},
		goldenCase{name: "tank-push", variant: "tank", fen: "mnbakbnt/ppp2ppp/8/3pp3/4P3/4T3/PPPP1PPP/MNBAK1N1 w - - 0 1", moves: "e3e4"},
		goldenCase{name: "tank-detonation", variant: "tank", fen: "mnb1kbnt/ppp2ppp/3p4/2pnp3/3AP3/2N5/PPPP1PPP/MNB1KBNT w - - 0 1", moves: "d4d4"},
		goldenCase{name: "trainwreck-phase", variant: "trainwreck", moves: "e4", wantPhaseContain: "White moves a Black piece"},
		goldenCase{name: "grand-black", variant: "grand", moves: "e5 e6 Nc4", perspective: rules.Black},
		goldenCase{name: "fusiontest-12x12", variant: "fusiontest", moves: "G@f6"},
		goldenCase{name: "fusiontest-crowded-hands", variant: "fusiontest", perspective: rules.Black,
			fen: "zhmaitgvcqdb/pppppppppppp/uuss8/12/12/12/12/12/12/8SSUU/PPPPPPPPPPPP/ZHMAITGVCQDB[PPPUSNRBQMCHAIGTVZpusnrbqmchaigtvvvz] w - - 0 1"},
		goldenCase{name: "chess-small", variant: "chess", moves: "e4 e5", size: 360},
		// At the width Discord shows images: the Tiger, Attacker and
		// Defender, and Cold Fusion's compounds, must read there.
		goldenCase{name: "winning-400", variant: "winning", size: 400},
		goldenCase{name: "coldfusion-400", variant: "coldfusion", size: 400},
		goldenCase{name: "coldfusion-compounds-400", variant: "coldfusion", size: 400,
			fen:   "w3o4r/1n1qx1abj1/pp1lp1sppp/10/3p6/4P5/10/2L2T4/PP1P1GPPPP/W1BQD1ABJ1[S:Nn,D:R*bP*P*] w - - 0 12",
			moves: "e1e2#r"},
		// Compounds on the board and in both pockets of each side, a
		// split (the Dragon King's Rook steps off).
		goldenCase{name: "coldfusion-compounds", variant: "coldfusion",
			fen:   "w3o4r/1n1qx1abj1/pp1lp1sppp/10/3p6/4P5/10/2L2T4/PP1P1GPPPP/W1BQD1ABJ1[S:Nn,D:R*bP*P*] w - - 0 12",
			moves: "e1e2#r"},
		// Whole turns at Discord's size: Black's three moves (the third
		// with White's Knight); Black's pawn, then White's pawn taking it
		// (a capture by the opponent's piece, the victim small in the
		// corner); White's Attacker steps with Black's Defender answer
		// between them; a Tank pushing a Tank off the board.
		goldenCase{name: "threemove-turn", variant: "trainwreck-threemove", moves: "e4 e5 Nf6 Nc6 Nf3", size: 450, turn: true,
			wantPhaseContain: "(first of two)"},
		goldenCase{name: "trainwreck-capture-turn", variant: "trainwreck", moves: "e4 e5 d5 exd5", size: 450, turn: true},
		goldenCase{name: "winning-answer-turn", variant: "winning", fen: "r4kd4r/pppppp2pppp/12/12/12/12/PPPPPPPPPPPP/R4KA4R w - - 0 1",
			moves: "Af3> Dh7 Ag4", size: 450, turn: true},
		goldenCase{name: "annihilation-choice", variant: "annihilation", size: 450,
			status: "Pre-game choice pending: which army to play"},
		goldenCase{name: "tank-push-off-turn", variant: "tank", fen: "mnbakbnt/pppppp1p/6pT/8/8/8/PPPPPPP1/MNBAK1N1 w - - 0 1",
			moves: "h6h7", size: 450, turn: true},
		// The Defender's swap with its King, alone, as the answer to an
		// Attacker step (issue 24: it was drawn as a push), and on the
		// diagonal after a Defender pre-move, at both widths.
		goldenCase{name: "winning-swap", variant: "winning", moves: "D~K", size: 400},
		goldenCase{name: "winning-swap-answer-turn", variant: "winning", moves: "Af3> D~K", size: 400, turn: true},
		goldenCase{name: "winning-swap-diagonal-turn", variant: "winning", moves: "h3 h6 Dh2> D~K", turn: true},
		goldenCase{name: "winning-swap-diagonal-turn-400", variant: "winning", moves: "h3 h6 Dh2> D~K", size: 400, turn: true},
		// Every other kind of move of every variant (TestGoldenCoversEveryMoveKind
		// finds them in the variants' own moves and fails on one without
		// an image here), in positions of seeded random games.
		goldenCase{name: "annihilation-drop-capture", variant: "annihilation", variantOptions: "dropcapture=on", fen: "rn1qk3/p1p2p1r/3ppn2/PBbb3p/1K1PP1pP/1PP2NP1/5P2/RNBQ3R[P] w - - 0 19", moves: "P@xc5", size: 400},
		goldenCase{name: "annihilation-drop", variant: "annihilation", fen: "rnb1kb1r/pp1ppppp/8/q1p5/6PP/4P3/PPPPP2N/RNBQKB1R[N] w - - 1 6", moves: "N@g1", size: 400},
		goldenCase{name: "annihilation-en-passant", variant: "annihilation", fen: "rnbqk2r/2ppqppk/p7/Pp1PB3/2Pnp2p/N6P/PP2PbPR/1N2RB2[] w - b6 0 20", moves: "axb6", size: 400},
		goldenCase{name: "annihilation-promotion", variant: "annihilation", fen: "1rbk1br1/p2p1pp1/np1Np1P1/1q5p/PPQp2PP/B1N4B/P1P1p1R1/R4KN1[] b - - 5 33", moves: "e1=Q", size: 400},
		goldenCase{name: "chess-promotion", variant: "chess", fen: "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", moves: "e8=Q", size: 400},
		goldenCase{name: "coldfusion-drop-own-pocketed", variant: "coldfusion", fen: "r4c3r/1nbqk1abn1/pppp1ppppp/4p5/10/4P5/10/PPP2PPPPP/1NBQKCABN1/R8R[D:P*] w - - 1 3", moves: "P*=P@b1", size: 400},
		goldenCase{name: "coldfusion-en-passant", variant: "coldfusion", fen: "r2b2n2r/rB2k1ab2/p1b1ppppp1/n1p5p1/3pnNb2P/6Pp2/9N/PPPP1P1PP1/1N1RDN4/2P1QA2B1[] b - g4 0 21", moves: "hxg4", size: 400},
		goldenCase{name: "coldfusion-fusion", variant: "coldfusion", fen: "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1", moves: "R&j1=W", size: 400},
		goldenCase{name: "coldfusion-pocketing", variant: "coldfusion", fen: "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1", moves: "^Ra1", size: 400},
		goldenCase{name: "coldfusion-promotion", variant: "coldfusion", fen: "2kp5r/2rb1r1bz1/1b1W1bn2P/1p4p1P1/1p2pl1ppN/1PP1L3P1/B1PF1P4/B2NpP1P2/3RKR4/2P3NN2[D:R] b - - 0 38", moves: "exf2=R(D)+", size: 400, wantInCheck: true},
		goldenCase{name: "coldfusion-drop-demotion-pocket", variant: "coldfusion", fen: "3pkn2r1/r2r2a3/pp1p1R3p/n6pc1/4pnb3/PP6BP/2b7/1pP2PPP1P/1N1N5R/1P1K2NCA1[D:N*r] b - - 0 35", moves: "R=B@a1", size: 400},
		goldenCase{name: "coldfusion-drop-safe-pocket", variant: "coldfusion", fen: "3b1k3r/r2r1nb3/p3pppp2/Spn5pp/Pn6P1/2r2nNbr1/bls2B4/PP3P1PP1/C3O5/10[S:p,D:B*N*N*S*] b - - 0 56", moves: "P@c3", size: 400},
		goldenCase{name: "crazyhouse-castling", variant: "crazyhouse", fen: "1nb1k1nr/1pppp1bp/r5pQ/p2p1pB1/7P/1PNP1N1R/P1P2PP1/R3KB2[Q] w Qk - 1 11", moves: "O-O-O", size: 400},
		goldenCase{name: "crazyhouse-drop", variant: "crazyhouse", fen: "1nb1kbnr/1pp1p2p/r5pQ/p2p1pB1/7P/1PNq1N1R/P1P1PPP1/R3KB2[p] b Qk - 1 9", moves: "P@b2", size: 400},
		goldenCase{name: "crazyhouse-en-passant", variant: "crazyhouse", fen: "1nb3nr/3pk1P1/1p1Np1p1/2Pp1pPp/p7/2KP1N1R/P1P1BPPQ/R6q[RBB] w - h6 0 26", moves: "gxh6", size: 400},
		goldenCase{name: "crazyhouse-promotion", variant: "crazyhouse", fen: "1nb3nr/1p1pk1Pp/3rpbp1/p1Pp1pB1/7P/N2P1NQR/P1PKBPP1/R6q[] w - - 1 21", moves: "gxh8=Q", size: 400},
		goldenCase{name: "easymate-castling", variant: "easymate", fen: "rn1q1knr/2p1b1pp/pp1p4/1P2ppP1/4P3/2NP3N/1PP2PBP/R1BQK2R w KQ f6 0 12", moves: "O-O", size: 400},
		goldenCase{name: "easymate-en-passant", variant: "easymate", fen: "rn1q1knr/2p1b1pp/pp1p4/1P2ppP1/4P3/2NP3N/1PP2PBP/R1BQK2R w KQ f6 0 12", moves: "gxf6", size: 400},
		goldenCase{name: "easymate-promotion", variant: "easymate", fen: "2rq2rk/R3p3/1p5p/nb1P2P1/3p2B1/7P/pK4R1/2BQ4 b - - 0 49", moves: "a1=Q+", size: 400, wantInCheck: true},
		goldenCase{name: "easymate-puts-a-piece-back", variant: "easymate", fen: "3bk3/1r6/3q2r1/pPP2ppp/3PPBn1/1P6/6BP/2NQKRN1 w - - 0 39", moves: "Bxd6@a8", size: 400},
		goldenCase{name: "grand-en-passant", variant: "grand", fen: "1b8/8q1/p1prb1rp2/4aP2p1/1pPk1pp2p/P5P1PP/3P4A1/R1P4PB1/B5C1N1/3N1K2R1 w - b7 0 44", moves: "cxb7", size: 400},
		goldenCase{name: "grand-promotion", variant: "grand", fen: "1b8/8q1/p1prb1rp2/4aP2p1/1pPk1pp2p/P5P1PP/3P4A1/R1P4PB1/B5C1N1/3N1K2R1 w - b7 0 44", moves: "f8=Q", size: 400},
		goldenCase{name: "tank-en-passant", variant: "tank", fen: "3ak1nt/2p2pp1/8/3pp1Pp/1bP3b1/B7/3PPPBP/3AK1NT w - h6 0 7", moves: "gxh6", size: 400},
		goldenCase{name: "tank-promotion", variant: "tank", fen: "2a5/6k1/2t5/pp1B4/T2P1Pp1/K5P1/2p3N1/3P4 b - - 0 38", moves: "c1=N", size: 400},
		goldenCase{name: "trainwreck-almost-castling", variant: "trainwreck-almost", fen: "rnbckb1r/pp1pppp1/7p/2p5/4n3/N2P4/PPPBPPPP/R2CKBNR b1 KQkqHAha - 1 2", moves: "CO-O-O", size: 400},
		goldenCase{name: "trainwreck-almost-promotion", variant: "trainwreck-almost", fen: "r7/p2k3R/P2Cpr2/RP4P1/8/2p1PKp1/7p/b1c5 b - - 0 16", moves: "h1=C", size: 400},
		goldenCase{name: "trainwreck-almost-opponents-pieces", variant: "trainwreck-almost", fen: "rnbckbnr/pppppppp/8/8/8/3P4/PPP1PPPP/RNBCKBNR w1 KQkqHAha - 0 1", moves: "a6", size: 400},
		goldenCase{name: "trainwreck-berolina-castling", variant: "trainwreck-berolina", fen: "1R1q3r/3k4/3Q1p2/pN1PPppp/2BPPPp1/1P5R/1n1P4/2B1K1N1 w1 h - 0 12", moves: "QO-O", size: 400},
		goldenCase{name: "trainwreck-berolina-promotion", variant: "trainwreck-berolina", fen: "r7/3n4/pp1Q1Bkp/2Pp1B1R/b1P2p2/N3K3/R6p/8 b - - 0 16", moves: "g1=Q", size: 400},
		goldenCase{name: "trainwreck-berolina-opponents-pieces", variant: "trainwreck-berolina", fen: "rnbqkbnr/pppppppp/8/8/8/4P3/PPPPP1PP/RNBQKBNR w1 KQkqHAha - 0 1", moves: "ab6", size: 400},
		goldenCase{name: "trainwreck-threemove-castling", variant: "trainwreck-threemove", fen: "1nb1k1nr/1pq1b3/r3p3/p1p2PPp/2p5/NQ1P1NP1/PP2BP2/R1B1K2R w KQk - 0 5", moves: "O-O", size: 400},
		goldenCase{name: "trainwreck-threemove-promotion", variant: "trainwreck-threemove", fen: "4N2R/1P6/8/5k2/5pr1/1n3KPB/r7/4q3 b1 - - 1 13", moves: "b8=Q", size: 400},
		goldenCase{name: "trainwreck-castling", variant: "trainwreck", fen: "rnb1k2r/3p3p/3b3p/PNp3qP/P3pp2/3P1N2/R1P1PPP1/2B1KB1R b Kkq - 0 8", moves: "O-O", size: 400},
		goldenCase{name: "trainwreck-promotion", variant: "trainwreck", fen: "rnb1kbnr/ppp1q1p1/3p4/1NPQ1p2/3pP3/8/PP2NPpP/R1B1KB1R b KQkq - 0 5", moves: "g1=Q", size: 400},
		goldenCase{name: "winning-castling", variant: "winning", fen: "r5k2r2/5p1p4/p1p1npp3p1/Pp1p4pdAp/1P1q5DPP/R1N4P1c2/4nP3K2/1T2CR6 b q - 2 44", moves: "O-O-O", size: 400},
		goldenCase{name: "winning-en-passant", variant: "winning", fen: "rt1C4nr2/pp1p1kd2t2/2c9/5A1pP1pp/a1q3P3P1/P4p2pD1P/1R2P3P2N/1C1N3K1CTR w - h6 0 48", moves: "ixh6", size: 400},
		goldenCase{name: "winning-promotion", variant: "winning", fen: "rtcn2d1n2r/ppPpq1kp1tp1/1a2p6p/5pp1p3/1P2QPPPp3/P1P9/3AP3PcPP/1RCN2DKNCTR w - - 0 20", moves: "cxd8=Q", size: 400},
	)
}

// registered reports whether c's variant is in reg; TestGolden fails a
// case whose variant is not (a renamed or removed variant must not leave
// its images silently untested).
func (c goldenCase) registered(reg *rules.Registry) bool { return reg.Default(c.variant) != nil }

// play builds the game of c.
func (c goldenCase) play(tb testing.TB, reg *rules.Registry) *rules.Game {
	tb.Helper()
	v, err := reg.Variant(c.variant, c.variantOptions)
	if err != nil {
		tb.Fatalf("%s: %v", c.name, err)
	}
	start := v.Start()
	if c.fen != "" {
		if start, err = rules.ParseFEN(v, c.fen); err != nil {
			tb.Fatal(err)
		}
	}
	g := rules.NewGame(start)
	for _, text := range strings.Fields(c.moves) {
		p := g.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			tb.Fatalf("%s: move %s: %v", c.name, text, err)
		}
		if err := g.Play(m); err != nil {
			tb.Fatalf("%s: move %s: %v", c.name, text, err)
		}
	}
	return g
}

// options returns the render options of c for game g.
func (c goldenCase) options(g *rules.Game) []Option {
	opts := []Option{Outcome(g.Outcome())}
	if n := len(g.Moves()); n > 0 && c.turn {
		opts = append(opts, LastTurn(g))
	} else if n > 0 {
		opts = append(opts, Previous(g.PositionAt(n-1)))
	}
	if c.perspective != rules.NoColor {
		opts = append(opts, Perspective(c.perspective))
	}
	if c.size != 0 {
		opts = append(opts, Size(c.size))
	}
	if c.status != "" {
		opts = append(opts, Status(c.status))
	}
	return opts
}

func TestGolden(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	for _, c := range goldenCases(reg) {
		t.Run(c.name, func(t *testing.T) {
			if !c.registered(reg) {
				t.Fatalf("variant %s is not registered: a golden case must draw a variant of the registry", c.variant)
			}
			g := c.play(t, reg)
			p := g.Position()
			if p.InCheck() != c.wantInCheck || g.Outcome().Over() != c.wantOver {
				t.Fatalf("position: check %v, over %v; the case wants %v, %v", p.InCheck(), g.Outcome().Over(), c.wantInCheck, c.wantOver)
			}
			if c.wantPhaseContain != "" && !strings.Contains(p.PhaseName(), c.wantPhaseContain) {
				t.Fatalf("phase %q, want %q", p.PhaseName(), c.wantPhaseContain)
			}
			var buf bytes.Buffer
			if err := r.PNG(&buf, p, c.options(g)...); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, buf.Bytes())
		})
	}
	t.Run("pieces", func(t *testing.T) {
		var buf bytes.Buffer
		if err := png.Encode(&buf, pieceSheet(r, 72)); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "pieces", buf.Bytes())
	})
}

// checkGolden compares the PNG got with testdata/golden/name.png, or
// writes it there with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate the golden image with: go test ./render -run TestGolden -update, then look at it)", err)
	}
	gi, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	wi, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	diff, n := diffImages(gi, wi)
	total := wi.Bounds().Dx() * wi.Bounds().Dy()
	if diff != nil && float64(n) <= goldenPixelTolerance*float64(total) {
		return
	}
	dir := filepath.Join("testdata", "failed")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, name+".png"), got, 0o644)
	if diff != nil {
		var b bytes.Buffer
		if png.Encode(&b, diff) == nil {
			_ = os.WriteFile(filepath.Join(dir, name+"-diff.png"), b.Bytes(), 0o644)
		}
	}
	if gi.Bounds() != wi.Bounds() {
		t.Fatalf("%s: image is %v, golden %v; written to %s", name, gi.Bounds(), wi.Bounds(), dir)
	}
	t.Fatalf("%s: %d of %d pixels differ from the golden image (tolerance %.1f%%); the image and a diff (red = differs) are in %s; if the change is intended, look at them and run go test ./render -run TestGolden -update",
		name, n, total, 100*goldenPixelTolerance, dir)
}

// diffImages returns an image that shows the golden faded and the pixels
// that differ in red, and how many differ; nil when the sizes differ.
func diffImages(got, want image.Image) (*image.RGBA, int) {
	if got.Bounds() != want.Bounds() {
		return nil, -1
	}
	b := want.Bounds()
	out := image.NewRGBA(b)
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := color.RGBAModel.Convert(got.At(x, y)).(color.RGBA)
			w := color.RGBAModel.Convert(want.At(x, y)).(color.RGBA)
			if chanDiff(g.R, w.R) > goldenChannelTolerance || chanDiff(g.G, w.G) > goldenChannelTolerance ||
				chanDiff(g.B, w.B) > goldenChannelTolerance || chanDiff(g.A, w.A) > goldenChannelTolerance {
				n++
				out.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
				continue
			}
			l := uint8((uint16(w.R) + uint16(w.G) + uint16(w.B)) / 6)
			out.SetRGBA(x, y, color.RGBA{l + 100, l + 100, l + 100, 255})
		}
	}
	return out, n
}

func chanDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// pieceSheet draws every drawing of the piece table, White and Black on
// a light and a dark square, with its name; the last row is a drawing the
// table does not know (the piece's letter in a token).
func pieceSheet(r *Renderer, cell int) *image.RGBA {
	rows := pieceTable()
	rows = append(rows, artRow{key: "unknown"})
	const cols = 3
	colW := 4*cell + 200
	h := (len(rows)+cols-1)/cols*cell + 20
	img := image.NewRGBA(image.Rect(0, 0, cols*colW+20, h))
	draw.Draw(img, img.Rect, image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	dc := gg.NewContextForRGBA(img)
	dc.SetFontFace(face(r.fonts.text, 15))
	dc.SetColor(textColor)
	for i, row := range rows {
		x0 := 10 + (i%cols)*colW
		y0 := 10 + (i/cols)*cell
		def := rules.PieceDef{Letter: 'Z', Art: row.key}
		for j := 0; j < 4; j++ {
			sq := image.Rect(x0+j*cell, y0, x0+(j+1)*cell, y0+cell)
			c := lightSquare
			if j%2 == 1 {
				c = darkSquare
			}
			draw.Draw(img, sq, image.NewUniform(c), image.Point{}, draw.Src)
			side := rules.White
			if j >= 2 {
				side = rules.Black
			}
			blit(img, sq.Min, r.pieceSprite(def, side, cell, side == rules.Black))
		}
		dc.DrawStringAnchored(row.key, float64(x0+4*cell+8), float64(y0+cell/2), 0, 0.35)
	}
	return img
}

// TestGoldenFilesUsed fails on a golden image no case produces (left over
// from a renamed case). A start-KEY image of a variant that is not
// registered (yet) is only logged.
func TestGoldenFilesUsed(t *testing.T) {
	names := map[string]bool{"pieces": true, "evalchart": true} // evalchart: TestEvalChartGolden
	for _, n := range tableGoldenNames() {
		names[n] = true
	}
	for _, c := range goldenCases(newTestRegistry(t)) {
		names[c.name] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		n := strings.TrimSuffix(filepath.Base(f), ".png")
		switch {
		case names[n]:
		case strings.HasPrefix(n, "start-"):
			t.Logf("%s: variant %s is not registered", f, strings.TrimPrefix(n, "start-"))
		default:
			t.Errorf("%s is not produced by any golden case; delete it", f)
		}
	}
}
