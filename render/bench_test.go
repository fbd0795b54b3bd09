package render

import (
	"bytes"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// benchPosition is a middlegame of variant key: the start position after
// some legal moves, with the last move marked (as the bot draws it).
func benchPosition(b *testing.B, reg *rules.Registry, key string, plies int) (rules.Position, []Option) {
	b.Helper()
	g := playout(b, reg.Default(key), plies, 1)
	n := len(g.Moves())
	return g.Position(), []Option{Previous(g.PositionAt(n - 1)), Outcome(g.Outcome())}
}

// playout plays up to plies legal moves from v's start, choosing each by a
// fixed pseudo-random sequence from seed, and stops early only when the
// game ends.
func playout(tb testing.TB, v *rules.Variant, plies int, seed uint64) *rules.Game {
	tb.Helper()
	g := rules.NewGame(v.Start())
	x := seed*0x9E3779B97F4A7C15 + 1
	for len(g.Moves()) < plies {
		moves := g.Legal()
		if len(moves) == 0 {
			break
		}
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if err := g.Play(moves[x%uint64(len(moves))]); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

// BenchmarkPNG draws an 800 px board and encodes it as a PNG: an 8x8 board
// (chess, and crazyhouse with pockets), the 12x8 board of Winning Chess
// (when it is registered) and a 12x12 board. The bytes metric is the size
// of one image.
func BenchmarkPNG(b *testing.B) {
	reg := newTestRegistry(b)
	r := newTestRenderer(b)
	for _, c := range []struct{ name, key string }{
		{"8x8", "chess"},
		{"8x8-pockets", "crazyhouse"},
		{"12x8", "winning"},
		{"12x12", "fusiontest"},
	} {
		b.Run(c.name, func(b *testing.B) {
			if reg.Default(c.key) == nil {
				b.Skipf("variant %s is not registered", c.key)
			}
			p, opts := benchPosition(b, reg, c.key, 30)
			var buf bytes.Buffer
			if err := r.PNG(&buf, p, opts...); err != nil { // warm the caches
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				buf.Reset()
				if err := r.PNG(&buf, p, opts...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

// BenchmarkGIF writes the GIF of a 60-move (120-ply) chess game at 800 and
// 480 px.
func BenchmarkGIF(b *testing.B) {
	reg := newTestRegistry(b)
	r := newTestRenderer(b)
	var g *rules.Game
	for seed := uint64(1); ; seed++ {
		if g = playout(b, reg.Default("chess"), 120, seed); len(g.Moves()) == 120 {
			break
		}
	}
	for _, size := range []int{800, 480} {
		b.Run(map[int]string{800: "800px", 480: "480px"}[size], func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := r.GIF(&buf, g, Size(size)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
			b.ReportMetric(float64(len(g.Moves())+1), "frames")
		})
	}
}

// longGame returns a game of variant key of exactly plies plies: random
// legal moves, avoiding those that would end the game (a mate, a draw by
// repetition or by the move count), so that the game lasts.
func longGame(tb testing.TB, reg *rules.Registry, key string, plies int) *rules.Game {
	tb.Helper()
	v := reg.Default(key)
	g := rules.NewGame(v.Start())
	start := g.Position()
	seen := map[uint64]int{start.Hash(): 1}
	x := uint64(0x9E3779B97F4A7C15)
	for len(g.Moves()) < plies {
		moves := g.Legal()
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		played := false
		for k := range moves {
			m := moves[(x+uint64(k))%uint64(len(moves))]
			cur := g.Position()
			next, err := cur.Play(m)
			if err != nil {
				tb.Fatal(err)
			}
			if next.Outcome().Over() || (v.RepetitionAuto > 0 && seen[next.Hash()]+1 >= v.RepetitionAuto) {
				continue
			}
			if err := g.Play(m); err != nil {
				tb.Fatal(err)
			}
			seen[next.Hash()]++
			played = true
			break
		}
		if !played {
			tb.Fatalf("%s: no move keeps the game going after %d plies", key, len(g.Moves()))
		}
	}
	return g
}

// BenchmarkGIFLong writes the GIF of long crazyhouse games (300 and 3,000
// plies) at the bot's default GIF width (400 px) and of the 300-ply game at
// MaxSize: the cost of the game-over notification of a long game. The
// bytes, frames and px (width) metrics describe the GIF written.
func BenchmarkGIFLong(b *testing.B) {
	reg := newTestRegistry(b)
	r := newTestRenderer(b)
	games := map[int]*rules.Game{300: longGame(b, reg, "crazyhouse", 300), 3000: longGame(b, reg, "crazyhouse", 3000)}
	for _, c := range []struct {
		name        string
		plies, size int
	}{
		{"300ply-400px", 300, 400},
		{"3000ply-400px", 3000, 400},
		{"300ply-2400px", 300, MaxSize},
	} {
		b.Run(c.name, func(b *testing.B) {
			g := games[c.plies]
			var buf bytes.Buffer
			var info GIFInfo
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				var err error
				if info, err = r.WriteGIF(&buf, g, Size(c.size)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
			b.ReportMetric(float64(info.Frames), "frames")
			b.ReportMetric(float64(info.Width), "px")
		})
	}
}
