package ai

import (
	"math"

	"github.com/fairypost/fairypost/rules"
)

// boardWidth is the row stride of the evaluator's own board copy.
const boardWidth = rules.MaxFiles

// pieceInfo is what the evaluator derived from one piece definition.
type pieceInfo struct {
	legs        []rules.Leg // as seen from White
	value       int         // on the board, hundredths of a pawn
	royal       bool
	pawn        bool
	initialRank int
}

// evaluator judges positions of one variant. Everything it knows comes
// from the variant's data (piece definitions, board, drops) and its
// Strategy; it is built once per variant and is read-only afterwards,
// except for the board scratch space.
type evaluator struct {
	v            *rules.Variant
	pieces       []pieceInfo // index = PieceType
	pocketValue  []int       // index = PieceType
	files, ranks int
	squares      []rules.Square
	idx          []int // board index of squares[i]
	material     int   // percent
	mobility     int
	lastPieces   int
	twoStep      int
	materialOnly bool
	nullMove     bool // the variant allows null-move pruning (Strategy.NullMove)
	startPieces  int  // one side's material in pieces (not pawns, not royal) at the start
	term         func(p *rules.Position, value func(rules.PieceType) int) int
	valueOf      func(rules.PieceType) int
	board        [rules.MaxFiles * rules.MaxRanks]rules.Piece
}

// pieceValue returns the value of type t in hundredths of a pawn.
func (e *evaluator) pieceValue(t rules.PieceType) int {
	if int(t) <= 0 || int(t) >= len(e.pieces) {
		return 0
	}
	return e.pieces[t].value
}

// newEvaluator derives the evaluation of v. materialOnly keeps only the
// material terms (the arena's "material:" player).
func newEvaluator(v *rules.Variant, materialOnly bool) *evaluator {
	e := &evaluator{v: v, files: v.Files, ranks: v.Ranks, materialOnly: materialOnly}
	e.valueOf = e.pieceValue
	st := v.Strategy
	e.material = st.Material
	if e.material == 0 {
		e.material = 100
	}
	e.mobility = st.Mobility
	if e.mobility == 0 {
		e.mobility = 3
	}
	e.lastPieces, e.term, e.twoStep = st.LastPieces, st.Term, st.TwoStepThreat
	e.nullMove = st.NullMove
	pocket := st.Pocket
	if pocket == 0 {
		pocket = 60
	}
	e.pieces = make([]pieceInfo, len(v.Pieces)+1)
	e.pocketValue = make([]int, len(v.Pieces)+1)
	for i, d := range v.Pieces {
		t := rules.PieceType(i + 1)
		legs, err := rules.ParseBetza(d.Betza)
		if err != nil { // a registered variant's pieces always parse
			legs = nil
		}
		pi := pieceInfo{legs: legs, royal: d.Royal, pawn: d.Pawn, initialRank: d.InitialRank}
		switch {
		case d.Royal:
			pi.value = 0 // its loss is the end of the game, judged by the search
		case d.Pawn:
			pi.value = 100
		default:
			pi.value = valueFromMobility(emptyBoardMobility(legs, v.Files, v.Ranks))
		}
		e.pieces[t] = pi
		e.pocketValue[t] = pi.value * pocket / 100
	}
	start := v.Start()
	for t := 1; t < len(e.pieces); t++ {
		if pi := &e.pieces[t]; !pi.royal && !pi.pawn {
			e.startPieces += start.Count(rules.White, rules.PieceType(t)) * pi.value
		}
	}
	if e.startPieces < 600 {
		e.startPieces = 600 // a start without pieces (a pre-game choice): a small army
	}
	// A royal piece of a variant where it may be captured and dropped
	// like any other (no royal piece at all) is valued by its moves.
	for _, s := range v.Squares() {
		e.squares = append(e.squares, s)
		e.idx = append(e.idx, s.File()+s.Rank()*boardWidth)
	}
	return e
}

// emptyBoardMobility is the average number of squares a piece with legs
// reaches from a square of an empty files x ranks board, a square reached
// only by moving or only by capturing counting half, and a rider's further
// squares counting less (a real board is not empty: each square further
// is reached with probability 0.75).
func emptyBoardMobility(legs []rules.Leg, files, ranks int) float64 {
	total := 0.0
	for f := 0; f < files; f++ {
		for r := 0; r < ranks; r++ {
			seen := map[[2]int]float64{}
			for _, l := range legs {
				if l.Hop || l.Initial {
					continue
				}
				w := 0.5
				if l.Mode == rules.ModeBoth {
					w = 1
				}
				reach := 1.0
				for k := 1; ; k++ {
					x, y := f+k*int(l.DX), r+k*int(l.DY)
					if x < 0 || y < 0 || x >= files || y >= ranks {
						break
					}
					key := [2]int{x, y}
					seen[key] = math.Max(seen[key], math.Min(1, seen[key]+w*reach))
					if l.Range == 1 || (l.Range > 1 && k >= int(l.Range)) {
						break
					}
					reach *= 0.75
				}
			}
			for _, x := range seen {
				total += x
			}
		}
	}
	return total / float64(files*ranks)
}

// valueFromMobility turns a piece's average mobility into its value in
// hundredths of a pawn: a chess Knight (5.25 squares) is worth 3 pawns,
// in proportion.
func valueFromMobility(m float64) int {
	if m <= 0 {
		return 50
	}
	return int(300*math.Pow(m/5.25, 1.0) + 0.5)
}

// hasPieces reports whether side c has a piece on the board that is
// neither a pawn nor royal (without one, zugzwang is common).
func (e *evaluator) hasPieces(p *rules.Position, c rules.Color) bool {
	for t := 1; t < len(e.pieces); t++ {
		if pi := &e.pieces[t]; !pi.royal && !pi.pawn && p.Count(c, rules.PieceType(t)) > 0 {
			return true
		}
	}
	return false
}

// materialOf returns side c's material on the board (without the Strategy
// weight) and its number of pieces there.
func (e *evaluator) materialOf(p *rules.Position, c rules.Color) (value, count int) {
	for t := 1; t < len(e.pieces); t++ {
		n := p.Count(c, rules.PieceType(t))
		value += n * e.pieces[t].value
		count += n
	}
	return value, count
}

// evaluate judges p from the point of view of the player to act, in
// hundredths of a pawn. p is a position at a turn boundary that is not
// over.
func (e *evaluator) evaluate(p *rules.Position) int {
	white := e.whiteScore(p)
	if p.ToAct() == rules.Black {
		return -white
	}
	return white
}

// whiteScore judges p for White.
func (e *evaluator) whiteScore(p *rules.Position) int {
	wm, wn := e.materialOf(p, rules.White)
	bm, bn := e.materialOf(p, rules.Black)
	score := (wm - bm) * e.material / 100
	for t := 1; t < len(e.pocketValue); t++ {
		if pv := e.pocketValue[t]; pv != 0 {
			score += pv * (p.Pocket(rules.White, rules.PieceType(t)) - p.Pocket(rules.Black, rules.PieceType(t))) * e.material / 100
		}
	}
	if e.lastPieces != 0 {
		score += e.lastPiecesValue(wn) - e.lastPiecesValue(bn)
	}
	if e.materialOnly {
		return score
	}
	score += e.positional(p)
	if e.term != nil {
		score += e.term(p, e.valueOf)
	}
	return score
}

// lastPiecesValue is the worth of having n pieces on the board when the
// last ones weigh most.
func (e *evaluator) lastPiecesValue(n int) int {
	v := 0
	for k := 1; k <= n && k <= 16; k++ {
		v += e.lastPieces / k
	}
	return v
}

// Weights of the generic positional terms, in hundredths of a pawn.
const (
	exposureWeight = 5  // per square a queen on a royal piece's square would reach, with the enemy army complete
	centreWeight   = 5  // per step of a royal piece towards the centre, with the enemy army gone
	doubledPawn    = 12 // per pawn behind another of its side on its file
	isolatedPawn   = 10 // per pawn without a pawn of its side on a neighbouring file
)

// pawnAdvance and passedPawn are a pawn's worth by its distance to the
// far rank (index 1 = one step away): any pawn, and one more for a pawn
// no enemy pawn can stop or take on its way (passed).
var (
	pawnAdvance = [...]int{0, 50, 25, 10, 4}
	passedPawn  = [...]int{0, 100, 60, 35, 18, 10, 5}
)

// positional adds, for White minus Black: mobility (and two-step
// threats), pawns by their advance and structure, and royal pieces by
// their exposure while the enemy has pieces and by their centrality when
// it has few, walking every piece's legs on a copy of the board.
func (e *evaluator) positional(p *rules.Position) int {
	b := &e.board
	for i, s := range e.squares {
		b[e.idx[i]] = p.At(s)
	}
	mob := [3]int{}
	pos := [3]int{}
	var pawnFiles [3][rules.MaxFiles]int8 // pawns per file
	var front [3][rules.MaxFiles]int8     // White: highest rank of a pawn on the file (-1 none); Black: lowest (ranks none)
	var pawns [3][2 * rules.MaxFiles]int16
	var npawns [3]int
	var royal [3]int
	royal[rules.White], royal[rules.Black] = -1, -1
	for f := 0; f < e.files; f++ {
		front[rules.White][f], front[rules.Black][f] = -1, int8(e.ranks)
	}
	pieces := [3]int{}
	for i := range e.squares {
		pc := b[e.idx[i]]
		if pc == rules.NoPiece {
			continue
		}
		c := pc.Color()
		pi := &e.pieces[pc.Type()]
		f, r := e.idx[i]%boardWidth, e.idx[i]/boardWidth
		rel := r
		if c == rules.Black {
			rel = e.ranks - 1 - r
		}
		mob[c] += e.mobilityOf(pi, c, f, r, rel)
		switch {
		case pi.royal:
			royal[c] = e.idx[i]
		case pi.pawn:
			pawnFiles[c][f]++
			if c == rules.White && int(front[c][f]) < r || c == rules.Black && int(front[c][f]) > r {
				front[c][f] = int8(r)
			}
			if npawns[c] < len(pawns[c]) {
				pawns[c][npawns[c]] = int16(e.idx[i])
				npawns[c]++
			}
		default:
			pieces[c] += pi.value
		}
	}
	for c := rules.White; c <= rules.Black; c++ {
		them := c.Other()
		for k := 0; k < npawns[c]; k++ {
			f, r := int(pawns[c][k])%boardWidth, int(pawns[c][k])/boardWidth
			dist := e.ranks - 1 - r
			if c == rules.Black {
				dist = r
			}
			if dist < len(pawnAdvance) {
				pos[c] += pawnAdvance[dist]
			}
			passed, isolated := true, true
			for g := max(f-1, 0); g <= min(f+1, e.files-1); g++ {
				if g != f && pawnFiles[c][g] > 0 {
					isolated = false
				}
				if c == rules.White && int(front[them][g]) < e.ranks && int(front[them][g]) > r ||
					c == rules.Black && front[them][g] >= 0 && int(front[them][g]) < r {
					passed = false
				}
			}
			if passed && dist < len(passedPawn) {
				pos[c] += passedPawn[dist]
			}
			if isolated {
				pos[c] -= isolatedPawn
			}
		}
		for f := 0; f < e.files; f++ {
			if n := int(pawnFiles[c][f]); n > 1 {
				pos[c] -= doubledPawn * (n - 1)
			}
		}
		if royal[c] >= 0 {
			// The enemy army's share of its start, 0..256.
			phase := min(256, pieces[them]*256/e.startPieces)
			f, r := royal[c]%boardWidth, royal[c]/boardWidth
			pos[c] -= e.exposure(f, r) * exposureWeight * phase / 256
			centre := (e.files - 1 - abs(2*f-(e.files-1)) + e.ranks - 1 - abs(2*r-(e.ranks-1))) / 2
			pos[c] += centre * centreWeight * (256 - phase) / 256
		}
	}
	score := (mob[rules.White]-mob[rules.Black])*e.mobility + pos[rules.White] - pos[rules.Black]
	if e.twoStep != 0 && e.twoStepThreat(p.ToAct()) {
		if p.ToAct() == rules.White {
			score += e.twoStep
		} else {
			score -= e.twoStep
		}
	}
	return score
}

// exposure counts the empty squares a queen on (f, r) of the evaluator's
// board would reach: the lines along which a royal piece there can be
// attacked.
func (e *evaluator) exposure(f, r int) int {
	n := 0
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		x, y := f+d[0], r+d[1]
		for x >= 0 && y >= 0 && x < e.files && y < e.ranks && e.board[x+y*boardWidth] == rules.NoPiece {
			n++
			x += d[0]
			y += d[1]
		}
	}
	return n
}

// abs is |x|.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// twoStepThreat reports whether a piece of side c on the evaluator's
// board could take the enemy royal piece with a plain move followed by a
// capture.
func (e *evaluator) twoStepThreat(c rules.Color) bool {
	b := &e.board
	kx, ky := -1, -1
	for i := range e.squares {
		if pc := b[e.idx[i]]; pc != rules.NoPiece && pc.Color() != c && e.pieces[pc.Type()].royal {
			kx, ky = e.idx[i]%boardWidth, e.idx[i]/boardWidth
		}
	}
	if kx < 0 {
		return false
	}
	for i := range e.squares {
		pc := b[e.idx[i]]
		if pc == rules.NoPiece || pc.Color() != c {
			continue
		}
		pi := &e.pieces[pc.Type()]
		f, r := e.idx[i]%boardWidth, e.idx[i]/boardWidth
		b[e.idx[i]] = rules.NoPiece // the piece leaves its square
		found := false
		for li := range pi.legs {
			l := &pi.legs[li]
			if l.Mode&rules.ModeMove == 0 || l.Hop || l.Lame || l.Initial {
				continue
			}
			dx, dy := int(l.DX), int(l.DY)
			if c == rules.Black {
				dy = -dy
			}
			x, y := f, r
			for k := 1; !found; k++ {
				x += dx
				y += dy
				if x < 0 || y < 0 || x >= e.files || y >= e.ranks || b[x+y*boardWidth] != rules.NoPiece {
					break
				}
				found = e.captures(pi, c, x, y, kx, ky)
				if l.Range == 1 || (l.Range > 1 && k >= int(l.Range)) {
					break
				}
			}
		}
		b[e.idx[i]] = pc
		if found {
			return true
		}
	}
	return false
}

// captures reports whether a piece pi of side c on (x, y) captures on
// (kx, ky) by one of its capturing legs, on the evaluator's board.
func (e *evaluator) captures(pi *pieceInfo, c rules.Color, x, y, kx, ky int) bool {
	for li := range pi.legs {
		l := &pi.legs[li]
		if l.Mode&rules.ModeCapture == 0 || l.Hop || l.Initial {
			continue
		}
		dx, dy := int(l.DX), int(l.DY)
		if c == rules.Black {
			dy = -dy
		}
		// The target must lie on the leg's line, k steps away.
		var k int
		switch {
		case dx != 0:
			k = (kx - x) / dx
		default:
			k = (ky - y) / dy
		}
		if k < 1 || x+k*dx != kx || y+k*dy != ky || (l.Range == 1 && k != 1) || (l.Range > 1 && k > int(l.Range)) {
			continue
		}
		if l.Lame && b0(e, x+dx/2, y+dy/2) {
			continue
		}
		clear := true
		for j := 1; j < k; j++ {
			if b0(e, x+j*dx, y+j*dy) {
				clear = false
				break
			}
		}
		if clear {
			return true
		}
	}
	return false
}

// b0 reports whether (x, y) of the evaluator's board is occupied.
func b0(e *evaluator, x, y int) bool { return e.board[x+y*boardWidth] != rules.NoPiece }

// mobilityOf counts the squares a piece of owner c on (f, r) can move or
// capture to, as its legs say (rel is its owner-relative rank from 0).
func (e *evaluator) mobilityOf(pi *pieceInfo, c rules.Color, f, r, rel int) int {
	b := &e.board
	n := 0
	for li := range pi.legs {
		l := &pi.legs[li]
		if l.Initial && rel != pi.initialRank-1 {
			continue
		}
		dx, dy := int(l.DX), int(l.DY)
		if c == rules.Black {
			dy = -dy
		}
		if l.Lame {
			tx, ty := f+dx, r+dy
			if tx < 0 || ty < 0 || tx >= e.files || ty >= e.ranks || b[f+dx/2+(r+dy/2)*boardWidth] != rules.NoPiece {
				continue
			}
		}
		x, y := f, r
		screen := !l.Hop
		for k := 1; ; k++ {
			x += dx
			y += dy
			if x < 0 || y < 0 || x >= e.files || y >= e.ranks {
				break
			}
			pc := b[x+y*boardWidth]
			if pc == rules.NoPiece {
				if screen && l.Mode&rules.ModeMove != 0 {
					n++
				}
			} else {
				if !screen {
					screen = true
					continue
				}
				if pc.Color() != c && l.Mode&rules.ModeCapture != 0 {
					n++
				}
				break
			}
			if l.Range == 1 || (l.Range > 1 && k >= int(l.Range)) {
				break
			}
		}
	}
	return n
}
