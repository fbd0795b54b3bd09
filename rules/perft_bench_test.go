package rules

import "testing"

// benchPerft reports perft nodes per second for a position.
func benchPerft(b *testing.B, key, fen string, depth int) {
	r, err := NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	v := r.Default(key)
	p := v.Start()
	if fen != "" {
		if p, err = ParseFEN(v, fen); err != nil {
			b.Fatal(err)
		}
	}
	var nodes uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nodes += Perft(&p, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerftChessStart5(b *testing.B) { benchPerft(b, "chess", "", 5) }
func BenchmarkPerftGrandStart4(b *testing.B) { benchPerft(b, "grand", "", 4) }
