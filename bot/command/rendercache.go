package command

import (
	"container/list"
	"fmt"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// renderCacheSize is how many images a Handler keeps: the boards and GIFs
// of the games just played, each asked for again by the notifications of
// the same move (the opponent's board, the thread's copy).
const renderCacheSize = 64

// imageKey names one image of a game: the record's ID and version (a
// version fixes everything a board shows: moves, status, result, pre-game
// choice), the kind of image, the side at the bottom and the width.
type imageKey struct {
	id, version uint64
	gif         bool
	side        rules.Color
	size        int
}

// String is the File.Key of the image.
func (k imageKey) String() string {
	kind := "png"
	if k.gif {
		kind = "gif"
	}
	return fmt.Sprintf("game %d v%d %s %s %dpx", k.id, k.version, k.side, kind, k.size)
}

// renderCache keeps the most recently used images, at most max, so that a
// move's board is drawn once however many replies and notifications show
// it. Safe for concurrent use.
type renderCache struct {
	mu      sync.Mutex
	max     int
	order   *list.List // of *renderEntry, most recently used first
	entries map[imageKey]*list.Element
	renders int // images drawn
	hits    int // images answered from the cache
}

type renderEntry struct {
	key  imageKey
	file File
}

func newRenderCache(max int) *renderCache {
	return &renderCache{max: max, order: list.New(), entries: map[imageKey]*list.Element{}}
}

// image returns the image k of g, drawn by draw unless it is cached. A
// record without a version (not one a store returned) is drawn every
// time. The File's Data may be shared with other replies: read-only.
func (c *renderCache) image(g *bot.Game, k imageKey, draw func() (File, error)) (File, error) {
	if g.Version == 0 {
		return c.drawn(draw)
	}
	c.mu.Lock()
	if el, ok := c.entries[k]; ok {
		c.order.MoveToFront(el)
		c.hits++
		f := el.Value.(*renderEntry).file
		c.mu.Unlock()
		return f, nil
	}
	c.mu.Unlock()
	f, err := c.drawn(draw)
	if err != nil {
		return File{}, err
	}
	f.Key = k.String()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; !ok && c.max > 0 {
		c.entries[k] = c.order.PushFront(&renderEntry{key: k, file: f})
		for c.order.Len() > c.max {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.entries, last.Value.(*renderEntry).key)
		}
	}
	return f, nil
}

// drawn runs draw, counting it.
func (c *renderCache) drawn(draw func() (File, error)) (File, error) {
	c.mu.Lock()
	c.renders++
	c.mu.Unlock()
	return draw()
}

// RenderStats returns how many images the Handler drew (renders) and how
// many it answered from its cache of recent images (hits) since it was
// made: for logs and tests.
func (h *Handler) RenderStats() (renders, hits int) {
	h.images.mu.Lock()
	defer h.images.mu.Unlock()
	return h.images.renders, h.images.hits
}
