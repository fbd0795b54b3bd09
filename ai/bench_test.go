package ai

import (
	"context"
	"testing"
	"time"

	"github.com/fairypost/fairypost/rules"
)

// BenchmarkSearch reports nodes per second of a fixed-budget search from
// the start position of each variant, with real legality and evaluation.
func BenchmarkSearch(b *testing.B) {
	reg, err := rules.NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range reg.Keys() {
		v := reg.Default(k)
		b.Run(k, func(b *testing.B) {
			e := NewEngine(Options{Nodes: 20000, Spread: -1})
			ctx := context.Background()
			var nodes int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := e.Search(ctx, v.Start(), nil)
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkDepthTimed reports the depth the top level reaches in its
// default 2 s from the start position and from a middlegame position (the
// start after 16 moves of level 1) of each variant, and by how much the
// search overran its time (it must stay within 5%). Run it alone with
// -benchtime 1x: each search takes 2 s.
func BenchmarkDepthTimed(b *testing.B) {
	reg, err := rules.NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range reg.Keys() {
		v := reg.Default(k)
		start := v.Start()
		if v.PreGame != nil {
			start = v.PreGame.Normalize(v.PreGame.Start(1), rules.White)
		}
		g := rules.NewGame(start)
		opener := NewEngine(Options{Level: 1, Seed: 1})
		for len(g.Moves()) < 16 && !g.Outcome().Over() {
			r, err := opener.Search(context.Background(), g.Position(), nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := g.Play(r.Move); err != nil {
				b.Fatal(err)
			}
		}
		for _, c := range []struct {
			name string
			pos  rules.Position
		}{{"start", start}, {"middlegame", g.Position()}} {
			b.Run(k+"/"+c.name, func(b *testing.B) {
				var depth, over float64
				for i := 0; i < b.N; i++ {
					e := NewEngine(Options{Level: TopLevel})
					t0 := time.Now()
					r, err := e.Search(context.Background(), c.pos, nil)
					if err != nil {
						b.Fatal(err)
					}
					depth += float64(r.Depth)
					over = max(over, 100*(time.Since(t0).Seconds()/DefaultMoveTime.Seconds()-1))
				}
				b.ReportMetric(depth/float64(b.N), "depth")
				b.ReportMetric(over, "%over")
			})
		}
	}
}
