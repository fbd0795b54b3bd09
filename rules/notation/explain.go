package notation

import (
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/rules"
)

// explain says why the well-formed move sp names no legal move of p. The
// error wraps rules.ErrIllegalMove, or ErrAmbiguousMove when a pawn must
// promote and the text names no piece. sp may be nil when p has no legal
// move.
func explain(p *rules.Position, legal []rules.Move, sp *spec, shown string) *moveError {
	fail := func(format string, args ...any) *moveError {
		return &moveError{kind: rules.ErrIllegalMove, move: shown, reason: fmt.Sprintf(format, args...)}
	}
	if len(legal) == 0 {
		if o := p.Outcome(); o.Over() {
			return fail("the game is over (%s)", o.Reason)
		}
		return fail("%s has no legal move", p.ToAct().Name())
	}
	if alt := filter(p, legal, sp, relaxCont); len(alt) > 0 {
		if sp.cont {
			return fail("this move does not continue the turn: write %s", orList(p, legal, alt))
		}
		return fail("this move continues the turn here: write %s", orList(p, legal, alt))
	}
	v := p.Variant()
	switch sp.kind {
	case specPass:
		return fail("passing is not allowed here")
	case specCastle:
		return fail("%s", castleReason(p, sp))
	case specDrop:
		coord := string(v.Def(sp.piece).Letter) + "@" + sp.to.String()
		if sp.cont {
			coord += ">"
		}
		if sp.capture {
			return fail("%s", dropCaptureReason(p, sp, coord))
		}
		return fail("%s", coordReason(p, coord))
	}

	name := pieceName(v, sp.piece)
	if near := filter(p, legal, sp, relaxCapture|relaxPawnRule|relaxPromo|relaxCont|relaxPlace); len(near) > 0 {
		// A piece the text names can go there: a written detail is wrong.
		var captures, promos, same []rules.Move
		for _, m := range near {
			if p.IsCapture(m) {
				captures = append(captures, m)
			}
			if m.Promotion != rules.NoPieceType {
				promos = append(promos, m)
			}
			if m.Promotion == sp.promo {
				same = append(same, m)
			}
		}
		switch {
		case sp.capture && len(captures) == 0:
			return fail("there is nothing to capture on %s (did you mean %s?)", sp.to, orList(p, legal, near))
		case sp.pawnPush() && len(captures) == len(near):
			return fail("a capture by a pawn names the pawn's file: write %s", orList(p, legal, near))
		case len(same) == 0 && sp.promo == rules.NoPieceType:
			return &moveError{kind: ErrAmbiguousMove, move: shown,
				reason: fmt.Sprintf("the %s must promote: write %s", name, orList(p, legal, near))}
		case len(same) == 0 && len(promos) == 0:
			return fail("a %s moving to %s does not promote", name, sp.to)
		case len(same) == 0:
			return fail("the %s cannot become a %s here: write %s", name, v.Def(sp.promo).Name, orList(p, legal, promos))
		}
		return fail("did you mean %s?", orList(p, legal, near))
	}

	// No piece the text names can go there: find out which pieces it names
	// and ask each why not.
	us := p.Mover()
	var owned int
	var named []rules.Square
	for _, s := range v.Squares() {
		pc := p.At(s)
		if pc.Color() != us || !sp.isPiece(v, pc.Type()) {
			continue
		}
		owned++
		if (sp.fromFile < 0 || s.File() == sp.fromFile) && (sp.fromRank < 0 || s.Rank() == sp.fromRank) {
			named = append(named, s)
		}
	}
	part := partOfTurn(p)
	switch {
	case owned == 0 && sp.piece == rules.NoPieceType && !hasPawns(v):
		return fail("%s has no pawns", v.Name)
	case owned == 0:
		return fail("%s has no %s on the board%s", us.Name(), name, part)
	case len(named) == 0:
		return fail("%s has no %s on %s%s", us.Name(), name, where(sp), part)
	}
	// A piece the variant does not let move now ("the enemy King may not
	// be moved") is told so, wherever the text sends it.
	if r := p.PieceRefusal(named[0]); r != "" && allRefused(p, named, r) {
		return fail("%s", r)
	}
	// A piece already on the square the text names cannot be the one
	// meant to go there.
	away := named[:0:0]
	for _, from := range named {
		if from != sp.to {
			away = append(away, from)
		}
	}
	if len(away) == 0 {
		return fail("%s's %s is already on %s%s", us.Name(), name, sp.to, part)
	}
	named = away
	var promo string
	if sp.promo != rules.NoPieceType {
		promo = string(v.Def(sp.promo).Letter + ('a' - 'A'))
	}
	if sp.cont {
		promo += ">"
	}
	var reasons []string
	for _, from := range named {
		coord := from.String() + sp.to.String() + promo
		if m, err := rules.ParseMove(p, coord); err == nil {
			// Legal in coordinate form but not named by the friendly form:
			// castling written as the castling piece's move.
			if m.Kind == rules.KindCastle {
				return fail("to castle, write %s", san(p, m, legal))
			}
			return fail("write %s", san(p, m, legal))
		}
		reasons = append(reasons, coordReason(p, coord))
	}
	if len(named) == 1 {
		if strings.Contains(reasons[0], " cannot ") {
			return fail("%s%s", reasons[0], part)
		}
		return fail("%s", reasons[0])
	}
	for i, r := range reasons {
		if !strings.Contains(r, " cannot ") {
			return fail("%s (the %s on %s)", r, name, named[i])
		}
	}
	if sp.fromFile >= 0 || sp.fromRank >= 0 {
		return fail("no %s %s on %s can move to %s%s", us.Name(), name, where(sp), sp.to, part)
	}
	return fail("no %s %s can move to %s%s", us.Name(), name, sp.to, part)
}

// partOfTurn says, for a position in which the player to act moves the
// opponent's pieces (a part of a multi-part turn), whose pieces are moved
// now: " (in this part of the turn White moves a Black piece)". "" when
// players move their own pieces.
func partOfTurn(p *rules.Position) string {
	if p.Mover() == p.ToAct() || p.Mover() == rules.NoColor {
		return ""
	}
	return fmt.Sprintf(" (in this part of the turn %s moves a %s piece)", p.ToAct().Name(), p.Mover().Name())
}

// allRefused reports whether every piece on squares may not move for the
// reason r (rules.Position.PieceRefusal).
func allRefused(p *rules.Position, squares []rules.Square, r string) bool {
	for _, s := range squares {
		if p.PieceRefusal(s) != r {
			return false
		}
	}
	return true
}

// isPiece reports whether a piece of type t is one the piece move sp names.
func (s *spec) isPiece(v *rules.Variant, t rules.PieceType) bool {
	if t == rules.NoPieceType {
		return false
	}
	if s.piece == rules.NoPieceType {
		return letterless(v, t)
	}
	return t == s.piece
}

// coordReason returns the reason rules.ParseMove gives for the coordinate
// move coord, without the part that repeats the move.
func coordReason(p *rules.Position, coord string) string {
	_, err := rules.ParseMove(p, coord)
	if err == nil {
		return "it is not legal here"
	}
	msg := err.Error()
	if r, ok := strings.CutPrefix(msg, rules.ErrIllegalMove.Error()+": "+coord+": "); ok {
		return r
	}
	return msg
}

// castleReason says why the castling sp names is not legal in p.
func castleReason(p *rules.Position, sp *spec) string {
	v := p.Variant()
	us := p.Mover()
	dir := sp.body(v)
	var rule *rules.CastlingRule
	for i, r := range v.Castling {
		if r.Color == us && ruleSide(r) == sp.side() && castlePiece(v, r, sp.piece) {
			rule = &v.Castling[i]
			break
		}
	}
	switch {
	case rule == nil && len(v.Castling) == 0:
		return "there is no castling in " + v.Name
	case rule == nil:
		return fmt.Sprintf("%s has no castling %s in %s", us.Name(), dir, v.Name)
	}
	king, rook := letterName(v, rule.Piece), letterName(v, rule.Rook)
	if !strings.ContainsRune(p.CastlingRights(), rune(rule.FENLetter)) {
		return fmt.Sprintf("%s may no longer castle %s (the %s or the %s has moved)", us.Name(), dir, king, rook)
	}
	pf, err1 := rules.ParseSquare(rule.PieceFrom)
	pt, err2 := rules.ParseSquare(rule.PieceTo)
	rf, err3 := rules.ParseSquare(rule.RookFrom)
	rt, err4 := rules.ParseSquare(rule.RookTo)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return "castling " + dir + " is not allowed here"
	}
	lo, hi := min(pf.File(), pt.File(), rf.File(), rt.File()), max(pf.File(), pt.File(), rf.File(), rt.File())
	for f := lo; f <= hi; f++ {
		if s := rules.NewSquare(f, pf.Rank()); s != pf && s != rf && p.At(s) != rules.NoPiece {
			return fmt.Sprintf("castling %s needs %s empty", dir, s)
		}
	}
	if !rule.IgnoreAttacks {
		if p.Attacked(pf, us.Other()) {
			return fmt.Sprintf("the %s is in check", king)
		}
		step := 1
		if pt.File() < pf.File() {
			step = -1
		}
		for f := pf.File(); f != pt.File(); {
			f += step
			if s := rules.NewSquare(f, pf.Rank()); p.Attacked(s, us.Other()) {
				return fmt.Sprintf("the %s would cross or land on %s, which is attacked", king, s)
			}
		}
	}
	return "castling " + dir + " is not allowed here"
}

// pieceName names the pieces a piece move with piece type t (NoPieceType:
// a pawn) moves, for messages.
func pieceName(v *rules.Variant, t rules.PieceType) string {
	if t != rules.NoPieceType {
		return v.Def(t).Name
	}
	name := ""
	for _, d := range v.Pieces {
		if d.Pawn && !d.LetterInSAN {
			if name != "" {
				return "pawn"
			}
			name = d.Name
		}
	}
	if name == "" {
		return "pawn"
	}
	return name
}

// letterName names the piece with FEN letter l.
func letterName(v *rules.Variant, l byte) string {
	if t := v.Type(l); t != rules.NoPieceType {
		return v.Def(t).Name
	}
	return string(l)
}

func hasPawns(v *rules.Variant) bool {
	for _, d := range v.Pieces {
		if d.Pawn && !d.LetterInSAN {
			return true
		}
	}
	return false
}

// where names the squares the disambiguation of sp allows: "b1", "the
// b-file", "rank 1".
func where(sp *spec) string {
	switch {
	case sp.fromFile >= 0 && sp.fromRank >= 0:
		return rules.NewSquare(sp.fromFile, sp.fromRank).String()
	case sp.fromFile >= 0:
		return fmt.Sprintf("the %c-file", 'a'+sp.fromFile)
	}
	return fmt.Sprintf("rank %d", sp.fromRank+1)
}

// dropCaptureReason says why the drop onto a piece sp ("N@xe5") is not
// legal in p, where coord is the plain drop onto that square ("N@e5"):
// the variant has no drops, the piece is not in hand, there is nothing to
// capture there, or drops go onto empty squares only. A variant whose
// special moves drop onto pieces says more (rules.Hooks.ExplainText).
func dropCaptureReason(p *rules.Position, sp *spec, coord string) string {
	v := p.Variant()
	name := v.Def(sp.piece).Name
	switch {
	case !v.Drops.Enabled && len(v.Drops.Slots) == 0:
		return "there are no drops in " + v.Name
	case v.Drops.Enabled && p.Pocket(p.Mover(), sp.piece) == 0:
		return fmt.Sprintf("%s has no %s in hand", p.Mover().Name(), name)
	case p.At(sp.to) == rules.NoPiece:
		return fmt.Sprintf("there is no piece on %s to capture (a drop onto the empty square is written %s)", sp.to, coord)
	}
	return fmt.Sprintf("%s holds a %s %s: a piece is dropped only on an empty square, never onto a piece",
		sp.to, p.At(sp.to).Color().Name(), v.Def(p.At(sp.to).Type()).Name)
}
