package discord_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/notify"
	"github.com/fairypost/fairypost/rules"
)

// TestRegistration checks that every command of the handler is registered
// in the configured guild, and that registering again changes nothing.
func TestRegistration(t *testing.T) {
	h := shared
	got := h.srv.Commands(guildID)
	specs := h.cmds.Specs()
	if len(got) != len(specs) {
		t.Fatalf("%d commands registered, want %d", len(got), len(specs))
	}
	for k, s := range specs {
		if got[k].Name != s.Name || len(got[k].Options) != len(s.Options) {
			t.Errorf("command %d: registered %s with %d options, want %s with %d", k, got[k].Name, len(got[k].Options), s.Name, len(s.Options))
		}
	}
	if g := h.srv.Commands(""); len(g) != 0 {
		t.Errorf("%d global commands registered with a guild configured", len(g))
	}
	writes := h.srv.CommandWrites()
	if err := h.b.Register(context.Background()); err != nil {
		t.Fatal(err)
	}
	again := h.srv.Commands(guildID)
	if h.srv.CommandWrites() != writes+1 || len(again) != len(got) {
		t.Errorf("second registration: %d writes (was %d), %d commands", h.srv.CommandWrites(), writes, len(again))
	}
	for k := range again {
		if again[k].Name != got[k].Name {
			t.Errorf("command %d renamed from %s to %s", k, got[k].Name, again[k].Name)
		}
	}
}

// TestEveryVariant plays a game of every variant key by slash commands in
// the game's thread: legal moves from the rules engine (the first legal
// one each time, multi-part turns included) for six actions, then a
// resignation. It checks the thread, the boards posted with the player to
// act pinged, and the result. TestFinishes plays every key to its real
// end.
func TestEveryVariant(t *testing.T) {
	h := shared
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range reg.Keys() {
		t.Run(key, func(t *testing.T) {
			ch := h.channel(t)
			u := h.users(t, "alice", "bob")
			g, thread := h.start(t, ch, u[0], u[1], key)
			if g.White != u[0] {
				t.Fatalf("alice chose white but plays %s", g.White)
			}
			th, ok := h.srv.Thread(thread)
			if !ok || th.ParentID != ch || !strings.HasPrefix(th.Name, "Game ") || !strings.Contains(th.Name, "("+reg.Default(key).Name+")") {
				t.Fatalf("thread %+v (found %v) of game %d in %s", th, ok, g.ID, ch)
			}
			// The new game's board was posted in the thread, pinging the player to act.
			h.waitMessage(t, thread, "with the first board", func(m discordtest.Message) bool {
				return len(m.Files) > 0 && slices.Contains(m.Mentions, g.ToAct)
			})

			for ply := 0; g.Status == bot.GameActive && ply < 6; ply++ {
				legal := h.legal(t, g)
				if len(legal) == 0 {
					t.Fatalf("game %d: no legal move for the player to act, yet active", g.ID)
				}
				mv := legal[0]
				var m discordtest.Message
				m, g = h.move(t, g, thread, mv)
				if len(m.Files) == 0 {
					t.Errorf("move %s: reply without a board: %q", mv, m.Content)
				}
				if g.Status == bot.GameActive && !slices.Contains(m.Mentions, g.ToAct) {
					t.Errorf("move %s: reply %q does not ping the player to act %s", mv, m.Content, g.ToAct)
				}
				if m.ChannelID != thread {
					t.Errorf("move reply posted in %s, not the thread %s", m.ChannelID, thread)
				}
			}
			if g.Status == bot.GameActive {
				m := public(t, h.slash(t, g.White, thread, "resign"))
				if strings.Contains(m.Content, "?") && len(m.Buttons()) > 0 {
					// A confirmation: press it.
					m = h.click(t, g.White, m, m.Buttons()[0].Label)
				}
				g = h.game(t, g.ID)
				if g.Status != bot.GameFinished || g.Result != bot.BlackWins {
					t.Fatalf("after resigning: status %s result %s (%q)", g.Status, g.Result, m.Content)
				}
			}
			// The end of the game reaches the thread with the final image
			// (and the GIF) once the outbox is delivered.
			h.deliver(t)
			h.waitMessage(t, thread, "with the result", func(m discordtest.Message) bool {
				return strings.Contains(m.Content, g.Result.String()) && len(m.Files) > 0
			})
			if n := len(h.srv.Threads(ch)); n != 1 {
				t.Errorf("%d threads in the channel, want 1", n)
			}
		})
	}
}

// TestMultiPartTurn checks a Train Wreck turn: the same player acts twice
// (own piece, then an opponent's), the reply saying the turn continues.
// Then the opponent resigns with the board's button and its confirmation.
func TestMultiPartTurn(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "trainwreck")
	m, g2 := h.move(t, g, thread, h.legal(t, g)[0])
	if g2.ToAct != u[0] || !strings.Contains(m.Content, "continues") {
		t.Fatalf("after the first part: to act %s, reply %q", g2.ToAct, m.Content)
	}
	if !slices.Contains(m.Mentions, u[0]) {
		t.Errorf("the continuing player is not pinged: %q", m.Content)
	}
	// Bob cannot act in Alice's turn.
	e := h.slash(t, u[1], thread, "move", discordtest.String("move", h.legal(t, g2)[0]))
	if !e.Ephemeral {
		t.Errorf("bob moving in alice's turn: public reply %q", e.Content)
	}
	board, g3 := h.move(t, g2, thread, h.legal(t, g2)[0])
	if g3.ToAct != u[1] || len(g3.Moves) != 2 {
		t.Fatalf("after the second part: to act %s, moves %q", g3.ToAct, g3.Moves)
	}
	// Bob resigns with the board's button, confirming privately.
	confirm := h.click(t, u[1], board, "Resign")
	if !confirm.Ephemeral {
		t.Errorf("the resignation's confirmation is public: %q", confirm.Content)
	}
	done := public(t, h.click(t, u[1], confirm, "Yes, resign"))
	if g4 := h.game(t, g.ID); g4.Status != bot.GameFinished || g4.Result != bot.WhiteWins || g4.Reason != "resignation" {
		t.Errorf("after resigning by button (%q): %s %s %q", done.Content, g4.Status, g4.Result, g4.Reason)
	}
}

// TestDrawByButtons: Alice offers a draw with the board's button, Bob
// accepts with the button of the offer.
func TestDrawByButtons(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	_, g = h.move(t, g, thread, "e2e4")
	board, g := h.move(t, g, thread, "e7e5")
	offer := public(t, h.click(t, u[0], board, "Offer draw"))
	if h.game(t, g.ID).DrawOffer != u[0] {
		t.Fatalf("no draw offer recorded after %q", offer.Content)
	}
	// The offer reaches Bob with Accept/Decline buttons.
	withButtons := offer
	if !slices.ContainsFunc(offer.Buttons(), func(b discordtest.Button) bool { return b.Label == "Accept draw" }) {
		h.deliver(t)
		withButtons = h.lastWithButton(t, thread, "Accept draw")
	}
	res := public(t, h.click(t, u[1], withButtons, "Accept draw"))
	g = h.game(t, g.ID)
	if g.Status != bot.GameFinished || g.Result != bot.Draw {
		t.Fatalf("after accepting: status %s result %s (%q)", g.Status, g.Result, res.Content)
	}
}

// TestStrangerAndDoubleClick: a user who is not playing presses a game's
// buttons and is told privately; two quick clicks on the same button
// count once.
func TestStrangerAndDoubleClick(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob", "carol")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	board, g := h.move(t, g, thread, "d2d4")

	for _, label := range []string{"Resign", "Offer draw"} {
		m := h.click(t, u[2], board, label)
		if !m.Ephemeral {
			t.Errorf("carol pressing %q: public reply %q", label, m.Content)
		}
	}
	if after := h.game(t, g.ID); after.Version != g.Version || after.Status != bot.GameActive {
		t.Fatalf("a stranger's click changed game %d (version %d -> %d)", g.ID, g.Version, after.Version)
	}

	// Double click: Bob's "Offer draw" twice at once.
	id := buttonID(t, board, "Offer draw")
	var ixs [2]*discordtest.Interaction
	var wg sync.WaitGroup
	for k := range ixs {
		wg.Go(func() {
			ix, err := h.srv.Click(u[1], board.ChannelID, board.ID, id)
			if err != nil {
				t.Error(err)
				return
			}
			ixs[k] = ix
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	publicReplies := 0
	for _, ix := range ixs {
		if m := h.shown(t, ix); !m.Ephemeral {
			publicReplies++
		}
	}
	after := h.game(t, g.ID)
	if publicReplies != 1 || after.DrawOffer != u[1] || after.Version != g.Version+1 {
		t.Errorf("double click: %d public replies, offer %q, version %d -> %d", publicReplies, after.DrawOffer, g.Version, after.Version)
	}
	// The old buttons are stale now: a third click is refused.
	if m := h.click(t, u[1], board, "Resign"); !m.Ephemeral {
		t.Errorf("stale click: public reply %q", m.Content)
	}
}

// TestTimeout: the player to act runs out of time; the sweep ends the
// game and the result reaches the thread and the players.
func TestTimeout(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 1))
	_, g = h.move(t, g, thread, "e2e4")
	_, g = h.move(t, g, thread, "e7e5")
	h.deliver(t)
	h.clk.Advance(25 * time.Hour)
	rep, err := h.svc.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	g = h.game(t, g.ID)
	if rep.TimedOut < 1 || g.Status != bot.GameFinished || g.Result != bot.BlackWins {
		t.Fatalf("sweep %+v: status %s result %s reason %q", rep, g.Status, g.Result, g.Reason)
	}
	h.deliver(t)
	h.waitMessage(t, thread, "with the result", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "0-1") && len(m.Files) > 0
	})
	// Both players were told (by DM, their default).
	for _, id := range u {
		if !slices.ContainsFunc(h.srv.DMs(id), func(m discordtest.Message) bool { return strings.Contains(m.Content, "0-1") }) {
			t.Errorf("player %s got no DM of the result: %s", id, contents(h.srv.DMs(id)))
		}
	}
}

// TestTakeback: Alice asks to take back her move, Bob accepts.
func TestTakeback(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	_, g = h.move(t, g, thread, "e2e4")
	_, g = h.move(t, g, thread, "e7e5")
	_, g = h.move(t, g, thread, "g1f3")
	ask := public(t, h.slash(t, u[0], thread, "takeback", discordtest.String("action", "ask")))
	if h.game(t, g.ID).Takeback != u[0] {
		t.Fatalf("no takeback request after %q", ask.Content)
	}
	acc := public(t, h.slash(t, u[1], thread, "takeback", discordtest.String("action", "accept")))
	g = h.game(t, g.ID)
	if len(g.Moves) != 2 || g.ToAct != u[0] || g.Takeback != "" {
		t.Fatalf("after the takeback (%q): moves %q, to act %s", acc.Content, g.Moves, g.ToAct)
	}
}

// TestAutocomplete: /move's move option lists the legal moves matching
// what was typed (at most 25); the game option lists the user's games.
func TestAutocomplete(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	_, thread := h.start(t, ch, u[0], u[1], "chess")
	ctx := ctxT(t)
	ix, err := h.srv.Autocomplete(u[0], thread, "move", discordtest.Focused("move", "N"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ix.Choices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, c := range cs {
		values = append(values, c.Value.(string))
	}
	slices.Sort(values)
	if len(values) != 4 {
		t.Errorf("knight moves at the start: %q", values)
	}
	answered(t, ix)
	// Everything typed nothing: all 20 moves of the start position.
	ix, _ = h.srv.Autocomplete(u[0], thread, "move", discordtest.Focused("move", ""))
	if cs, err = ix.Choices(ctx); err != nil || len(cs) != 20 {
		t.Errorf("all moves: %d choices, err %v", len(cs), err)
	}
	// Bob is not to act: no moves to offer.
	ix, _ = h.srv.Autocomplete(u[1], thread, "move", discordtest.Focused("move", ""))
	if cs, err = ix.Choices(ctx); err != nil || len(cs) != 0 {
		t.Errorf("bob's choices: %d, err %v", len(cs), err)
	}
	// In the channel (not the thread) the game is found too.
	ix, _ = h.srv.Autocomplete(u[0], ch, "move", discordtest.Focused("move", "e"))
	if cs, err = ix.Choices(ctx); err != nil || len(cs) == 0 || len(cs) > 25 {
		t.Errorf("choices in the channel: %d, err %v", len(cs), err)
	}
}

// TestSlowCommandIsDeferred: a command slower than the deadline is
// deferred at once and its answer edited in; an error after a deferral is
// shown privately (the public placeholder removed).
func TestSlowCommandIsDeferred(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	h.cmds.delay.Store(int64(fakeDeadline + 200*time.Millisecond))
	defer h.cmds.delay.Store(0)

	ix, err := h.srv.Slash(u[0], thread, "move", discordtest.String("move", "e4"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ix.Response(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("slow command answered with type %d, want a deferral", r.Type)
	}
	m := h.shown(t, ix)
	if m.Ephemeral || len(m.Files) == 0 || m.Edits == 0 || !slices.Contains(m.Mentions, u[1]) {
		t.Errorf("edited answer: ephemeral %v, %d files, %d edits, mentions %q: %q", m.Ephemeral, len(m.Files), m.Edits, m.Mentions, m.Content)
	}
	if g = h.game(t, g.ID); len(g.Moves) != 1 {
		t.Fatalf("moves %q", g.Moves)
	}

	// A slow error: bob plays an illegal move.
	ix, _ = h.srv.Slash(u[1], thread, "move", discordtest.String("move", "e2e5"))
	m = h.shown(t, ix)
	if !m.Ephemeral {
		t.Errorf("slow error shown publicly: %q", m.Content)
	}
	r, _ = ix.Response(ctxT(t))
	if _, ok := h.srv.Message(thread, r.Message.ID); ok {
		t.Errorf("the public placeholder of a private answer was left")
	}
}

// TestDroppedGateway: the gateway connection drops; discordgo reconnects
// and resumes, and commands work again.
func TestDroppedGateway(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice")
	before := h.srv.Resumes() + h.srv.Identifies()
	h.srv.DropConnections()
	if err := h.srv.WaitFor(ctxT(t), func() bool {
		return h.srv.Resumes()+h.srv.Identifies() > before && h.srv.Connections() == 1
	}); err != nil {
		t.Fatalf("no reconnection: resumes %d identifies %d connections %d", h.srv.Resumes(), h.srv.Identifies(), h.srv.Connections())
	}
	m := h.slash(t, u[0], ch, "variants")
	if !strings.Contains(m.Content, "tank") {
		t.Errorf("/variants after reconnecting: %q", m.Content)
	}
}

// TestBlockedDM: a player who does not accept DMs is reached in the
// game's thread, remembered, and not DMed again.
func TestBlockedDM(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	h.srv.BlockDMs(u[1])
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	h.deliver(t) // challenge and start notifications
	_, g = h.move(t, g, thread, "e2e4")
	h.deliver(t) // bob's turn: a DM is refused, the thread pings him
	p, err := h.prefs.Preferences(context.Background(), u[1])
	if err != nil || !p.DMBlocked {
		t.Fatalf("bob's blocked DMs not recorded: %+v, %v", p, err)
	}
	h.waitMessage(t, thread, "pinging bob for his turn", func(m discordtest.Message) bool {
		return m.InteractionID == "" && slices.Contains(m.Mentions, u[1])
	})
	refused := countDMRefusals(h)
	_, g = h.move(t, g, thread, "e7e5")
	_, g = h.move(t, g, thread, "g1f3")
	h.deliver(t)
	if n := countDMRefusals(h); n != refused {
		t.Errorf("bob was DMed again after refusing: %d refusals, was %d", n, refused)
	}
	if len(h.srv.DMs(u[1])) != 0 {
		t.Errorf("bob got DMs: %s", contents(h.srv.DMs(u[1])))
	}
}

// countDMRefusals counts Discord's 50007 answers so far.
func countDMRefusals(h *harness) int {
	n := 0
	for _, r := range h.srv.Requests() {
		if r.Code == discordgo.ErrCodeCannotSendMessagesToThisUser {
			n++
		}
	}
	return n
}

// TestThreadsForbidden: where the bot may not make threads, the game is
// played in the channel, and the refusal is asked only once.
func TestThreadsForbidden(t *testing.T) {
	h := shared
	ch := h.channel(t)
	h.srv.ForbidThreads(ch)
	u := h.users(t, "alice", "bob")
	g, where := h.start(t, ch, u[0], u[1], "chess")
	if where != ch {
		t.Fatalf("game %d posted in %s, want the channel %s", g.ID, where, ch)
	}
	m, _ := h.move(t, g, ch, "e2e4")
	if m.ChannelID != ch || len(h.srv.Threads(ch)) != 0 {
		t.Errorf("move reply in %s, threads %d", m.ChannelID, len(h.srv.Threads(ch)))
	}
	refusals := 0
	for _, r := range h.srv.Requests() {
		if r.Status == 403 && strings.Contains(r.Path, "/channels/"+ch+"/threads") {
			refusals++
		}
	}
	if refusals != 1 {
		t.Errorf("thread creation refused %d times, want once", refusals)
	}
}

// TestArchivedThreadReopens: a move typed in the channel posts the board
// into the game's archived thread, which reopens it for the next move.
func TestArchivedThreadReopens(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	h.srv.SetArchived(thread, true)
	m := public(t, h.slash(t, u[0], ch, "move", discordtest.String("move", "e4")))
	if m.ChannelID != ch {
		t.Fatalf("reply in %s", m.ChannelID)
	}
	if err := h.srv.WaitFor(ctxT(t), func() bool { th, _ := h.srv.Thread(thread); return !th.Archived }); err != nil {
		t.Fatalf("the thread stayed archived")
	}
	h.waitMessage(t, thread, "with bob's turn", func(m discordtest.Message) bool {
		return slices.Contains(m.Mentions, u[1]) && len(m.Files) > 0
	})
	if _, g = h.move(t, h.game(t, g.ID), thread, "e5"); len(g.Moves) != 2 {
		t.Errorf("moves %q", g.Moves)
	}
}

// TestRestart stops the bot in the middle of a game (with a notification
// still in the outbox) and starts a new one — a new session, service and
// adapter over the reopened database: the game goes on in its thread,
// nothing lost, and the pending notification is delivered.
func TestRestart(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	path := t.TempDir() + "/restart.db"
	clk := newClock()
	a, err := startBot(srv, path, clk, boardSize)
	if err != nil {
		t.Fatal(err)
	}
	ch := a.channel(t)
	u := a.users(t, "alice", "bob")
	g, thread := a.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 3))
	_, g = a.move(t, g, thread, "e2e4")
	_, g = a.move(t, g, thread, "e7e5")
	a.deliver(t)
	dmsBefore := len(srv.DMs(u[1]))
	// The bot is stopped while a slow /move is in progress: the move is
	// answered (deferred, then edited) before the connection closes.
	entered := make(chan struct{}, 1)
	a.cmds.entered.Store(&entered)
	a.cmds.delay.Store(int64(deferAfter + 200*time.Millisecond))
	ix, err := srv.Slash(u[0], thread, "move", discordtest.String("move", "g1f3"))
	if err != nil {
		t.Fatal(err)
	}
	<-entered
	a.stop() // bob's your-turn stays in the outbox
	if m := a.shown(t, ix); m.Ephemeral || len(m.Files) == 0 {
		t.Errorf("the move in flight at shutdown: %q", m.Content)
	}
	g.Moves = append(g.Moves, "g1f3")
	g.Version++
	g.ToAct = u[1]
	a.cmds.delay.Store(0)

	b, err := startBot(srv, path, clk, boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer b.stop()
	after := b.game(t, g.ID)
	if !slices.Equal(after.Moves, g.Moves) || after.Version != g.Version || after.ThreadID != thread ||
		after.ToAct != u[1] || after.Deadline.IsZero() {
		t.Fatalf("after the restart: %+v\nbefore: %+v", after, g)
	}
	if b.deliver(t) < 1 || len(srv.DMs(u[1])) <= dmsBefore {
		t.Errorf("the pending notification was not delivered after the restart")
	}
	// Bob moves in the thread: the new adapter knows it is game g's.
	m, g2 := b.move(t, after, thread, "b8c6")
	if !slices.Contains(m.Mentions, u[0]) || len(g2.Moves) != 4 {
		t.Errorf("move after restart: %q, moves %q", m.Content, g2.Moves)
	}
	// A stale button from before the restart is refused, a fresh one works.
	old := srv.Messages(thread)[0] // the first board
	if r := b.click(t, u[0], old, "Offer draw"); !r.Ephemeral {
		t.Errorf("stale button after restart accepted: %q", r.Content)
	}
	if r := b.click(t, u[0], m, "Offer draw"); r.Ephemeral || b.game(t, g.ID).DrawOffer != u[0] {
		t.Errorf("fresh button after restart: %q", r.Content)
	}
	if n := len(srv.Threads(ch)); n != 1 {
		t.Errorf("%d threads: the restart made another", n)
	}
}

// TestNotificationPreferences: "channel" pings in the game's thread
// instead of a DM; "off" sends nothing for turns, while the end of the
// game still reaches the thread once.
func TestNotificationPreferences(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	h.slash(t, u[1], ch, "settings", discordtest.String("notify", "channel"))
	if p, _ := h.prefs.Preferences(context.Background(), u[1]); p.Delivery != bot.DeliverChannel {
		t.Fatalf("bob's delivery %s", p.Delivery)
	}
	h.slash(t, u[0], ch, "settings", discordtest.String("notify", "off"))
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	h.deliver(t)
	_, g = h.move(t, g, thread, "e2e4")
	before := len(h.srv.Messages(thread))
	h.deliver(t)
	posted := h.srv.Messages(thread)[before:]
	if len(posted) != 1 || !slices.Contains(posted[0].Mentions, u[1]) || posted[0].InteractionID != "" {
		t.Errorf("bob's turn in the thread: %s", contents(posted))
	}
	if n := len(h.srv.DMs(u[1])); n != 0 {
		t.Errorf("bob (channel) got %d DMs", n)
	}
	_, g = h.move(t, g, thread, "e7e5")
	before = len(h.srv.Messages(thread))
	h.deliver(t)
	if posted := h.srv.Messages(thread)[before:]; len(posted) != 0 {
		t.Errorf("alice (off) was told in the thread: %s", contents(posted))
	}
	if n := len(h.srv.DMs(u[0])); n != 0 {
		t.Errorf("alice (off) got %d DMs", n)
	}
	public(t, h.slash(t, u[0], thread, "resign"))
	if g = h.game(t, g.ID); g.Status != bot.GameFinished {
		t.Fatalf("status %s after /resign", g.Status)
	}
	before = len(h.srv.Messages(thread))
	h.deliver(t)
	results := 0
	for _, m := range h.srv.Messages(thread)[before:] {
		if strings.Contains(m.Content, "0-1") {
			results++
		}
	}
	// Bob (channel) is pinged with his copy; White's copy is the thread's record.
	if results != 2 {
		t.Errorf("%d result posts in the thread, want 2: %s", results, contents(h.srv.Messages(thread)[before:]))
	}
}

// TestRateLimitedAnswer: Discord answers the first response with 429;
// discordgo waits and retries, and the interaction is answered once.
func TestRateLimitedAnswer(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice")
	h.srv.RateLimit("/callback", 1, 100*time.Millisecond)
	ix, err := h.srv.Slash(u[0], ch, "help")
	if err != nil {
		t.Fatal(err)
	}
	h.shown(t, ix) // answered once, in time, nothing refused
	// /help comes in several messages: the first (the response) lists /move.
	if r, err := ix.Response(ctxT(t)); err != nil || r.Message == nil || !strings.Contains(r.Message.Content, "/move") {
		t.Errorf("/help after a 429: %+v, %v", r, err)
	}
	limited := 0
	for _, r := range h.srv.Requests() {
		if r.Status == 429 {
			limited++
		}
	}
	if limited == 0 {
		t.Error("no 429 was served")
	}
}

// TestDeliveryRetried: Discord fails (500) when a notification is sent;
// it stays in the outbox and is delivered on a later run, nothing lost.
// An open challenge is announced in its channel.
func TestDeliveryRetried(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice")
	h.deliver(t) // nothing pending from other tests
	m := public(t, h.slash(t, u[0], ch, "challenge", discordtest.String("variant", "grand")))
	if len(m.Buttons()) == 0 {
		t.Fatalf("open challenge without buttons: %q", m.Content)
	}
	before := len(h.srv.Messages(ch))
	h.srv.FailNext(1)
	if n := h.deliver(t); n != 0 {
		t.Fatalf("%d delivered while Discord fails", n)
	}
	h.clk.Advance(notify.RetryDelay(0) + time.Second)
	if n := h.deliver(t); n != 1 {
		t.Fatalf("%d delivered on the retry, want 1", n)
	}
	posted := h.srv.Messages(ch)[before:]
	if len(posted) != 1 || !strings.Contains(posted[0].Content, "anyone") {
		t.Errorf("announcement of the open challenge: %s", contents(posted))
	}
}

// TestReminderReopensThread: when little time is left, the reminder is
// posted into the game's (archived) thread, which reopens it before the
// move is due, and the player is DMed.
func TestReminderReopensThread(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess", discordtest.Int("days", 1))
	_, g = h.move(t, g, thread, "e2e4")
	h.deliver(t)
	h.srv.SetArchived(thread, true)
	h.clk.Advance(20 * time.Hour) // 4 of 24 hours left: under bob's 20%
	rep, err := h.svc.Sweep(context.Background())
	if err != nil || rep.Reminded < 1 {
		t.Fatalf("sweep %+v, err %v", rep, err)
	}
	dms := len(h.srv.DMs(u[1]))
	h.deliver(t)
	th, _ := h.srv.Thread(thread)
	if th.Archived || th.Unarchives == 0 {
		t.Errorf("thread after the reminder: %+v", th)
	}
	if len(h.srv.DMs(u[1])) <= dms {
		t.Error("bob was not reminded by DM")
	}
	if _, g = h.move(t, g, thread, "e7e5"); g.Status != bot.GameActive {
		t.Errorf("status %s", g.Status)
	}
}
