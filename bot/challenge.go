package bot

import (
	"context"
	"time"
)

// ChallengeStatus is where a challenge stands. The numbers are persisted:
// never renumber them.
type ChallengeStatus uint8

// Challenge statuses. Only a pending challenge can change.
const (
	ChallengePending   ChallengeStatus = 10
	ChallengeAccepted  ChallengeStatus = 20 // a game with the challenge's ID exists
	ChallengeDeclined  ChallengeStatus = 30
	ChallengeCancelled ChallengeStatus = 40
	ChallengeExpired   ChallengeStatus = 50
)

// String returns a lowercase name for logs and listings.
func (s ChallengeStatus) String() string {
	switch s {
	case ChallengePending:
		return "pending"
	case ChallengeAccepted:
		return "accepted"
	case ChallengeDeclined:
		return "declined"
	case ChallengeCancelled:
		return "cancelled"
	case ChallengeExpired:
		return "expired"
	}
	return "unknown"
}

// ColorChoice is the colour the challenger asks to play. The numbers are
// persisted: never renumber them.
type ColorChoice uint8

// Colour choices.
const (
	ColorRandom ColorChoice = 1
	ColorWhite  ColorChoice = 2
	ColorBlack  ColorChoice = 3
)

// String returns "random", "white" or "black" (the slash-command values).
func (c ColorChoice) String() string {
	switch c {
	case ColorRandom:
		return "random"
	case ColorWhite:
		return "white"
	case ColorBlack:
		return "black"
	}
	return "unknown"
}

// ParseColorChoice reads "random" (or ""), "white" or "black".
func ParseColorChoice(s string) (ColorChoice, error) {
	switch s {
	case "", "random":
		return ColorRandom, nil
	case "white":
		return ColorWhite, nil
	case "black":
		return ColorBlack, nil
	}
	return 0, Errorf(EINVALID, "Colour %q: choose white, black or random.", s)
}

// ArmyChooser says which player of a game with a pre-game choice
// (rules.Variant.PreGame: Crazyhouse Annihilation, docs/variants/annihilation.md#z6) picks the
// army they play; the other then picks who moves first. The numbers are
// persisted: never renumber them. The zero value, which records written
// before the choice was configurable hold, means ChooserChallenged, the
// default of Z6.
type ArmyChooser uint8

// Army choosers.
const (
	ChooserChallenged ArmyChooser = 1 // the challenged player picks the army (Z6's default)
	ChooserChallenger ArmyChooser = 2 // the challenger picks the army
)

// String returns "challenged" or "challenger" (the slash-command values);
// the zero value is "challenged".
func (a ArmyChooser) String() string {
	switch a {
	case 0, ChooserChallenged:
		return "challenged"
	case ChooserChallenger:
		return "challenger"
	}
	return "unknown"
}

// ParseArmyChooser reads "challenged" or "challenger"; "" is the zero
// value (not given).
func ParseArmyChooser(s string) (ArmyChooser, error) {
	switch s {
	case "":
		return 0, nil
	case "challenged":
		return ChooserChallenged, nil
	case "challenger":
		return ChooserChallenger, nil
	}
	return 0, Errorf(EINVALID, "chooser %q: choose challenged (the challenged player picks the army, the default) or challenger (you pick it).", s)
}

// allowedDays lists the allowed days per move; 0 is unlimited.
var AllowedDays = []int{0, 1, 2, 3, 5, 7, 14}

// ValidDaysPerMove reports whether d is one of the allowed days per move:
// 1, 2, 3, 5, 7, 14, or 0 for unlimited.
func ValidDaysPerMove(d int) bool {
	for _, a := range AllowedDays {
		if a == d {
			return true
		}
	}
	return false
}

// Challenge is an invitation to a game: the record the stores keep.
type Challenge struct {
	ID      uint64 // assigned by the store; the game started from it takes the same ID
	Version uint64 // incremented by every write; 1 when created

	Challenger string // user ID
	Challenged string // user ID; "" for a challenge open to anyone in the channel

	GuildID, ChannelID string

	Variant     string      // rules registry key
	Options     string      // canonical options, "" for the defaults
	DaysPerMove int         // see ValidDaysPerMove
	BankDays    int         // each player's time bank in days (ValidBankDays), 0 for none
	Color       ColorChoice // the challenger's colour; always ColorRandom for a variant with a pre-game choice
	// Chooser says who picks the army in a variant with a pre-game
	// choice (see ArmyChooser); 0 for other variants and when not given.
	Chooser ArmyChooser
	// Rated: the game will be rated (Game.Rated).
	Rated bool
	// Level is the computer player's level (1..MaxComputerLevel) in a
	// challenge to it (it accepts at once), 0 otherwise.
	Level int

	Status  ChallengeStatus
	Expires time.Time // a pending challenge can no longer be accepted from then on

	Created, Updated time.Time
}

// Open reports whether anyone (but the challenger) may accept c.
func (c *Challenge) Open() bool { return c.Challenged == "" }

// Where says where a user acts from: a server's channel (GuildID set), a
// direct message with the bot (DM true; GuildID is then ""), or the
// console (GuildID "" and DM false: the console is one local server).
// Adapters fill it from what the transport authenticated, never from
// anything a user typed.
type Where struct {
	GuildID, ChannelID string
	DM                 bool
}

// acceptableFrom refuses to let a challenge be accepted from the wrong
// place: an open challenge only in the channel where it was made (its
// buttons are posted there, and anyone who can see it may take it); a
// challenge to one user in the server where it was made or, by that
// user, from a DM with the bot (where the bot sent them its buttons).
// The game is always played in the challenge's channel.
func (c *Challenge) AcceptableFrom(at Where) error {
	if c.Open() {
		if at.DM || at.GuildID != c.GuildID || at.ChannelID != c.ChannelID {
			return Errorf(EFORBIDDEN, "Open challenge %d can be accepted only in the channel where it was made.", c.ID)
		}
		return nil
	}
	if !at.DM && at.GuildID != c.GuildID {
		return Errorf(EFORBIDDEN, "Challenge %d was made in another server: accept it there, or with the buttons of the message the bot sent you.", c.ID)
	}
	return nil
}

// Clone returns a copy of c.
func (c *Challenge) Clone() *Challenge {
	d := *c
	return &d
}

// ChallengeChange is what a ChallengeStore.UpdateChallenge function asks
// for besides the edited challenge.
type ChallengeChange struct {
	// Game, when not nil, is created in the same transaction, with the
	// challenge's ID and Version 1. It must not exist yet.
	Game *Game
	// Notifications are appended to the outbox.
	Notifications []Notification
}

// ChallengeStore keeps challenges. Implementations are safe for
// concurrent use.
type ChallengeStore interface {
	// CreateChallenge assigns c a new ID (never used by a challenge or
	// game before), sets Version to 1, stores it and appends notifications to the
	// outbox, atomically; notifications whose ChallengeID is 0 are given c's new
	// ID. c is updated in place.
	CreateChallenge(ctx context.Context, c *Challenge, told []Notification) error

	// Challenge returns the challenge id, or an ENOTFOUND error.
	Challenge(ctx context.Context, id uint64) (*Challenge, error)

	// ChallengesByUser returns the challenges userID made or received,
	// any status, ordered by ID.
	ChallengesByUser(ctx context.Context, userID string) ([]*Challenge, error)

	// ChallengesByChannel returns the challenges made in channelID, any
	// status, ordered by ID.
	ChallengesByChannel(ctx context.Context, channelID string) ([]*Challenge, error)

	// ChallengesExpiring returns the pending challenges whose Expires is
	// not after t, earliest first: those a scheduler must expire.
	ChallengesExpiring(ctx context.Context, t time.Time) ([]*Challenge, error)

	// EarliestExpiry returns the earliest Expires of the pending
	// challenges, the zero time when none is pending. It reads no
	// challenge, only where the expiry index starts.
	EarliestExpiry(ctx context.Context) (time.Time, error)

	// UpdateChallenge changes challenge id in one transaction, as
	// GameStore.UpdateGame does for games: ENOTFOUND, ECONFLICT when
	// expected is not AnyVersion and differs, fn's error returned as it
	// is with nothing changed; otherwise the copy fn edited is stored with
	// Version incremented, the game of the change (if any) is created
	// with the challenge's ID and the notifications are appended, all
	// atomically. It returns the challenge and the game as stored (nil
	// when none was created). fn is pure and may run more than once, as
	// GameStore.UpdateGame's: it calls no store; what it needs is read
	// before the update.
	UpdateChallenge(ctx context.Context, id, expected uint64, fn func(*Challenge) (ChallengeChange, error)) (*Challenge, *Game, error)
}
