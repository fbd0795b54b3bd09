package ai

import (
	"context"
	"testing"

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
