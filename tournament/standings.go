package tournament

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Standing is one player's line in the standings.
type Standing struct {
	// Rank is 1 for the leader; players equal on points and every
	// tiebreak share a rank.
	Rank int
	ID   string
	// Seed is the player's place in the seed order, from 1.
	Seed   int
	Points float64
	// Played counts the games with a final result (forfeits included);
	// Wins those won (forfeit wins included); Byes the byes.
	Played, Wins, Byes int
	// Tiebreaks holds the values of TiebreakNames(kind), in that order.
	Tiebreaks []float64
}

// TiebreakNames returns the names of the tiebreaks of kind, in the order
// they are applied after points: Sonneborn-Berger and wins for a
// round-robin; Buchholz cut-1, Buchholz and Sonneborn-Berger for a Swiss.
func TiebreakNames(kind Kind) []string {
	if kind == SwissKind {
		return []string{"Buchholz cut-1", "Buchholz", "Sonneborn-Berger"}
	}
	return []string{"Sonneborn-Berger", "Wins"}
}

// Standings ranks the players of an event of the given kind (players in
// seed order) from its rounds so far: by points, then the tiebreaks of
// TiebreakNames(kind), then seed. Pending games count nothing yet. Bad
// ids, a player twice in a round, an unknown result or an unknown kind
// give an error wrapping ErrInvalid.
func Standings(kind Kind, players []string, rounds []Round) ([]Standing, error) {
	if kind != RoundRobinKind && kind != SwissKind {
		return nil, fmt.Errorf("%w: unknown tournament kind %d", ErrInvalid, kind)
	}
	idx, err := index(players)
	if err != nil {
		return nil, err
	}
	if err := checkRounds(idx, rounds); err != nil {
		return nil, err
	}
	n := len(players)
	rows := make([]Standing, n)
	for i, p := range players {
		rows[i] = Standing{ID: p, Seed: i + 1}
	}
	bye := kind.ByePoints()
	for _, r := range rounds {
		for _, g := range r.Games {
			if !g.Result.Finished() {
				continue
			}
			w, b := &rows[idx[g.White]], &rows[idx[g.Black]]
			sw, sb := g.Result.halfPoints()
			w.Points += float64(sw) / 2
			b.Points += float64(sb) / 2
			w.Played++
			b.Played++
			if sw == 2 {
				w.Wins++
			}
			if sb == 2 {
				b.Wins++
			}
		}
		if r.Bye != "" {
			p := &rows[idx[r.Bye]]
			p.Points += bye
			p.Byes++
		}
	}
	// Tiebreaks, from the final points of everyone.
	sb := make([]float64, n)
	buchholz := make([][]float64, n)
	for _, r := range rounds {
		for _, g := range r.Games {
			if !g.Result.Finished() {
				continue
			}
			w, b := idx[g.White], idx[g.Black]
			sw, sbl := g.Result.halfPoints()
			sb[w] += rows[b].Points * float64(sw) / 2
			sb[b] += rows[w].Points * float64(sbl) / 2
			buchholz[w] = append(buchholz[w], rows[b].Points)
			buchholz[b] = append(buchholz[b], rows[w].Points)
		}
		if r.Bye != "" {
			p := idx[r.Bye]
			buchholz[p] = append(buchholz[p], rows[p].Points)
		}
	}
	for i := range rows {
		if kind == SwissKind {
			total, lowest := 0.0, math.Inf(1)
			for _, x := range buchholz[i] {
				total += x
				lowest = math.Min(lowest, x)
			}
			cut := 0.0
			if len(buchholz[i]) > 0 {
				cut = total - lowest
			}
			rows[i].Tiebreaks = []float64{cut, total, sb[i]}
		} else {
			rows[i].Tiebreaks = []float64{sb[i], float64(rows[i].Wins)}
		}
	}
	equal := func(a, b Standing) bool {
		return a.Points == b.Points && slices.Equal(a.Tiebreaks, b.Tiebreaks)
	}
	slices.SortFunc(rows, func(a, b Standing) int {
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		for k := range a.Tiebreaks {
			if c := cmp.Compare(b.Tiebreaks[k], a.Tiebreaks[k]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Seed, b.Seed)
	})
	for i := range rows {
		if i > 0 && equal(rows[i], rows[i-1]) {
			rows[i].Rank = rows[i-1].Rank
		} else {
			rows[i].Rank = i + 1
		}
	}
	return rows, nil
}

// FormatPoints writes a score as people read it: "2½", "½", "3", and a
// value that is not a whole number of halves (a Sonneborn-Berger of
// quarters) with two decimals: "6.25".
func FormatPoints(x float64) string {
	whole, frac := math.Modf(x)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "?"
	case frac == 0:
		return fmt.Sprintf("%d", int64(whole))
	case math.Abs(frac) == 0.5 && whole == 0:
		if x < 0 {
			return "-½"
		}
		return "½"
	case math.Abs(frac) == 0.5:
		return fmt.Sprintf("%d½", int64(whole))
	}
	return fmt.Sprintf("%.2f", x)
}
