package gameplay

import (
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// replayed returns a record of game id at version with moves, and its
// replay.
func replayed(t *testing.T, id, version uint64, moves ...string) (*bot.Game, *rules.Game) {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	rg, err := rules.Replay(reg.Default("chess").Start(), moves)
	if err != nil {
		t.Fatal(err)
	}
	return &bot.Game{ID: id, Version: version, Variant: "chess", Moves: moves}, rg
}

func TestReplayCacheKeyedByVersion(t *testing.T) {
	c := newReplayCache(4)
	g, rg := replayed(t, 1, 5, "e2e4")
	c.put(g, rg)
	if got := c.get(g); got == nil || len(got.Moves()) != 1 {
		t.Fatalf("cached version: %v", got)
	}
	next := *g
	next.Version, next.Moves = 6, []string{"e2e4", "e7e5"}
	if got := c.get(&next); got != nil {
		t.Fatal("a newer version was answered from the cache")
	}
	// A record whose moves differ under the same version is not trusted.
	odd := *g
	odd.Moves = []string{"d2d4", "d7d5"}
	if got := c.get(&odd); got != nil {
		t.Fatal("a game with other moves was answered from the cache")
	}
	if got := c.get(g); got != nil {
		t.Fatal("the distrusted entry stayed")
	}
	if hits, misses := c.stats(); hits != 1 || misses != 3 {
		t.Errorf("hits %d misses %d, want 1 and 3", hits, misses)
	}
}

func TestReplayCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newReplayCache(2)
	a, ra := replayed(t, 1, 1)
	b, rb := replayed(t, 2, 1)
	d, rd := replayed(t, 3, 1)
	c.put(a, ra)
	c.put(b, rb)
	c.get(a) // a is now the most recent
	c.put(d, rd)
	if c.get(b) != nil {
		t.Error("the least recently used game was kept")
	}
	if c.get(a) == nil || c.get(d) == nil {
		t.Error("a recent game was evicted")
	}
	if z := newReplayCache(0); func() bool { z.put(a, ra); return z.get(a) != nil }() {
		t.Error("a cache of size 0 kept a game")
	}
}

// TestReplayCacheHandsOutForks: playing on what get returned, or on the
// game put, changes nothing cached.
func TestReplayCacheHandsOutForks(t *testing.T) {
	c := newReplayCache(4)
	g, rg := replayed(t, 1, 1, "e2e4")
	c.put(g, rg)
	play := func(rg *rules.Game, text string) {
		t.Helper()
		p := rg.Position()
		m, err := rules.ParseMove(&p, text)
		if err != nil {
			t.Fatal(err)
		}
		if err := rg.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	play(rg, "e7e5")
	play(c.get(g), "c7c5")
	got := c.get(g)
	if got == nil || len(got.Moves()) != 1 {
		t.Fatalf("the cached game changed: %v", got)
	}
	p := got.Position()
	if p.FEN() != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" {
		t.Errorf("cached position %s", p.FEN())
	}
}

// TestReplayCacheKnowsPlayers: the players of a game held in any version
// are known, and forgotten once no version of it is held.
func TestReplayCacheKnowsPlayers(t *testing.T) {
	c := newReplayCache(2)
	a, ra := replayed(t, 1, 1)
	a.White, a.Black = "alice", "bob"
	c.put(a, ra)
	a2, ra2 := replayed(t, 1, 2, "e2e4")
	a2.White, a2.Black = "alice", "bob"
	c.put(a2, ra2)
	if w, b, ok := c.players(1); !ok || w != "alice" || b != "bob" {
		t.Errorf("players of game 1: %q %q %v", w, b, ok)
	}
	if _, _, ok := c.players(2); ok {
		t.Error("players of a game never cached")
	}
	d, rd := replayed(t, 3, 1)
	c.put(d, rd) // evicts game 1's first version
	if _, _, ok := c.players(1); !ok {
		t.Error("game 1's players forgotten while a version of it is held")
	}
	e, re := replayed(t, 4, 1)
	c.put(e, re) // evicts game 1's second version
	if _, _, ok := c.players(1); ok {
		t.Error("game 1's players known after every version was evicted")
	}
}
