package bot

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Time off. A player may take a vacation: a yearly allowance of days
// (DefaultVacationDays unless the Service is given VacationAllowance)
// during which their clock stops in every game they play. And the two
// players of a game may pause it by consent of both.
//
// A vacation is kept twice: in the player's Preferences (when it began,
// when the allowance runs out, the days used this year) and in each game
// they play (Game.WhiteAway, Game.BlackAway: when the vacation ends at
// the latest). A player on vacation whose turn runs has it moved later by
// what is left of the vacation (Deadline, TurnStarted and RemindAt all
// move together), so the clock resumes, with the time it had, when the
// allowance runs out; ending the vacation early moves them back by what
// was not used. No scheduler is needed for the end of a vacation, and
// the stores' deadline index stays true throughout.
//
// A pause by consent (Game.PausedAt) stops the clock of the player to
// act until either player resumes the game: its Deadline and RemindAt
// are set aside (PausedDeadline, PausedRemindAt), so the game cannot time
// out, and come back moved by the time paused. Moves wait for the resume.

// DefaultVacationDays is the yearly vacation allowance of every player,
// unless the Service is given VacationAllowance.
const DefaultVacationDays = 30

// VacationAllowance sets the yearly vacation allowance of every player,
// in days (default DefaultVacationDays; 0 allows no vacation).
func VacationAllowance(days int) Option {
	return func(s *Service) { s.vacationDays = max(days, 0) }
}

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
func settleVacation(p *Preferences, now time.Time) bool {
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
func vacationState(p *Preferences, allowance int, now time.Time) VacationState {
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
	return vacationState(p, s.vacationDays, s.now()), nil
}

// StartVacation starts a vacation for userID now, lasting at most the
// days left of their yearly allowance: their clock stops in every game
// they play (see the comment at the top of this file) and each opponent
// is told (NotifyVacation). It returns the vacation as stored. EINVALID
// for an empty user ID, while a vacation runs, and when no day is left
// this year. The preferences are stored first, then each game is updated
// on its own; when a game cannot be updated the error is returned and
// starting again (EINVALID: a vacation runs) does not repeat it: ending
// and starting the vacation again does.
func (s *Service) StartVacation(ctx context.Context, userID string) (VacationState, error) {
	if userID == "" {
		return VacationState{}, Errorf(EINVALID, "Whose vacation? No user given.")
	}
	now := s.now()
	p, err := s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		settleVacation(p, now)
		if !p.VacationSince.IsZero() {
			return Errorf(EINVALID, "You are on vacation already, until %s at the latest: /vacation end ends it.", when(p.VacationUntil))
		}
		left := s.vacationDays - p.VacationUsed
		if left <= 0 {
			return Errorf(EINVALID, "You have no vacation days left this year (%d used of %d).", p.VacationUsed, s.vacationDays)
		}
		p.VacationSince, p.VacationUntil = now, now.Add(time.Duration(left)*day)
		return nil
	})
	if err != nil {
		return VacationState{}, err
	}
	until := p.VacationUntil
	err = s.eachGame(ctx, userID, func(g *Game) ([]Notification, error) {
		if !g.awayUntil(userID).Before(until) {
			return nil, sweepSkip{} // done already
		}
		g.setAway(userID, until)
		if g.ToAct == userID {
			shiftClock(g, until.Sub(now))
		}
		return []Notification{gameNotification(g, NotifyVacation, opponent(g, userID), fmt.Sprintf(
			"<@%s> is on vacation until %s at the latest: their clock in game %d (%s) is stopped meanwhile.",
			userID, when(until), g.ID, s.VariantName(g.Variant, g.Options)), now)}, nil
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
		return VacationState{}, Errorf(EINVALID, "Whose vacation? No user given.")
	}
	now := s.now()
	p, err := s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		settleVacation(p, now)
		if p.VacationSince.IsZero() {
			return Errorf(EINVALID, "You are not on vacation: /vacation start begins one.")
		}
		p.VacationUsed += vacationDaysUsed(p.VacationSince, now)
		p.VacationSince, p.VacationUntil = time.Time{}, time.Time{}
		return nil
	})
	if err != nil {
		return VacationState{}, err
	}
	err = s.eachGame(ctx, userID, func(g *Game) ([]Notification, error) {
		until := g.awayUntil(userID)
		if !now.Before(until) {
			return nil, sweepSkip{}
		}
		g.setAway(userID, time.Time{})
		if g.ToAct == userID {
			shiftClock(g, -until.Sub(now))
		}
		return []Notification{gameNotification(g, NotifyVacation, opponent(g, userID), fmt.Sprintf(
			"<@%s> is back from vacation: their clock in game %d (%s) runs again.", userID, g.ID, s.VariantName(g.Variant, g.Options)), now)}, nil
	})
	return vacationState(p, s.vacationDays, now), err
}

// eachGame applies fn to every game userID plays that is not over, one
// update each (fn returning sweepSkip changes nothing), and joins the
// errors.
func (s *Service) eachGame(ctx context.Context, userID string, fn func(g *Game) ([]Notification, error)) error {
	games, err := s.games.ActiveGamesByUser(ctx, userID)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range games {
		_, err := s.updateGame(ctx, g.ID, AnyVersion, func(g *Game) ([]Notification, error) {
			if !g.Ongoing() {
				return nil, sweepSkip{}
			}
			g.Updated = s.now()
			return fn(g)
		})
		if err != nil && !errors.Is(err, sweepSkip{}) {
			errs = append(errs, fmt.Errorf("game %d: %w", g.ID, err))
		}
	}
	return errors.Join(errs...)
}

// shiftClock moves the running turn's clock of g by d: TurnStarted,
// Deadline and RemindAt (those set), or, in a paused game, the clock set
// aside.
func shiftClock(g *Game, d time.Duration) {
	move := func(t *time.Time) {
		if !t.IsZero() {
			*t = t.Add(d)
		}
	}
	if !g.PausedAt.IsZero() {
		move(&g.PausedDeadline)
		move(&g.PausedRemindAt)
		return
	}
	if g.Deadline.IsZero() {
		return
	}
	move(&g.TurnStarted)
	move(&g.Deadline)
	move(&g.RemindAt)
}

// awayUntil returns when the vacation of userID, a player of g, ends at
// the latest, as g records it; zero when none is recorded.
func (g *Game) awayUntil(userID string) time.Time {
	switch userID {
	case g.White:
		return g.WhiteAway
	case g.Black:
		return g.BlackAway
	}
	return time.Time{}
}

// setAway records the vacation end of userID, a player of g.
func (g *Game) setAway(userID string, until time.Time) {
	switch userID {
	case g.White:
		g.WhiteAway = until
	case g.Black:
		g.BlackAway = until
	}
}

// OnVacation reports whether userID, a player of g, is on vacation at now
// as g records it, and until when at the latest.
func (g *Game) OnVacation(userID string, now time.Time) (time.Time, bool) {
	until := g.awayUntil(userID)
	return until, now.Before(until)
}

// holdClock adjusts the clock of a turn that starts at now in g
// (startTurn): the turn of a player on vacation begins when the vacation
// ends at the latest, and the clock of a paused game is set aside.
func holdClock(g *Game, now time.Time) {
	if until, away := g.OnVacation(g.ToAct, now); away && !g.Deadline.IsZero() {
		d := until.Sub(now)
		g.TurnStarted, g.Deadline = g.TurnStarted.Add(d), g.Deadline.Add(d)
	}
}

// setClockAside stops the clock of a paused g: Deadline and RemindAt
// move to PausedDeadline and PausedRemindAt.
func setClockAside(g *Game) {
	g.PausedDeadline, g.PausedRemindAt = g.Deadline, g.RemindAt
	g.Deadline, g.RemindAt = time.Time{}, time.Time{}
}

// when writes t for players.
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") }

// pause asks, on behalf of userID, to pause game gameID, or agrees when
// the opponent asked: the game is then paused (Game.PausedAt), the clock
// of the player to act set aside so that it cannot run out, and both
// players told (NotifyPause). A request is told to the opponent
// (NotifyPause) and lapses with the next move. version as for Move.
// EINVALID for a game not being played, one paused already, and while
// userID's own request stands.
func (s *Service) pause(ctx context.Context, gameID, version uint64, userID string) (*Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *Game) ([]Notification, error) {
		now := s.now()
		switch {
		case !g.PausedAt.IsZero():
			return nil, Errorf(EINVALID, "Game %d is paused already: either player may resume it.", g.ID)
		case g.PauseOffer == userID:
			return nil, Errorf(EINVALID, "Your request to pause game %d stands already: your opponent may agree to it.", g.ID)
		case g.PauseOffer == opponent(g, userID):
			g.PauseOffer, g.PausedAt, g.Updated = "", now, now
			setClockAside(g)
			return toBoth(g, NotifyPause, fmt.Sprintf("Game %d is paused by agreement: no clock runs and no move is played until one of you resumes it (/pause action:resume).", g.ID), now), nil
		}
		g.PauseOffer, g.Updated = userID, now
		return []Notification{gameNotification(g, NotifyPause, opponent(g, userID), fmt.Sprintf(
			"<@%s> asks to pause game %d (%s): the clocks stop until either of you resumes it. Agree (/pause action:ask) or decline (/pause action:decline); a move declines too.",
			userID, g.ID, s.VariantName(g.Variant, g.Options)), now)}, nil
	})
}

// declinePause declines, on behalf of userID, the opponent's standing
// request to pause game gameID: the request is dropped, the clocks run on
// as they did, and the opponent is told (NotifyPause). Either player may
// answer a request this way, the one not to move too (the one to move
// may also decline by moving). version as for Move. EINVALID for a game
// not being played, one paused already (resume it instead), and when no
// request of the opponent's stands (userID's own is withdrawn with
// Resume).
func (s *Service) declinePause(ctx context.Context, gameID, version uint64, userID string) (*Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *Game) ([]Notification, error) {
		now := s.now()
		opp := opponent(g, userID)
		switch {
		case !g.PausedAt.IsZero():
			return nil, Errorf(EINVALID, "Game %d is paused already: resume it to play on (/pause action:resume).", g.ID)
		case g.PauseOffer == userID:
			return nil, Errorf(EINVALID, "The request to pause game %d is yours: withdraw it with /pause action:resume.", g.ID)
		case g.PauseOffer != opp:
			return nil, Errorf(EINVALID, "Nobody asks to pause game %d: there is nothing to decline.", g.ID)
		}
		g.PauseOffer, g.Updated = "", now
		return []Notification{gameNotification(g, NotifyPause, opp, fmt.Sprintf(
			"<@%s> declines to pause game %d (%s): the clocks run on. It is <@%s>'s turn.",
			userID, g.ID, s.VariantName(g.Variant, g.Options), g.ToAct), now)}, nil
	})
}

// resume ends the pause of game gameID on behalf of userID, either
// player: the clock set aside comes back moved by the time paused, and
// both players are told (NotifyPause). A standing pause request of
// userID's is withdrawn instead. version as for Move. EINVALID for a game
// not being played and one neither paused nor asked by userID to pause.
func (s *Service) resume(ctx context.Context, gameID, version uint64, userID string) (*Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *Game) ([]Notification, error) {
		now := s.now()
		if g.PausedAt.IsZero() {
			if g.PauseOffer == userID {
				g.PauseOffer, g.Updated = "", now
				return nil, nil
			}
			return nil, Errorf(EINVALID, "Game %d is not paused.", g.ID)
		}
		d := now.Sub(g.PausedAt)
		g.Deadline, g.RemindAt = g.PausedDeadline, g.PausedRemindAt
		g.PausedAt, g.PausedDeadline, g.PausedRemindAt = time.Time{}, time.Time{}, time.Time{}
		shiftClock(g, d)
		g.Updated = now
		return toBoth(g, NotifyPause, fmt.Sprintf("Game %d was resumed by <@%s>: the clock runs again. It is <@%s>'s turn.", g.ID, userID, g.ToAct), now), nil
	})
}

// notPaused refuses, with EINVALID, a move in a paused game.
func notPaused(g *Game) error {
	if !g.PausedAt.IsZero() {
		return Errorf(EINVALID, "Game %d is paused: resume it first (/pause action:resume).", g.ID)
	}
	return nil
}
