package analysis

import (
	"fmt"

	"github.com/fairypost/fairypost/rules"
)

// Eval is the evaluation of a position, from White's point of view.
type Eval struct {
	// CP is the search's score in hundredths of a pawn, positive when
	// White is better; 0 when Mate or Result says more.
	CP int
	// Mate, when not 0, is a forced end found by the search: White wins
	// in Mate atomic moves (positive) or Black in -Mate (negative).
	Mate int
	// Result is the game's result when the game ended in this position
	// (rules.Ongoing otherwise).
	Result rules.Result
}

// mateFor returns the sign of a forced or reached end for c: 1 when c
// wins, -1 when c loses, 0 when the evaluation is a score (a draw
// included).
func (e Eval) mateFor(c rules.Color) int {
	s := 0
	switch {
	case e.Result == rules.WhiteWins, e.Result == rules.Ongoing && e.Mate > 0:
		s = 1
	case e.Result == rules.BlackWins, e.Result == rules.Ongoing && e.Mate < 0:
		s = -1
	}
	if c == rules.Black {
		s = -s
	}
	return s
}

// cpFor returns the centipawn score for c (0 for an end).
func (e Eval) cpFor(c rules.Color) int {
	if e.mateFor(c) != 0 || e.Result != rules.Ongoing {
		return 0
	}
	if c == rules.Black {
		return -e.CP
	}
	return e.CP
}

// Chances returns White's winning chances (-1..1) on the curve of scale:
// a forced or reached end counts as the curve's bound, a draw as 0.
func (e Eval) Chances(scale float64) float64 {
	switch e.mateFor(rules.White) {
	case 1:
		return ceilingChances
	case -1:
		return -ceilingChances
	}
	if e.Result == rules.Draw {
		return 0
	}
	return Chances(e.CP, scale)
}

// WhiteWin returns White's winning percentage (0..100): 50+50*Chances.
func (e Eval) WhiteWin(scale float64) float64 { return 50 + 50*e.Chances(scale) }

// String writes the evaluation as PGN's [%eval] does: pawns from White's
// point of view ("0.35", "-1.20"), "#3" or "#-2" for a forced end in
// atomic moves, or the result of an ended game ("1-0", "0-1", "1/2-1/2").
func (e Eval) String() string {
	switch {
	case e.Result != rules.Ongoing:
		return e.Result.String()
	case e.Mate != 0:
		return fmt.Sprintf("#%d", e.Mate)
	}
	return fmt.Sprintf("%.2f", float64(e.CP)/100)
}

// Judgement is what the analysis says of a turn.
type Judgement uint8

// Judgements, from none to the worst (lichess's names).
const (
	Good Judgement = iota
	Inaccuracy
	Mistake
	Blunder
)

// String returns "" for Good, else "inaccuracy", "mistake" or "blunder".
func (j Judgement) String() string {
	return [...]string{"", "inaccuracy", "mistake", "blunder"}[j]
}

// Glyph returns the PGN annotation: "", "?!", "?" or "??".
func (j Judgement) Glyph() string {
	return [...]string{"", "?!", "?", "??"}[j]
}

// Title returns the word lichess writes in its comments: "Inaccuracy",
// "Mistake" or "Blunder" ("" for Good).
func (j Judgement) Title() string {
	return [...]string{"", "Inaccuracy", "Mistake", "Blunder"}[j]
}

// Thresholds of the drop in the mover's winning chances (-1..1), lichess's
// (lila Advice.scala, CpAdvice.winningChanceJudgements).
const (
	InaccuracyDrop = 0.1
	MistakeDrop    = 0.2
	BlunderDrop    = 0.3
)

// Lichess's centipawn bounds of its mate rules (lila Advice.scala,
// MateAdvice), read on its own curve: a player already this far behind
// (or still this far ahead) when a forced end appears (or is let go) is
// judged more mildly. They are kept as winning chances, so that they mean
// the same on every variant's curve.
var (
	mateMildChances   = rawChances(999, LichessScale) // -> inaccuracy
	mateMiddleChances = rawChances(700, LichessScale) // -> mistake
)

// Lichess's descriptions of the mate rules.
const (
	mateCreated = "Checkmate is now unavoidable"
	mateLost    = "Lost forced checkmate sequence"
)

// judge judges a turn of mover from the evaluation before it to the one
// after it, as lichess does (lila Advice.scala): when neither announces a
// forced end, by the drop of the mover's winning chances on the curve of
// scale (InaccuracyDrop, MistakeDrop, BlunderDrop); when the turn lets
// the opponent force the end from a position without one, a blunder, a
// mistake when the mover's chances were already below the curve at
// -7 pawns in chess, an inaccuracy below -9.99; when it lets go of the
// mover's own forced end, the same by the chances left after it (0 for a
// forced end of the opponent's). Other changes between forced ends are
// not judged. why is lichess's description for the mate rules, "" else.
func judge(before, after Eval, mover rules.Color, scale float64) (j Judgement, why string) {
	mb, ma := before.mateFor(mover), after.mateFor(mover)
	switch {
	case mb == 0 && ma == 0:
		cb, ca := Chances(before.cpFor(mover), scale), Chances(after.cpFor(mover), scale)
		if before.Result == rules.Draw {
			cb = 0
		}
		if after.Result == rules.Draw {
			ca = 0
		}
		drop := cb - ca
		switch {
		case drop >= BlunderDrop:
			return Blunder, ""
		case drop >= MistakeDrop:
			return Mistake, ""
		case drop >= InaccuracyDrop:
			return Inaccuracy, ""
		}
		return Good, ""
	case mb == 0 && ma < 0:
		c := Chances(before.cpFor(mover), scale)
		if before.Result == rules.Draw {
			c = 0
		}
		return mateJudgement(-c), mateCreated
	case mb > 0 && ma <= 0:
		c := 0.0
		if ma == 0 && after.Result != rules.Draw {
			c = Chances(after.cpFor(mover), scale)
		}
		return mateJudgement(c), mateLost
	}
	return Good, ""
}

// mateJudgement is the judgement of a mate rule by the chances c of the
// side that keeps the advantage: the larger they were anyway, the milder.
func mateJudgement(c float64) Judgement {
	switch {
	case c > mateMildChances:
		return Inaccuracy
	case c > mateMiddleChances:
		return Mistake
	}
	return Blunder
}

// Judge is the judgement of a turn of mover from the evaluation before
// it to the one after it on the curve of scale, by lichess's rules (see
// the package doc): for judging another engine's evaluations the same
// way, e.g. Stockfish's on lichess's curve. Analyse judges with it.
func Judge(before, after Eval, mover rules.Color, scale float64) Judgement {
	j, _ := judge(before, after, mover, scale)
	return j
}
