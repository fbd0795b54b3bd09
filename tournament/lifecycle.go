package tournament

import (
	"errors"
	"fmt"
	"slices"
)

// Status is where an event is in its life. It is persisted.
type Status uint8

const (
	// Open: players join and leave; nothing is paired yet.
	Open Status = 1
	// Running: rounds are paired and played.
	Running Status = 2
	// Paused: like Running, but no new round starts until it resumes.
	Paused Status = 3
	// Finished: every round is over (or no further pairing was possible).
	Finished Status = 4
	// Cancelled: stopped by the organiser; nothing more happens.
	Cancelled Status = 5
)

// String names the status for people.
func (s Status) String() string {
	switch s {
	case Open:
		return "open"
	case Running:
		return "running"
	case Paused:
		return "paused"
	case Finished:
		return "finished"
	case Cancelled:
		return "cancelled"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MaxSwissPlayers bounds a Swiss field.
const MaxSwissPlayers = 500

// Event is the state of one tournament: who plays, what has been paired
// and what the results are. Its methods never change the receiver: each
// returns the changed copy (or an error wrapping ErrInvalid that names
// what is wrong, and the event unchanged), so that a store can load an
// event, apply a method and compare-and-swap the result.
type Event struct {
	Kind Kind
	// Rounds is the number of rounds: chosen at creation for a Swiss, set
	// by Start for a round-robin.
	Rounds int
	Status Status
	// Players are in join order while Open and in seed order from Start
	// on (best first).
	Players []string
	// Withdrawn lists the players who left after the start, in order.
	Withdrawn []string
	// Schedule holds the rounds paired so far: every round of a
	// round-robin from the start (all played at once), the rounds of a
	// Swiss one by one.
	Schedule []Round
}

// NewEvent returns an Open event of kind; rounds is the number of Swiss
// rounds (at least 1) and must be 0 for a round-robin, whose length
// follows from the field.
func NewEvent(kind Kind, rounds int) (Event, error) {
	switch {
	case kind == RoundRobinKind && rounds != 0:
		return Event{}, fmt.Errorf("%w: a round-robin has one round per opponent; do not give a number of rounds", ErrInvalid)
	case kind == SwissKind && rounds < 1:
		return Event{}, fmt.Errorf("%w: a Swiss needs at least one round", ErrInvalid)
	case kind != RoundRobinKind && kind != SwissKind:
		return Event{}, fmt.Errorf("%w: unknown tournament kind %d", ErrInvalid, kind)
	}
	return Event{Kind: kind, Rounds: rounds, Status: Open}, nil
}

// clone returns a deep copy of e, so that changes to it leave e alone.
func (e Event) clone() Event {
	c := e
	c.Players = slices.Clone(e.Players)
	c.Withdrawn = slices.Clone(e.Withdrawn)
	c.Schedule = nil
	for _, r := range e.Schedule {
		c.Schedule = append(c.Schedule, Round{Games: slices.Clone(r.Games), Bye: r.Bye})
	}
	return c
}

// maxPlayers is the largest field of e's kind.
func (e Event) maxPlayers() int {
	if e.Kind == RoundRobinKind {
		return MaxRoundRobinPlayers
	}
	return MaxSwissPlayers
}

// Join adds player to an Open event; a full event, a player already in
// it or an event past its start is an error.
func (e Event) Join(player string) (Event, error) {
	switch {
	case e.Status != Open:
		return e, fmt.Errorf("%w: the tournament is %s; players join only before it starts", ErrInvalid, e.Status)
	case player == "":
		return e, fmt.Errorf("%w: empty player id", ErrInvalid)
	case slices.Contains(e.Players, player):
		return e, fmt.Errorf("%w: %s has already joined", ErrInvalid, player)
	case len(e.Players) >= e.maxPlayers():
		return e, fmt.Errorf("%w: the tournament is full (%d players)", ErrInvalid, e.maxPlayers())
	}
	c := e.clone()
	c.Players = append(c.Players, player)
	return c, nil
}

// Leave takes player out. Before the start they are simply removed. After
// it they withdraw: every game of theirs without a result is lost by
// forfeit (a double forfeit when the opponent has withdrawn too), and they
// are paired no more; their finished games stand. Leaving twice, or a
// player not in the event, is an error; so is leaving a finished or
// cancelled event.
func (e Event) Leave(player string) (Event, error) {
	i := slices.Index(e.Players, player)
	switch {
	case i < 0:
		return e, fmt.Errorf("%w: %s is not in the tournament", ErrInvalid, player)
	case e.Status == Finished || e.Status == Cancelled:
		return e, fmt.Errorf("%w: the tournament is %s", ErrInvalid, e.Status)
	case slices.Contains(e.Withdrawn, player):
		return e, fmt.Errorf("%w: %s has already left", ErrInvalid, player)
	}
	c := e.clone()
	if c.Status == Open {
		c.Players = slices.Delete(c.Players, i, i+1)
		return c, nil
	}
	c.Withdrawn = append(c.Withdrawn, player)
	for r := range c.Schedule {
		for g, game := range c.Schedule[r].Games {
			if game.Result != Pending {
				continue
			}
			switch player {
			case game.White:
				c.Schedule[r].Games[g].Result = BlackWinsByForfeit
				if slices.Contains(e.Withdrawn, game.Black) {
					c.Schedule[r].Games[g].Result = DoubleForfeit
				}
			case game.Black:
				c.Schedule[r].Games[g].Result = WhiteWinsByForfeit
				if slices.Contains(e.Withdrawn, game.White) {
					c.Schedule[r].Games[g].Result = DoubleForfeit
				}
			}
		}
	}
	return c, nil
}

// Start closes entries and pairs: seeds must be the joined players in
// seed order (best first, by rating as the caller decides). A
// round-robin gets its whole schedule, a Swiss its first round; the
// games to create are those of Current(). Fewer than MinPlayers, more
// Swiss rounds than MaxSwissRounds allows for the field, or seeds that
// are not exactly the joined players are errors.
func (e Event) Start(seeds []string) (Event, error) {
	if e.Status != Open {
		return e, fmt.Errorf("%w: the tournament is %s; only an open one can start", ErrInvalid, e.Status)
	}
	if len(seeds) != len(e.Players) || !sameSet(seeds, e.Players) {
		return e, fmt.Errorf("%w: the seed order must list exactly the %d joined players", ErrInvalid, len(e.Players))
	}
	n := len(seeds)
	if n < MinPlayers {
		return e, fmt.Errorf("%w: a tournament needs at least %d players; %d joined", ErrInvalid, MinPlayers, n)
	}
	c := e.clone()
	c.Players = slices.Clone(seeds)
	if c.Kind == RoundRobinKind {
		rounds, err := RoundRobin(c.Players)
		if err != nil {
			return e, err
		}
		c.Schedule, c.Rounds, c.Status = rounds, len(rounds), Running
		return c, nil
	}
	if c.Rounds > MaxSwissRounds(n) {
		return e, fmt.Errorf("%w: a Swiss of %d players can have at most %d rounds, not %d", ErrInvalid, n, MaxSwissRounds(n), c.Rounds)
	}
	p, err := PairSwiss(c.Players, nil, nil)
	if err != nil {
		return e, err
	}
	c.Schedule, c.Status = []Round{p.Round}, Running
	return c, nil
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), y)
}

// Current returns the rounds being played: every unfinished round of a
// round-robin (all run at once), the last paired round of a Swiss while
// it is unfinished, none otherwise. Round numbers count from 1.
func (e Event) Current() []int {
	var out []int
	for i, r := range e.Schedule {
		if !r.Finished() {
			out = append(out, i+1)
		}
	}
	return out
}

// Record sets the result of the game between white and black in round
// (from 1). The game must exist and have no result yet; the event must be
// running or paused; Pending is not a result.
func (e Event) Record(round int, white, black string, result Result) (Event, error) {
	switch {
	case e.Status != Running && e.Status != Paused:
		return e, fmt.Errorf("%w: the tournament is %s", ErrInvalid, e.Status)
	case round < 1 || round > len(e.Schedule):
		return e, fmt.Errorf("%w: there is no round %d", ErrInvalid, round)
	case !result.Finished():
		return e, fmt.Errorf("%w: %v is not a final result", ErrInvalid, result)
	}
	for g, game := range e.Schedule[round-1].Games {
		if game.White != white || game.Black != black {
			continue
		}
		if game.Result != Pending {
			return e, fmt.Errorf("%w: %s-%s of round %d already has the result %v", ErrInvalid, white, black, round, game.Result)
		}
		c := e.clone()
		c.Schedule[round-1].Games[g].Result = result
		return c, nil
	}
	return e, fmt.Errorf("%w: round %d has no game %s (White) against %s (Black)", ErrInvalid, round, white, black)
}

// Advance moves a running event on once its current games are over:
// a Swiss gets its next round paired (its games are those of Current()),
// or finishes after its last round or when no pairing is possible any
// more; a round-robin finishes when every game is over. It reports
// whether anything changed; a paused, open, finished or cancelled event,
// or one with games still going, is returned as it is.
func (e Event) Advance() (Event, bool, error) {
	if e.Status != Running || len(e.Current()) > 0 {
		return e, false, nil
	}
	c := e.clone()
	active := len(c.Players) - len(c.Withdrawn)
	if c.Kind == RoundRobinKind || len(c.Schedule) >= c.Rounds || active < 2 {
		c.Status = Finished
		return c, true, nil
	}
	p, err := PairSwiss(c.Players, c.Schedule, c.Withdrawn)
	if errors.Is(err, ErrNoPairing) {
		c.Status = Finished
		return c, true, nil
	}
	if err != nil {
		return e, false, err
	}
	c.Schedule = append(c.Schedule, p.Round)
	return c, true, nil
}

// Pause stops new rounds from starting (games already going go on);
// Resume undoes it. Each is an error in any other state.
func (e Event) Pause() (Event, error) {
	if e.Status != Running {
		return e, fmt.Errorf("%w: only a running tournament can be paused; this one is %s", ErrInvalid, e.Status)
	}
	c := e.clone()
	c.Status = Paused
	return c, nil
}

// Resume restarts a paused event; call Advance next.
func (e Event) Resume() (Event, error) {
	if e.Status != Paused {
		return e, fmt.Errorf("%w: the tournament is %s, not paused", ErrInvalid, e.Status)
	}
	c := e.clone()
	c.Status = Running
	return c, nil
}

// Cancel stops the event for good; its games without a result stay as
// they are for the caller to abort. A finished or cancelled event cannot
// be cancelled.
func (e Event) Cancel() (Event, error) {
	if e.Status == Finished || e.Status == Cancelled {
		return e, fmt.Errorf("%w: the tournament is already %s", ErrInvalid, e.Status)
	}
	c := e.clone()
	c.Status = Cancelled
	return c, nil
}

// Standings returns the event's standings so far (see the package
// function Standings).
func (e Event) Standings() ([]Standing, error) { return Standings(e.Kind, e.Players, e.Schedule) }

// Crosstable returns the event's crosstable so far.
func (e Event) Crosstable() (Crosstable, error) { return NewCrosstable(e.Kind, e.Players, e.Schedule) }

// Winners returns the players ranked first in a finished event (more than
// one when they share first place on points and every tiebreak), or nil
// for an event that is not finished.
func (e Event) Winners() ([]string, error) {
	if e.Status != Finished {
		return nil, nil
	}
	st, err := e.Standings()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range st {
		if s.Rank == 1 {
			out = append(out, s.ID)
		}
	}
	return out, nil
}
