package rules

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// effectText writes e for comparison: the kind, then the motions
// (a '*' after a moved piece's), the removed squares (with the direction
// of a push off the board, and the hand a piece went to), the placed
// squares and the size of a blast's area.
func effectText(e MoveEffect) string {
	parts := []string{e.Kind.String()}
	for _, mo := range e.Motions {
		s := mo.From.String() + "-" + mo.To.String()
		if mo.Main {
			s += "*"
		}
		parts = append(parts, s)
	}
	for _, r := range e.Removed {
		s := "x" + r.Square.String()
		if r.Off() {
			s += fmt.Sprintf("(off %d,%d)", r.OffFile, r.OffRank)
		}
		if r.Hand != NoColor {
			s += "(to " + r.Hand.String() + ")"
		}
		parts = append(parts, s)
	}
	for _, s := range e.Placed {
		parts = append(parts, "@"+s.String())
	}
	if len(e.Area) > 0 {
		parts = append(parts, fmt.Sprintf("area %d", len(e.Area)))
	}
	return strings.Join(parts, " ")
}

// TestEffect pins what each kind of move says it did: a swap is two
// moved pieces changing places (not a push), a push moves the line and
// pushes the last piece off the board, a blast removes its area, and the
// other kinds as a picture must draw them.
func TestEffect(t *testing.T) {
	for _, c := range []struct {
		name, variant, options, fen, moves, move, want string
	}{
		{name: "Winning swap along the rank", variant: "winning", move: "h1g1",
			want: "swap h1-g1* g1-h1*"},
		{name: "Winning swap on the diagonal", variant: "winning", moves: "h2h3 h7h6 h1h2>", move: "h2g1",
			want: "swap h2-g1* g1-h2*"},
		{name: "Tank push off the board", variant: "tank", fen: "4k3/8/8/8/8/8/8/4KTnn w - - 0 1", move: "f1g1",
			want: "push f1-g1* g1-h1 xh1(off 1,0)"},
		{name: "Tank push of a line", variant: "tank", fen: "mnbakbnt/ppp2ppp/8/3pp3/4P3/4T3/PPPP1PPP/MNBAK1N1 w - - 0 1", move: "e3e4",
			want: "push e3-e4* e4-e5 e5-e6"},
		{name: "Bomb blast", variant: "tank", fen: "mnbakbnt/pppp1ppp/8/3np3/3MP3/8/PPPP1PPP/1NBAKBNT w - - 0 1", move: "d4d4",
			want: "blast xd4 xe4 xd5 xe5 area 9"},
		{name: "Atomic blast at the edge", variant: "tank", fen: "4k3/8/8/8/8/8/8/A3K3 w - - 0 1", move: "a1a1",
			want: "blast xa1 area 9"},
		{name: "castling moves the Rook along", variant: "chess", moves: "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", move: "e1g1",
			want: "castling e1-g1* h1-f1"},
		{name: "en passant", variant: "chess", moves: "e2e4 g8f6 e4e5 d7d5", move: "e5d6",
			want: "en passant e5-d6* xd5"},
		{name: "capture into hand", variant: "crazyhouse", moves: "e2e4 d7d5", move: "e4d5",
			want: "move e4-d5* xd5(to white)"},
		{name: "drop", variant: "crazyhouse", moves: "e2e4 d7d5 e4d5 d8d5", move: "P@e4",
			want: "drop @e4"},
		{name: "Annihilation drop-capture", variant: "annihilation", options: "dropcapture=on",
			moves: "e2e4 d7d5 e4d5 g8f6 b1c3 f6d5", move: "P@xd5",
			want: "drop capture xd5(to white) @d5"},
		{name: "Easy Mate: the captured Queen put back", variant: "easymate",
			fen: "4k3/8/8/8/7q/8/8/4K2R w - - 0 1", move: "h1h4@d8",
			want: "move h1-h4* xh4 @d8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := mustVariantWith(t, c.variant, c.options)
			p := v.Start()
			if c.fen != "" {
				p = mustFEN(t, v, c.fen)
			}
			p = mustPlay(t, p, c.moves)
			m, err := ParseMove(&p, c.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := effectText(p.Effect(m)); got != c.want {
				t.Errorf("effect of %s: %q, want %q", c.move, got, c.want)
			}
		})
	}
}

// TestEffectColdFusion: a fusion moves one man onto the other, a split
// moves a part off a man that stays, a pocketing sends a man to its
// owner's hand; each says so.
func TestEffectColdFusion(t *testing.T) {
	v := mustVariant(t, "coldfusion")
	p := v.Start()
	found := map[EffectKind]string{}
	var walk func(p Position, depth int)
	walk = func(p Position, depth int) {
		for _, m := range p.Legal(nil) {
			if m.Kind != KindSpecial {
				continue
			}
			e := p.Effect(m)
			if _, ok := found[e.Kind]; !ok {
				found[e.Kind] = FormatMove(&p, m) + ": " + effectText(e)
				checkSplitOrFusion(t, &p, m, e)
			}
		}
		if depth > 0 {
			for _, m := range p.Legal(nil)[:3] {
				next, _ := p.After(m)
				walk(next, depth-1)
			}
		}
	}
	walk(p, 2)
	for _, k := range []EffectKind{EffectFusion, EffectSplit, EffectPocket} {
		if found[k] == "" {
			t.Errorf("no Cold Fusion move near the start has the effect %s (found %v)", k, found)
		}
	}
}

// checkSplitOrFusion checks the effect e of m in p against the board
// after it: a fusion leaves From empty and To occupied by one piece, a
// split leaves a piece on both, a pocketing empties From into the
// mover's hand.
func checkSplitOrFusion(t *testing.T, p *Position, m Move, e MoveEffect) {
	t.Helper()
	after, _ := p.After(m)
	switch e.Kind {
	case EffectFusion:
		if len(e.Motions) != 1 || after.At(m.From) != NoPiece || after.At(m.To) == NoPiece {
			t.Errorf("fusion %s: %s", FormatMove(p, m), effectText(e))
		}
	case EffectSplit:
		if len(e.Motions) != 1 || after.At(m.From) == NoPiece || after.At(m.To) == NoPiece {
			t.Errorf("split %s: %s", FormatMove(p, m), effectText(e))
		}
	case EffectPocket:
		if len(e.Removed) != 1 || e.Removed[0].Hand != p.Mover() || after.At(m.From) != NoPiece {
			t.Errorf("pocketing %s: %s", FormatMove(p, m), effectText(e))
		}
	}
}

// TestEffectAccountsForTheBoard plays seeded random games of every
// variant (each option value too) and checks every legal move's effect
// against the board it leads to: the squares it empties and fills are
// exactly the squares whose occupancy changed, a split leaving its man
// on From, and no move but a pass has an effect of nothing.
func TestEffectAccountsForTheBoard(t *testing.T) {
	reg, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range reg.Keys() {
		optionSets := []string{""}
		for _, o := range reg.Default(key).Options {
			for _, val := range o.Values[1:] {
				optionSets = append(optionSets, o.Key+"="+val)
			}
		}
		for _, opts := range optionSets {
			v := mustVariantWith(t, key, opts)
			rng := rand.New(rand.NewPCG(7, uint64(len(key))))
			for game := 0; game < 3; game++ {
				p := v.Start()
				for ply := 0; ply < 60; ply++ {
					moves := p.Legal(nil)
					if len(moves) == 0 {
						break
					}
					for _, m := range moves {
						if msg := effectMismatch(&p, m); msg != "" {
							t.Fatalf("%s %s, %s in %s: %s", key, opts, FormatMove(&p, m), p.FEN(), msg)
						}
					}
					p, _ = p.After(moves[rng.IntN(len(moves))])
				}
			}
		}
	}
}

// effectMismatch returns what is wrong with the effect of m in p, or "":
// Position.Effect must account for the board, and the variant's own
// description of a special move (its hook, before Effect completes it)
// must too.
func effectMismatch(p *Position, m Move) string {
	after, _ := p.After(m)
	if m.Kind == KindSpecial {
		if msg := occupancyMismatch(p, &after, p.specialEffect(&after, m)); msg != "" {
			return "the variant's Effect hook: " + msg
		}
	}
	e := p.Effect(m)
	if e.Kind == EffectNone || (e.Kind == EffectPass) != (m.Kind == KindPass) {
		return "effect " + effectText(e)
	}
	return occupancyMismatch(p, &after, e)
}

// occupancyMismatch returns the first square whose occupancy after the
// move differs from what e says, or "".
func occupancyMismatch(p, after *Position, e MoveEffect) string {
	occ := e.occupied(p)
	for _, s := range p.v.Squares() {
		if occ[s] != (after.At(s) != NoPiece) {
			return fmt.Sprintf("%s: the effect %q leaves it %v", s, effectText(e), occ[s])
		}
	}
	return ""
}
