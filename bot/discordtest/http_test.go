package discordtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// signedRequest is what an endpoint received.
type signedRequest struct {
	ts, sig string
	body    []byte
}

// TestInteractionsOverHTTP: with an endpoint set, the fake posts
// interactions signed with its key, as discordgo's own verifier checks;
// the HTTP answer is the initial response (a message, or a deferral then
// edited over the webhook, the edit waiting for the answer to be known);
// forgeries fail the verifier or carry a timestamp ForgedSkew off; Replay
// sends the same bytes and headers again; a PING is posted.
func TestInteractionsOverHTTP(t *testing.T) {
	srv := discordtest.New(discordtest.WithDeadline(500 * time.Millisecond))
	defer srv.Close()
	srv.AddGuild(guildID, "club")
	srv.AddChannel(guildID, channelID, "general")
	srv.AddUser(alice, "alice")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, commands()); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var got []signedRequest
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, srv.PublicKey()) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, signedRequest{r.Header.Get("X-Signature-Timestamp"), r.Header.Get("X-Signature-Ed25519"), body})
		mu.Unlock()
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			http.Error(w, "not an interaction", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case i.Type == discordgo.InteractionPing:
			w.Write([]byte(`{"type":1}`))
		case i.ApplicationCommandData().Options[0].StringValue() == "later":
			w.Write([]byte(`{"type":5}`))
			w.(http.Flusher).Flush()
			// The edit races the fake's reading of the deferral: the fake
			// holds it until the deferral is known.
			go s.InteractionResponseEdit(&i, &discordgo.WebhookEdit{Content: ptr("edited")})
		default:
			json.NewEncoder(w).Encode(discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "echo " + i.ApplicationCommandData().Options[0].StringValue()}})
		}
	}))
	defer endpoint.Close()
	srv.SetInteractionsEndpoint(endpoint.URL)
	ctx := ctxT(t)

	ix, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Final(ctx); err != nil || m.Content != "echo hi" {
		t.Fatalf("answer %q, err %v", m.Content, err)
	}
	if d, err := ix.Delivery(ctx); err != nil || d.Status != http.StatusOK {
		t.Errorf("delivery %d, err %v", d.Status, err)
	}
	later, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "later"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := later.Final(ctx); err != nil || m.Content != "edited" {
		t.Fatalf("deferred answer %q, err %v", m.Content, err)
	}
	for _, r := range srv.Requests() {
		if r.Status >= 400 {
			t.Errorf("%s %s refused: %d code %d", r.Method, r.Path, r.Status, r.Code)
		}
	}

	// Replay: the very same bytes and headers.
	if d, err := srv.Replay(ctx, ix); err != nil || d.Status != http.StatusOK {
		t.Fatalf("replay: %d, err %v", d.Status, err)
	}
	mu.Lock()
	first, again := got[0], got[len(got)-1]
	mu.Unlock()
	if first.ts != again.ts || first.sig != again.sig || !bytes.Equal(first.body, again.body) {
		t.Errorf("the replay differs from the original: %+v vs %+v", first, again)
	}

	for _, f := range []discordtest.Forgery{discordtest.BadSignature, discordtest.TamperedBody, discordtest.NoSignature,
		discordtest.NoTimestamp} {
		fx, err := srv.SlashForged(f, alice, channelID, "echo", discordtest.String("text", "forged"))
		if err != nil {
			t.Fatal(err)
		}
		if d, err := fx.Delivery(ctx); err != nil || d.Status != http.StatusUnauthorized {
			t.Errorf("%s: the verifier answered %d, err %v", f, d.Status, err)
		}
		if _, err := fx.Response(ctx); err != discordtest.ErrInteractionFailed {
			t.Errorf("%s: response error %v, want ErrInteractionFailed", f, err)
		}
	}
	for f, want := range map[discordtest.Forgery]time.Duration{discordtest.StaleTimestamp: -discordtest.ForgedSkew,
		discordtest.FutureTimestamp: discordtest.ForgedSkew} {
		fx, err := srv.SlashForged(f, alice, channelID, "echo", discordtest.String("text", "old"))
		if err != nil {
			t.Fatal(err)
		}
		fx.Delivery(ctx)
		mu.Lock()
		last := got[len(got)-1]
		mu.Unlock()
		ts, _ := strconv.ParseInt(last.ts, 10, 64)
		if off := time.Until(time.Unix(ts, 0)) - want; off < -5*time.Second || off > 5*time.Second {
			t.Errorf("%s: timestamp %s off the clock by %s, want %s", f, last.ts, time.Until(time.Unix(ts, 0)), want)
		}
	}
	if d, err := srv.Ping(ctx); err != nil || d.Status != http.StatusOK || string(d.Body) != `{"type":1}` {
		t.Errorf("PING answered %d %q, err %v", d.Status, d.Body, err)
	}
	if _, err := srv.Post(ctx, http.MethodPost, []byte("{"), discordtest.Genuine); err != nil {
		t.Errorf("Post: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestInteractionsOverHTTPWorkers: with several endpoints the deliveries
// take them in turn, and one that refuses connections (a worker that is
// down) is skipped.
func TestInteractionsOverHTTPWorkers(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddGuild(guildID, "club")
	srv.AddChannel(guildID, channelID, "general")
	srv.AddUser(alice, "alice")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, commands()); err != nil {
		t.Fatal(err)
	}
	worker := func(name string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: name}})
		}))
	}
	a, b, down := worker("a"), worker("b"), worker("down")
	defer a.Close()
	defer b.Close()
	down.Close()
	srv.SetInteractionsEndpoint(a.URL, down.URL, b.URL)
	ctx := ctxT(t)
	var seen []string
	for range 4 {
		ix, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "x"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ix.Final(ctx)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := ix.Delivery(ctx)
		if d.Endpoint == down.URL || (d.Endpoint == a.URL) != (m.Content == "a") {
			t.Errorf("answered %q by %s", m.Content, d.Endpoint)
		}
		seen = append(seen, m.Content)
	}
	// Turns: a, down (skipped to b), b, a.
	if strings.Join(seen, "") != "abba" {
		t.Errorf("workers answered %q, want abba", seen)
	}
}
