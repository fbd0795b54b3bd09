package tournament

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error about bad input: an unknown or
// repeated player, a player twice in one round, an unknown result.
var ErrInvalid = errors.New("tournament: invalid input")

// ErrNoPairing is wrapped when no pairing satisfies the absolute rules
// (possible only after withdrawals, or with more rounds than
// MaxSwissRounds): the event should end.
var ErrNoPairing = errors.New("tournament: no pairing possible")

// Result is the result of a tournament game. It is persisted: the numbers
// are explicit and never change.
type Result uint8

const (
	// Pending: the game is not over.
	Pending Result = 0
	// WhiteWins, BlackWins and Draw: the game was played to its end.
	WhiteWins Result = 1
	BlackWins Result = 2
	Draw      Result = 3
	// WhiteWinsByForfeit and BlackWinsByForfeit: the loser forfeited
	// (left the event, or never played); scored as a win and a loss.
	WhiteWinsByForfeit Result = 4
	BlackWinsByForfeit Result = 5
	// DoubleForfeit: neither played; both score nothing.
	DoubleForfeit Result = 6
)

// Valid reports whether r is one of the results above.
func (r Result) Valid() bool { return r <= DoubleForfeit }

// Finished reports whether r is a final result.
func (r Result) Finished() bool { return r != Pending && r.Valid() }

// Forfeit reports whether r is a result without a game played to its end.
func (r Result) Forfeit() bool {
	return r == WhiteWinsByForfeit || r == BlackWinsByForfeit || r == DoubleForfeit
}

// halfPoints returns White's and Black's score in half points.
func (r Result) halfPoints() (white, black int) {
	switch r {
	case WhiteWins, WhiteWinsByForfeit:
		return 2, 0
	case BlackWins, BlackWinsByForfeit:
		return 0, 2
	case Draw:
		return 1, 1
	}
	return 0, 0
}

// String is the result as in PGN, with "+"/"-" for forfeits: "1-0",
// "0-1", "1/2-1/2", "+:-", "-:+", "-:-", "*".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	case WhiteWinsByForfeit:
		return "+:-"
	case BlackWinsByForfeit:
		return "-:+"
	case DoubleForfeit:
		return "-:-"
	case Pending:
		return "*"
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// Game is one pairing of a round and its result.
type Game struct {
	White, Black string
	Result       Result
}

// Round is one round: its games, and the player who has the bye ("" for
// none).
type Round struct {
	Games []Game
	Bye   string
}

// Finished reports whether every game of the round has a final result.
func (r Round) Finished() bool {
	for _, g := range r.Games {
		if !g.Result.Finished() {
			return false
		}
	}
	return true
}

// Kind is the tournament system. It is persisted.
type Kind uint8

const (
	RoundRobinKind Kind = 1
	SwissKind      Kind = 2
)

// String names the kind for people.
func (k Kind) String() string {
	switch k {
	case RoundRobinKind:
		return "round-robin"
	case SwissKind:
		return "Swiss"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ByePoints is what a Swiss bye scores (a full point, as the FIDE and
// lichess pairing-allocated bye); a round-robin bye scores nothing.
func (k Kind) ByePoints() float64 {
	if k == SwissKind {
		return 1
	}
	return 0
}

// index checks players (non-empty, distinct ids) and returns their seed
// index (0 for the first).
func index(players []string) (map[string]int, error) {
	idx := make(map[string]int, len(players))
	for i, p := range players {
		if p == "" {
			return nil, fmt.Errorf("%w: player %d has an empty id", ErrInvalid, i+1)
		}
		if _, dup := idx[p]; dup {
			return nil, fmt.Errorf("%w: player %q is listed twice", ErrInvalid, p)
		}
		idx[p] = i
	}
	return idx, nil
}

// checkRounds checks that every round names only known players, each at
// most once, with valid results.
func checkRounds(idx map[string]int, rounds []Round) error {
	for ri, r := range rounds {
		seen := map[string]bool{}
		use := func(p string) error {
			if _, ok := idx[p]; !ok {
				return fmt.Errorf("%w: round %d names %q, who is not in the event", ErrInvalid, ri+1, p)
			}
			if seen[p] {
				return fmt.Errorf("%w: %q appears twice in round %d", ErrInvalid, p, ri+1)
			}
			seen[p] = true
			return nil
		}
		for _, g := range r.Games {
			if err := use(g.White); err != nil {
				return err
			}
			if err := use(g.Black); err != nil {
				return err
			}
			if !g.Result.Valid() {
				return fmt.Errorf("%w: round %d: %s-%s has an unknown result %d", ErrInvalid, ri+1, g.White, g.Black, g.Result)
			}
		}
		if r.Bye != "" {
			if err := use(r.Bye); err != nil {
				return err
			}
		}
	}
	return nil
}
