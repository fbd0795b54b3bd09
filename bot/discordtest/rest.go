package discordtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// reply is what a REST handler answers: a status and a JSON body (nil: no body).
type reply struct {
	status int
	body   any
}

func ok(body any) (reply, *apiError) { return reply{http.StatusOK, body}, nil }

func noContent() (reply, *apiError) { return reply{status: http.StatusNoContent}, nil }

// serveHTTP routes gateway upgrades, CDN downloads and REST calls.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if websocket.IsWebSocketUpgrade(r) {
		s.serveGateway(w, r)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/attachments/") {
		s.serveAttachment(w, r)
		return
	}
	path := r.URL.Path
	for _, prefix := range []string{"/api/v10/", "/api/v9/", "/api/"} {
		if strings.HasPrefix(path, prefix) {
			path = strings.TrimPrefix(path, prefix)
			break
		}
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	rep, aerr := s.route(r, parts)
	s.write(w, r, rep, aerr)
}

// route authenticates, applies queued faults and calls the handler of a REST route.
func (s *Server) route(r *http.Request, p []string) (reply, *apiError) {
	open := p[0] == "webhooks" || p[0] == "interactions" // authenticated by the interaction token
	if auth := r.Header.Get("Authorization"); !open && (!strings.HasPrefix(auth, "Bot ") || !s.tokenOK(auth)) {
		return reply{}, errUnknown(http.StatusUnauthorized, 0, "401: Unauthorized")
	}
	if p[0] != "gateway" {
		s.mu.Lock()
		f, hit := s.takeFaultLocked(r.URL.Path)
		s.mu.Unlock()
		if hit {
			if f.status == http.StatusTooManyRequests {
				return reply{}, &apiError{status: f.status, message: "You are being rate limited.",
					errors: map[string]any{"retry_after": f.retryAfter.Seconds(), "global": f.global}}
			}
			return reply{}, errUnknown(f.status, f.code, f.message)
		}
	}
	m := r.Method
	n := len(p)
	if p[0] == "webhooks" && n >= 3 {
		s.awaitHTTPAnswer(r.Context(), p[2]) // Discord knows an HTTP answer before it serves its webhook
	}
	switch {
	case p[0] == "oauth2" && n == 3 && p[1] == "applications" && p[2] == "@me" && m == http.MethodGet:
		return ok(map[string]any{"id": s.cfg.appID, "name": s.cfg.botName, "bot_public": true,
			"verify_key": s.PublicKeyHex(), "flags": 0})
	case p[0] == "gateway" && n == 1 && m == http.MethodGet:
		return ok(map[string]string{"url": s.GatewayURL()})
	case p[0] == "gateway" && n == 2 && p[1] == "bot" && m == http.MethodGet:
		return ok(map[string]any{"url": s.GatewayURL(), "shards": 1, "session_start_limit": map[string]int{
			"total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1}})
	case p[0] == "users" && n == 2 && m == http.MethodGet:
		return s.getUser(p[1])
	case p[0] == "users" && n == 3 && p[1] == "@me" && p[2] == "channels" && m == http.MethodPost:
		return s.createDM(r)
	case p[0] == "guilds" && n == 2 && m == http.MethodGet:
		return s.getGuild(p[1])
	case p[0] == "guilds" && n == 4 && p[2] == "members" && m == http.MethodGet:
		return s.getMember(p[1], p[3])
	case p[0] == "channels" && n == 2 && m == http.MethodGet:
		return s.getChannel(p[1])
	case p[0] == "channels" && n == 2 && m == http.MethodPatch:
		return s.editChannel(r, p[1])
	case p[0] == "channels" && n == 2 && m == http.MethodDelete:
		return s.deleteThread(p[1])
	case p[0] == "channels" && n == 3 && p[2] == "messages" && m == http.MethodPost:
		return s.createMessage(r, p[1])
	case p[0] == "channels" && n == 4 && p[2] == "messages" && m == http.MethodGet:
		return s.getMessage(p[1], p[3])
	case p[0] == "channels" && n == 4 && p[2] == "messages" && m == http.MethodPatch:
		return s.editMessage(r, p[1], p[3])
	case p[0] == "channels" && n == 4 && p[2] == "messages" && m == http.MethodDelete:
		return s.deleteMessage(p[1], p[3])
	case p[0] == "channels" && n == 3 && p[2] == "threads" && m == http.MethodPost:
		return s.createThread(r, p[1], "")
	case p[0] == "channels" && n == 5 && p[2] == "messages" && p[4] == "threads" && m == http.MethodPost:
		return s.createThread(r, p[1], p[3])
	case p[0] == "interactions" && n == 4 && p[3] == "callback" && m == http.MethodPost:
		return s.callback(r, p[1], p[2])
	case p[0] == "webhooks" && n == 3 && m == http.MethodPost:
		return s.followup(r, p[1], p[2])
	case p[0] == "webhooks" && n == 5 && p[3] == "messages":
		return s.webhookMessage(r, p[1], p[2], p[4])
	case p[0] == "applications" && n == 3 && p[2] == "commands":
		return s.commandsRoute(r, p[1], "")
	case p[0] == "applications" && n == 5 && p[2] == "guilds" && p[4] == "commands":
		return s.commandsRoute(r, p[1], p[3])
	}
	return reply{}, errNotFound
}

// write sends a reply or an error in Discord's shape and records the request.
func (s *Server) write(w http.ResponseWriter, r *http.Request, rep reply, aerr *apiError) {
	h := w.Header()
	now := time.Now()
	h.Set("Date", now.UTC().Format(http.TimeFormat))
	hash := fnv.New32a()
	_, _ = hash.Write([]byte(r.Method + " " + r.URL.Path))
	bucket := fmt.Sprintf("%08x", hash.Sum32())
	code := 0
	var body any
	status := rep.status
	if aerr != nil {
		status, code = aerr.status, aerr.code
		if status == http.StatusTooManyRequests {
			retry := aerr.errors["retry_after"].(float64)
			global, _ := aerr.errors["global"].(bool)
			h.Set("Retry-After", strconv.Itoa(int(math.Ceil(retry))))
			h.Set("X-RateLimit-Limit", "5")
			h.Set("X-RateLimit-Remaining", "0")
			h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(now.UnixMilli())/1000+retry))
			h.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", retry))
			h.Set("X-RateLimit-Bucket", bucket)
			scope := "user"
			if global {
				h.Set("X-RateLimit-Global", "true")
				scope = "global"
			}
			h.Set("X-RateLimit-Scope", scope)
			body = map[string]any{"message": aerr.message, "retry_after": retry, "global": global, "code": 0}
		} else {
			e := map[string]any{"message": aerr.message, "code": aerr.code}
			if aerr.errors != nil {
				e["errors"] = aerr.errors
			}
			body = e
		}
	} else {
		h.Set("X-RateLimit-Limit", "50")
		h.Set("X-RateLimit-Remaining", "49")
		h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(now.UnixMilli())/1000+1))
		h.Set("X-RateLimit-Reset-After", "1.000")
		h.Set("X-RateLimit-Bucket", bucket)
		body = rep.body
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Status: status, Code: code})
	s.notifyLocked()
	s.mu.Unlock()
	if status == http.StatusNoContent || body == nil {
		w.WriteHeader(status)
		return
	}
	b, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/") // attachments/{channel}/{id}/{name}
	if len(parts) != 4 {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	f, ok := s.attachments[parts[2]]
	s.mu.Unlock()
	if !ok || f.Name != parts[3] {
		http.NotFound(w, r)
		return
	}
	if f.ContentType != "" {
		w.Header().Set("Content-Type", f.ContentType)
	}
	_, _ = w.Write(f.Data)
}

func (s *Server) getUser(id string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "@me" {
		id = s.cfg.botID
	}
	u, found := s.users[id]
	if !found {
		return reply{}, errUnknown(http.StatusNotFound, 10013, "Unknown User")
	}
	return ok(u)
}

func (s *Server) getGuild(id string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, found := s.guilds[id]; !found {
		return reply{}, errUnknown(http.StatusNotFound, 10004, "Unknown Guild")
	}
	g := s.guildJSONLocked(id)
	delete(g, "channels")
	delete(g, "threads")
	delete(g, "members")
	return ok(g)
}

// getMember answers GET /guilds/{id}/members/{user}: every known user is a member of every guild.
func (s *Server) getMember(guildID, userID string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, found := s.guilds[guildID]; !found {
		return reply{}, errUnknown(http.StatusNotFound, 10004, "Unknown Guild")
	}
	u, found := s.users[userID]
	if !found {
		return reply{}, errUnknown(http.StatusNotFound, 10007, "Unknown Member")
	}
	return ok(s.memberJSONLocked(u))
}

func (s *Server) createDM(r *http.Request) (reply, *apiError) {
	var req struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return reply{}, errBadJSON
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, found := s.users[req.RecipientID]; !found || req.RecipientID == s.cfg.botID {
		return reply{}, errInvalidRecipient
	}
	return ok(s.channelJSONLocked(s.dmChannelLocked(req.RecipientID)))
}

func (s *Server) getChannel(id string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, found := s.channels[id]
	if !found {
		return reply{}, errUnknownChannel
	}
	return ok(s.channelJSONLocked(c))
}

// editChannel supports renaming a channel and archiving or unarchiving a thread.
func (s *Server) editChannel(r *http.Request, id string) (reply, *apiError) {
	var req struct {
		Name     *string `json:"name"`
		Archived *bool   `json:"archived"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return reply{}, errBadJSON
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, found := s.channels[id]
	if !found {
		return reply{}, errUnknownChannel
	}
	if req.Name != nil {
		if n := len([]rune(*req.Name)); n < 1 || n > 100 {
			return reply{}, formError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		c.name = *req.Name
	}
	if req.Archived != nil {
		if !isThread(c.typ) {
			return reply{}, errWrongChannelType
		}
		if c.archived && !*req.Archived {
			c.unarchives++
		}
		c.archived = *req.Archived
	}
	if isThread(c.typ) {
		s.dispatchGuildLocked(c.guildID, "THREAD_UPDATE", s.channelJSONLocked(c))
	} else {
		s.dispatchGuildLocked(c.guildID, "CHANNEL_UPDATE", s.channelJSONLocked(c))
	}
	s.notifyLocked()
	return ok(s.channelJSONLocked(c))
}

// postableLocked checks that the bot may post into the channel.
func (s *Server) postableLocked(channelID string) (*channel, *apiError) {
	c, found := s.channels[channelID]
	if !found {
		return nil, errUnknownChannel
	}
	if c.typ == discordgo.ChannelTypeDM && s.dmBlocked[c.recipient] {
		return nil, errCannotDM
	}
	return c, nil
}

func (s *Server) createMessage(r *http.Request, channelID string) (reply, *apiError) {
	d, files, aerr := readMessage(r, s.cfg.maxFile, true)
	if aerr != nil {
		return reply{}, aerr
	}
	nonce, aerr := nonceOf(&d.p)
	if aerr != nil {
		return reply{}, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, aerr := s.postableLocked(channelID)
	if aerr != nil {
		return reply{}, aerr
	}
	// enforce_nonce: the same nonce from the same author in the same
	// channel within nonceWindow returns the message already created.
	now := time.Now()
	enforce := d.p.EnforceNonce && nonce != ""
	if enforce {
		if m := s.nonces.lookup(c.id, s.cfg.botID, nonce, now); m != nil {
			s.nonces.dedups++
			s.notifyLocked()
			return ok(s.wireLocked(m))
		}
	}
	m := s.addMessageLocked(c, d, files, "", false)
	m.Nonce = nonce
	if enforce {
		s.nonces.remember(s.cfg.botID, nonce, m, now)
	}
	return ok(s.wireLocked(m))
}

// addMessageLocked records a new message of the bot in c; posting into an archived thread reopens it.
func (s *Server) addMessageLocked(c *channel, d *decoded, files []File, interactionID string, ephemeral bool) *Message {
	m := &Message{
		ID: s.newIDLocked(), ChannelID: c.id, GuildID: c.guildID, AuthorID: s.cfg.botID,
		Embeds: d.embeds, Components: d.components, Flags: d.p.Flags, Ephemeral: ephemeral,
		InteractionID: interactionID, Created: time.Now().UTC(),
	}
	if d.p.Content != nil {
		m.Content = *d.p.Content
	}
	if present(d.p.Components) {
		m.rawComponents = slices.Clone(d.p.Components)
	}
	if d.p.Flags&discordgo.MessageFlagsEphemeral != 0 && !ephemeral {
		m.Flags &^= discordgo.MessageFlagsEphemeral
	}
	m.Mentions = mentionsOf(m.Content, d.p.AllowedMentions)
	m.Files = s.storeFilesLocked(files)
	c.messages = append(c.messages, m)
	if isThread(c.typ) && c.archived && !ephemeral {
		c.archived = false
		c.unarchives++
		s.dispatchGuildLocked(c.guildID, "THREAD_UPDATE", s.channelJSONLocked(c))
	}
	s.notifyLocked()
	return m
}

// storeFilesLocked gives uploaded files their attachment IDs.
func (s *Server) storeFilesLocked(files []File) []File {
	out := make([]File, len(files))
	for i, f := range files {
		f.ID = s.newIDLocked()
		if f.ContentType == "application/octet-stream" || f.ContentType == "" {
			f.ContentType = contentTypeOf(f.Name)
		}
		out[i] = f
		fc := f
		s.attachments[f.ID] = &fc
	}
	return out
}

func contentTypeOf(name string) string {
	switch {
	case strings.HasSuffix(name, ".png"):
		return "image/png"
	case strings.HasSuffix(name, ".gif"):
		return "image/gif"
	case strings.HasSuffix(name, ".pgn"), strings.HasSuffix(name, ".txt"):
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}

// editMessageLocked applies an edit: fields present replace the old ones; listed attachments are kept and
// new files appended.
func (s *Server) editMessageLocked(m *Message, d *decoded, files []File) {
	if d.p.Content != nil {
		m.Content = *d.p.Content
		m.Mentions = mentionsOf(m.Content, d.p.AllowedMentions)
	}
	if present(d.p.Embeds) {
		m.Embeds = d.embeds
	}
	if present(d.p.Components) {
		m.Components = d.components
		m.rawComponents = slices.Clone(d.p.Components)
	}
	if d.keep != nil {
		var kept []File
		for _, f := range m.Files {
			if slices.Contains(d.keep, f.ID) {
				kept = append(kept, f)
			}
		}
		m.Files = kept
	}
	m.Files = append(m.Files, s.storeFilesLocked(files)...)
	now := time.Now().UTC()
	m.edited = &now
	m.Edits++
	m.Loading = false
	m.Flags &^= discordgo.MessageFlagsLoading
	s.notifyLocked()
}

// visibleMessageLocked returns the message messageID of channelID that
// REST may read or change (not an ephemeral one), or Discord's error for
// an unknown channel or message. s.mu is held.
func (s *Server) visibleMessageLocked(channelID, messageID string) (*Message, *apiError) {
	if _, found := s.channels[channelID]; !found {
		return nil, errUnknownChannel
	}
	m := s.findMessageLocked(channelID, messageID)
	if m == nil || m.Ephemeral {
		return nil, errUnknownMessage
	}
	return m, nil
}

func (s *Server) getMessage(channelID, messageID string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, aerr := s.visibleMessageLocked(channelID, messageID)
	if aerr != nil {
		return reply{}, aerr
	}
	return ok(s.wireLocked(m))
}

func (s *Server) editMessage(r *http.Request, channelID, messageID string) (reply, *apiError) {
	d, files, aerr := readMessage(r, s.cfg.maxFile, false)
	if aerr != nil {
		return reply{}, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, aerr := s.visibleMessageLocked(channelID, messageID)
	if aerr != nil {
		return reply{}, aerr
	}
	if m.AuthorID != s.cfg.botID {
		return reply{}, errNotAuthor
	}
	s.editMessageLocked(m, d, files)
	return ok(s.wireLocked(m))
}

func (s *Server) deleteMessage(channelID, messageID string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, aerr := s.visibleMessageLocked(channelID, messageID)
	if aerr != nil {
		return reply{}, aerr
	}
	m.deleted = true
	s.notifyLocked()
	return noContent()
}

// createThread starts a thread in a channel, from a message (the thread takes its ID) or on its own.
func (s *Server) createThread(r *http.Request, channelID, messageID string) (reply, *apiError) {
	var req discordgo.ThreadStart
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return reply{}, errBadJSON
	}
	if n := len([]rune(req.Name)); n < 1 || n > 100 {
		return reply{}, formError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	switch req.AutoArchiveDuration {
	case 0, 60, 1440, 4320, 10080:
	default:
		return reply{}, formError("auto_archive_duration", "BASE_TYPE_CHOICES",
			"Value must be one of {60, 1440, 4320, 10080}.")
	}
	s.waitThreadHold()
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, found := s.channels[channelID]
	if !found {
		return reply{}, errUnknownChannel
	}
	if parent.typ != discordgo.ChannelTypeGuildText {
		return reply{}, errWrongChannelType
	}
	if s.noThreads[channelID] {
		return reply{}, errMissingPermissions
	}
	typ := req.Type
	id := ""
	if messageID != "" {
		m := s.findMessageLocked(channelID, messageID)
		if m == nil || m.Ephemeral {
			return reply{}, errUnknownMessage
		}
		for _, other := range s.channels {
			if other.id == messageID {
				return reply{}, errUnknown(http.StatusBadRequest, 160004, "A thread has already been created for this message")
			}
		}
		id = messageID
		typ = discordgo.ChannelTypeGuildPublicThread
	} else {
		id = s.newIDLocked()
		if typ == 0 {
			typ = discordgo.ChannelTypeGuildPrivateThread
		}
		if typ != discordgo.ChannelTypeGuildPublicThread && typ != discordgo.ChannelTypeGuildPrivateThread {
			return reply{}, formError("type", "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
		}
	}
	dur := req.AutoArchiveDuration
	if dur == 0 {
		dur = 4320
	}
	t := &channel{id: id, guildID: parent.guildID, parentID: parent.id, name: req.Name, typ: typ,
		archiveDuration: dur}
	s.channels[id] = t
	s.guilds[parent.guildID].channels = append(s.guilds[parent.guildID].channels, id)
	s.dispatchGuildLocked(t.guildID, "THREAD_CREATE", s.channelJSONLocked(t))
	s.notifyLocked()
	return reply{http.StatusCreated, s.channelJSONLocked(t)}, nil
}

// deleteThread deletes a thread, with its messages; it is remembered as deleted (DeletedThreads). Deleting
// any other channel is refused as the bot's missing permission: the bot never does it.
func (s *Server) deleteThread(id string) (reply, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, found := s.channels[id]
	if !found {
		return reply{}, errUnknownChannel
	}
	if !isThread(c.typ) {
		return reply{}, errMissingPermissions
	}
	body := s.channelJSONLocked(c)
	delete(s.channels, id)
	g := s.guilds[c.guildID]
	g.channels = slices.DeleteFunc(g.channels, func(other string) bool { return other == id })
	s.deletedThreads = append(s.deletedThreads, c.thread())
	s.dispatchGuildLocked(c.guildID, "THREAD_DELETE", map[string]any{"id": c.id, "guild_id": c.guildID,
		"parent_id": c.parentID, "type": c.typ})
	s.notifyLocked()
	return ok(body)
}
