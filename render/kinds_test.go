package render

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// moveKinds names, for the golden images' coverage, the kinds of the
// move m of p as an image draws it, each prefixed with the variant's
// key: what the variant says the move did (rules.Position.Effect) unless
// it is a plain move, the heading the variant lists a special move under
// (Hooks.SpecialKind), and whether it puts a piece back, promotes, goes
// on ('>'), moves the opponent's pieces, or is the opponent's answer
// inside a turn (answer). Every such kind of every registered variant has
// a golden image (TestGoldenCoversEveryMoveKind).
func moveKinds(p *rules.Position, m rules.Move, answer bool) []string {
	v := p.Variant()
	e := p.Effect(m)
	var kinds []string
	if e.Kind != rules.EffectMove {
		kinds = append(kinds, e.Kind.String())
	}
	if m.Kind == rules.KindSpecial && v.Hooks.SpecialKind != nil {
		if h := v.Hooks.SpecialKind(p, m); h != "" {
			kinds = append(kinds, "«"+h+"»")
		}
	}
	if e.Kind == rules.EffectMove && len(e.Placed) > 0 {
		kinds = append(kinds, "puts a piece back")
	}
	if m.Promotion != rules.NoPieceType {
		kinds = append(kinds, "promotion")
	}
	if m.Flags&rules.FlagContinue != 0 {
		kinds = append(kinds, "goes on (>)")
	}
	if p.Mover() != p.ToAct() {
		kinds = append(kinds, "with the opponent's pieces")
	}
	if answer {
		kinds = append(kinds, "answer in the opponent's turn")
	}
	for i := range kinds {
		kinds[i] = v.Key + ": " + kinds[i]
	}
	return kinds
}

// kindExample is a position and one of its legal moves of some kind.
type kindExample struct {
	options, fen, move string
}

// variantKinds returns every move kind (moveKind) of every variant of
// reg but the render test's own, with an example of each: the kinds of
// the legal moves in the start position and in the positions of the
// variant's help examples, and in seeded random games, of the variant
// with its default options and with each other value of each option.
func variantKinds(tb testing.TB, reg *rules.Registry) map[string]kindExample {
	tb.Helper()
	kinds := map[string]kindExample{}
	collect := func(p *rules.Position, owner rules.Color, options string) {
		for _, m := range p.Legal(nil) {
			if m.Kind == rules.KindPass {
				continue // a pass changes nothing an image shows
			}
			for _, k := range moveKinds(p, m, p.ToAct() != owner) {
				if _, ok := kinds[k]; !ok {
					kinds[k] = kindExample{options: options, fen: p.FEN(), move: notation.SAN(p, m)}
				}
			}
		}
	}
	for _, key := range reg.Keys() {
		if key == "fusiontest" {
			continue
		}
		optionSets := []string{""}
		for _, o := range reg.Default(key).Options {
			for _, val := range o.Values[1:] {
				optionSets = append(optionSets, o.Key+"="+val)
			}
		}
		for _, opts := range optionSets {
			v, err := reg.Variant(key, opts)
			if err != nil {
				tb.Fatal(err)
			}
			var starts []rules.Position
			starts = append(starts, v.Start())
			for _, h := range v.Help.Notation {
				hv, err := reg.Variant(key, h.Options)
				if err != nil || hv != v && h.Options != opts {
					continue
				}
				g := goldenCase{name: key + " help " + h.Example, variant: key, variantOptions: h.Options, fen: h.FEN, moves: h.Moves}.play(tb, reg)
				starts = append(starts, g.Position())
			}
			rng := rand.New(rand.NewPCG(24, uint64(len(key)+len(opts))))
			for _, start := range starts {
				for game := 0; game < 3; game++ {
					p := start
					owner := p.ToAct()
					for ply := 0; ply < 120; ply++ {
						if p.BeginsTurn() {
							owner = p.ToAct()
						}
						collect(&p, owner, opts)
						moves := p.Legal(nil)
						if len(moves) == 0 || p.Outcome().Over() {
							break
						}
						p, _ = p.After(moves[rng.IntN(len(moves))])
					}
				}
			}
		}
	}
	return kinds
}

// drawnKinds returns the move kinds the golden image of c draws: its
// last move, or every move of its last turn.
func (c goldenCase) drawnKinds(tb testing.TB, reg *rules.Registry) []string {
	g := c.play(tb, reg)
	n := len(g.Moves())
	if n == 0 {
		return nil
	}
	first := n - 1
	if c.turn {
		first = g.LastTurn()
	}
	turnStart := g.PositionAt(g.LastTurn())
	owner := turnStart.ToAct()
	var out []string
	for i := first; i < n; i++ {
		p := g.PositionAt(i)
		if m := g.Moves()[i]; m.Kind != rules.KindPass {
			out = append(out, moveKinds(&p, m, p.ToAct() != owner)...)
		}
	}
	return out
}

// TestGoldenCoversEveryMoveKind fails when a kind of move of a
// registered variant, as the variants themselves generate them
// (variantKinds), is drawn by no golden image: a new special move, or a
// new variant, needs a golden case that shows it, so that a misdrawn
// kind fails TestGolden.
func TestGoldenCoversEveryMoveKind(t *testing.T) {
	reg := newTestRegistry(t)
	covered := map[string]bool{}
	for _, c := range goldenCases(reg) {
		if c.variant == "fusiontest" {
			continue
		}
		for _, k := range c.drawnKinds(t, reg) {
			covered[k] = true
		}
	}
	kinds := variantKinds(t, reg)
	var missing []string
	for k, ex := range kinds {
		if !covered[k] {
			missing = append(missing, fmt.Sprintf("%s; e.g. goldenCase{name: %q, variant: %q, variantOptions: %q, fen: %q, moves: %q, size: 400}",
				k, "", strings.SplitN(k, ":", 2)[0], ex.options, ex.fen, ex.move))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no golden image draws the move kind %s", m)
	}
	if len(kinds) < 40 {
		t.Errorf("only %d move kinds found in the registered variants: the search for them is broken", len(kinds))
	}
	t.Logf("%d move kinds in the registered variants, %d of them without a golden image", len(kinds), len(missing))
}
