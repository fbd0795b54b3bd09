package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// nodeWork is what a search does at each node it visits, with the
// buffers it reuses: the legal moves generated into a caller's buffer
// with caller's working space (LegalInto), the outcome of a position
// without moves (OutcomeNoMoves) and the check test it rests on, the
// hash, the draw by material, the variant's Strategy term, and each
// move played into a reused position (AfterInto), down to depth plies.
type nodeWork struct {
	moves   [3][]Move
	child   [3]Position
	scratch Position
	value   func(PieceType) int
	sum     int // keeps the results alive
}

func newNodeWork() *nodeWork {
	w := &nodeWork{value: func(t PieceType) int { return 100 * int(t) }}
	for i := range w.moves {
		w.moves[i] = make([]Move, 0, 512)
	}
	return w
}

// visit does a node's work at p and at its descendants to depth plies
// (at most len(w.child)).
func (w *nodeWork) visit(p *Position, depth int) {
	v := p.Variant()
	w.sum += int(p.Hash() & 1)
	if v.InsufficientMaterial != nil && v.InsufficientMaterial(p) {
		w.sum++
	}
	if v.Strategy.Term != nil {
		w.sum += v.Strategy.Term(p, w.value)
	}
	if p.InCheck() {
		w.sum++
	}
	moves := p.LegalInto(w.moves[depth-1][:0], &w.scratch)
	w.moves[depth-1] = moves[:0]
	if len(moves) == 0 {
		w.sum += int(p.OutcomeNoMoves().Result)
		return
	}
	child := &w.child[depth-1]
	for _, m := range moves {
		if !p.AfterInto(m, child) {
			w.sum--
			continue
		}
		w.sum += int(child.Hash() & 1)
		if depth > 1 {
			w.visit(child, depth-1)
		}
	}
}

// allocVariants returns every variant key with its default options, and
// with each other value of each of its options (one option changed at a
// time), as "key" or "key[k=v]" with the variant.
func allocVariants(tb testing.TB) (names []string, variants []*Variant) {
	tb.Helper()
	r, err := sharedRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	for _, k := range r.Keys() {
		names, variants = append(names, k), append(variants, r.Default(k))
		for _, o := range r.Default(k).Options {
			for _, val := range o.Values[1:] {
				opt := o.Key + "=" + val
				names, variants = append(names, k+"["+opt+"]"), append(variants, mustVariantWith(tb, k, opt))
			}
		}
	}
	return names, variants
}

// allocPositions returns the start position of v (the pre-game choice made
// for seed 1 where the variant has one) and the positions every
// `every` plies of a random game from it (math/rand/v2 PCG seeded by
// seed), up to plies plies or the end of the game.
func allocPositions(v *Variant, seed uint64, plies, every int) []Position {
	p := v.Start()
	if v.PreGame != nil {
		p = v.PreGame.Normalize(v.PreGame.Start(seed), White)
	}
	out := []Position{p}
	rng := rand.New(rand.NewPCG(seed, 15))
	for i := 1; i <= plies; i++ {
		moves := p.Legal(nil)
		if len(moves) == 0 {
			break
		}
		next, ok := p.After(moves[rng.IntN(len(moves))])
		if !ok {
			break
		}
		p = next
		if i%every == 0 {
			out = append(out, p)
		}
	}
	return out
}

// allocTrigger are positions that reach the paths of a variant's rules
// that random play meets only now and then: a Defender pre-move that
// must leave a legal regular move (Winning Chess: a capture by the
// Defender, or a pre-move out of check), a Cold Fusion position with
// pockets to pocket into and pieces to pocket, and easymate Queens
// attacked (the re-placing captures, a queen en passant).
var allocTrigger = []struct{ key, options, fen, moves string }{
	{"winning", "", "rtcnaqk1nctr/pppppppppppp/12/12/12/12/PPPPPPdPPPPP/RTCNAQKDNCTR w KQkq - 0 1", ""},
	{"winning", "", "6k5/12/12/6q5/12/12/5D6/6K5 w - - 0 1", ""},
	{"coldfusion", "", "", ""},
	{"easymate", "", "rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1", ""},
	{"easymate", "queencastle=both", "4k3/8/8/8/5b2/8/8/R2QK3 w KQkqHA - 0 1", "d1b1"},
}

// TestPerNodeOperationsAllocateNothing pins the contract package ai rests
// on (its zero allocations per node in steady state): for every variant
// key, with its default options and with each value of each option, from
// the start, positions of a seeded random game, and positions that reach
// the rare paths of the variants' rules, the work a search does at a node
// and its children (legal moves into a reused buffer, AfterInto, Hash,
// OutcomeNoMoves, InCheck, InsufficientMaterial, Strategy.Term) allocates
// nothing once warmed up.
func TestPerNodeOperationsAllocateNothing(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	names, variants := allocVariants(t)
	w := newNodeWork()
	check := func(name string, p Position, depth int) {
		t.Helper()
		if n := testing.AllocsPerRun(2, func() { w.visit(&p, depth) }); n != 0 {
			t.Errorf("%s: %v allocations for the work of a node and its descendants to depth %d at %s", name, n, depth, p.FEN())
		}
	}
	for i, v := range variants {
		for j, p := range allocPositions(v, uint64(i+1), 60, 4) {
			depth := 1
			if j%3 == 0 {
				depth = 2
			}
			check(names[i], p, depth)
		}
	}
	for _, c := range allocTrigger {
		v := mustVariantWith(t, c.key, c.options)
		p := v.Start()
		if c.fen != "" {
			p = mustFEN(t, v, c.fen)
		}
		p = mustPlay(t, p, c.moves)
		check(fmt.Sprintf("%s[%s]", c.key, c.options), p, 2)
	}
}

// BenchmarkPerNode reports the time and allocations of a node's work and
// its children's (nodeWork.visit to depth 2) over the start and the
// positions of a seeded random game of each variant key.
func BenchmarkPerNode(b *testing.B) {
	r, err := sharedRegistry()
	if err != nil {
		b.Fatal(err)
	}
	for i, k := range r.Keys() {
		v := r.Default(k)
		ps := allocPositions(v, uint64(i+1), 60, 10)
		b.Run(k, func(b *testing.B) {
			w := newNodeWork()
			b.ReportAllocs()
			for b.Loop() {
				for j := range ps {
					w.visit(&ps[j], 2)
				}
			}
		})
	}
}

// BenchmarkRarePaths reports the time and allocations of generating the
// legal moves (LegalInto) at the positions of allocTrigger.
func BenchmarkRarePaths(b *testing.B) {
	for _, c := range allocTrigger {
		v := mustVariantWith(b, c.key, c.options)
		p := v.Start()
		if c.fen != "" {
			p = mustFEN(b, v, c.fen)
		}
		p = mustPlay(b, p, c.moves)
		name := c.key
		if c.options != "" {
			name += "[" + c.options + "]"
		}
		b.Run(name+"/"+strings.Fields(p.FEN())[0][:8], func(b *testing.B) {
			buf := make([]Move, 0, 512)
			var scratch Position
			b.ReportAllocs()
			for b.Loop() {
				buf = p.LegalInto(buf[:0], &scratch)
			}
		})
	}
}

// BenchmarkHookPaths reports the time and allocations of the variants'
// code that looks ahead while moves are generated: whether a Winning
// Chess player has a legal regular move after a Defender pre-move out of
// check (winHasMove), Cold Fusion's extra moves (whose pocketings need a
// legal regular move: hasRegularMove) at the start, and easymate's extra
// moves (the re-placing captures) with a Queen attacked.
func BenchmarkHookPaths(b *testing.B) {
	win := mustFEN(b, mustVariant(b, "winning"), allocTrigger[1].fen)
	for _, m := range win.Legal(nil) {
		if m.Flags&FlagContinue != 0 && win.At(m.From).Type() == winDefender {
			win, _ = win.After(m)
			break
		}
	}
	if win.Phase() != winPhaseRegular {
		b.Fatalf("no Defender pre-move in %s", allocTrigger[1].fen)
	}
	b.Run("winning/winHasMove", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !winHasMove(&win) {
				b.Fatal("no legal move")
			}
		}
	})
	for _, c := range []struct{ name, key, fen string }{
		{"coldfusion/extraMoves", "coldfusion", ""},
		{"easymate/extraMoves", "easymate", allocTrigger[3].fen},
	} {
		v := mustVariant(b, c.key)
		p := v.Start()
		if c.fen != "" {
			p = mustFEN(b, v, c.fen)
		}
		b.Run(c.name, func(b *testing.B) {
			buf := make([]Move, 0, 512)
			b.ReportAllocs()
			for b.Loop() {
				buf = v.Hooks.ExtraMoves(&p, buf[:0])
			}
		})
	}
}

// TestRarePathsConcurrent checks that the positions of allocTrigger,
// whose moves are generated with working space the variant lends, give
// the same legal moves when many goroutines generate them at once. Run
// with -race.
func TestRarePathsConcurrent(t *testing.T) {
	for _, c := range allocTrigger {
		v := mustVariantWith(t, c.key, c.options)
		p := v.Start()
		if c.fen != "" {
			p = mustFEN(t, v, c.fen)
		}
		p = mustPlay(t, p, c.moves)
		want := p.Legal(nil)
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := make([]Move, 0, 512)
				var scratch Position
				for i := 0; i < 50; i++ {
					if buf = p.LegalInto(buf[:0], &scratch); !slices.Equal(buf, want) {
						t.Errorf("%s %s: concurrent generation gives %d moves, want %d", c.key, p.FEN(), len(buf), len(want))
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}
