package discord_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
)

// startHTTP starts a bot whose interactions come over HTTP: its own fake
// Discord posts them, signed, to the bot's interactions endpoint (served
// by an httptest server). With gateway the bot is also connected to the
// gateway (which then carries no interactions, as on Discord once an
// Interactions Endpoint URL is set); without, it is an HTTP-only worker
// (OpenHTTP).
func startHTTP(t *testing.T, gateway bool) *harness {
	t.Helper()
	srv := newFake()
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "bot.db")
	dopts := discord.Options{DeferAfter: deferAfter, PublicKey: srv.PublicKey()}
	var h *harness
	if gateway {
		var err error
		if h, err = startBotWith(srv, path, newClock(), boardSize, dopts); err != nil {
			t.Fatal(err)
		}
	} else {
		h = startHTTPOnly(t, srv, path, dopts)
	}
	t.Cleanup(h.stop)
	handler, err := h.b.InteractionsHandler()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	srv.SetInteractionsEndpoint(ts.URL + "/interactions")
	return h
}

// startHTTPOnly is startBotWith for a bot that never connects to the
// gateway: it registers its commands by OpenHTTP.
func startHTTPOnly(t *testing.T, srv *discordtest.Server, path string, dopts discord.Options) *harness {
	t.Helper()
	h, err := startBotOpen(srv, path, testkit.Stores, newClock(), boardSize, dopts, (*discord.Bot).OpenHTTP)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Connections() != 0 {
		t.Fatalf("an HTTP-only bot opened %d gateway connections", srv.Connections())
	}
	if id := h.b.UserID(); id != srv.BotID() {
		t.Fatalf("an HTTP-only bot knows itself as %q, want %q (the computer player plays as it)", id, srv.BotID())
	}
	return h
}

// dump returns every record of h's database.
func dump(t *testing.T, h *harness) *storage.Dump {
	t.Helper()
	d, err := h.db.Dump(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestHTTPSignedRequests: requests to the interactions endpoint that
// Discord did not sign, or signed long ago, or sent before, are refused
// with 401 and change nothing: no record, no answer, no message; so are
// the wrong method (405), a huge body (413) and a body that is not an
// interaction (400). A PING gets a PONG.
func TestHTTPSignedRequests(t *testing.T) {
	h := startHTTP(t, false)
	ctx := ctxT(t)
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	challenge := []discordtest.Arg{discordtest.String("variant", "chess"), discordtest.User("opponent", u[1]),
		discordtest.Int("days", 0)}

	pong, err := h.srv.Ping(ctx)
	if err != nil || pong.Status != http.StatusOK || !strings.HasPrefix(pong.ContentType, "application/json") ||
		strings.TrimSpace(string(pong.Body)) != `{"type":1}` {
		t.Fatalf("PING answered %d %q %q, err %v; want 200 and a PONG", pong.Status, pong.ContentType, pong.Body, err)
	}

	before := dump(t, h)
	for _, f := range []discordtest.Forgery{discordtest.BadSignature, discordtest.TamperedBody, discordtest.NoSignature,
		discordtest.NoTimestamp, discordtest.StaleTimestamp, discordtest.FutureTimestamp} {
		ix, err := h.srv.SlashForged(f, u[0], ch, "challenge", challenge...)
		if err != nil {
			t.Fatal(err)
		}
		d, err := ix.Delivery(ctx)
		if err != nil || d.Status != http.StatusUnauthorized {
			t.Errorf("%s: answered %d %q, err %v; want 401", f, d.Status, d.Body, err)
		}
		if ix.Acks() != 0 || len(ix.Rejected()) != 0 {
			t.Errorf("%s: the interaction was answered (acks %d, refused %v)", f, ix.Acks(), ix.Rejected())
		}
	}
	for _, c := range []struct {
		name   string
		method string
		body   []byte
		want   int
	}{
		{"GET", http.MethodGet, nil, http.StatusMethodNotAllowed},
		{"a body over 1 MiB", http.MethodPost, bytes.Repeat([]byte(" "), discord.MaxInteractionBody+1), http.StatusRequestEntityTooLarge},
		{"not JSON", http.MethodPost, []byte("{not json"), http.StatusBadRequest},
		{"an interaction without id or token", http.MethodPost, []byte(`{"type":2,"data":{"name":"challenge"}}`), http.StatusBadRequest},
		{"a command without data", http.MethodPost, []byte(`{"type":2,"id":"1","token":"t"}`), http.StatusBadRequest},
		{"a modal", http.MethodPost, []byte(`{"type":5,"id":"2","token":"t","data":{"custom_id":"x"}}`), http.StatusBadRequest},
		{"an unknown type", http.MethodPost, []byte(`{"type":99,"id":"3","token":"t"}`), http.StatusBadRequest},
		{"data of the wrong shape", http.MethodPost, []byte(`{"type":3,"id":"4","token":"t","data":[1,2]}`), http.StatusBadRequest},
		// Signed, so answered, but about nothing: nothing changes.
		{"an autocomplete typing an object", http.MethodPost, []byte(`{"type":4,"id":"5","token":"t","data":{"name":"move",` +
			`"options":[{"name":"move","type":3,"value":{"x":1},"focused":true}]}}`), http.StatusOK},
		{"an unknown button", http.MethodPost, []byte(`{"type":3,"id":"6","token":"t","channel_id":"7",` +
			`"data":{"custom_id":"fp1:accept:999:1","component_type":2},"user":{"id":"8"}}`), http.StatusOK},
	} {
		d, err := h.srv.Post(ctx, c.method, c.body, discordtest.Genuine)
		if err != nil || d.Status != c.want {
			t.Errorf("%s: answered %d %q, err %v; want %d", c.name, d.Status, d.Body, err, c.want)
		}
	}
	if after := dump(t, h); !reflect.DeepEqual(before, after) {
		t.Fatalf("refused requests changed the database:\nbefore %+v\nafter  %+v", before, after)
	}
	if ms := h.srv.Messages(ch); len(ms) != 0 {
		t.Fatalf("refused requests posted %s", contents(ms))
	}

	// A genuine challenge goes through; the same request sent again is a
	// replay: refused, and the challenge is not made twice.
	ix, err := h.srv.Slash(u[0], ch, "challenge", challenge...)
	if err != nil {
		t.Fatal(err)
	}
	public(t, h.shown(t, ix))
	made := dump(t, h)
	if len(made.Challenges) != len(before.Challenges)+1 {
		t.Fatalf("%d challenges after a genuine /challenge, want %d", len(made.Challenges), len(before.Challenges)+1)
	}
	d, err := h.srv.Replay(ctx, ix)
	if err != nil || d.Status != http.StatusUnauthorized {
		t.Errorf("replay answered %d %q, err %v; want 401", d.Status, d.Body, err)
	}
	if after := dump(t, h); !reflect.DeepEqual(made, after) {
		t.Fatalf("the replay changed the database")
	}
	if n := len(h.srv.Messages(ch)); n != 1 {
		t.Errorf("%d messages after one challenge and its replay, want 1", n)
	}
}

// TestHTTPGame plays over the interactions endpoint, with no gateway: a
// challenge, the Accept button, moves in the game's thread, autocomplete,
// and a command slow enough to be deferred (then edited), all answered
// through the HTTP responses and the webhook, never the callback
// endpoint; Discord's rules hold for every interaction.
func TestHTTPGame(t *testing.T) {
	h := startHTTP(t, false)
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	for _, mv := range []string{"e4", "e5", "Nf3"} {
		var m discordtest.Message
		m, g = h.move(t, g, thread, mv)
		if len(m.Files) == 0 || m.ChannelID != thread {
			t.Errorf("move %s: reply in %s with %d files: %q", mv, m.ChannelID, len(m.Files), m.Content)
		}
	}
	// Autocomplete of a move: answered in the HTTP response (type 8).
	ix, err := h.srv.Autocomplete(g.ToAct, thread, "move", discordtest.Focused("move", "N"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ix.Choices(ctxT(t))
	if err != nil || !slices.Contains(choiceValues(cs), "b8c6") {
		t.Errorf("autocomplete of N: choices %v, err %v", choiceValues(cs), err)
	}
	// A slow move: the HTTP response is a deferral, the answer comes by
	// the edit of the original response.
	h.cmds.delay.Store(int64(deferAfter + 200*time.Millisecond))
	ix, err = h.srv.Slash(g.ToAct, thread, "move", discordtest.String("move", "Nc6"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ix.Response(ctxT(t))
	if err != nil || r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("slow move answered with type %d, err %v; want a deferral", r.Type, err)
	}
	m := h.shown(t, ix)
	h.cmds.delay.Store(0)
	if m.Ephemeral || len(m.Files) == 0 || m.Edits == 0 || !slices.Contains(m.Mentions, u[0]) {
		t.Errorf("edited answer: ephemeral %v, %d files, %d edits, mentions %q: %q", m.Ephemeral, len(m.Files), m.Edits, m.Mentions, m.Content)
	}
	if g = h.game(t, g.ID); len(g.Moves) != 4 {
		t.Fatalf("moves %q, want 4", g.Moves)
	}
	// An error is private, given at once in the HTTP response.
	ix, err = h.srv.Slash(g.ToAct, thread, "move", discordtest.String("move", "Ke8e6"))
	if err != nil {
		t.Fatal(err)
	}
	if m := h.shown(t, ix); !m.Ephemeral {
		t.Errorf("an illegal move was answered publicly: %q", m.Content)
	}
	// A private answer with a board: a private deferral, then the edit
	// carrying the image.
	add := h.slash(t, u[1], thread, "forecast", discordtest.String("action", "add"), discordtest.String("line", "Bb5 a6"))
	if !add.Ephemeral {
		t.Fatalf("/forecast add answered publicly: %q", add.Content)
	}
	show := h.slash(t, u[1], thread, "forecast", discordtest.String("action", "show"), discordtest.Int("number", 1))
	if !show.Ephemeral || len(show.Files) != 1 || show.Loading {
		t.Errorf("/forecast show: ephemeral %v, %d files, loading %v: %q", show.Ephemeral, len(show.Files), show.Loading, show.Content)
	}
	// Resign by the button of the confirmation, then the result reaches the thread.
	m = public(t, h.slash(t, g.White, thread, "resign"))
	if len(m.Buttons()) > 0 {
		m = h.click(t, g.White, m, m.Buttons()[0].Label)
	}
	if g = h.game(t, g.ID); g.Status != bot.GameFinished || g.Result != bot.BlackWins {
		t.Fatalf("after resigning: %s %s (%q)", g.Status, g.Result, m.Content)
	}
	h.deliver(t)
	h.waitMessage(t, thread, "with the result", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, g.Result.String())
	})

	for _, ix := range h.srv.Interactions() {
		d, err := ix.Delivery(ctxT(t))
		if err != nil || d.Status != http.StatusOK {
			t.Errorf("interaction %s %s%s: delivery %d %q, err %v", ix.ID, ix.Command, ix.CustomID, d.Status, d.Body, err)
		}
		answered(t, ix)
	}
	for _, r := range h.srv.Requests() {
		if strings.Contains(r.Path, "/callback") {
			t.Errorf("an interaction received over HTTP was answered by the callback endpoint: %s %s", r.Method, r.Path)
		}
		if r.Status >= 400 {
			t.Errorf("Discord refused %s %s: %d, code %d", r.Method, r.Path, r.Status, r.Code)
		}
	}
}

// TestHTTPAlongsideGateway: a bot connected to the gateway also serves
// the endpoint: interactions posted to it are answered the same way.
func TestHTTPAlongsideGateway(t *testing.T) {
	h := startHTTP(t, true)
	if h.srv.Connections() != 1 {
		t.Fatalf("%d gateway connections, want 1", h.srv.Connections())
	}
	ch := h.channel(t)
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, ch, u[0], u[1], "chess")
	if _, g = h.move(t, g, thread, "d4"); len(g.Moves) != 1 {
		t.Fatalf("moves %q", g.Moves)
	}
	for _, ix := range h.srv.Interactions() {
		if d, err := ix.Delivery(ctxT(t)); err != nil || d.Status != http.StatusOK {
			t.Errorf("interaction %s: delivery %d, err %v", ix.ID, d.Status, err)
		}
	}
}

// TestHTTPNeedsKey: the endpoint cannot be served without the public
// key, and a key of the wrong size is refused by New; ParsePublicKey
// reads the portal's hexadecimal form.
func TestHTTPNeedsKey(t *testing.T) {
	if _, err := shared.b.InteractionsHandler(); err == nil {
		t.Error("a bot without a public key served the endpoint")
	}
	if _, err := discord.New(shared.svc, shared.prefs, shared.cmds, discord.Options{Token: "t", PublicKey: make([]byte, 31)}); err == nil {
		t.Error("New took a public key of 31 bytes")
	}
	srv := discordtest.New()
	defer srv.Close()
	k, err := discord.ParsePublicKey(srv.PublicKeyHex())
	if err != nil || !bytes.Equal(k, srv.PublicKey()) {
		t.Errorf("ParsePublicKey(%s) = %x, %v", srv.PublicKeyHex(), k, err)
	}
	for _, bad := range []string{"", "xyz", strings.Repeat("ab", 31)} {
		if _, err := discord.ParsePublicKey(bad); err == nil {
			t.Errorf("ParsePublicKey(%q) accepted", bad)
		}
	}
}

// choiceValues returns the values of autocomplete choices.
func choiceValues(cs []*discordgo.ApplicationCommandOptionChoice) []string {
	var out []string
	for _, c := range cs {
		v, _ := c.Value.(string)
		out = append(out, v)
	}
	return out
}

// BenchmarkEndpointPing measures the endpoint's own work per request: a
// signed PING read, verified, checked against the replay cache and
// answered (no network).
func BenchmarkEndpointPing(b *testing.B) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	bt, err := discord.New(shared.svc, shared.prefs, shared.cmds, discord.Options{Token: "t", PublicKey: pub})
	if err != nil {
		b.Fatal(err)
	}
	handler, err := bt.InteractionsHandler()
	if err != nil {
		b.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	reqs := make([]*http.Request, b.N)
	for k := range reqs {
		body := []byte(fmt.Sprintf(`{"type":1,"id":"%d","token":"t","application_id":"1","version":1}`, k))
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...))))
		reqs[k] = r
	}
	b.ReportAllocs()
	b.ResetTimer()
	for _, r := range reqs {
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("PING answered %d %s", w.Code, w.Body)
		}
	}
}
