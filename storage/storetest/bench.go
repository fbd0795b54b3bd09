package storetest

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// BenchCommitMove measures one move committed as package bot commits it:
// UpdateGame with a version check appending a move, the cached position,
// the clock and a your-turn notification. Moves go round a pool of
// games, each played up to 100 plies, so records have the sizes of real
// games. Besides ns/op it reports the latency of one commit: the median
// (p50-us), p90-us and p99-us in microseconds, so backends compare by
// their spread too.
func BenchCommitMove(b *testing.B, s gameplay.Stores) {
	const plies = 100
	ctx := b.Context()
	type state struct {
		id, version uint64
		ply         int
	}
	games := make([]state, b.N/plies+1)
	for i := range games {
		c := challenge(fmt.Sprint("user", i%100), fmt.Sprint("user", (i+1)%100), "c1", T0)
		if err := s.Challenges.CreateChallenge(ctx, c, nil); err != nil {
			b.Fatal(err)
		}
		_, g, err := s.Challenges.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
			c.Status = bot.ChallengeAccepted
			return bot.ChallengeChange{Game: newGame(c.Challenger, c.Challenged, "c1")}, nil
		})
		if err != nil {
			b.Fatal(err)
		}
		games[i] = state{id: g.ID, version: g.Version}
	}
	// A FEN of the usual length, a different one after each move.
	fen := func(ply int) string {
		return fmt.Sprintf("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - %d %d", ply%50, ply/2+1)
	}
	lat := make([]time.Duration, 0, b.N)
	now := T0
	b.ResetTimer()
	for i := range b.N {
		st := &games[i%len(games)]
		now = now.Add(time.Second)
		move, after := fmt.Sprintf("%c%d%c%d", 'a'+st.ply%8, 1+st.ply%8, 'h'-st.ply%8, 8-st.ply%8), fen(st.ply+1)
		start := time.Now()
		g, err := s.Games.UpdateGame(ctx, st.id, st.version, func(g *bot.Game) ([]bot.Notification, error) {
			g.Moves = append(g.Moves, move)
			g.FEN, g.ToAct = after, g.Player(len(g.Moves)%2 == 0)
			g.Updated, g.TurnStarted, g.Deadline, g.Reminded = now, now, now.Add(72*time.Hour), false
			return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: g.ToAct, GameID: g.ID, Text: "Your move.", Created: now}}, nil
		})
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		st.version, st.ply = g.Version, st.ply+1
	}
	b.StopTimer()
	slices.Sort(lat)
	at := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(at(0.5), "p50-us")
	b.ReportMetric(at(0.9), "p90-us")
	b.ReportMetric(at(0.99), "p99-us")
}

// BenchCommitMoveParallel measures moves committed at once by many
// players: 32 goroutines (SetParallelism 16 on 2 cores: more with more
// cores), each moving in games of its own with a version check, as
// BenchCommitMove does. ns/op is the inverse of the throughput; it also
// reports moves/s and the latency of one commit (p50-us, p99-us). A
// store that groups concurrent commits into one disk sync gains here.
func BenchCommitMoveParallel(b *testing.B, s gameplay.Stores) {
	const gamesEach = 4
	ctx := b.Context()
	b.SetParallelism(16)
	workers := 16 * runtime.GOMAXPROCS(0)
	type state struct{ id, version uint64 }
	games := make([][]state, workers)
	for w := range games {
		for i := range gamesEach {
			c := challenge(fmt.Sprint("p", w), fmt.Sprint("q", i), "c1", T0)
			if err := s.Challenges.CreateChallenge(ctx, c, nil); err != nil {
				b.Fatal(err)
			}
			_, g, err := s.Challenges.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
				c.Status = bot.ChallengeAccepted
				return bot.ChallengeChange{Game: newGame(c.Challenger, c.Challenged, "c1")}, nil
			})
			if err != nil {
				b.Fatal(err)
			}
			games[w] = append(games[w], state{g.ID, g.Version})
		}
	}
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		mine := games[int(next.Add(1)-1)%workers]
		var own []time.Duration
		for i := 0; pb.Next(); i++ {
			st := &mine[i%len(mine)]
			now := T0.Add(time.Duration(i) * time.Second)
			t := time.Now()
			g, err := s.Games.UpdateGame(ctx, st.id, st.version, func(g *bot.Game) ([]bot.Notification, error) {
				g.Moves = append(g.Moves, "e2e4")
				g.ToAct = g.Player(len(g.Moves)%2 == 0)
				g.Updated, g.TurnStarted, g.Deadline = now, now, now.Add(72*time.Hour)
				return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: g.ToAct, GameID: g.ID, Text: "Your move.", Created: now}}, nil
			})
			own = append(own, time.Since(t))
			if err != nil {
				b.Error(err)
				return
			}
			st.version = g.Version
		}
		mu.Lock()
		lat = append(lat, own...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "moves/s")
	b.ReportMetric(at(0.5), "p50-us")
	b.ReportMetric(at(0.99), "p99-us")
}
