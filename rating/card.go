package rating

import (
	"fmt"
	"time"
)

// HistoryEntry is one rated game of a player in a pool, as their history
// keeps it: when it ended, the player's score, and their rating after it.
type HistoryEntry struct {
	At    time.Time
	Score float64
	After Glicko
}

// ChartPoint is one point of a rating chart: the rounded rating at the
// end of a day on which the player had rated games.
type ChartPoint struct {
	Day    time.Time // midnight UTC of the day
	Rating int
}

// Card is the numbers of a player card for one pool.
type Card struct {
	// Live is the rating now (deviation grown by inactivity); Display its
	// text ("1523", "1500?").
	Live    Glicko
	Display string
	// Games, Wins, Draws and Losses count the history's games (a score
	// above ½ is a win, below a loss).
	Games, Wins, Draws, Losses int
	// LongestStreak is the most wins in a row; CurrentStreak the wins in
	// a row up to the last game.
	LongestStreak, CurrentStreak int
	// Peak is the highest rounded rating reached after a game that left
	// the rating established (0 when it never was).
	Peak int
	// Chart is the rating history for a line chart, oldest first: one
	// point per day with games, thinned evenly (keeping the first and the
	// last) to at most the number of points asked for.
	Chart []ChartPoint
}

// Card summarises player p's history in a pool (their games in the order
// played) at time at, with a chart of at most maxPoints points (at least
// 2). History out of order, a score outside [0, 1], an invalid rating or
// maxPoints below 2 give an error wrapping ErrInvalid.
func (s System) Card(p Player, history []HistoryEntry, at time.Time, maxPoints int) (Card, error) {
	if maxPoints < 2 {
		return Card{}, fmt.Errorf("%w: a chart needs at least 2 points, not %d", ErrInvalid, maxPoints)
	}
	live, err := s.Live(p, at)
	if err != nil {
		return Card{}, err
	}
	c := Card{Live: live, Display: s.Display(live)}
	var days []ChartPoint
	for i, h := range history {
		if i > 0 && h.At.Before(history[i-1].At) {
			return Card{}, fmt.Errorf("%w: game %d of the history is older than game %d", ErrInvalid, i+1, i)
		}
		if !(h.Score >= 0 && h.Score <= 1) {
			return Card{}, fmt.Errorf("%w: game %d has score %v", ErrInvalid, i+1, h.Score)
		}
		if err := h.After.Validate(); err != nil {
			return Card{}, fmt.Errorf("game %d: %w", i+1, err)
		}
		c.Games++
		switch {
		case h.Score > Draw:
			c.Wins++
			c.CurrentStreak++
			c.LongestStreak = max(c.LongestStreak, c.CurrentStreak)
		case h.Score < Draw:
			c.Losses++
			c.CurrentStreak = 0
		default:
			c.Draws++
			c.CurrentStreak = 0
		}
		if !s.Provisional(h.After) {
			c.Peak = max(c.Peak, Round(h.After.Rating))
		}
		y, m, d := h.At.UTC().Date()
		day := ChartPoint{Day: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Rating: Round(h.After.Rating)}
		if n := len(days); n > 0 && days[n-1].Day.Equal(day.Day) {
			days[n-1] = day
		} else {
			days = append(days, day)
		}
	}
	c.Chart = thin(days, maxPoints)
	return c, nil
}

// thin keeps at most k of points, evenly spread, the first and the last
// always among them.
func thin(points []ChartPoint, k int) []ChartPoint {
	if len(points) <= k {
		return points
	}
	out := make([]ChartPoint, k)
	for i := range out {
		out[i] = points[i*(len(points)-1)/(k-1)]
	}
	return out
}
