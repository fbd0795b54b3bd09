package discordtest

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// gateway is the websocket side of the fake; guarded by Server.mu.
type gateway struct {
	sessions   map[string]*gwSession
	conns      map[*gwConn]bool
	identifies int
	resumes    int
}

func (g *gateway) init() {
	g.sessions = map[string]*gwSession{}
	g.conns = map[*gwConn]bool{}
}

// gwSession is a gateway session: the sequence of dispatches a bot has been sent, kept for resuming.
type gwSession struct {
	id      string
	seq     int64
	events  []gwEvent
	conn    *gwConn // nil while disconnected
	invalid bool    // closed normally by the client: it cannot resume
	// shard and shards are the [shard_id, num_shards] of IDENTIFY
	// ([0, 1] when it had none): the session receives the dispatches of
	// the guilds ShardOf gives its shard, and DMs when it is shard 0.
	shard, shards int
}

// serves reports whether the session receives the dispatches about
// guildID ("" for DMs).
func (sess *gwSession) serves(guildID string) bool {
	return ShardOf(guildID, sess.shards) == sess.shard
}

// ShardOf returns the shard that receives the events and interactions
// of guildID when the bot connects with shardCount shards, as Discord
// routes them: (guild ID >> 22) % shardCount. DMs (guildID "") go to
// shard 0, and so does a guild ID that is not a number (the fake accepts
// any string as an ID). shardCount below 2 is one shard: 0.
func ShardOf(guildID string, shardCount int) int {
	if shardCount < 2 || guildID == "" {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(shardCount))
}

type gwEvent struct {
	seq   int64
	frame []byte
}

// maxBuffered is how many dispatches a session keeps for resuming.
const maxBuffered = 10000

// gwConn is one websocket connection.
type gwConn struct {
	ws        *websocket.Conn
	out       chan []byte
	closeOnce sync.Once
	session   *gwSession // guarded by Server.mu
}

// send queues a frame; a connection whose queue is full is dropped, as Discord drops slow consumers.
func (c *gwConn) send(frame []byte) {
	select {
	case c.out <- frame:
	default:
		c.kill()
	}
}

// kill closes the socket without a close frame.
func (c *gwConn) kill() {
	c.closeOnce.Do(func() { _ = c.ws.Close() })
}

func (c *gwConn) writeLoop() {
	for frame := range c.out {
		if err := c.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
			c.kill()
			return
		}
	}
}

// gwPayload is a payload the client sends.
type gwPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
}

func frameOf(op int, d any) []byte {
	b, err := json.Marshal(struct {
		Op int `json:"op"`
		D  any `json:"d"`
	}{op, d})
	if err != nil {
		panic("discordtest: marshal gateway frame: " + err.Error())
	}
	return b
}

func dispatchFrame(seq int64, t string, d any) []byte {
	b, err := json.Marshal(struct {
		Op int    `json:"op"`
		S  int64  `json:"s"`
		T  string `json:"t"`
		D  any    `json:"d"`
	}{0, seq, t, d})
	if err != nil {
		panic("discordtest: marshal dispatch " + t + ": " + err.Error())
	}
	return b
}

// serveGateway runs one gateway connection.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws, out: make(chan []byte, 4096)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	s.gw.conns[c] = true
	s.mu.Unlock()
	go c.writeLoop()
	c.send(frameOf(10, map[string]any{"heartbeat_interval": s.cfg.heartbeat.Milliseconds()}))

	normalClose := false
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
				normalClose = true
			}
			break
		}
		var p gwPayload
		if json.Unmarshal(msg, &p) != nil {
			s.closeWith(c, 4002, "Error while decoding payload.")
			break
		}
		if !s.handleOp(c, p) {
			break
		}
	}
	s.mu.Lock()
	delete(s.gw.conns, c)
	if sess := c.session; sess != nil && sess.conn == c {
		sess.conn = nil
		if normalClose {
			sess.invalid = true
		}
	}
	close(c.out)
	s.notifyLocked()
	s.mu.Unlock()
	c.kill()
}

// closeWith closes a connection with a gateway close code.
func (s *Server) closeWith(c *gwConn, code int, text string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text),
		time.Now().Add(time.Second))
	c.kill()
}

// handleOp answers one client payload; false ends the connection.
func (s *Server) handleOp(c *gwConn, p gwPayload) bool {
	switch p.Op {
	case 1: // heartbeat
		c.send(frameOf(11, nil))
	case 2: // identify
		var id struct {
			Token string  `json:"token"`
			Shard *[2]int `json:"shard"`
		}
		_ = json.Unmarshal(p.D, &id)
		if !s.tokenOK(id.Token) {
			s.closeWith(c, 4004, "Authentication failed.")
			return false
		}
		shard := [2]int{0, 1}
		if id.Shard != nil {
			shard = *id.Shard
		}
		if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
			s.closeWith(c, 4010, "Invalid shard.")
			return false
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if c.session != nil {
			s.closeWith(c, 4005, "Already authenticated.")
			return false
		}
		sess := &gwSession{id: randomHex(16), conn: c, shard: shard[0], shards: shard[1]}
		s.gw.sessions[sess.id] = sess
		s.gw.identifies++
		c.session = sess
		var guilds []map[string]any
		for _, g := range s.guildOrder {
			if sess.serves(g) {
				guilds = append(guilds, map[string]any{"id": g, "unavailable": true})
			}
		}
		ready := map[string]any{
			"v":                  9,
			"user":               s.users[s.cfg.botID],
			"guilds":             nonNil(guilds),
			"session_id":         sess.id,
			"resume_gateway_url": s.GatewayURL(),
			"application":        map[string]any{"id": s.cfg.appID, "flags": 0},
			"private_channels":   []any{},
		}
		if id.Shard != nil {
			ready["shard"] = shard
		}
		s.sendLocked(sess, "READY", ready)
		for _, g := range s.guildOrder {
			if sess.serves(g) {
				s.sendLocked(sess, "GUILD_CREATE", s.guildJSONLocked(g))
			}
		}
		s.notifyLocked()
	case 6: // resume
		var rp struct {
			Token     string `json:"token"`
			SessionID string `json:"session_id"`
			Seq       int64  `json:"seq"`
		}
		_ = json.Unmarshal(p.D, &rp)
		if !s.tokenOK(rp.Token) {
			s.closeWith(c, 4004, "Authentication failed.")
			return false
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		sess, ok := s.gw.sessions[rp.SessionID]
		if !ok || sess.invalid || rp.Seq > sess.seq {
			c.send(frameOf(9, false))
			return true
		}
		if old := sess.conn; old != nil && old != c {
			old.kill()
		}
		sess.conn = c
		c.session = sess
		for _, e := range sess.events {
			if e.seq > rp.Seq {
				c.send(e.frame)
			}
		}
		s.gw.resumes++
		s.sendLocked(sess, "RESUMED", map[string]any{"_trace": []string{"discordtest"}})
		s.notifyLocked()
	}
	return true
}

// sendLocked numbers a dispatch for one session, keeps it for resuming and sends it if connected.
func (s *Server) sendLocked(sess *gwSession, t string, d any) {
	sess.seq++
	frame := dispatchFrame(sess.seq, t, d)
	sess.events = append(sess.events, gwEvent{sess.seq, frame})
	if len(sess.events) > maxBuffered {
		sess.events = sess.events[len(sess.events)-maxBuffered:]
	}
	if sess.conn != nil {
		sess.conn.send(frame)
	}
}

// dispatchGuildLocked sends a dispatch about guildID ("" for a DM) to
// every resumable session of the shard that guild belongs to (ShardOf),
// as Discord does.
func (s *Server) dispatchGuildLocked(guildID, t string, d any) int {
	n := 0
	for _, sess := range s.gw.sessions {
		if !sess.invalid && sess.serves(guildID) {
			s.sendLocked(sess, t, d)
			n++
		}
	}
	return n
}

// dispatchLocked sends a dispatch to every resumable session, whatever
// its shard.
func (s *Server) dispatchLocked(t string, d any) int {
	n := 0
	for _, sess := range s.gw.sessions {
		if !sess.invalid {
			s.sendLocked(sess, t, d)
			n++
		}
	}
	return n
}

// Dispatch sends a gateway dispatch of any type to every session (kept for replay on resume).
func (s *Server) Dispatch(eventType string, data any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dispatchLocked(eventType, data)
	s.notifyLocked()
}

// DropConnections closes every gateway socket abruptly (no close frame), as a network failure would;
// discordgo then reconnects and resumes.
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := make([]*gwConn, 0, len(s.gw.conns))
	for c := range s.gw.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

// Identifies counts accepted Identify payloads (new sessions).
func (s *Server) Identifies() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.identifies
}

// Resumes counts successful resumes.
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.resumes
}

// Shard is the [shard_id, num_shards] a gateway session identified with.
type Shard struct{ ID, Count int }

// Shards returns the shard of every open gateway connection attached to
// a session, ordered by shard ID ({0, 1} for a session that identified
// without a shard).
func (s *Server) Shards() []Shard {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Shard
	for c := range s.gw.conns {
		if sess := c.session; sess != nil && sess.conn == c {
			out = append(out, Shard{sess.shard, sess.shards})
		}
	}
	slices.SortFunc(out, func(a, b Shard) int { return cmp.Or(a.ID-b.ID, a.Count-b.Count) })
	return out
}

// Connections counts open gateway sockets attached to a session (identified or resumed).
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.gw.conns {
		if c.session != nil && c.session.conn == c {
			n++
		}
	}
	return n
}

// tokenOK checks a bot token (with or without the "Bot " prefix).
func (s *Server) tokenOK(token string) bool {
	t := strings.TrimPrefix(token, "Bot ")
	if t == "" {
		return false
	}
	return s.cfg.token == "" || t == s.cfg.token
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// guildJSONLocked is a guild as GUILD_CREATE carries it.
func (s *Server) guildJSONLocked(guildID string) map[string]any {
	g := s.guilds[guildID]
	channels := []map[string]any{}
	threads := []map[string]any{}
	for _, id := range g.channels {
		c := s.channels[id]
		if isThread(c.typ) {
			if !c.archived {
				threads = append(threads, s.channelJSONLocked(c))
			}
			continue
		}
		channels = append(channels, s.channelJSONLocked(c))
	}
	return map[string]any{
		"id":           g.id,
		"name":         g.name,
		"owner_id":     s.cfg.botID,
		"joined_at":    s.startedAt.UTC().Format(time.RFC3339Nano),
		"member_count": len(s.users),
		"unavailable":  false,
		"channels":     channels,
		"threads":      threads,
		"members":      []any{},
		"roles":        []any{},
		"emojis":       []any{},
		"features":     []string{},
	}
}

// channelJSONLocked is a channel as the REST API and the gateway return it.
func (s *Server) channelJSONLocked(c *channel) map[string]any {
	m := map[string]any{
		"id":                    c.id,
		"type":                  c.typ,
		"name":                  c.name,
		"permission_overwrites": []any{},
		"flags":                 0,
	}
	if c.guildID != "" {
		m["guild_id"] = c.guildID
	}
	if c.parentID != "" {
		m["parent_id"] = c.parentID
	}
	if n := len(c.messages); n > 0 {
		m["last_message_id"] = c.messages[n-1].ID
	}
	if c.typ == discordgo.ChannelTypeDM {
		u := s.users[c.recipient]
		if u == nil {
			u = &discordgo.User{ID: c.recipient}
		}
		m["recipients"] = []*discordgo.User{u}
	}
	if isThread(c.typ) {
		m["owner_id"] = s.cfg.botID
		m["message_count"] = len(c.messages)
		m["member_count"] = 1
		m["thread_metadata"] = map[string]any{
			"archived":              c.archived,
			"auto_archive_duration": c.archiveDuration,
			"archive_timestamp":     time.Now().UTC().Format(time.RFC3339Nano),
			"locked":                false,
		}
	}
	return m
}
