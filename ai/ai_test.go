package ai

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// registry returns the variants for tests.
func registry(t testing.TB) *rules.Registry {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// position reads fen in the variant key with default options.
func position(t testing.TB, reg *rules.Registry, key, fen string) rules.Position {
	t.Helper()
	p, err := rules.ParseFEN(reg.Default(key), fen)
	if err != nil {
		t.Fatalf("%s %q: %v", key, fen, err)
	}
	return p
}

// tactic is a position with the moves that win (or win material), and
// the exact result of a fixed-budget search, which pins the search: a
// change of ordering, pruning or evaluation shows as a changed node count.
type tactic struct {
	name, key, fen string
	nodes          int64
	want           []string // canonical forms of the winning moves
	mateIn         int      // atomic moves to the forced win; 0 = not a mate
	gotNodes       int64    // the exact node count of the search
}

// TestTactics finds the winning move of one tactic position per variant
// at a fixed node budget.
func TestTactics(t *testing.T) {
	reg := registry(t)
	for _, c := range []tactic{
		{name: "chess mate in 2: the Rook sacrifice opens b7", key: "chess",
			fen: "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", nodes: 20000, want: []string{"a1a6"}, mateIn: 3, gotNodes: 710},
		{name: "crazyhouse smothered mate by a drop", key: "crazyhouse",
			fen: "6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", nodes: 5000, want: []string{"N@f7"}, mateIn: 1, gotNodes: 135},
		{name: "grand: the Rook takes the loose Queen", key: "grand",
			fen: "k9/10/10/10/4q5/10/10/4R5/10/K9 w - - 0 1", nodes: 5000, want: []string{"e3e6"}, gotNodes: 5000},
		{name: "train wreck: stalemate the opponent with their own pawn", key: "trainwreck",
			fen: "7K/8/6P1/3p4/8/3P4/8/k7 w - - 0 1", nodes: 5000, want: []string{"g6g7"}, mateIn: 2, gotNodes: 12},
		{name: "berolina: the pawn takes the King straight ahead", key: "trainwreck-berolina",
			fen: "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", nodes: 5000, want: []string{"e2e3"}, mateIn: 1, gotNodes: 16},
		{name: "almost: the Chancellor takes the King along the rank", key: "trainwreck-almost",
			fen: "C3k3/8/8/8/8/8/8/4K3 w - - 0 1", nodes: 5000, want: []string{"a8e8"}, mateIn: 1, gotNodes: 10},
		{name: "three-move: two own moves reach the King", key: "trainwreck-threemove",
			fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 5", nodes: 20000, want: []string{"a1a8"}, mateIn: 2, gotNodes: 252},
		{name: "winning: the Attacker's two steps take the undefended King", key: "winning",
			fen: "5k6/12/12/12/A11/12/12/K11 w - - 0 1", nodes: 20000, want: []string{"a4c5>", "a4d7>"}, mateIn: 3, gotNodes: 2571},
		{name: "easymate: back-rank mate", key: "easymate",
			fen: "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", nodes: 5000, want: []string{"a1a8"}, mateIn: 1, gotNodes: 34},
		{name: "cold fusion: the Rook fuses with the Bishop into a mating Queen", key: "coldfusion",
			fen: "B4k4/4ppp3/10/10/10/10/10/10/10/R8K[] w - - 0 1", nodes: 3000, mateIn: 1, gotNodes: 70},
		{name: "tank: the Bomb blows up the King", key: "tank",
			fen: "4k3/4M3/8/1n6/8/3B4/8/4K3 w - - 0 1", nodes: 5000, want: []string{"e7e7"}, mateIn: 1, gotNodes: 103},
		{name: "annihilation: taking the last piece on the board wins, whatever is in hand", key: "annihilation",
			fen: "8/8/8/3p4/4P3/8/8/4K3[q] w - - 0 1", nodes: 5000, want: []string{"e4d5"}, mateIn: 1, gotNodes: 25},
	} {
		t.Run(c.key, func(t *testing.T) {
			p := position(t, reg, c.key, c.fen)
			e := NewEngine(Options{Nodes: c.nodes, Spread: -1})
			r, err := e.Search(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := rules.FormatMove(&p, r.Move)
			if c.want != nil && !slices.Contains(c.want, got) {
				t.Errorf("%s: played %s (score %d, depth %d), want one of %v", c.name, got, r.Score, r.Depth, c.want)
			}
			if c.mateIn != 0 && MateIn(r.Score) != c.mateIn {
				t.Errorf("%s: %s scores %d (mate in %d), want mate in %d", c.name, got, r.Score, MateIn(r.Score), c.mateIn)
			}
			if c.want == nil {
				// The move is judged by its result: the game is won.
				next, err := p.Play(r.Move)
				if err != nil {
					t.Fatal(err)
				}
				if o := next.Outcome(); o.Result != rules.WhiteWins {
					t.Errorf("%s: after %s the outcome is %+v, want a White win", c.name, got, o)
				}
			}
			// The same search again, on a fresh engine, is the same.
			r2, err := NewEngine(Options{Nodes: c.nodes, Spread: -1}).Search(context.Background(), p, nil)
			if err != nil || r2 != r {
				t.Errorf("%s: second search %+v (%v), first %+v", c.name, r2, err, r)
			}
			if r.Nodes != c.gotNodes {
				t.Errorf("%s: %d nodes, want exactly %d (the search changed: check and update)", c.name, r.Nodes, c.gotNodes)
			}
		})
	}
}

// TestDeterministicLevels checks that a level's move depends only on the
// position and the seed, and that the seed matters at weak levels.
func TestDeterministicLevels(t *testing.T) {
	reg := registry(t)
	p := reg.Default("chess").Start()
	moves := map[rules.Move]bool{}
	for seed := uint64(0); seed < 8; seed++ {
		a, err := NewEngine(Options{Level: 1, Seed: seed}).Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		// A second engine, and the first one again after another search.
		b, err := NewEngine(Options{Level: 1, Seed: seed}).Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(Options{Level: 1, Seed: seed})
		mid := position(t, reg, "chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
		if _, err := e.Search(context.Background(), mid, nil); err != nil {
			t.Fatal(err)
		}
		if c, err := e.Search(context.Background(), p, nil); err != nil || c != a {
			t.Fatalf("seed %d: %+v on a fresh engine, %+v after another search (%v)", seed, a, c, err)
		}
		if a != b {
			t.Fatalf("seed %d: %+v then %+v", seed, a, b)
		}
		if a.Nodes > 300 {
			t.Errorf("level 1 searched %d nodes, budget 300", a.Nodes)
		}
		moves[a.Move] = true
	}
	if len(moves) < 2 {
		t.Errorf("level 1 played the same move with 8 seeds: the choice ignores the seed")
	}
}

// TestSearchErrors checks the errors of Search: a finished game and a
// cancelled context.
func TestSearchErrors(t *testing.T) {
	reg := registry(t)
	mated := position(t, reg, "chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
	if _, err := NewEngine(Options{}).Search(context.Background(), mated, nil); !errors.Is(err, ErrNoMoves) {
		t.Errorf("mated position: error %v, want ErrNoMoves", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := reg.Default("chess").Start()
	if _, err := NewEngine(Options{Level: TopLevel}).Search(ctx, start, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: error %v, want context.Canceled", err)
	}
}

// TestRepetitionIsDraw checks that the search sees a repetition of the
// game's history as a draw: a side that is lost prefers repeating.
func TestRepetitionIsDraw(t *testing.T) {
	reg := registry(t)
	// White is a Rook down; Kh1-g1 returns to a position of the game.
	p := position(t, reg, "chess", "r5k1/8/8/8/8/8/8/7K w - - 0 1")
	back := position(t, reg, "chess", "r5k1/8/8/8/8/8/8/6K1 b - - 0 1")
	r, err := NewEngine(Options{Nodes: 3000, Spread: -1}).Search(context.Background(), p, []uint64{back.Hash()})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules.FormatMove(&p, r.Move); got != "h1g1" || r.Score != 0 {
		t.Errorf("played %s scoring %d, want h1g1 scoring 0 (the repetition)", got, r.Score)
	}
}

// TestGameAgainstRandom plays a whole game of every variant between the
// second level and a random mover: every move the engine chooses is
// legal, and it does not lose. Under the race detector (ten times slower,
// and the search is one goroutine) the games stop after 30 moves: the
// full run plays them to 200.
func TestGameAgainstRandom(t *testing.T) {
	maxPlies := 200
	if raceBuild {
		maxPlies = 30
	}
	reg := registry(t)
	for _, key := range reg.Keys() {
		t.Run(key, func(t *testing.T) {
			v := reg.Default(key)
			start := v.Start()
			if v.PreGame != nil {
				start = v.PreGame.Normalize(v.PreGame.Start(3), rules.White)
			}
			g := rules.NewGame(start)
			e := NewEngine(Options{Level: 2, Seed: 5})
			rnd := uint64(11)
			for len(g.Moves()) < maxPlies && !g.Outcome().Over() {
				p := g.Position()
				var m rules.Move
				if p.ToAct() == rules.White {
					past := make([]uint64, len(g.Moves()))
					for i := range past {
						q := g.PositionAt(i)
						past[i] = q.Hash()
					}
					r, err := e.Search(context.Background(), p, past)
					if err != nil {
						t.Fatalf("move %d: %v", len(g.Moves())+1, err)
					}
					m = r.Move
				} else {
					legal := g.Legal()
					m = legal[splitmix(&rnd)%uint64(len(legal))]
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("move %d %s: %v", len(g.Moves())+1, rules.FormatMove(&p, m), err)
				}
			}
			o := g.Outcome()
			if o.Result == rules.BlackWins {
				t.Errorf("the engine lost to the random mover: %s after %d moves", o.Reason, len(g.Moves()))
			}
			t.Logf("%s: %s %s after %d moves", key, o.Result, o.Reason, len(g.Moves()))
			if o.Result == rules.BlackWins {
				for i := max(0, len(g.Moves())-8); i < len(g.Moves()); i++ {
					q := g.PositionAt(i)
					t.Log(q.FEN(), rules.FormatMove(&q, g.Moves()[i]))
				}
			}
		})
	}
}

// TestNoAllocationPerNode checks that a search allocates a bounded amount
// whatever its number of nodes: nothing per node in steady state, in
// every variant.
func TestNoAllocationPerNode(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	reg := registry(t)
	for _, key := range reg.Keys() {
		p := reg.Default(key).Start()
		e := NewEngine(Options{Nodes: 5000, Spread: -1})
		ctx := context.Background()
		e.Search(ctx, p, nil) // warm up: buffers grow to their size
		allocs := testing.AllocsPerRun(3, func() { e.Search(ctx, p, nil) })
		if allocs > 20 {
			t.Errorf("%s: %.0f allocations in a search of 5000 nodes", key, allocs)
		}
	}
}

// TestDerivedValues checks piece values derived from the Betza data: the
// chess order, and a fairy compound worth more than its parts' larger.
func TestDerivedValues(t *testing.T) {
	reg := registry(t)
	v := reg.Default("grand")
	ev := newEvaluator(v, false)
	val := func(l byte) int { return ev.pieceValue(v.Type(l)) }
	if !(val('P') < val('N') && val('N') < val('B') && val('B') < val('R') && val('R') < val('A') && val('A') < val('C') && val('C') < val('Q')) {
		t.Errorf("grand values P %d N %d B %d R %d A %d C %d Q %d: not in the usual order",
			val('P'), val('N'), val('B'), val('R'), val('A'), val('C'), val('Q'))
	}
	if val('K') != 0 {
		t.Errorf("royal King valued %d, want 0 (its loss is the end)", val('K'))
	}
	ann := reg.Default("annihilation")
	if k := newEvaluator(ann, false).pieceValue(ann.Type('K')); k <= 0 {
		t.Errorf("annihilation King (an ordinary piece) valued %d", k)
	}
}

// TestSearchMemory checks that an engine and a search of the largest
// board stay within 32 MB.
func TestSearchMemory(t *testing.T) {
	reg := registry(t)
	p := reg.Default("winning").Start()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e := NewEngine(Options{Nodes: 3000})
	if _, err := e.Search(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 32 {
		t.Errorf("engine and search allocated %.1f MB, want at most 32", mb)
	}
}

// TestTwoStepThreat checks Three-Move's threat term: a Rook that reaches
// the King's rank in one plain move threatens it; a pawn two steps from
// the King does not (its plain moves do not capture).
func TestTwoStepThreat(t *testing.T) {
	reg := registry(t)
	v := reg.Default("trainwreck-threemove")
	ev := newEvaluator(v, false)
	for _, c := range []struct {
		fen    string
		threat bool
	}{
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 5", true},
		{"4k3/8/8/8/8/8/P7/4K3 w - - 0 5", false},
		{"4k3/8/8/8/8/8/8/R3K3 b - - 0 5", false}, // Black to act has no threat
	} {
		p := position(t, reg, v.Key, c.fen)
		ev.positional(&p) // fills the evaluator's board
		if got := ev.twoStepThreat(p.ToAct()); got != c.threat {
			t.Errorf("%s: two-step threat %v, want %v", c.fen, got, c.threat)
		}
	}
}
