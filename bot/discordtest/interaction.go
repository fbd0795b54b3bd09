package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Errors of the test-facing interaction API.
var (
	// ErrInteractionFailed: the deadline passed without an accepted initial response; the user saw
	// "This interaction failed".
	ErrInteractionFailed = errors.New("discordtest: interaction failed: no response before the deadline")
	// ErrArchivedThread: users cannot start interactions in an archived thread.
	ErrArchivedThread = errors.New("discordtest: the thread is archived")
	// ErrNoBot: no gateway session of the channel's shard has identified, so nobody would receive the
	// interaction.
	ErrNoBot = errors.New("discordtest: no bot session of the channel's shard is connected")
	// ErrNotInDMs: the command is registered for servers only (contexts
	// without BOT_DM, or dm_permission false): Discord's client does not
	// offer it in a DM.
	ErrNotInDMs = errors.New("discordtest: command not available in DMs")
	// ErrNoMessage: the response has no message (autocomplete).
	ErrNoMessage = errors.New("discordtest: the response has no message")
	// ErrTooLong: a string value is longer than its option's max_length;
	// Discord's client stops the typing there and never sends it.
	ErrTooLong = errors.New("discordtest: the value is longer than the option's max_length")
)

// Arg is an option value of a slash command or autocomplete request.
type Arg struct {
	Name    string
	Type    discordgo.ApplicationCommandOptionType
	Value   any
	Focused bool
}

// String is a string option.
func String(name, value string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}

// Int is an integer option.
func Int(name string, value int64) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: value}
}

// User is a user option; the interaction's resolved data carries the user.
func User(name, userID string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: userID}
}

// Focused is the option the user is typing in an autocomplete request; Discord sends it as a string.
func Focused(name, typed string) Arg {
	return Arg{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: typed, Focused: true}
}

// Interaction is an interaction the fake sent to the bot, and what the bot answered.
type Interaction struct {
	ID, Token string
	Type      discordgo.InteractionType
	UserID    string
	ChannelID string
	GuildID   string // "" in DMs
	Command   string // slash commands and autocomplete
	CustomID  string // component clicks
	MessageID string // component clicks: the message the component is on
	Created   time.Time
	Deadline  time.Time

	s *Server
	// guarded by s.mu
	acked      bool
	resp       Response
	originalID string // the message @original refers to
	final      bool   // the visible result exists (type 4 and 7 at once; 5 and 6 after the edit)
	followups  []string
	rejected   []int
	ackedAt    time.Time     // when the initial response was accepted
	finalAt    time.Time     // when the visible result came to exist (the edit of a deferral, or the first follow-up)
	forgery    Forgery       // how a delivery over HTTP is signed
	http       *httpDelivery // set when delivered over HTTP (http.go)
}

// Response is an accepted initial response.
type Response struct {
	Type    discordgo.InteractionResponseType
	Message *Message // the message created (4, 5: the placeholder) or updated (7); nil for 6 and 8
	Choices []*discordgo.ApplicationCommandOptionChoice
	Elapsed time.Duration // from the dispatch to the response
}

// failedLocked reports whether the user saw the interaction fail.
func (i *Interaction) failedLocked(now time.Time) bool { return !i.acked && now.After(i.Deadline) }

// Failed reports whether the deadline passed without an accepted initial response.
func (i *Interaction) Failed() bool {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.failedLocked(time.Now())
}

// Acks is 1 once an initial response was accepted, else 0.
func (i *Interaction) Acks() int {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if i.acked {
		return 1
	}
	return 0
}

// Rejected lists the Discord error codes of the refused initial responses (10062 late, 40060 twice, 50035 invalid).
func (i *Interaction) Rejected() []int {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return slices.Clone(i.rejected)
}

// Deferred reports whether the initial response accepted was a deferral (5: "thinking…", 6: a deferred
// update of the clicked message), to be followed by an edit of the original response or a follow-up.
func (i *Interaction) Deferred() bool {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.acked && (i.resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
		i.resp.Type == discordgo.InteractionResponseDeferredMessageUpdate)
}

// Hanging reports whether the interaction was deferred and then never answered: no edit of the original
// response and no follow-up. The user still sees "thinking…" (until the token expires).
func (i *Interaction) Hanging() bool {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	deferred := i.resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
		i.resp.Type == discordgo.InteractionResponseDeferredMessageUpdate
	return i.acked && deferred && !i.final && len(i.followups) == 0
}

// Answered returns when the initial response was accepted and when the user saw the result (at once for
// a direct answer; for a deferral, the edit of the original response or the first follow-up); zero times
// for what did not happen.
func (i *Interaction) Answered() (acked, final time.Time) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.ackedAt, i.finalAt
}

// Response waits for the initial response. It returns ErrInteractionFailed once the deadline passed without one.
func (i *Interaction) Response(ctx context.Context) (Response, error) {
	err := i.s.WaitFor(ctx, func() bool {
		i.s.mu.Lock()
		defer i.s.mu.Unlock()
		return i.acked || i.failedLocked(time.Now())
	})
	if err != nil {
		return Response{}, err
	}
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if !i.acked {
		return Response{}, ErrInteractionFailed
	}
	r := i.resp
	r.Choices = slices.Clone(r.Choices)
	if r.Message != nil {
		if m := i.s.findMessageLocked(i.ChannelID, i.originalID); m != nil {
			c := m.clone()
			r.Message = &c
		}
	}
	return r, nil
}

// Final waits for the message the user finally sees: the response message (type 4), the edited deferral
// (5, after PATCH @original), the edited clicked message (6, after PATCH @original) or the update (7).
func (i *Interaction) Final(ctx context.Context) (Message, error) {
	r, err := i.Response(ctx)
	if err != nil {
		return Message{}, err
	}
	if r.Type == discordgo.InteractionApplicationCommandAutocompleteResult {
		return Message{}, ErrNoMessage
	}
	if err := i.s.WaitFor(ctx, func() bool {
		i.s.mu.Lock()
		defer i.s.mu.Unlock()
		return i.final
	}); err != nil {
		return Message{}, err
	}
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	m := i.s.findMessageLocked(i.ChannelID, i.originalID)
	if m == nil {
		return Message{}, fmt.Errorf("discordtest: the response message %s was deleted", i.originalID)
	}
	return m.clone(), nil
}

// Choices waits for an autocomplete result and returns its choices.
func (i *Interaction) Choices(ctx context.Context) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	r, err := i.Response(ctx)
	if err != nil {
		return nil, err
	}
	if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		return nil, fmt.Errorf("discordtest: response type %d is not an autocomplete result", r.Type)
	}
	return r.Choices, nil
}

// Followups returns the follow-up messages created with the interaction's token, in order.
func (i *Interaction) Followups() []Message {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	var out []Message
	for _, id := range i.followups {
		if m := i.s.findMessageLocked(i.ChannelID, id); m != nil {
			out = append(out, m.clone())
		}
	}
	return out
}

// Slash sends an application command (a slash command) from a user in a channel.
func (s *Server) Slash(userID, channelID, command string, args ...Arg) (*Interaction, error) {
	for _, a := range args {
		if a.Focused {
			return nil, fmt.Errorf("discordtest: Slash got the focused option %q; use Autocomplete", a.Name)
		}
	}
	return s.commandInteraction(discordgo.InteractionApplicationCommand, userID, channelID, command, args, Genuine)
}

// Autocomplete sends an autocomplete request: exactly one argument must be made with Focused.
func (s *Server) Autocomplete(userID, channelID, command string, args ...Arg) (*Interaction, error) {
	n := 0
	for _, a := range args {
		if a.Focused {
			n++
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("discordtest: autocomplete needs exactly one focused option, got %d", n)
	}
	return s.commandInteraction(discordgo.InteractionApplicationCommandAutocomplete, userID, channelID, command, args, Genuine)
}

// findCommandLocked returns the registered command a user can run in the channel's guild.
func (s *Server) findCommandLocked(guildID, name string) *discordgo.ApplicationCommand {
	scopes := []string{""}
	if guildID != "" {
		scopes = []string{guildID, ""}
	}
	for _, scope := range scopes {
		for _, c := range s.commands[scope] {
			if c.Name == name {
				return c
			}
		}
	}
	return nil
}

// checkArgs verifies the arguments against the registered options, as Discord's client would.
func checkArgs(cmd *discordgo.ApplicationCommand, args []Arg, autocomplete bool) error {
	for _, a := range args {
		var spec *discordgo.ApplicationCommandOption
		for _, o := range cmd.Options {
			if o.Name == a.Name {
				spec = o
			}
		}
		if spec == nil {
			return fmt.Errorf("discordtest: /%s has no option %q", cmd.Name, a.Name)
		}
		if a.Focused {
			if !spec.Autocomplete {
				return fmt.Errorf("discordtest: option %q of /%s does not autocomplete", a.Name, cmd.Name)
			}
			continue
		}
		if a.Type != spec.Type {
			return fmt.Errorf("discordtest: option %q of /%s has type %s, not %s", a.Name, cmd.Name, spec.Type, a.Type)
		}
		if s, isString := a.Value.(string); isString && spec.MaxLength > 0 && utf8.RuneCountInString(s) > spec.MaxLength {
			return fmt.Errorf("%w: option %q of /%s holds at most %d characters, got %d", ErrTooLong, a.Name, cmd.Name, spec.MaxLength, utf8.RuneCountInString(s))
		}
		if len(spec.Choices) > 0 {
			found := false
			for _, c := range spec.Choices {
				if fmt.Sprint(c.Value) == fmt.Sprint(a.Value) {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("discordtest: %v is not a choice of option %q of /%s", a.Value, a.Name, cmd.Name)
			}
		}
	}
	if autocomplete {
		return nil
	}
	for _, o := range cmd.Options {
		if !o.Required {
			continue
		}
		if !slices.ContainsFunc(args, func(a Arg) bool { return a.Name == o.Name }) {
			return fmt.Errorf("discordtest: /%s needs option %q", cmd.Name, o.Name)
		}
	}
	return nil
}

func (s *Server) commandInteraction(typ discordgo.InteractionType, userID, channelID, command string, args []Arg, f Forgery) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.interactionChannelLocked(userID, channelID)
	if err != nil {
		return nil, err
	}
	if f != Genuine && !s.overHTTPLocked() {
		return nil, errors.New("discordtest: forged deliveries need an interactions endpoint (SetInteractionsEndpoint)")
	}
	cmd := s.findCommandLocked(c.guildID, command)
	if cmd == nil {
		return nil, fmt.Errorf("discordtest: /%s is not registered for guild %q or globally", command, c.guildID)
	}
	if c.guildID == "" && !allowedInDMs(cmd) {
		return nil, fmt.Errorf("%w: /%s", ErrNotInDMs, command)
	}
	if err := checkArgs(cmd, args, typ == discordgo.InteractionApplicationCommandAutocomplete); err != nil {
		return nil, err
	}
	i := s.newInteractionLocked(typ, userID, c)
	i.Command = command
	i.forgery = f
	var opts []map[string]any
	resolved := map[string]any{}
	users := map[string]any{}
	members := map[string]any{}
	guildMembersOut := s.nonMembers[c.guildID]
	for _, a := range args {
		o := map[string]any{"name": a.Name, "type": a.Type, "value": a.Value}
		if a.Focused {
			o["focused"] = true
		}
		opts = append(opts, o)
		if a.Type == discordgo.ApplicationCommandOptionUser && !a.Focused {
			id, _ := a.Value.(string)
			u := s.users[id]
			if u == nil {
				u = &discordgo.User{ID: id}
			}
			users[id] = u
			if c.guildID != "" && !guildMembersOut[id] {
				members[id] = s.memberJSONLocked(nil)
			}
		}
	}
	if len(users) > 0 {
		resolved["users"] = users
		if len(members) > 0 {
			resolved["members"] = members
		}
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": discordgo.ChatApplicationCommand,
		"options": nonNil(opts)}
	if len(resolved) > 0 {
		data["resolved"] = resolved
	}
	if c.guildID != "" {
		data["guild_id"] = c.guildID
	}
	s.sendInteractionLocked(i, c, data, nil)
	return i, nil
}

// Click sends a click on a button (or a select, with no values) of a message from a user.
func (s *Server) Click(userID, channelID, messageID, customID string) (*Interaction, error) {
	return s.click(Genuine, userID, channelID, messageID, customID)
}

func (s *Server) click(f Forgery, userID, channelID, messageID, customID string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.interactionChannelLocked(userID, channelID)
	if err != nil {
		return nil, err
	}
	if f != Genuine && !s.overHTTPLocked() {
		return nil, errors.New("discordtest: forged deliveries need an interactions endpoint (SetInteractionsEndpoint)")
	}
	m := s.findMessageLocked(channelID, messageID)
	if m == nil {
		return nil, fmt.Errorf("discordtest: no message %s in channel %s", messageID, channelID)
	}
	ct, found := m.hasCustomID(customID)
	if !found {
		return nil, fmt.Errorf("discordtest: message %s has no enabled component %q (has %q)", messageID, customID,
			m.clone().CustomIDs())
	}
	i := s.newInteractionLocked(discordgo.InteractionMessageComponent, userID, c)
	i.CustomID = customID
	i.forgery = f
	i.MessageID = messageID
	data := map[string]any{"custom_id": customID, "component_type": ct}
	if ct != discordgo.ButtonComponent {
		data["values"] = []string{}
	}
	s.sendInteractionLocked(i, c, data, s.wireLocked(m))
	return i, nil
}

// interactionChannelLocked checks who interacts where.
func (s *Server) interactionChannelLocked(userID, channelID string) (*channel, error) {
	if s.closed {
		return nil, errors.New("discordtest: server closed")
	}
	if _, found := s.users[userID]; !found || userID == s.cfg.botID {
		return nil, fmt.Errorf("discordtest: unknown user %q (AddUser first)", userID)
	}
	c, found := s.channels[channelID]
	if !found {
		return nil, fmt.Errorf("discordtest: unknown channel %q (AddChannel first)", channelID)
	}
	if c.typ == discordgo.ChannelTypeDM && c.recipient != userID {
		return nil, fmt.Errorf("discordtest: channel %s is the DM channel of another user", channelID)
	}
	if isThread(c.typ) && c.archived {
		return nil, ErrArchivedThread
	}
	live := s.overHTTPLocked() // Discord posts to the endpoint, gateway or not
	for _, sess := range s.gw.sessions {
		live = live || (!sess.invalid && sess.serves(c.guildID))
	}
	if !live {
		return nil, ErrNoBot
	}
	return c, nil
}

func (s *Server) newInteractionLocked(typ discordgo.InteractionType, userID string, c *channel) *Interaction {
	now := time.Now()
	i := &Interaction{
		ID: s.newIDLocked(), Token: "aW50ZXJhY3Rpb24" + randomHex(24), Type: typ, UserID: userID, ChannelID: c.id,
		GuildID: c.guildID, Created: now, Deadline: now.Add(s.deadline), s: s,
	}
	s.interactions = append(s.interactions, i)
	s.byID[i.ID] = i
	s.byToken[i.Token] = i
	return i
}

// allPermissions is the permission set the fake grants everyone, as a decimal string.
const allPermissions = "2251799813685247"

func (s *Server) memberJSONLocked(u *discordgo.User) map[string]any {
	m := map[string]any{
		"roles": []string{}, "joined_at": s.startedAt.UTC().Format(time.RFC3339Nano), "deaf": false, "mute": false,
		"flags": 0, "pending": false, "permissions": allPermissions, "nick": nil, "avatar": nil,
	}
	if u != nil {
		m["user"] = u
	}
	return m
}

// sendInteractionLocked dispatches INTERACTION_CREATE.
func (s *Server) sendInteractionLocked(i *Interaction, c *channel, data map[string]any, message any) {
	ch := map[string]any{"id": c.id, "type": c.typ, "name": c.name}
	payload := map[string]any{
		"id": i.ID, "application_id": s.cfg.appID, "type": i.Type, "data": data, "channel_id": c.id,
		"channel": ch, "token": i.Token, "version": 1, "locale": "en-US", "app_permissions": allPermissions,
		"entitlements": []any{},
	}
	if c.guildID != "" {
		ch["guild_id"] = c.guildID
		if c.parentID != "" {
			ch["parent_id"] = c.parentID
		}
		payload["guild_id"] = c.guildID
		payload["guild_locale"] = "en-US"
		payload["member"] = s.memberJSONLocked(s.users[i.UserID])
		payload["context"] = discordgo.InteractionContextGuild
		payload["authorizing_integration_owners"] = map[string]string{"0": c.guildID}
	} else {
		payload["user"] = s.users[i.UserID]
		payload["context"] = discordgo.InteractionContextBotDM
		payload["authorizing_integration_owners"] = map[string]string{"0": "0"}
	}
	if message != nil {
		payload["message"] = message
	}
	if s.overHTTPLocked() {
		s.postInteractionLocked(i, payload)
	} else {
		s.dispatchGuildLocked(c.guildID, "INTERACTION_CREATE", payload)
	}
	s.notifyLocked()
}

// callback answers POST /interactions/{id}/{token}/callback.
func (s *Server) callback(r *http.Request, id, token string) (reply, *apiError) {
	raw, files, aerr := readBody(r, s.cfg.maxFile)
	if aerr != nil {
		return reply{}, aerr
	}
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return reply{}, errBadJSON
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	i, found := s.byID[id]
	if !found || i.Token != token {
		return reply{}, errUnknownInteraction
	}
	if aerr := s.applyResponseLocked(i, body.Type, body.Data, files, now); aerr != nil {
		return reply{}, aerr
	}
	return noContent()
}

// applyResponseLocked records an initial response of i, received at now by the callback endpoint or as the
// HTTP response to the POST of an HTTP delivery, after checking it as Discord does; a refusal is recorded
// in i.rejected.
func (s *Server) applyResponseLocked(i *Interaction, typ discordgo.InteractionResponseType, raw json.RawMessage, files []File, now time.Time) *apiError {
	body := struct {
		Type discordgo.InteractionResponseType
		Data json.RawMessage
	}{typ, raw}
	reject := func(e *apiError) *apiError {
		i.rejected = append(i.rejected, e.code)
		s.notifyLocked()
		return e
	}
	if i.acked {
		return reject(errAlreadyAcked)
	}
	if now.After(i.Deadline) {
		return reject(errUnknownInteraction)
	}
	if !allowedResponse(i.Type, body.Type) {
		return reject(formError("type", "BASE_TYPE_CHOICES",
			fmt.Sprintf("Interaction response type %d is not valid for interaction type %d.", body.Type, i.Type)))
	}
	c := s.channels[i.ChannelID]
	resp := Response{Type: body.Type, Elapsed: now.Sub(i.Created)}
	switch body.Type {
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		var data struct {
			Choices json.RawMessage `json:"choices"`
		}
		if present(body.Data) {
			if err := json.Unmarshal(body.Data, &data); err != nil {
				return reject(errBadJSON)
			}
		}
		choices, e := decodeChoices(data.Choices, "data.choices")
		if e != nil {
			return reject(e)
		}
		resp.Choices = choices
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		d, e := decodeMessage(body.Data, "data.")
		if e != nil {
			return reject(e)
		}
		deferred := body.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource
		if !deferred && d.empty(files) {
			return reject(errEmptyMessage)
		}
		ephemeral := d.p.Flags&discordgo.MessageFlagsEphemeral != 0
		if deferred {
			d = &decoded{p: messagePayload{Flags: d.p.Flags | discordgo.MessageFlagsLoading}}
			files = nil
		}
		m := s.addMessageLocked(c, d, files, i.ID, ephemeral)
		m.Loading = deferred
		if i.Type == discordgo.InteractionApplicationCommand {
			m.msgType = discordgo.MessageTypeChatInputCommand
		}
		i.originalID = m.ID
		i.final = !deferred
		resp.Message = m
	case discordgo.InteractionResponseDeferredMessageUpdate:
		i.originalID = i.MessageID
	case discordgo.InteractionResponseUpdateMessage:
		d, e := decodeMessage(body.Data, "data.")
		if e != nil {
			return reject(e)
		}
		m := s.findMessageLocked(i.ChannelID, i.MessageID)
		if m == nil {
			return reject(errUnknownMessage)
		}
		s.editMessageLocked(m, d, files)
		i.originalID = m.ID
		i.final = true
		resp.Message = m
	}
	i.acked = true
	i.ackedAt = time.Now()
	if i.final {
		i.finalAt = i.ackedAt
	}
	i.resp = resp
	s.notifyLocked()
	return nil
}

// allowedResponse reports whether a response type fits an interaction type.
func allowedResponse(it discordgo.InteractionType, rt discordgo.InteractionResponseType) bool {
	switch it {
	case discordgo.InteractionApplicationCommand:
		return rt == discordgo.InteractionResponseChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredChannelMessageWithSource
	case discordgo.InteractionMessageComponent:
		return rt == discordgo.InteractionResponseChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredMessageUpdate ||
			rt == discordgo.InteractionResponseUpdateMessage
	case discordgo.InteractionApplicationCommandAutocomplete:
		return rt == discordgo.InteractionApplicationCommandAutocompleteResult
	}
	return false
}

// webhookInteractionLocked finds the acknowledged, unexpired interaction of a webhook token.
func (s *Server) webhookInteractionLocked(appID, token string) (*Interaction, *apiError) {
	i, found := s.byToken[token]
	if !found || appID != s.cfg.appID {
		return nil, errUnknownWebhook
	}
	if time.Since(i.Created) > s.cfg.tokenLifetime {
		return nil, errInvalidToken
	}
	if !i.acked {
		return nil, errUnknownWebhook
	}
	return i, nil
}

// followup answers POST /webhooks/{app}/{token}: a follow-up message of an interaction.
func (s *Server) followup(r *http.Request, appID, token string) (reply, *apiError) {
	d, files, aerr := readMessage(r, s.cfg.maxFile, true)
	if aerr != nil {
		return reply{}, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, aerr := s.webhookInteractionLocked(appID, token)
	if aerr != nil {
		return reply{}, aerr
	}
	if i.resp.Type == discordgo.InteractionApplicationCommandAutocompleteResult {
		return reply{}, errUnknownWebhook
	}
	c := s.channels[i.ChannelID]
	m := s.addMessageLocked(c, d, files, i.ID, d.p.Flags&discordgo.MessageFlagsEphemeral != 0)
	i.followups = append(i.followups, m.ID)
	if i.finalAt.IsZero() {
		i.finalAt = time.Now()
	}
	if r.URL.Query().Get("wait") != "true" {
		return noContent()
	}
	return ok(s.wireLocked(m))
}

// webhookMessage answers GET, PATCH and DELETE of /webhooks/{app}/{token}/messages/{@original|id}.
func (s *Server) webhookMessage(r *http.Request, appID, token, messageID string) (reply, *apiError) {
	var d *decoded
	var files []File
	if r.Method == http.MethodPatch {
		raw, f, aerr := readBody(r, s.cfg.maxFile)
		if aerr != nil {
			return reply{}, aerr
		}
		if d, aerr = decodeMessage(raw, ""); aerr != nil {
			return reply{}, aerr
		}
		files = f
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, aerr := s.webhookInteractionLocked(appID, token)
	if aerr != nil {
		return reply{}, aerr
	}
	original := messageID == "@original"
	if original {
		messageID = i.originalID
	} else if !slices.Contains(i.followups, messageID) {
		return reply{}, errUnknownMessage
	}
	m := s.findMessageLocked(i.ChannelID, messageID)
	if m == nil {
		return reply{}, errUnknownMessage
	}
	switch r.Method {
	case http.MethodGet:
		return ok(s.wireLocked(m))
	case http.MethodPatch:
		s.editMessageLocked(m, d, files)
		if original {
			if !i.final {
				i.finalAt = time.Now()
			}
			i.final = true
		}
		return ok(s.wireLocked(m))
	case http.MethodDelete:
		m.deleted = true
		s.notifyLocked()
		return noContent()
	}
	return reply{}, errUnknown(http.StatusMethodNotAllowed, 0, "405: Method Not Allowed")
}
