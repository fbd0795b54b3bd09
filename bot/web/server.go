package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/rules"
)

// Defaults of Options.
const (
	DefaultBoardSize    = 800 // as the bot's posts (command.DefaultBoardSize)
	DefaultGIFSize      = 400
	DefaultPollInterval = 10 * time.Second
	DefaultImageBytes   = 64 << 20
	DefaultRate         = 20  // requests per second per client address
	DefaultBurst        = 120 // requests at once per client address
)

// Options configure a Server.
type Options struct {
	// Key returns the secret of the page tokens (required).
	Key Key
	// BaseURL is the public address of the pages, without a trailing
	// slash ("https://games.example.org"): the links Link makes and the
	// page's og:url and og:image. Empty: "http://" and the request's
	// Host, which suits a test or a local server only.
	BaseURL string
	// Names gives players' server nicknames (nil: user IDs).
	Names Names
	// Standings reads the current ratings of the players of an ongoing
	// rated game (nil: shown once the game has ended only).
	Standings interface {
		UserStandings(ctx context.Context, userID string) ([]bot.Standing, error)
	}
	// BoardSize and GIFSize are the widths of the images (0: the
	// defaults; clamped to render.MinSize..render.MaxSize).
	BoardSize, GIFSize int
	// PollInterval is how often the page of an ongoing game asks whether
	// it changed (0: DefaultPollInterval).
	PollInterval time.Duration
	// ImageBytes bounds the cache of encoded images (0: DefaultImageBytes).
	ImageBytes int
	// Rate and Burst limit the requests of one client address: Rate per
	// second on average, Burst at once (0: the defaults).
	Rate, Burst int
	// Logger receives internal errors (nil: discard).
	Logger *slog.Logger
	// Now is the clock of the rate limit and the key's age (nil:
	// time.Now); pages read the Service's clock.
	Now func() time.Time
}

// Server serves the game pages from a gameplay.Service, reading only: it
// never changes a record. It is safe for concurrent use.
type Server struct {
	svc      *gameplay.Service
	opts     Options
	renderer *render.Renderer
	keys     *keyCache
	images   *imageCache
	pages    *pageCache
	limiter  *limiter
	log      *slog.Logger
	assets   map[string]asset // by hashed name
	css, js  string           // the hashed names of the stylesheet and the script
}

// New returns a Server over svc. It fails when opts.Key is nil or the
// renderer's fonts cannot be loaded.
func New(svc *gameplay.Service, opts Options) (*Server, error) {
	if opts.Key == nil {
		return nil, errors.New("web: no key for the page tokens")
	}
	r, err := render.NewRenderer()
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	if opts.BoardSize <= 0 {
		opts.BoardSize = DefaultBoardSize
	}
	if opts.GIFSize <= 0 {
		opts.GIFSize = DefaultGIFSize
	}
	opts.BoardSize = min(max(opts.BoardSize, render.MinSize), render.MaxSize)
	opts.GIFSize = min(max(opts.GIFSize, render.MinSize), render.MaxSize)
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.ImageBytes <= 0 {
		opts.ImageBytes = DefaultImageBytes
	}
	if opts.Rate <= 0 {
		opts.Rate = DefaultRate
	}
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	s := &Server{svc: svc, opts: opts, renderer: r,
		keys:    &keyCache{read: opts.Key, now: opts.Now},
		images:  newImageCache(opts.ImageBytes),
		pages:   newPageCache(pageCacheSize),
		limiter: newLimiter(float64(opts.Rate), float64(opts.Burst), opts.Now),
		log:     opts.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if err := s.loadAssets(); err != nil {
		return nil, err
	}
	return s, nil
}

// Link returns the address of game id's page under key, with base (the
// public address, no trailing slash) in front.
func Link(base string, key []byte, id uint64) string {
	return fmt.Sprintf("%s/g/%d/%s", strings.TrimRight(base, "/"), id, Token(key, id))
}

// Link returns the public address of game id's page.
func (s *Server) Link(ctx context.Context, id uint64) (string, error) {
	key, err := s.keys.get(ctx)
	if err != nil {
		return "", err
	}
	return Link(s.opts.BaseURL, key, id), nil
}

// Limits of a request: anything longer is refused before it is read.
const (
	maxPath  = 256
	maxQuery = 256
)

// ServeHTTP answers one request: security headers on every answer, GET
// and HEAD only, no body, the client's rate, then the route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("web: panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			plain(w, http.StatusInternalServerError, "Internal error.")
		}
	}()
	securityHeaders(w.Header())
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "Only GET and HEAD are served here.")
		return
	case r.ContentLength != 0 || len(r.TransferEncoding) > 0:
		plain(w, http.StatusRequestEntityTooLarge, "Requests here have no body.")
		return
	case !s.limiter.allow(clientAddress(r)):
		w.Header().Set("Retry-After", "1")
		plain(w, http.StatusTooManyRequests, "Too many requests: slow down.")
		return
	}
	req, status := parseRequest(r.URL.EscapedPath(), r.URL.RawQuery)
	if status != 0 {
		plain(w, status, http.StatusText(status)+".")
		return
	}
	switch req.kind {
	case kindAsset:
		s.serveAsset(w, r, req.name)
	case kindRules:
		s.serveRules(w, r, req.name)
	default:
		s.serveGame(w, r, req)
	}
}

// securityHeaders are set on every answer: nothing from elsewhere, no
// framing, no sniffing, and no Referer (the page's address is its key).
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "+
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
	h.Set("X-Robots-Tag", "noindex, nofollow")
}

// plain writes a short text answer.
func plain(w http.ResponseWriter, status int, text string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Del("ETag")
	w.WriteHeader(status)
	fmt.Fprintln(w, text)
}

// clientAddress is the address the rate limit counts by: the peer's IP;
// for a peer on this host (a reverse proxy on a loopback address), the
// last address of X-Forwarded-For, the one the proxy appended, when it is
// an IP (docs/operations.md).
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		xff := r.Header.Values("X-Forwarded-For")
		if len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			if fwd := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); fwd != nil {
				return fwd.String()
			}
		}
	}
	return host
}

// serveGame answers the requests of one game: the token is checked
// against the key before anything is read, so that a forged one costs
// no store read.
func (s *Server) serveGame(w http.ResponseWriter, r *http.Request, req request) {
	ctx := r.Context()
	key, err := s.keys.get(ctx)
	if err != nil {
		s.log.Error("web: the page key cannot be read", "err", err)
		plain(w, http.StatusServiceUnavailable, "The game pages are not available right now.")
		return
	}
	if !validToken(key, req.id, req.token) {
		plain(w, http.StatusNotFound, "Not Found.")
		return
	}
	g, rg, err := s.svc.Views().Replay(ctx, req.id)
	if err != nil {
		s.storeError(w, err)
		return
	}
	if req.ply > len(rg.Moves()) {
		plain(w, http.StatusNotFound, "This game has no such position.")
		return
	}
	side := rules.White
	if req.flip {
		side = rules.Black
	}
	switch req.kind {
	case kindPage:
		s.servePage(w, r, g, rg, req, key)
	case kindBoard:
		s.serveBoard(w, r, g, rg, req, side)
	case kindGIF:
		s.serveGIF(w, r, g, rg, side)
	case kindPGN:
		s.servePGN(w, r, g)
	case kindState:
		s.serveState(w, r, g, rg)
	case kindAlts:
		s.serveAlts(w, r, g, rg, req)
	}
}

// storeError answers a failed read: 404 for a game not found, 503 when
// the store did not answer, 500 otherwise.
func (s *Server) storeError(w http.ResponseWriter, err error) {
	switch {
	case bot.ErrorCode(err) == bot.ENOTFOUND:
		plain(w, http.StatusNotFound, "Not Found.")
	case bot.Unanswered(err):
		s.log.Warn("web: store unavailable", "err", err)
		plain(w, http.StatusServiceUnavailable, "The game cannot be read right now; try again in a moment.")
	default:
		s.log.Error("web: read failed", "err", err)
		plain(w, http.StatusInternalServerError, "Internal error.")
	}
}

// asset is an embedded file served under a name that holds its digest,
// so that it can be cached for ever.
type asset struct {
	data        []byte
	contentType string
}

//go:embed assets
var assetFiles embed.FS

// loadAssets names the embedded stylesheet and script by their digest.
func (s *Server) loadAssets() error {
	s.assets = map[string]asset{}
	for _, f := range []struct {
		file, ext, ctype string
		name             *string
	}{{"assets/page.css", "css", "text/css; charset=utf-8", &s.css}, {"assets/page.js", "js", "text/javascript; charset=utf-8", &s.js}} {
		b, err := assetFiles.ReadFile(f.file)
		if err != nil {
			return fmt.Errorf("web: %w", err)
		}
		sum := sha256.Sum256(b)
		*f.name = "page." + hex.EncodeToString(sum[:6]) + "." + f.ext
		s.assets[*f.name] = asset{data: b, contentType: f.ctype}
	}
	s.assets["favicon.ico"] = asset{data: favicon(), contentType: "image/png"}
	return nil
}

// favicon draws the site's icon: a 2×2 board in the colours of the
// bot's boards, 16 px wide.
func favicon() []byte {
	img := image.NewPaletted(image.Rect(0, 0, 16, 16), color.Palette{color.RGBA{0xf0, 0xd9, 0xb5, 0xff}, color.RGBA{0xb5, 0x88, 0x63, 0xff}})
	for y := range 16 {
		for x := range 16 {
			img.SetColorIndex(x, y, uint8((x/8+y/8)%2))
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

// serveAsset answers the stylesheet and the script.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := s.assets[name]
	if !ok {
		plain(w, http.StatusNotFound, "Not Found.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	write(w, r, a.data)
}

// write writes body (nothing for HEAD) with its length.
func write(w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// Serve serves the pages on l until ctx ends, then shuts down, waiting
// up to 5 seconds for the requests in flight. Every connection has its
// timeouts (reading the headers, the request, writing the answer, idle).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := NewHTTPServer(s)
	served := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-ctx.Done():
		case <-served:
		}
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	})
	err := hs.Serve(l)
	close(served)
	wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// NewHTTPServer returns the http.Server of h with the timeouts of every
// connection: 5 s to send the headers, 10 s for the whole request, 30 s
// to take the answer, 60 s idle, and headers of at most 16 KiB.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 16 << 10}
}
