package analysis

import (
	"errors"
	"math"
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
// The log-likelihood is concave in k, so Newton's method from lichess's
// scale finds the maximum; the result is rounded to 6 significant digits,
// the precision a variant's definition records.
func Fit(samples []Sample) (float64, error) {
	var spread float64
	for _, s := range samples {
		spread += float64(s.CP) * float64(s.CP)
	}
	if spread == 0 {
		return 0, ErrFit
	}
	k := LichessScale
	for iter := 0; iter < 100; iter++ {
		var grad, curv float64
		for _, s := range samples {
			x := float64(s.CP)
			p := 1 / (1 + math.Exp(-k*x))
			grad += x * (s.Score - p)
			curv += x * x * p * (1 - p)
		}
		if curv == 0 {
			return 0, ErrFit
		}
		step := grad / curv
		// Halve steps that would cross zero: the curve must rise.
		for k+step <= 0 && step < -1e-12 {
			step /= 2
			if k+step > 0 {
				break
			}
		}
		if k+step <= 0 {
			return 0, ErrFit
		}
		k += step
		if math.Abs(step) < 1e-12 {
			break
		}
	}
	if math.IsNaN(k) || k <= 0 || k > 1 {
		return 0, ErrFit
	}
	return roundSignificant(k, 6), nil
}

// roundSignificant rounds x to n significant digits.
func roundSignificant(x float64, n int) float64 {
	if x == 0 {
		return 0
	}
	e := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*e) / e
}
