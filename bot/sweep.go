package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// SweepReport counts what one Sweep did.
type SweepReport struct {
	TimedOut int // games lost on time by the player to act
	Aborted  int // games aborted because time ran out before both players had moved
	Reminded int // players reminded that their time runs out
	Expired  int // challenges expired unanswered
}

// Total returns how many things the sweep did.
func (r SweepReport) Total() int { return r.TimedOut + r.Aborted + r.Reminded + r.Expired }

// sweepSkip is what a sweep's update function returns when the record
// changed since it was listed and there is nothing left to do: the update
// then changes nothing.
type sweepSkip struct{}

func (sweepSkip) Error() string { return "nothing to do" }

// farFuture returns a time after every deadline: a scan up to it sees
// them all.
func farFuture() time.Time { return time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC) }

// longestTurn returns the longest time a player can have for a turn.
func longestTurn() time.Duration {
	return time.Duration(slices.Max(allowedDays)) * 24 * time.Hour
}

// longestLead returns how long before a deadline a reminder can come at
// the most: 99% of the longest turn.
func longestLead() time.Duration { return longestTurn() / 100 * 99 }

// turnLength returns the time the player to act in g has for this turn:
// from TurnStarted to Deadline, or DaysPerMove when the turn's start was
// not recorded.
func turnLength(g *Game) time.Duration {
	if !g.TurnStarted.IsZero() && g.TurnStarted.Before(g.Deadline) {
		return g.Deadline.Sub(g.TurnStarted)
	}
	return time.Duration(g.DaysPerMove) * 24 * time.Hour
}

// remindAt returns when the player to act in g, who wants to be reminded
// when percent of their time is left, is to be reminded: zero when never
// (no deadline, reminders off, already reminded this turn).
func remindAt(g *Game, percent int) time.Time {
	if percent <= 0 || g.Reminded || g.Deadline.IsZero() || g.ToAct == "" {
		return time.Time{}
	}
	turn := turnLength(g)
	if turn <= 0 {
		return time.Time{}
	}
	// Never earlier than the longest lead, the window Sweep looks at.
	return g.Deadline.Add(-min(turn/100*time.Duration(percent), longestLead()))
}

// reminderPercents reads players' reminder settings, each at most once
// per sweep.
type reminderPercents struct {
	users UserStore
	seen  map[string]int
}

func (r *reminderPercents) get(ctx context.Context, userID string) (int, error) {
	if p, ok := r.seen[userID]; ok {
		return p, nil
	}
	prefs, err := r.users.Preferences(ctx, userID)
	if err != nil {
		return 0, err
	}
	if r.seen == nil {
		r.seen = map[string]int{}
	}
	r.seen[userID] = prefs.ReminderPercent
	return prefs.ReminderPercent, nil
}

// Sweep does what the clock asks for, as of the Service's time now:
//
//   - a game whose Deadline has come is lost on time by the player to act
//     (Result for the opponent, Reason "timeout"), or aborted when the
//     players had not both moved yet (BothMoved; this includes a pre-game
//     choice not made in time); both players are notified;
//   - the player to act in a game whose time is running out gets one
//     NotifyReminder per turn (Game.Reminded), when the share of the turn
//     left reaches their Preferences.ReminderPercent (none when 0);
//   - a pending challenge whose Expires has come expires
//     (ChallengeExpired) and its challenger is notified.
//
// Each change is one store transaction that checks again that it is
// still due, so a move made meanwhile wins and running Sweep again (or
// two at once) does nothing twice. Sweep goes on past a record it cannot
// change and returns what it did with the errors joined. It holds
// nothing in memory: everything it needs is in the stores.
func (s *Service) Sweep(ctx context.Context) (SweepReport, error) {
	now := s.now()
	var rep SweepReport
	var errs []error
	games, err := s.games.GamesDue(ctx, now.Add(longestLead()))
	if err != nil {
		return rep, err
	}
	percents := reminderPercents{users: s.users}
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if !ongoing(g) || g.Deadline.IsZero() {
			continue
		}
		if !now.Before(g.Deadline) {
			aborted, err := s.timeOut(ctx, g.ID, now)
			switch {
			case errors.Is(err, sweepSkip{}):
			case err != nil:
				errs = append(errs, fmt.Errorf("game %d: time out: %w", g.ID, err))
			case aborted:
				rep.Aborted++
			default:
				rep.TimedOut++
			}
			continue
		}
		if g.Reminded || g.ToAct == "" {
			continue
		}
		p, err := percents.get(ctx, g.ToAct)
		if err != nil {
			errs = append(errs, fmt.Errorf("game %d: reminder settings of %s: %w", g.ID, g.ToAct, err))
			continue
		}
		if at := remindAt(g, p); at.IsZero() || now.Before(at) {
			continue
		}
		switch err := s.remind(ctx, g.ID, g.ToAct, p, now); {
		case errors.Is(err, sweepSkip{}):
		case err != nil:
			errs = append(errs, fmt.Errorf("game %d: reminder: %w", g.ID, err))
		default:
			rep.Reminded++
		}
	}
	challenges, err := s.challenges.ChallengesExpiring(ctx, now)
	if err != nil {
		return rep, errors.Join(append(errs, err)...)
	}
	for _, c := range challenges {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		switch err := s.expire(ctx, c.ID, now); {
		case errors.Is(err, sweepSkip{}):
		case err != nil:
			errs = append(errs, fmt.Errorf("challenge %d: expire: %w", c.ID, err))
		default:
			rep.Expired++
		}
	}
	return rep, errors.Join(errs...)
}

// timeOut ends game id on time if its deadline has come by now: a loss
// for the player to act, or an abort when the players have not both moved.
// sweepSkip{} when the game is no longer due.
func (s *Service) timeOut(ctx context.Context, id uint64, now time.Time) (aborted bool, err error) {
	_, err = s.games.UpdateGame(ctx, id, AnyVersion, func(g *Game) ([]Notification, error) {
		aborted = false
		if !ongoing(g) || g.Deadline.IsZero() || now.Before(g.Deadline) {
			return nil, sweepSkip{}
		}
		g.Updated = now
		moved, err := s.bothMoved(g)
		if err != nil { // a record that does not replay: as BothMoved says
			moved = len(g.Moves) >= 2
		}
		if g.Status == GameSetup || !moved || !g.IsPlayer(g.ToAct) {
			aborted = true
			return abortOnTime(g, now), nil
		}
		r := WhiteWins
		if g.ToAct == g.White {
			r = BlackWins
		}
		return s.finish(g, r, timeoutReason, now), nil
	})
	return aborted, err
}

// abortOnTime ends g without a result because its player to act let the
// time run out before both players had moved, and returns the
// notifications to both players.
func abortOnTime(g *Game, now time.Time) []Notification {
	late := g.ToAct
	reason := "no move in time"
	if g.Status == GameSetup {
		reason = "no choice in time"
	}
	g.Status, g.Result, g.Reason = GameAborted, NoResult, reason
	g.ToAct, g.Deadline, g.DrawOffer, g.Takeback = "", time.Time{}, "", ""
	text := fmt.Sprintf("Game %d is aborted: <@%s> did not play in time, before both players had moved.", g.ID, late)
	var notes []Notification
	for _, u := range []string{g.White, g.Black} {
		notes = append(notes, Notification{Kind: NotifyGameOver, UserID: u, GuildID: g.GuildID,
			ChannelID: g.ChannelID, GameID: g.ID, Text: text, Created: now})
	}
	return notes
}

// remind sends userID, to act in game id with a reminder at percent, the
// reminder of this turn if it is due by now. sweepSkip{} when it is not
// (any more).
func (s *Service) remind(ctx context.Context, id uint64, userID string, percent int, now time.Time) error {
	_, err := s.games.UpdateGame(ctx, id, AnyVersion, func(g *Game) ([]Notification, error) {
		if !ongoing(g) || g.ToAct != userID || !now.Before(g.Deadline) {
			return nil, sweepSkip{}
		}
		if at := remindAt(g, percent); at.IsZero() || now.Before(at) {
			return nil, sweepSkip{}
		}
		g.Reminded = true
		left := g.Deadline.Sub(now)
		text := fmt.Sprintf("Reminder: it is your turn in game %d (%s), %s left: play before %s.",
			g.ID, g.Variant, roughDuration(left), g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
		if g.Status == GameSetup {
			text = fmt.Sprintf("Reminder: game %d (%s) waits for your choice, %s left: choose before %s.",
				g.ID, g.Variant, roughDuration(left), g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
		}
		return []Notification{{Kind: NotifyReminder, UserID: userID, GuildID: g.GuildID, ChannelID: g.ChannelID,
			GameID: g.ID, Text: text, Created: now}}, nil
	})
	return err
}

// expire expires challenge id if it is pending and its time has come by
// now, notifying the challenger. sweepSkip{} when it is not (any more).
func (s *Service) expire(ctx context.Context, id uint64, now time.Time) error {
	_, _, err := s.challenges.UpdateChallenge(ctx, id, AnyVersion, func(c *Challenge) (ChallengeChange, error) {
		if c.Status != ChallengePending || now.Before(c.Expires) {
			return ChallengeChange{}, sweepSkip{}
		}
		c.Status, c.Updated = ChallengeExpired, now
		text := fmt.Sprintf("Your challenge %d to <@%s>, %s, expired unanswered.", c.ID, c.Challenged, describe(c))
		if c.Open() {
			text = fmt.Sprintf("Your open challenge %d, %s, expired: nobody accepted it.", c.ID, describe(c))
		}
		return ChallengeChange{Notifications: []Notification{{Kind: NotifyChallengeExpired, UserID: c.Challenger,
			GuildID: c.GuildID, ChannelID: c.ChannelID, ChallengeID: c.ID, Text: text, Created: now}}}, nil
	})
	return err
}

// NextWake returns when Sweep next has something to do: the earliest
// deadline, reminder or challenge expiry still to come (a time already
// past when something due was not done yet), or the zero time when
// nothing is scheduled. It reads every game with a deadline and every
// pending challenge.
func (s *Service) NextWake(ctx context.Context) (time.Time, error) {
	var next time.Time
	consider := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	games, err := s.games.GamesDue(ctx, farFuture())
	if err != nil {
		return time.Time{}, err
	}
	percents := reminderPercents{users: s.users}
	lead := longestLead()
	for _, g := range games {
		if !next.IsZero() && g.Deadline.Add(-lead).After(next) {
			break // games come by deadline: no later one can be earlier
		}
		if !ongoing(g) || g.Deadline.IsZero() {
			continue
		}
		consider(g.Deadline)
		if g.Reminded || g.ToAct == "" {
			continue
		}
		p, err := percents.get(ctx, g.ToAct)
		if err != nil {
			return time.Time{}, err
		}
		consider(remindAt(g, p))
	}
	challenges, err := s.challenges.ChallengesExpiring(ctx, farFuture())
	if err != nil {
		return time.Time{}, err
	}
	for _, c := range challenges {
		if c.Status == ChallengePending {
			consider(c.Expires)
			break // earliest first
		}
	}
	return next, nil
}

// roughDuration writes d for people, rounded down to a unit that suits
// it: "2 days", "5 hours", "17 minutes", "less than a minute".
func roughDuration(d time.Duration) string {
	plural := func(n int64, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch {
	case d >= 48*time.Hour:
		return plural(int64(d/(24*time.Hour)), "day")
	case d >= 2*time.Hour:
		return plural(int64(d/time.Hour), "hour")
	case d >= time.Minute:
		return plural(int64(d/time.Minute), "minute")
	}
	return "less than a minute"
}
