package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Forgery says how a request to the interactions endpoint differs from the one Discord would send.
type Forgery int

// The forgeries the fake can make.
const (
	// Genuine is signed as Discord signs: the fake's key, over the current timestamp and the body.
	Genuine Forgery = iota
	// BadSignature is signed with another key.
	BadSignature
	// TamperedBody is signed correctly, then one byte is added to the body (a space: still valid JSON).
	TamperedBody
	// NoSignature leaves the X-Signature-Ed25519 header out.
	NoSignature
	// NoTimestamp leaves the X-Signature-Timestamp header out.
	NoTimestamp
	// StaleTimestamp is signed correctly with a timestamp ForgedSkew in the past.
	StaleTimestamp
	// FutureTimestamp is signed correctly with a timestamp ForgedSkew in the future.
	FutureTimestamp
)

// ForgedSkew is how far the timestamps of StaleTimestamp and FutureTimestamp are from the clock.
const ForgedSkew = 10 * time.Minute

// String names the forgery.
func (f Forgery) String() string {
	switch f {
	case Genuine:
		return "genuine"
	case BadSignature:
		return "bad signature"
	case TamperedBody:
		return "tampered body"
	case NoSignature:
		return "no signature header"
	case NoTimestamp:
		return "no timestamp header"
	case StaleTimestamp:
		return "stale timestamp"
	case FutureTimestamp:
		return "future timestamp"
	}
	return "forgery " + strconv.Itoa(int(f))
}

// Delivery is one POST to the interactions endpoint and what it answered.
type Delivery struct {
	Endpoint    string // the URL that answered (the last one tried when none did)
	Status      int    // HTTP status of the answer (0 when no answer came)
	ContentType string // the answer's Content-Type
	Body        []byte // the answer's body
	Err         error  // the request failed (no answer before the deadline, connection refused...)
}

// httpSide is the fake's half of the interactions endpoint: its key pair and where it posts.
type httpSide struct {
	priv      ed25519.PrivateKey
	pub       ed25519.PublicKey
	endpoints []string // guarded by Server.mu; none: deliver over the gateway
	next      int      // guarded by Server.mu: the endpoint the next delivery starts with
	client    *http.Client
}

func (h *httpSide) init() {
	h.pub, h.priv, _ = ed25519.GenerateKey(rand.Reader)
	h.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

// httpDelivery is what the fake sent for an interaction delivered over HTTP.
type httpDelivery struct {
	body     []byte
	header   http.Header
	inflight bool
	result   Delivery
}

// PublicKey is the application's public key: the bot checks signatures with it.
func (s *Server) PublicKey() ed25519.PublicKey { return s.hs.pub }

// PublicKeyHex is PublicKey as the developer portal shows it (64 hexadecimal digits).
func (s *Server) PublicKeyHex() string { return hex.EncodeToString(s.hs.pub) }

// SetInteractionsEndpoint makes the fake deliver the interactions created from now on (Slash, Autocomplete,
// Click) as signed POSTs to url, Discord's Interactions Endpoint URL, instead of INTERACTION_CREATE on the
// gateway; none (or "") goes back to the gateway. Several URLs stand for the workers behind a load
// balancer: deliveries take them in turn, and one whose connection is refused (a worker that is down) goes
// to the next, as a load balancer skips a dead backend. The HTTP answer is the initial response, checked and recorded as
// one sent to the callback endpoint (an answer that is not 200 with a valid response leaves the interaction
// unanswered, so it fails at the deadline); the POST is abandoned at the interaction's deadline. Webhook
// calls (edits, follow-ups) on an interaction whose POST is still in flight wait for its answer, as Discord
// knows the response before it serves them.
func (s *Server) SetInteractionsEndpoint(urls ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hs.endpoints = slices.DeleteFunc(slices.Clone(urls), func(u string) bool { return u == "" })
	s.hs.next = 0
}

// overHTTPLocked reports whether interactions go to an endpoint.
func (s *Server) overHTTPLocked() bool { return len(s.hs.endpoints) > 0 }

// endpointsLocked returns the endpoints in the order the next delivery tries them, and moves the turn on.
func (s *Server) endpointsLocked() []string {
	n := len(s.hs.endpoints)
	out := make([]string, 0, n)
	for k := range n {
		out = append(out, s.hs.endpoints[(s.hs.next+k)%n])
	}
	if n > 0 {
		s.hs.next = (s.hs.next + 1) % n
	}
	return out
}

// sign returns the headers of a POST of body made as f says.
func (s *Server) sign(body []byte, f Forgery) (http.Header, []byte) {
	now := time.Now()
	switch f {
	case StaleTimestamp:
		now = now.Add(-ForgedSkew)
	case FutureTimestamp:
		now = now.Add(ForgedSkew)
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	key := s.hs.priv
	if f == BadSignature {
		_, key, _ = ed25519.GenerateKey(rand.Reader)
	}
	sig := hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...)))
	if f == TamperedBody {
		body = append(bytes.Clone(body), ' ')
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	if f != NoSignature {
		h.Set("X-Signature-Ed25519", sig)
	}
	if f != NoTimestamp {
		h.Set("X-Signature-Timestamp", ts)
	}
	return h, body
}

// Sign returns the hexadecimal signature Discord would send for body at timestamp (Unix seconds).
func (s *Server) Sign(timestamp string, body []byte) string {
	return hex.EncodeToString(ed25519.Sign(s.hs.priv, append([]byte(timestamp), body...)))
}

// post sends one request to the first of urls that accepts the connection and reads its answer.
func (s *Server) post(ctx context.Context, urls []string, method string, header http.Header, body []byte) Delivery {
	var d Delivery
	for _, url := range urls {
		if d = s.postOne(ctx, url, method, header, body); !errors.Is(d.Err, syscall.ECONNREFUSED) {
			break
		}
	}
	return d
}

// postOne sends one request to url and reads its answer.
func (s *Server) postOne(ctx context.Context, url, method string, header http.Header, body []byte) Delivery {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return Delivery{Endpoint: url, Err: err}
	}
	req.Header = header.Clone()
	resp, err := s.hs.client.Do(req)
	if err != nil {
		return Delivery{Endpoint: url, Err: err}
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return Delivery{Endpoint: url, Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: out, Err: err}
}

// Post sends body to the interactions endpoint with method, signed as f says, and returns the answer: for
// requests Discord would never send (another method, a body that is not an interaction, a huge one).
func (s *Server) Post(ctx context.Context, method string, body []byte, f Forgery) (Delivery, error) {
	s.mu.Lock()
	urls := s.endpointsLocked()
	s.mu.Unlock()
	if len(urls) == 0 {
		return Delivery{}, errors.New("discordtest: no interactions endpoint set (SetInteractionsEndpoint)")
	}
	h, body := s.sign(body, f)
	d := s.post(ctx, urls, method, h, body)
	return d, d.Err
}

// Ping sends a PING (interaction type 1), signed, and returns the answer (a PONG is 200 with {"type":1}).
func (s *Server) Ping(ctx context.Context) (Delivery, error) {
	body, _ := json.Marshal(map[string]any{"id": s.NewID(), "application_id": s.cfg.appID, "type": discordgo.InteractionPing,
		"token": "aW50ZXJhY3Rpb24" + randomHex(24), "version": 1})
	return s.Post(ctx, http.MethodPost, body, Genuine)
}

// SlashForged is Slash delivered over HTTP signed as f says (an endpoint must be set).
func (s *Server) SlashForged(f Forgery, userID, channelID, command string, args ...Arg) (*Interaction, error) {
	return s.commandInteraction(discordgo.InteractionApplicationCommand, userID, channelID, command, args, f)
}

// ClickForged is Click delivered over HTTP signed as f says (an endpoint must be set).
func (s *Server) ClickForged(f Forgery, userID, channelID, messageID, customID string) (*Interaction, error) {
	return s.click(f, userID, channelID, messageID, customID)
}

// Replay posts again, byte for byte with the same headers, what was posted for interaction i, to the
// endpoint that answered it (or, when none did, the first one set), and returns the answer (a bot must
// refuse it: 401).
func (s *Server) Replay(ctx context.Context, i *Interaction) (Delivery, error) {
	s.mu.Lock()
	hd := i.http
	var url string
	if hd != nil && !hd.inflight {
		url = hd.result.Endpoint
	}
	if url == "" && len(s.hs.endpoints) > 0 {
		url = s.hs.endpoints[0]
	}
	s.mu.Unlock()
	if hd == nil || url == "" {
		return Delivery{}, fmt.Errorf("discordtest: interaction %s was not delivered over HTTP", i.ID)
	}
	d := s.postOne(ctx, url, http.MethodPost, hd.header, hd.body)
	return d, d.Err
}

// Delivery waits until the POST of interaction i (delivered over HTTP) has its answer, and returns it.
func (i *Interaction) Delivery(ctx context.Context) (Delivery, error) {
	var out Delivery
	err := i.s.WaitFor(ctx, func() bool {
		i.s.mu.Lock()
		defer i.s.mu.Unlock()
		if i.http == nil || i.http.inflight {
			return false
		}
		out = i.http.result
		return true
	})
	if err == nil && i.http == nil {
		return Delivery{}, fmt.Errorf("discordtest: interaction %s was not delivered over HTTP", i.ID)
	}
	return out, err
}

// postInteractionLocked delivers interaction i, whose payload is payload, to the endpoint in the
// background, signed as i.forgery says, and records the answer as i's initial response.
func (s *Server) postInteractionLocked(i *Interaction, payload map[string]any) {
	body, err := json.Marshal(payload)
	if err != nil {
		i.http = &httpDelivery{result: Delivery{Err: err}}
		return
	}
	h, body := s.sign(body, i.forgery)
	i.http = &httpDelivery{body: body, header: h, inflight: true}
	urls := s.endpointsLocked()
	go func() {
		ctx, cancel := context.WithDeadline(context.Background(), i.Deadline)
		defer cancel()
		d := s.post(ctx, urls, http.MethodPost, h, body)
		now := time.Now()
		s.mu.Lock()
		defer s.mu.Unlock()
		defer s.notifyLocked()
		i.http.inflight = false
		i.http.result = d
		if d.Err != nil || d.Status != http.StatusOK {
			return
		}
		// Discord reads the answer as a JSON interaction response; anything else fails the interaction.
		var resp struct {
			Type discordgo.InteractionResponseType `json:"type"`
			Data json.RawMessage                   `json:"data"`
		}
		if mt, _, _ := mime.ParseMediaType(d.ContentType); mt != "application/json" || json.Unmarshal(d.Body, &resp) != nil {
			i.rejected = append(i.rejected, errBadJSON.code)
			return
		}
		s.applyResponseLocked(i, resp.Type, resp.Data, nil, now)
	}()
}

// awaitHTTPAnswer waits (until ctx ends) while the interaction of token has its POST in flight.
func (s *Server) awaitHTTPAnswer(ctx context.Context, token string) {
	_ = s.WaitFor(ctx, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		i := s.byToken[token]
		return i == nil || i.http == nil || !i.http.inflight
	})
}
