package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/fairypost/fairypost/ai"
	"github.com/fairypost/fairypost/rules"
)

// DefaultLevel is the analysis's level when Options.Level is 0: the
// largest node budget (ai level 5, 20,000 positions a search) that
// analyses a 100-ply chess game within a minute and a 100-ply Cold Fusion
// game within two on two cores. BenchmarkAnalyse measured 12 processor
// seconds for 100 plies of chess, 26 for 300, and 166 for 100 plies of
// Cold Fusion (the costliest variant to search), so about 83 s on two
// free cores; level 6 would double it.
const DefaultLevel = 5

// MaxLevel is the strongest analysis level: ai's strongest level by
// nodes (ai.TopLevel searches by time, which would not be reproducible).
const MaxLevel = ai.TopLevel - 1

// lineLength is the longest engine line an analysis keeps for a judged
// turn (lichess's annotated variations are up to 20 plies).
const lineLength = 20

// Options configure an analysis.
type Options struct {
	// Level is 1..MaxLevel: each position is searched with package ai's
	// node budget of that level, always for the best move. 0 means
	// DefaultLevel.
	Level int
	// Seed is passed to the searches (which take the best move, so it
	// does not change the result today).
	Seed uint64
	// Workers is how many positions are searched at once (each with its
	// own ai.Engine, about 12 MB); 0 means 1. The result does not depend
	// on it.
	Workers int
	// Scale is the winning-chances curve's scale; 0 means the variant's
	// (rules.Strategy.WinScale), or LichessScale when it has none.
	Scale float64
	// Progress, when not nil, is told after each position searched how
	// many of the total are done; calls come one at a time, in order of
	// done, from the goroutine that called Analyse or its workers.
	Progress func(done, total int)
}

// Ply is one atomic move of the game as analysed.
type Ply struct {
	// Move is the move played.
	Move rules.Move
	// Eval is the evaluation of the position after it.
	Eval Eval
	// WhiteWin is White's winning percentage (0..100) after it.
	WhiteWin float64
	// Turn is the index in Analysis.Turns of the turn it belongs to.
	Turn int
}

// Turn is one player's turn (from a position that BeginsTurn to the next):
// one move in chess, all the parts of a multi-part turn, judged as one.
type Turn struct {
	// Player is whose turn it is (ToAct of its first position).
	Player rules.Color
	// From and To delimit its moves: Game.Moves()[From:To]; positions
	// From and To of the game are before and after it.
	From, To int
	// Before and After are the evaluations of those positions.
	Before, After Eval
	// Forced reports a turn without choice (each of the player's parts
	// had one legal move): never judged, not counted in accuracy.
	Forced bool
	// Judgement is what the turn was (Good for a forced turn or the
	// engine's own choice).
	Judgement Judgement
	// Why is lichess's description when a mate rule judged the turn
	// ("Checkmate is now unavoidable", "Lost forced checkmate
	// sequence"), else "".
	Why string
	// Best is the turn the engine prefers from Before's position (its
	// parts in order) when the turn is judged (not Good), else empty.
	Best []rules.Move
	// Line is the engine's expected line from Before's position, starting
	// with Best (at most 20 atomic moves, and at least Best); empty when
	// Best is.
	Line []rules.Move
	// Accuracy is the turn's accuracy for its player (MoveAccuracy of the
	// player's winning percentages before and after); 100 for the
	// engine's own choice.
	Accuracy float64
}

// Analysis is the analysis of a game.
type Analysis struct {
	// Variant is the variant's key; Level the analysis level; Nodes the
	// node budget of each search; Scale the curve's scale used.
	Variant string
	Level   int
	Nodes   int64
	Scale   float64
	// Start is the evaluation of the start position.
	Start Eval
	// Plies are the moves, in order.
	Plies []Ply
	// Turns are the turns, in order.
	Turns []Turn
	// White and Black are the players' accuracies over the game (lichess's
	// game accuracy over their unforced turns); WhiteOK and BlackOK are
	// false for a player without an unforced turn.
	White, Black     float64
	WhiteOK, BlackOK bool
}

// Count returns how many of c's turns got judgement j.
func (a *Analysis) Count(c rules.Color, j Judgement) int {
	n := 0
	for _, t := range a.Turns {
		if t.Player == c && t.Judgement == j {
			n++
		}
	}
	return n
}

// ErrNoMoves is returned for a game without moves: there is nothing to
// judge.
var ErrNoMoves = errors.New("analysis: the game has no moves")

// searched is what one search of a position gave.
type searched struct {
	eval Eval
	best []rules.Move // the engine's turn (BeginsTurn positions only)
	line []rules.Move
}

// Analyse analyses g, a game with at least one move, at opts.Level: it
// searches every position of the game (the last one only when the game
// goes on there) with package ai at the level's node budget, for the best
// move, then judges each turn and computes the accuracies. The result
// depends only on g, opts.Level, opts.Seed and opts.Scale (never on
// Workers nor the machine). It returns ctx.Err() when ctx is done first.
func Analyse(ctx context.Context, g *rules.Game, opts Options) (*Analysis, error) {
	moves := g.Moves()
	if len(moves) == 0 {
		return nil, ErrNoMoves
	}
	level := opts.Level
	if level == 0 {
		level = DefaultLevel
	}
	if level < 1 || level > MaxLevel {
		return nil, fmt.Errorf("analysis: level %d: want 1..%d", level, MaxLevel)
	}
	if !(opts.Scale >= 0) || math.IsInf(opts.Scale, 0) {
		return nil, fmt.Errorf("analysis: scale %g: want a positive number, or 0 for the variant's", opts.Scale)
	}
	v := g.Variant()
	scale := opts.Scale
	if scale == 0 {
		scale = v.Strategy.WinScale
	}
	if scale == 0 {
		scale = LichessScale
	}
	engineOpts := ai.Options{Level: level, Spread: -1, Seed: opts.Seed}
	n := len(moves)
	results := make([]searched, n+1)
	var todo []int
	for i := 0; i <= n; i++ {
		if i == n {
			if o := g.Outcome(); o.Over() {
				results[n].eval = Eval{Result: o.Result}
				continue
			}
		}
		todo = append(todo, i)
	}
	hashes := make([]uint64, n+1)
	for i := range hashes {
		p := g.PositionAt(i)
		hashes[i] = p.Hash()
	}
	if err := searchAll(ctx, g, hashes, todo, results, engineOpts, opts); err != nil {
		return nil, err
	}
	a := &Analysis{Variant: v.Key, Level: level, Nodes: ai.LevelNodes(level), Scale: scale, Start: results[0].eval}
	build(g, results, a)
	return a, nil
}

// searchAll searches the positions todo of g into results, with
// opts.Workers engines at once, reporting progress in order.
func searchAll(ctx context.Context, g *rules.Game, hashes []uint64, todo []int, results []searched, eo ai.Options, opts Options) error {
	workers := max(1, min(opts.Workers, len(todo)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := ai.NewEngine(eo)
			for i := range jobs {
				r, err := searchPosition(ctx, e, g, hashes, i)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					cancel()
				} else {
					results[i] = r
					done++
					if opts.Progress != nil {
						opts.Progress(done, len(todo))
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// searchPosition searches position i of g with e: its evaluation, and at
// the beginning of a turn the engine's turn and line. The engine answers
// at once, without a score, in a position with a single legal move, so
// such moves are played first and the position they lead to is searched.
func searchPosition(ctx context.Context, e *ai.Engine, g *rules.Game, hashes []uint64, i int) (searched, error) {
	pos := g.PositionAt(i)
	var s searched
	var forced []rules.Move
	cur, past := pos, append([]uint64(nil), hashes[:i]...)
	for {
		legal := cur.Legal(nil)
		if len(legal) != 1 {
			break
		}
		next, _ := cur.After(legal[0])
		forced = append(forced, legal[0])
		past = append(past, cur.Hash())
		cur = next
		if o := cur.Outcome(); o.Over() {
			s.eval = Eval{Result: o.Result}
			break
		}
	}
	if s.eval.Result == rules.Ongoing {
		r, err := e.Search(ctx, cur, past)
		if err != nil {
			return searched{}, err
		}
		if m := ai.MateIn(r.Score); m != 0 {
			s.eval.Mate = m + sign(m)*len(forced)
		} else {
			s.eval.CP = r.Score
		}
		if cur.ToAct() == rules.Black {
			s.eval.CP, s.eval.Mate = -s.eval.CP, -s.eval.Mate
		}
		if pos.BeginsTurn() {
			s.line = append(forced, e.Line(cur, r.Move, lineLength-len(forced))...)
		}
	} else {
		s.line = forced
	}
	if !pos.BeginsTurn() {
		return s, nil
	}
	// The engine's turn: the line up to the next turn, completed by
	// searching the positions inside the turn the table did not keep.
	cur, past = pos, append(past[:0], hashes[:i]...)
	for k := 0; ; k++ {
		var m rules.Move
		if k < len(s.line) {
			m = s.line[k]
		} else {
			r, err := e.Search(ctx, cur, past)
			if err != nil {
				return searched{}, err
			}
			m = r.Move
		}
		next, ok := cur.After(m)
		if !ok {
			return searched{}, fmt.Errorf("analysis: the engine's move %s is not legal in %s", rules.FormatMove(&cur, m), cur.FEN())
		}
		s.best = append(s.best, m)
		past = append(past, cur.Hash())
		cur = next
		if cur.BeginsTurn() || cur.Outcome().Over() {
			break
		}
	}
	if len(s.line) < len(s.best) {
		s.line = s.best
	}
	return s, nil
}

// build fills a from the searches of g's positions: the plies, the turns
// with their judgements and accuracies, and the game accuracies.
func build(g *rules.Game, results []searched, a *Analysis) {
	moves := g.Moves()
	// Turns: from each position that begins one (or the start) to the next.
	for from := 0; from < len(moves); {
		to := from + 1
		for to < len(moves) {
			p := g.PositionAt(to)
			if p.BeginsTurn() {
				break
			}
			to++
		}
		start := g.PositionAt(from)
		a.Turns = append(a.Turns, Turn{Player: start.ToAct(), From: from, To: to})
		from = to
	}
	for ti := range a.Turns {
		t := &a.Turns[ti]
		t.Before, t.After = results[t.From].eval, results[t.To].eval
		for i := t.From; i < t.To; i++ {
			a.Plies = append(a.Plies, Ply{Move: moves[i], Eval: results[i+1].eval, WhiteWin: results[i+1].eval.WhiteWin(a.Scale), Turn: ti})
		}
		t.Forced = forced(g, t.From, t.To, t.Player)
		before, after := t.Before.WhiteWin(a.Scale), t.After.WhiteWin(a.Scale)
		if t.Player == rules.Black {
			before, after = 100-before, 100-after
		}
		best := results[t.From].best
		switch {
		case t.Forced:
			t.Accuracy = 100
		case sameMoves(best, moves[t.From:t.To]) || len(best) == 0:
			// The engine's own choice loses nothing, whatever the
			// searches of the next positions say.
			t.Accuracy = 100
		default:
			t.Accuracy = MoveAccuracy(before, after)
			t.Judgement, t.Why = judge(t.Before, t.After, t.Player, a.Scale)
			if t.Judgement != Good {
				t.Best, t.Line = best, results[t.From].line
			}
		}
	}
	wins := []float64{results[a.Turns[0].From].eval.WhiteWin(a.Scale)}
	judged := make([]judgedTurn, len(a.Turns))
	for i, t := range a.Turns {
		wins = append(wins, t.After.WhiteWin(a.Scale))
		judged[i] = judgedTurn{white: t.Player == rules.White, accuracy: t.Accuracy, counts: !t.Forced}
	}
	a.White, a.Black, a.WhiteOK, a.BlackOK = gameAccuracy(wins, judged)
}

// forced reports whether the turn of player made of g's moves from..to
// left no choice: each of the player's own parts had one legal move (an
// opponent's answer inside the turn is theirs).
func forced(g *rules.Game, from, to int, player rules.Color) bool {
	for i := from; i < to; i++ {
		p := g.PositionAt(i)
		if p.ToAct() == player && len(p.Legal(nil)) > 1 {
			return false
		}
	}
	return true
}

// sameMoves reports whether a and b are the same moves in order.
func sameMoves(a, b []rules.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sign returns the sign of n: 1, -1 or 0.
func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}
