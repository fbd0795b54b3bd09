package gameplay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// SweepReport counts what one Sweep did and says when the next is due.
type SweepReport struct {
	TimedOut int // games lost on time by the player to act
	Aborted  int // games aborted because time ran out before both players had moved
	Reminded int // players reminded that their time runs out
	Expired  int // challenges expired unanswered

	// Next is when the following Sweep has something to do, as NextWake
	// says at the end of this one: zero when nothing is scheduled, a time
	// already past when something due is left (a record this sweep could
	// not change, when it returns an error too, or one that came due
	// meanwhile).
	Next time.Time
}

// Total returns how many things the sweep did.
func (r SweepReport) Total() int { return r.TimedOut + r.Aborted + r.Reminded + r.Expired }

// sweepSkip is what a sweep's update function returns when the record
// changed since it was listed and there is nothing left to do: the update
// then changes nothing.
type sweepSkip struct{}

func (sweepSkip) Error() string { return "nothing to do" }

// longestTurn returns the longest time a player can have for a turn.
func longestTurn() time.Duration {
	return time.Duration(slices.Max(bot.AllowedDays)) * 24 * time.Hour
}

// longestLead returns how long before a deadline a reminder can come at
// the most: 99% of the longest turn.
func longestLead() time.Duration { return longestTurn() / 100 * 99 }

// turnLength returns the time the player to act in g has for this turn:
// from TurnStarted to Deadline, or DaysPerMove when the turn's start was
// not recorded.
func turnLength(g *bot.Game) time.Duration {
	if !g.TurnStarted.IsZero() && g.TurnStarted.Before(g.Deadline) {
		return g.Deadline.Sub(g.TurnStarted)
	}
	return time.Duration(g.DaysPerMove) * 24 * time.Hour
}

// RemindTime returns when the player to act in g, who wants to be
// reminded when percent of their time is left (Preferences.ReminderPercent),
// is to be reminded this turn: percent of the turn (TurnStarted to
// Deadline, or DaysPerMove when the start is not recorded) before the
// Deadline, never more than 99% of the longest turn allowed before it.
// The zero time when never: reminders off (percent 0), no deadline, no
// player to act, already reminded this turn (Reminded), or g over. This is
// what Game.RemindAt holds; stores use it to give RemindAt to records
// written before it existed.
func RemindTime(g *bot.Game, percent int) time.Time {
	if percent <= 0 || !remindable(g) {
		return time.Time{}
	}
	return g.Deadline.Add(-min(turnLength(g)/100*time.Duration(percent), longestLead()))
}

// remindable reports whether the player to act in g can be reminded this
// turn, given a reminder setting that is not off.
func remindable(g *bot.Game) bool {
	return ongoing(g) && !g.Reminded && !g.Deadline.IsZero() && g.ToAct != "" && turnLength(g) > 0
}

// Reminders are the reminder settings (Preferences.ReminderPercent)
// of the players an update may start a turn for, by user ID, read before
// the update so that its function reads no store (GameStore.UpdateGame).
// A user it does not hold counts as DefaultReminderPercent.
type Reminders map[string]int

// percent returns userID's reminder setting.
func (r Reminders) percent(userID string) int {
	if p, ok := r[userID]; ok {
		return p
	}
	return bot.DefaultReminderPercent
}

// ReadReminders reads the reminder settings of users from the UserStore,
// before an update. A setting that cannot be read counts as the default
// (DefaultReminderPercent): a reminder is not worth refusing a move for.
func (s *Service) ReadReminders(ctx context.Context, users ...string) Reminders {
	r := Reminders{}
	for _, u := range users {
		if _, done := r[u]; done || u == "" {
			continue
		}
		if p, err := s.users.Preferences(ctx, u); err == nil {
			r[u] = p.ReminderPercent
		}
	}
	return r
}

// gameReminders reads, before an update of game id, the reminder settings
// of its players. Who they are comes from the replay cache when it holds
// a version of the game (the two players of a game never change; only
// which colour each plays is settled by a pre-game choice), else from the
// game's record. A game that cannot be read gives no settings: the
// update that follows reports what is wrong with it.
func (s *Service) gameReminders(ctx context.Context, id uint64) Reminders {
	if white, black, ok := s.replays.players(id); ok {
		return s.ReadReminders(ctx, white, black)
	}
	g, err := s.games.Game(ctx, id)
	if err != nil {
		return Reminders{}
	}
	return s.ReadReminders(ctx, g.White, g.Black)
}

// scheduleReminder sets g.RemindAt for the turn of g.ToAct as g now
// stands (RemindTime), with the player's setting from r, read before the
// update: it reads no store, so it may run inside an update function.
func scheduleReminder(g *bot.Game, r Reminders) {
	g.RemindAt = time.Time{}
	if !remindable(g) {
		return
	}
	g.RemindAt = RemindTime(g, r.percent(g.ToAct))
}

// startTurn starts the clock of g.ToAct's turn at now: TurnStarted now,
// Reminded false, Deadline DaysPerMove from now (none when unlimited),
// RemindAt as their reminder setting in r says.
func startTurn(g *bot.Game, now time.Time, r Reminders) {
	g.TurnStarted, g.Reminded, g.Deadline = now, false, deadline(g, now)
	bot.HoldClock(g, now)
	scheduleReminder(g, r)
	if !g.PausedAt.IsZero() {
		bot.SetClockAside(g)
	}
}

// stopClock clears what runs while a game is played, for a game that is
// over: the player to act, the deadline, the reminder, a standing draw
// offer and takeback request, and the conditional lines (Forecast).
func stopClock(g *bot.Game) {
	g.ToAct, g.Deadline, g.RemindAt, g.DrawOffer, g.Takeback = "", time.Time{}, time.Time{}, "", ""
	g.Forecasts = nil
	g.PauseOffer, g.PausedAt, g.PausedDeadline, g.PausedRemindAt = "", time.Time{}, time.Time{}, time.Time{}
}

// A Sweeper is a feature's part of Sweep. Sweep calls it after the
// games and challenges, and NextWake asks it when it is next due.
type Sweeper interface {
	// Sweep does what is due for the feature at now, each change one
	// transaction that checks it is still due (as Sweep's own), and
	// returns its errors joined, each naming the record.
	Sweep(ctx context.Context, now time.Time) error
	// NextWake returns when the feature next has something due, the zero
	// time when nothing is scheduled, reading only where indexes start.
	NextWake(ctx context.Context) (time.Time, error)
}

// AddSweeper registers w with Sweep and NextWake; as AddFinisher, while
// the Service is built, before it serves.
func (s *Service) AddSweeper(w Sweeper) { s.sweepers = append(s.sweepers, w) }

// Sweep does what the clock asks for, as of the Service's time now:
//
//   - a game whose Deadline has come is lost on time by the player to act
//     (Result for the opponent, Reason "timeout"), or aborted when the
//     players had not both moved yet (BothMoved; this includes a pre-game
//     choice not made in time); both players are notified;
//   - the player to act in a game whose time is running out gets one
//     NotifyReminder per turn (Game.Reminded), when the share of the turn
//     left reaches their Preferences.ReminderPercent (none when 0): at
//     Game.RemindAt;
//   - a pending challenge whose Expires has come expires
//     (ChallengeExpired) and its challenger is notified;
//   - then the features' sweepers (AddSweeper) do what is due for them
//     (package bot/tournaments: open tournaments whose start time has
//     come start, running tournaments record the results a crash kept
//     from being recorded).
//
// Each change is one store transaction that checks again that it is
// still due, so a move made meanwhile wins and running Sweep again (or
// two at once) does nothing twice. Sweep goes on past a record it cannot
// change, or whose handling panics (a *PanicError naming the record), and
// returns what it did with the errors joined. It holds
// nothing in memory: everything it needs is in the stores.
//
// Sweep reads only what is due, from the stores' time indexes
// (GamesDue, GamesToRemind and ChallengesExpiring up to now), and then
// where each index starts for the report's Next: a wake-up costs a few
// index lookups plus the work due, however many games are running.
func (s *Service) Sweep(ctx context.Context) (SweepReport, error) {
	now := s.now()
	var rep SweepReport
	var errs []error
	games, err := s.games.GamesDue(ctx, now)
	if err != nil {
		errs = append(errs, fmt.Errorf("games due: %w", err))
	}
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		switch out, err := recovering(func() (timeOutcome, error) { return s.timeOut(ctx, g.ID, now) }); {
		case errors.Is(err, sweepSkip{}):
		case err != nil:
			errs = append(errs, fmt.Errorf("game %d: time out: %w", g.ID, err))
		case out == endAborted:
			rep.Aborted++
		case out == endTimedOut:
			rep.TimedOut++
		}
	}
	// Listed after the time-outs, which took their games off the list.
	games, err = s.games.GamesToRemind(ctx, now)
	if err != nil {
		errs = append(errs, fmt.Errorf("games to remind: %w", err))
	}
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		switch sent, err := recovering(func() (bool, error) { return s.remind(ctx, g.ID, now) }); {
		case errors.Is(err, sweepSkip{}):
		case err != nil:
			errs = append(errs, fmt.Errorf("game %d: reminder: %w", g.ID, err))
		case sent:
			rep.Reminded++
		}
	}
	challenges, err := s.challenges.ChallengesExpiring(ctx, now)
	if err != nil {
		errs = append(errs, fmt.Errorf("challenges expiring: %w", err))
	}
	for _, c := range challenges {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		_, err := recovering(func() (struct{}, error) { return struct{}{}, s.expire(ctx, c.ID, now) })
		switch {
		case errors.Is(err, sweepSkip{}):
		case err != nil:
			errs = append(errs, fmt.Errorf("challenge %d: expire: %w", c.ID, err))
		default:
			rep.Expired++
		}
	}
	for _, w := range s.sweepers {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if err := w.Sweep(ctx, now); err != nil {
			errs = append(errs, err)
		}
	}
	next, err := s.NextWake(ctx)
	if err != nil {
		errs = append(errs, err)
	}
	rep.Next = next
	return rep, errors.Join(errs...)
}

// timeOutcome is what timeOut did.
type timeOutcome uint8

const (
	endTimedOut timeOutcome = iota + 1 // the player to act lost on time
	endAborted                         // the game was aborted on time
	endRepaired                        // a game already over still had a clock: cleared
)

// timeOut ends game id on time if its deadline has come by now: a loss
// for the player to act, or an abort when the players have not both moved.
// A game over that still has a deadline or reminder (a record no version
// of the Service writes) has them cleared, so that the indexes let go of
// it. sweepSkip{} when the game is not due.
func (s *Service) timeOut(ctx context.Context, id uint64, now time.Time) (out timeOutcome, err error) {
	_, err = s.updateGame(ctx, id, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		out = 0
		if !ongoing(g) && (!g.Deadline.IsZero() || !g.RemindAt.IsZero()) {
			g.Deadline, g.RemindAt = time.Time{}, time.Time{}
			out = endRepaired
			return nil, nil
		}
		if !ongoing(g) || g.Deadline.IsZero() || now.Before(g.Deadline) {
			return nil, sweepSkip{}
		}
		g.Updated = now
		moved, err := s.bothMoved(g)
		if err != nil { // a record that does not replay: as BothMoved says
			moved = len(g.Moves) >= 2
		}
		if g.Status == bot.GameSetup || !moved || !g.IsPlayer(g.ToAct) {
			out = endAborted
			return abortOnTime(g, now), nil
		}
		r := bot.WhiteWins
		if g.ToAct == g.White {
			r = bot.BlackWins
		}
		out = endTimedOut
		return s.finish(g, r, ReasonTimeout, now), nil
	})
	return out, err
}

// abortOnTime ends g without a result because its player to act let the
// time run out before both players had moved, and returns the
// notifications to both players.
func abortOnTime(g *bot.Game, now time.Time) []bot.Notification {
	late := g.ToAct
	reason := ReasonNoMove
	if g.Status == bot.GameSetup {
		reason = ReasonNoChoice
	}
	g.Status, g.Result, g.Reason = bot.GameAborted, bot.NoResult, reason
	stopClock(g)
	text := fmt.Sprintf("Game %d is aborted: <@%s> did not play in time, before both players had moved.", g.ID, late)
	var told []bot.Notification
	for _, u := range []string{g.White, g.Black} {
		told = append(told, bot.Notification{Kind: bot.NotifyGameOver, UserID: u, GuildID: g.GuildID,
			ChannelID: g.ChannelID, GameID: g.ID, Text: text, Created: now})
	}
	return told
}

// remind sends the player to act in game id the reminder of this turn if
// its RemindAt has come by now and the deadline has not (then the game
// is timeOut's), and reports whether it did. A RemindAt left on a game
// that cannot be reminded (over, reminded already: a record no version
// of the Service writes) is cleared, without a reminder. sweepSkip{} when
// nothing is due (any more).
func (s *Service) remind(ctx context.Context, id uint64, now time.Time) (sent bool, err error) {
	// A reminder is not part of play: the game's version stays, so the
	// buttons the player saw still work.
	_, err = s.games.AnnotateGame(ctx, id, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		sent = false
		if a.RemindAt.IsZero() || now.Before(a.RemindAt) {
			return nil, sweepSkip{}
		}
		if !remindable(&g) {
			a.RemindAt = time.Time{}
			return nil, nil
		}
		if !now.Before(g.Deadline) {
			return nil, sweepSkip{}
		}
		a.Reminded, a.RemindAt, sent = true, time.Time{}, true
		left := g.Deadline.Sub(now)
		text := fmt.Sprintf("Reminder: it is your turn in game %d (%s), %s left: play before %s.",
			g.ID, s.VariantName(g.Variant, g.Options), roughDuration(left), g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
		if g.Status == bot.GameSetup {
			text = fmt.Sprintf("Reminder: game %d (%s) waits for your choice, %s left: choose before %s.",
				g.ID, s.VariantName(g.Variant, g.Options), roughDuration(left), g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
		}
		return []bot.Notification{{Kind: bot.NotifyReminder, UserID: g.ToAct, GuildID: g.GuildID, ChannelID: g.ChannelID,
			GameID: g.ID, Text: text, Created: now}}, nil
	})
	return sent, err
}

// expire expires challenge id if it is pending and its time has come by
// now, notifying the challenger. sweepSkip{} when it is not (any more).
func (s *Service) expire(ctx context.Context, id uint64, now time.Time) error {
	_, _, err := s.challenges.UpdateChallenge(ctx, id, bot.AnyVersion, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		if c.Status != bot.ChallengePending || now.Before(c.Expires) {
			return bot.ChallengeChange{}, sweepSkip{}
		}
		c.Status, c.Updated = bot.ChallengeExpired, now
		text := fmt.Sprintf("Your challenge %d to <@%s>, %s, expired unanswered.", c.ID, c.Challenged, s.describe(c))
		if c.Open() {
			text = fmt.Sprintf("Your open challenge %d, %s, expired: nobody accepted it.", c.ID, s.describe(c))
		}
		return bot.ChallengeChange{Notifications: []bot.Notification{{Kind: bot.NotifyChallengeExpired, UserID: c.Challenger,
			GuildID: c.GuildID, ChannelID: c.ChannelID, ChallengeID: c.ID, Text: text, Created: now}}}, nil
	})
	return err
}

// NextWake returns when Sweep next has something to do: the earliest
// deadline, reminder (Game.RemindAt) or pending challenge's expiry (a
// time already past when something due was not done yet), or the zero
// time when nothing is scheduled, the sweepers' NextWake included. It
// reads no record, only where the stores' time indexes start
// (GameStore.EarliestGameTimes, ChallengeStore.EarliestExpiry), so its
// cost does not grow with the number of games.
func (s *Service) NextWake(ctx context.Context) (time.Time, error) {
	deadline, remindAt, err := s.games.EarliestGameTimes(ctx)
	if err != nil {
		return time.Time{}, err
	}
	expiry, err := s.challenges.EarliestExpiry(ctx)
	if err != nil {
		return time.Time{}, err
	}
	times := []time.Time{deadline, remindAt, expiry}
	for _, w := range s.sweepers {
		t, err := w.NextWake(ctx)
		if err != nil {
			return time.Time{}, err
		}
		times = append(times, t)
	}
	var next time.Time
	for _, t := range times {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
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
