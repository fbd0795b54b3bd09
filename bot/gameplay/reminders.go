package gameplay

import (
	"context"
	"errors"
	"fmt"

	"github.com/fairypost/fairypost/bot"
)

// Reminders follow the settings. A turn's reminder is scheduled when the
// turn starts, from the reminder setting of the player to act
// (Preferences.ReminderPercent, read before the update: ReadReminders).
// When the setting changes, the turns already running follow it
// (RescheduleReminders), and a turn started by an update that read the
// setting just before it changed is scheduled again after the update
// (recheckReminder).

// RescheduleReminders gives RemindAt anew, from userID's stored reminder
// setting, to every game where userID is to act and can be reminded this
// turn: what changing the setting does to the turns already running (a
// turn already reminded is not reminded again), for the feature that
// stores it (package bot/prefs) to call after storing it.
// The setting is read before the updates (an update reads no store), one
// update per game; it is read again afterwards, and when it changed
// meanwhile (two changes made at once) the games are done again with the
// new one, so that the last setting stored wins. After maxRescheduleRounds
// changes in a row it stops: the change still running does its own
// rounds.
func (s *Service) RescheduleReminders(ctx context.Context, userID string) error {
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

// maxRescheduleRounds bounds the rounds of one RescheduleReminders.
const maxRescheduleRounds = 3

// rescheduleWith is one round of RescheduleReminders, with userID's
// setting in r.
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
func (s *Service) rescheduleGame(ctx context.Context, id uint64, userID string, r Reminders) (*bot.Game, error) {
	g, err := s.games.AnnotateGame(ctx, id, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
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
// (a new setting was stored meanwhile, whose RescheduleReminders may have
// looked at the game before the update made that player the one to act),
// their reminder is scheduled anew from the setting as stored now. A
// setting stored after this read is its RescheduleReminders' to apply: it
// will find g with its player to act. It returns the game as stored. A
// failure to reschedule leaves g as it is: a reminder is not worth
// failing a move for.
func (s *Service) recheckReminder(ctx context.Context, g *bot.Game, r Reminders) *bot.Game {
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
