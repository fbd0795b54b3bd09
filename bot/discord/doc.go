// Package discord puts fairypost on Discord with discordgo: a thin adapter
// between Discord's interactions and the transport-agnostic commands of
// package bot/command. It holds no command logic and no game state.
//
// # Connection
//
// New builds a discordgo session asking for the Guilds intent only (slash
// commands and buttons need no privileged intent). With Options.APIURL
// every REST request meant for discord.com goes to that base URL instead,
// through the session's own http.Client (discordgo's Endpoint variables
// are never touched); the gateway address then comes from that URL's
// GET /api/v9/gateway. Open connects, waits for READY (which gives the
// application ID when the options do not) and bulk-overwrites the
// commands from Commands.Specs, globally or in Options.GuildID: running it
// again changes nothing. discordgo reconnects and resumes by itself, and
// waits out 429s.
//
// # Sharding
//
// With Options.ShardCount above 1 the bot connects as shard
// Options.ShardID (sent in IDENTIFY), one process per shard: Discord then
// sends it only the events and interactions of the guilds whose
// (guild ID >> 22) % ShardCount is its shard, and DMs only to shard 0, so
// every interaction reaches exactly one process. Only shard 0 registers
// the commands. Everything else (threads, DMs, notifications) goes
// through the REST API, which serves any guild from any shard.
//
// # Interactions
//
// discordgo runs every event in its own goroutine, so interactions are
// handled concurrently (the service's compare-and-swap keeps games
// consistent). A slash command becomes a command.Request (numbers in
// decimal, users as IDs) and runs on one of Options.Workers workers:
// answered directly when it finishes within Options.DeferAfter of the
// interaction's creation (the timestamp of its ID, so time lost reaching
// the bot counts), else acknowledged as deferred then and edited when
// done, so that Discord's 3 s deadline is met and nothing is
// acknowledged twice. The timer runs apart from the work, and an
// interaction that finds every worker busy is deferred at once and waits
// for one: acknowledgements never wait behind work. Beyond
// Options.QueueLimit waiting, an interaction is answered at once, only to
// its user, that the bot is busy and to try again in a moment. Buttons go
// to Commands.Press the same way; autocomplete goes to Commands.Complete and
// is answered at once (at most 25 choices). A command typed in a game's
// thread is about that game and belongs to the game's channel.
//
// # Interactions over HTTP
//
// With Options.PublicKey, InteractionsHandler is Discord's interactions
// endpoint: each request's Ed25519 signature (over the timestamp and the
// body) is checked with the application's public key, its timestamp
// against the clock (Options.MaxClockSkew), its signature against those
// already seen (a bounded replay cache), and a refused request changes
// nothing. A PING gets a PONG; every other interaction goes to the same
// handling as the gateway's, whose initial response becomes the HTTP
// response (Discord takes no files there: an answer with files is a
// deferral then an edit). Edits and follow-ups go over REST as usual.
// OpenHTTP replaces Open for a bot without a gateway connection.
//
// # Threads
//
// A game gets a thread, "Game 12: alice vs bob (Chess)", in its channel
// when it starts; its ID is stored with gameplay.Service.SetThread, so the
// mapping survives restarts (a thread is recognised again from its name,
// checked against the stored ID). Where threads are refused, the channel
// is stored instead. A reply that pings someone about a game (a new
// board, a move) is also posted into the thread when it was typed
// elsewhere; posting into an archived thread reopens it.
//
// # Notifications
//
// Send is the send function of a notify.Deliverer: it shows an outbox
// notification by DM, in the game's thread or not at all, following the
// user's preferences, and records users whose DMs are closed (Discord
// code 50007) with prefs.Service.SetDMBlocked. Errors Discord will repeat
// (4xx) are logged and dropped rather than retried, so a missing
// permission never turns into a loop of invalid requests; but a message
// refused because an attachment is too large (413, code 40005) is sent
// again without its largest attachment, with a line saying so, until it
// goes through: a notification is never lost to its GIF. Every answer,
// edit, follow-up and post does the same. The messages of a notification
// carry a nonce made from its ID with enforce_nonce, so the same
// notification sent twice within a few minutes (after a crash, or by the
// process taking the deliveries over) makes one message.
//
// # Shutdown
//
// Close stops accepting interactions (answering "restarting"), waits up
// to Options.ShutdownTimeout for those in progress, and closes the
// gateway. The caller closes the store afterwards.
package discord
