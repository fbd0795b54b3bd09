package ai

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/fairypost/fairypost/rules"
)

// Scores are in hundredths of a pawn from the point of view of the player
// to act. A won game scores mateScore less the number of atomic moves to
// the end; a lost one the negative.
const (
	mateScore = 30000
	infScore  = 32000
	mateBound = mateScore - 1000
	maxPly    = 100
	maxDepth  = 64
	maxQPly   = 8 // quiescence plies after the last full-width move
	// qQuietMoves is the number of quiet moves the quiescence search tries
	// inside a turn, to finish it (the best-ordered ones), one move past
	// the horizon (at the horizon it tries them all).
	qQuietMoves = 4
	// firstIterationSlack is how many times its node budget a search may
	// spend to complete its first iteration (a choice from a complete
	// iteration is much better than one from a few moves judged).
	firstIterationSlack = 10
)

// ErrNoMoves is returned by Search for a position without legal moves (a
// finished game).
var ErrNoMoves = errors.New("ai: no legal move in this position")

// Result is the outcome of a search.
type Result struct {
	// Move is the move chosen.
	Move rules.Move
	// Score is the chosen move's score in hundredths of a pawn for the
	// player to act; MateIn reports a forced end.
	Score int
	// Depth is the last search depth completed, in atomic moves.
	Depth int
	// Nodes is the number of positions visited.
	Nodes int64
	// Choices is the number of moves the choice was drawn from (1 when the
	// best move was taken).
	Choices int
}

// MateIn returns, for a score that announces a forced end, the number of
// atomic moves to it (positive when the player to act wins, negative when
// they lose), and 0 otherwise.
func MateIn(score int) int {
	switch {
	case score > mateBound:
		return mateScore - score
	case score < -mateBound:
		return -(mateScore + score)
	}
	return 0
}

// rootMove is a legal move at the root with its last score.
type rootMove struct {
	move     rules.Move
	score    int
	exact    bool // the score is exact (within the window of choice)
	searched bool // the score is from the current iteration
}

// Engine searches positions. It owns its transposition table (about
// 12 MB) and move ordering tables, so reusing one Engine saves allocating
// them; timed searches also reuse what they learnt. An Engine is not safe
// for concurrent use; use one per goroutine.
type Engine struct {
	opts Options
	ev   *evaluator
	tt   []ttEntry

	pos     [maxPly + 1]rules.Position
	hashes  [maxPly + 1]uint64
	moves   [maxPly][]rules.Move
	scores  [maxPly][]int32
	killers [maxPly][2]rules.Move
	nulled  [maxPly + 1]bool // the position at ply was reached by a pass of the search (null move)
	history [256][256]int32
	scratch rules.Position // working space of move generation
	past    []uint64       // hashes of the game's earlier positions, oldest first

	root     []rootMove
	nodes    int64
	limit    int64 // the node budget; the first iteration may go past it (firstIterationSlack)
	depth    int   // the depth of the iteration under way
	timed    bool
	deadline time.Time
	ctx      context.Context
	stopped  bool
}

// NewEngine returns an engine playing with opts (see Options; an invalid
// Level is brought into 1..TopLevel).
func NewEngine(opts Options) *Engine {
	e := &Engine{opts: opts.normalized(), tt: make([]ttEntry, ttSize)}
	for i := range e.moves {
		e.moves[i] = make([]rules.Move, 0, 256)
		e.scores[i] = make([]int32, 0, 256)
	}
	return e
}

// Options returns the engine's options, with defaults filled in.
func (e *Engine) Options() Options { return e.opts }

// Search chooses a move for the player to act in pos. past holds the hashes
// (Position.Hash) of the game's earlier positions, oldest first, so the
// search can see repetitions; it may be nil. With a node budget (levels
// 1-8, Options.Nodes) the search starts afresh and its result depends only
// on (pos, past, options); with a time budget (TopLevel, Options.MoveTime)
// the search stops at the deadline and reuses what earlier searches of
// this Engine learnt. Search returns
// ErrNoMoves when pos has no legal move and ctx.Err() when ctx is done
// before the search ends.
func (e *Engine) Search(ctx context.Context, pos rules.Position, past []uint64) (Result, error) {
	start := time.Now()
	v := pos.Variant()
	if e.ev == nil || e.ev.v != v {
		e.ev = newEvaluator(v, e.opts.MaterialOnly)
		clear(e.tt)
	}
	legal := pos.Legal(nil)
	if len(legal) == 0 {
		return Result{}, ErrNoMoves
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	e.ctx, e.stopped, e.nodes = ctx, false, 0
	e.limit = e.opts.Nodes
	if e.limit <= 0 {
		e.limit = 1 << 62
	}
	e.timed = e.opts.MoveTime > 0
	e.deadline = start.Add(e.opts.MoveTime)
	e.past = append(e.past[:0], past...)
	if e.timed {
		// A timed search is not reproducible anyway: keep what the last
		// search learnt, aged.
		for i := range e.history {
			for j := range e.history[i] {
				e.history[i][j] /= 8
			}
		}
	} else {
		// A search by nodes starts afresh, so that its move depends only
		// on its inputs.
		clear(e.tt)
		e.history = [256][256]int32{}
	}
	e.killers = [maxPly][2]rules.Move{}
	e.pos[0] = pos
	e.hashes[0] = pos.Hash()
	e.root = e.root[:0]
	for _, m := range legal {
		e.root = append(e.root, rootMove{move: m, score: -infScore})
	}
	e.orderRoot(0)
	res := Result{Move: e.root[0].move, Choices: 1}
	if len(legal) == 1 {
		return res, nil
	}
	if e.opts.Greedy {
		res.Move, res.Score, res.Choices = e.greedy(e.root)
		res.Nodes = e.nodes
		return res, nil
	}
	done := 0
	var best []rootMove
	for depth := 1; depth <= maxDepth; depth++ {
		e.depth = depth
		e.searchRoot(depth)
		if e.stopped {
			if done > 0 && e.root[0].searched {
				// The unfinished iteration judged the last best move
				// again: the moves it judged, deeper, decide.
				for i := range e.root {
					if !e.root[i].searched {
						e.root[i].score, e.root[i].exact = -infScore, false
					}
				}
				e.orderRoot(0)
				best = append(best[:0], e.root...)
			}
			break
		}
		done = depth
		best = append(best[:0], e.root...)
		if s := e.root[0].score; s > mateBound && mateScore-s <= depth || s < -mateBound {
			break // a forced end is proven
		}
		if e.timed && time.Since(start) > e.opts.MoveTime/2 {
			break // the next iteration would not end in time
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if done == 0 {
		// Not even one iteration finished: take the best of the moves the
		// first iteration judged, or one it did not judge rather than one
		// it found lost.
		best = append(best[:0], e.root...)
		for i := range best {
			if !best[i].searched {
				best[i].score = -mateBound // better than a move proven to lose
			}
			best[i].exact = false
		}
		e.root = best
		e.orderRoot(0)
	}
	res.Depth, res.Nodes = done, e.nodes
	res.Move, res.Score, res.Choices = e.choose(best)
	return res, nil
}

// choose returns the move to play among the root moves (best first),
// drawn with the seed among those within the spread of the best.
func (e *Engine) choose(root []rootMove) (rules.Move, int, int) {
	top := root[0].score
	n := 1
	if e.opts.Spread > 0 && top < mateBound && top > -mateBound {
		for n < len(root) && root[n].exact && root[n].score >= top-e.opts.Spread {
			n++
		}
	}
	if n == 1 {
		return root[0].move, top, 1
	}
	x := e.opts.Seed ^ e.hashes[0]
	i := int(splitmix(&x) % uint64(n))
	return root[i].move, root[i].score, n
}

// splitmix64 step: a small deterministic generator.
func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// orderRoot sorts the root moves, from index from on, by score (stable).
func (e *Engine) orderRoot(from int) {
	r := e.root
	for i := from + 1; i < len(r); i++ {
		x := r[i]
		j := i
		for j > from && r[j-1].score < x.score {
			r[j] = r[j-1]
			j--
		}
		r[j] = x
	}
}

// searchRoot searches every root move to depth, scoring each: the best
// exactly, the others exactly when within the spread of the best, else by
// a bound. On return the root moves are sorted best first, unless the
// search stopped.
func (e *Engine) searchRoot(depth int) {
	p := &e.pos[0]
	best := -infScore
	for i := range e.root {
		e.root[i].searched = false
	}
	for i := range e.root {
		rm := &e.root[i]
		child := &e.pos[1]
		if !p.AfterInto(rm.move, child) {
			rm.score, rm.exact = -infScore, false
			continue
		}
		e.hashes[1] = child.Hash()
		flip := child.ToAct() != p.ToAct()
		var v int
		if i == 0 {
			v = e.child(1, depth-1, -infScore, infScore, flip)
		} else {
			a := best - e.opts.Spread
			if e.opts.Spread > 0 {
				a--
			}
			v = e.child(1, depth-1, a, a+1, flip)
			if v > a && !e.stopped {
				v = e.child(1, depth-1, a, infScore, flip)
			}
			rm.exact = v > a
		}
		if e.stopped {
			return
		}
		if i == 0 {
			rm.exact = true
		}
		rm.score, rm.searched = v, true
		if v > best {
			best = v
		}
	}
	e.orderRoot(0)
	e.store(e.hashes[0], depth, e.root[0].score, boundExact, e.root[0].move, 0)
}

// child searches the position at ply from the point of view of its player
// to act and returns the score for the player at ply-1: negated when the
// player to act changed (flip), as is.
func (e *Engine) child(ply, depth, alpha, beta int, flip bool) int {
	if flip {
		return -e.search(ply, depth, -beta, -alpha)
	}
	return e.search(ply, depth, alpha, beta)
}

// qchild is child for the quiescence search.
func (e *Engine) qchild(ply, qply, alpha, beta int, flip bool) int {
	if flip {
		return -e.qsearch(ply, qply, -beta, -alpha)
	}
	return e.qsearch(ply, qply, alpha, beta)
}

// visit counts a node and checks the limits.
func (e *Engine) visit() bool {
	e.nodes++
	if e.nodes >= e.limit && (e.depth > 1 || e.nodes >= e.limit*firstIterationSlack) {
		e.stopped = true
	} else if e.nodes&63 == 0 {
		if e.timed && !time.Now().Before(e.deadline) {
			e.stopped = true
		} else if e.ctx.Err() != nil {
			e.stopped = true
		}
	}
	return !e.stopped
}

// terminal scores a position without legal moves, by the rules' outcome.
func (e *Engine) terminal(p *rules.Position, ply int) int {
	o := p.OutcomeNoMoves()
	switch o.Result {
	case rules.WhiteWins, rules.BlackWins:
		if o.Result == rules.WinFor(p.ToAct()) {
			return mateScore - ply
		}
		return -(mateScore - ply)
	}
	return 0
}

// drawnByRule reports the draws that end a game while moves remain (the
// automatic move-count draw, insufficient material) or a repetition of a
// position of the game or of the search path.
func (e *Engine) drawnByRule(p *rules.Position, ply int) bool {
	v := p.Variant()
	if v.DrawAutoPlies > 0 && p.HalfmoveClock() >= v.DrawAutoPlies {
		return true
	}
	if v.InsufficientMaterial != nil && v.InsufficientMaterial(p) {
		return true
	}
	if ply == 0 {
		return false
	}
	h := e.hashes[ply]
	n := 0
	for i := ply - 1; i >= 0 && n < 64; i-- {
		if e.hashes[i] == h {
			return true
		}
		n++
	}
	for i := len(e.past) - 1; i >= 0 && n < 64; i-- {
		if e.past[i] == h {
			return true
		}
		n++
	}
	return false
}

// search is the principal variation search of the position at ply to
// depth atomic moves. A position inside a turn (Phase != 0) is never
// judged statically: the turn is finished first.
func (e *Engine) search(ply, depth, alpha, beta int) int {
	if !e.visit() {
		return 0
	}
	p := &e.pos[ply]
	boundary := p.Phase() == 0
	// A player in check at a turn boundary is searched one move deeper:
	// the answers are few and the line is forcing.
	inCheck := boundary && p.InCheck()
	if inCheck && ply < maxPly/2 {
		depth++
	}
	// At the horizon the quiescence search takes over: at a turn boundary
	// it tries the noisy moves; inside a turn it tries every move at the
	// horizon, then finishes the turn with the noisy and the best-ordered
	// quiet moves.
	if depth <= 0 {
		return e.qsearch(ply, 0, alpha, beta)
	}
	if ply >= maxPly-1 {
		return e.ev.evaluate(p)
	}
	moves := p.LegalInto(e.moves[ply][:0], &e.scratch)
	e.moves[ply] = moves[:0]
	if len(moves) == 0 {
		return e.terminal(p, ply)
	}
	if boundary && e.drawnByRule(p, ply) {
		return 0
	}
	// Mate-distance pruning keeps mate scores honest and trees small.
	if a := -(mateScore - ply); alpha < a {
		alpha = a
		if alpha >= beta {
			return alpha
		}
	}
	hash := e.hashes[ply]
	ttMove, ok := rules.Move{}, false
	if ent := e.probe(hash); ent != nil {
		ttMove, ok = ent.move, true
		if int(ent.depth) >= depth {
			s := scoreFromTT(int(ent.score), ply)
			switch {
			case ent.bound == boundExact,
				ent.bound == boundLower && s >= beta,
				ent.bound == boundUpper && s <= alpha:
				return s
			}
		}
	}
	pv := beta-alpha > 1
	futile := false // quiet moves cannot raise alpha near the horizon
	if e.ev.nullMove && boundary && !inCheck && !pv && beta > -mateBound && beta < mateBound {
		static := e.ev.evaluate(p)
		if v, cut := e.prune(ply, depth, beta, static); cut {
			return v
		}
		if e.stopped {
			return 0
		}
		futile = depth <= 2 && static+futilityMargin*depth <= alpha
	}
	scores := e.orderMoves(ply, p, moves, ttMove, ok)
	origAlpha := alpha
	best, bestMove := -infScore, moves[0]
	for i := range moves {
		m := pickNext(moves, scores, i)
		child := &e.pos[ply+1]
		if !p.AfterInto(m, child) {
			continue
		}
		if futile && i > 0 && scores[i] < killerScore-1 && !child.InCheck() {
			continue
		}
		e.hashes[ply+1] = child.Hash()
		flip := child.ToAct() != p.ToAct()
		d := depth - 1
		var v int
		if i == 0 {
			v = e.child(ply+1, d, alpha, beta, flip)
		} else {
			// Late quiet moves at a turn boundary are searched shallower
			// first, the later the shallower.
			r := 0
			if boundary && !inCheck && d >= 2 && i >= 3 && scores[i] < killerScore-1 {
				r = lmr[min(d, 63)][min(i, 63)]
				if pv && r > 0 {
					r--
				}
				r = min(r, d-1)
				if r > 0 && child.InCheck() {
					r = 0 // a check is not late
				}
			}
			v = e.child(ply+1, d-r, alpha, alpha+1, flip)
			if v > alpha && (r > 0 || v < beta) && !e.stopped {
				v = e.child(ply+1, d, alpha, beta, flip)
			}
		}
		if e.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if v >= beta {
					if scores[i] < killerScore+2 {
						e.rememberQuiet(ply, m, depth)
					}
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best <= origAlpha:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	e.store(hash, depth, best, bound, bestMove, ply)
	return best
}

// lmr holds the reduction of a late quiet move by remaining depth and
// move number: about ln(depth)·ln(number)/2.
var lmr = func() (t [64][64]int) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int(0.6 + math.Log(float64(d))*math.Log(float64(i))/2)
		}
	}
	return t
}()

// futilityMargin is, per move of depth left, how far the static judgement
// must be from a bound before the search trusts it near the horizon.
const futilityMargin = 100

// prune tries the cheap ways to end a search of the position at ply that
// is expected to fail high (a position at a turn boundary, not in check,
// outside the principal variation, of a variant where having to move is
// no disadvantage): a static judgement far above beta near the horizon,
// then a pass searched shallower (the null move) that still scores beta.
// static is the static judgement of the position.
// It reports the score and whether it cut.
func (e *Engine) prune(ply, depth, beta, static int) (int, bool) {
	p := &e.pos[ply]
	if depth <= 4 && static-futilityMargin*depth >= beta {
		return static, true
	}
	if depth < 3 || static < beta || e.nulled[ply] || !e.ev.hasPieces(p, p.ToAct()) {
		return 0, false
	}
	child := &e.pos[ply+1]
	if !p.AfterInto(rules.Pass(), child) || child.ToAct() == p.ToAct() || child.Phase() != 0 {
		return 0, false
	}
	e.hashes[ply+1] = child.Hash()
	e.nulled[ply+1] = true
	r := 3 + depth/4
	if static-beta > 200 {
		r++
	}
	v := -e.search(ply+1, depth-1-r, -beta, -beta+1)
	e.nulled[ply+1] = false
	if e.stopped || v < beta {
		return 0, false
	}
	if v > mateBound {
		v = beta // a mate found after a pass proves nothing
	}
	return v, true
}

// rootTurn reports whether the position at ply is still inside the turn
// the root position began.
func (e *Engine) rootTurn(ply int) bool {
	for k := 1; k <= ply; k++ {
		if e.pos[k].Phase() == 0 {
			return false
		}
	}
	return true
}

// deltaMargin is how much more than the piece it takes a capture in the
// quiescence search may be worth (by position) before it is not tried.
const deltaMargin = 150

// hopeless reports whether the quiescence search may skip the plain
// capture m of a variant where captures mostly trade material (one with
// Strategy.NullMove): even the piece taken would not lift the static
// judgement stand to alpha, or a more valuable piece takes a defended one.
func (e *Engine) hopeless(p *rules.Position, m rules.Move, stand, alpha int) bool {
	if m.Promotion != rules.NoPieceType || m.Kind == rules.KindDrop {
		return false
	}
	t := victim(p, m)
	if t == rules.NoPieceType || e.ev.pieces[t].royal {
		return false
	}
	gain := e.ev.pieceValue(t)
	if stand+gain+deltaMargin <= alpha {
		return true
	}
	return e.ev.pieceValue(p.At(m.From).Type()) > gain && p.Attacked(m.To, p.Mover().Other())
}

// qsearch is the quiescence search: at a turn boundary the player to act
// may stand on the static judgement or try the noisy moves (those that
// remove a piece of the side not moving, or promote); inside a turn it
// tries every move at the horizon (qply 0), then the noisy moves and the
// best-ordered quiet ones (qQuietMoves, deeper just one), so that only
// whole turns are judged.
func (e *Engine) qsearch(ply, qply, alpha, beta int) int {
	if !e.visit() {
		return 0
	}
	p := &e.pos[ply]
	boundary := p.Phase() == 0
	moves := p.LegalInto(e.moves[ply][:0], &e.scratch)
	e.moves[ply] = moves[:0]
	if len(moves) == 0 {
		return e.terminal(p, ply)
	}
	scores := e.orderMoves(ply, p, moves, rules.Move{}, false)
	best := -infScore
	if boundary {
		if e.drawnByRule(p, ply) {
			return 0
		}
		if m := pickNext(moves, scores, 0); scores[0] >= royalCaptureScore && p.AfterInto(m, &e.pos[ply+1]) {
			// Taking the King ends the game: no standing pat before it.
			e.hashes[ply+1] = e.pos[ply+1].Hash()
			return e.qchild(ply+1, qply+1, alpha, beta, e.pos[ply+1].ToAct() != p.ToAct())
		}
		best = e.ev.evaluate(p)
		if best >= beta || qply >= maxQPly || ply >= maxPly-1 {
			return best
		}
		if best > alpha {
			alpha = best
		}
	} else if ply >= maxPly-1 || qply >= 2*maxQPly {
		return e.ev.evaluate(p)
	}
	stand := best // the static judgement at a turn boundary
	mover := p.Mover()
	_, victims := e.ev.materialOf(p, mover.Other())
	quiet, quietMax := 0, 1 // quiet moves tried inside a turn, and at most
	switch {
	case boundary:
		quiet = -1
	case qply == 0 && e.rootTurn(ply):
		quietMax = len(moves) // the root player's own turn: full width
	case qply == 0:
		quietMax = 2 * qQuietMoves // a later turn, at the horizon
	case qply <= 2:
		quietMax = qQuietMoves
	}
	for i := range moves {
		m := pickNext(moves, scores, i)
		if scores[i] < specialScore && quiet < 0 || quiet >= quietMax {
			break // the rest are quiet (noisy and special moves come first)
		}
		if !boundary && qply >= maxQPly/2 && scores[i] >= specialScore {
			continue // deep inside the quiescence search, just end the turn
		}
		if boundary && e.ev.nullMove && e.hopeless(p, m, stand, alpha) {
			continue
		}
		child := &e.pos[ply+1]
		if !p.AfterInto(m, child) {
			continue
		}
		if scores[i] < captureScore {
			noisy := false
			if m.Kind == rules.KindSpecial {
				_, n := e.ev.materialOf(child, mover.Other())
				noisy = n < victims
			}
			if !noisy {
				if quiet < 0 {
					continue
				}
				quiet++
			}
		}
		e.hashes[ply+1] = child.Hash()
		v := e.qchild(ply+1, qply+1, alpha, beta, child.ToAct() != p.ToAct())
		if e.stopped {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}
