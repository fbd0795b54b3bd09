package rules

import (
	"math/rand/v2"
	"testing"
)

// randomGame plays up to plies seeded random legal moves of variant key
// from its start and returns the start and the moves' canonical texts.
// Games that end early are restarted with the next seed, so the result
// has exactly plies moves unless the variant's games never get that long
// (then the longest game found within 50 tries).
func randomGame(tb testing.TB, r *Registry, key string, plies int) (Position, []string) {
	tb.Helper()
	v := r.Default(key)
	var best []string
	for seed := uint64(1); seed <= 50 && len(best) < plies; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		g := NewGame(v.Start())
		var texts []string
		for len(texts) < plies {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			p := g.Position()
			texts = append(texts, FormatMove(&p, m))
			if err := g.Play(m); err != nil {
				tb.Fatal(err)
			}
		}
		if len(texts) > len(best) {
			best = texts
		}
	}
	return v.Start(), best
}

// replayByParse is the replay the bot did before Replay: ParseMove then
// Game.Play for every stored move.
func replayByParse(start Position, texts []string) (*Game, error) {
	g := NewGame(start)
	for _, text := range texts {
		p := g.Position()
		m, err := ParseMove(&p, text)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, err
		}
	}
	return g, nil
}

// BenchmarkReplay300 replays a 300-ply random game of every variant from
// its canonical move texts (shorter where random games end sooner: the
// plies metric says how long): Replay, and the ParseMove + Game.Play loop
// it replaced.
func BenchmarkReplay300(b *testing.B) {
	r, err := NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	for _, key := range r.Keys() {
		start, texts := randomGame(b, r, key, 300)
		b.Run(key+"/Replay", func(b *testing.B) {
			for b.Loop() {
				if _, err := Replay(start, texts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(texts)), "plies")
		})
		b.Run(key+"/ParseAndPlay", func(b *testing.B) {
			for b.Loop() {
				if _, err := replayByParse(start, texts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(texts)), "plies")
		})
	}
}
