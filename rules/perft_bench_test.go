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

// TestOutcomeNoMoves checks that OutcomeNoMoves agrees with Outcome on
// positions without legal moves: checkmate, stalemate (a draw, and a loss
// where stalemate loses) and a variant's own end.
func TestOutcomeNoMoves(t *testing.T) {
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, fen string }{
		{"chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"},
		{"chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},
		{"trainwreck", "7K/8/6P1/8/3p4/3P4/8/k7 b - - 0 1"},
		{"annihilation", "8/8/8/8/4P3/8/8/4K3[q] b - - 0 1"},
	} {
		p, err := ParseFEN(reg.Default(c.key), c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(p.Legal(nil)); n != 0 {
			t.Fatalf("%s %s: %d legal moves, want none", c.key, c.fen, n)
		}
		if got, want := p.OutcomeNoMoves(), p.Outcome(); got != want || !got.Over() {
			t.Errorf("%s %s: OutcomeNoMoves %+v, Outcome %+v", c.key, c.fen, got, want)
		}
	}
}
