package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Limits of the interactions endpoint.
const (
	// DefaultMaxClockSkew is the default of Options.MaxClockSkew.
	DefaultMaxClockSkew = 5 * time.Minute
	// MaxInteractionBody is the largest request body the endpoint reads
	// (Discord's interactions are a few kilobytes); a larger one is
	// refused with 413.
	MaxInteractionBody = 1 << 20
	// replayCapacity bounds the signatures remembered against replays.
	replayCapacity = 1 << 16
	// replayGuardTimeout bounds the question to Options.ReplayGuard, well
	// within the 3 s Discord waits for the answer.
	replayGuardTimeout = 2 * time.Second
	// unknownWebhookRetries is how often the edit that carries the files
	// of an answer given over HTTP is tried again while Discord does not
	// know the interaction's webhook yet (it may see the edit before it
	// has processed the HTTP answer), waiting webhookRetryPause between
	// tries.
	unknownWebhookRetries = 4
	webhookRetryPause     = 250 * time.Millisecond
)

// ParsePublicKey reads an application's public key as Discord's developer
// portal shows it: 64 hexadecimal digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	s = strings.TrimSpace(s)
	raw, err := hex.DecodeString(s)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%q is not an application public key: want %d hexadecimal digits, as the developer portal shows it (General Information, Public Key)", s, 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(raw), nil
}

// InteractionsHandler returns the interactions endpoint: the handler of
// the HTTP requests Discord sends to the application's Interactions
// Endpoint URL, one per interaction, instead of the gateway's
// INTERACTION_CREATE. It needs Options.PublicKey.
//
// A request is refused, and changes nothing, when it is not a POST (405),
// its body is over MaxInteractionBody (413), its X-Signature-Ed25519 and
// X-Signature-Timestamp headers are missing or its signature (over the
// timestamp followed by the body) does not verify with the public key
// (401), its timestamp is further than Options.MaxClockSkew from the
// bot's clock (401), the same timestamp and signature were accepted
// before (a replay, 401), or its body is not an interaction of a type the
// bot serves (400). Replays are caught by the endpoint's own memory and,
// when Options.ReplayGuard is set, by the store that the processes
// serving the endpoint share, so a request accepted by one process is
// refused by every other; when the guard cannot answer (the store fails
// or is slow), the request is refused with 503 and changes nothing,
// rather than risk running it twice. A PING is answered with a PONG. Every other interaction goes where the
// gateway's go (onInteraction): the same commands, the same workers and
// the same deferral rule. The HTTP response is the interaction's initial
// response: the answer when it is ready within Options.DeferAfter, else
// a deferral, followed by the edit of the original response or
// follow-ups sent over REST, as for the gateway. An answer with files is
// given as a deferral and an edit carrying the files, since Discord takes
// no files in the HTTP response.
func (b *Bot) InteractionsHandler() (http.Handler, error) {
	if len(b.opts.PublicKey) != ed25519.PublicKeySize {
		return nil, errors.New("discord: the interactions endpoint needs the application's public key")
	}
	skew := b.opts.MaxClockSkew
	if skew <= 0 {
		skew = DefaultMaxClockSkew
	}
	return &endpoint{b: b, key: b.opts.PublicKey, skew: skew, seen: newReplayCache(replayCapacity)}, nil
}

// endpoint is the interactions endpoint of a Bot.
type endpoint struct {
	b    *Bot
	key  ed25519.PublicKey
	skew time.Duration
	seen *replayCache
}

// refuse answers a refused request with status and a one-line reason.
func (e *endpoint) refuse(w http.ResponseWriter, r *http.Request, status int, why string) {
	e.b.log.Warn("discord: interactions endpoint refused a request", "status", status, "reason", why,
		"remote", r.RemoteAddr)
	http.Error(w, why, status)
}

// ServeHTTP implements http.Handler.
func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		e.refuse(w, r, http.StatusMethodNotAllowed, "only POST is served here")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxInteractionBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			e.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes", MaxInteractionBody))
			return
		}
		e.refuse(w, r, http.StatusBadRequest, "the body could not be read")
		return
	}
	now := time.Now()
	ts, sig, why := e.verify(r.Header, body, now)
	if why != "" {
		e.refuse(w, r, http.StatusUnauthorized, why)
		return
	}
	// Once its timestamp is more than skew old, the clock check refuses
	// a copy of the request: the cache need not remember it longer.
	until := time.Unix(ts, 0).Add(e.skew)
	if !e.seen.add(ts, sig, until) {
		e.refuse(w, r, http.StatusUnauthorized, "this signature was seen already (a replayed request)")
		return
	}
	if why, status := e.firstSeen(r, ts, sig, until); why != "" {
		e.refuse(w, r, status, why)
		return
	}
	i := &discordgo.Interaction{}
	if err := json.Unmarshal(body, i); err != nil {
		e.refuse(w, r, http.StatusBadRequest, "the body is not an interaction")
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeResponse(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	if i.ID == "" || i.Token == "" {
		e.refuse(w, r, http.StatusBadRequest, "the interaction has no id or no token")
		return
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete,
		discordgo.InteractionMessageComponent:
	default:
		e.refuse(w, r, http.StatusBadRequest, fmt.Sprintf("interactions of type %d are not served", i.Type))
		return
	}
	e.b.serveHTTP(w, r, i)
}

// firstSeen asks the shared replay guard, if any, whether signature sig
// is new. It returns why the request is refused, with the status, or ""
// to go on. When the guard fails, the endpoint's own memory forgets sig
// again: the request was not served, so a retry must not be taken for
// a replay here (the guard may still refuse it, if it recorded sig).
func (e *endpoint) firstSeen(r *http.Request, ts int64, sig string, until time.Time) (why string, status int) {
	g := e.b.opts.ReplayGuard
	if g == nil {
		return "", 0
	}
	ctx, cancel := context.WithTimeout(r.Context(), replayGuardTimeout)
	defer cancel()
	first, err := g.FirstSeen(ctx, sig, until)
	switch {
	case err != nil:
		e.seen.forget(ts, sig)
		e.b.log.Error("discord: the replay guard failed: the request is refused", "err", err)
		return "the bot could not check that this request is not a replay: try again", http.StatusServiceUnavailable
	case !first:
		return "this signature was seen already by another process (a replayed request)", http.StatusUnauthorized
	}
	return "", 0
}

// verify checks the signature headers of a request with body: it
// returns the timestamp and signature, or why they are refused.
func (e *endpoint) verify(h http.Header, body []byte, now time.Time) (ts int64, sig, why string) {
	sig, stamp := h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if sig == "" || stamp == "" {
		return 0, "", "the X-Signature-Ed25519 and X-Signature-Timestamp headers are required"
	}
	raw, err := hex.DecodeString(sig)
	if err != nil || len(raw) != ed25519.SignatureSize {
		return 0, "", "X-Signature-Ed25519 is not a hexadecimal Ed25519 signature"
	}
	msg := make([]byte, 0, len(stamp)+len(body))
	msg = append(append(msg, stamp...), body...)
	if !ed25519.Verify(e.key, msg, raw) {
		return 0, "", "the signature does not verify with the application's public key"
	}
	ts, err = strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return 0, "", "X-Signature-Timestamp is not a Unix time in seconds"
	}
	if d := now.Sub(time.Unix(ts, 0)); d > e.skew || d < -e.skew {
		return 0, "", fmt.Sprintf("X-Signature-Timestamp is %s away from the bot's clock (at most %s allowed)", d.Round(time.Second), e.skew)
	}
	return ts, strings.ToLower(sig), ""
}

// writeResponse writes resp as the JSON body of an HTTP 200.
func writeResponse(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(resp); err != nil {
		http.Error(w, "the answer could not be encoded", http.StatusInternalServerError)
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	_, err := w.Write(buf.Bytes())
	if f, ok := w.(http.Flusher); ok && err == nil {
		f.Flush()
	}
	return err
}

// replayCache remembers the signatures of accepted requests until their
// timestamps can no longer pass the clock check, so that a request seen
// once is refused the second time. It holds at most capacity entries:
// when full, the oldest entry is forgotten and every timestamp up to its
// own is refused from then on (a request that old is taken for a
// possible replay), so a flood can neither grow it nor open a gap.
type replayCache struct {
	mu       sync.Mutex
	capacity int
	seen     map[string]struct{}
	order    []replayEntry // in insertion order; order[head:] is live
	head     int
	floor    int64 // timestamps at or below are refused (0: none)
}

type replayEntry struct {
	key     string
	ts      int64
	expires time.Time
}

func newReplayCache(capacity int) *replayCache {
	return &replayCache{capacity: capacity, seen: make(map[string]struct{})}
}

// add records (ts, sig), kept until expires, and reports whether it was
// new (false: a replay, or older than what the cache can still tell).
func (c *replayCache) add(ts int64, sig string, expires time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	for c.head < len(c.order) && now.After(c.order[c.head].expires) {
		delete(c.seen, c.order[c.head].key)
		c.head++
	}
	key := strconv.FormatInt(ts, 10) + ":" + sig
	if _, dup := c.seen[key]; dup || (c.floor != 0 && ts <= c.floor) {
		return false
	}
	for len(c.order)-c.head >= c.capacity {
		old := c.order[c.head]
		delete(c.seen, old.key)
		c.head++
		c.floor = max(c.floor, old.ts)
	}
	if c.head > len(c.order)/2 { // compact: the slice does not grow without bound
		c.order = append(c.order[:0], c.order[c.head:]...)
		c.head = 0
	}
	c.seen[key] = struct{}{}
	c.order = append(c.order, replayEntry{key: key, ts: ts, expires: expires})
	return true
}

// forget drops (ts, sig), so that add takes it as new again. Its place
// in the insertion order stays until it expires (at the same time as a
// new entry for it would), which only counts it twice towards capacity
// for a while.
func (c *replayCache) forget(ts int64, sig string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.seen, strconv.FormatInt(ts, 10)+":"+sig)
}

// len returns how many entries the cache holds.
func (c *replayCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seen)
}

// errHTTPGone is returned for an initial response to an interaction
// received over HTTP whose request was already answered otherwise (it
// timed out, or the client left).
var errHTTPGone = fmt.Errorf("%w (its HTTP request is answered already)", errAckTooLate)

// httpCall is an interaction received over HTTP, waiting for its initial
// response, which goes out as the HTTP response.
type httpCall struct {
	mu       sync.Mutex
	state    int // callOpen, callAnswered or callClosed
	viaEdit  bool
	resp     chan *discordgo.InteractionResponse // buffered 1
	written  chan error                          // buffered 1: the result of writing resp
	finished chan struct{}                       // closed when the handling ended
}

const (
	callOpen = iota
	callAnswered
	callClosed
)

// serveHTTP hands interaction i to onInteraction and writes its initial
// response as the HTTP response to w. The handling goes on after the
// response (edits, follow-ups) in its own goroutine.
func (b *Bot) serveHTTP(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction) {
	c := &httpCall{resp: make(chan *discordgo.InteractionResponse, 1), written: make(chan error, 1),
		finished: make(chan struct{})}
	if _, dup := b.calls.LoadOrStore(i.ID, c); dup {
		http.Error(w, "this interaction is being handled already", http.StatusConflict)
		return
	}
	go func() {
		defer b.calls.Delete(i.ID)
		defer close(c.finished)
		b.onInteraction(b.s, &discordgo.InteractionCreate{Interaction: i})
	}()
	limit := time.NewTimer(discordgo.InteractionDeadline)
	defer limit.Stop()
	var resp *discordgo.InteractionResponse
	select {
	case resp = <-c.resp:
	case <-c.finished:
	case <-limit.C:
	case <-r.Context().Done():
	}
	if resp == nil {
		c.mu.Lock()
		if c.state == callAnswered { // answered at the last moment
			resp = <-c.resp
		} else {
			c.state = callClosed
		}
		c.mu.Unlock()
	}
	if resp == nil {
		b.log.Warn("discord: an interaction received over HTTP got no answer", "interaction", i.ID, "type", i.Type.String())
		http.Error(w, "no answer for this interaction", http.StatusServiceUnavailable)
		return
	}
	c.written <- writeResponse(w, resp)
}

// respond sends resp as the initial response of i: through the HTTP
// response when i came over HTTP, else with Discord's callback endpoint.
func (b *Bot) respond(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	if v, ok := b.calls.Load(i.ID); ok {
		return v.(*httpCall).respond(ctx, b, i, resp)
	}
	return b.s.InteractionRespond(i, resp, discordgo.WithContext(ctx))
}

// open reports whether c has not been answered yet.
func (c *httpCall) open() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == callOpen
}

// respond gives resp to the waiting HTTP request and returns once it is
// written. Files cannot go in an HTTP response: resp is then written as
// a deferral and its message (files included) sent as the edit of the
// original response; a later call (sendShrinking's, with a file fewer)
// sends the edit again.
func (c *httpCall) respond(ctx context.Context, b *Bot, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	withFiles := resp.Data != nil && len(resp.Data.Files) > 0
	if withFiles && c.open() {
		// The deferral written now is answered by the edit that follows:
		// recorded in between, so that the answer is given by another
		// process should this one die before the edit.
		answered := b.recordDeferred(ctx, i)
		defer answered()
	}
	c.mu.Lock()
	switch {
	case c.state == callAnswered && c.viaEdit && withFiles:
		c.mu.Unlock()
		return b.editWithFiles(ctx, i, resp.Data)
	case c.state != callOpen:
		c.mu.Unlock()
		if c.state == callAnswered {
			return errors.New("discord: the interaction was answered already")
		}
		return errHTTPGone
	}
	c.state = callAnswered
	first := resp
	if withFiles {
		c.viaEdit = true
		first = deferralOf(resp)
	}
	c.resp <- first
	c.mu.Unlock()
	var err error
	select {
	case err = <-c.written:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err != nil || !withFiles {
		return err
	}
	return b.editWithFiles(ctx, i, resp.Data)
}

// deferralOf returns the deferral that stands for resp, which carries
// files: a deferred message (ephemeral when resp is) for a new message, a
// deferred update for the update of a component's message.
func deferralOf(resp *discordgo.InteractionResponse) *discordgo.InteractionResponse {
	if resp.Type == discordgo.InteractionResponseUpdateMessage {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: resp.Data.Flags & discordgo.MessageFlagsEphemeral}}
}

// editWithFiles edits the original response of i into data, trying again
// while Discord does not know the interaction's webhook yet.
func (b *Bot) editWithFiles(ctx context.Context, i *discordgo.Interaction, data *discordgo.InteractionResponseData) error {
	edit := &discordgo.WebhookEdit{Content: &data.Content, Components: &data.Components, Files: data.Files,
		AllowedMentions: data.AllowedMentions}
	for try := 0; ; try++ {
		_, err := b.s.InteractionResponseEdit(i, edit, discordgo.WithContext(ctx))
		if code, _ := restCode(err); code != discordgo.ErrCodeUnknownWebhook || try == unknownWebhookRetries {
			return err
		}
		select {
		case <-time.After(webhookRetryPause):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// OpenHTTP prepares a bot that receives its interactions over HTTP only
// (InteractionsHandler), without a gateway connection: it asks Discord
// for the bot's own user and, unless Options.ApplicationID is set, the
// application, then registers the commands (as Open does). Send, the
// answers and the follow-ups need no gateway.
func (b *Bot) OpenHTTP(ctx context.Context) error {
	u, err := b.s.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("discord: asking for the bot's user: %w", err)
	}
	b.appMu.Lock()
	b.selfID = u.ID
	need := b.appID == ""
	b.appMu.Unlock()
	if need {
		raw, err := b.s.Request(http.MethodGet, discordgo.EndpointOAuth2Application("@me"), nil, discordgo.WithContext(ctx))
		if err != nil {
			return fmt.Errorf("discord: asking for the application: %w", err)
		}
		var app discordgo.Application
		if err := json.Unmarshal(raw, &app); err != nil || app.ID == "" {
			return fmt.Errorf("discord: the application Discord returned has no ID (%v)", err)
		}
		b.appMu.Lock()
		b.appID = app.ID
		b.appMu.Unlock()
	}
	b.log.Info("discord: ready for interactions over HTTP", "user", u.Username)
	return b.Register(ctx)
}
