package rating

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrInvalid is wrapped by every error about bad input (a NaN rating, a
// negative deviation, a score outside [0, 1], a malformed pool).
var ErrInvalid = errors.New("rating: invalid input")

// glickoScale converts between the Glicko scale (1500 centred, ratings of
// people) and the internal Glicko-2 scale: μ = (r - 1500) / glickoScale.
const glickoScale = 173.7178

// Scores of a game, from the point of view of the player being rated.
const (
	Loss = 0.0
	Draw = 0.5
	Win  = 1.0
)

// Glicko is a rating on the Glicko scale: Rating (1500 for a newcomer),
// Deviation (the uncertainty of Rating, one standard deviation) and
// Volatility (how erratic the player's results are).
type Glicko struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// Validate reports, wrapping ErrInvalid, a rating that is not a finite
// number or a deviation or volatility that is not a positive finite number.
func (g Glicko) Validate() error {
	switch {
	case math.IsNaN(g.Rating) || math.IsInf(g.Rating, 0):
		return fmt.Errorf("%w: rating %v is not a number", ErrInvalid, g.Rating)
	case !(g.Deviation > 0) || math.IsInf(g.Deviation, 0):
		return fmt.Errorf("%w: deviation %v must be a positive number", ErrInvalid, g.Deviation)
	case !(g.Volatility > 0) || math.IsInf(g.Volatility, 0):
		return fmt.Errorf("%w: volatility %v must be a positive number", ErrInvalid, g.Volatility)
	}
	return nil
}

// Outcome is one game of a rating period: the opponent's rating and the
// score of the player being rated (Win, Draw or Loss; any value in [0, 1]
// is accepted).
type Outcome struct {
	Opponent Glicko
	Score    float64
}

// System holds the parameters of the rating system. The zero System is
// not usable; start from Lichess() and change what must differ.
type System struct {
	// Tau constrains how fast volatility changes (Glickman suggests 0.3 to
	// 1.2).
	Tau float64
	// Initial is a newcomer's rating.
	Initial Glicko
	// MinDeviation and MaxDeviation bound every deviation Update, Rate and
	// Live return.
	MinDeviation, MaxDeviation float64
	// MinVolatility and MaxVolatility bound every volatility returned.
	MinVolatility, MaxVolatility float64
	// ProvisionalDeviation: a rating whose deviation is at least this is
	// provisional.
	ProvisionalDeviation float64
	// RatingPeriod is the length of one rating period: a player's
	// deviation grows by one period's worth of volatility per period of
	// inactivity.
	RatingPeriod time.Duration
}

// Lichess returns the parameters lichess uses: τ = 0.75; newcomers at
// 1500 with deviation 500 and volatility 0.09; deviation kept in
// [45, 500], volatility at most 0.1; provisional from deviation 110; a
// rating period of 1/0.21436 days (about 4.67 days).
func Lichess() System {
	return System{
		Tau:                  0.75,
		Initial:              Glicko{Rating: 1500, Deviation: 500, Volatility: 0.09},
		MinDeviation:         45,
		MaxDeviation:         500,
		MinVolatility:        0.001,
		MaxVolatility:        0.1,
		ProvisionalDeviation: 110,
		RatingPeriod:         24 * time.Hour * 100000 / 21436, // 0.21436 periods a day
	}
}

// Validate reports, wrapping ErrInvalid, parameters that cannot work
// (bounds out of order, a non-positive τ or period, an initial rating
// outside the bounds).
func (s System) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: rating system: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	switch {
	case !(s.Tau > 0) || math.IsInf(s.Tau, 0):
		return bad("tau %v must be a positive number", s.Tau)
	case !(s.MinDeviation > 0) || !(s.MaxDeviation >= s.MinDeviation) || math.IsInf(s.MaxDeviation, 0):
		return bad("deviation bounds [%v, %v] are not a positive range", s.MinDeviation, s.MaxDeviation)
	case !(s.MinVolatility > 0) || !(s.MaxVolatility >= s.MinVolatility) || math.IsInf(s.MaxVolatility, 0):
		return bad("volatility bounds [%v, %v] are not a positive range", s.MinVolatility, s.MaxVolatility)
	case s.RatingPeriod <= 0:
		return bad("rating period %v must be positive", s.RatingPeriod)
	}
	if err := s.Initial.Validate(); err != nil {
		return fmt.Errorf("initial rating: %w", err)
	}
	return nil
}

// Provisional reports whether g is provisional under s: its deviation is
// at least ProvisionalDeviation.
func (s System) Provisional(g Glicko) bool { return g.Deviation >= s.ProvisionalDeviation }

// Display returns g's rating rounded to a whole number, followed by "?"
// when it is provisional: "1523", "1500?".
func (s System) Display(g Glicko) string {
	mark := ""
	if s.Provisional(g) {
		mark = "?"
	}
	return fmt.Sprintf("%d%s", Round(g.Rating), mark)
}

// Change describes a rating change for an announcement, from the rounded
// ratings so that the figures add up: "1523 → 1541 (+18)", "1500? → 1687?
// (+187)", "1541 → 1541 (±0)".
func (s System) Change(before, after Glicko) string {
	d := Round(after.Rating) - Round(before.Rating)
	sign := "+"
	switch {
	case d == 0:
		sign = "±"
	case d < 0:
		sign = "−"
		d = -d
	}
	return fmt.Sprintf("%s → %s (%s%d)", s.Display(before), s.Display(after), sign, d)
}

// Round returns r rounded to the nearest whole number, as ratings are
// shown; values beyond the int range are clamped to it.
func Round(r float64) int {
	switch {
	case math.IsNaN(r):
		return 0
	case r >= math.MaxInt32:
		return math.MaxInt32
	case r <= math.MinInt32:
		return math.MinInt32
	}
	return int(math.Round(r))
}

// Update returns the rating of player g after a rating period of the given
// length (in rating periods; 1 for Glickman's batch periods) in which they
// played outcomes. With no outcomes only the deviation grows, by the
// volatility over the elapsed periods. The opponents' ratings are those
// they had at the start of the period. The result's deviation and
// volatility are clamped to s's bounds. Bad input (see Glicko.Validate, a
// score outside [0, 1], negative or non-finite periods) gives an error
// wrapping ErrInvalid.
func (s System) Update(g Glicko, outcomes []Outcome, periods float64) (Glicko, error) {
	if err := s.Validate(); err != nil {
		return Glicko{}, err
	}
	if err := g.Validate(); err != nil {
		return Glicko{}, err
	}
	if !(periods >= 0) || math.IsInf(periods, 0) {
		return Glicko{}, fmt.Errorf("%w: elapsed rating periods %v must be a non-negative number", ErrInvalid, periods)
	}
	for i, o := range outcomes {
		if err := o.Opponent.Validate(); err != nil {
			return Glicko{}, fmt.Errorf("opponent %d: %w", i+1, err)
		}
		if !(o.Score >= 0 && o.Score <= 1) {
			return Glicko{}, fmt.Errorf("%w: score %v against opponent %d must be between 0 and 1", ErrInvalid, o.Score, i+1)
		}
	}

	// Step 2: the Glicko-2 scale.
	mu := (g.Rating - 1500) / glickoScale
	phi := g.Deviation / glickoScale
	sigma := g.Volatility

	// Steps 3 and 4: the estimated variance v of the rating from the
	// games alone, and the estimated improvement Δ = v·Σ g(φj)(sj - Ej).
	var info, sum float64
	for _, o := range outcomes {
		muJ := (o.Opponent.Rating - 1500) / glickoScale
		gJ := gFactor(o.Opponent.Deviation / glickoScale)
		e := expected(mu, muJ, gJ)
		info += gJ * gJ * e * (1 - e)
		sum += gJ * (o.Score - e)
	}
	if len(outcomes) == 0 || !(info > 0) {
		// No games, or games that say nothing (opponents of unbounded
		// uncertainty): Glickman's rule for a player who did not compete.
		dev := glickoScale * math.Sqrt(phi*phi+periods*sigma*sigma)
		return s.clamp(Glicko{Rating: g.Rating, Deviation: dev, Volatility: sigma}), nil
	}
	v := 1 / info
	delta := v * sum

	// Step 5: the new volatility.
	sigma = s.newVolatility(phi, sigma, v, delta)
	sigma = math.Min(math.Max(sigma, s.MinVolatility), s.MaxVolatility)

	// Steps 6 and 7: pre-period deviation, then the new deviation and
	// rating.
	phiStar := math.Sqrt(phi*phi + periods*sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+info)
	// μ' = μ + φ'²·Σ g(φj)(sj - Ej), added to the rating directly rather
	// than converting μ' back, so that an unchanged μ gives the rating
	// back bit for bit.
	change := phiNew * phiNew * sum

	// Step 8: back to the Glicko scale.
	return s.clamp(Glicko{Rating: g.Rating + glickoScale*change, Deviation: glickoScale * phiNew, Volatility: sigma}), nil
}

// gFactor is Glickman's g(φ): how much a game against an opponent of
// deviation φ counts.
func gFactor(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is Glickman's E(μ, μj, φj), the expected score against the
// opponent, kept a hair away from 0 and 1 so that a game between players
// thousands of points apart still carries a finite amount of information.
func expected(mu, muJ, gJ float64) float64 {
	e := 1 / (1 + math.Exp(-gJ*(mu-muJ)))
	const eps = 1e-9
	return math.Min(math.Max(e, eps), 1-eps)
}

// newVolatility is step 5 of the paper: the root of
// f(x) = eˣ(Δ² - φ² - v - eˣ) / (2(φ² + v + eˣ)²) - (x - a)/τ²
// by the Illinois variant of regula falsi, bounded in iterations.
func (s System) newVolatility(phi, sigma, v, delta float64) float64 {
	const epsilon = 1e-6
	tau := s.Tau
	a := math.Log(sigma * sigma)
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < 1000 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; i < 200 && math.Abs(B-A) > epsilon; i++ {
		if fB == fA {
			break
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if math.IsNaN(fC) {
			break
		}
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	r := math.Exp(A / 2)
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return sigma
	}
	return r
}

// clamp keeps g's deviation and volatility within s's bounds.
func (s System) clamp(g Glicko) Glicko {
	g.Deviation = math.Min(math.Max(g.Deviation, s.MinDeviation), s.MaxDeviation)
	g.Volatility = math.Min(math.Max(g.Volatility, s.MinVolatility), s.MaxVolatility)
	return g
}
