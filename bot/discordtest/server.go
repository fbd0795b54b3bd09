package discordtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// discordEpoch is the first millisecond of 2015, the origin of Discord's snowflake timestamps.
const discordEpoch = 1420070400000

// Discord's limits that the fake enforces.
const (
	maxContent       = 2000
	maxFileSize      = 10 << 20
	maxChoices       = 25
	maxRows          = 5
	maxRowButtons    = 5
	maxCustomID      = 100
	maxSelectOptions = 25
)

// Option configures a Server.
type Option func(*config)

type config struct {
	deadline      time.Duration
	tokenLifetime time.Duration
	heartbeat     time.Duration
	botID         string
	botName       string
	appID         string
	token         string
	maxFile       int
}

// WithDeadline sets how long an interaction may wait for its first response (Discord: 3 s).
func WithDeadline(d time.Duration) Option { return func(c *config) { c.deadline = d } }

// WithTokenLifetime sets how long an interaction token accepts edits and follow-ups (Discord: 15 min).
func WithTokenLifetime(d time.Duration) Option { return func(c *config) { c.tokenLifetime = d } }

// WithHeartbeatInterval sets the heartbeat_interval sent in Hello (Discord: about 41.25 s).
func WithHeartbeatInterval(d time.Duration) Option { return func(c *config) { c.heartbeat = d } }

// WithBot sets the bot user's ID and name.
func WithBot(userID, username string) Option {
	return func(c *config) { c.botID, c.botName = userID, username }
}

// WithApplicationID sets the application ID (default: the bot user's ID, as for Discord applications).
func WithApplicationID(id string) Option { return func(c *config) { c.appID = id } }

// WithMaxFileSize sets the largest attachment accepted, in bytes (Discord: 10 MiB); a larger one gets 413,
// code 40005. Tests use a small limit to meet the refusal without building a 10 MiB file.
func WithMaxFileSize(n int) Option { return func(c *config) { c.maxFile = n } }

// WithToken makes the fake accept only this bot token (without the "Bot " prefix) on REST and Identify.
// By default any non-empty "Bot ..." token is accepted.
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// Server is a fake Discord: an httptest server answering the REST API and the gateway websocket.
// All methods are safe for concurrent use.
type Server struct {
	cfg  config
	http *httptest.Server
	base *url.URL

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every change of the model
	closed   bool
	deadline time.Duration
	lastID   uint64

	users      map[string]*discordgo.User
	guilds     map[string]*guild
	guildOrder []string
	channels   map[string]*channel
	dmByUser   map[string]string // user ID -> DM channel ID
	dmBlocked  map[string]bool
	noThreads  map[string]bool
	// deletedThreads are the threads deleted, in the order of deletion.
	deletedThreads []Thread
	threadHold     *threadHold      // set by HoldThreads
	attachments    map[string]*File // attachment ID -> file

	commands      map[string][]*discordgo.ApplicationCommand // guild ID ("" global) -> commands
	commandWrites int

	interactions []*Interaction
	byID         map[string]*Interaction
	byToken      map[string]*Interaction

	faults    []fault
	nonces    nonceBook
	requests  []Request
	gw        gateway
	startedAt time.Time
	hs        httpSide // the interactions endpoint: key pair, URL (see http.go)
	// nonMembers[guild][user]: users who are not members of the guild
	// (every user is a member of every guild unless removed).
	nonMembers map[string]map[string]bool
}

// guild is a guild of the model.
type guild struct {
	id, name string
	channels []string // text channels and threads, in creation order
}

// channel is a text channel, a thread or a DM channel, with its messages.
type channel struct {
	id, guildID, parentID, name string
	typ                         discordgo.ChannelType
	recipient                   string // DM channels: the user
	archived                    bool
	archiveDuration             int
	unarchives                  int
	messages                    []*Message
}

// Request is one REST request the fake answered.
type Request struct {
	Method string
	Path   string
	Status int
	Code   int // Discord's JSON error code, 0 on success
}

// New starts a fake Discord. Close it when done.
func New(opts ...Option) *Server {
	cfg := config{
		deadline:      discordgo.InteractionDeadline,
		tokenLifetime: 15 * time.Minute,
		heartbeat:     41250 * time.Millisecond,
		botID:         "900000000000000001",
		botName:       "fairypost",
		maxFile:       maxFileSize,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.appID == "" {
		cfg.appID = cfg.botID
	}
	s := &Server{
		cfg:         cfg,
		changed:     make(chan struct{}),
		deadline:    cfg.deadline,
		users:       map[string]*discordgo.User{},
		guilds:      map[string]*guild{},
		channels:    map[string]*channel{},
		dmByUser:    map[string]string{},
		dmBlocked:   map[string]bool{},
		noThreads:   map[string]bool{},
		attachments: map[string]*File{},
		commands:    map[string][]*discordgo.ApplicationCommand{},
		byID:        map[string]*Interaction{},
		byToken:     map[string]*Interaction{},
		startedAt:   time.Now(),
	}
	s.gw.init()
	s.hs.init()
	s.users[cfg.botID] = &discordgo.User{ID: cfg.botID, Username: cfg.botName, Discriminator: "0", Bot: true}
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.base, _ = url.Parse(s.http.URL)
	return s
}

// Close drops every gateway connection and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.notifyLocked()
	s.mu.Unlock()
	s.DropConnections()
	s.http.CloseClientConnections()
	s.http.Close()
}

// URL is the base URL of the fake, like http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.http.URL }

// GatewayURL is the websocket address handed out by GET /api/v9/gateway.
func (s *Server) GatewayURL() string { return "ws://" + s.base.Host }

// BotID is the bot user's ID.
func (s *Server) BotID() string { return s.cfg.botID }

// ApplicationID is the application's ID (the first path element of interaction webhooks).
func (s *Server) ApplicationID() string { return s.cfg.appID }

// SetDeadline changes the first-response deadline of interactions created from now on.
func (s *Server) SetDeadline(d time.Duration) {
	s.mu.Lock()
	s.deadline = d
	s.mu.Unlock()
}

// SetTokenLifetime changes how long interaction tokens accept edits and follow-ups.
func (s *Server) SetTokenLifetime(d time.Duration) {
	s.mu.Lock()
	s.cfg.tokenLifetime = d
	s.mu.Unlock()
}

// HTTPClient returns a client whose transport sends every request to the fake, keeping path and query:
// https://discord.com/api/v9/... and https://cdn.discordapp.com/... both reach URL().
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Transport: &RewriteTransport{Base: s.base}, Timeout: 20 * time.Second}
}

// RewriteTransport sends every request to Base's scheme and host, keeping its path and query.
// Next is the underlying transport (nil: http.DefaultTransport).
type RewriteTransport struct {
	Base *url.URL
	Next http.RoundTripper
}

// RoundTrip rewrites the request's URL and forwards it.
func (t *RewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.URL.Scheme = t.Base.Scheme
	r2.URL.Host = t.Base.Host
	r2.Host = t.Base.Host
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r2)
}

// notifyLocked wakes every waiter; s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// WaitFor waits until cond returns true, re-checking it after every change of the fake (and every 10 ms, for
// conditions that depend on time). cond runs without the fake's lock held and may call its methods.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		case <-tick.C:
		}
	}
}

// newIDLocked returns a fresh snowflake, increasing over the server's life.
func (s *Server) newIDLocked() string {
	ms := uint64(time.Now().UnixMilli() - discordEpoch)
	id := ms << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

// NewID returns a fresh snowflake ID, for tests that need IDs of their own.
func (s *Server) NewID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newIDLocked()
}

// AddUser adds a user; users are members of every guild.
func (s *Server) AddUser(userID, username string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[userID] = &discordgo.User{ID: userID, Username: username, Discriminator: "0", GlobalName: username}
	s.notifyLocked()
}

// AddGuild adds a guild (and dispatches GUILD_CREATE to connected sessions).
func (s *Server) AddGuild(guildID, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.guilds[guildID]; ok {
		return
	}
	s.guilds[guildID] = &guild{id: guildID, name: name}
	s.guildOrder = append(s.guildOrder, guildID)
	s.dispatchGuildLocked(guildID, "GUILD_CREATE", s.guildJSONLocked(guildID))
	s.notifyLocked()
}

// AddChannel adds a text channel to a guild (adding the guild if needed) and dispatches CHANNEL_CREATE.
func (s *Server) AddChannel(guildID, channelID, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[guildID]
	if !ok {
		g = &guild{id: guildID, name: guildID}
		s.guilds[guildID] = g
		s.guildOrder = append(s.guildOrder, guildID)
		s.dispatchGuildLocked(guildID, "GUILD_CREATE", s.guildJSONLocked(guildID))
	}
	if _, ok := s.channels[channelID]; ok {
		return
	}
	c := &channel{id: channelID, guildID: guildID, name: name, typ: discordgo.ChannelTypeGuildText}
	s.channels[channelID] = c
	g.channels = append(g.channels, channelID)
	s.dispatchGuildLocked(c.guildID, "CHANNEL_CREATE", s.channelJSONLocked(c))
	s.notifyLocked()
}

// ForbidThreads makes thread creation in the channel fail with 403 and code 50013 (Missing Permissions).
func (s *Server) ForbidThreads(channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noThreads[channelID] = true
}

// HoldThreads makes the next n thread creations wait for one another: each request waits until n have
// arrived (or holdLimit passed) and then all go on. Two clients that both create a thread for the same thing
// then both get one, as when two processes race: a test makes the race happen instead of hoping for it.
func (s *Server) HoldThreads(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.threadHold = &threadHold{want: n, open: make(chan struct{})}
}

// holdLimit bounds HoldThreads' wait, so that a test expecting a race that does not happen fails instead
// of hanging.
const holdLimit = 10 * time.Second

// threadHold is the gate of HoldThreads.
type threadHold struct {
	want, arrived int
	open          chan struct{}
}

// waitThreadHold makes a thread creation wait at the gate of HoldThreads, if one is set.
func (s *Server) waitThreadHold() {
	s.mu.Lock()
	h := s.threadHold
	if h == nil {
		s.mu.Unlock()
		return
	}
	h.arrived++
	if h.arrived == h.want {
		close(h.open)
		s.threadHold = nil
	}
	s.mu.Unlock()
	select {
	case <-h.open:
	case <-time.After(holdLimit):
	}
}

// BlockDMs makes messages to the user's DM channel fail with 403 and code 50007.
func (s *Server) BlockDMs(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dmBlocked[userID] = true
}

// UnblockDMs undoes BlockDMs.
func (s *Server) UnblockDMs(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.dmBlocked, userID)
}

// DMChannel returns the ID of the DM channel between the bot and the user, creating it on first use.
func (s *Server) DMChannel(userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmChannelLocked(userID).id
}

func (s *Server) dmChannelLocked(userID string) *channel {
	if id, ok := s.dmByUser[userID]; ok {
		return s.channels[id]
	}
	c := &channel{id: s.newIDLocked(), typ: discordgo.ChannelTypeDM, recipient: userID}
	s.channels[c.id] = c
	s.dmByUser[userID] = c.id
	s.notifyLocked()
	return c
}

// SetArchived archives or unarchives a thread, as Discord's auto-archive does, and dispatches THREAD_UPDATE.
func (s *Server) SetArchived(threadID string, archived bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[threadID]
	if !ok || !isThread(c.typ) || c.archived == archived {
		return
	}
	c.archived = archived
	s.dispatchGuildLocked(c.guildID, "THREAD_UPDATE", s.channelJSONLocked(c))
	s.notifyLocked()
}

func isThread(t discordgo.ChannelType) bool {
	return t == discordgo.ChannelTypeGuildPublicThread || t == discordgo.ChannelTypeGuildPrivateThread ||
		t == discordgo.ChannelTypeGuildNewsThread
}

// Thread is a recorded thread.
type Thread struct {
	ID, ParentID, GuildID, Name string
	Type                        discordgo.ChannelType
	Archived                    bool
	Unarchives                  int // how often a post of the bot reopened it
}

func (c *channel) thread() Thread {
	return Thread{ID: c.id, ParentID: c.parentID, GuildID: c.guildID, Name: c.name, Type: c.typ,
		Archived: c.archived, Unarchives: c.unarchives}
}

// Threads returns the threads started in a channel, in creation order.
func (s *Server) Threads(parentID string) []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Thread
	for _, g := range s.guildOrder {
		for _, id := range s.guilds[g].channels {
			if c := s.channels[id]; c.parentID == parentID && isThread(c.typ) {
				out = append(out, c.thread())
			}
		}
	}
	return out
}

// DeletedThreads returns the threads started in a channel and deleted since, in the order of deletion.
// Threads and DeletedThreads together are every thread ever started there.
func (s *Server) DeletedThreads(parentID string) []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Thread
	for _, t := range s.deletedThreads {
		if t.ParentID == parentID {
			out = append(out, t)
		}
	}
	return out
}

// Thread returns a thread by ID.
func (s *Server) Thread(threadID string) (Thread, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[threadID]
	if !ok || !isThread(c.typ) {
		return Thread{}, false
	}
	return c.thread(), true
}

// Messages returns the messages of a channel (a text channel, a thread or a DM channel) in the order they
// were created, interaction responses and follow-ups included; deleted messages are left out.
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[channelID]
	if !ok {
		return nil
	}
	out := make([]Message, 0, len(c.messages))
	for _, m := range c.messages {
		if !m.deleted {
			out = append(out, m.clone())
		}
	}
	return out
}

// Message returns one message of a channel.
func (s *Server) Message(channelID, messageID string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.findMessageLocked(channelID, messageID)
	if m == nil {
		return Message{}, false
	}
	return m.clone(), true
}

func (s *Server) findMessageLocked(channelID, messageID string) *Message {
	c, ok := s.channels[channelID]
	if !ok {
		return nil
	}
	for _, m := range c.messages {
		if m.ID == messageID && !m.deleted {
			return m
		}
	}
	return nil
}

// DMs returns the messages in the user's DM channel (none if it was never opened).
func (s *Server) DMs(userID string) []Message {
	s.mu.Lock()
	id, ok := s.dmByUser[userID]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return s.Messages(id)
}

// Commands returns the registered application commands of a guild ("" for the global ones).
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneCommands(s.commands[guildID])
}

// CommandWrites counts the accepted bulk overwrites of commands (global and guild).
func (s *Server) CommandWrites() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commandWrites
}

// Requests returns every REST request answered so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Interactions returns every interaction created so far, in order.
func (s *Server) Interactions() []*Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Interaction(nil), s.interactions...)
}

// fault is a queued failure of matching REST requests.
type fault struct {
	match      string // substring of the path; "" any
	remaining  int
	status     int
	code       int
	message    string
	retryAfter time.Duration // 429 only
	global     bool
}

// FailNext makes the next n REST requests fail with 500 Internal Server Error.
func (s *Server) FailNext(n int) {
	s.FailNextWith(n, http.StatusInternalServerError, 0, "500: Internal Server Error")
}

// FailNextWith makes the next n REST requests fail with the given status and Discord error code.
func (s *Server) FailNextWith(n, status, code int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, fault{remaining: n, status: status, code: code, message: message})
}

// RateLimit makes the next n REST requests whose path contains pathContains answer 429 Too Many Requests,
// with retry_after in the body and the Retry-After and X-RateLimit-* headers Discord sends. An empty
// pathContains matches every request and is reported as a global rate limit.
func (s *Server) RateLimit(pathContains string, n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, fault{match: pathContains, remaining: n, status: http.StatusTooManyRequests,
		retryAfter: retryAfter, global: pathContains == ""})
}

// takeFaultLocked returns the first queued fault matching path, consuming one of its uses.
func (s *Server) takeFaultLocked(path string) (fault, bool) {
	for i := range s.faults {
		f := &s.faults[i]
		if f.remaining > 0 && strings.Contains(path, f.match) {
			f.remaining--
			out := *f
			if f.remaining == 0 {
				s.faults = append(s.faults[:i], s.faults[i+1:]...)
			}
			return out, true
		}
	}
	return fault{}, false
}
