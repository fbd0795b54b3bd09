package bot

import (
	"context"
	"time"
)

// Delivery is where a user wants to be told of their games. The numbers
// are persisted: never renumber them.
type Delivery uint8

// Deliveries.
const (
	DeliverDM      Delivery = 1 // a direct message (the default)
	DeliverChannel Delivery = 2 // a mention in the game's channel or thread
	DeliverOff     Delivery = 3 // nothing beyond what the game's thread shows
)

// String returns "dm", "channel" or "off" (the settings values).
func (d Delivery) String() string {
	switch d {
	case DeliverDM:
		return "dm"
	case DeliverChannel:
		return "channel"
	case DeliverOff:
		return "off"
	}
	return "unknown"
}

// ParseDelivery reads "dm", "channel" or "off".
func ParseDelivery(s string) (Delivery, error) {
	switch s {
	case "dm":
		return DeliverDM, nil
	case "channel":
		return DeliverChannel, nil
	case "off":
		return DeliverOff, nil
	}
	return 0, Errorf(EINVALID, "Notifications %q: choose dm, channel or off.", s)
}

// DefaultReminderPercent is the share of a turn's time left at which a
// player is reminded, unless they chose otherwise.
const DefaultReminderPercent = 20

// Preferences are a user's settings: the record UserStore keeps.
type Preferences struct {
	UserID  string
	Version uint64 // incremented by every write; 0 for defaults never stored

	Delivery Delivery // where notifications go
	// ReminderPercent is the share of a turn's time left (1..99) at which
	// the player is reminded; 0 turns reminders off.
	ReminderPercent int
	// DMBlocked records that a direct message to the user failed because
	// they do not accept them; adapters then use the channel instead.
	DMBlocked bool

	// The vacation (package bot/prefs): VacationSince is when
	// the running one began and VacationUntil when it ends at the
	// latest, both zero when none runs; VacationUsed counts the whole
	// days of the finished ones in the year VacationYear.
	VacationSince, VacationUntil time.Time
	VacationYear, VacationUsed   int

	// Digest asks for one message a day, at DigestHour (0-23) of the
	// user's time, UTCOffset minutes from UTC, instead of one per event
	// (package bot/prefs sets it, bot/notify holds the notifications).
	Digest     bool
	DigestHour int
	UTCOffset  int
}

// OnVacation reports whether a vacation of the user runs at now, and
// until when at the latest: one began (VacationSince) and its allowance
// has not run out (VacationUntil).
func (p *Preferences) OnVacation(now time.Time) (until time.Time, on bool) {
	if p.VacationSince.IsZero() || !now.Before(p.VacationUntil) {
		return time.Time{}, false
	}
	return p.VacationUntil, true
}

// DefaultPreferences returns the settings of a user who chose nothing.
func DefaultPreferences(userID string) *Preferences {
	return &Preferences{UserID: userID, Delivery: DeliverDM, ReminderPercent: DefaultReminderPercent}
}

// UserStore keeps users' preferences. Implementations are safe for
// concurrent use.
type UserStore interface {
	// Preferences returns userID's preferences, DefaultPreferences when
	// none are stored.
	Preferences(ctx context.Context, userID string) (*Preferences, error)

	// UpdatePreferences changes userID's preferences in one transaction:
	// fn edits a copy of the stored ones (or of the defaults); if it
	// returns an error nothing changes and the error is returned as it
	// is; otherwise the copy is stored with Version incremented.
	UpdatePreferences(ctx context.Context, userID string, fn func(*Preferences) error) (*Preferences, error)
}
