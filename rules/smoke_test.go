package rules

import "testing"

func TestSmokePerft(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, fen string
		want     []uint64
	}{
		{"chess", "", []uint64{20, 400, 8902, 197281}},
		{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []uint64{48, 2039, 97862}},
		{"crazyhouse", "", []uint64{20, 400, 8902, 197281}},
		{"grand", "", []uint64{65, 4225, 259514}},
	} {
		v := r.Default(c.key)
		p := v.Start()
		if c.fen != "" {
			p, err = ParseFEN(v, c.fen)
			if err != nil {
				t.Fatal(err)
			}
		}
		for d, w := range c.want {
			if got := Perft(&p, d+1); got != w {
				t.Errorf("%s %s depth %d: got %d want %d", c.key, c.fen, d+1, got, w)
			}
		}
	}
}
