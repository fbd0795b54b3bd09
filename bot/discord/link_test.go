package discord_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// linkedBot starts a bot whose boards link to the game pages, and a page
// server over the same store answering those links (the server checks
// their tokens). It returns the bot, the pages' address and the secret.
func linkedBot(t *testing.T) (*harness, string, []byte) {
	t.Helper()
	srv := newFake()
	t.Cleanup(srv.Close)
	var key []byte
	var base string
	pages := httptest.NewUnstartedServer(nil)
	link := func(db *storage.DB) func(context.Context, uint64) (string, error) {
		sec, err := db.EnsureSecret(context.Background(), storage.PageSecret)
		if err != nil {
			t.Fatal(err)
		}
		key = sec.Key
		base = "http://" + pages.Listener.Addr().String()
		return web.NewLinker(base, func(ctx context.Context) ([]byte, error) {
			s, err := db.Secret(ctx, storage.PageSecret)
			return s.Key, err
		}).Link
	}
	h, err := startBotLinked(srv, filepath.Join(t.TempDir(), "linked.db"), testkit.Stores, newClock(), boardSize,
		discord.Options{DeferAfter: deferAfter}, (*discord.Bot).Open, link)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.stop)
	ws, err := web.New(h.svc, web.Options{BaseURL: base, Key: func(ctx context.Context) ([]byte, error) {
		s, err := h.db.Secret(ctx, storage.PageSecret)
		return s.Key, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	pages.Config.Handler = ws
	pages.Start()
	t.Cleanup(pages.Close)
	return h, base, key
}

// viewButton returns the "View game" link button of m, false when it has
// none; it fails the test for a link button that is not Discord's link
// style or carries a custom ID.
func viewButton(t *testing.T, m discordtest.Message) (discordtest.Button, bool) {
	t.Helper()
	for _, b := range m.Buttons() {
		if b.URL == "" && b.Style != discordgo.LinkButton {
			continue
		}
		if b.Style != discordgo.LinkButton || b.CustomID != "" || b.Label != "View game" {
			t.Errorf("message %q: link button %+v, want style 5 labelled \"View game\" without a custom ID", m.Content, b)
		}
		return b, true
	}
	return discordtest.Button{}, false
}

// checkLink fails unless m carries the button to game id's page, whose
// token is the game's and which the page server answers.
func checkLink(t *testing.T, what string, m discordtest.Message, base string, key []byte, id uint64) {
	t.Helper()
	b, ok := viewButton(t, m)
	if !ok {
		t.Errorf("%s %q has no \"View game\" button (buttons %+v)", what, m.Content, m.Buttons())
		return
	}
	want := fmt.Sprintf("%s/g/%d/%s", base, id, web.Token(key, id))
	if b.URL != want {
		t.Errorf("%s: the button leads to %s, want %s", what, b.URL, want)
	}
	resp, err := http.Get(b.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("%s: GET %s: %d, want 200", what, b.URL, resp.StatusCode)
	}
}

// TestViewGameButtons: with page links, every board the bot posts (the
// accepted challenge, the moves in the thread, the opponent's direct
// message, /board, the result) carries a "View game" link button to the
// game's page with the game's token, which the page server answers;
// messages without a board carry none.
func TestViewGameButtons(t *testing.T) {
	h, base, key := linkedBot(t)
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	for _, m := range h.srv.Messages(ch) {
		if hasFile(m, ".png") {
			checkLink(t, "the accepted challenge", m, base, key, g.ID)
		} else if _, ok := viewButton(t, m); ok {
			t.Errorf("message without a board %q has a link button", m.Content)
		}
	}
	h.deliver(t)
	dms := len(h.srv.DMs(u[1]))
	var last discordtest.Message
	for _, mv := range []string{"f3", "e5", "g4"} {
		last, g = h.move(t, g, thread, mv)
		checkLink(t, "the reply to "+mv, last, base, key, g.ID)
		if last.ChannelID != thread {
			t.Errorf("the reply to %s is in %s, not the thread %s", mv, last.ChannelID, thread)
		}
	}
	h.deliver(t)
	boards := 0
	for _, m := range h.srv.DMs(u[1])[dms:] {
		if hasFile(m, ".png") {
			boards++
			checkLink(t, "bob's direct message", m, base, key, g.ID)
		}
	}
	if boards == 0 {
		t.Errorf("bob got no direct message with a board: %s", contents(h.srv.DMs(u[1])[dms:]))
	}
	watcher := h.users(t, "carol")[0]
	checkLink(t, "/board", public(t, h.slash(t, watcher, thread, "board")), base, key, g.ID)

	last, g = h.move(t, g, thread, "Qh4#")
	if g.Status != bot.GameFinished {
		t.Fatalf("game %d: %s after Qh4#", g.ID, g.Status)
	}
	checkLink(t, "the reply to the last move", last, base, key, g.ID)
	h.deliver(t)
	over := h.waitMessage(t, thread, "with the result", func(m discordtest.Message) bool {
		return m.InteractionID == "" && strings.Contains(m.Content, "0-1") && hasFile(m, ".gif")
	})
	checkLink(t, "the result message", over, base, key, g.ID)
}

// TestLinkCommand: /link answers the game's page address to the one who
// asked; a stranger asking for a game that does not exist is told so.
func TestLinkCommand(t *testing.T) {
	h, base, key := linkedBot(t)
	ch := h.channel(t)
	u := h.users(t, "alice", "bob", "dave")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	want := fmt.Sprintf("%s/g/%d/%s", base, g.ID, web.Token(key, g.ID))
	for _, where := range []string{ch, thread} {
		m := h.slash(t, u[0], where, "link")
		if !m.Ephemeral || !strings.Contains(m.Content, want) {
			t.Errorf("/link in %s: %q (ephemeral %v), want the address %s to alice alone", where, m.Content, m.Ephemeral, want)
		}
	}
	m := h.slash(t, u[2], ch, "link", discordtest.Int("game", int64(g.ID+100)))
	if !m.Ephemeral || !strings.Contains(m.Content, fmt.Sprintf("There is no game %d", g.ID+100)) || strings.Contains(m.Content, base) {
		t.Errorf("a stranger's /link of an unknown game: %q (ephemeral %v)", m.Content, m.Ephemeral)
	}
}

// TestNoLinksWithoutPages: a bot without the pages' address posts its
// boards without a link button, and /link says it has no pages.
func TestNoLinksWithoutPages(t *testing.T) {
	h := shared
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	m, _ := h.move(t, g, thread, "e4")
	if !hasFile(m, ".png") {
		t.Fatalf("the reply to e4 has no board: %q", m.Content)
	}
	if b, ok := viewButton(t, m); ok {
		t.Errorf("the reply to e4 has the link button %+v without pages", b)
	}
	if b, ok := viewButton(t, public(t, h.slash(t, u[1], thread, "board"))); ok {
		t.Errorf("/board has the link button %+v without pages", b)
	}
	l := h.slash(t, u[0], thread, "link")
	if !l.Ephemeral || !strings.Contains(l.Content, "no game pages") {
		t.Errorf("/link without pages: %q (ephemeral %v)", l.Content, l.Ephemeral)
	}
}
