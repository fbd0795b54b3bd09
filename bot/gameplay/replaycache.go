package gameplay

import (
	"container/list"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// DefaultReplayCacheSize is how many replayed games a Service keeps by
// default: the games being played right now, each shown or moved in
// again soon after.
const DefaultReplayCacheSize = 512

// replayKey names one stored state of a game: its ID and record version.
// A record's moves change only with its version (annotations keep the
// version and touch no move), so the key fixes the replayed game.
type replayKey struct{ id, version uint64 }

// replayCache keeps the most recently used replayed games, at most max,
// so that a move on a game just shown or played replays nothing (the
// same reason lila keeps live games in memory). It holds forks that
// nobody plays on and hands out forks of them (rules.Game.Fork), so a
// caller may play on what it gets. It also knows the players of each game
// it holds (players), which never change. Safe for concurrent use.
type replayCache struct {
	mu      sync.Mutex
	max     int
	order   *list.List // of *replayEntry, most recently used first
	entries map[replayKey]*list.Element
	byID    map[uint64]*list.Element // an entry of each game ID held
	hits    int
	misses  int
}

type replayEntry struct {
	key          replayKey
	game         *rules.Game
	white, black string // the record's players
}

// newReplayCache returns a cache of at most max games (0: none kept).
func newReplayCache(max int) *replayCache {
	return &replayCache{max: max, order: list.New(), entries: map[replayKey]*list.Element{}, byID: map[uint64]*list.Element{}}
}

// players returns the two players of game id, as a record of it put in
// the cache lately says; ok is false when the cache holds no version of
// it. The players of a game never change (a pre-game choice may only
// swap their colours), so any version will do; white and black are as
// that version had them.
func (c *replayCache) players(id uint64) (white, black string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return "", "", false
	}
	e := el.Value.(*replayEntry)
	return e.white, e.black, true
}

// remove drops el from the cache. c.mu is held.
func (c *replayCache) remove(el *list.Element) {
	k := el.Value.(*replayEntry).key
	c.order.Remove(el)
	delete(c.entries, k)
	if c.byID[k.id] == el {
		delete(c.byID, k.id)
	}
}

// get returns a fork of the game cached for g's ID and version, or nil.
// A cached game whose number of moves is not the record's is dropped
// (a record changed without a new version: never by this package's
// stores, but a replay is cheap next to a wrong board).
func (c *replayCache) get(g *bot.Game) *rules.Game {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := replayKey{g.ID, g.Version}
	el, ok := c.entries[k]
	if !ok {
		c.misses++
		return nil
	}
	e := el.Value.(*replayEntry)
	if len(e.game.Moves()) != len(g.Moves) {
		c.remove(el)
		c.misses++
		return nil
	}
	c.order.MoveToFront(el)
	c.hits++
	return e.game.Fork()
}

// put keeps a fork of rg as the replay of g's ID and version, evicting
// the least recently used game beyond max. rg must be the replay of g's
// moves; the caller may go on using (and playing on) rg.
func (c *replayCache) put(g *bot.Game, rg *rules.Game) {
	if c.max <= 0 || g == nil || rg == nil || len(rg.Moves()) != len(g.Moves) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := replayKey{g.ID, g.Version}
	if el, ok := c.entries[k]; ok {
		c.order.MoveToFront(el)
		return
	}
	el := c.order.PushFront(&replayEntry{key: k, game: rg.Fork(), white: g.White, black: g.Black})
	c.entries[k], c.byID[k.id] = el, el
	for c.order.Len() > c.max {
		c.remove(c.order.Back())
	}
}

// ReplayStats returns how many replays the Service's cache answered
// (hits) and how many it could not (misses, each a full replay) since the
// Service started: for logs and tests.
func (sub Views) ReplayStats() (hits, misses int) {
	s := sub.s
	return s.replays.stats()
}

// stats returns the hits and misses so far.
func (c *replayCache) stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
