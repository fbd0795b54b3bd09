package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// glickman returns the system of Glickman's worked example: τ = 0.5, and
// bounds wide enough not to touch it.
func glickman() System {
	s := Lichess()
	s.Tau = 0.5
	s.MinDeviation, s.MaxDeviation = 1, 1000
	return s
}

// TestGlickmanWorkedExample is the example of "Example of the Glicko-2
// system" (Glickman): a 1500/200/0.06 player beats a 1400/30 player and
// loses to 1550/100 and 1700/300 players in one rating period; the paper
// gives μ' = -0.2069 and φ' = 0.8722 on the Glicko-2 scale, that is
// r' = 1464.06, RD' = 151.52, and σ' = 0.05999. The paper rounds its
// intermediate values (v, Δ, A) before using them, so the exact
// computation (r' = 1464.0507, σ' = 0.059996) agrees with the published
// figures to within one unit in their last place, and with μ' and φ' to
// the four places the paper prints.
func TestGlickmanWorkedExample(t *testing.T) {
	got, err := glickman().Update(Glicko{1500, 200, 0.06}, []Outcome{
		{Opponent: Glicko{1400, 30, 0.06}, Score: Win},
		{Opponent: Glicko{1550, 100, 0.06}, Score: Loss},
		{Opponent: Glicko{1700, 300, 0.06}, Score: Loss},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, want %v (±%v)", name, got, want, tol)
		}
	}
	check("μ'", (got.Rating-1500)/glickoScale, -0.2069, 0.00005)
	check("φ'", got.Deviation/glickoScale, 0.8722, 0.00005)
	check("rating", got.Rating, 1464.06, 0.01)
	check("deviation", got.Deviation, 151.52, 0.01)
	check("volatility", got.Volatility, 0.05999, 0.00001)
}

// TestGlickmanNoGames: a player who does not compete keeps their rating
// and their deviation grows to sqrt(φ² + σ²) per period (step 6 of the
// paper).
func TestGlickmanNoGames(t *testing.T) {
	s := glickman()
	got, err := s.Update(Glicko{1500, 200, 0.06}, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	phi := 200 / glickoScale
	want := glickoScale * math.Sqrt(phi*phi+0.06*0.06)
	if got.Rating != 1500 || math.Abs(got.Deviation-want) > 1e-9 || got.Volatility != 0.06 {
		t.Errorf("no games: %+v, want 1500/%.4f/0.06", got, want)
	}
	// Four periods grow it more than one, and as sqrt(φ² + 4σ²).
	got4, _ := s.Update(Glicko{1500, 200, 0.06}, nil, 4)
	want4 := glickoScale * math.Sqrt(phi*phi+4*0.06*0.06)
	if math.Abs(got4.Deviation-want4) > 1e-9 || !(got4.Deviation > got.Deviation) {
		t.Errorf("four periods: deviation %.4f, want %.4f (> %.4f)", got4.Deviation, want4, got.Deviation)
	}
}

func TestRejectsBadInput(t *testing.T) {
	s := Lichess()
	good := Glicko{1500, 200, 0.06}
	cases := []struct {
		name     string
		g        Glicko
		outcomes []Outcome
		periods  float64
	}{
		{"NaN rating", Glicko{math.NaN(), 200, 0.06}, nil, 0},
		{"infinite rating", Glicko{math.Inf(1), 200, 0.06}, nil, 0},
		{"zero deviation", Glicko{1500, 0, 0.06}, nil, 0},
		{"negative deviation", Glicko{1500, -3, 0.06}, nil, 0},
		{"zero volatility", Glicko{1500, 200, 0}, nil, 0},
		{"score above one", good, []Outcome{{good, 1.5}}, 0},
		{"NaN score", good, []Outcome{{good, math.NaN()}}, 0},
		{"bad opponent", good, []Outcome{{Glicko{1500, math.NaN(), 0.06}, 1}}, 0},
		{"negative periods", good, nil, -1},
		{"NaN periods", good, nil, math.NaN()},
	}
	for _, c := range cases {
		if _, err := s.Update(c.g, c.outcomes, c.periods); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", c.name, err)
		}
	}
	w, b := Player{Glicko: good, Games: 3}, Player{}
	gw, gb, err := s.Rate(w, b, 2, time.Unix(0, 0))
	if !errors.Is(err, ErrInvalid) || gw != w || gb != b {
		t.Errorf("Rate with score 2: %v %+v %+v, want ErrInvalid and the players unchanged", err, gw, gb)
	}
	if err := (System{}).Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero System validates: %v", err)
	}
}

// randomGlicko returns a rating anywhere in the plausible range, and now
// and then an extreme one.
func randomGlicko(r *rand.Rand) Glicko {
	g := Glicko{
		Rating:     400 + 2600*r.Float64(),
		Deviation:  45 + 455*r.Float64(),
		Volatility: 0.03 + 0.07*r.Float64(),
	}
	switch r.IntN(8) {
	case 0:
		g.Rating = []float64{-1e6, 1e6, -1e12, 1e12, 0}[r.IntN(5)]
	case 1:
		g.Deviation = []float64{1e-6, 1e-3, 1e4, 1e9, 1e200}[r.IntN(5)]
	case 2:
		g.Volatility = []float64{1e-12, 1e-6, 5, 100}[r.IntN(4)]
	}
	return g
}

func finite(g Glicko) bool {
	for _, x := range []float64{g.Rating, g.Deviation, g.Volatility} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// TestRateProperties plays many random games, with ordinary and extreme
// ratings and gaps between games, and checks after every one: the winner
// never loses points and the loser never gains, the two ratings move in
// opposite directions (or both stay for a draw between equals), nothing
// is NaN or infinite, deviation and volatility stay positive and within
// the bounds.
func TestRateProperties(t *testing.T) {
	s := Lichess()
	r := rand.New(rand.NewPCG(17, 1))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 20000; i++ {
		w := Player{Glicko: randomGlicko(r), Games: r.IntN(50), Last: t0.Add(-time.Duration(r.IntN(400)) * time.Hour * 24)}
		b := Player{Glicko: randomGlicko(r), Games: r.IntN(50), Last: t0.Add(-time.Duration(r.IntN(400)) * time.Hour * 24)}
		if r.IntN(10) == 0 {
			b = Player{}
		}
		score := []float64{Win, Draw, Loss}[r.IntN(3)]
		nw, nb, err := s.Rate(w, b, score, t0)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		bBefore := s.current(b)
		dw, db := nw.Rating-w.Rating, nb.Rating-bBefore.Rating
		for _, g := range []Glicko{nw.Glicko, nb.Glicko} {
			if !finite(g) || !(g.Deviation >= s.MinDeviation && g.Deviation <= s.MaxDeviation) ||
				!(g.Volatility >= s.MinVolatility && g.Volatility <= s.MaxVolatility) {
				t.Fatalf("game %d: %+v vs %+v score %v gave %+v", i, w, b, score, g)
			}
		}
		switch score {
		case Win:
			if dw < 0 || db > 0 {
				t.Fatalf("game %d: White won but moved %+.3f, Black %+.3f (%+v vs %+v)", i, dw, db, w, b)
			}
		case Loss:
			if dw > 0 || db < 0 {
				t.Fatalf("game %d: Black won but White moved %+.3f, Black %+.3f", i, dw, db)
			}
		}
		if dw*db > 0 {
			t.Fatalf("game %d: both ratings moved the same way (%+.3f, %+.3f) for score %v", i, dw, db, score)
		}
		if nw.Games != w.Games+1 || nb.Games != b.Games+1 || !nw.Last.Equal(t0) || !nb.Last.Equal(t0) {
			t.Fatalf("game %d: games/last not advanced: %+v %+v", i, nw, nb)
		}
	}
}

// TestDeviationShrinksWithGamesAndGrowsWithTime: a series of games at the
// same moment narrows a newcomer's deviation step by step until it is no
// longer provisional; afterwards, inactivity widens it again, more the
// longer it lasts, up to MaxDeviation.
func TestDeviationShrinksWithGamesAndGrowsWithTime(t *testing.T) {
	s := Lichess()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	alice := Player{}
	opp := Player{Glicko: Glicko{1500, 60, 0.06}, Games: 100, Last: t0}
	prev := s.Initial.Deviation
	if !s.Provisional(s.Initial) || s.Display(s.Initial) != "1500?" {
		t.Fatalf("a newcomer is shown %q, want 1500?", s.Display(s.Initial))
	}
	games := 0
	for s.Provisional(s.current(alice)) {
		var err error
		alice, _, err = s.Rate(alice, opp, []float64{Win, Loss, Draw}[games%3], t0)
		if err != nil {
			t.Fatal(err)
		}
		games++
		if !(alice.Deviation < prev) {
			t.Fatalf("after game %d the deviation %.2f did not shrink from %.2f", games, alice.Deviation, prev)
		}
		prev = alice.Deviation
		if games > 40 {
			t.Fatalf("still provisional after 40 games: %+v", alice)
		}
	}
	t.Logf("provisional for %d games against a 1500/60 opponent", games)
	if games < 5 {
		t.Errorf("provisional for only %d games", games)
	}
	last := alice.Deviation
	for _, days := range []int{1, 7, 30, 180, 365, 3650, 36500} {
		g, err := s.Live(alice, t0.Add(time.Duration(days)*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if g.Rating != alice.Rating {
			t.Errorf("after %d idle days the rating changed: %v -> %v", days, alice.Rating, g.Rating)
		}
		if !(g.Deviation > last) && g.Deviation != s.MaxDeviation {
			t.Errorf("after %d idle days the deviation is %.2f, not above %.2f", days, g.Deviation, last)
		}
		last = g.Deviation
	}
	if last != s.MaxDeviation {
		t.Errorf("after a hundred idle years the deviation is %.2f, want the maximum %v", last, s.MaxDeviation)
	}
	// A game after a long break moves the rating more than the same game
	// played at once.
	soon, _, _ := s.Rate(alice, opp, Win, t0)
	late, _, _ := s.Rate(alice, opp, Win, t0.Add(200*24*time.Hour))
	if !(late.Rating-alice.Rating > soon.Rating-alice.Rating) {
		t.Errorf("a win after 200 idle days gained %.2f, not more than %.2f at once", late.Rating-alice.Rating, soon.Rating-alice.Rating)
	}
}

func TestDisplayAndChange(t *testing.T) {
	s := Lichess()
	cases := []struct {
		before, after Glicko
		want          string
	}{
		{Glicko{1523.4, 60, 0.06}, Glicko{1540.6, 58, 0.06}, "1523 → 1541 (+18)"},
		{Glicko{1500, 500, 0.09}, Glicko{1687.2, 300, 0.09}, "1500? → 1687? (+187)"},
		{Glicko{1612, 80, 0.06}, Glicko{1597.5, 79, 0.06}, "1612 → 1598 (−14)"},
		{Glicko{1541.2, 80, 0.06}, Glicko{1540.9, 79, 0.06}, "1541 → 1541 (±0)"},
		{Glicko{1600, 115, 0.06}, Glicko{1610, 105, 0.06}, "1600? → 1610 (+10)"},
	}
	for _, c := range cases {
		if got := s.Change(c.before, c.after); got != c.want {
			t.Errorf("Change(%v, %v) = %q, want %q", c.before, c.after, got, c.want)
		}
	}
}
