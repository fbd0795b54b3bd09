package prefs

import (
	"context"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// Vacations. A player may take a vacation: a yearly allowance of days
// (DefaultVacationDays unless the Service is given VacationAllowance)
// during which their clock stops in every game they play.
//
// A vacation is kept twice: in the player's Preferences (when it began,
// when the allowance runs out, the days used this year), here, and in
// each game they play (Game.WhiteAway, Game.BlackAway: when the vacation
// ends at the latest), which the core keeps (see package bot: a turn of
// a player away waits for the vacation's end). Starting a vacation moves
// the running turn's clock of each of their games later by what is left
// of the vacation, so the clock resumes, with the time it had, when the
// allowance runs out; ending it early moves them back by what was not
// used. No scheduler is needed for the end of a vacation.

// DefaultVacationDays is the yearly vacation allowance of every player,
// unless the Service is given VacationAllowance.
const DefaultVacationDays = 30

// day is the unit vacations are counted in.
const day = 24 * time.Hour

// VacationState is where a player stands with their vacation allowance
// at a given time (Service.Vacation).
type VacationState struct {
	Allowance int       // days a year
	Year      int       // the year Used counts in
	Used      int       // whole days used in Year, the running vacation included (each day begun counts)
	Left      int       // Allowance - Used, at least 0
	Since     time.Time // when the running vacation began; zero when not on vacation
	Until     time.Time // when the running vacation ends at the latest (the allowance runs out); zero when not on vacation
}

// OnVacation reports whether a vacation is running.
func (v VacationState) OnVacation() bool { return !v.Since.IsZero() }

// vacationDaysUsed returns the whole days of a vacation from since to
// end: every day begun counts.
func vacationDaysUsed(since, end time.Time) int {
	d := end.Sub(since)
	if d <= 0 {
		return 0
	}
	return int((d + day - 1) / day)
}

// settleVacation brings p's vacation bookkeeping up to now: a vacation
// whose allowance ran out is over, its days added to VacationUsed, and a
// new year starts with no days used. It reports whether it changed p.
func settleVacation(p *bot.Preferences, now time.Time) bool {
	changed := false
	if !p.VacationSince.IsZero() && !now.Before(p.VacationUntil) {
		p.VacationUsed += vacationDaysUsed(p.VacationSince, p.VacationUntil)
		p.VacationSince, p.VacationUntil = time.Time{}, time.Time{}
		changed = true
	}
	if y := now.UTC().Year(); p.VacationSince.IsZero() && p.VacationYear != y {
		p.VacationYear, p.VacationUsed = y, 0
		changed = true
	}
	return changed
}

// vacationState is p's vacation as of now, with allowance days a year.
func vacationState(p *bot.Preferences, allowance int, now time.Time) VacationState {
	q := *p
	settleVacation(&q, now)
	v := VacationState{Allowance: allowance, Year: q.VacationYear, Used: q.VacationUsed, Since: q.VacationSince, Until: q.VacationUntil}
	if v.OnVacation() {
		v.Used += vacationDaysUsed(v.Since, now)
	}
	v.Left = max(allowance-v.Used, 0)
	return v
}

// Vacation returns userID's vacation allowance and use as of now.
// EINVALID for an empty user ID.
func (s *Service) Vacation(ctx context.Context, userID string) (VacationState, error) {
	p, err := s.Preferences(ctx, userID)
	if err != nil {
		return VacationState{}, err
	}
	return vacationState(p, s.vacationDays, s.core.Now()), nil
}

// StartVacation starts a vacation for userID now, lasting at most the
// days left of their yearly allowance: their clock stops in every game
// they play (see the comment at the top of this file) and each opponent
// is told (NotifyVacation). It returns the vacation as stored. EINVALID
// for an empty user ID, while a vacation runs, and when no day is left
// this year. The preferences are stored first, then each game is updated
// on its own (gameplay.Service.UpdatePlayerGames); when a game cannot be
// updated the error is returned and starting again (EINVALID: a vacation
// runs) does not repeat it: ending and starting the vacation again does.
func (s *Service) StartVacation(ctx context.Context, userID string) (VacationState, error) {
	if userID == "" {
		return VacationState{}, bot.Errorf(bot.EINVALID, "Whose vacation? No user given.")
	}
	now := s.core.Now()
	p, err := s.users.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		settleVacation(p, now)
		if !p.VacationSince.IsZero() {
			return bot.Errorf(bot.EINVALID, "You are on vacation already, until %s at the latest: /vacation end ends it.", when(p.VacationUntil))
		}
		left := s.vacationDays - p.VacationUsed
		if left <= 0 {
			return bot.Errorf(bot.EINVALID, "You have no vacation days left this year (%d used of %d).", p.VacationUsed, s.vacationDays)
		}
		p.VacationSince, p.VacationUntil = now, now.Add(time.Duration(left)*day)
		return nil
	})
	if err != nil {
		return VacationState{}, err
	}
	until := p.VacationUntil
	err = s.core.UpdatePlayerGames(ctx, userID, func(g *bot.Game) ([]bot.Notification, bool) {
		if was, _ := g.OnVacation(userID, now); !was.Before(until) {
			return nil, false // done already
		}
		g.SetAway(userID, until)
		if g.ToAct == userID {
			g.ShiftClock(until.Sub(now))
		}
		return []bot.Notification{gameNotification(g, bot.NotifyVacation, opponent(g, userID), fmt.Sprintf(
			"<@%s> is on vacation until %s at the latest: their clock in game %d (%s) is stopped meanwhile.",
			userID, when(until), g.ID, s.core.VariantName(g.Variant, g.Options)), now)}, true
	})
	return vacationState(p, s.vacationDays, now), err
}

// EndVacation ends userID's running vacation now: the days begun count
// as used, the clocks stopped in their games resume with the time they
// had (see the top of this file) and each opponent is told
// (NotifyVacation). EINVALID for an empty user ID and when no vacation
// runs (one whose allowance ran out has ended by itself). Errors of the
// game updates as for StartVacation; ending again is refused, but the
// games' vacation ends by itself when the allowance would have run out.
func (s *Service) EndVacation(ctx context.Context, userID string) (VacationState, error) {
	if userID == "" {
		return VacationState{}, bot.Errorf(bot.EINVALID, "Whose vacation? No user given.")
	}
	now := s.core.Now()
	p, err := s.users.UpdatePreferences(ctx, userID, func(p *bot.Preferences) error {
		settleVacation(p, now)
		if p.VacationSince.IsZero() {
			return bot.Errorf(bot.EINVALID, "You are not on vacation: /vacation start begins one.")
		}
		p.VacationUsed += vacationDaysUsed(p.VacationSince, now)
		p.VacationSince, p.VacationUntil = time.Time{}, time.Time{}
		return nil
	})
	if err != nil {
		return VacationState{}, err
	}
	err = s.core.UpdatePlayerGames(ctx, userID, func(g *bot.Game) ([]bot.Notification, bool) {
		until, away := g.OnVacation(userID, now)
		if !away {
			return nil, false
		}
		g.SetAway(userID, time.Time{})
		if g.ToAct == userID {
			g.ShiftClock(-until.Sub(now))
		}
		return []bot.Notification{gameNotification(g, bot.NotifyVacation, opponent(g, userID), fmt.Sprintf(
			"<@%s> is back from vacation: their clock in game %d (%s) runs again.", userID, g.ID, s.core.VariantName(g.Variant, g.Options)), now)}, true
	})
	return vacationState(p, s.vacationDays, now), err
}

// opponent returns the other player of g than userID, a player of g.
func opponent(g *bot.Game, userID string) string {
	if userID == g.White {
		return g.Black
	}
	return g.White
}

// gameNotification returns a notification of kind about g to userID.
func gameNotification(g *bot.Game, kind bot.NotificationKind, userID, text string, now time.Time) bot.Notification {
	return bot.Notification{Kind: kind, UserID: userID, GuildID: g.GuildID, ChannelID: g.ChannelID,
		GameID: g.ID, Text: text, Created: now}
}

// when writes t for players.
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") }
