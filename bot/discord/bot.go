package discord

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
)

// Defaults of Options.
const (
	DefaultDeferAfter      = 1500 * time.Millisecond
	DefaultShutdownTimeout = 10 * time.Second
	// DefaultQueueLimit is the default of Options.QueueLimit.
	DefaultQueueLimit = 1024
	// interactionLifetime is how long an interaction token accepts
	// edits (Discord: 15 minutes); handlers give up a little before.
	interactionLifetime = 14 * time.Minute
	readyTimeout        = 15 * time.Second
	// ackConcurrency bounds the acknowledgements sent at once.
	ackConcurrency = 32
)

// Options configure a Bot.
type Options struct {
	// Token is the bot token, without the "Bot " prefix. Required.
	Token string
	// APIURL, when not empty, replaces https://discord.com for every REST
	// request (and so for the gateway address): a proxy, or the fake of
	// bot/discordtest.
	APIURL string
	// GuildID registers the commands in that guild only; "" registers
	// them globally.
	GuildID string
	// ApplicationID owns the commands; "" takes it from READY.
	ApplicationID string
	// DeferAfter is how long after its creation (the timestamp of its ID)
	// an interaction may run before it is acknowledged as deferred and
	// edited when done (0: DefaultDeferAfter). Discord's deadline for the
	// first answer is 3 s.
	DeferAfter time.Duration
	// Workers is how many commands and button presses run at once
	// (0: 4 per CPU, at least 4). An interaction that finds them all busy
	// waits for one, acknowledged as deferred at once, so that a burst
	// never delays the acknowledgements behind the work.
	Workers int
	// QueueLimit is how many interactions may wait for a worker
	// (0: DefaultQueueLimit); beyond it they are answered at once, in a
	// message only the user sees, that the bot is busy and to try again in
	// a moment, rather than too late.
	QueueLimit int
	// ShutdownTimeout bounds Close's wait for interactions in progress
	// (0: DefaultShutdownTimeout).
	ShutdownTimeout time.Duration
	// ShardID and ShardCount are the gateway shard this bot connects as
	// (sent in IDENTIFY). Discord gives shard ShardID the events and
	// interactions of the guilds whose (guild ID >> 22) % ShardCount is
	// ShardID, and DMs to shard 0 only; so a bot too large for one
	// connection runs one process per shard, every process with the same
	// ShardCount. ShardCount 0 or 1 is one shard receiving everything.
	// Only shard 0 registers the commands (Open). New refuses a ShardID
	// outside 0..ShardCount-1.
	ShardID, ShardCount int
	// NoReconnect turns discordgo's automatic reconnection off (tests
	// that stop the fake first); production leaves it false.
	NoReconnect bool
	// Transport carries HTTP requests (nil: a copy of
	// http.DefaultTransport keeping more idle connections, for bursts).
	Transport http.RoundTripper
	// Poke is called after every command and button press that may have
	// changed a deadline (the bot.Scheduler's Poke); nil: nothing.
	Poke func()
	// Logger receives structured logs (nil: discard).
	Logger *slog.Logger
	// PublicKey is the application's public key (ParsePublicKey), which
	// the interactions endpoint (InteractionsHandler) checks every
	// request's signature with; nil when interactions come by the
	// gateway only.
	PublicKey ed25519.PublicKey
	// MaxClockSkew is how far a signed request's timestamp may be from
	// the bot's clock, either way, before the interactions endpoint
	// refuses it as stale (0: DefaultMaxClockSkew).
	MaxClockSkew time.Duration
	// ReplayGuard, when set, is asked by the interactions endpoint about
	// every signed request that this process has not seen (its signature
	// as the key), so that a request replayed to another process sharing
	// the store is refused too; the store's FirstSeen (storage.DB,
	// etcdstore.Store). nil: replays are refused by each endpoint's own
	// memory only.
	ReplayGuard bot.ReplayGuard
	// Deferred, when set, keeps every interaction acknowledged as
	// deferred until it is answered, so that another process can answer
	// it if this one dies first (FinishDeferred); the store the
	// processes share. nil: nothing is kept.
	Deferred bot.DeferredStore
	// ProcessID names this process among those sharing Deferred (its
	// name as a candidate for leadership): FinishDeferred leaves the
	// records of the processes alive to them.
	ProcessID string
	// FinishGrace is how old a record must be before FinishDeferred
	// answers it for a process that is not alive: a process joins the
	// election just after its gateway opens, so its first deferrals may
	// come before it is a candidate. 0 is DefaultFinishGrace; negative
	// is none (tests).
	FinishGrace time.Duration
}

// DefaultFinishGrace is Options.FinishGrace when it is 0: far longer than
// the moment between a process's gateway opening and its candidacy, and
// short against the 15 minutes an interaction's token lasts.
const DefaultFinishGrace = 5 * time.Second

// Commands is what the Bot needs of the transport-agnostic commands:
// *command.Handler implements it (tests wrap it, e.g. to slow it down).
type Commands interface {
	Specs() []command.Spec
	Execute(ctx context.Context, req command.Request) command.Reply
	Complete(ctx context.Context, req command.Request, focused string) []command.Choice
	Press(ctx context.Context, at command.Request, customID string) command.Reply
	Notification(ctx context.Context, n bot.Notification) command.Reply
}

var _ Commands = (*command.Handler)(nil)

// Bot is the Discord adapter: it registers the commands of a
// command.Handler as slash commands, answers interactions with it, keeps
// each game in a thread, and sends the service's notifications (Send).
// It holds no game state: everything it must remember (a game's thread,
// a user's blocked DMs) is stored through the gameplay.Service and the
// prefs.Service.
type Bot struct {
	svc   *gameplay.Service
	prefs *prefs.Service // where users want notifications, whose DMs are closed
	h     Commands
	opts  Options
	log   *slog.Logger
	s     *discordgo.Session

	ready   chan struct{}
	readyMu sync.Once
	appMu   sync.Mutex
	appID   string

	// mu guards closing and the registration of in-flight handlers, so
	// that Close waits for every handler it let in.
	mu       sync.Mutex
	closing  bool
	inflight sync.WaitGroup

	work *pool    // runs commands and button presses
	acks *ackGate // sends acknowledgements ahead of work

	games    keyedMutex // per game: thread creation
	dms      sync.Map   // user ID -> DM channel ID
	userName sync.Map   // user ID -> display name, for thread names
	threads  sync.Map   // channel ID -> threadRef

	// gameOption holds the commands that take a game:ID option.
	gameOption map[string]bool

	calls  sync.Map // interaction ID -> *httpCall: received over HTTP, see httpserver.go
	selfID string   // the bot's user ID when no READY told it (OpenHTTP); guarded by appMu
}

// New returns a Bot answering with h over svc, delivering notifications
// as the users' settings in settings say. It does not connect: see Open.
func New(svc *gameplay.Service, settings *prefs.Service, h Commands, opts Options) (*Bot, error) {
	if opts.Token == "" {
		return nil, errors.New("discord: no token")
	}
	if opts.DeferAfter <= 0 {
		opts.DeferAfter = DefaultDeferAfter
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.Workers <= 0 {
		opts.Workers = max(4, 4*runtime.GOMAXPROCS(0))
	}
	if opts.QueueLimit <= 0 {
		opts.QueueLimit = DefaultQueueLimit
	}
	if opts.ShardCount < 0 || opts.ShardID < 0 || opts.ShardID >= max(opts.ShardCount, 1) {
		return nil, fmt.Errorf("discord: shard %d of %d: the shard ID must be at least 0 and less than the shard count",
			opts.ShardID, opts.ShardCount)
	}
	if opts.MaxClockSkew <= 0 {
		opts.MaxClockSkew = DefaultMaxClockSkew
	}
	if opts.PublicKey != nil && len(opts.PublicKey) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("discord: the public key has %d bytes, want %d", len(opts.PublicKey), ed25519.PublicKeySize)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s, err := discordgo.New("Bot " + opts.Token)
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	transport := opts.Transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64 // a burst of answers reuses connections instead of opening one each
		transport = t
	}
	if opts.APIURL != "" {
		rt, err := newRewriteTransport(opts.APIURL, transport)
		if err != nil {
			return nil, fmt.Errorf("discord: %w", err)
		}
		transport = rt
	}
	s.Client = &http.Client{Transport: transport, Timeout: 20 * time.Second}
	s.Identify.Intents = discordgo.IntentsGuilds // slash commands and buttons need no privileged intent
	if opts.ShardCount > 1 {
		s.ShardID, s.ShardCount = opts.ShardID, opts.ShardCount // discordgo sends [ShardID, ShardCount] in IDENTIFY
	}
	s.ShouldReconnectOnError = !opts.NoReconnect
	s.ShouldRetryOnRateLimit = true
	s.StateEnabled = true

	b := &Bot{svc: svc, prefs: settings, h: h, opts: opts, log: log, s: s, ready: make(chan struct{}), appID: opts.ApplicationID,
		gameOption: make(map[string]bool), work: newPool(opts.Workers, opts.QueueLimit),
		acks: newAckGate(ackConcurrency)}
	for _, spec := range h.Specs() {
		for _, o := range spec.Options {
			if o.Name == "game" {
				b.gameOption[spec.Name] = true
			}
		}
	}
	s.AddHandler(b.onReady)
	s.AddHandler(b.onInteraction)
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) {
		b.mu.Lock()
		closing := b.closing
		b.mu.Unlock()
		if closing { // Close closed it: a clean shutdown, nothing to warn about
			b.log.Info("discord: gateway closed")
			return
		}
		b.log.Warn("discord: gateway disconnected")
	})
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) { b.log.Info("discord: gateway resumed") })
	return b, nil
}

// Session returns the discordgo session (for tests and diagnostics).
func (b *Bot) Session() *discordgo.Session { return b.s }

// UserID returns the bot's own user ID (from READY, or asked by
// OpenHTTP), "" before Open or OpenHTTP: the user the computer player
// plays under.
func (b *Bot) UserID() string {
	if st := b.s.State; st != nil && st.User != nil {
		return st.User.ID
	}
	b.appMu.Lock()
	defer b.appMu.Unlock()
	return b.selfID
}

// ApplicationID returns the application ID (from the options or READY).
func (b *Bot) ApplicationID() string {
	b.appMu.Lock()
	defer b.appMu.Unlock()
	return b.appID
}

func (b *Bot) onReady(_ *discordgo.Session, r *discordgo.Ready) {
	b.appMu.Lock()
	if b.appID == "" && r.Application != nil {
		b.appID = r.Application.ID
	}
	b.appMu.Unlock()
	user := ""
	if r.User != nil {
		user = r.User.Username
	}
	shard := []int{0, 1}
	if r.Shard != nil {
		shard = r.Shard[:]
	}
	b.log.Info("discord: ready", "user", user, "guilds", len(r.Guilds), "shard", shard)
	b.readyMu.Do(func() { close(b.ready) })
}

// Open connects to the gateway, waits for READY and, on shard 0 (the
// only one when not sharded), registers the commands (a bulk overwrite:
// running it again changes nothing). The other shards leave the commands
// to shard 0, so that they are written once whatever the number of
// processes.
func (b *Bot) Open(ctx context.Context) error {
	if err := b.s.Open(); err != nil {
		return fmt.Errorf("discord: connecting: %w", err)
	}
	select {
	case <-b.ready:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(readyTimeout):
		return errors.New("discord: no READY from the gateway")
	}
	if b.opts.ShardID != 0 {
		b.log.Info("discord: commands left to shard 0", "shard", b.opts.ShardID, "shards", b.opts.ShardCount)
		return nil
	}
	return b.Register(ctx)
}

// Register overwrites the application's commands (in Options.GuildID, or
// globally) with the handler's specs.
func (b *Bot) Register(ctx context.Context) error {
	appID := b.ApplicationID()
	if appID == "" {
		return errors.New("discord: no application ID (set discord.application_id or check READY)")
	}
	cmds, err := applicationCommands(b.h.Specs())
	if err != nil {
		return fmt.Errorf("discord: %w", err)
	}
	got, err := b.s.ApplicationCommandBulkOverwrite(appID, b.opts.GuildID, cmds, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("discord: registering commands: %w", err)
	}
	scope := "global"
	if b.opts.GuildID != "" {
		scope = "guild " + b.opts.GuildID
	}
	b.log.Info("discord: commands registered", "count", len(got), "scope", scope)
	return nil
}

// Close stops accepting interactions (new ones are answered "restarting"),
// waits up to Options.ShutdownTimeout for those in progress, and closes
// the gateway connection. It does not close the service's store.
func (b *Bot) Close() error {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(b.opts.ShutdownTimeout):
		b.log.Warn("discord: shutdown timeout: interactions still in progress", "timeout", b.opts.ShutdownTimeout)
	}
	return b.s.Close()
}

// enter registers a handler in flight; false once closing.
func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing {
		return false
	}
	b.inflight.Add(1)
	return true
}

// keyedMutex is a set of mutexes by key, created on demand and dropped
// when unused.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[uint64]*keyedEntry
}

type keyedEntry struct {
	mu   sync.Mutex
	refs int
}

// lock locks key and returns its unlock function.
func (k *keyedMutex) lock(key uint64) func() {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[uint64]*keyedEntry)
	}
	e := k.locks[key]
	if e == nil {
		e = &keyedEntry{}
		k.locks[key] = e
	}
	e.refs++
	k.mu.Unlock()
	e.mu.Lock()
	return func() {
		e.mu.Unlock()
		k.mu.Lock()
		if e.refs--; e.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}

// restCode returns Discord's JSON error code of err (0 if none) and the
// HTTP status (0 if err is not a REST error).
func restCode(err error) (code, status int) {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return 0, 0
	}
	if re.Response != nil {
		status = re.Response.StatusCode
	}
	if re.Message != nil {
		code = re.Message.Code
	}
	return code, status
}

// permanent reports whether a REST error will not go away by retrying:
// any 4xx but 429 (which discordgo already waits out). Retrying those
// would only spend the invalid-request budget (DESIGN.md §4).
func permanent(err error) bool {
	_, status := restCode(err)
	return status >= 400 && status < 500 && status != http.StatusTooManyRequests
}
