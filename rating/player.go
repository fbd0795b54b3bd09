package rating

import (
	"fmt"
	"time"
)

// Player is one player's standing in one pool: their rating as of their
// last rated game, how many rated games they have played there, and when
// the last one ended. The zero Player is a newcomer: Rate and Live read
// it as the system's Initial rating.
type Player struct {
	Glicko
	Games int
	// Last is when the player's last rated game in the pool ended; zero
	// for a newcomer.
	Last time.Time
}

// current returns p's Glicko, the system's initial one for a newcomer.
func (s System) current(p Player) Glicko {
	if p.Glicko == (Glicko{}) {
		return s.Initial
	}
	return p.Glicko
}

// Periods returns how many rating periods lie between from and to: zero
// when from is zero (a newcomer) or not before to.
func (s System) Periods(from, to time.Time) float64 {
	if from.IsZero() || !to.After(from) || s.RatingPeriod <= 0 {
		return 0
	}
	return float64(to.Sub(from)) / float64(s.RatingPeriod)
}

// Live returns p's rating as it stands at time at: their rating with the
// deviation grown by the rating periods since their last game (capped at
// MaxDeviation). Leaderboards and provisional marks use it; Rate uses it
// for the opponent. An invalid stored rating gives an error wrapping
// ErrInvalid.
func (s System) Live(p Player, at time.Time) (Glicko, error) {
	return s.Update(s.current(p), nil, s.Periods(p.Last, at))
}

// Rate rates one game that ended at time at: white and black as they were
// before it, and whiteScore (Win, Draw or Loss for White; Black scores
// 1 - whiteScore). Each player's game is a rating period as long as the
// time since their own last game, played against the opponent's Live
// rating. Both returned players have one more game and Last = at. Bad
// input (a score outside [0, 1], an invalid stored rating) gives an error
// wrapping ErrInvalid and changes nothing.
func (s System) Rate(white, black Player, whiteScore float64, at time.Time) (Player, Player, error) {
	if !(whiteScore >= 0 && whiteScore <= 1) {
		return white, black, fmt.Errorf("%w: score %v must be between 0 and 1", ErrInvalid, whiteScore)
	}
	wLive, err := s.Live(white, at)
	if err != nil {
		return white, black, fmt.Errorf("white: %w", err)
	}
	bLive, err := s.Live(black, at)
	if err != nil {
		return white, black, fmt.Errorf("black: %w", err)
	}
	w, err := s.Update(s.current(white), []Outcome{{Opponent: bLive, Score: whiteScore}}, s.Periods(white.Last, at))
	if err != nil {
		return white, black, fmt.Errorf("white: %w", err)
	}
	b, err := s.Update(s.current(black), []Outcome{{Opponent: wLive, Score: 1 - whiteScore}}, s.Periods(black.Last, at))
	if err != nil {
		return white, black, fmt.Errorf("black: %w", err)
	}
	last := func(p Player) time.Time {
		if at.After(p.Last) {
			return at
		}
		return p.Last
	}
	return Player{Glicko: w, Games: white.Games + 1, Last: last(white)},
		Player{Glicko: b, Games: black.Games + 1, Last: last(black)}, nil
}
