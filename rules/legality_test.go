package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// newFairy12 is a test-only 12x12 variant with the kinds of pieces the
// seed variants use: a cannon (hopper), a nightrider, a lame horse, a
// tiger (moves as a bishop, captures as a knight), pawns with double steps
// and en passant, and drops, so that the legality shortcuts meet hoppers,
// long lines and wide boards.
func newFairy12(map[string]string) (*Variant, error) {
	return &Variant{
		Key:   "fairy12",
		Name:  "Fairy 12x12",
		Help:  VariantHelp{Summary: "A test variant with fairy pieces on a 12x12 board."},
		Files: 12,
		Ranks: 12,
		Pieces: []PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Legend: "a test piece", Pawn: true, InitialRank: 3, NoDropRanks: []int{1, 12}},
			{Letter: 'C', Name: "Cannon", Betza: "mRcpR", Art: "cannon", Legend: "a test piece"},
			{Letter: 'N', Name: "Nightrider", Betza: "NN", Art: "nightrider", Legend: "a test piece"},
			{Letter: 'H', Name: "Horse", Betza: "nN", Art: "horse", Legend: "a test piece"},
			{Letter: 'T', Name: "Tiger", Betza: "mBcN", Art: "tiger", Legend: "a test piece"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: "a test piece"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: "a test piece"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: "a test piece", Royal: true},
		},
		StartFEN:  "rnhtcqkcthnr/12/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/12/RNHTCQKCTHNR[] w - - 0 1",
		Promotion: Promotion{Zone: 2, Choices: "QRCN"},
		Drops:     Drops{Enabled: true, CapturesToHand: true},
		CheckRule: true,
	}, nil
}

func testRegistry(t testing.TB) *Registry {
	t.Helper()
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Register("fairy12", newFairy12); err != nil {
		t.Fatal(err)
	}
	return r
}

// slowLegal is the definition of legality: every pseudo-legal move played
// in full, kept when the mover's king is not attacked afterwards.
func slowLegal(p *Position) []string {
	var out []string
	for _, m := range p.pseudoLegal(nil) {
		var after Position
		if p.isLegal(m, &after) {
			out = append(out, FormatMove(p, m))
		}
	}
	slices.Sort(out)
	return out
}

// TestLegalityShortcutsMatchFullPlay pins the move generator's shortcuts
// (pins found once per position, geometry for moves off the king's lines,
// in-place trial moves) to the definition of legality, over random games
// of every registered variant (with its default options, and with each
// other value of each of its options), including a 12x12 board with a
// cannon, a nightrider and drops.
func TestLegalityShortcutsMatchFullPlay(t *testing.T) {
	r := testRegistry(t)
	games := 20
	if *playoutGames > 0 {
		games = *playoutGames
	} else if testing.Short() {
		games = 8
	}
	type run struct{ name, key, options string }
	var runs []run
	for _, key := range r.Keys() {
		runs = append(runs, run{key, key, ""})
		for _, o := range r.Default(key).Options {
			for _, val := range o.Values[1:] {
				runs = append(runs, run{key + " " + o.Key + "=" + val, key, o.Key + "=" + val})
			}
		}
	}
	for _, c := range runs {
		t.Run(c.name, func(t *testing.T) {
			v, err := r.Variant(c.key, c.options)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(c.key+c.options))))
			positions := 0
			for g := 0; g < games; g++ {
				p := v.Start()
				for ply := 0; ply < 160; ply++ {
					var fast []string
					for _, m := range p.Legal(nil) {
						fast = append(fast, FormatMove(&p, m))
					}
					slices.Sort(fast)
					if _, over := p.terminal(); !over {
						if slow := slowLegal(&p); !slices.Equal(fast, slow) {
							t.Fatalf("%s: shortcuts give %v\nfull play gives %v", p.FEN(), fast, slow)
						}
					}
					positions++
					moves := p.Legal(nil)
					if len(moves) == 0 {
						break
					}
					p, _ = p.Play(moves[rng.IntN(len(moves))])
				}
			}
			t.Logf("%d positions compared", positions)
		})
	}
}

// TestFairyPiecesOnWideBoard pins hopper, rider, lame-leaper and
// divergent (move one way, capture another) pieces on a 12x12 board.
func TestFairyPiecesOnWideBoard(t *testing.T) {
	r := testRegistry(t)
	v := r.Default("fairy12")
	for _, c := range []struct {
		name, fen, move string
		legal           bool
	}{
		{"cannon captures over one screen", "k11/12/12/12/12/12/12/12/12/c11/P11/C10K[] w - - 0 1", "a1a3", true},
		{"cannon cannot capture without a screen", "11k/12/12/12/12/12/12/12/12/12/c11/C10K[] w - - 0 1", "a1a2", false},
		{"cannon moves like a rook without capturing", "k11/12/12/12/12/12/12/12/12/12/12/C10K[] w - - 0 1", "a1a11", true},
		{"cannon cannot move past its screen", "11k/12/12/12/12/12/12/12/12/12/P11/C10K[] w - - 0 1", "a1a4", false},
		{"cannon checks through a screen", "k11/12/12/12/12/12/12/12/12/12/12/C10K[] w - - 0 1", "a1a11", true},
		{"nightrider rides to l12 from a1 only diagonally by knight steps", "12/12/12/12/12/12/12/12/12/12/12/N10K[] w - - 0 1", "a1i5", true},
		{"nightrider is blocked by a piece on its line", "12/12/12/12/12/12/12/12/12/12/2P9/N10K[] w - - 0 1", "a1e3", false},
		{"lame horse is blocked next to it", "12/12/12/12/12/12/12/12/12/12/P11/H10K[] w - - 0 1", "a1b3", false},
		{"lame horse leaps when the leg is free", "12/12/12/12/12/12/12/12/12/12/12/H10K[] w - - 0 1", "a1b3", true},
		{"tiger moves as a bishop", "12/12/12/12/12/12/12/12/12/12/12/T10K[] w - - 0 1", "a1h8", true},
		{"tiger does not capture as a bishop", "12/12/12/12/12/12/12/12/12/12/1p10/T10K[] w - - 0 1", "a1b2", false},
		{"tiger captures as a knight", "12/12/12/12/12/12/12/12/12/1p10/12/T10K[] w - - 0 1", "a1b3", true},
		{"the screen between an enemy cannon and the king may leave", "11k/12/12/12/12/12/12/12/12/c11/R11/K11[] w - - 0 1", "a2b2", true},
		{"no piece may become the screen between an enemy cannon and the king", "11k/12/12/12/12/12/12/12/12/c11/1R10/K11[] w - - 0 1", "b2a2", false},
		{"a piece shielding the king from a lame horse is pinned", "11k/12/12/12/12/12/12/12/12/1h10/1R10/K11[] w - - 0 1", "b2c2", false},
		{"dropping a screen in front of an enemy cannon exposes the king", "c11/12/12/12/12/12/12/12/12/12/12/K11[N] w - - 0 1", "N@a6", false},
		{"pawn drops are banned on the last rank", "k11/12/12/12/12/12/12/12/12/12/12/11K[P] w - - 0 1", "P@e12", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(v, c.fen)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ParseMove(&p, c.move)
			if (err == nil) != c.legal {
				t.Errorf("%s legal=%v, want %v (err %v; legal moves %v)", c.move, err == nil, c.legal, err, slowLegal(&p))
			}
		})
	}
}

// TestThreeSquareLeapersStayOnTheBoard pins the mailbox's wall: leapers of
// three squares (Betza H, C, Z, G) from every edge square of the largest
// board land on the board or on the wall, never outside the array.
func TestThreeSquareLeapersStayOnTheBoard(t *testing.T) {
	r := &Registry{ctors: map[string]Constructor{}, defaults: map[string]*Variant{}, cache: map[string]*Variant{}}
	err := r.Register("leap3", func(map[string]string) (*Variant, error) {
		return &Variant{
			Key: "leap3", Name: "Three-leapers", Files: 12, Ranks: 12,
			Help: VariantHelp{Summary: "A test variant of three-square leapers."},
			Pieces: []PieceDef{
				{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: "a test piece", Royal: true},
				{Letter: 'Z', Name: "Zebra", Betza: "Z", Art: "zebra", Legend: "a test piece"},
				{Letter: 'G', Name: "Tripper", Betza: "G", Art: "tripper", Legend: "a test piece"},
				{Letter: 'H', Name: "Threeleaper rider", Betza: "HH", Art: "threeleaper-rider", Legend: "a test piece"},
			},
			StartFEN:  "z10k/12/12/12/12/12/12/12/12/12/12/GH9K w - - 0 1",
			CheckRule: true,
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	v := r.Default("leap3")
	// Every edge and corner square of the 12x12 board, for every piece.
	for _, fen := range []string{
		"Z10k/12/12/12/12/12/12/12/12/12/12/G1H8K w - - 0 1",
		"k10Z/12/12/12/12/12/12/12/12/12/12/K8H1G w - - 0 1",
		"k11/12/12/12/12/Z11/11G/12/12/12/12/K10H w - - 0 1",
		"Z1k9/12/12/12/12/12/12/12/12/12/12/2G6HK1 b - - 0 1",
	} {
		p, err := ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		if len(legalTexts(&p)) == 0 {
			t.Errorf("%s: no moves", fen)
		}
		if n := Perft(&p, 3); n == 0 {
			t.Errorf("%s: perft 3 = 0", fen)
		}
	}
}
