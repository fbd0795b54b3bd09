package rules

import "testing"

// TestPreGame pins Variant.PreGame: Crazyhouse Annihilation (with any
// options) offers its random start and normalisation through it, so that
// shared code can run the pre-game choice without knowing the variant;
// every other variant has none.
func TestPreGame(t *testing.T) {
	r, err := sharedRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range r.Keys() {
		if v := r.Default(key); (v.PreGame != nil) != (key == "annihilation") {
			t.Errorf("%s: PreGame %v", key, v.PreGame)
		}
	}
	for _, options := range []string{"", "dropcapture=on"} {
		v := mustVariantWith(t, "annihilation", options)
		pg := v.PreGame
		if pg == nil || pg.Start == nil || pg.Normalize == nil {
			t.Fatalf("annihilation [%s]: PreGame %+v", options, pg)
		}
		distinct := map[string]bool{}
		for _, seed := range []uint64{0, 1, 42, 1 << 63, ^uint64(0)} {
			p := pg.Start(seed)
			if p.Variant() != v {
				t.Errorf("seed %d: the start is a position of %q [%s], not of the variant asked", seed, p.Variant().Key, options)
			}
			if want := AnnihilationStart(v, seed); p.FEN() != want.FEN() {
				t.Errorf("seed %d: Start %s, AnnihilationStart %s", seed, p.FEN(), want.FEN())
			}
			if again := pg.Start(seed); again.FEN() != p.FEN() {
				t.Errorf("seed %d: Start is not deterministic: %s then %s", seed, p.FEN(), again.FEN())
			}
			distinct[p.FEN()] = true
			for _, c := range []Color{White, Black} {
				n := pg.Normalize(p, c)
				if want := AnnihilationNormalize(p, c); n.FEN() != want.FEN() {
					t.Errorf("seed %d, %s first: Normalize %s, AnnihilationNormalize %s", seed, c, n.FEN(), want.FEN())
				}
				if n.ToAct() != White {
					t.Errorf("seed %d, %s first: %s to act after normalising", seed, c, n.ToAct())
				}
			}
		}
		if len(distinct) < 4 {
			t.Errorf("five seeds gave only %d distinct starts", len(distinct))
		}
	}
}
