package bot

import (
	"context"
	"errors"
	"fmt"
)

// Preferences returns userID's settings (DefaultPreferences when they
// chose nothing). EINVALID for an empty user ID.
func (s *Service) Preferences(ctx context.Context, userID string) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	return s.users.Preferences(ctx, userID)
}

// SetDelivery sets where userID's notifications go: DeliverDM,
// DeliverChannel or DeliverOff (EINVALID for anything else or an empty
// user ID), and returns the settings as stored. Choosing DeliverDM clears
// DMBlocked, so a user who has opened their DMs again is tried again.
func (s *Service) SetDelivery(ctx context.Context, userID string, d Delivery) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	if d.String() == "unknown" {
		return nil, Errorf(EINVALID, "Notifications: choose dm, channel or off.")
	}
	return s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		p.Delivery = d
		if d == DeliverDM {
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
// reminded again): after storing the setting, it moves the RemindAt of
// each game where userID is to act, one game update each (which moves
// the game's Version, when RemindAt changes). It returns the settings as
// stored. When a game cannot be updated the setting is stored all the
// same and the error is returned: setting it again completes the change.
func (s *Service) SetReminder(ctx context.Context, userID string, percent int) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	if percent < 0 || percent > 99 {
		return nil, Errorf(EINVALID, "Reminder: give the share of the time left in percent, 1 to 99, or 0 for none (not %d).", percent)
	}
	p, err := s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		p.ReminderPercent = percent
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.reschedule(ctx, userID); err != nil {
		return nil, err
	}
	return p, nil
}

// reschedule gives RemindAt anew, from userID's stored reminder setting,
// to every game where userID is to act and can be reminded this turn.
// The setting is read before the updates (an update reads no store), one
// update per game; it is read again afterwards, and when it changed
// meanwhile (two changes made at once) the games are done again with the
// new one, so that the last setting stored wins. After maxRescheduleRounds
// changes in a row it stops: the change still running does its own
// rounds.
func (s *Service) reschedule(ctx context.Context, userID string) error {
	r := s.ReadReminders(ctx, userID)
	for round := 1; ; round++ {
		if err := s.rescheduleWith(ctx, userID, r); err != nil {
			return err
		}
		again := s.ReadReminders(ctx, userID)
		if again.percent(userID) == r.percent(userID) || round == maxRescheduleRounds {
			return nil
		}
		r = again
	}
}

// maxRescheduleRounds bounds the rounds of one reschedule.
const maxRescheduleRounds = 3

// rescheduleWith is one round of reschedule, with userID's setting in r.
func (s *Service) rescheduleWith(ctx context.Context, userID string, r Reminders) error {
	games, err := s.games.ActiveGamesByUser(ctx, userID)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range games {
		if g.ToAct != userID || !remindable(g) {
			continue
		}
		if _, err := s.rescheduleGame(ctx, g.ID, userID, r); err != nil {
			errs = append(errs, fmt.Errorf("game %d: %w", g.ID, err))
		}
	}
	return errors.Join(errs...)
}

// rescheduleGame gives game id's RemindAt anew from userID's setting in r
// when userID is to act in it (one AnnotateGame, which writes nothing when
// RemindAt stays), and returns the game as stored then (nil when it wrote
// nothing).
func (s *Service) rescheduleGame(ctx context.Context, id uint64, userID string, r Reminders) (*Game, error) {
	g, err := s.games.AnnotateGame(ctx, id, func(g Game, a *Annotations) ([]Notification, error) {
		if g.ToAct != userID {
			return nil, sweepSkip{}
		}
		scheduleReminder(&g, r) // on the copy, to keep its RemindAt
		if g.RemindAt.Equal(a.RemindAt) {
			return nil, sweepSkip{}
		}
		a.RemindAt = g.RemindAt
		return nil, nil
	})
	if errors.Is(err, sweepSkip{}) {
		return nil, nil
	}
	return g, err
}

// recheckReminder closes the gap between reading the reminder settings
// before an update (r) and the update: when the setting of the player to
// act in g, the game as the update stored it, is no longer the one in r
// (SetReminder stored another meanwhile, whose own rescheduling may have
// looked at the game before the update made that player the one to act),
// their reminder is scheduled anew from the setting as stored now. A
// setting stored after this read is SetReminder's to apply: it will find
// g with its player to act. It returns the game as stored. A failure to
// reschedule leaves g as it is: a reminder is not worth failing a move for.
func (s *Service) recheckReminder(ctx context.Context, g *Game, r Reminders) *Game {
	if g == nil || !remindable(g) {
		return g
	}
	now := s.ReadReminders(ctx, g.ToAct)
	if now.percent(g.ToAct) == r.percent(g.ToAct) {
		return g
	}
	if ng, err := s.rescheduleGame(ctx, g.ID, g.ToAct, now); err == nil && ng != nil {
		return ng
	}
	return g
}

// SetDMBlocked records whether direct messages to userID fail because the
// user does not accept them (adapters then write in the channel). Nothing
// is written when the stored flag already says so, so adapters may call
// it after every failed or successful direct message. EINVALID for an
// empty user ID.
func (s *Service) SetDMBlocked(ctx context.Context, userID string, blocked bool) error {
	if userID == "" {
		return Errorf(EINVALID, "Whose settings? No user given.")
	}
	p, err := s.users.Preferences(ctx, userID)
	if err != nil {
		return err
	}
	if p.DMBlocked == blocked {
		return nil
	}
	_, err = s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		p.DMBlocked = blocked
		return nil
	})
	return err
}
