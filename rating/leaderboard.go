package rating

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Entry is one player of a pool as the leaderboard sees them: an id (the
// user id; the renderer looks up names), their standing now, and their
// standing at the start of the trend window (the zero Player when they
// had no rating then, which counts as the initial rating).
type Entry struct {
	ID     string
	Now    Player
	Before Player
}

// Row is one line of a leaderboard, ready to draw or print.
type Row struct {
	// Rank is 1 for the best ranked player; 0 for a player who is not
	// ranked (provisional), who can only appear as the caller's own line.
	Rank        int
	ID          string
	Rating      int  // rounded
	Provisional bool // shown with "?"
	Games       int
	// Trend is the change of the rounded rating over the trend window.
	Trend int
}

// Display is the row's rating as shown: "1523" or "1500?".
func (r Row) Display() string {
	if r.Provisional {
		return fmt.Sprintf("%d?", r.Rating)
	}
	return fmt.Sprintf("%d", r.Rating)
}

// Leaderboard is the top of a pool, with the caller's own line when they
// are not among the top.
type Leaderboard struct {
	Top []Row
	// Own is the caller's line when they have a rating in the pool but are
	// not in Top (ranked further down, or provisional and so unranked);
	// nil otherwise.
	Own *Row
}

// Leaderboard ranks entries at time at: players whose Live rating is not
// provisional, by rating (highest first), then more games first, then by
// id; the first top of them are Top. Players who have not played for long
// become provisional again as their deviation grows, and drop out of the
// ranks until they play. caller is the id of the player asking ("" for
// nobody). An invalid stored rating, a duplicate id or a negative top
// gives an error wrapping ErrInvalid.
func (s System) Leaderboard(entries []Entry, at time.Time, top int, caller string) (Leaderboard, error) {
	if top < 0 {
		return Leaderboard{}, fmt.Errorf("%w: leaderboard size %d is negative", ErrInvalid, top)
	}
	type ranked struct {
		row    Row
		rating float64
	}
	rows := make([]ranked, 0, len(entries))
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		if seen[e.ID] {
			return Leaderboard{}, fmt.Errorf("%w: player %q is listed twice", ErrInvalid, e.ID)
		}
		seen[e.ID] = true
		live, err := s.Live(e.Now, at)
		if err != nil {
			return Leaderboard{}, fmt.Errorf("player %q: %w", e.ID, err)
		}
		rows = append(rows, ranked{
			row: Row{
				ID:          e.ID,
				Rating:      Round(live.Rating),
				Provisional: s.Provisional(live),
				Games:       e.Now.Games,
				Trend:       Round(live.Rating) - Round(s.current(e.Before).Rating),
			},
			rating: live.Rating,
		})
	}
	slices.SortFunc(rows, func(a, b ranked) int {
		if a.row.Provisional != b.row.Provisional {
			if a.row.Provisional {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(b.rating, a.rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.row.Games, a.row.Games); c != 0 {
			return c
		}
		return cmp.Compare(a.row.ID, b.row.ID)
	})
	var lb Leaderboard
	for i := range rows {
		if !rows[i].row.Provisional {
			rows[i].row.Rank = i + 1
		}
		if rows[i].row.Rank > 0 && len(lb.Top) < top {
			lb.Top = append(lb.Top, rows[i].row)
		} else if caller != "" && rows[i].row.ID == caller {
			own := rows[i].row
			lb.Own = &own
		}
	}
	return lb, nil
}
