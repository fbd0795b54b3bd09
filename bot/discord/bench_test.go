package discord_test

import (
	"slices"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// BenchmarkMove measures /move end to end through discordgo and the fake
// Discord: the interaction sent over the gateway, option conversion, game
// resolution, validation by the rules engine, the bbolt commit, the board
// rendered at the default size, and the response with the PNG received by
// the fake. Games of chess are played with legal moves (a new game after
// 80 plies or at the end). It reports the median and the 99th percentile
// of the latencies.
func BenchmarkMove(b *testing.B) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, b.TempDir()+"/bench.db", newClock(), command.DefaultBoardSize)
	if err != nil {
		b.Fatal(err)
	}
	defer h.stop()
	u := h.users(b, "alice", "bob")
	var g *bot.Game
	var thread string
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if g == nil || g.Status != bot.GameActive || len(g.Moves) >= 80 {
			if g != nil && g.Status == bot.GameActive {
				h.slash(b, g.White, thread, "resign")
			}
			g, thread = h.start(b, h.channel(b), u[0], u[1], "chess")
		}
		legal := h.legal(b, g)
		mv := legal[(i*7)%len(legal)]
		b.StartTimer()
		start := time.Now()
		ix, err := srv.Slash(g.ToAct, thread, "move", discordtest.String("move", mv))
		if err != nil {
			b.Fatal(err)
		}
		m := h.shown(b, ix)
		lat = append(lat, time.Since(start))
		b.StopTimer()
		if m.Ephemeral || len(m.Files) == 0 {
			b.Fatalf("move %s: %q", mv, m.Content)
		}
		g = h.game(b, g.ID)
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
	}
}
