package rules

import (
	"fmt"
	"strings"
)

// Making Checkmate Trivially Easy's piece types, in the order of
// newEasymate's Pieces.
const (
	emPawn PieceType = iota + 1
	emKnight
	emBishop // the Augmented Tiger with tigers=on
	emRook
	emQueen
	emKing
)

// emTiger is the Augmented Tiger's type (tigers=on), in the Bishop's slot.
const emTiger = emBishop

// emState is Making Checkmate Trivially Easy's own state (Variant.State).
type emState struct {
	// qep is the square of the Rook that a Queen castling just hopped
	// over the Queen, which the player to act may capture together with
	// that Queen (queen en passant); NoSquare for none.
	qep Square
	// owes[c.index()] says that side c's next promotion must be to a
	// Queen.
	owes [2]bool
	// castled[c.index()] says that side c has castled (recorded only when
	// the penalty depends on it).
	castled [2]bool
}

// Bits of the flag byte of a packed emState, for White; Black's are
// shifted left by one.
const (
	emOwes    uint8 = 1 << 0
	emCastled uint8 = 1 << 2
)

// emStateOf returns the state of p, a position of the variant.
func emStateOf(p *Position) emState { return unpackEmState(p.state) }

func unpackEmState(b stateBytes) emState {
	return emState{
		qep:     Square(b[0]),
		owes:    [2]bool{b[1]&emOwes != 0, b[1]&(emOwes<<1) != 0},
		castled: [2]bool{b[1]&emCastled != 0, b[1]&(emCastled<<1) != 0},
	}
}

func (s emState) pack() stateBytes {
	var flags uint8
	for i := 0; i < 2; i++ {
		if s.owes[i] {
			flags |= emOwes << i
		}
		if s.castled[i] {
			flags |= emCastled << i
		}
	}
	return stateBytes{uint8(s.qep), flags}
}

// emPenalty is the value of the option penalty: when a player whose
// captured Queen was not re-placed must promote the next pawn to a Queen.
type emPenalty uint8

const (
	emPenaltyOff     emPenalty = iota // never
	emPenaltyOn                       // always
	emPenaltyCastled                  // if that player had castled by then
	emPenaltyWhite                    // White only, if White had castled by then
)

// easymateOptions are the options of Making Checkmate Trivially Easy,
// as the constructor receives them.
type easymateOptions struct {
	// queenCastles[c.index()] lets side c's Queen castle (queencastle).
	queenCastles [2]bool
	penalty      emPenalty
	tigers       bool
}

// easymateOptionSet declares the options (§2.7), all off by default.
func easymateOptionSet() optionSet[easymateOptions] {
	return optionSet[easymateOptions]{
		choice("queencastle", "an unmoved Queen castles with an unmoved Rook (d1-b1 with a1-c1, d1-f1 with h1-e1), ignoring attacks; on the next move taking that Rook also takes the Queen (black: only Black's Queen castles)",
			func(o *easymateOptions) *[2]bool { return &o.queenCastles },
			[]optionValue[[2]bool]{{"off", [2]bool{}}, {"both", [2]bool{true, true}}, {"black", [2]bool{false, true}}}),
		choice("penalty", "a player whose captured Queen was not re-placed must promote the next pawn to a Queen (castled: only if that player had castled; white: only White, if White had castled)",
			func(o *easymateOptions) *emPenalty { return &o.penalty },
			[]optionValue[emPenalty]{{"off", emPenaltyOff}, {"on", emPenaltyOn}, {"castled", emPenaltyCastled}, {"white", emPenaltyWhite}}),
		choice("tigers", "Augmented Tigers replace the Bishops: they move as a Bishop without capturing, capture as a Knight, and give check as a Knight or a Bishop",
			func(o *easymateOptions) *bool { return &o.tigers }, onOff()),
	}
}

// easymate holds the options of one combination of Making Checkmate
// Trivially Easy; its methods are the variant's hooks.
type easymate struct {
	easymateOptions
}

// newEasymate returns Making Checkmate Trivially Easy (John Savard) as
// docs/variants/easymate.md specifies it, with the decisions 1-7
// of §2.8.
//
// FIDE chess (castling, en passant, promotion, checkmate wins, stalemate
// draws, the draws of standard chess) with three changes (§2.6):
//
//   - The Queen moves and captures one square diagonally, as a Ferz (F).
//   - A player who captures an enemy Queen may, as part of that move, put
//     it back as the enemy's Queen on any square of the enemy's back rank
//     that is empty after the capture (REC 3, 6), or leave it captured;
//     with no empty square it stays captured. Each choice is its own move:
//     the plain capture "c4d5" (friendly form "Bxd5"), and one move per
//     square, "c4d5@d8" ("Bxd5@d8"), after any promotion letter
//     ("e7d8q@a8", "exd8=Q@a8"). The re-placement square is Move.Place;
//     Hooks.AfterMove puts the Queen there.
//   - While any of a player's Queens is en prise, that is attacked by an
//     enemy piece that could capture it pseudo-legally (pins and defence
//     ignored: REC 1, 2), the player's King may not move: no King step, no
//     castling, not even out of check. A frozen player in check without
//     another way out is checkmated; without check and without moves,
//     stalemated (REC 4).
//
// Options (§2.7), all off by default:
//
//   - queencastle=both|black: an unmoved Queen castles with an unmoved Rook
//     of its side (Black's only, with black): d1-b1 with a1-c1 or d1-f1 with
//     h1-e1, the squares between empty, attacks ignored; the moves are
//     written "d1b1", "d1f1" (castling rights A, H, a, h). A side with
//     two castlings toward one wing has its castlings written in this
//     coordinate form in the friendly form too ("e1g1" for O-O: package
//     notation). On the very next move the opponent may capture the Rook
//     on the crossed square, and that capture also removes the Queen
//     ("queen en passant"), which may then be re-placed like any captured
//     Queen, on its own square too (REC 6). A re-placed Queen never
//     castles (REC 3).
//   - penalty=on|castled|white: when a captured Queen is not re-placed,
//     its owner's next promotion must be to a Queen. With castled, only if
//     the owner had castled (King or Queen) by then; with white, only for
//     White and only if White had castled.
//   - tigers=on: Augmented Tigers (T) replace the Bishops on c1, f1, c8
//     and f8 and as a promotion choice. A Tiger moves as a Bishop without
//     capturing and captures as a Knight (mBcN), so only its knight
//     pattern puts a piece en prise (REC 5); but it gives check as a
//     Knight or as a Bishop: a King on an open Tiger diagonal is in check,
//     which pins and forbids castling out of, through or into such a
//     square (REC 7). That check is the Check hook plus the Legal hook,
//     since a Tiger cannot capture on its diagonal.
//
// The variant state (emState) holds the pending queen en passant
// and, with the penalty, who owes a Queen promotion and who has castled.
// It is the seventh FEN field, a comma-separated list of the items that
// apply, in this order: "castled=w", "castled=b" or "castled=wb" (kept
// only when the penalty depends on it), "mustqueen=" with the sides that
// owe a Queen promotion, and "qep=" with the square of the Rook that may
// be taken with its Queen (kept only while an enemy piece attacks it):
// "castled=w,mustqueen=b,qep=e8". The field is left out when empty.
func newEasymate(opts map[string]string) (*Variant, error) {
	return easymateOptionSet().build("easymate", opts, easymateVariant)
}

// easymateVariant builds Making Checkmate Trivially Easy with options o.
func easymateVariant(o easymateOptions) *Variant {
	e := &easymate{o}
	minor := PieceDef{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop"}
	array := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	promotions := "QRBN"
	if e.tigers {
		minor = PieceDef{Letter: 'T', Name: "Augmented Tiger", Betza: "mBcN", Art: "augmented-tiger",
			Legend: "gives check both as a Bishop and as a Knight"}
		array = "rntqktnr/pppppppp/8/8/8/8/PPPPPPPP/RNTQKTNR"
		promotions = "QRTN"
	}
	castling := fideCastling()
	rights := "KQkq"
	if e.queenCastles[White.index()] {
		castling = append(castling, emQueenCastling(White)...)
		rights += "HA"
	}
	if e.queenCastles[Black.index()] {
		castling = append(castling, emQueenCastling(Black)...)
		rights += "ha"
	}
	v := &Variant{
		Key:   "easymate",
		Name:  "Making Checkmate Trivially Easy",
		Files: 8,
		Ranks: 8,
		Pieces: []PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Pawn: true, InitialRank: 2},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight"},
			minor,
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook"},
			{Letter: 'Q', Name: "Queen", Betza: "F", Art: "ferz-queen"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Royal: true},
		},
		StartFEN:             array + " w " + rights + " - 0 1",
		Castling:             castling,
		Promotion:            Promotion{Zone: 1, Choices: promotions},
		CheckRule:            true,
		DrawClaimPlies:       100,
		DrawAutoPlies:        150,
		RepetitionClaim:      3,
		RepetitionAuto:       5,
		InsufficientMaterial: bareMinorPieces, // a Tiger, like a Queen, is never dead material
		State:                newStateKind(unpackEmState, e.parseState, nil),
		Help:                 easymateHelp(),
		// A King is frozen while its Queen is attacked: a side with a
		// frozen King cannot step out of a check.
		Strategy: Strategy{Term: easymateTerm, WinScale: 0.00119206},
	}
	v.Hooks = Hooks{
		ExtraMoves: e.extraMoves,
		AfterMove:  e.afterMove,
		Legal:      e.legal,
		Refusal:    e.refusal,
	}
	if e.tigers {
		v.Hooks.Check = emTigerCheck
	}
	return v
}

// easymateHelp returns the help of Making Checkmate Trivially Easy: the
// rules in short (docs/variants/easymate.md) and how the re-placement and the
// Queen castling of the option are written.
func easymateHelp() VariantHelp {
	return VariantHelp{
		Summary: "Chess with a weak Queen, which moves and captures only " +
			"one square diagonally. When you capture the enemy Queen you may, in the same move, put it back on any empty " +
			"square of its owner's first rank, or keep it. While any of your Queens is attacked, your King is frozen: it " +
			"may not move or castle, not even out of check, so a check must then be blocked or its piece captured. " +
			"Otherwise it is chess: checkmate wins, stalemate draws, and so do repetition and the 50-move rule.",
		Notation: []NotationHelp{
			{Kind: "Putting the Queen back", How: "the capture, @ and the square on its owner's first rank; the capture alone keeps it.",
				Example: "Bxe7@d8", Moves: "e2e4 e7e6 d2d4 d8e7 c1g5 a7a6"},
			{Kind: "Queen castling (option queencastle)", How: "the unmoved Queen goes two squares toward the a-Rook, which jumps over it (QO-O: toward the h-Rook); attacks do not matter.",
				Example: "QO-O-O", Options: "queencastle=both", Moves: "b1c3 g8f6 b2b3 b8c6 c1b2 e7e6"},
			{Kind: "Taking a castled Queen", How: "on the next move, taking the Rook that castled with the Queen takes the Queen too.",
				Example: "Bxc1", Options: "queencastle=both", FEN: "4k3/8/8/8/5b2/8/8/R2QK3 w KQkqHA - 0 1", Moves: "QO-O-O"},
		},
	}
}

// emQueenCastling returns side c's Queen castlings (docs/variants/easymate.md): the
// Queen two squares toward the Rook, the Rook to the square crossed,
// attacks ignored. FEN letters: the Rook's file (H, A; h, a for Black).
func emQueenCastling(c Color) []CastlingRule {
	rank, h, a := "1", byte('H'), byte('A')
	if c == Black {
		rank, h, a = "8", 'h', 'a'
	}
	return []CastlingRule{
		{Color: c, FENLetter: h, Piece: 'Q', Rook: 'R', PieceFrom: "d" + rank, PieceTo: "f" + rank, RookFrom: "h" + rank, RookTo: "e" + rank, IgnoreAttacks: true},
		{Color: c, FENLetter: a, Piece: 'Q', Rook: 'R', PieceFrom: "d" + rank, PieceTo: "b" + rank, RookFrom: "a" + rank, RookTo: "c" + rank, IgnoreAttacks: true},
	}
}

// queenCastleTo returns the Queen castling of side c whose Rook lands on
// s, or nil.
func queenCastleTo(v *Variant, c Color, s Square) *ccastle {
	for i := range v.c.castling {
		r := &v.c.castling[i]
		if r.side == c && r.piece == emQueen && r.rookTo == s {
			return r
		}
	}
	return nil
}

// emBackRank returns the rank (from 0) of side c's first rank.
func emBackRank(v *Variant, c Color) int {
	if c == Black {
		return v.Ranks - 1
	}
	return 0
}

// tracksCastled reports whether the state records that side c castled:
// only when the penalty depends on it.
func (e *easymate) tracksCastled(c Color) bool {
	return e.penalty == emPenaltyCastled || (e.penalty == emPenaltyWhite && c == White)
}

// mayOwe reports whether side c can ever owe a Queen promotion.
func (e *easymate) mayOwe(c Color) bool {
	return e.penalty == emPenaltyOn || e.tracksCastled(c)
}

// owesAfterLoss reports whether side c, whose captured Queen is not
// re-placed, must promote its next pawn to a Queen; st is the state
// before the capture.
func (e *easymate) owesAfterLoss(c Color, st emState) bool {
	return e.penalty == emPenaltyOn || e.tracksCastled(c) && st.castled[c.index()]
}

// queenTaken reports whether the move m of p (KindNormal, onto an occupied
// square) takes an enemy Queen: one standing on m.To, or, in a queen en
// passant, the one next to the Rook on m.To. It returns the square the
// Queen stands on.
func (easymate) queenTaken(p *Position, m Move) (Square, bool) {
	them := p.mover.Other()
	victim := p.board[m.To]
	if victim == NewPiece(them, emQueen) {
		return m.To, true
	}
	if q := emStateOf(p).qep; q != NoSquare && q == m.To && victim != NoPiece {
		if r := queenCastleTo(p.v, them, q); r != nil && p.board[r.pieceTo] == NewPiece(them, emQueen) {
			return r.pieceTo, true
		}
	}
	return NoSquare, false
}

// extraMoves appends the re-placing captures of enemy Queens: for each
// capture of a Queen (a queen en passant included) one move per square of
// the Queen owner's back rank that is empty after the capture (REC 6).
// The plain captures come from the data.
func (e *easymate) extraMoves(p *Position, out []Move) []Move {
	us, them := p.mover, p.mover.Other()
	var targets [2 * MaxFiles]Square // enemy Queens and a queen en passant Rook that we attack
	n := 0
	if p.count[them.index()][emQueen] > 0 {
		queen := NewPiece(them, emQueen)
		for _, s := range p.v.c.squares {
			if p.board[s] == queen && n < len(targets) && p.attacked(s, us) {
				targets[n] = s
				n++
			}
		}
	}
	if q := emStateOf(p).qep; q != NoSquare && n < len(targets) && p.attacked(q, us) {
		targets[n] = q
		n++
	}
	if n == 0 {
		return out
	}
	rank := emBackRank(p.v, them)
	var buf [256]Move
	for _, from := range p.v.c.squares {
		if p.board[from].Color() != us {
			continue
		}
		for _, m := range p.pieceMoves(buf[:0], from, us) {
			if m.Kind != KindNormal || !emContains(targets[:n], m.To) {
				continue
			}
			qs, ok := e.queenTaken(p, m)
			if !ok {
				continue
			}
			// The plain capture m empties m.From and the Queen's square
			// (a queen en passant takes the Queen beside the Rook on
			// m.To) and fills m.To; the rest of the board stays.
			for f := 0; f < p.v.Files; f++ {
				if s := NewSquare(f, rank); s != m.To && (s == m.From || s == qs || p.board[s] == NoPiece) {
					pm := m
					pm.Extra = uint8(s)
					out = append(out, pm)
				}
			}
		}
	}
	return out
}

// emContains reports whether x is one of s.
func emContains(s []Square, x Square) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// afterMove completes every move on next: the Queen of a queen en passant
// leaves with its Rook, a captured Queen is re-placed on m.Place(), and
// the state is brought up to date (a new queen en passant right, who owes
// a Queen promotion, who has castled).
func (e *easymate) afterMove(before, next *Position, m Move) {
	v := before.v
	us, them := before.mover, before.mover.Other()
	st := emStateOf(before)
	st.qep = NoSquare
	switch m.Kind {
	case KindNormal:
		if !v.OnBoard(m.To) || before.board[m.To] == NoPiece {
			break
		}
		qs, ok := e.queenTaken(before, m)
		if !ok {
			break
		}
		if qs != m.To {
			next.remove(qs) // queen en passant
		}
		pl := m.Place()
		if pl != NoSquare && v.OnBoard(pl) && pl.Rank() == emBackRank(v, them) && next.board[pl] == NoPiece {
			next.put(pl, NewPiece(them, emQueen))
		} else if e.owesAfterLoss(them, st) {
			st.owes[them.index()] = true
		}
	case KindCastle:
		if int(m.rule) >= len(v.c.castling) {
			break
		}
		if e.tracksCastled(us) {
			st.castled[us.index()] = true
		}
		if r := &v.c.castling[m.rule]; r.piece == emQueen && next.attacked(r.rookTo, them) {
			st.qep = r.rookTo
		}
	}
	if m.Promotion != NoPieceType {
		st.owes[us.index()] = false
	}
	next.state = st.pack()
}

// legal adds the variant's conditions to the check rule: a frozen King
// does not move (REC 1, 2, 4), a debtor promotes to a Queen, and with
// Tigers no King stands on, or castles through, an open Tiger diagonal
// (REC 7).
func (e *easymate) legal(before, after *Position, m Move) bool {
	us, them := before.mover, before.mover.Other()
	kingMove := false
	switch m.Kind {
	case KindNormal:
		kingMove = before.board[m.From].Type() == emKing
	case KindCastle:
		r := &before.v.c.castling[m.rule]
		kingMove = r.piece == emKing
		if e.tigers && !r.ignoreAttacks {
			for _, s := range r.mustBeSafe {
				if emTigerLine(before, s, them) {
					return false
				}
			}
		}
	}
	if kingMove && emFrozen(before, us) {
		return false
	}
	if m.Promotion != NoPieceType && m.Promotion != emQueen && emStateOf(before).owes[us.index()] {
		return false
	}
	if e.tigers {
		if k := after.royal[us.index()]; k != NoSquare && emTigerLine(after, k, them) {
			return false
		}
	}
	return true
}

// refusal is the Refusal hook: it names the variant's reason for a move
// legal refuses, "" for the check rule's.
func (e *easymate) refusal(before *Position, m Move) string {
	us := before.mover
	kingMove := (m.Kind == KindNormal && before.board[m.From].Type() == emKing) ||
		(m.Kind == KindCastle && before.v.c.castling[m.rule].piece == emKing)
	if kingMove && emFrozen(before, us) {
		queen := NewPiece(us, emQueen)
		for _, s := range before.v.c.squares {
			if before.board[s] == queen && before.attacked(s, us.Other()) {
				return fmt.Sprintf("the King is frozen: it may not move while its Queen is attacked (the Queen on %s is)", s)
			}
		}
	}
	if m.Promotion != NoPieceType && m.Promotion != emQueen && emStateOf(before).owes[us.index()] {
		return "this pawn must promote to a Queen, since your captured Queen was not put back"
	}
	return ""
}

// emFrozen reports whether side c's King is frozen in p: one of c's Queens
// is attacked by an enemy piece (REC 1, 2; with Tigers, by the knight
// pattern only, REC 5).
func emFrozen(p *Position, c Color) bool {
	if p.count[c.index()][emQueen] == 0 {
		return false
	}
	queen := NewPiece(c, emQueen)
	for _, s := range p.v.c.squares {
		if p.board[s] == queen && p.attacked(s, c.Other()) {
			return true
		}
	}
	return false
}

// emDiagonals are the four diagonal steps on the mailbox.
var emDiagonals = [4]int{mailboxWidth + 1, mailboxWidth - 1, -mailboxWidth + 1, -mailboxWidth - 1}

// emTigerLine reports whether an Augmented Tiger of by sees s along an
// open diagonal (the Tiger's check as a Bishop; s may be occupied).
func emTigerLine(p *Position, s Square, by Color) bool {
	if p.count[by.index()][emTiger] == 0 {
		return false
	}
	tiger := NewPiece(by, emTiger)
	for _, d := range emDiagonals {
		q := int(s) + d
		for p.board[q] == NoPiece {
			q += d
		}
		if p.board[q] == tiger {
			return true
		}
	}
	return false
}

// emTigerCheck is the Check hook with Tigers: the player to act is in
// check when an enemy piece attacks the King (a Tiger by its knight
// pattern) or an enemy Tiger sees it along an open diagonal.
func emTigerCheck(p *Position) bool {
	k := p.royal[p.toAct.index()]
	them := p.toAct.Other()
	return k != NoSquare && (p.attacked(k, them) || emTigerLine(p, k, them))
}

// emSides writes the sides whose flag is set: "w", "b" or "wb".
func emSides(flag [2]bool) string {
	s := ""
	if flag[White.index()] {
		s += "w"
	}
	if flag[Black.index()] {
		s += "b"
	}
	return s
}

// fen writes the state as the seventh FEN field (see newEasymate).
func (s emState) fen() string {
	var items []string
	if w := emSides(s.castled); w != "" {
		items = append(items, "castled="+w)
	}
	if w := emSides(s.owes); w != "" {
		items = append(items, "mustqueen="+w)
	}
	if s.qep != NoSquare {
		items = append(items, "qep="+s.qep.String())
	}
	return strings.Join(items, ",")
}

// parseState reads the seventh FEN field (see newEasymate). Items the
// options do not have are errors; a queen en passant that the board
// contradicts (no castled Queen and Rook there, or nobody attacking the
// Rook) is dropped, so that the FEN written back is canonical.
func (e *easymate) parseState(p *Position, field string) (emState, error) {
	var st emState
	if field == "-" {
		return st, nil
	}
	seen := map[string]bool{}
	for _, item := range strings.Split(field, ",") {
		key, val, ok := strings.Cut(item, "=")
		if !ok || val == "" {
			return st, fmt.Errorf("%q: want key=value (castled=, mustqueen=, qep=)", item)
		}
		if seen[key] {
			return st, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		switch key {
		case "castled", "mustqueen":
			flag, allowed, why := &st.castled, e.tracksCastled, "castling is recorded only with penalty=castled, and White's also with penalty=white"
			if key == "mustqueen" {
				flag, allowed, why = &st.owes, e.mayOwe, "a Queen promotion is owed only with penalty=on or castled, and White's also with penalty=white"
			}
			sides := map[string][]Color{"w": {White}, "b": {Black}, "wb": {White, Black}}[val]
			if sides == nil {
				return st, fmt.Errorf("%s=%s: want w, b or wb", key, val)
			}
			for _, c := range sides {
				if !allowed(c) {
					return st, fmt.Errorf("%s=%s: %s", key, val, why)
				}
				flag[c.index()] = true
			}
		case "qep":
			s, err := ParseSquare(val)
			them := p.toAct.Other()
			r := queenCastleTo(p.v, them, s)
			if err != nil || r == nil {
				why := "the options let no Queen of " + them.String() + " castle"
				if e.queenCastles[them.index()] {
					why = "a Rook castling with the Queen lands on c or e"
				}
				return st, fmt.Errorf("qep=%s: not a square where a Rook of %s's Queen castling lands (%s)", val, them, why)
			}
			if p.board[r.rookTo] == NewPiece(them, r.rook) && p.board[r.pieceTo] == NewPiece(them, emQueen) && p.attacked(s, p.toAct) {
				st.qep = s
			}
		default:
			return st, fmt.Errorf("unknown item %q (castled=, mustqueen=, qep=)", key)
		}
	}
	return st, nil
}

// easymateTerm is Easymate's part of a computer player's judgement
// (Strategy.Term): a frozen King costs its side half a pawn, a whole pawn
// when that side is also in check.
func easymateTerm(p *Position, _ func(PieceType) int) int {
	score := 0
	for _, c := range [2]Color{White, Black} {
		if emFrozen(p, c) {
			pen := 50
			if c == p.toAct && p.InCheck() {
				pen = 100
			}
			if c == White {
				pen = -pen
			}
			score += pen
		}
	}
	return score
}
