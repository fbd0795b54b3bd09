package notify

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// Digests. A player may ask for one message a day instead of one per
// event: the notifications to them wait in the outbox (their NotBefore
// moved to the next digest time, see Deliverer.Digests) and are then
// sent together as one NotifyDigest, with the games where it is their
// turn: the opponent's moves, the board and the time left in each.
// Reminders, which come when little time is left
// (bot.Preferences.ReminderPercent), and challenges still come at once. Nothing is kept but the outbox, so digests survive restarts.

// digestible reports whether a notification of kind k waits for the
// digest of a user who asked for one.
func digestible(k bot.NotificationKind) bool {
	switch k {
	case bot.NotifyReminder, bot.NotifyChallengeReceived, bot.NotifyDigest:
		return false
	}
	return true
}

// Settings reads users' settings: a bot.UserStore does, and so does the
// Service of package bot/prefs.
type Settings interface {
	// Preferences returns userID's settings (bot.DefaultPreferences when
	// they chose nothing).
	Preferences(ctx context.Context, userID string) (*bot.Preferences, error)
}

// Digests makes the daily digests of the users who asked for one, from
// their settings. It is safe for concurrent use.
type Digests struct {
	settings Settings
}

// NewDigests returns the digests of the users whose settings are read
// from settings.
func NewDigests(settings Settings) *Digests { return &Digests{settings: settings} }

// nextDigest returns the first digest time of p at or after t: DigestHour
// o'clock in the user's time (UTCOffset).
func nextDigest(p *bot.Preferences, t time.Time) time.Time {
	zone := time.FixedZone("", p.UTCOffset*60)
	local := t.In(zone)
	at := time.Date(local.Year(), local.Month(), local.Day(), p.DigestHour, 0, 0, 0, zone)
	if at.Before(local) {
		at = at.AddDate(0, 0, 1)
	}
	return at.UTC()
}

// DigestTime reports whether notification n waits for its user's digest
// and, if so, the digest it belongs to: the first digest time at or after
// n was created. A notification not for a user, of a kind that does not
// wait (reminders, challenges) or for a user without a digest (or whose
// notifications are not direct messages, or who blocks them) does not
// wait.
func (dg *Digests) DigestTime(ctx context.Context, n bot.Notification) (time.Time, bool, error) {
	if n.UserID == "" || !digestible(n.Kind) {
		return time.Time{}, false, nil
	}
	p, err := dg.settings.Preferences(ctx, n.UserID)
	if err != nil {
		return time.Time{}, false, err
	}
	if !p.Digest || p.Delivery != bot.DeliverDM || p.DMBlocked {
		return time.Time{}, false, nil
	}
	return nextDigest(p, n.Created), true, nil
}

// Digest returns the digest notification for userID made of the
// notifications held, in order. Its Text says what the held notifications
// said ("Since the last digest:" and one line each), times written in the
// user's time (Preferences.UTCOffset); "your turn" notices are left out,
// as the adapter's rendering of a digest (command.Handler.Notification)
// lists the games where it is the user's turn now, each with the
// opponent's moves and the board (DigestGames); Text is "" when nothing
// else was held. Its ID is the first held notification's (0 when none is
// held): a digest sent again for the same held notifications, after a
// crash or a failover, carries the same ID, so the transport can make the
// resend idempotent.
func (dg *Digests) Digest(ctx context.Context, userID string, held []bot.Notification, now time.Time) (bot.Notification, error) {
	p, err := dg.settings.Preferences(ctx, userID)
	if err != nil {
		return bot.Notification{}, err
	}
	var lines []string
	for _, n := range held {
		if n.Kind == bot.NotifyYourTurn {
			continue
		}
		lines = append(lines, "• "+LocalTimes(strings.ReplaceAll(n.Text, "\n", " "), p.UTCOffset))
	}
	var text string
	if len(lines) > 0 {
		text = "Since the last digest:\n" + strings.Join(lines, "\n")
	}
	var id uint64
	if len(held) > 0 {
		id = held[0].ID
	}
	return bot.Notification{ID: id, Kind: bot.NotifyDigest, UserID: userID, Text: text, Created: now}, nil
}

// utcTime matches a time as the services write it for players
// (t.UTC().Format("2006-01-02 15:04 MST")): "2026-03-04 12:00 UTC".
var utcTime = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC\b`)

// LocalTimes returns text with every time written as the service writes
// times for players ("2026-03-04 12:00 UTC") written in the time offset
// minutes east of UTC instead ("2026-03-04 14:00 UTC+2"); text as it is
// for offset 0.
func LocalTimes(text string, offset int) string {
	if offset == 0 {
		return text
	}
	return utcTime.ReplaceAllStringFunc(text, func(m string) string {
		t, err := time.Parse("2006-01-02 15:04", utcTime.FindStringSubmatch(m)[1])
		if err != nil {
			return m
		}
		return LocalTime(t, offset)
	})
}

// LocalTime writes t for a player whose time is offset minutes east of
// UTC: "2026-03-04 14:00 UTC+2", "2026-03-04 06:30 UTC-5:30", "... UTC"
// for offset 0.
func LocalTime(t time.Time, offset int) string {
	return t.In(time.FixedZone("", offset*60)).Format("2006-01-02 15:04") + " " + UTCOffsetName(offset)
}

// UTCOffsetName writes an offset in minutes east of UTC as players read
// it: "UTC", "UTC+2", "UTC-5:30".
func UTCOffsetName(offset int) string {
	if offset == 0 {
		return "UTC"
	}
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	if offset%60 == 0 {
		return fmt.Sprintf("UTC%s%d", sign, offset/60)
	}
	return fmt.Sprintf("UTC%s%d:%02d", sign, offset/60, offset%60)
}
