package command

import (
	"container/list"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/fairypost/fairypost/rules"
)

// renderCacheSize is how many images a Handler keeps: the boards and GIFs
// of the games just played, each asked for again by the notifications of
// the same move (the opponent's board, the thread's copy).
const renderCacheSize = 64

// imageKey names one image by everything that decides its pixels, so
// that two requests share a cached image only when they would draw the
// same bytes: the game (for the file's name), the kind of image, the
// side at the bottom, the width, and a digest of what is drawn (the
// positions shown, the moves marked, the status line and the result; see
// boardContent and gifContent). A record's version is not enough: a
// hypothetical position (the end of a conditional line) has the version
// of the real game it starts from.
type imageKey struct {
	id      uint64
	gif     bool
	side    rules.Color
	size    int
	content [sha256.Size]byte
}

// String is the File.Key of the image.
func (k imageKey) String() string {
	kind := "png"
	if k.gif {
		kind = "gif"
	}
	return fmt.Sprintf("game %d %s %s %dpx %x", k.id, kind, k.side, k.size, k.content[:8])
}

// boardContent digests what a board image of rg shows besides its side
// and size: every position of the last turn (the arrows and marks come
// from them), the moves between them, the position drawn, the status
// line and the result.
func boardContent(rg *rules.Game, status string, o rules.Outcome) [sha256.Size]byte {
	d := sha256.New()
	moves := rg.Moves()
	for i := rg.LastTurn(); i < len(moves); i++ {
		p := rg.PositionAt(i)
		fmt.Fprintf(d, "before %s\nmove %v\n", p.FEN(), moves[i])
	}
	p := rg.Position()
	fmt.Fprintf(d, "drawn %s\nlast %v\nstatus %q\noutcome %d %q\n", p.FEN(), p.LastMove(), status, o.Result, o.Reason)
	var sum [sha256.Size]byte
	d.Sum(sum[:0])
	return sum
}

// gifContent digests what a game's GIF shows besides its side and size:
// the start position, every move and the result.
func gifContent(rg *rules.Game, o rules.Outcome) [sha256.Size]byte {
	d := sha256.New()
	start := rg.Start()
	fmt.Fprintf(d, "start %s\n", start.FEN())
	for _, m := range rg.Moves() {
		fmt.Fprintf(d, "move %v\n", m)
	}
	fmt.Fprintf(d, "outcome %d %q\n", o.Result, o.Reason)
	var sum [sha256.Size]byte
	d.Sum(sum[:0])
	return sum
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

// image returns the image k, drawn by draw unless it is cached. Only
// images anyone may see go through the cache: a private image (the end
// of a player's conditional line) is drawn without it, so that it can
// never be served to another user. The File's Data may be shared with
// other replies: read-only.
func (c *renderCache) image(k imageKey, draw func() (File, error)) (File, error) {
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
