package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// directFront connects one process to the fake as it is: one unsharded
// session that receives every interaction.
type directFront struct{ srv *discordtest.Server }

func (f directFront) config(int) string                        { return fmt.Sprintf("api_url = %q\n", f.srv.URL()) }
func (directFront) setLive(int, bool)                          {}
func (directFront) isLive(int) bool                            { return true }
func (directFront) owner(*discordtest.Interaction) (int, bool) { return 0, true }
func (directFront) started(int, string)                        {}
func (directFront) restarts() bool                             { return false }
func (directFront) close()                                     {}

// loadEnv is a fleet of bot processes on a store, the fake Discord with
// guilds and users, and a player: what the load benchmarks measure.
type loadEnv struct {
	srv      *discordtest.Server
	fleet    *fleet
	player   *player
	channels []string
	store    *etcdstore.Store // nil on bbolt
	lead     func(context.Context) (string, error)
}

// newLoadEnv starts procs processes of bin on bbolt (procs must be 1) or
// on a three-member etcd cluster, with users for games games, and waits
// until they run.
func newLoadEnv(b *testing.B, bin, backend string, procs, games int, mkFront func(*discordtest.Server, int) front) *loadEnv {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := discordtest.New()
	b.Cleanup(srv.Close)
	e := &loadEnv{srv: srv}
	for g := range 6 {
		guild, channel := fmt.Sprint(uint64(g+4)<<22), fmt.Sprint(uint64(g+4)<<22+1)
		srv.AddGuild(guild, fmt.Sprint("club ", g))
		srv.AddChannel(guild, channel, "games")
		e.channels = append(e.channels, channel)
	}
	for i := range 2 * games {
		srv.AddUser(fmt.Sprint(30000+i), fmt.Sprint("player", i))
	}
	f := mkFront(srv, procs)
	b.Cleanup(f.close)
	dir := b.TempDir()
	var storage string
	var read gameReader
	switch backend {
	case backendBolt:
		storage = fmt.Sprintf("[storage]\npath = %q\n", filepath.Join(dir, "bot.db"))
	default:
		c := etcdtest.Start(b, 3, etcdtest.Options{Fsync: true})
		eps := make([]string, len(c.Endpoints))
		for i, ep := range c.Endpoints {
			eps[i] = fmt.Sprintf("%q", ep)
		}
		storage = fmt.Sprintf("[storage]\nbackend = \"etcd\"\npath = \"unused.db\"\n[storage.etcd]\nendpoints = [%s]\nprefix = \"load/\"\nleader_ttl = \"1s\"\nelection_timeout = \"100ms\"\n",
			strings.Join(eps, ", "))
		s, err := etcdstore.Open(ctx, etcdstore.Options{Endpoints: c.Endpoints, Prefix: "load/"})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		e.store = s
		read = func(ctx context.Context, id uint64) (*bot.Game, error) { return s.Game(ctx, id) }
		e.lead = func(ctx context.Context) (string, error) { return s.Leader(ctx, "scheduler") }
	}
	e.fleet = &fleet{tb: b, bin: bin, dir: dir, front: f, common: storage + "[render]\nboard_size = 160\n[log]\nformat = \"json\"\n"}
	for i := range procs {
		e.fleet.start(ctx, i)
	}
	if err := srv.WaitFor(ctx, func() bool { return len(srv.Commands("")) > 0 }); err != nil {
		b.Fatal(err)
	}
	e.player = newPlayer(srv, f, read, pawnLine(20))
	return e
}

// startGames starts n games through the fake, a few at a time.
func (e *loadEnv) startGames(b *testing.B, n int) []loadGame {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	games := make([]loadGame, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range games {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			games[i], errs[i] = e.player.start(ctx, fmt.Sprint(30000+2*i), fmt.Sprint(30000+2*i+1), e.channels[i%len(e.channels)])
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return games
}

// BenchmarkEndToEndMoves measures moves played through the fake Discord
// by players answering as soon as it is their turn, in 50 games at once
// (20 moves each): from the /move interaction to the answer the player
// sees, through the real binary. One op is one move; run it with
// -benchtime 1000x (the games are started before the timer, the
// processes too). Figures: moves/s sustained, p50-ms and p99-ms of the
// latency; the load average is logged beside them. One process on
// bbolt, one on etcd (three members, fsync on), three on etcd as gateway
// shards and as HTTP-only workers.
//
//	go test ./cmd/fairypost -run '^$' -bench EndToEndMoves -benchtime 1000x
func BenchmarkEndToEndMoves(b *testing.B) {
	bin := buildBinary(b)
	for _, c := range []struct {
		name    string
		backend string
		procs   int
		front   func(*discordtest.Server, int) front
	}{
		{"bolt-1proc", backendBolt, 1, func(s *discordtest.Server, _ int) front { return directFront{s} }},
		{"etcd-1proc", backendEtcd, 1, func(s *discordtest.Server, _ int) front { return directFront{s} }},
		{"etcd-3proc-shards", backendEtcd, 3, func(s *discordtest.Server, n int) front { return newShardFront(s, n) }},
		{"etcd-3proc-http", backendEtcd, 3, func(s *discordtest.Server, n int) front { return newHTTPFront(s, n) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			games := max(1, (b.N+19)/20)
			e := newLoadEnv(b, bin, c.backend, c.procs, games, c.front)
			gs := e.startGames(b, games)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			load := loadAverage()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			errs := make([]error, len(gs))
			for i, g := range gs {
				plies := min(20, b.N-20*i)
				wg.Go(func() { errs[i] = e.player.play(ctx, g, 0, plies, nil) })
			}
			wg.Wait()
			took := time.Since(start)
			b.StopTimer()
			for _, err := range errs {
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/took.Seconds(), "moves/s")
			b.ReportMetric(float64(e.player.latency(0.5).Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(e.player.latency(0.99).Microseconds())/1000, "p99-ms")
			b.Logf("%d moves in %d games, %d processes (%s): %v; interactions: %s; load before %s, after %s",
				b.N, len(gs), c.procs, c.backend, took.Round(time.Millisecond), e.player.outcomeText(), load, loadAverage())
			e.fleet.stop(20 * time.Second)
		})
	}
}

// BenchmarkFailover measures how long the clocks and deliveries are
// without a process to run them after the leading process is killed with
// SIGKILL: from the kill until etcd's election names another live process
// (the lease of discord's leader_ttl, 1 s here, bounds it from below).
// Two processes on a three-member etcd; after each op the killed one is
// started again (not timed). Figures: ms/failover (mean), p50-ms, max-ms.
//
//	go test ./cmd/fairypost -run '^$' -bench Failover -benchtime 10x
func BenchmarkFailover(b *testing.B) {
	bin := buildBinary(b)
	e := newLoadEnv(b, bin, backendEtcd, 2, 1, func(s *discordtest.Server, _ int) front { return directFront{s} })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	load := loadAverage()
	var took []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		var l *botProcess
		if err := waitCond(ctx, func() bool { l = e.fleet.leader(ctx, e.lead); return l != nil }); err != nil {
			b.Fatal("no leader")
		}
		b.StartTimer()
		killedAt := time.Now()
		e.fleet.kill(l.i)
		for n := e.fleet.leader(ctx, e.lead); n == nil || n == l; n = e.fleet.leader(ctx, e.lead) {
			if ctx.Err() != nil {
				b.Fatal("no process took over")
			}
			time.Sleep(2 * time.Millisecond)
		}
		took = append(took, time.Since(killedAt))
		b.StopTimer()
		e.fleet.start(ctx, l.i)
	}
	var sum time.Duration
	for _, d := range took {
		sum += d
	}
	slices.Sort(took)
	b.ReportMetric(float64(sum.Milliseconds())/float64(len(took)), "ms/failover")
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(took[len(took)-1].Milliseconds()), "max-ms")
	b.Logf("%d failovers, leader_ttl 1s: %v; load before %s, after %s", len(took), took, load, loadAverage())
}
