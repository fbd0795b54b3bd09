package prefs

import (
	"context"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Service keeps users' settings (bot.Preferences, in a bot.UserStore) and
// their vacations, for the games of one game's Service (the core). It is
// safe for concurrent use.
type Service struct {
	core  *gameplay.Service
	users bot.UserStore
	// vacationDays is the yearly vacation allowance (VacationAllowance).
	vacationDays int
}

// Option configures a Service.
type Option func(*Service)

// VacationAllowance sets the yearly vacation allowance of every player,
// in days (default DefaultVacationDays; 0 allows no vacation).
func VacationAllowance(days int) Option {
	return func(s *Service) { s.vacationDays = max(days, 0) }
}

// New returns the settings kept in users of the players of core's games,
// at core's time. It registers nothing with core: the core reads the
// reminder settings from the same store (gameplay.Service.ReadReminders).
func New(core *gameplay.Service, users bot.UserStore, opts ...Option) *Service {
	s := &Service{core: core, users: users, vacationDays: DefaultVacationDays}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Preferences returns userID's settings (DefaultPreferences when they
// chose nothing). EINVALID for an empty user ID.
func (s *Service) Preferences(ctx context.Context, userID string) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Whose settings? No user given.")
	}
	return s.users.Preferences(ctx, userID)
}

// SetDelivery sets where userID's notifications go: DeliverDM,
// DeliverChannel or DeliverOff (EINVALID for anything else or an empty
// user ID), and returns the settings as stored. Choosing DeliverDM clears
// DMBlocked, so a user who has opened their DMs again is tried again.
func (s *Service) SetDelivery(ctx context.Context, userID string, d bot.Delivery) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Whose settings? No user given.")
	}
	if d.String() == "unknown" {
		return nil, bot.Errorf(bot.EINVALID, "Notifications: choose dm, channel or off.")
	}
	return s.users.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		p.Delivery = d
		if d == bot.DeliverDM {
			// Asking for DMs again is how a user who blocked them and
			// has since opened them says so: try again.
			p.DMBlocked = false
		}
		return nil
	})
}

// SetReminder sets the share of a turn's time left, in percent, at which
// userID is reminded to move: 1 to 99, or 0 for no reminders (EINVALID
// for anything else or an empty user ID). It applies from the next sweep
// on, to turns already running too (a turn already reminded is not
// reminded again): after storing the setting, the core moves the
// RemindAt of each game where userID is to act
// (gameplay.Service.RescheduleReminders: one game update each, which moves the
// game's Version when RemindAt changes). It returns the settings as
// stored. When a game cannot be updated the setting is stored all the
// same and the error is returned: setting it again completes the change.
func (s *Service) SetReminder(ctx context.Context, userID string, percent int) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Whose settings? No user given.")
	}
	if percent < 0 || percent > 99 {
		return nil, bot.Errorf(bot.EINVALID, "Reminder: give the share of the time left in percent, 1 to 99, or 0 for none (not %d).", percent)
	}
	p, err := s.users.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		p.ReminderPercent = percent
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.core.RescheduleReminders(ctx, userID); err != nil {
		return nil, err
	}
	return p, nil
}

// SetDMBlocked records whether direct messages to userID fail because the
// user does not accept them (adapters then write in the channel). Nothing
// is written when the stored flag already says so, so adapters may call
// it after every failed or successful direct message. EINVALID for an
// empty user ID.
func (s *Service) SetDMBlocked(ctx context.Context, userID string, blocked bool) error {
	if userID == "" {
		return bot.Errorf(bot.EINVALID, "Whose settings? No user given.")
	}
	p, err := s.users.Preferences(ctx, userID)
	if err != nil {
		return err
	}
	if p.DMBlocked == blocked {
		return nil
	}
	_, err = s.users.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		p.DMBlocked = blocked
		return nil
	})
	return err
}

// MaxUTCOffset bounds Preferences.UTCOffset, in minutes either way.
const MaxUTCOffset = 14 * 60

// SetDigest turns userID's daily digest on, at hour (0 to 23) of their
// local time, or off (on false: hour is then kept as it was), and sets
// their time zone as offset minutes from UTC (-MaxUTCOffset to
// MaxUTCOffset). A digest is sent by direct message (package bot/notify
// holds the notifications for it): EINVALID when the user's
// notifications are not direct messages, for an hour or offset out of
// range and for an empty user ID. It returns the settings as stored.
// Notifications already waiting when the digest is turned off are sent
// one by one at the digest time they were waiting for.
func (s *Service) SetDigest(ctx context.Context, userID string, on bool, hour, offset int) (*bot.Preferences, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Whose settings? No user given.")
	}
	if on && (hour < 0 || hour > 23) {
		return nil, bot.Errorf(bot.EINVALID, "Digest: an hour from 0 to 23, not %d.", hour)
	}
	if offset < -MaxUTCOffset || offset > MaxUTCOffset {
		return nil, bot.Errorf(bot.EINVALID, "UTC offset: from -14:00 to +14:00.")
	}
	return s.users.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		if on && p.Delivery != bot.DeliverDM {
			return bot.Errorf(bot.EINVALID, "A digest comes by direct message: choose notify:dm first.")
		}
		p.Digest, p.UTCOffset = on, offset
		if on {
			p.DigestHour = hour
		}
		return nil
	})
}
