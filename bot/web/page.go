package web

import (
	"bytes"
	"container/list"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// pageCacheSize is how many games' pages a Server keeps built (by record
// version): the games being looked at.
const pageCacheSize = 64

// pageCache keeps the built game of the pages asked for last, by game ID,
// each valid for its record version only.
type pageCache struct {
	max   int
	mu    sync.Mutex
	order *list.List // of *game, most recent first
	byID  map[uint64]*list.Element
}

func newPageCache(max int) *pageCache {
	return &pageCache{max: max, order: list.New(), byID: map[uint64]*list.Element{}}
}

// get returns the game of g's ID at g's version, building it with build
// when it is not kept.
func (c *pageCache) get(g *bot.Game, build func() (*game, error)) (*game, error) {
	c.mu.Lock()
	if e, ok := c.byID[g.ID]; ok && e.Value.(*game).Version == g.Version {
		c.order.MoveToFront(e)
		m := e.Value.(*game)
		c.mu.Unlock()
		return m, nil
	}
	c.mu.Unlock()
	m, err := build()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[g.ID]; ok {
		if e.Value.(*game).Version > m.Version {
			return m, nil // a newer one was built meanwhile: keep it
		}
		e.Value = m
		c.order.MoveToFront(e)
		return m, nil
	}
	c.byID[g.ID] = c.order.PushFront(m)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*game).ID)
	}
	return m, nil
}

// gameOf returns the page's view of g (replayed as rg).
func (s *Server) gameOf(ctx context.Context, g *bot.Game, rg *rules.Game) (*game, error) {
	return s.pages.get(g, func() (*game, error) { return s.buildGame(ctx, g, rg) })
}

// pageData is what the page template reads.
type pageData struct {
	*game
	Title, Description, State string
	PageURL, Base             string // the page's public address; its path, the base of its parts
	OGImage                   string
	Ply                       int
	Label                     string // the position shown, in words ("after 23. Nf3")
	Flip                      bool
	Board                     string // the board image's path
	BoardW, BoardH            int
	Alt                       string
	PollMS                    int64 // 0: the game is over, nothing to poll
	CSS, JS                   string
	Prev, Next, Last          int
	FlipHref                  string
	MovesHTML                 template.HTML
}

// servePage answers the game's page at the ply asked for (the last one
// by default).
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, g *bot.Game, rg *rules.Game, req request, key []byte) {
	m, err := s.gameOf(r.Context(), g, rg)
	if err != nil {
		s.storeError(w, err)
		return
	}
	ply := req.ply
	if ply < 0 {
		ply = m.Plies
	}
	side := rules.White
	if req.flip {
		side = rules.Black
	}
	// The board is drawn now (or found drawn) for its height, and so that
	// the browser's request for it is answered from the cache.
	img, err := s.boardPNG(g, rg, ply, side)
	if err != nil {
		s.storeError(w, err)
		return
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		s.storeError(w, err)
		return
	}
	base := fmt.Sprintf("/g/%d/%s", g.ID, Token(key, g.ID))
	public := s.opts.BaseURL
	if public == "" {
		public = "http://" + r.Host
	}
	d := pageData{game: m, State: m.state(s.svc.Now()), Ply: ply, Flip: req.flip,
		PageURL: public + base, Base: base, CSS: s.css, JS: s.js,
		BoardW: cfg.Width, BoardH: cfg.Height, Alt: m.Alts[ply],
		Prev: max(ply-1, 0), Next: min(ply+1, m.Plies), Last: m.Plies}
	d.Board = boardPath(base, ply, g.Version, req.flip)
	d.OGImage = public + d.Board
	d.Title = fmt.Sprintf("%s vs %s · %s · move %d", m.White.Name, m.Black.Name, m.VariantName, m.moveNumber(ply))
	d.Description = d.State + " " + m.TimeControl + ". " + m.Rated + "."
	d.Label = "after " + m.label(ply)
	if ply == 0 {
		d.Label = "at the start"
	}
	d.FlipHref = "?ply=" + strconv.Itoa(ply)
	if !req.flip {
		d.FlipHref += "&flip=1"
	}
	if m.Ongoing {
		d.PollMS = s.opts.PollInterval.Milliseconds()
	}
	if d.MovesHTML, err = m.moveList(ply, req.flip); err != nil {
		s.storeError(w, err)
		return
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, d); err != nil {
		s.storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	write(w, r, buf.Bytes())
}

// boardPath is the path of the board image after ply, for record
// version v.
func boardPath(base string, ply int, v uint64, flip bool) string {
	p := fmt.Sprintf("%s/board.png?ply=%d&v=%d", base, ply, v)
	if flip {
		p += "&flip=1"
	}
	return p
}

// serveBoard answers a board image. Asked for the current record version
// (?v=), it is cached for ever: that version's boards never change; asked
// for another one (or none), it is the current board, revalidated.
func (s *Server) serveBoard(w http.ResponseWriter, r *http.Request, g *bot.Game, rg *rules.Game, req request, side rules.Color) {
	ply := req.ply
	if ply < 0 {
		ply = len(rg.Moves())
	}
	img, err := s.boardPNG(g, rg, ply, side)
	if err != nil {
		s.storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	if req.version == g.Version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	write(w, r, img)
}

// serveGIF answers the game's animation, as the bot posts it when a game
// ends.
func (s *Server) serveGIF(w http.ResponseWriter, r *http.Request, g *bot.Game, rg *rules.Game, side rules.Color) {
	if len(rg.Moves()) == 0 {
		plain(w, http.StatusNotFound, "No move was played yet: there is nothing to animate.")
		return
	}
	gif, err := s.gameGIF(g, rg, side)
	if err == errTooLarge {
		plain(w, http.StatusNotFound, "The animation of this game is too large to make.")
		return
	}
	if err != nil {
		s.storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/gif")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Disposition", fmt.Sprintf(`inline; filename="game-%d.gif"`, g.ID))
	write(w, r, gif)
}

// servePGN answers the game in PGN, as /export gives it.
func (s *Server) servePGN(w http.ResponseWriter, r *http.Request, g *bot.Game) {
	text, err := s.svc.Views().PGN(r.Context(), g.ID)
	if err != nil {
		s.storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.pgn"`, g.ID))
	write(w, r, []byte(text))
}

// stateOf is the answer of /state: what a page polls to learn that its
// game changed.
type stateOf struct {
	Version uint64 `json:"version"`
	Plies   int    `json:"plies"`
	Ongoing bool   `json:"ongoing"`
}

// serveState answers the game's version, with the version as ETag: a
// page polling with If-None-Match gets 304 until the game changes.
func (s *Server) serveState(w http.ResponseWriter, r *http.Request, g *bot.Game, rg *rules.Game) {
	etag := `"` + strconv.FormatUint(g.Version, 10) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	b, _ := json.Marshal(stateOf{Version: g.Version, Plies: len(rg.Moves()), Ongoing: g.Ongoing()})
	h.Set("Content-Type", "application/json")
	write(w, r, b)
}

// serveAlts answers the alt texts of every board of the game, by ply:
// the script sets them as it steps.
func (s *Server) serveAlts(w http.ResponseWriter, r *http.Request, g *bot.Game, rg *rules.Game, req request) {
	m, err := s.gameOf(r.Context(), g, rg)
	if err != nil {
		s.storeError(w, err)
		return
	}
	b, err := json.Marshal(m.Alts)
	if err != nil {
		s.storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if req.version == g.Version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	write(w, r, b)
}

// pageTemplate is the game's page. Every move is a link to its ?ply=N,
// so that it works without the script; the script (page.js) steps
// without reloading.
var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// movesTemplate is the move list of a page, written once per record
// version and side (game.movesHTML): the one part of a page that grows
// with the game.
var movesTemplate = template.Must(template.New("moves").Funcs(template.FuncMap{
	"side": func(m []move, flip bool) movesArg { return movesArg{M: m, Flip: flip} },
}).Parse(movesHTML))

//go:embed assets/moves.html
var movesHTML string

// movesArg is what the template "side" writes: a side's moves of a line
// and whether the board is turned.
type movesArg struct {
	M    []move
	Flip bool
}

// moveList returns the move list of m with the links of the boards
// turned or not, the move of ply marked as the one shown.
func (m *game) moveList(ply int, flip bool) (template.HTML, error) {
	i := 0
	if flip {
		i = 1
	}
	m.movesOnce[i].Do(func() {
		var buf bytes.Buffer
		m.movesErr[i] = movesTemplate.Execute(&buf, struct {
			Lines []line
			Flip  bool
		}{m.Lines, flip})
		m.movesHTML[i] = buf.String()
	})
	if m.movesErr[i] != nil {
		return "", m.movesErr[i]
	}
	at := fmt.Sprintf(` data-ply="%d">`, ply)
	// The list is html/template's output; the mark is a fixed attribute.
	return template.HTML(strings.Replace(m.movesHTML[i], at, at[:len(at)-1]+` aria-current="step">`, 1)), nil
}

//go:embed assets/page.html
var pageHTML string
