package analysis

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// near reports whether got is within 1e-9 of want.
func near(got, want float64) bool { return math.Abs(got-want) < 1e-9 }

// TestCurveKnownValues pins the winning-chances curve to lichess's
// figures: a pawn up is 59.1% on lichess's scale, the bound is the curve
// at 10 pawns (0.9509), which no evaluation passes.
func TestCurveKnownValues(t *testing.T) {
	for _, c := range []struct {
		cp    int
		scale float64
		want  float64
	}{
		{0, LichessScale, 0},
		{100, LichessScale, 0.1820517943832256},
		{-100, LichessScale, -0.1820517943832256},
		{1000, LichessScale, 0.9508948726828645},
		{5000, LichessScale, 0.9508948726828645},
		{-5000, 0.001, -0.9508948726828645},
		{1000, 0.001, 0.46211715726000974},
	} {
		if got := Chances(c.cp, c.scale); !near(got, c.want) {
			t.Errorf("Chances(%d, %g) = %.12f, want %.12f", c.cp, c.scale, got, c.want)
		}
	}
	if got := WinPercent(100, LichessScale); !near(got, 59.10258971916128) {
		t.Errorf("WinPercent(100) = %f, want 59.1026", got)
	}
}

// TestMoveAccuracyKnownValues pins lichess's move accuracy.
func TestMoveAccuracyKnownValues(t *testing.T) {
	for _, c := range []struct{ before, after, want float64 }{
		{50, 50, 100},
		{40, 60, 100},
		{60, 40, 41.016818741417126},
		{90, 10, 1.000170640274321},
		{97.5, 2.5, 0},
	} {
		if got := MoveAccuracy(c.before, c.after); !near(got, c.want) {
			t.Errorf("MoveAccuracy(%g, %g) = %.12f, want %.12f", c.before, c.after, got, c.want)
		}
	}
}

// TestGameAccuracyKnownValues pins lichess's game accuracy on a 33-turn
// game (a window of 3, the first turn sharing the first window), against
// figures computed by a separate transcription of lila's gameAccuracy.
func TestGameAccuracyKnownValues(t *testing.T) {
	wins := []float64{50, 41.4, 41.1, 36.1, 37.4, 39.3, 26.1, 11.5, 19.1, 11.1, 2.4, 14.3, 12.0, 19.6, 17.5, 19.8, 8.9,
		11.0, 19.4, 18.5, 23.5, 26.6, 13.3, 18.8, 19.8, 12.9, 0, 8.4, 6.2, 10.6, 19.3, 23.6, 33.5, 29.2}
	turns := make([]judgedTurn, len(wins)-1)
	for i := range turns {
		white := i%2 == 0
		before, after := wins[i], wins[i+1]
		if !white {
			before, after = 100-before, 100-after
		}
		turns[i] = judgedTurn{white: white, accuracy: MoveAccuracy(before, after), counts: true}
	}
	w, b, wok, bok := gameAccuracy(wins, turns)
	if !wok || !bok || math.Abs(w-86.29556805039442) > 1e-9 || math.Abs(b-89.16372973181733) > 1e-9 {
		t.Errorf("game accuracy %.12f (%v), %.12f (%v): want 86.295568050394 and 89.163729731817", w, wok, b, bok)
	}
	// A player whose turns do not count has no accuracy.
	for i := range turns {
		turns[i].counts = turns[i].white
	}
	if _, _, wok, bok := gameAccuracy(wins, turns); !wok || bok {
		t.Errorf("with Black's turns not counted: ok %v/%v, want true/false", wok, bok)
	}
}

// cpOf returns the evaluation whose chances on scale are c.
func cpOf(c, scale float64) int { return int(math.Round(math.Log((1+c)/(1-c)) / scale)) }

// TestJudgementThresholds pins lichess's thresholds (0.1, 0.2, 0.3 of
// winning chances lost, from the mover's side) on a variant's scale, for
// either mover, and the mate rules.
func TestJudgementThresholds(t *testing.T) {
	const scale = 0.002
	for _, mover := range []rules.Color{rules.White, rules.Black} {
		sign := 1
		if mover == rules.Black {
			sign = -1
		}
		ev := func(c float64) Eval { return Eval{CP: sign * cpOf(c, scale)} }
		for _, c := range []struct {
			before, after float64
			want          Judgement
		}{
			{0.2, 0.2, Good},
			{0.2, 0.5, Good},
			{0.2, 0.11, Good},
			{0.2, 0.09, Inaccuracy},
			{0.2, 0.01, Inaccuracy},
			{0.2, -0.01, Mistake},
			{0.2, -0.09, Mistake},
			{0.2, -0.11, Blunder},
			{-0.5, -0.85, Blunder},
		} {
			if got, why := judge(ev(c.before), ev(c.after), mover, scale); got != c.want || why != "" {
				t.Errorf("%v: chances %.2f -> %.2f: %q (%q), want %q", mover, c.before, c.after, got, why, c.want)
			}
		}
		mate := func(n int) Eval { return Eval{Mate: sign * n} }
		won := Eval{Result: rules.WinFor(mover)}
		lost := Eval{Result: rules.WinFor(mover.Other())}
		draw := Eval{Result: rules.Draw}
		for _, c := range []struct {
			name          string
			before, after Eval
			want          Judgement
			why           string
		}{
			{"lets the opponent mate from equality", ev(0), mate(-3), Blunder, mateCreated},
			{"loses at once from equality", ev(0), lost, Blunder, mateCreated},
			{"lets the opponent mate from -8 pawns (chess)", ev(rawChances(-800, LichessScale)), mate(-3), Mistake, mateCreated},
			{"lets the opponent mate from -12 pawns (chess)", ev(rawChances(-1200, LichessScale)), mate(-3), Inaccuracy, mateCreated},
			{"lets go of a mate, still +12 pawns (chess)", mate(2), ev(rawChances(1200, LichessScale)), Inaccuracy, mateLost},
			{"lets go of a mate, +8 pawns (chess)", mate(2), ev(rawChances(800, LichessScale)), Mistake, mateLost},
			{"lets go of a mate, equal", mate(2), ev(0), Blunder, mateLost},
			{"lets go of a mate for a stalemate", mate(2), draw, Blunder, mateLost},
			{"lets go of a mate into being mated", mate(2), mate(-4), Blunder, mateLost},
			{"a slower mate", mate(2), mate(6), Good, ""},
			{"mates", mate(1), won, Good, ""},
			{"finds a mate", ev(0.3), mate(5), Good, ""},
			{"still mated", mate(-2), mate(-1), Good, ""},
			{"escapes a mate", mate(-2), ev(-0.5), Good, ""},
			{"a drawn ending from a win", ev(0.5), draw, Blunder, ""},
		} {
			if got := Judge(c.before, c.after, mover, scale); got != c.want {
				t.Errorf("Judge: %v %s: %q, want %q", mover, c.name, got, c.want)
			}
			if got, why := judge(c.before, c.after, mover, scale); got != c.want || why != c.why {
				t.Errorf("%v %s (%v -> %v): %q (%q), want %q (%q)", mover, c.name, c.before, c.after, got, why, c.want, c.why)
			}
		}
	}
}

// TestFit checks that Fit recovers the scale that generated a sample (a
// sample whose scores follow the curve exactly, drawn deterministically),
// refuses samples without information, and that samples survive writing
// and reading.
func TestFit(t *testing.T) {
	const truth = 0.0025
	var samples []Sample
	for cp := -900; cp <= 900; cp += 3 {
		p := 1 / (1 + math.Exp(-truth*float64(cp)))
		// 20 games per evaluation, their scores in the curve's proportion.
		wins := int(math.Round(20 * p))
		for i := 0; i < 20; i++ {
			s := 0.0
			if i < wins {
				s = 1
			}
			samples = append(samples, Sample{CP: cp, Score: s})
		}
	}
	k, err := Fit(samples)
	if err != nil || math.Abs(k-truth)/truth > 0.01 {
		t.Errorf("Fit = %g, %v: want about %g", k, err, truth)
	}
	if _, err := Fit(nil); err == nil {
		t.Error("Fit(nil): want an error")
	}
	if _, err := Fit([]Sample{{0, 1}, {0, 0}}); err == nil {
		t.Error("Fit of evaluations all 0: want an error")
	}
	if _, err := Fit([]Sample{{100, 0}, {-100, 1}, {200, 0}}); err == nil {
		t.Error("Fit of results against the evaluations: want an error")
	}
	var buf bytes.Buffer
	if err := WriteSamples(&buf, samples[:5]); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(&buf)
	if err != nil || len(back) != 5 || back[0] != samples[0] {
		t.Errorf("samples read back %v, %v: want %v", back, err, samples[:5])
	}
	for _, bad := range []string{"12", "x 1", "12 2", "12 1 3"} {
		if _, err := ReadSamples(strings.NewReader(bad + "\n")); err == nil {
			t.Errorf("ReadSamples(%q): want an error", bad)
		}
	}
}
