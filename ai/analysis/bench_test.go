//go:build unix

package analysis

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/fairypost/fairypost/ai"
	"github.com/fairypost/fairypost/rules"
)

// selfPlay returns the first plies moves of a game of variant key played
// by level 2 against itself (seeded; the first seed whose game lasts that
// long), from the start or the arena's kind of drawn start.
func selfPlay(b *testing.B, reg *rules.Registry, key string, plies int) *rules.Game {
	b.Helper()
	v := reg.Default(key)
	for seed := uint64(1); seed < 50; seed++ {
		start := v.Start()
		if v.PreGame != nil {
			start = v.PreGame.Normalize(v.PreGame.Start(seed), rules.White)
		}
		g := rules.NewGame(start)
		e := ai.NewEngine(ai.Options{Level: 2, Seed: seed})
		for len(g.Moves()) < plies && !g.Outcome().Over() {
			past := make([]uint64, 0, len(g.Moves()))
			for i := range g.Moves() {
				p := g.PositionAt(i)
				past = append(past, p.Hash())
			}
			r, err := e.Search(context.Background(), g.Position(), past)
			if err != nil {
				b.Fatal(err)
			}
			if err := g.Play(r.Move); err != nil {
				b.Fatal(err)
			}
		}
		if len(g.Moves()) == plies {
			return g
		}
	}
	b.Fatalf("%s: no self-play game of %d plies", key, plies)
	return nil
}

// benchLevel is the level BenchmarkAnalyse analyses at.
var benchLevel = flag.Int("analysis.level", DefaultLevel, "BenchmarkAnalyse's analysis level")

// BenchmarkAnalyse measures the analysis of self-play games at the
// default level with two workers (the goals: 100 plies of chess within
// 60 s, 100 of Cold Fusion within 120 s, 300 of any variant within 5
// minutes on 2 cores). Select with -bench 'Analyse/chess-100'; one
// iteration is one whole game (-benchtime 1x).
func BenchmarkAnalyse(b *testing.B) {
	reg := registry(b)
	cases := []struct {
		key   string
		plies int
	}{{"chess", 100}, {"coldfusion", 100}}
	for _, k := range reg.Keys() {
		cases = append(cases, struct {
			key   string
			plies int
		}{k, 300})
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s-%d", c.key, c.plies), func(b *testing.B) {
			g := selfPlay(b, reg, c.key, c.plies)
			workers := min(2, runtime.GOMAXPROCS(0))
			cpu := cpuTime(b)
			b.ResetTimer()
			var nodes int64
			for i := 0; i < b.N; i++ {
				a, err := Analyse(context.Background(), g, Options{Level: *benchLevel, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				nodes = a.Nodes
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/game")
			// The processor time, which a loaded machine does not inflate:
			// on two free cores the wall time is about half of it.
			b.ReportMetric((cpuTime(b)-cpu).Seconds()/float64(b.N), "cpu-s/game")
			b.ReportMetric(float64(nodes), "nodes/search")
		})
	}
}

// cpuTime returns the processor time (user and system) the process used
// so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
