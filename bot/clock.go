package bot

import "time"

// ShiftClock moves the running turn's clock of g by d (see shiftClock):
// a vacation that starts or ends moves it by what is left of it.
func (g *Game) ShiftClock(d time.Duration) { ShiftClock(g, d) }

// shiftClock moves the running turn's clock of g by d: TurnStarted,
// Deadline and RemindAt (those set), or, in a paused game, the clock set
// aside.
func ShiftClock(g *Game, d time.Duration) {
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

// SetAway records when the vacation of userID, a player of g, ends at the
// latest (zero: no vacation); the feature that keeps vacations (package
// bot/prefs) sets it and moves the clock (ShiftClock).
func (g *Game) SetAway(userID string, until time.Time) {
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
func HoldClock(g *Game, now time.Time) {
	if until, away := g.OnVacation(g.ToAct, now); away && !g.Deadline.IsZero() {
		d := until.Sub(now)
		g.TurnStarted, g.Deadline = g.TurnStarted.Add(d), g.Deadline.Add(d)
	}
}

// setClockAside stops the clock of a paused g: Deadline and RemindAt
// move to PausedDeadline and PausedRemindAt.
func SetClockAside(g *Game) {
	g.PausedDeadline, g.PausedRemindAt = g.Deadline, g.RemindAt
	g.Deadline, g.RemindAt = time.Time{}, time.Time{}
}
