package command

import (
	"context"
	"log/slog"
	"runtime/debug"

	"github.com/fairypost/fairypost/bot/analysis"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/bot/variants"
	"github.com/fairypost/fairypost/render"
)

// DefaultBoardSize is the width in pixels of board images when
// Options.BoardSize is 0.
const DefaultBoardSize = 800

// Options configure a Handler.
type Options struct {
	// BoardSize is the width of board images in pixels (0: DefaultBoardSize;
	// clamped to render.MinSize..render.MaxSize).
	BoardSize int
	// GIFSize is the width of the game GIF sent when a game ends
	// (0: BoardSize/2, at least 240; clamped as BoardSize).
	GIFSize int
	// Logger receives internal errors and recovered panics (nil: discard).
	Logger *slog.Logger
	// Names, when set, gives the short display name of a user in a guild
	// ("" when unknown) for the images that name players (leaderboards,
	// player cards), which cannot show mentions. An image names a user
	// by the name the request carried (UserFacts.Name: the caller, users
	// named in options), else by what Names gives, else by the user ID
	// (the console's IDs are the names people typed). It may ask the
	// transport (images are drawn while the answer is deferred) and
	// should remember what it learnt.
	Names func(ctx context.Context, guildID, userID string) string
	// Tournaments runs /tournament (nil: this bot runs no tournaments).
	Tournaments *tournaments.Service
	// Ratings reads ratings for /leaderboard and player cards (nil: this
	// bot keeps no ratings).
	Ratings *ratings.Service
	// Link, when set, returns the public address of a game's page (the
	// bot's web.base_url with the page token): every reply showing a
	// game's board carries a "View game" link button to it, and /link
	// answers with it. nil: this bot gives no page links (the replies
	// carry no such button; /link says so).
	Link func(ctx context.Context, gameID uint64) (string, error)
	// Analyses runs /analysis and the Analyse button (nil: this bot
	// analyses no games).
	Analyses *analysis.Service
	// Variants keeps the variants the servers define, for /variant and
	// challenges by their names (nil: this bot keeps none).
	Variants *variants.Service
}

// Handler runs the user commands against a gameplay.Service. It holds no state
// of its own besides its configuration, the renderer and a bounded cache
// of the images it drew last (keyed by game ID and record version), and
// is safe for concurrent use.
type Handler struct {
	svc      *gameplay.Service
	prefs    *prefs.Service       // the players' settings and vacations
	tours    *tournaments.Service // nil: no tournaments
	ratings  *ratings.Service     // nil: no ratings
	analyses *analysis.Service    // nil: no analyses
	defined  *variants.Service    // nil: no variants of the servers
	renderer *render.Renderer
	images   *renderCache
	size     int
	gifSize  int
	log      *slog.Logger
	commands []commandDef // every command, spec and handler together
	buttons  map[string]buttonDef
	names    func(ctx context.Context, guildID, userID string) string
	link     func(ctx context.Context, gameID uint64) (string, error) // nil: no page links
}

// New returns a Handler over svc, with the players' settings and
// vacations kept by settings (for /settings and /vacation, and for the
// time zone of digests). It panics only if the embedded fonts of package
// render cannot be loaded, which is a broken build.
func New(svc *gameplay.Service, settings *prefs.Service, opts Options) *Handler {
	r, err := render.NewRenderer()
	if err != nil {
		panic("command: " + err.Error())
	}
	h := &Handler{svc: svc, prefs: settings, tours: opts.Tournaments, ratings: opts.Ratings, analyses: opts.Analyses, defined: opts.Variants, renderer: r, images: newRenderCache(renderCacheSize), size: opts.BoardSize, gifSize: opts.GIFSize,
		log: opts.Logger, names: opts.Names, link: opts.Link}
	if h.size <= 0 {
		h.size = DefaultBoardSize
	}
	if h.gifSize <= 0 {
		h.gifSize = max(h.size/2, 240)
	}
	h.size = min(max(h.size, render.MinSize), render.MaxSize)
	h.gifSize = min(max(h.gifSize, render.MinSize), render.MaxSize)
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	h.commands = h.buildCommands()
	h.buttons = buttonTable()
	return h
}

// Specs returns every command with its options, in the order of /help:
// what an adapter registers. The slice is a copy.
func (h *Handler) Specs() []Spec {
	out := make([]Spec, len(h.commands))
	for i, c := range h.commands {
		s := c.Spec
		s.Options = append([]OptionSpec(nil), s.Options...)
		for j := range s.Options {
			s.Options[j].Choices = append([]Choice(nil), s.Options[j].Choices...)
		}
		out[i] = s
	}
	return out
}

// recover turns a panic into a generic ephemeral reply, logged.
func (h *Handler) recover(where string, rep *Reply) {
	if v := recover(); v != nil {
		h.log.Error("command: panic", "in", where, "panic", v, "stack", string(debug.Stack()))
		*rep = Reply{Text: "Internal error: something went wrong on our side. Please try again later.", Ephemeral: true}
	}
}
