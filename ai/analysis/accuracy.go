package analysis

import "math"

// MoveAccuracy is lichess's accuracy of a move (lila AccuracyPercent.scala,
// fromWinPercents) from the mover's winning percentages (0..100) before
// and after it: 100 when the move lost nothing, else an exponential decay
// in the percentage lost fitted by lichess, plus lichess's one-point bonus
// for the imperfection of the analysis, within 0..100.
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	lost := before - after
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*lost) - 3.166924740191411
	return max(0, min(100, raw+1))
}

// judgedTurn is one turn for the game's accuracy: its player's accuracy
// and whether it counts (a forced turn does not).
type judgedTurn struct {
	white    bool
	accuracy float64
	counts   bool
}

// gameAccuracy is lichess's accuracy of each player over a game (lila
// AccuracyPercent.scala, gameAccuracy). wins are White's winning
// percentages at the start and after each turn (len(turns)+1 of them).
// Each turn is weighted by how much the game swung around it: the
// population standard deviation of the percentages in a window of
// clamp(turns/10, 2, 8) of them (the window sliding along the game, the
// first turns sharing the first window), bounded to 0.5..12. A player's
// accuracy is the mean of the weighted mean and the harmonic mean (each
// accuracy at least 1) of the accuracies of their counted turns; ok is
// false for a player without any.
func gameAccuracy(wins []float64, turns []judgedTurn) (white, black float64, whiteOK, blackOK bool) {
	n := len(turns)
	if n == 0 || len(wins) != n+1 {
		return 0, 0, false, false
	}
	size := max(2, min(8, n/10))
	size = min(size, len(wins))
	weights := make([]float64, n)
	for i := range turns {
		from := max(0, i+2-size) // the first size-2 turns share the first window
		if from+size > len(wins) {
			from = len(wins) - size
		}
		weights[i] = max(0.5, min(12, deviation(wins[from:from+size])))
	}
	colour := func(isWhite bool) (float64, bool) {
		var sum, wsum, inv float64
		count := 0
		for i, t := range turns {
			if t.white != isWhite || !t.counts {
				continue
			}
			sum += t.accuracy * weights[i]
			wsum += weights[i]
			inv += 1 / max(1, t.accuracy)
			count++
		}
		if count == 0 {
			return 0, false
		}
		return (sum/wsum + float64(count)/inv) / 2, true
	}
	white, whiteOK = colour(true)
	black, blackOK = colour(false)
	return white, black, whiteOK, blackOK
}

// deviation is the population standard deviation of xs.
func deviation(xs []float64) float64 {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return math.Sqrt(v / float64(len(xs)))
}
