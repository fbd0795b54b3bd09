package bot

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Digests. A player may ask for one message a day instead of one per
// event: the notifications to them wait in the outbox (their NotBefore
// moved to the next digest time, see Deliverer.Digests) and are then
// sent together as one NotifyDigest, with the games where it is their
// turn and the time left in each. Reminders, which come when little time
// is left (Preferences.ReminderPercent), and challenges still come at
// once. Nothing is kept but the outbox, so digests survive restarts.

// digestible reports whether a notification of kind k waits for the
// digest of a user who asked for one.
func digestible(k NotificationKind) bool {
	switch k {
	case NotifyReminder, NotifyChallengeReceived, NotifyDigest:
		return false
	}
	return true
}

// MaxUTCOffset bounds Preferences.UTCOffset, in minutes either way.
const MaxUTCOffset = 14 * 60

// SetDigest turns userID's daily digest on, at hour (0 to 23) of their
// local time, or off (on false: hour is then kept as it was), and sets
// their time zone as offset minutes from UTC (-MaxUTCOffset to
// MaxUTCOffset). A digest
// is sent by direct message: EINVALID when the user's notifications are
// not direct messages, for an hour or offset out of range and for an
// empty user ID. It returns the settings as stored. Notifications
// already waiting when the digest is turned off are sent one by one at
// the digest time they were waiting for.
func (s *Service) SetDigest(ctx context.Context, userID string, on bool, hour, offset int) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	if on && (hour < 0 || hour > 23) {
		return nil, Errorf(EINVALID, "Digest: an hour from 0 to 23, not %d.", hour)
	}
	if offset < -MaxUTCOffset || offset > MaxUTCOffset {
		return nil, Errorf(EINVALID, "UTC offset: from -14:00 to +14:00.")
	}
	return s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		if on && p.Delivery != DeliverDM {
			return Errorf(EINVALID, "A digest comes by direct message: choose notify:dm first.")
		}
		p.Digest, p.UTCOffset = on, offset
		if on {
			p.DigestHour = hour
		}
		return nil
	})
}

// nextDigest returns the first digest time of p at or after t: DigestHour
// o'clock in the user's time (UTCOffset).
func nextDigest(p *Preferences, t time.Time) time.Time {
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
func (s *Service) DigestTime(ctx context.Context, n Notification) (time.Time, bool, error) {
	if n.UserID == "" || !digestible(n.Kind) {
		return time.Time{}, false, nil
	}
	p, err := s.users.Preferences(ctx, n.UserID)
	if err != nil {
		return time.Time{}, false, err
	}
	if !p.Digest || p.Delivery != DeliverDM || p.DMBlocked {
		return time.Time{}, false, nil
	}
	return nextDigest(p, n.Created), true, nil
}

// Digest returns the digest notification for userID made of the
// notifications held, in order: the games where it is their turn with
// the time left in each, then what the held notifications said. Its ID
// is the first held notification's (0 when none is held): a digest sent
// again for the same held notifications, after a crash or a failover,
// carries the same ID, so the transport can make the resend idempotent.
func (s *Service) Digest(ctx context.Context, userID string, held []Notification, now time.Time) (Notification, error) {
	games, err := s.ActiveGames(ctx, userID)
	if err != nil {
		return Notification{}, err
	}
	var b strings.Builder
	b.WriteString("Your fairypost digest.")
	var turns []string
	for _, g := range games {
		if g.ToAct != userID {
			continue
		}
		left := "no time limit"
		if !g.Deadline.IsZero() {
			left = "move before " + when(g.Deadline)
		}
		turns = append(turns, fmt.Sprintf("• game %d (%s) against <@%s>: %s", g.ID, s.VariantName(g.Variant, g.Options), opponent(g, userID), left))
	}
	switch len(turns) {
	case 0:
		b.WriteString("\nIt is your turn in no game.")
	case 1:
		b.WriteString("\nIt is your turn in 1 game:\n" + turns[0])
	default:
		fmt.Fprintf(&b, "\nIt is your turn in %d games:\n%s", len(turns), strings.Join(turns, "\n"))
	}
	if len(held) > 0 {
		b.WriteString("\nSince the last digest:")
		for _, n := range held {
			b.WriteString("\n• " + strings.ReplaceAll(n.Text, "\n", " "))
		}
	}
	var id uint64
	if len(held) > 0 {
		id = held[0].ID
	}
	return Notification{ID: id, Kind: NotifyDigest, UserID: userID, Text: b.String(), Created: now}, nil
}
