package discord_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/analysis"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/notify"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// Timings of the tests: the fake refuses first answers after fakeDeadline
// (Discord: 3 s) and the bot defers after deferAfter (production: 1.5 s).
const (
	guildID      = "100"
	fakeDeadline = time.Second
	deferAfter   = 300 * time.Millisecond
	boardSize    = 240 // small boards keep the tests fast; the benchmark uses the default
	waitLimit    = 15 * time.Second
)

// shared is the bot every test uses unless it needs its own: one
// discordgo session, because Session.Close sleeps a second. Tests using it
// do not run in parallel; each uses its own channel and users.
var shared *harness

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fairypost-discord-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := newFake()
	shared, err = startBot(srv, filepath.Join(dir, "bot.db"), newClock(), boardSize)
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the bot:", err)
		os.Exit(1)
	}
	code := m.Run()
	// Every index of the shared database still matches its records
	// (storage.DB.Check, as testkit's databases are checked).
	if problems, err := shared.db.Check(context.Background()); err != nil || len(problems) > 0 {
		fmt.Fprintln(os.Stderr, "the shared database:", err, problems)
		code = 1
	}
	shared.stop()
	srv.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newFake returns a fake Discord with one guild.
func newFake() *discordtest.Server {
	srv := discordtest.New(discordtest.WithDeadline(fakeDeadline))
	srv.AddGuild(guildID, "chess club")
	return srv
}

// newClock returns the service's clock, moved by tests (timeouts).
func newClock() *testkit.Clock { return testkit.NewClock(testkit.T0) }

// slowCommands delays Execute by delay (a slow render, a slow disk), or
// holds it until gate is closed, and tells entered (when set) that an
// Execute began.
type slowCommands struct {
	discord.Commands
	delay   atomic.Int64 // nanoseconds
	entered atomic.Pointer[chan struct{}]
	gate    atomic.Pointer[chan struct{}] // when set, Execute waits until it is closed
}

func (s *slowCommands) Execute(ctx context.Context, req command.Request) command.Reply {
	if c := s.entered.Load(); c != nil {
		select {
		case *c <- struct{}{}:
		default:
		}
	}
	if g := s.gate.Load(); g != nil {
		<-*g
	}
	if d := time.Duration(s.delay.Load()); d > 0 {
		time.Sleep(d)
	}
	return s.Commands.Execute(ctx, req)
}

// harness is one running bot: the real service over a bbolt file, the
// real command handler and renderer, the adapter with its discordgo
// session connected to the fake.
type harness struct {
	srv   *discordtest.Server
	path  string
	db    *storage.DB
	svc   *gameplay.Service
	prefs *prefs.Service
	tours *tournaments.Service
	rates *ratings.Service
	cmds  *slowCommands
	b     *discord.Bot
	deliv *notify.Deliverer
	clk   *testkit.Clock
	logs  *testkit.Buffer
	// analyses runs /analysis (level 1, 100 a player a day).
	analyses *analysis.Service
}

// startBot opens the database at path and connects a bot to srv, which
// defers after deferAfter.
func startBot(srv *discordtest.Server, path string, clk *testkit.Clock, size int, opts ...gameplay.Option) (*harness, error) {
	return startBotWith(srv, path, clk, size, discord.Options{DeferAfter: deferAfter}, opts...)
}

// startBotWith opens the database at path and connects a bot to srv with
// the timings and limits of dopts (its token, address, guild, logger and
// shutdown timeout are the harness's).
func startBotWith(srv *discordtest.Server, path string, clk *testkit.Clock, size int, dopts discord.Options, opts ...gameplay.Option) (*harness, error) {
	return startBotOver(srv, path, testkit.Stores, clk, size, dopts, opts...)
}

// startBotOver is startBotWith with the stores stores makes of the
// database (a testkit.Probe's, say): the service and the deliverer use
// them.
func startBotOver(srv *discordtest.Server, path string, stores func(*storage.DB) gameplay.Stores, clk *testkit.Clock, size int, dopts discord.Options, opts ...gameplay.Option) (*harness, error) {
	return startBotOpen(srv, path, stores, clk, size, dopts, (*discord.Bot).Open, opts...)
}

// startBotOpen is startBotOver opening the bot with open (Bot.Open, or
// Bot.OpenHTTP for a bot without a gateway connection).
func startBotOpen(srv *discordtest.Server, path string, stores func(*storage.DB) gameplay.Stores, clk *testkit.Clock, size int, dopts discord.Options, open func(*discord.Bot, context.Context) error, opts ...gameplay.Option) (*harness, error) {
	return startBotLinked(srv, path, stores, clk, size, dopts, open, nil, opts...)
}

// startBotLinked is startBotOpen with the game pages' addresses that link
// makes of the database (command.Options.Link; nil: none).
func startBotLinked(srv *discordtest.Server, path string, stores func(*storage.DB) gameplay.Stores, clk *testkit.Clock, size int, dopts discord.Options,
	open func(*discord.Bot, context.Context) error, link func(*storage.DB) func(context.Context, uint64) (string, error), opts ...gameplay.Option) (*harness, error) {
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	reg, err := rules.NewRegistry()
	if err != nil {
		return nil, err
	}
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	st := stores(db)
	svc := gameplay.NewService(st, reg, append([]gameplay.Option{gameplay.Clock(clk.Now)}, opts...)...)
	ratings.Register(svc)
	settings := prefs.New(svc, st.Users)
	tours, rates := tournaments.New(svc, st.Tournaments, st.Ratings), ratings.New(svc, st.Ratings)
	analyses, err := analysis.New(svc, db, analysis.Config{Level: 1, PerDay: 100}, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	copts := command.Options{BoardSize: size, Logger: log, Tournaments: tours, Ratings: rates, Analyses: analyses}
	if link != nil {
		copts.Link = link(db)
	}
	cmds := &slowCommands{Commands: command.New(svc, settings, copts)}
	dopts.Token, dopts.APIURL, dopts.GuildID, dopts.ShutdownTimeout, dopts.Logger = "test-token", srv.URL(), guildID, 5*time.Second, log
	b, err := discord.New(svc, settings, cmds, dopts)
	if err != nil {
		db.Close()
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := open(b, ctx); err != nil {
		db.Close()
		return nil, err
	}
	h := &harness{srv: srv, path: path, db: db, svc: svc, prefs: settings, tours: tours, rates: rates, cmds: cmds, b: b, clk: clk, logs: logs, analyses: analyses}
	h.deliv = notify.NewDeliverer(st.Outbox, b.Send, clk.Now, log).Digests(settings)
	return h, nil
}

// stop closes the bot and its database.
func (h *harness) stop() {
	h.b.Close()
	h.analyses.Close()
	h.db.Close()
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return ctx
}

// channel adds a text channel for one test.
func (h *harness) channel(t testing.TB) string {
	id := h.srv.NewID()
	h.srv.AddChannel(guildID, id, "games-"+id)
	return id
}

// users adds users named by names (made unique) and returns their IDs.
func (h *harness) users(t testing.TB, names ...string) []string {
	var ids []string
	for _, n := range names {
		id := h.srv.NewID()
		h.srv.AddUser(id, n+id)
		ids = append(ids, id)
	}
	return ids
}

// answered checks Discord's rules for one interaction: answered once,
// in time, nothing refused.
func answered(t testing.TB, ix *discordtest.Interaction) {
	t.Helper()
	if ix.Failed() || ix.Acks() != 1 || len(ix.Rejected()) > 0 {
		t.Errorf("interaction %s %s%s: failed %v, acks %d, refused %v", ix.ID, ix.Command, ix.CustomID, ix.Failed(), ix.Acks(), ix.Rejected())
	}
}

// shown waits for what the user of interaction ix finally sees: the
// response message, the edit of a deferred response, or the ephemeral
// follow-up that replaced a deferred one.
func (h *harness) shown(t testing.TB, ix *discordtest.Interaction) discordtest.Message {
	t.Helper()
	ctx := ctxT(t)
	r, err := ix.Response(ctx)
	if err != nil {
		t.Fatalf("interaction %s %s%s: %v", ix.ID, ix.Command, ix.CustomID, err)
	}
	var out discordtest.Message
	err = h.srv.WaitFor(ctx, func() bool {
		if f := ix.Followups(); len(f) > 0 {
			out = f[0]
			return true
		}
		if r.Message == nil {
			return false
		}
		m, ok := h.srv.Message(ix.ChannelID, r.Message.ID)
		if ok && !m.Loading {
			out = m
			return true
		}
		return false
	})
	if err != nil {
		t.Fatalf("interaction %s %s%s: no message shown: %v", ix.ID, ix.Command, ix.CustomID, err)
	}
	answered(t, ix)
	return out
}

// slash runs a slash command and returns what the user sees.
func (h *harness) slash(t testing.TB, user, channel, cmd string, args ...discordtest.Arg) discordtest.Message {
	t.Helper()
	ix, err := h.srv.Slash(user, channel, cmd, args...)
	if err != nil {
		t.Fatalf("/%s: %v", cmd, err)
	}
	return h.shown(t, ix)
}

// click presses the button labelled label on message m.
func (h *harness) click(t testing.TB, user string, m discordtest.Message, label string) discordtest.Message {
	t.Helper()
	id := buttonID(t, m, label)
	ix, err := h.srv.Click(user, m.ChannelID, m.ID, id)
	if err != nil {
		t.Fatalf("click %q: %v", label, err)
	}
	return h.shown(t, ix)
}

// buttonID returns the custom ID of the button labelled label on m.
func buttonID(t testing.TB, m discordtest.Message, label string) string {
	t.Helper()
	var labels []string
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b.CustomID
		}
		labels = append(labels, b.Label)
	}
	t.Fatalf("message %q has no button %q (buttons %q)", m.Content, label, labels)
	return ""
}

// public fails unless m is a public message (not an error).
func public(t testing.TB, m discordtest.Message) discordtest.Message {
	t.Helper()
	if m.Ephemeral {
		t.Fatalf("unexpected ephemeral reply %q", m.Content)
	}
	return m
}

// game returns game id from the store.
func (h *harness) game(t testing.TB, id uint64) *bot.Game {
	t.Helper()
	g, err := h.svc.Views().Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// channelGame returns the only game started in channel.
func (h *harness) channelGame(t testing.TB, channel string) *bot.Game {
	t.Helper()
	gs, err := h.svc.Views().ChannelGames(context.Background(), channel)
	if err != nil || len(gs) != 1 {
		t.Fatalf("channel %s: games %v, err %v", channel, gs, err)
	}
	return gs[0]
}

// start has white challenge black in channel to variant (no time limit
// unless days is given), black accept with the button, and returns the
// game after any pre-game choices, with its thread.
func (h *harness) start(t testing.TB, channel, white, black, variant string, extra ...discordtest.Arg) (*bot.Game, string) {
	t.Helper()
	args := append([]discordtest.Arg{discordtest.String("variant", variant), discordtest.User("opponent", black)}, extra...)
	if v := h.svc.Rules().Default(variant); v == nil || v.PreGame == nil {
		// A variant with a pre-game choice has no colour to ask for.
		args = append(args, discordtest.String("color", "white"))
	}
	if !slices.ContainsFunc(extra, func(a discordtest.Arg) bool { return a.Name == "days" }) {
		args = append(args, discordtest.Int("days", 0))
	}
	ch := public(t, h.slash(t, white, channel, "challenge", args...))
	if !slices.Contains(ch.Mentions, black) {
		t.Errorf("challenge %q does not ping the opponent", ch.Content)
	}
	acc := public(t, h.click(t, black, ch, "Accept"))
	g := h.channelGame(t, channel)
	for g.Status == bot.GameSetup {
		s := g.Setup
		who, choice := s.ArmyPicker(), "white"
		if s.Army != "" {
			who, choice = s.FirstPicker(), "me"
		}
		public(t, h.slash(t, who, channel, "choose", discordtest.String("choice", choice)))
		g = h.game(t, g.ID)
	}
	if g.Status != bot.GameActive {
		t.Fatalf("game %d: status %s after accepting", g.ID, g.Status)
	}
	if len(acc.Files) == 0 || !strings.HasSuffix(acc.Files[0].Name, ".png") {
		t.Errorf("the accept reply has no board: %q files %d", acc.Content, len(acc.Files))
	}
	return g, h.thread(t, g.ID)
}

// thread waits until game id has its thread (made right after the answer
// that started the game) and returns it.
func (h *harness) thread(t testing.TB, id uint64) string {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if g := h.game(t, id); g.ThreadID != "" {
			return g.ThreadID
		}
	}
	t.Fatalf("game %d has no thread", id)
	return ""
}

// legal returns the canonical legal moves of the player to act in g.
func (h *harness) legal(t testing.TB, g *bot.Game) []string {
	t.Helper()
	ms, err := h.svc.Views().LegalMoves(context.Background(), g.ID, g.ToAct)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.Canonical)
	}
	return out
}

// move plays move in g's thread as the player to act and returns the
// reply and the game after it.
func (h *harness) move(t testing.TB, g *bot.Game, thread, move string) (discordtest.Message, *bot.Game) {
	t.Helper()
	m := public(t, h.slash(t, g.ToAct, thread, "move", discordtest.String("move", move)))
	ng := h.game(t, g.ID)
	if len(ng.Moves) <= len(g.Moves) {
		t.Fatalf("game %d: move %q not recorded (%q)", g.ID, move, m.Content)
	}
	return m, ng
}

// deliver runs the deliverer once.
func (h *harness) deliver(t testing.TB) int {
	t.Helper()
	n, err := h.deliv.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitMessage waits until channel has a message satisfying cond and
// returns it.
func (h *harness) waitMessage(t testing.TB, channel string, what string, cond func(discordtest.Message) bool) discordtest.Message {
	t.Helper()
	var found discordtest.Message
	err := h.srv.WaitFor(ctxT(t), func() bool {
		for _, m := range h.srv.Messages(channel) {
			if cond(m) {
				found = m
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("channel %s: no message %s; messages: %s", channel, what, contents(h.srv.Messages(channel)))
	}
	return found
}

func contents(ms []discordtest.Message) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, strconv.Quote(m.Content))
	}
	return strings.Join(parts, ", ")
}

// lastWithButton returns the last public message in channel carrying
// the button label.
func (h *harness) lastWithButton(t testing.TB, channel, label string) discordtest.Message {
	t.Helper()
	ms := h.srv.Messages(channel)
	for k := len(ms) - 1; k >= 0; k-- {
		for _, b := range ms[k].Buttons() {
			if b.Label == label && !ms[k].Ephemeral {
				return ms[k]
			}
		}
	}
	t.Fatalf("channel %s: no message with a %q button; messages: %s", channel, label, contents(ms))
	return discordtest.Message{}
}
