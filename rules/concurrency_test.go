package rules

import (
	"slices"
	"sync"
	"testing"
)

// TestConcurrentUse pins the concurrency contract: a Position is a value
// that many goroutines may read and play from at once (Legal, Play,
// Outcome, FEN never change it), and the Registry builds each variant and
// option combination once even when asked concurrently. Run with -race.
func TestConcurrentUse(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range r.Keys() {
		v := r.Default(key)
		p := v.Start()
		fen := p.FEN()
		want := legalTexts(&p)
		var wg sync.WaitGroup
		variants := make([]*Variant, 8)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				got, err := r.Variant(key, "")
				if err != nil {
					t.Error(err)
					return
				}
				variants[g] = got
				for i, m := range p.Legal(nil) {
					if i%(g+1) != 0 {
						continue
					}
					next, err := p.Play(m)
					if err != nil {
						t.Errorf("%s: Play(%s): %v", key, FormatMove(&p, m), err)
						return
					}
					_ = next.Outcome()
				}
				if got := legalTexts(&p); !slices.Equal(got, want) {
					t.Errorf("%s: legal moves changed under concurrent use", key)
				}
			}(g)
		}
		wg.Wait()
		if p.FEN() != fen {
			t.Errorf("%s: the shared position changed: %s", key, p.FEN())
		}
		for _, got := range variants {
			if got != v {
				t.Errorf("%s: the registry built the default variant twice", key)
				break
			}
		}
	}
}
