package web

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/rules"
)

// imageKey names an image by everything that decides its pixels, never
// by who asks: the kind, the side at the bottom, the width and a digest
// of what is drawn (the positions of the turn marked, its moves, the
// position, the status line and the result). Two games showing the same
// thing share it; a game whose moves were taken back gets new keys.
type imageKey struct {
	gif     bool
	side    rules.Color
	size    int
	content [sha256.Size]byte
}

// boardSpec is what a board image of a ply shows: the position after
// the ply, the turn that led to it marked (as the bot marks its posts),
// the status line of a game waiting for its pre-game choice and the
// result on the last ply of a game over.
type boardSpec struct {
	pos     rules.Position
	before  []rules.Position // the positions before each move of the turn shown
	status  string
	outcome rules.Outcome
}

// boardAt returns what the board after ply of g (replayed as rg) shows.
func boardAt(g *bot.Game, rg *rules.Game, ply int) boardSpec {
	b := boardSpec{pos: rg.PositionAt(ply)}
	if ply > 0 {
		start := ply - 1
		for start > 0 && !isTurnStart(rg, start) {
			start--
		}
		for i := start; i < ply; i++ {
			b.before = append(b.before, rg.PositionAt(i))
		}
	}
	if g.Status == bot.GameSetup {
		b.status = setupStatus(g)
	}
	if ply == len(rg.Moves()) {
		b.outcome = g.Outcome()
	}
	return b
}

// isTurnStart reports whether the position before the 0-based ply i
// begins a turn.
func isTurnStart(rg *rules.Game, i int) bool {
	p := rg.PositionAt(i)
	return p.BeginsTurn()
}

// key digests b for an image from side's side, size pixels wide.
func (b boardSpec) key(side rules.Color, size int) imageKey {
	d := sha256.New()
	for _, p := range b.before {
		fmt.Fprintf(d, "before %s\n", p.FEN())
	}
	fmt.Fprintf(d, "drawn %s\nlast %v\nstatus %q\noutcome %d %q\n", b.pos.FEN(), b.pos.LastMove(), b.status, b.outcome.Result, b.outcome.Reason)
	k := imageKey{side: side, size: size}
	d.Sum(k.content[:0])
	return k
}

// options are the renderer's options for b.
func (b boardSpec) options(side rules.Color, size int) []render.Option {
	opts := []render.Option{render.Size(size), render.Perspective(side)}
	if len(b.before) > 0 {
		opts = append(opts, render.Turn(b.before...))
	}
	if b.status != "" {
		opts = append(opts, render.Status(b.status))
	}
	if b.outcome.Over() {
		opts = append(opts, render.Outcome(b.outcome))
	}
	return opts
}

// gifKey digests a game's GIF: its start, moves and result.
func gifKey(g *bot.Game, rg *rules.Game, side rules.Color, size int) imageKey {
	d := sha256.New()
	start := rg.Start()
	fmt.Fprintf(d, "gif %s\n", start.FEN())
	for _, mv := range rg.Moves() {
		fmt.Fprintf(d, "%v\n", mv)
	}
	o := g.Outcome()
	fmt.Fprintf(d, "outcome %d %q\n", o.Result, o.Reason)
	k := imageKey{gif: true, side: side, size: size}
	d.Sum(k.content[:0])
	return k
}

// setupStatus is the status line of the board of a game waiting for its
// pre-game choice, as the bot's posts show it.
func setupStatus(g *bot.Game) string {
	if g.Setup != nil && g.Setup.Army != "" {
		return "Pre-game choice pending: who moves first"
	}
	return "Pre-game choice pending: which army to play"
}

// imageCache keeps encoded images by key, the least recently used going
// first once they take more than max bytes. Building an image that is
// missing is done once however many ask for it at the same time.
type imageCache struct {
	max int

	mu      sync.Mutex
	size    int
	order   *list.List // of *cached, most recent first
	byKey   map[imageKey]*list.Element
	pending map[imageKey]*building
}

// cached is one image in the cache.
type cached struct {
	key  imageKey
	data []byte
}

// building is an image being drawn; done is closed when data or err is
// set.
type building struct {
	done chan struct{}
	data []byte
	err  error
}

// newImageCache returns a cache of at most max bytes of images.
func newImageCache(max int) *imageCache {
	return &imageCache{max: max, order: list.New(), byKey: map[imageKey]*list.Element{}, pending: map[imageKey]*building{}}
}

// get returns the image of k, drawing it with draw when it is not kept.
func (c *imageCache) get(k imageKey, draw func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		data := e.Value.(*cached).data
		c.mu.Unlock()
		return data, nil
	}
	if b, ok := c.pending[k]; ok {
		c.mu.Unlock()
		<-b.done
		return b.data, b.err
	}
	b := &building{done: make(chan struct{})}
	c.pending[k] = b
	c.mu.Unlock()

	b.data, b.err = draw()
	close(b.done)

	c.mu.Lock()
	delete(c.pending, k)
	if b.err == nil && len(b.data) <= c.max {
		c.byKey[k] = c.order.PushFront(&cached{key: k, data: b.data})
		c.size += len(b.data)
		for c.size > c.max {
			last := c.order.Back()
			old := last.Value.(*cached)
			c.order.Remove(last)
			delete(c.byKey, old.key)
			c.size -= len(old.data)
		}
	}
	c.mu.Unlock()
	return b.data, b.err
}

// boardPNG returns the PNG of the board after ply of g (replayed as rg)
// from side's side, from the cache when drawn already.
func (s *Server) boardPNG(g *bot.Game, rg *rules.Game, ply int, side rules.Color) ([]byte, error) {
	b := boardAt(g, rg, ply)
	return s.images.get(b.key(side, s.opts.BoardSize), func() ([]byte, error) {
		var buf bytes.Buffer
		if err := s.renderer.PNG(&buf, b.pos, b.options(side, s.opts.BoardSize)...); err != nil {
			return nil, fmt.Errorf("game %d ply %d: render: %w", g.ID, ply, err)
		}
		return buf.Bytes(), nil
	})
}

// gameGIF returns the GIF of the whole game g from side's side, within
// the renderer's budgets (render.WriteGIF), from the cache when drawn
// already; errTooLarge when not even its last move fits.
func (s *Server) gameGIF(g *bot.Game, rg *rules.Game, side rules.Color) ([]byte, error) {
	return s.images.get(gifKey(g, rg, side, s.opts.GIFSize), func() ([]byte, error) {
		opts := []render.Option{render.Size(s.opts.GIFSize), render.Perspective(side)}
		if o := g.Outcome(); o.Over() {
			opts = append(opts, render.Outcome(o))
		}
		var buf bytes.Buffer
		if _, err := s.renderer.WriteGIF(&buf, rg, opts...); err != nil {
			if errors.Is(err, render.ErrTooLarge) {
				return nil, errTooLarge
			}
			return nil, fmt.Errorf("game %d: gif: %w", g.ID, err)
		}
		return buf.Bytes(), nil
	})
}

// errTooLarge is gameGIF's error for a game whose GIF is over its budget.
var errTooLarge = errors.New("the game's animation is over its size budget")
