package rules

import "math/bits"

// attacked reports whether side by attacks square s: whether one of by's
// pieces could capture a piece standing on s (pins and the check rule are
// not considered). s may be empty.
func (p *Position) attacked(s Square, by Color) bool {
	return p.attackedVia(s, by, ^uint64(0))
}

// attackedVia is attacked restricted to the probes in mask (bit i = probe
// i; a side with more than 64 probes always tries them all).
func (p *Position) attackedVia(s Square, by Color, mask uint64) bool {
	c := &p.v.c
	bi := by.index()
	probes := c.probes[bi]
	if !c.linesExact[bi] {
		for i := range probes {
			if p.probeHits(&probes[i], s, by) {
				return true
			}
		}
		return false
	}
	for m := mask & c.allProbes[bi]; m != 0; m &= m - 1 {
		if p.probeHits(&probes[bits.TrailingZeros64(m)], s, by) {
			return true
		}
	}
	return false
}

// probeHits reports whether a piece of by attacks s along probe pr.
func (p *Position) probeHits(pr *probe, s Square, by Color) bool {
	want := NewPiece(by, 0) // colour bit only
	q := int(s)
	if pr.steps == 1 && !pr.hop {
		q -= int(pr.off)
		pc := p.board[q]
		return pc != NoPiece && pc&(pieceBlack|wall) == want && pr.types&(1<<(pc&pieceTypeMask)) != 0 &&
			(pr.lameOff == 0 || p.board[q+int(pr.lameOff)] == NoPiece) &&
			(pr.initial < 0 || p.v.relRank(Square(q), by) == int(pr.initial))
	}
	if pr.grass {
		return p.grassHits(pr, q, by)
	}
	hurdle := !pr.hop
	for n := int8(0); n < pr.steps; n++ {
		q -= int(pr.off)
		pc := p.board[q]
		if pc == NoPiece {
			continue
		}
		if pc&wall != 0 {
			return false
		}
		if !hurdle {
			hurdle = true
			continue
		}
		return pc&pieceBlack == want && pr.types&(1<<(pc&pieceTypeMask)) != 0 &&
			(pr.initial < 0 || p.v.relRank(Square(q), by) == int(pr.initial))
	}
	return false
}

// grassHits reports whether a grasshopper of by attacks the square q
// along probe pr: the square next to q is the screen, and the attacker
// the first piece beyond it, at most pr.steps squares from the screen.
func (p *Position) grassHits(pr *probe, q int, by Color) bool {
	q -= int(pr.off)
	if pc := p.board[q]; pc == NoPiece || pc&wall != 0 {
		return false
	}
	for n := int8(0); n < pr.steps; n++ {
		q -= int(pr.off)
		pc := p.board[q]
		if pc == NoPiece {
			continue
		}
		return pc&(pieceBlack|wall) == NewPiece(by, 0) && pr.types&(1<<(pc&pieceTypeMask)) != 0 &&
			(pr.initial < 0 || p.v.relRank(Square(q), by) == int(pr.initial))
	}
	return false
}

// InCheck reports whether the player to act is in check, in variants with
// the check rule (or with a Check hook).
func (p *Position) InCheck() bool {
	if p.v.Hooks.Check != nil {
		return p.v.Hooks.Check(p)
	}
	if !p.v.CheckRule {
		return false
	}
	k := p.royal[p.toAct.index()]
	return k != NoSquare && p.attacked(k, p.toAct.Other())
}

// Attacked reports whether side by attacks square s (s may be empty).
func (p *Position) Attacked(s Square, by Color) bool {
	if !p.v.OnBoard(s) || (by != White && by != Black) {
		return false
	}
	return p.attacked(s, by)
}

// pseudoLegal appends the moves allowed by the data (piece movement,
// castling, drops) and by Hooks.ExtraMoves, without the check rule.
func (p *Position) pseudoLegal(out []Move) []Move {
	c := &p.v.c
	us := p.mover
	ui := us.index()
	for w := 0; w < 3; w++ {
		for b := p.occ[ui][w]; b != 0; b &= b - 1 {
			from := squareOfBit(w*64 + bits.TrailingZeros64(b))
			out = p.pieceMoves(out, from, us)
		}
	}
	for i := range c.castling {
		if p.castle&(1<<i) != 0 && c.castling[i].side == us {
			out = p.castlingMove(out, i)
		}
	}
	if p.v.Drops.Enabled {
		out = p.drops(out, us)
	}
	if p.v.Pass[ui] {
		out = append(out, Move{Kind: KindPass})
	}
	if p.v.Hooks.ExtraMoves != nil {
		out = p.v.Hooks.ExtraMoves(p, out)
	}
	return out
}

// pieceMoves appends the moves of the piece on from, owned by us.
func (p *Position) pieceMoves(out []Move, from Square, us Color) []Move {
	c := &p.v.c
	t := p.board[from].Type()
	if c.overlap[us.index()][t] {
		return dedupe(p.pieceLegMoves(out, from, us), len(out))
	}
	return p.pieceLegMoves(out, from, us)
}

// dedupe removes from out[start:] the moves that occur twice.
func dedupe(out []Move, start int) []Move {
	n := start
	for i := start; i < len(out); i++ {
		dup := false
		for _, m := range out[start:n] {
			if m == out[i] {
				dup = true
				break
			}
		}
		if !dup {
			out[n] = out[i]
			n++
		}
	}
	return out[:n]
}

// legsOverlap reports whether two legs of one piece may reach the same
// square with moves of a common mode (counting every square along a line,
// screens or not).
func legsOverlap(legs []cleg) bool {
	reach := func(l cleg) []int {
		last := int(l.steps)
		if l.grass {
			last++ // the landing square beyond the screen
		}
		var out []int
		for k := 1; k <= last && k <= MaxFiles+1; k++ {
			out = append(out, k*int(l.off))
		}
		return out
	}
	for i := range legs {
		if legs[i].shadowed || legs[i].epOnly {
			continue
		}
		for j := i + 1; j < len(legs); j++ {
			if legs[j].shadowed || legs[j].epOnly || legs[i].mode&legs[j].mode == 0 {
				continue
			}
			for _, a := range reach(legs[i]) {
				for _, b := range reach(legs[j]) {
					if a == b {
						return true
					}
				}
			}
		}
	}
	return false
}

// pieceLegMoves appends the moves of the piece on from, leg by leg.
func (p *Position) pieceLegMoves(out []Move, from Square, us Color) []Move {
	c := &p.v.c
	pc := p.board[from]
	t := pc.Type()
	themBit := NewPiece(us.Other(), 0)
	pawn := c.pawnType[t]
	onInitial := c.initialRank[t] >= 0 && c.initialRank[t] == p.v.relRank(from, us)
	for i := range c.legs[us.index()][t] {
		l := &c.legs[us.index()][t][i]
		if l.initial && !onInitial || l.shadowed {
			continue
		}
		if l.lameOff != 0 && p.board[int(from)+int(l.lameOff)] != NoPiece {
			continue
		}
		if l.steps == 1 && !pawn && !l.ep {
			// A plain leap (the common case, kept short).
			to := Square(int(from) + int(l.off))
			target := p.board[to]
			switch {
			case target == NoPiece:
				if l.mode&ModeMove != 0 {
					out = append(out, Move{From: from, To: to})
				}
			case target&(pieceBlack|wall) == themBit && l.mode&ModeCapture != 0:
				out = append(out, Move{From: from, To: to})
			}
			continue
		}
		if l.grass {
			out = p.grassMoves(out, from, l, us, pawn)
			continue
		}
		to := int(from)
		screened := !l.hop
		for n := int8(0); n < l.steps; n++ {
			to += int(l.off)
			target := p.board[to]
			if target&wall != 0 {
				break
			}
			if target == NoPiece {
				if !screened {
					continue
				}
				if l.mode&ModeMove != 0 {
					out = p.addMove(out, from, Square(to), KindNormal, pawn, us)
				} else if l.ep && Square(to) == p.ep {
					// An en-passant capture never promotes, even when it
					// lands in the promotion zone (as in Fairy-Stockfish).
					out = p.addMove(out, from, Square(to), KindEnPassant, false, us)
				}
				continue
			}
			if !screened {
				screened = true
				continue
			}
			if l.mode&ModeCapture != 0 && !l.epOnly && target&pieceBlack == themBit {
				out = p.addMove(out, from, Square(to), KindNormal, pawn, us)
			}
			break
		}
	}
	return out
}

// grassMoves appends the move of the grasshopper leg l of the piece on
// from: up to l.steps squares to a screen, then the square beyond it.
func (p *Position) grassMoves(out []Move, from Square, l *cleg, us Color, pawn bool) []Move {
	to := int(from)
	for n := int8(0); n < l.steps; n++ {
		to += int(l.off)
		target := p.board[to]
		if target == NoPiece {
			continue
		}
		if target&wall != 0 {
			return out
		}
		to += int(l.off)
		switch land := p.board[to]; {
		case land == NoPiece:
			if l.mode&ModeMove != 0 {
				out = p.addMove(out, from, Square(to), KindNormal, pawn, us)
			}
		case land&wall == 0 && land&pieceBlack == NewPiece(us.Other(), 0) && l.mode&ModeCapture != 0:
			out = p.addMove(out, from, Square(to), KindNormal, pawn, us)
		}
		return out
	}
	return out
}

// addMove appends a move to to, expanding pawn promotions.
func (p *Position) addMove(out []Move, from, to Square, kind MoveKind, pawn bool, us Color) []Move {
	m := Move{From: from, To: to, Kind: kind}
	zone := p.v.Promotion.Zone
	if !pawn || zone == 0 {
		return append(out, m)
	}
	rr := p.v.relRank(to, us)
	if rr < p.v.Ranks-zone {
		return append(out, m)
	}
	switch p.v.Promotion.Rule {
	case PromoteOnLastRank:
		if rr != p.v.Ranks-1 {
			out = append(out, m) // promotion is optional before the last rank
		}
	case PromoteOptional:
		out = append(out, m)
	}
	c := &p.v.c
	for _, t := range c.promoChoices {
		if p.v.Promotion.LimitToStart && int(p.count[us.index()][t]) >= c.startCount[us.index()][t] {
			continue
		}
		if lim := c.promoLimit[t]; lim > 0 && int(p.count[us.index()][t]) >= lim {
			continue
		}
		m.Promotion = t
		out = append(out, m)
	}
	return out
}

// castlingMove appends castling rule i if it is possible now.
func (p *Position) castlingMove(out []Move, i int) []Move {
	r := &p.v.c.castling[i]
	if p.board[r.pieceFrom] != NewPiece(r.side, r.piece) || p.board[r.rookFrom] != NewPiece(r.side, r.rook) {
		return out
	}
	for _, s := range r.mustBeEmpty {
		if p.board[s] != NoPiece {
			return out
		}
	}
	if !r.ignoreAttacks {
		for _, s := range r.mustBeSafe {
			if p.attacked(s, r.side.Other()) {
				return out
			}
		}
	}
	return append(out, Move{From: r.pieceFrom, To: r.pieceTo, Kind: KindCastle, rule: uint8(i)})
}

// drops appends every drop from us's pocket onto an empty square (with
// Drops.OnlyAttacked, onto an empty square us attacks).
func (p *Position) drops(out []Move, us Color) []Move {
	c := &p.v.c
	ui := us.index()
	var targets [MaxFiles * MaxRanks]Square
	n := -1 // targets[:n] are the squares a piece may land on; -1 = not yet known
	for t := PieceType(1); int(t) <= len(p.v.Pieces); t++ {
		if p.pocket[ui][t] == 0 {
			continue
		}
		if n < 0 {
			n = 0
			for _, s := range c.squares {
				if p.board[s] == NoPiece && (!p.v.Drops.OnlyAttacked || p.attacked(s, us)) {
					targets[n] = s
					n++
				}
			}
		}
		for _, s := range targets[:n] {
			if !c.noDrop[ui][t][p.v.relRank(s, us)] && (t != c.noDoubled || !p.onFile(s.File(), NewPiece(us, t))) {
				out = append(out, Move{To: s, Kind: KindDrop, Drop: t})
			}
		}
	}
	return out
}

// onFile reports whether pc stands on file f.
func (p *Position) onFile(f int, pc Piece) bool {
	for r := 0; r < p.v.Ranks; r++ {
		if p.board[NewSquare(f, r)] == pc {
			return true
		}
	}
	return false
}

// Legal appends the legal moves of the player to act to out and returns
// the extended slice. After an end built into the variant's rules (a
// captured King, a variant's own end) there are none; draws by rule
// (move-count, insufficient material, repetition) do not remove moves
// here: Game.Legal applies them. The order is
// deterministic: pieces from a1 upwards rank by rank, each piece's moves in
// its Betza order, then castling, drops and variant moves.
func (p *Position) Legal(out []Move) []Move {
	var scratch Position
	return p.legal(out, &scratch)
}

// legal is Legal with caller-provided working space.
func (p *Position) legal(out []Move, scratch *Position) []Move {
	if _, over := p.terminal(); over {
		return out
	}
	return p.legalMoves(out, scratch)
}

// legalMoves appends the legal moves without asking whether the game is
// over. scratch is working space.
func (p *Position) legalMoves(out []Move, scratch *Position) []Move {
	start := len(out)
	out = p.pseudoLegal(out)
	v := p.v
	if v.NoStranding {
		out = p.dropStranded(out, start)
	}
	if v.NoChecks || v.PassOnlyWhenStuck[p.mover.index()] || v.MustCapture || v.MustDrop {
		return p.dataLegal(out, start, scratch)
	}
	if !v.CheckRule && v.Hooks.Legal == nil {
		return out
	}
	var t legalityTester
	t.init(p, scratch)
	n := start
	if t.pinsKnown {
		// The common case: only king moves, pinned pieces and special
		// kinds of moves need a closer look.
		for _, m := range out[start:] {
			if (m.Kind == KindNormal && m.From != t.king && !t.isPinned(m.From)) || t.legal(m) {
				out[n] = m
				n++
			}
		}
		return out[:n]
	}
	for _, m := range out[start:] {
		if t.legal(m) {
			out[n] = m
			n++
		}
	}
	return out[:n]
}

// dropStranded removes from out[start:] the moves NoStranding forbids.
func (p *Position) dropStranded(out []Move, start int) []Move {
	st := p.v.c.stranded
	ui := p.mover.index()
	n := start
	for _, m := range out[start:] {
		t := NoPieceType
		switch {
		case m.Kind == KindDrop:
			t = m.Drop
		case m.Kind == KindNormal && m.Promotion == NoPieceType:
			t = p.board[m.From].Type()
		}
		if t != NoPieceType && st[ui][t][m.To] {
			continue
		}
		out[n] = m
		n++
	}
	return out[:n]
}

// dataLegal filters out[start:] by playing each move in full: the check
// rule, the variant's Legal hook, NoChecks, a pass allowed only to a
// player who has no other legal move (Variant.PassOnlyWhenStuck), and
// compulsory captures and drops (MustCapture, MustDrop).
func (p *Position) dataLegal(out []Move, start int, scratch *Position) []Move {
	v := p.v
	n := start
	passes := 0
	for _, m := range out[start:] {
		if !p.isLegal(m, scratch) {
			continue
		}
		if v.NoChecks {
			if k := scratch.royal[p.toAct.Other().index()]; k != NoSquare && scratch.attacked(k, p.toAct) {
				continue
			}
		}
		if m.Kind == KindPass {
			passes++
		}
		out[n] = m
		n++
	}
	out = out[:n]
	if v.PassOnlyWhenStuck[p.mover.index()] && passes > 0 && n-start > passes {
		out = keepOnly(out, start, func(m Move) bool { return m.Kind != KindPass })
	}
	if v.MustCapture {
		isCapture := func(m Move) bool { return p.IsCapture(m) }
		if anyMove(out[start:], isCapture) {
			out = keepOnly(out, start, isCapture)
		}
	}
	if v.MustDrop {
		isDrop := func(m Move) bool { return m.Kind == KindDrop }
		if anyMove(out[start:], isDrop) {
			out = keepOnly(out, start, isDrop)
		}
	}
	return out
}

// keepOnly keeps the moves of out[start:] that keep reports.
func keepOnly(out []Move, start int, keep func(Move) bool) []Move {
	k := start
	for _, m := range out[start:] {
		if keep(m) {
			out[k] = m
			k++
		}
	}
	return out[:k]
}

func anyMove(moves []Move, f func(Move) bool) bool {
	for _, m := range moves {
		if f(m) {
			return true
		}
	}
	return false
}

// legalityTester decides which pseudo-legal moves of one position are
// legal. Most moves are settled by geometry: a move of a piece that is not
// royal, while not in check, can only expose the king along a line that an
// enemy rider or hopper uses. The rest are tried on a scratch board (the
// squares a move changes, then restored), and moves the data cannot
// describe are played in full.
type legalityTester struct {
	p       *Position
	scratch *Position
	king    Square
	them    Color
	inCheck bool
	copied  bool
	// pinsKnown says pinned holds every piece of the mover's that stands
	// between its king and an enemy rider on the rider's line with
	// nothing else between, or on the lame square of an enemy lame leaper
	// that would otherwise attack the king (only when not in check, without hoppers and
	// hooks, when the mover moves its own pieces).
	pinsKnown bool
	pinned    [3]uint64
}

// isPinned reports whether the piece on s is in t.pinned.
func (t *legalityTester) isPinned(s Square) bool {
	i := s.bitIndex()
	return t.pinned[i>>6]&(1<<(i&63)) != 0
}

// findPins fills t.pinned by walking each enemy rider line out from the king.
func (t *legalityTester) findPins() {
	p := t.p
	c := &p.v.c
	ti := t.them.index()
	want := NewPiece(t.them, 0)
	for m := c.lameProbes[ti]; m != 0; m &= m - 1 {
		pr := &c.probes[ti][bits.TrailingZeros64(m)]
		attacker := int(t.king) - int(pr.off)
		shield := Square(attacker + int(pr.lameOff))
		pc := p.board[attacker]
		if pc != NoPiece && pc&(pieceBlack|wall) == want && pr.types&(1<<(pc&pieceTypeMask)) != 0 &&
			p.board[shield] != NoPiece && p.board[shield]&(pieceBlack|wall) != want && p.board[shield]&wall == 0 &&
			(pr.initial < 0 || p.v.relRank(Square(attacker), t.them) == int(pr.initial)) {
			i := shield.bitIndex()
			t.pinned[i>>6] |= 1 << (i & 63)
		}
	}
	for m := c.lineProbes[ti]; m != 0; m &= m - 1 {
		pr := &c.probes[ti][bits.TrailingZeros64(m)]
		q := int(t.king)
		shield := NoSquare
		for n := int8(0); n < pr.steps; n++ {
			q -= int(pr.off)
			pc := p.board[q]
			if pc == NoPiece {
				continue
			}
			if pc&wall != 0 {
				break
			}
			if shield == NoSquare {
				if pc&pieceBlack == want {
					break // an enemy piece first: no pin on this line
				}
				shield = Square(q)
				continue
			}
			if pc&pieceBlack == want && pr.types&(1<<(pc&pieceTypeMask)) != 0 &&
				(pr.initial < 0 || p.v.relRank(Square(q), t.them) == int(pr.initial)) {
				i := shield.bitIndex()
				t.pinned[i>>6] |= 1 << (i & 63)
			}
			break
		}
	}
	t.pinsKnown = true
}

// init prepares t for the moves of p.
func (t *legalityTester) init(p *Position, scratch *Position) {
	t.p, t.scratch, t.them, t.king = p, scratch, p.toAct.Other(), NoSquare
	if p.v.CheckRule {
		t.king = p.royal[p.toAct.index()]
		t.inCheck = t.king != NoSquare && p.attacked(t.king, t.them)
		c := &p.v.c
		if t.king != NoSquare && !t.inCheck && p.mover == p.toAct && p.v.Hooks.Legal == nil && p.v.Hooks.AfterMove == nil &&
			c.linesExact[t.them.index()] && c.hopProbes[t.them.index()] == 0 {
			t.findPins()
		}
	}
}

// legal reports whether the pseudo-legal move m is legal.
func (t *legalityTester) legal(m Move) bool {
	p := t.p
	v := p.v
	if v.Hooks.Legal != nil || v.Hooks.AfterMove != nil || m.Kind == KindSpecial || m.Kind == KindPass {
		return p.isLegal(m, t.full())
	}
	if t.king == NoSquare {
		return true
	}
	if p.mover != p.toAct {
		// Moving the opponent's pieces: the geometry shortcuts assume one's own.
		return p.isLegal(m, t.full())
	}
	c := &v.c
	ti := t.them.index()
	switch m.Kind {
	case KindNormal:
		if m.From == t.king {
			return t.tryOnBoard(m.From, m.To, NoSquare, m.To)
		}
		if !t.inCheck && c.linesExact[ti] {
			lines := c.lines[ti][int(m.From)-int(t.king)+mailboxSize]
			if c.hopProbes[ti] != 0 {
				lines |= c.lines[ti][int(m.To)-int(t.king)+mailboxSize] & c.hopProbes[ti]
			}
			lines &= c.lineProbes[ti] | c.lameProbes[ti]
			if lines == 0 {
				return true
			}
			return t.tryOnBoardVia(m.From, m.To, NoSquare, t.king, lines)
		}
		return t.tryOnBoard(m.From, m.To, NoSquare, t.king)
	case KindEnPassant:
		return t.tryOnBoard(m.From, m.To, p.epVictim, t.king)
	case KindDrop:
		if !t.inCheck && c.hopProbes[ti] == 0 {
			return true
		}
		return t.tryOnBoard(NoSquare, m.To, NoSquare, t.king)
	case KindCastle:
		return p.isLegal(m, t.full())
	}
	return p.isLegal(m, t.full())
}

// tryOnBoard moves the piece on from to to (from = NoSquare: a dropped
// piece of the mover's appears on to), removes the piece on victim,
// reports whether king is then safe, and restores the board.
func (t *legalityTester) tryOnBoard(from, to, victim, king Square) bool {
	return t.tryOnBoardVia(from, to, victim, king, ^uint64(0))
}

// full hands out the scratch position for a full play of a move; the
// board copy for tryOnBoard is made again afterwards.
func (t *legalityTester) full() *Position {
	t.copied = false
	return t.scratch
}

// tryOnBoardVia is tryOnBoard testing only the attack probes in mask.
func (t *legalityTester) tryOnBoardVia(from, to, victim, king Square, mask uint64) bool {
	if !t.copied {
		*t.scratch = *t.p
		t.copied = true
	}
	b := &t.scratch.board
	savedTo, savedVictim := b[to], b[victim]
	mover := NewPiece(t.p.mover, 1) // any piece of the mover's: only occupancy and colour matter
	if from != NoSquare {
		mover = b[from]
		b[from] = NoPiece
	}
	if victim != NoSquare {
		b[victim] = NoPiece
	}
	b[to] = mover
	safe := !t.scratch.attackedVia(king, t.them, mask)
	b[to] = savedTo
	if victim != NoSquare {
		b[victim] = savedVictim
	}
	if from != NoSquare {
		b[from] = mover
	}
	return safe
}

// isLegal checks a pseudo-legal move by playing it in full against the
// check rule and the variant's Legal hook. after receives the position after m.
func (p *Position) isLegal(m Move, after *Position) bool {
	p.playInto(m, after)
	if p.v.CheckRule {
		us := p.toAct
		k := after.royal[us.index()]
		if k != NoSquare && after.attacked(k, us.Other()) {
			return false
		}
	}
	if p.v.Hooks.Legal != nil && !p.v.Hooks.Legal(p, after, m) {
		return false
	}
	return true
}
