package command

import (
	"context"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// OptionKind is the type of a command option's value.
type OptionKind uint8

// Option kinds. Whatever the kind, Request.Options holds the value as a
// string: the decimal number for OptionInteger, the user ID for OptionUser.
const (
	OptionString  OptionKind = 1
	OptionInteger OptionKind = 2
	OptionUser    OptionKind = 3
	// OptionAttachment is a file the user attaches: Request.Options
	// holds its text (the adapter reads it: Discord downloads the
	// attachment, the console reads the path typed), at most
	// maxAttachment bytes of UTF-8, line breaks allowed.
	OptionAttachment OptionKind = 4
)

// String returns "string", "integer", "user" or "attachment".
func (k OptionKind) String() string {
	switch k {
	case OptionString:
		return "string"
	case OptionInteger:
		return "integer"
	case OptionUser:
		return "user"
	case OptionAttachment:
		return "attachment"
	}
	return "unknown"
}

// Choice is one value an option may take (a fixed choice of a Spec) or
// one suggestion of autocomplete: Name is shown to people, Value is what
// the adapter sends back in Request.Options.
type Choice struct {
	Name, Value string
}

// OptionSpec describes one option of a command. Names are lowercase and
// the same in every adapter (console "name:value", Discord slash-command
// options). When Choices is not empty the value must be one of their
// Values; Autocomplete options are answered by Handler.Complete (an
// option never has both).
type OptionSpec struct {
	Name, Description string
	Kind              OptionKind
	Required          bool
	Autocomplete      bool
	Choices           []Choice
	// MaxLength is the most characters a value holds; 0 for the default,
	// DefaultMaxLength. Execute refuses longer values with a message that
	// states the limit, and adapters whose clients can enforce it tell
	// them (Discord's max_length), so a player cannot type more.
	MaxLength int
}

// DefaultMaxLength is the most characters an option value holds when its
// spec sets no MaxLength.
const DefaultMaxLength = 200

// MaxChars returns the most characters a value of o holds: MaxLength, or
// DefaultMaxLength when it is 0.
func (o OptionSpec) MaxChars() int {
	if o.MaxLength > 0 {
		return o.MaxLength
	}
	return DefaultMaxLength
}

// Spec describes a command: its name (lowercase, without the slash), a
// one-line description (at most 100 characters, Discord's limit) and its
// options, required ones first. ServerOnly commands make no sense in a
// direct message with the bot: adapters register them for servers only,
// and Execute refuses them in a DM (Request.DM) whatever the adapter did.
type Spec struct {
	Name, Description string
	Options           []OptionSpec
	ServerOnly        bool
}

// Request is one command invocation (or, for Handler.Press, one button
// click) as an adapter received it. UserID is who typed it; GuildID and
// ChannelID where ("" for the console's guild); DM is set for a direct
// message with the bot (GuildID is then ""). These come from what the
// transport authenticated, never from anything typed. Name is the command
// name without the slash. Options maps option names to their raw values
// (OptionUser options hold a user ID); an option not given is absent or
// "". Users says what the transport knows of the users named by
// OptionUser options (absent: nothing known, as in the console).
type Request struct {
	UserID, GuildID, ChannelID string
	DM                         bool
	Name                       string
	Options                    map[string]string
	Users                      map[string]UserFacts
	// Manager is set when the transport says the user may manage the
	// server (Discord: the Manage Server permission): such a user may
	// act for a tournament's organiser.
	Manager bool
}

// UserFacts is what a transport knows of a user named in a command.
type UserFacts struct {
	// Bot is set for bot accounts, this bot included.
	Bot bool
	// NotMember is set when the user is not a member of the server the
	// command was typed in.
	NotMember bool
	// Name is the user's short display name as the transport knows it,
	// "" when it does not: images that name players draw it (see
	// Options.Names).
	Name string
}

// where is the place of req as the service sees it.
func (req Request) where() bot.Where {
	return bot.Where{GuildID: req.GuildID, ChannelID: req.ChannelID, DM: req.DM}
}

// File is an attachment of a reply: a board PNG, a game GIF, a PGN. Data
// may be shared with other replies showing the same image: read-only.
type File struct {
	Name string // e.g. "game-12.png"; the extension says the type
	Data []byte
	// Key, when not empty, names what the file shows: two files with
	// the same Key hold the same bytes (a board showing the same
	// positions, marks, status and result, from one side, at one size).
	// Private images (the end of a conditional line) have no Key. An adapter showing everything in one
	// place (the console) writes such a file once.
	Key string
	// Caption, when not empty, is a line for the reader about the file that
	// the message's text carries (a GIF that starts late in a long game,
	// or one left out as too large: Data is then empty). Adapters do not
	// send it.
	Caption string
}

// ButtonStyle is how a button looks.
type ButtonStyle uint8

// Button styles (Discord's primary, secondary, danger and success, and
// link: a button that opens its URL rather than calling Handler.Press).
const (
	ButtonPrimary   ButtonStyle = 1
	ButtonSecondary ButtonStyle = 2
	ButtonSuccess   ButtonStyle = 3
	ButtonDanger    ButtonStyle = 4
	ButtonLink      ButtonStyle = 5
)

// Button is a clickable button under a reply. CustomID (at most 100
// characters) is what the adapter passes to Handler.Press when it is
// clicked; it carries the action, the game or challenge ID and the
// version shown, so a stale click is refused. A ButtonLink button has a
// URL instead of a CustomID: the page it opens (a game's page).
type Button struct {
	Label    string
	CustomID string
	Style    ButtonStyle
	URL      string
}

// Reply is what a command, a button press or a notification shows.
type Reply struct {
	// Text is the message (at most 2000 characters, Discord's limit).
	Text string
	// More are further messages shown after Text, in order, each at most
	// 2000 characters: the rest of a list too long for one message. They
	// carry text only (no files, buttons or pings) and are shown to the
	// same people as Text (only to the requester when Ephemeral).
	More []string
	// Ephemeral replies are shown only to the user who asked: errors and
	// private information. An adapter without that notion prints them to
	// that user alone.
	Ephemeral bool
	// Files are attachments: board PNGs, game GIFs, PGN exports.
	Files []File
	// PublicFiles, when not empty, replace Files where the reply is posted
	// for others to read (a game's thread or channel) rather than sent to
	// the one user it is for: a notification to Black shows Black's side
	// in a DM, and White's at the bottom, as the thread keeps it, there.
	PublicFiles []File
	// Buttons are shown under the message (at most 5, a link button
	// besides).
	Buttons []Button
	// GameID is the game the reply is about, 0 if none: Discord posts a
	// game's board replies into the game's thread.
	GameID uint64
	// Game is the record of game GameID as the reply was made from it
	// (the one a move stored, say), its thread (ThreadID) included; nil
	// when the reply did not need it. Adapters use it rather than read the
	// game again: where to post, who plays. Read-only.
	Game *bot.Game
	// Replayed is Game replayed by the rules engine, the position the
	// reply shows; nil when it was not replayed. An adapter showing the
	// position otherwise (the console's text board) uses it rather than
	// replay the game again. Read-only.
	Replayed *rules.Game
	// Later, when not nil, is work the reply announced (an analysis)
	// that goes on after it is shown: the adapter runs it once the reply
	// is shown, in a goroutine of its own (the console: before reading the
	// next command), with a context that ends when the adapter stops.
	// Later calls edit to replace the shown reply's text (progress) and
	// post to show further replies where the reply was, then returns.
	Later func(ctx context.Context, edit func(text string), post func(Reply))
	// Mention lists the user IDs the message must ping (the player to
	// act, the challenged user); Text already names them as <@ID>.
	Mention []string
}
