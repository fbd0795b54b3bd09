package tournament

import "fmt"

// Bounds of a round-robin: below three it is a match, above
// MaxRoundRobinPlayers each player would have too many correspondence
// games at once.
const (
	MinPlayers           = 3
	MaxRoundRobinPlayers = 20
)

// RoundRobin returns every round of a single round-robin between players
// (in seed order: players[0] is number 1 of the Berger table), all games
// Pending: n-1 rounds for n players, n rounds with one bye each for an odd
// n. Fewer than MinPlayers, more than MaxRoundRobinPlayers or a bad id
// give an error wrapping ErrInvalid.
func RoundRobin(players []string) ([]Round, error) {
	if _, err := index(players); err != nil {
		return nil, err
	}
	if len(players) < MinPlayers || len(players) > MaxRoundRobinPlayers {
		return nil, fmt.Errorf("%w: a round-robin needs %d to %d players, not %d", ErrInvalid, MinPlayers, MaxRoundRobinPlayers, len(players))
	}
	n := len(players)
	if n%2 == 1 {
		n++ // number n is the phantom: its opponent has the bye
	}
	m := n - 1
	// name returns the id of Berger number k (1..n); "" for the phantom.
	name := func(k int) string {
		if k > len(players) {
			return ""
		}
		return players[k-1]
	}
	// wrap maps any integer onto 1..m cyclically.
	wrap := func(k int) int { return ((k-1)%m+m)%m + 1 }
	rounds := make([]Round, 0, m)
	for r := 1; r <= m; r++ {
		a := wrap(1 + (r-1)*(n/2))
		var rd Round
		add := func(white, black int) {
			w, b := name(white), name(black)
			switch {
			case w == "":
				rd.Bye = b
			case b == "":
				rd.Bye = w
			default:
				rd.Games = append(rd.Games, Game{White: w, Black: b})
			}
		}
		// Board 1: the last number alternates colours, Black in odd rounds.
		if r%2 == 1 {
			add(a, n)
		} else {
			add(n, a)
		}
		for k := 1; k < n/2; k++ {
			add(wrap(a+k), wrap(a-k))
		}
		rounds = append(rounds, rd)
	}
	return rounds, nil
}
