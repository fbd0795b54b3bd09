// Package discordtest is a fake Discord, REST and gateway in one test server, that a real discordgo
// Session connects to. It enforces the Discord rules the bot must live with (the 3 s interaction deadline,
// double acknowledgements, size limits, blocked DMs, rate limits, dropped gateways) and records everything the
// bot sends so that tests can assert on it, image bytes included.
//
// # Connecting discordgo
//
//	srv := discordtest.New(discordtest.WithDeadline(500 * time.Millisecond))
//	defer srv.Close()
//	srv.AddGuild("100", "chess club")
//	srv.AddChannel("100", "200", "games")
//	srv.AddUser("1", "alice")
//	srv.AddUser("2", "bob")
//
//	s, _ := discordgo.New("Bot test-token")
//	s.Client = srv.HTTPClient() // rewrites https://discord.com/... (and the CDN) to srv.URL()
//	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) { ... })
//	_ = s.Open() // GET /api/v9/gateway hands out srv's ws:// address; Hello, Identify, READY
//
//	ix, _ := srv.Slash("1", "200", "challenge", discordtest.User("opponent", "2"), discordtest.String("variant", "chess"))
//	resp, err := ix.Response(ctx)   // the initial callback (or ErrInteractionFailed after the deadline)
//	msg, err := ix.Final(ctx)       // the visible message (after a deferral: the edit of @original)
//	posts := srv.Messages("200")    // everything posted in the channel, in order, files as bytes
//
// Production code gets the same effect from its own transport built from the configured api_url; the
// RewriteTransport here is for tests. Never reassign discordgo's Endpoint* globals.
//
// # Test-facing API
//
// Server and options:
//
//	func New(opts ...Option) *Server
//	func WithDeadline(d time.Duration) Option          // first-response deadline, default 3 s
//	func WithTokenLifetime(d time.Duration) Option     // interaction token lifetime for edits/follow-ups, default 15 min
//	func WithHeartbeatInterval(d time.Duration) Option // op 10 heartbeat_interval, default 41.25 s
//	func WithBot(userID, username string) Option       // the bot user, default "900000000000000001", "fairypost"
//	func WithApplicationID(id string) Option           // default: the bot user ID (as on Discord)
//	func WithToken(token string) Option                // require exactly this token ("Bot " prefix excluded); default: any
//	func WithMaxFileSize(n int) Option                 // largest attachment accepted, default 10 MiB (413/40005 above)
//	func (s *Server) Close()
//	func (s *Server) URL() string                      // http://127.0.0.1:PORT
//	func (s *Server) GatewayURL() string               // ws://127.0.0.1:PORT
//	func (s *Server) HTTPClient() *http.Client         // rewrites every request's scheme+host to URL()
//	type RewriteTransport struct{ Base *url.URL; Next http.RoundTripper }
//	func (s *Server) BotID() string
//	func (s *Server) ApplicationID() string
//	func (s *Server) SetDeadline(d time.Duration)      // change the deadline of later interactions
//	func (s *Server) SetTokenLifetime(d time.Duration)
//	func (s *Server) NewID() string                    // a fresh snowflake
//
// The model (IDs are any strings; Discord's are snowflakes):
//
//	func (s *Server) AddGuild(guildID, name string)            // dispatches GUILD_CREATE to connected sessions
//	func (s *Server) AddChannel(guildID, channelID, name string) // a text channel; dispatches CHANNEL_CREATE
//	func (s *Server) ForbidThreads(channelID string)           // thread creation there: 403, code 50013
//	func (s *Server) HoldThreads(n int)                        // the next n thread creations wait for one another (a race)
//	func (s *Server) AddUser(userID, username string)          // users are members of every guild
//	func (s *Server) BlockDMs(userID string)                   // posting to the user's DM channel: 403, code 50007
//	func (s *Server) UnblockDMs(userID string)
//	func (s *Server) DMChannel(userID string) string           // the DM channel ID (created on first use)
//	func (s *Server) SetArchived(threadID string, archived bool) // e.g. Discord's auto-archive; THREAD_UPDATE
//
// Faults:
//
//	// Faults apply to every REST route except GET /gateway and /gateway/bot.
//	func (s *Server) FailNext(n int)                            // next n REST requests: 500, code 0
//	func (s *Server) FailNextWith(n, status, code int, message string)
//	func (s *Server) RateLimit(pathContains string, n int, retryAfter time.Duration)
//	    // next n REST requests whose path contains pathContains ("" = any, sent as a global limit) get 429
//	    // with {"message","retry_after","global"} and Retry-After, X-RateLimit-* headers; discordgo retries.
//	func (s *Server) DropConnections()                          // closes every gateway socket without a close frame
//
// Gateway counters and dispatch:
//
//	func (s *Server) Identifies() int
//	func (s *Server) Resumes() int                              // successful resumes (op 6 -> RESUMED)
//	func (s *Server) Connections() int                          // open gateway sockets that identified or resumed
//	func (s *Server) Dispatch(eventType string, data any)       // any dispatch to every session (replayed on resume)
//	func (s *Server) Shards() []Shard                           // [shard_id, num_shards] of each open session
//	func ShardOf(guildID string, shardCount int) int            // (guild ID >> 22) % shardCount; DMs: 0
//
// Sharding: IDENTIFY may carry "shard": [shard_id, num_shards]; an invalid one (num_shards < 1, shard_id
// outside 0..num_shards-1) is closed with 4010 "Invalid shard." as Discord does. A session receives
// READY's guild list, GUILD_CREATE, channel and thread events and INTERACTION_CREATE only for the guilds
// of its shard (ShardOf), and DM interactions only as shard 0; a session without a shard is [0, 1] and
// receives everything.
//
// Interactions. The user must exist (AddUser); the channel must exist and not be an archived thread
// (ErrArchivedThread); a bot session of the channel's shard must have identified (ErrNoBot). Slash and Autocomplete need the command
// registered (globally or for the channel's guild) and check the args against its options as Discord's client
// does: known names, matching types, listed choices, required options present (flat options only).
//
//	func (s *Server) Slash(userID, channelID, command string, args ...Arg) (*Interaction, error)
//	func (s *Server) Autocomplete(userID, channelID, command string, args ...Arg) (*Interaction, error)
//	    // exactly one arg made with Focused
//	func (s *Server) Click(userID, channelID, messageID, customID string) (*Interaction, error)
//	    // the message must carry a button or select with that custom_id
//	func String(name, value string) Arg
//	func Int(name string, value int64) Arg
//	func User(name, userID string) Arg                         // resolved.users/members are filled in
//	func Focused(name, typed string) Arg                       // the option being typed (autocomplete)
//	func (s *Server) Interactions() []*Interaction             // in creation order
//	var ErrInteractionFailed, ErrArchivedThread, ErrNoBot, ErrNoMessage, ErrTooLong error // ErrTooLong: a value past
//	                                                            // its option's max_length, which the client never sends
//
//	type Interaction struct{ ID, Token string; Type discordgo.InteractionType; UserID, ChannelID, GuildID,
//	                         Command, CustomID, MessageID string; Created, Deadline time.Time }
//	func (i *Interaction) Response(ctx) (Response, error)      // waits for the initial callback; ErrInteractionFailed
//	                                                            // once the deadline passed without one
//	func (i *Interaction) Final(ctx) (Message, error)          // 4: the message; 5: waits for the PATCH of @original;
//	                                                            // 6: waits for the PATCH of the clicked message; 7: the update
//	func (i *Interaction) Choices(ctx) ([]*discordgo.ApplicationCommandOptionChoice, error) // autocomplete (type 8)
//	func (i *Interaction) Followups() []Message                // POST /webhooks/{app}/{token}
//	func (i *Interaction) Failed() bool                        // the user saw "This interaction failed"
//	func (i *Interaction) Acks() int                           // accepted initial responses (0 or 1)
//	func (i *Interaction) Rejected() []int                     // Discord error codes of refused callbacks (10062, 40060, 50035...)
//	func (i *Interaction) Deferred() bool                      // the initial response accepted was 5 or 6
//	func (i *Interaction) Hanging() bool                       // deferred, then neither edited nor followed up ("thinking…")
//	func (i *Interaction) Answered() (acked, final time.Time)  // when acknowledged; when the user saw the result
//	type Response struct{ Type discordgo.InteractionResponseType; Message *Message;
//	                      Choices []*discordgo.ApplicationCommandOptionChoice; Elapsed time.Duration }
//
// Interactions over HTTP (Discord's Interactions Endpoint URL). The fake holds an Ed25519 key pair; once an
// endpoint is set, Slash, Autocomplete and Click POST the interaction there, signed (X-Signature-Ed25519 over
// X-Signature-Timestamp followed by the body), instead of dispatching it on the gateway (no gateway session
// is needed then). The HTTP answer is the initial response, checked like one sent to the callback endpoint;
// webhook calls on the interaction wait until it is known. The rest of the API works the same, so one test
// helper can play a scenario over the gateway or over HTTP.
//
//	func (s *Server) PublicKey() ed25519.PublicKey             // for the bot's configuration
//	func (s *Server) PublicKeyHex() string                     // as the developer portal shows it
//	func (s *Server) SetInteractionsEndpoint(urls ...string)   // none = back to the gateway; several: taken
//	                                                            // in turn, a refused connection goes to the next
//	func (i *Interaction) Delivery(ctx) (Delivery, error)      // waits for the POST's answer
//	type Delivery struct{ Endpoint string; Status int; ContentType string; Body []byte; Err error }
//	func (s *Server) SlashForged(f Forgery, userID, channelID, command string, args ...Arg) (*Interaction, error)
//	func (s *Server) ClickForged(f Forgery, userID, channelID, messageID, customID string) (*Interaction, error)
//	type Forgery int // Genuine, BadSignature, TamperedBody, NoSignature, NoTimestamp, StaleTimestamp, FutureTimestamp
//	const ForgedSkew = 10 * time.Minute                       // how far stale and future timestamps are off
//	func (s *Server) Replay(ctx, i *Interaction) (Delivery, error) // the same bytes and headers again
//	func (s *Server) Ping(ctx) (Delivery, error)               // a signed PING (type 1)
//	func (s *Server) Post(ctx, method string, body []byte, f Forgery) (Delivery, error) // anything else
//	func (s *Server) Sign(timestamp string, body []byte) string
//
// Recording (copies; safe for concurrent use):
//
//	type Message struct {
//	    ID, ChannelID, GuildID, AuthorID, Content string
//	    Embeds []*discordgo.MessageEmbed; Components []discordgo.MessageComponent; Files []File
//	    Flags discordgo.MessageFlags; Ephemeral, Loading bool   // Loading: a deferred "thinking" placeholder
//	    Mentions []string                                      // user IDs the message pings (<@id> allowed by allowed_mentions)
//	    InteractionID string                                   // set on interaction responses and follow-ups
//	    Nonce string                                           // the nonce it was created with ("" none)
//	    Edits int; Created time.Time
//	}
//	func (m Message) Buttons() []Button                        // Button{Row int; Label, CustomID, URL string; Style discordgo.ButtonStyle; Disabled bool}
//	func (m Message) CustomIDs() []string
//	type File struct{ ID, Name, ContentType string; Data []byte }
//	func (s *Server) Messages(channelID string) []Message      // in order; includes interaction responses (see Ephemeral)
//	func (s *Server) Message(channelID, messageID string) (Message, bool)
//	func (s *Server) DMs(userID string) []Message              // messages in the user's DM channel
//	type Thread struct{ ID, ParentID, GuildID, Name string; Type discordgo.ChannelType; Archived bool; Unarchives int }
//	func (s *Server) Threads(parentID string) []Thread         // in creation order
//	func (s *Server) DeletedThreads(parentID string) []Thread  // deleted by the bot (DELETE /channels/{thread}), in order
//	func (s *Server) Thread(threadID string) (Thread, bool)
//	func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand // "" = global
//	func (s *Server) CommandWrites() int                       // bulk-overwrite PUTs accepted
//	func (s *Server) NonceDedups() int                         // message creations answered by enforce_nonce
//	func (s *Server) Requests() []Request                      // Request{Method, Path string; Status, Code int}
//	func (s *Server) WaitFor(ctx context.Context, cond func() bool) error // re-checks on every change
//
// # REST routes served (paths under /api/v9 and /api/v10)
//
// GET /gateway, /gateway/bot; GET /users/@me, /users/{id}; GET /guilds/{id}, /guilds/{id}/members/{user};
// POST /users/@me/channels; GET /channels/{id};
// POST /channels/{id}/messages (JSON or multipart payload_json + files[n]); GET/PATCH/DELETE
// /channels/{id}/messages/{mid}; POST /channels/{id}/threads and /channels/{id}/messages/{mid}/threads (the
// thread takes the message's ID, as on Discord); PATCH /channels/{id} (archived flag of a thread);
// POST /interactions/{id}/{token}/callback; POST /webhooks/{app}/{token}; GET/PATCH/DELETE
// /webhooks/{app}/{token}/messages/{@original|mid}; GET/PUT /applications/{app}/commands and
// /applications/{app}/guilds/{guild}/commands; GET /oauth2/applications/@me; GET /attachments/... (the CDN
// URL of an uploaded file).
//
// # Rules enforced (DESIGN.md §4)
//
//   - First interaction response after the deadline: 404, code 10062 "Unknown interaction"; the interaction is
//     Failed. A second initial response: 400, code 40060 "Interaction has already been acknowledged".
//   - Edits and follow-ups need an acknowledged interaction (else 404, 10015 "Unknown Webhook") and a token
//     younger than the token lifetime (else 401, 50027 "Invalid Webhook Token").
//   - 400, code 50035 "Invalid Form Body": content over 2000 characters, more than 25 autocomplete choices,
//     more than 5 action rows or 5 buttons in a row, custom_id empty or over 100 characters, more than 25 select
//     options, a response type that does not fit the interaction, invalid command registrations (max_length
//     on a non-string option or outside 1-6000 included).
//   - Slash refuses (ErrTooLong) a string value longer than its option's max_length: the client stops there.
//     An empty message: 400, code 50006. A file over 10 MiB (WithMaxFileSize): 413, code 40005 "Request entity
//     too large", on every route that takes files (messages, interaction responses, edits, follow-ups).
//   - Nonces: POST /channels/{id}/messages with "nonce" (a string or an integer, at most 25 characters, else
//     50035) and "enforce_nonce": true, repeating the nonce of a message the bot created in that channel in
//     the last 5 minutes, creates nothing and returns that message (counted by NonceDedups).
//   - Threads: creating one where forbidden: 403, 50013 "Missing Permissions"; in a DM or a thread: 400, 50024.
//     DELETE /channels/{id} deletes a thread (THREAD_DELETE; posting there then: 404, 10003); any other channel:
//     403, 50013.
//     A message the bot posts into an archived thread unarchives it (THREAD_UPDATE). Users cannot start an
//     interaction in an archived thread (Slash/Click return ErrArchivedThread).
//   - DMs: POST /users/@me/channels with an unknown user: 400, 50033; posting into a blocked user's DM
//     channel: 403, 50007 "Cannot send messages to this user".
//   - Gateway: Hello (op 10) first; Identify (op 2) -> READY then GUILD_CREATE per guild; op 1 -> op 11; Resume
//     (op 6) with a known session replays missed dispatches then RESUMED; an unknown session or one the client
//     closed normally (1000/1001) gets op 9 (d=false). MESSAGE_CREATE is not dispatched (no message content).
//
// Nothing here is package-level mutable state: every Server is independent and tests may run in parallel.
package discordtest
