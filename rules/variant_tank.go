package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Tank Chess piece types, in the order of newTank's Pieces.
const (
	tankPawn PieceType = iota + 1
	tankKnight
	tankBishop
	tankBomb
	tankAtomic
	tankTank
	tankKing
)

// Kinds of Tank Chess special moves (Move.Extra).
const (
	tankDetonate uint8 = 1 // a Bomb or Atomic bomb blows up: From = To = its square
	tankPush     uint8 = 2 // a Tank steps onto an occupied square and pushes the run beyond it
)

// tankSteps are the eight king steps on the mailbox, in the order the
// Tank's pushes are generated: N, NE, E, SE, S, SW, W, NW.
var tankSteps = [8]int{
	mailboxWidth, mailboxWidth + 1, 1, -mailboxWidth + 1,
	-mailboxWidth, -mailboxWidth - 1, -1, mailboxWidth - 1,
}

// newTank returns Tank Chess (Andy Kurnia, 1998) as docs/variants/tank.md
// specifies it, with the decisions T1-T10.
//
// The FIDE array with the a-rooks replaced by Bombs (M), the Queens by
// Atomic bombs (A) and the h-rooks by Tanks (T). King, Bishop, Knight and
// Pawn are FIDE pieces (pawns double-step from their 2nd rank and take en
// passant); a pawn pushed onto its own 1st rank may only step one square
// (T10), and any pawn on its own 2nd rank may double-step, creating an
// en-passant right like any double step (§4.2, T9).
//
// Bomb and Atomic bomb move one king step to an empty square and never
// capture. Instead of moving, either may detonate: it and every piece of
// either colour within one (Bomb) or two (Atomic bomb) king steps is
// removed, with no chain reaction; a detonation with nothing else in range
// is legal (T8). Canonical text: the bomb's square twice ("e2e2"), as if
// it moved onto its own square; no other move goes from a square to itself,
// and the form is a well-formed coordinate move, so ParseMove reads it in
// any letter case and explains why it is illegal when it is. Friendly
// text (package rules/notation): the bomb's letter, '*' (the blast) and
// its square ("M*e2", "A*d1").
//
// The Tank moves one king step and never captures. Onto an occupied square
// it pushes: the contiguous run of pieces (either colour, Kings included)
// starting there shifts one square in the step direction, and a piece
// pushed off the board is gone (T6). A pawn pushed onto its last rank
// promotes at once to the piece the pusher chooses (T2), one move per
// choice; a push never creates an en-passant right. Canonical text: the
// Tank's two squares, with the promotion letter when the push promotes
// ("e5f6", "d6d7m"). The Tank's quiet step needs an empty square and its
// push an occupied one, so the text never names two moves. Friendly text:
// 'T', the Tank's two squares joined by '-', and '=' with the letter of
// the pushed pawn's new piece when the push promotes ("Te5-f6",
// "Td6-d7=M"); SAN writes the Tank's quiet step without the '-' ("Tf6").
//
// Promotion is to Knight, Bishop, Bomb, Atomic bomb or Tank (T1). There is
// no castling.
//
// Check (§4.3, T5): the opponent has a move that removes the King without
// removing their own: a capture, a detonation in range, or a push off the
// board. A move may not leave the mover's King in check, and may not remove
// the mover's King alone; removing both Kings at once is legal and draws
// (T4). Checkmate wins and stalemate draws. (A FEN may still leave the
// side that just moved in check; the player to act may then remove that
// King, which wins.)
//
// Draws are automatic: threefold repetition (the seed says to "declare a
// draw" when the tanks keep pushing each other, derived from the threefold
// rule) and the 50-move rule, whose clock a pawn move, a pushed pawn, a
// capture, a detonation or a piece pushed off the board resets (T7). RULES
// lists both beside stalemate as ends of the game, with no claim, so no
// player action is needed; a checkmate on the 100th ply still wins (as
// Position.Outcome orders the ends).
func newTank(map[string]string) (*Variant, error) {
	return &Variant{
		Key:   "tank",
		Name:  "Tank Chess",
		Files: 8,
		Ranks: 8,
		Pieces: []PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Pawn: true, InitialRank: 2},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight"},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop"},
			{Letter: 'M', Name: "Bomb", Betza: "mK", Art: "bomb", Legend: "may explode instead, removing every piece within one square"},
			{Letter: 'A', Name: "Atomic bomb", Betza: "mK", Art: "atomic-bomb", Legend: "may explode instead, removing every piece within two squares"},
			{Letter: 'T', Name: "Tank", Betza: "mK", Art: "tank", Legend: "pushes the pieces in the line it steps into one square on"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Royal: true},
		},
		StartFEN:          "mnbakbnt/pppppppp/8/8/8/8/PPPPPPPP/MNBAKBNT w - - 0 1",
		Promotion:         Promotion{Zone: 1, Choices: "NBMAT"},
		RoyalCaptureLoses: true,
		Stalemate:         StalemateDraw,
		DrawAutoPlies:     100,
		RepetitionAuto:    3,
		// Bombs are worth what their blast would take; a King near an
		// enemy bomb or Tank is in danger before any check.
		Strategy: Strategy{Term: tankTerm, WinScale: 0.00209132},
		Hooks: Hooks{
			ExtraMoves:      tankExtraMoves,
			Apply:           tankApply,
			Legal:           tankLegal,
			Refusal:         tankRefusal,
			ExplainText:     tankExplainText,
			SpecialKind:     tankSpecialKind,
			Effect:          tankEffect,
			Check:           func(p *Position) bool { return tankThreatened(p, p.toAct) },
			FormatSpecial:   tankFormatSpecial,
			FriendlySpecial: tankFriendlySpecial,
		},
		Help: VariantHelp{
			Summary: "Chess where the a-Rook is a Bomb (M), the Queen an Atomic bomb (A) and the " +
				"h-Rook a Tank (T). These three step one square in any direction onto an empty square and never capture. " +
				"Instead of moving, a bomb may blow up: it and every piece of either side within one square (the Atomic " +
				"bomb: two squares) leave the board. The Tank may also step onto an occupied square, pushing the whole row " +
				"of pieces in front of it one square on; a piece pushed off the board is gone, and a pawn pushed onto its " +
				"last rank promotes, the pusher choosing. Check means your opponent could remove your King next move (by " +
				"a capture, a blast or a push off the board); you may not leave your King in check, nor remove it " +
				"yourself. Checkmate or removing the King wins; removing both Kings at once, stalemate, the third " +
				"repetition and 50 moves by each side without a capture, blast or pawn move draw. Pawns promote to N, B, " +
				"M, A or T. No castling.",
			Notation: []NotationHelp{
				{Kind: "Blast", How: "the bomb's letter, * and its square.",
					Example: "M*a1"},
				{Kind: "Push", How: "T, the Tank's square, - and the occupied square it moves to (a step onto an empty square is written like any move).",
					Example: "Th1-h2"},
				{Kind: "Push that promotes", How: "a push that moves a pawn onto its last rank ends with = and the new piece's letter.",
					Example: "Th6-h7=T", FEN: "4k3/7P/7T/8/8/8/8/4K3 w - - 0 1"},
			},
			Marks: []MarkHelp{
				{Mark: "faded piece", Meaning: "on the board picture, a piece the last move blew up, pushed off or captured."},
			},
		},
	}, nil
}

// tankRadius returns the blast radius of a piece type: 1 for the Bomb, 2
// for the Atomic bomb, 0 for anything that cannot detonate.
func tankRadius(t PieceType) int {
	switch t {
	case tankBomb:
		return 1
	case tankAtomic:
		return 2
	}
	return 0
}

// tankDistance is the number of king steps between a and b.
func tankDistance(a, b Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}

// tankExtraMoves appends the mover's detonations and Tank pushes.
func tankExtraMoves(p *Position, out []Move) []Move {
	us := p.mover
	for _, s := range p.v.c.squares {
		pc := p.board[s]
		if pc.Color() != us {
			continue
		}
		switch pc.Type() {
		case tankBomb, tankAtomic:
			out = append(out, Move{From: s, To: s, Kind: KindSpecial, Extra: tankDetonate})
		case tankTank:
			out = tankPushes(p, out, s)
		}
	}
	return out
}

// tankPushes appends the pushes of the Tank on from: one per occupied
// neighbour, or one per promotion choice when the push puts a pawn on its
// last rank.
func tankPushes(p *Position, out []Move, from Square) []Move {
	for _, d := range tankSteps {
		to := Square(int(from) + d)
		if pc := p.board[to]; pc == NoPiece || pc&wall != 0 {
			continue
		}
		m := Move{From: from, To: to, Kind: KindSpecial, Extra: tankPush}
		if !tankPushPromotes(p, to, d) {
			out = append(out, m)
			continue
		}
		for _, t := range p.v.c.promoChoices {
			m.Promotion = t
			out = append(out, m)
		}
	}
	return out
}

// tankPushPromotes reports whether pushing the run that starts on the
// occupied square s in direction d puts a pawn on its owner's last rank.
func tankPushPromotes(p *Position, s Square, d int) bool {
	for q := int(s); p.board[q] != NoPiece && p.board[q]&wall == 0; q += d {
		pc := p.board[q]
		if !p.v.c.pawnType[pc.Type()] {
			continue
		}
		to := Square(q + d)
		if p.board[to]&wall == 0 && p.v.relRank(to, pc.Color()) == p.v.Ranks-1 {
			return true
		}
	}
	return false
}

// tankApply carries out a detonation or a push on next. A move that is
// neither (only a malformed move handed to Position.After) changes nothing.
func tankApply(next *Position, m Move) {
	if !next.v.OnBoard(m.From) || !next.v.OnBoard(m.To) {
		return
	}
	switch m.Extra {
	case tankDetonate:
		r := tankRadius(next.board[m.From].Type())
		if r == 0 {
			return
		}
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				s := Square(int(m.From) + dy*mailboxWidth + dx)
				if pc := next.board[s]; pc != NoPiece && pc&wall == 0 {
					next.remove(s)
				}
			}
		}
		next.halfmove = 0
	case tankPush:
		d := int(m.To) - int(m.From)
		if next.board[m.From].Type() != tankTank || next.board[m.To] == NoPiece || !slices.Contains(tankSteps[:], d) {
			return
		}
		var run [MaxFiles]Square
		n := 0
		for q := int(m.To); next.board[q] != NoPiece && next.board[q]&wall == 0; q += d {
			run[n] = Square(q)
			n++
		}
		for _, s := range run[:n] {
			if next.v.c.pawnType[next.board[s].Type()] {
				next.halfmove = 0
			}
		}
		if next.board[int(run[n-1])+d]&wall != 0 {
			next.remove(run[n-1]) // pushed off the board
			next.halfmove = 0
			n--
		}
		for i := n - 1; i >= 0; i-- {
			to := Square(int(run[i]) + d)
			pc := next.remove(run[i])
			if m.Promotion != NoPieceType && next.v.c.pawnType[pc.Type()] && next.v.relRank(to, pc.Color()) == next.v.Ranks-1 {
				pc = NewPiece(pc.Color(), m.Promotion)
			}
			next.put(to, pc)
		}
		next.put(m.To, next.remove(m.From))
	}
}

// tankEffect is the Effect hook. A detonation is a blast: its area is
// every square within the bomb's radius, and it removes every piece
// there, the bomb included. A push moves the Tank (the player's move)
// and each piece of the pushed line one square on; the last piece of a
// line that reaches the edge is pushed off the board. A move that did
// neither has no effect of its own.
func tankEffect(before, after *Position, m Move) MoveEffect {
	v := before.v
	if !v.OnBoard(m.From) || !v.OnBoard(m.To) {
		return MoveEffect{}
	}
	switch m.Extra {
	case tankDetonate:
		r := tankRadius(before.board[m.From].Type())
		if r == 0 || after.board[m.From] != NoPiece {
			return MoveEffect{}
		}
		e := MoveEffect{Kind: EffectBlast}
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				s := NewSquare(m.From.File()+dx, m.From.Rank()+dy)
				if s == NoSquare || !v.OnBoard(s) {
					continue
				}
				e.Area = append(e.Area, s)
				if pc := before.board[s]; pc != NoPiece {
					e.Removed = append(e.Removed, Removal{Square: s, Piece: pc})
				}
			}
		}
		return e
	case tankPush:
		df, dr := m.To.File()-m.From.File(), m.To.Rank()-m.From.Rank()
		tank := before.board[m.From]
		if after.board[m.To] != tank || before.board[m.To] == NoPiece {
			return MoveEffect{}
		}
		e := MoveEffect{Kind: EffectPush, Motions: []Motion{{From: m.From, To: m.To, Piece: tank, Main: true}}}
		for s := m.To; s != NoSquare && v.OnBoard(s) && before.board[s] != NoPiece; {
			next := NewSquare(s.File()+df, s.Rank()+dr)
			if next == NoSquare || !v.OnBoard(next) {
				e.Removed = append(e.Removed, Removal{Square: s, Piece: before.board[s], OffFile: df, OffRank: dr})
				break
			}
			e.Motions = append(e.Motions, Motion{From: s, To: next, Piece: before.board[s]})
			s = next
		}
		return e
	}
	return MoveEffect{}
}

// tankLegal forbids moves that remove only the mover's King or leave it in
// check (T4); removing the opponent's King (with or without the mover's)
// ends the game and is always allowed.
func tankLegal(before, after *Position, m Move) bool {
	us := before.toAct
	ourGone := after.royal[us.index()] == NoSquare
	theirGone := after.royal[us.Other().index()] == NoSquare
	switch {
	case ourGone:
		return theirGone
	case theirGone:
		return true
	}
	return !tankThreatened(after, us)
}

// tankThreatened reports whether c's King is in check in the Tank Chess
// sense: whatever the player to act, c's opponent has a move that removes
// c's King without removing their own (a capture, a detonation in range
// that spares their King, a push off the board; T5).
func tankThreatened(p *Position, c Color) bool {
	k := p.royal[c.index()]
	if k == NoSquare {
		return false
	}
	them := c.Other()
	ti := them.index()
	if p.attacked(k, them) {
		return true
	}
	if p.count[ti][tankBomb]+p.count[ti][tankAtomic] > 0 {
		theirKing := p.royal[ti]
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				s := Square(int(k) + dy*mailboxWidth + dx)
				pc := p.board[s]
				if pc.Color() != them {
					continue
				}
				r := tankRadius(pc.Type())
				if r == 0 || max(dx, -dx, dy, -dy) > r {
					continue
				}
				if theirKing == NoSquare || tankDistance(s, theirKing) > r {
					return true
				}
			}
		}
	}
	if p.count[ti][tankTank] > 0 {
		tank := NewPiece(them, tankTank)
		for _, d := range tankSteps {
			if p.board[int(k)+d]&wall == 0 {
				continue // a push this way cannot take the King off the board
			}
			for q := int(k) - d; p.board[q] != NoPiece && p.board[q]&wall == 0; q -= d {
				if p.board[q] == tank {
					return true
				}
			}
		}
	}
	return false
}

// tankFormatSpecial writes a detonation as the bomb's square twice
// ("e2e2") and a push as the Tank's squares with the promotion letter, if
// any ("e5f6", "d6d7m").
func tankFormatSpecial(p *Position, m Move) string {
	if m.Extra == tankDetonate {
		return m.From.String() + m.From.String()
	}
	s := m.From.String() + m.To.String()
	if m.Promotion != NoPieceType && int(m.Promotion) <= len(p.v.Pieces) {
		s += string(p.v.Pieces[m.Promotion-1].Letter + ('a' - 'A'))
	}
	return s
}

// tankFriendlySpecial writes a detonation as the bomb's letter, '*' and
// its square ("M*e2", "A*d1") and a push as "T", the Tank's squares joined
// by '-' and the promotion, if any ("Te5-f6", "Td6-d7=M").
func tankFriendlySpecial(p *Position, m Move) string {
	letter := func(t PieceType) string {
		if t == NoPieceType || int(t) > len(p.v.Pieces) {
			return "?"
		}
		return string(p.v.Pieces[t-1].Letter)
	}
	if m.Extra == tankDetonate {
		return letter(p.At(m.From).Type()) + "*" + m.From.String()
	}
	s := "T" + m.From.String() + "-" + m.To.String()
	if m.Promotion != NoPieceType {
		s += "=" + letter(m.Promotion)
	}
	return s
}

// tankRefusal is the Refusal hook: why tankLegal refuses m.
func tankRefusal(before *Position, m Move) string {
	after, ok := before.After(m)
	if !ok {
		return ""
	}
	us := before.toAct
	if after.royal[us.index()] == NoSquare && after.royal[us.Other().index()] != NoSquare {
		return "it would remove your own King and not the enemy's"
	}
	return "it would leave your King in check (the opponent could then remove it)"
}

// tankExplainText is the ExplainText hook. It reads the friendly forms
// of the special moves, a detonation "A*e2" and a push "Th6-h7" or
// "Td6-d7=M", and says what is wrong with one that is not legal: no such
// bomb or Tank of the mover's there, a Tank's push that is not one step,
// onto an empty square, or with a wrong or missing promotion. Anything
// else gives "".
func tankExplainText(p *Position, text string) string {
	s := strings.TrimRight(text, "+#!?")
	us := p.mover
	if len(s) >= 4 && s[1] == '*' {
		t := p.v.Type(s[0])
		sq, err := ParseSquare(s[2:])
		if t == NoPieceType || err != nil || !p.v.OnBoard(sq) {
			return ""
		}
		name := p.v.Pieces[t-1].Name
		switch {
		case tankRadius(t) == 0:
			return fmt.Sprintf("only a Bomb (M) or an Atomic bomb (A) detonates, not a %s", name)
		case p.board[sq] != NewPiece(us, t):
			return fmt.Sprintf("there is no %s %s on %s", us.Name(), name, sq)
		}
		return ""
	}
	if r := tankBombStep(p, s); r != "" {
		return r
	}
	body, promo, hasPromo := strings.Cut(s, "=")
	from, to, ok := strings.Cut(strings.TrimPrefix(body, "T"), "-")
	if !ok || !strings.HasPrefix(body, "T") {
		return ""
	}
	f, err1 := ParseSquare(from)
	t, err2 := ParseSquare(to)
	if err1 != nil || err2 != nil || !p.v.OnBoard(f) || !p.v.OnBoard(t) {
		return ""
	}
	switch {
	case p.board[f] != NewPiece(us, tankTank):
		return fmt.Sprintf("there is no %s Tank on %s", us.Name(), f)
	case tankDistance(f, t) != 1:
		return "a Tank moves one square in any direction"
	case p.board[t] == NoPiece && hasPromo:
		return fmt.Sprintf("%s is empty, so the Tank steps there without pushing anything: write T%s", t, t)
	case p.board[t] == NoPiece:
		return ""
	}
	promotes := tankPushPromotes(p, t, int(t)-int(f))
	switch {
	case promotes && !hasPromo:
		return "this push puts a pawn on its last rank: add = and the letter of the piece it becomes"
	case !promotes && hasPromo:
		return "this push puts no pawn on its last rank, so nothing promotes"
	case hasPromo && (len(promo) != 1 || !slices.Contains(p.v.c.promoChoices, p.v.Type(promo[0]))):
		var names []string
		for _, c := range p.v.c.promoChoices {
			names = append(names, fmt.Sprintf("%s (%c)", p.v.Pieces[c-1].Name, p.v.Pieces[c-1].Letter))
		}
		return "a pushed pawn becomes a " + strings.Join(names, ", ")
	}
	return ""
}

// tankBombStep says why s, a step of a Bomb or Atomic bomb written like
// any move ("Ac2", "Ad1c2", "Axc2"), is not legal when its square is
// taken: a bomb steps only onto an empty square and never captures. ""
// for other text, an empty square, or no such bomb of the mover's next
// to the square.
func tankBombStep(p *Position, s string) string {
	if len(s) < 3 || strings.ContainsAny(s, "*-=") {
		return ""
	}
	t := p.v.Type(s[0])
	if tankRadius(t) == 0 {
		return ""
	}
	rest := s[1:]
	to, err := ParseSquare(rest[len(rest)-2:])
	rest = rest[:len(rest)-2]
	if err != nil || !p.v.OnBoard(to) || p.board[to] == NoPiece {
		return ""
	}
	rest = strings.TrimSuffix(rest, "x")
	from := NoSquare
	if rest != "" {
		if from, err = ParseSquare(rest); err != nil {
			return ""
		}
	}
	us := p.mover
	for _, b := range p.v.c.squares {
		if p.board[b] != NewPiece(us, t) || tankDistance(b, to) != 1 || (from != NoSquare && b != from) {
			continue
		}
		pc := p.board[to]
		return fmt.Sprintf("a bomb steps only onto an empty square and never captures, and %s holds a %s %s (to blow the %s on %s up, write %c*%s)",
			to, pc.Color().Name(), p.v.Pieces[pc.Type()-1].Name, p.v.Pieces[t-1].Name, b, p.v.Pieces[t-1].Letter, b)
	}
	return ""
}

// tankSpecialKind is the SpecialKind hook: detonations and Tank pushes.
func tankSpecialKind(_ *Position, m Move) string {
	if m.Extra == tankDetonate {
		return "Detonations — a Bomb or Atomic bomb blows up"
	}
	return "Tank pushes — the Tank shoves the pieces ahead of it"
}

// tankTerm is Tank Chess's part of a computer player's judgement
// (Strategy.Term): a bomb is worth a quarter of what its blast would take
// now (enemy pieces less its own side's, an enemy King most), and a King
// within one step of an enemy bomb's blast, or next to an enemy Tank, is
// exposed.
func tankTerm(p *Position, value func(PieceType) int) int {
	score := 0
	for _, s := range p.v.c.squares {
		pc := p.board[s]
		r := tankRadius(pc.Type())
		if r == 0 {
			continue
		}
		c := pc.Color()
		blast := 0
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				q := p.board[int(s)+dy*mailboxWidth+dx]
				if q == NoPiece || q&wall != 0 || dx == 0 && dy == 0 {
					continue
				}
				w := value(q.Type())
				if p.v.Pieces[q.Type()-1].Royal {
					w = 900
				}
				if q.Color() == c {
					blast -= w
				} else {
					blast += w
				}
			}
		}
		gain := max(blast, 0) / 4
		if k := p.royal[c.Other().index()]; k != NoSquare && tankDistance(s, k) == r+1 {
			gain += 40
		}
		if c == Black {
			gain = -gain
		}
		score += gain
	}
	for _, c := range [2]Color{White, Black} {
		k := p.royal[c.index()]
		if k == NoSquare {
			continue
		}
		tank := NewPiece(c.Other(), tankTank)
		for _, d := range tankSteps {
			if p.board[int(k)+d] == tank {
				if c == White {
					score -= 30
				} else {
					score += 30
				}
			}
		}
	}
	return score
}
