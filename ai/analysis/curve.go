package analysis

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// LichessScale is the scale of lichess's winning-chances curve for
// Stockfish's centipawns in chess (scalachess eval.scala, WinPercent,
// after lila pull request 11148): the scale a variant without a fitted
// one uses.
const LichessScale = 0.00368208

// lichessCeiling is the centipawn bound lichess applies before its curve
// (Cp.CEILING): evaluations beyond it, and mates, count as it.
const lichessCeiling = 1000

// ceilingChances is the largest winning chances any evaluation reaches:
// lichess's, its curve at its ceiling. The ceiling is set on the chances,
// not on centipawns, so that it means the same on every variant's scale.
var ceilingChances = rawChances(lichessCeiling, LichessScale)

// rawChances is the logistic curve 2/(1+exp(-scale*cp))-1, in -1..1.
func rawChances(cp int, scale float64) float64 {
	return 2/(1+math.Exp(-scale*float64(cp))) - 1
}

// Chances returns the winning chances, in -1..1, of an evaluation of cp
// hundredths of a pawn on a variant's curve of scale: the logistic curve
// 2/(1+exp(-scale*cp))-1, bounded by ±ceilingChances (lichess's bound).
func Chances(cp int, scale float64) float64 {
	return max(-ceilingChances, min(ceilingChances, rawChances(cp, scale)))
}

// WinPercent is Chances on lichess's 0..100 scale: 50+50*Chances.
func WinPercent(cp int, scale float64) float64 {
	return 50 + 50*Chances(cp, scale)
}

// Sample is one point of the fitting data: an evaluation of a position
// of a finished game, in hundredths of a pawn from White's point of view,
// and White's score in that game (1, 0.5 or 0).
type Sample struct {
	CP    int
	Score float64
}

// ErrFit is returned by Fit for samples that cannot fix a scale: none,
// or no evaluation away from 0, or results that do not go with the
// evaluations (White scoring more the worse its evaluation).
var ErrFit = errors.New("analysis: the samples do not determine a curve")

// Fit returns the scale whose curve best predicts the samples' scores:
// the maximum-likelihood k of P(White scores) = 1/(1+exp(-k*cp)), the
// curve Chances is, with a draw counting as half a win and half a loss.
// The log-likelihood is concave in k, so its slope falls as k grows: the
// maximum is where the slope crosses zero, found by bisection between
// 1e-7 and 1 (a maximum outside, results that go against the evaluations
// or follow them without a single surprise, is ErrFit). The result is
// rounded to 6 significant digits, the precision a variant's definition
// records.
func Fit(samples []Sample) (float64, error) {
	slope := func(k float64) float64 {
		g := 0.0
		for _, s := range samples {
			x := float64(s.CP)
			g += x * (s.Score - 1/(1+math.Exp(-k*x)))
		}
		return g
	}
	lo, hi := 1e-7, 1.0
	if len(samples) == 0 || slope(lo) <= 0 || slope(hi) >= 0 {
		return 0, ErrFit
	}
	for i := 0; i < 200 && hi/lo > 1+1e-12; i++ {
		mid := math.Sqrt(lo * hi)
		if slope(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return roundSignificant(math.Sqrt(lo*hi), 6), nil
}

// roundSignificant rounds x to n significant digits.
func roundSignificant(x float64, n int) float64 {
	if x == 0 {
		return 0
	}
	e := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*e) / e
}

// WriteSamples writes samples to w, one "CP SCORE" a line ("-35 0.5").
func WriteSamples(w io.Writer, samples []Sample) error {
	for _, s := range samples {
		if _, err := fmt.Fprintf(w, "%d %s\n", s.CP, strconv.FormatFloat(s.Score, 'g', -1, 64)); err != nil {
			return err
		}
	}
	return nil
}

// ReadSamples reads what WriteSamples wrote; blank lines are skipped. An
// error names the first line that is not an integer and a score of 0,
// 0.5 or 1.
func ReadSamples(r io.Reader) ([]Sample, error) {
	var out []Sample
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: %q: want an evaluation and a score", n, line)
		}
		cp, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: %q is not an evaluation in hundredths of a pawn", n, f[0])
		}
		score, err := strconv.ParseFloat(f[1], 64)
		if err != nil || (score != 0 && score != 0.5 && score != 1) {
			return nil, fmt.Errorf("line %d: %q is not a score (0, 0.5 or 1)", n, f[1])
		}
		out = append(out, Sample{CP: cp, Score: score})
	}
	return out, sc.Err()
}
