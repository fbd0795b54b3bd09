package bot

import (
	"context"
	"time"
)

// NotificationKind says what a notification is about. The numbers are
// persisted: never renumber them.
type NotificationKind uint8

// Notification kinds.
const (
	NotifyChallengeReceived NotificationKind = 10 // to the challenged user, or the channel for an open challenge
	NotifyChallengeAccepted NotificationKind = 11 // to the challenger
	NotifyChallengeDeclined NotificationKind = 12 // to the challenger
	NotifyChallengeExpired  NotificationKind = 13 // to the challenger
	NotifyYourTurn          NotificationKind = 20 // to the player to act
	NotifyReminder          NotificationKind = 21 // to the player to act, when little time is left
	NotifyAutoMove          NotificationKind = 22 // to both players: a move the bot played for a player (docs/variants/winning.md#w13)
	NotifyChoice            NotificationKind = 23 // to the player who must make a pre-game choice
	NotifyDrawOffered       NotificationKind = 24 // to the opponent of the player offering; to the game's thread (UserID "") when the computer player offers
	NotifyDrawDeclined      NotificationKind = 25 // to the player who offered
	NotifyTakebackAsked     NotificationKind = 26 // to the opponent of the player asking
	NotifyTakebackDeclined  NotificationKind = 27 // to the player who asked
	NotifyTakenBack         NotificationKind = 28 // to both players
	NotifyForecast          NotificationKind = 29 // to both players: a move played from a conditional line; to its owner: a line dropped
	NotifyGameOver          NotificationKind = 30 // to each player
	NotifyComputerTurn      NotificationKind = 31 // to the game's thread (UserID ""): a turn the computer player played, shown as a person's /move reply is
	NotifyTournament        NotificationKind = 40 // to a tournament's channel: new games, the end
	NotifyVacation          NotificationKind = 50 // to the opponent of a player whose vacation starts or ends
	NotifyPause             NotificationKind = 51 // to the opponent of a player asking to pause; to both when paused or resumed
	NotifyFollow            NotificationKind = 52 // to a spectator following a game: its moves, its end
	NotifyDigest            NotificationKind = 53 // to a user: the notifications held for their daily digest (never stored: made by the Deliverer)
)

// String returns a lowercase name for logs.
func (k NotificationKind) String() string {
	switch k {
	case NotifyChallengeReceived:
		return "challenge-received"
	case NotifyChallengeAccepted:
		return "challenge-accepted"
	case NotifyChallengeDeclined:
		return "challenge-declined"
	case NotifyChallengeExpired:
		return "challenge-expired"
	case NotifyYourTurn:
		return "your-turn"
	case NotifyReminder:
		return "reminder"
	case NotifyAutoMove:
		return "auto-move"
	case NotifyChoice:
		return "choice"
	case NotifyDrawOffered:
		return "draw-offered"
	case NotifyDrawDeclined:
		return "draw-declined"
	case NotifyTakebackAsked:
		return "takeback-asked"
	case NotifyTakebackDeclined:
		return "takeback-declined"
	case NotifyTakenBack:
		return "taken-back"
	case NotifyForecast:
		return "forecast"
	case NotifyGameOver:
		return "game-over"
	case NotifyComputerTurn:
		return "computer-turn"
	case NotifyTournament:
		return "tournament"
	case NotifyVacation:
		return "vacation"
	case NotifyPause:
		return "pause"
	case NotifyFollow:
		return "follow"
	case NotifyDigest:
		return "digest"
	}
	return "unknown"
}

// Notification is a message waiting in the outbox for an adapter to
// deliver. It is written in the same transaction as the change it
// announces, so a change is never lost without its notification nor
// announced without having happened.
type Notification struct {
	ID uint64 // assigned by the outbox, increasing in the order of appending

	Kind        NotificationKind
	UserID      string // who is told; "" for a message to the channel
	GuildID     string
	ChannelID   string
	GameID      uint64 // 0 when about a challenge only
	ChallengeID uint64 // 0 when about a game only
	Text        string // a plain-text summary an adapter may show as it is

	Created time.Time

	// Attempts counts failed deliveries; NotBefore is when the next may
	// be tried (zero: at once). Set by Outbox.RetryNotification.
	Attempts  int
	NotBefore time.Time

	// TournamentID is the tournament a NotifyTournament is about (0 for
	// other kinds).
	TournamentID uint64
}

// Outbox holds notifications until they are delivered. Implementations
// are safe for concurrent use. Notifications are appended by the other
// stores' updates, never directly.
type Outbox interface {
	// PendingNotifications returns up to limit undelivered
	// notifications whose NotBefore is not after now, oldest first
	// (limit <= 0: all).
	PendingNotifications(ctx context.Context, now time.Time, limit int) ([]Notification, error)

	// RetryNotification records a failed delivery of notification id:
	// Attempts is incremented and NotBefore set to notBefore. A
	// notification that is not there (acknowledged meanwhile) is not an
	// error.
	RetryNotification(ctx context.Context, id uint64, notBefore time.Time) error

	// AckNotification removes a delivered notification. Acknowledging
	// one that is not there (delivered twice) is not an error.
	AckNotification(ctx context.Context, id uint64) error

	// SetAsideNotification takes notification id out of delivery for
	// good, keeping it with reason for an operator to look at:
	// PendingNotifications no longer returns it. A notification that is
	// not there is not an error.
	SetAsideNotification(ctx context.Context, id uint64, reason string) error
}
