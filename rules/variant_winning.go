package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Winning Chess (John Savard, quadibloc.com) as docs/variants/winning.md
// specifies it, with the decisions W1-W14.
//
// How the engine expresses it:
//
//   - Pieces are Betza data: Tiger mBcN, Cannon mRcpR, Attacker BN (one
//     step is a Bishop slide or a Knight leap), Defender K. Check is an
//     attack of one ordinary move, which is what Position.attacked finds
//     for these descriptions (§2.2, §2.4). The Defender's swap with its
//     adjacent King is a KindSpecial move written with the two squares,
//     the Defender's first ("h1g1"); no other move has that text, as a
//     Defender never takes its own King. Its friendly text (package
//     rules/notation) is "D~K", with the Defender's square when two
//     Defenders stand next to the King ("Dh1~K").
//   - A turn is a sequence of phases, each an atomic move by the player
//     who must act (§2.3), written after the side in FEN ("w1", "b2"):
//
//     0 ("w")   the owner of the turn makes the regular move or, while
//               the pre-move is available, first a Defender move marked
//               '>' (the pre-move, W10);
//     1 ("w1")  the owner makes the regular move after the pre-move;
//     2 ("b2")  the response window after the owner's quiet Attacker
//               step marked '>' (W3): the opponent, who acts here,
//               answers with one Defender move (step or swap) or passes;
//     3 ("w3")  the owner may make the same Attacker's second step, or
//               pass.
//
//     A plain move in phase 0 or 1 ends the turn, and so does any move in
//     phase 3. The '>' forms exist for every Defender move while the
//     pre-move is available and for every quiet Attacker step in phases 0
//     and 1; the window and the second step follow even when only "pass"
//     is left (W11, W13).
//   - The variant's state (winState, the seventh FEN field) holds
//     who answered in a window during the opponent's turn (so has no
//     pre-move in their own next turn; set by the answer, cleared when
//     that player's next turn ends; both start clear, W8), the pending
//     Attacker's square and the kind of its first step, and whether the
//     turn so far holds a capture or a pawn move (see the clock below).
//     The field is "R/A/X": R is "-", "w", "b" or "wb", the players who
//     answered; A is "-" or the pending Attacker's square followed by "b"
//     (its first step was a Bishop slide) or "n" (a Knight leap), as in
//     "f3n"; X is "x" when the turn already holds a capture or a pawn
//     move, else "-". The field is left out when all three are "-".
//   - There is no built-in check rule: the Legal hook decides legality
//     (§2.4, W4, W5, W12, W14) and a captured King loses
//     (RoyalCaptureLoses, W6). A move that captures the enemy King is
//     always legal. Checkmate and stalemate are judged at the start of a
//     turn (W11); a Defender pre-move must leave a legal regular move, so
//     the player who made it always has one.
//   - Counters count turns, not atomic moves: the move number goes up
//     when White's turn begins after Black's, and the halfmove clock
//     counts whole turns without a capture or pawn move, so the draws of
//     normal chess keep their meaning (§2.4): the 50-move claim, the
//     75-move rule, repetition and the dead positions without mating
//     material (bare Kings, or a lone Knight or Tiger, which attacks as a
//     Knight does).

// Winning Chess piece types, in the order of winningVariant's Pieces.
const (
	winPawn PieceType = iota + 1
	winKnight
	winTiger
	winCannon
	winRook
	winQueen
	winAttacker
	winDefender
	winKing
)

// Phases of a Winning Chess turn (see the comment at the top of the file).
const (
	winPhaseStart   uint8 = 0 // the owner's regular move, or first the Defender pre-move
	winPhaseRegular uint8 = 1 // the owner's regular move after the pre-move
	winPhaseWindow  uint8 = 2 // the opponent may answer with a Defender move
	winPhaseSecond  uint8 = 3 // the owner may make the Attacker's second step
)

// Kinds of an Attacker step (winState.kind).
const (
	winStepBishop uint8 = 1
	winStepKnight uint8 = 2
)

// winState is Winning Chess's own state (Variant.State; see the comment
// at the top of the file).
type winState struct {
	// responded[c.index()] says that c answered in a window during the
	// opponent's turn, so has no pre-move in their own next turn; set by
	// the answer, cleared when that player's next turn ends.
	responded [2]bool
	// irreversible says that the turn so far holds a capture or a pawn
	// move.
	irreversible bool
	// pending is the square of the Attacker whose first step opened the
	// window, or NoSquare; kind is the kind of that step (winStepBishop or
	// winStepKnight), 0 without a pending Attacker.
	pending Square
	kind    uint8
}

// Bits of the flag byte of a packed winState.
const (
	winRespondedWhite uint8 = 1 << 0
	winRespondedBlack uint8 = 1 << 1
	winIrreversible   uint8 = 1 << 2
)

// winStateOf returns the state of p, a Winning Chess position.
func winStateOf(p *Position) winState { return unpackWinState(p.state) }

func unpackWinState(b stateBytes) winState {
	return winState{
		responded:    [2]bool{b[0]&winRespondedWhite != 0, b[0]&winRespondedBlack != 0},
		irreversible: b[0]&winIrreversible != 0,
		pending:      Square(b[1]),
		kind:         b[2],
	}
}

func (s winState) pack() stateBytes {
	var flags uint8
	if s.responded[White.index()] {
		flags |= winRespondedWhite
	}
	if s.responded[Black.index()] {
		flags |= winRespondedBlack
	}
	if s.irreversible {
		flags |= winIrreversible
	}
	return stateBytes{flags, uint8(s.pending), s.kind}
}

// winSwap is Move.Extra of the Defender's swap with its King.
const winSwap uint8 = 1

// newWinning returns Winning Chess (docs/variants/winning.md, REC W1-W14): a
// 12-file board whose height is the option ranks (8, the default, 10 or
// 12; W1), with the array Rook, Tiger, Cannon, Knight, Attacker, Queen,
// King, Defender, Knight, Cannon, Tiger, Rook on each side's first rank
// (Black mirrored, W2) and pawns on the second.
//
// The Tiger moves as a Bishop and captures as a Knight; the Cannon moves
// as a Rook and captures by jumping exactly one piece; the Attacker steps
// as a Bishop or a Knight; the Defender steps as a King and may swap
// places with its adjacent King (which ends that side's castling rights,
// W14). A turn is an optional Defender pre-move (unless that player
// answered during the opponent's last turn), the regular move, and, after
// a quiet Attacker step marked as continuing ('>'), the opponent's
// optional Defender answer and the Attacker's optional second step (a
// Bishop or Knight step after a Bishop step, a Bishop step after a Knight
// step), which may capture the King and win. No move may leave the
// mover's King in check, except that a continuing first step may when
// the Attacker then attacks the enemy King by a permitted second step
// (W12), and an answer may leave its King to the pending Attacker (W4).
// Castling moves the King two squares and the Rook hops over it (g1-i1
// with l1-h1, g1-e1 with a1-f1) under the FIDE conditions. Pawns are FIDE
// pawns promoting to Queen, Rook, Knight, Tiger, Cannon, Attacker or
// Defender. Checkmate wins, so does capturing the King; stalemate,
// repetition and the 50-move rule draw as in normal chess.
func newWinning(opts map[string]string) (*Variant, error) {
	type options struct{ ranks int }
	set := optionSet[options]{
		choice("ranks", "number of ranks of the 12-file board (the original text does not say; see docs/variants/winning.md)",
			func(o *options) *int { return &o.ranks }, []optionValue[int]{{"8", 8}, {"10", 10}, {"12", 12}}),
	}
	return set.build("winning", opts, func(o options) *Variant { return winningVariant(o.ranks) })
}

// winningVariant builds Winning Chess on a board of 12 files and n ranks.
func winningVariant(n int) *Variant {
	rows := []string{"rtcnaqkdnctr", "pppppppppppp"}
	for i := 0; i < n-4; i++ {
		rows = append(rows, "12")
	}
	rows = append(rows, "PPPPPPPPPPPP", "RTCNAQKDNCTR")
	last := strconv.Itoa(n)
	return &Variant{
		Key:   "winning",
		Name:  "Winning Chess",
		Files: 12,
		Ranks: n,
		Pieces: []PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Pawn: true, InitialRank: 2},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight"},
			{Letter: 'T', Name: "Tiger", Betza: "mBcN", Art: "tiger"},
			{Letter: 'C', Name: "Cannon", Betza: "mRcpR", Art: "cannon"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen"},
			{Letter: 'A', Name: "Attacker", Betza: "BN", Art: "attacker", Legend: "after a move marked > that captures nothing, may move again in the same turn (a Bishop move, or after a Bishop move also a Knight jump)"},
			{Letter: 'D', Name: "Defender", Betza: "K", Art: "defender", Legend: "may also swap places with its own King next to it, and may move before the turn's regular move (marked >)"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Royal: true},
		},
		StartFEN: strings.Join(rows, "/") + " w KQkq - 0 1",
		Castling: []CastlingRule{
			{Color: White, FENLetter: 'K', Piece: 'K', Rook: 'R', PieceFrom: "g1", PieceTo: "i1", RookFrom: "l1", RookTo: "h1"},
			{Color: White, FENLetter: 'Q', Piece: 'K', Rook: 'R', PieceFrom: "g1", PieceTo: "e1", RookFrom: "a1", RookTo: "f1"},
			{Color: Black, FENLetter: 'k', Piece: 'K', Rook: 'R', PieceFrom: "g" + last, PieceTo: "i" + last, RookFrom: "l" + last, RookTo: "h" + last},
			{Color: Black, FENLetter: 'q', Piece: 'K', Rook: 'R', PieceFrom: "g" + last, PieceTo: "e" + last, RookFrom: "a" + last, RookTo: "f" + last},
		},
		Promotion:            Promotion{Zone: 1, Choices: "QRNTCAD"},
		RoyalCaptureLoses:    true,
		Stalemate:            StalemateDraw,
		DrawClaimPlies:       100,
		DrawAutoPlies:        150,
		RepetitionClaim:      3,
		RepetitionAuto:       5,
		InsufficientMaterial: winDeadPosition,
		State:                newStateKind(unpackWinState, winParseState, nil),
		Help:                 winningHelp(),
		// An Attacker wins by reaching the King in its two steps; the
		// Defenders beside the King are the answer.
		Strategy: Strategy{Term: winningTerm, WinScale: 0.00178591},
		Hooks: Hooks{
			NextTurn:        winNextTurn,
			AfterMove:       winAfterMove,
			MoverOf:         winMoverOf,
			ExtraMoves:      winExtraMoves,
			Apply:           winApply,
			Legal:           winLegal,
			Refusal:         winRefusal,
			ExplainText:     winExplainText,
			Check:           func(p *Position) bool { return winAttackedKing(p, p.toAct) },
			FormatSpecial:   func(_ *Position, m Move) string { return m.From.String() + m.To.String() },
			FriendlySpecial: winFriendlySwap,
			SpecialKind:     func(*Position, Move) string { return "Defender swaps with its King (~)" },
			Effect:          winSwapEffect,
			PhaseName:       winPhaseName,
		},
	}
}

// winningHelp returns the help of Winning Chess: the rules in short
// (docs/variants/winning.md with W3-W13) and how the parts of a turn are written.
func winningHelp() VariantHelp {
	return VariantHelp{
		Summary: "Chess 12 files wide with four new pieces. Tiger T: moves as a Bishop, " +
			"captures and checks only by a Knight's leap. Cannon C: moves as a Rook, captures by jumping exactly one " +
			"piece on its line. Attacker A: moves as a Bishop or a Knight. Defender D: steps as a King, or swaps places " +
			"with its King beside it. Your turn: first, if you like, one Defender move (not if your Defender answered in " +
			"your opponent's last turn), then your move. After a quiet Attacker step marked to go on, your opponent may " +
			"answer with a Defender move, then your Attacker may step again (after a Bishop step as a Bishop or a " +
			"Knight, after a Knight step as a Bishop), even onto the King. Checkmate or taking the King wins; draws " +
			"as in chess.",
		Notation: []NotationHelp{
			{Kind: "Defender move first", How: "ends in >; your move follows.",
				Example: "Dh2>", Moves: "h2h4 a7a6"},
			{Kind: "Defender swap", How: "the Defender and its King change places.",
				Example: "D~K"},
			{Kind: "Attacker step that goes on", How: "ends in >.",
				Example: "Af3>"},
			{Kind: "Attacker step that ends the turn", How: "without >: no answer and no second step follow.",
				Example: "Af3"},
			{Kind: "Defender answer", How: "after your opponent's Attacker step with >: one Defender move, or pass.",
				Example: "Dh7", Moves: "h2h4 h7h5 e1f3>"},
			{Kind: "Second step", How: "the same Attacker moves again, or you pass.",
				Example: "Ae4", Moves: "h2h4 h7h5 e1f3> h8h7"},
			{Kind: "Pass", How: "declines an answer or a second step.",
				Example: "pass", Moves: "e1f3>"},
			{Kind: "Castling", How: "O-O: the King goes two squares toward the l-Rook, which hops over it (O-O-O: toward the a-Rook).",
				Example: "O-O", FEN: "rtcnaqkdnctr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RTCNAQK4R w KQkq - 0 1"},
		},
		Marks: []MarkHelp{
			{Mark: ">", Meaning: "the turn goes on after this move."},
		},
	}
}

// winOwner returns whose turn p is in: the player to act, but for the
// response window, where the opponent of the turn's owner acts.
func winOwner(p *Position) Color {
	if p.phase == winPhaseWindow {
		return p.toAct.Other()
	}
	return p.toAct
}

// winPreMoveAvailable reports whether the player to act may make the
// Defender pre-move now: at the start of the turn, unless they answered
// during the opponent's last turn (§2.3 step 1).
func winPreMoveAvailable(p *Position) bool {
	return p.phase == winPhaseStart && !winStateOf(p).responded[p.toAct.index()]
}

// winAttackedKing reports whether c's King is in check: whether one of the
// opponent's pieces could take it with one ordinary move (§2.4).
func winAttackedKing(p *Position, c Color) bool {
	k := p.royal[c.index()]
	return k != NoSquare && p.attacked(k, c.Other())
}

// winStepKind returns the kind of the Attacker step from from to to: a
// Knight leap, or else a Bishop slide.
func winStepKind(from, to Square) uint8 {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	if df*df+dr*dr == 5 {
		return winStepKnight
	}
	return winStepBishop
}

// winAttackerReaches reports whether an Attacker on a, whose first step
// was of kind first, could take a piece on k with a permitted second step:
// a Bishop slide, or after a Bishop step also a Knight leap (§2.3 3b).
func winAttackerReaches(p *Position, a, k Square, first uint8) bool {
	if a == NoSquare || k == NoSquare {
		return false
	}
	df, dr := k.File()-a.File(), k.Rank()-a.Rank()
	if df*df+dr*dr == 5 {
		return first == winStepBishop
	}
	if df != dr && df != -dr || df == 0 {
		return false
	}
	step := mailboxWidth*winSign(dr) + winSign(df)
	for s := int(a) + step; s != int(k); s += step {
		if p.board[s] != NoPiece {
			return false
		}
	}
	return true
}

// winSign returns -1, 0 or 1 for x below, at or above 0.
func winSign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// winSwaps appends the swaps of the mover's Defenders with the mover's
// adjacent King (one per Defender next to it, in square order), with flags.
func winSwaps(p *Position, out []Move, flags MoveFlags) []Move {
	us := p.mover
	k := p.royal[us.index()]
	if k == NoSquare {
		return out
	}
	d := NewPiece(us, winDefender)
	for _, off := range [8]int{-mailboxWidth - 1, -mailboxWidth, -mailboxWidth + 1, -1, 1, mailboxWidth - 1, mailboxWidth, mailboxWidth + 1} {
		if s := Square(int(k) + off); p.board[s] == d {
			out = append(out, Move{From: s, To: k, Kind: KindSpecial, Extra: winSwap, Flags: flags})
		}
	}
	return out
}

// winFriendlySwap writes the Defender's swap with its King as "D~K", or
// "Dh1~K" (the Defender's square) when two of the mover's Defenders stand
// next to the King.
func winFriendlySwap(p *Position, m Move) string {
	if m.Extra != winSwap || !p.v.OnBoard(m.To) {
		return ""
	}
	d := p.board[m.From]
	n := 0
	for _, off := range [8]int{-mailboxWidth - 1, -mailboxWidth, -mailboxWidth + 1, -1, 1, mailboxWidth - 1, mailboxWidth, mailboxWidth + 1} {
		if p.board[int(m.To)+off] == d {
			n++
		}
	}
	if n > 1 {
		return "D" + m.From.String() + "~K"
	}
	return "D~K"
}

// winExtraMoves appends what the Betza data does not give: the swaps, the
// '>' forms of the Defender pre-move and of the quiet Attacker steps, and
// "pass" in the response window and before the second step. The data's
// moves in phases 2 and 3 are narrowed by winLegal.
func winExtraMoves(p *Position, out []Move) []Move {
	switch p.phase {
	case winPhaseWindow:
		return append(winSwaps(p, out, 0), Pass())
	case winPhaseSecond:
		return append(out, Pass())
	}
	out = winSwaps(p, out, 0)
	us := p.mover
	pre := winPreMoveAvailable(p)
	if pre {
		for _, s := range p.v.c.squares {
			if p.board[s] == NewPiece(us, winDefender) {
				n := len(out)
				out = p.pieceMoves(out, s, us)
				for i := n; i < len(out); i++ {
					out[i].Flags |= FlagContinue
				}
			}
		}
		out = winSwaps(p, out, FlagContinue)
	}
	for _, s := range p.v.c.squares {
		if p.board[s] != NewPiece(us, winAttacker) {
			continue
		}
		n := len(out)
		out = p.pieceMoves(out, s, us)
		kept := n
		for _, m := range out[n:] {
			if p.board[m.To] == NoPiece {
				m.Flags |= FlagContinue
				out[kept] = m
				kept++
			}
		}
		out = out[:kept]
	}
	return out
}

// winApply carries out the Defender's swap with its adjacent King; the
// King has moved, so that side's castling rights end (W14). Anything else
// (only a malformed move handed to Position.After) changes nothing.
func winApply(next *Position, m Move) {
	if m.Extra != winSwap || !next.v.OnBoard(m.From) || !next.v.OnBoard(m.To) {
		return
	}
	d, k := next.board[m.From], next.board[m.To]
	df, dr := m.To.File()-m.From.File(), m.To.Rank()-m.From.Rank()
	if d.Type() != winDefender || k.Type() != winKing || d.Color() != k.Color() || max(df, -df, dr, -dr) != 1 {
		return
	}
	next.remove(m.From)
	next.remove(m.To)
	next.put(m.To, d)
	next.put(m.From, k)
	next.castle &^= next.v.c.castleMask[m.From] | next.v.c.castleMask[m.To]
}

// winSwapEffect is the Effect hook: the swap moves the Defender onto its
// King's square and the King onto the Defender's, both moved by the
// player. A move that swapped nothing has no effect of its own.
func winSwapEffect(before, after *Position, m Move) MoveEffect {
	if !before.v.OnBoard(m.From) || !before.v.OnBoard(m.To) || m.From == m.To {
		return MoveEffect{}
	}
	d, k := before.board[m.From], before.board[m.To]
	if d == NoPiece || k == NoPiece || after.board[m.To] != d || after.board[m.From] != k {
		return MoveEffect{}
	}
	return MoveEffect{Kind: EffectSwap, Motions: []Motion{
		{From: m.From, To: m.To, Piece: d, Main: true},
		{From: m.To, To: m.From, Piece: k, Main: true},
	}}
}

// winLegal decides legality (§2.4 and W4, W5, W12, W14); before and after
// are the positions around m.
//
//   - In the window only a Defender move (step or swap) or "pass" is
//     legal; before the second step only a step of the pending Attacker
//     of a permitted kind, or "pass". "pass" is always legal.
//   - A move that captures the enemy King is legal (it wins, W6).
//   - An answer in the window must not leave the responder's King
//     attacked by any enemy piece but the pending Attacker (W4, W14).
//   - Any other move must not leave the mover's King in check, except a
//     continuing ('>') first Attacker step after which the Attacker
//     attacks the enemy King by a permitted second step (W12).
//   - A Defender pre-move must also leave a legal regular move, so that
//     the turn can be completed.
func winLegal(before, after *Position, m Move) bool {
	us := before.toAct
	them := us.Other()
	piece := before.board[m.From].Type()
	switch before.phase {
	case winPhaseWindow:
		if m.Kind == KindPass {
			return true
		}
		if piece != winDefender {
			return false
		}
	case winPhaseSecond:
		if m.Kind == KindPass {
			return true
		}
		if st := winStateOf(before); m.Kind != KindNormal || m.From != st.pending || piece != winAttacker ||
			st.kind == winStepKnight && winStepKind(m.From, m.To) != winStepBishop {
			return false
		}
	}
	if before.royal[them.index()] != NoSquare && after.royal[them.index()] == NoSquare {
		return true
	}
	if before.phase == winPhaseWindow {
		return !winAttackedExcept(after, us, winStateOf(before).pending)
	}
	cont := m.Flags&FlagContinue != 0
	if winAttackedKing(after, us) {
		return cont && piece == winAttacker &&
			winAttackerReaches(after, m.To, after.royal[them.index()], winStepKind(m.From, m.To))
	}
	if cont && piece == winDefender {
		// Stepping or swapping back restores the position before: a legal
		// regular move when that position was not check.
		quiet := m.Kind == KindSpecial || before.board[m.To] == NoPiece
		return quiet && !winAttackedKing(before, us) || winHasMove(after)
	}
	return true
}

// winRefusal is the Refusal hook: why winLegal refuses m, phase by phase.
func winRefusal(before *Position, m Move) string {
	after, ok := before.After(m)
	if !ok || winLegal(before, &after, m) {
		return ""
	}
	us := before.toAct
	piece := before.board[m.From].Type()
	pending := winStateOf(before).pending
	switch {
	case before.phase == winPhaseWindow && piece != winDefender:
		return "only a Defender may answer the Attacker now: move a Defender, or pass"
	case before.phase == winPhaseWindow:
		return "this answer would leave your King attacked by a piece other than the Attacker"
	case before.phase == winPhaseSecond && (m.From != pending || piece != winAttacker):
		return fmt.Sprintf("only the Attacker on %s may move now, for its second step, or pass", pending)
	case before.phase == winPhaseSecond && winStepKind(m.From, m.To) != winStepBishop:
		return "after a Knight leap, the Attacker's second step must be a Bishop step"
	case winAttackedKing(&after, us) && m.Flags&FlagContinue != 0 && piece == winAttacker:
		return "it would leave your King in check, which a first Attacker step may do only when its second step could then take the enemy King"
	case winAttackedKing(&after, us):
		return "it would leave your King in check"
	case m.Flags&FlagContinue != 0 && piece == winDefender:
		return "after this Defender move you would have no legal regular move"
	}
	return ""
}

// winExplainText is the ExplainText hook: it says why a move marked '>'
// (continuing the turn) does not continue it here: an answer in the
// window and the Attacker's second step end their part, the regular move
// ends the turn, and a player whose Defender answered in the opponent's
// last turn has no pre-move. The move to write instead is named when the
// text without '>' is a legal move. Other text gives "".
func winExplainText(p *Position, text string) string {
	body, cont := strings.CutSuffix(strings.TrimRight(text, "+#!?"), ">")
	if !cont {
		return ""
	}
	body = strings.TrimRight(body, "+#!?")
	write := "write the move without >"
	if winLegalText(p, body) {
		write = "write " + body
	}
	us := p.toAct
	defender := strings.HasPrefix(body, "D")
	switch {
	case p.phase == winPhaseWindow:
		return fmt.Sprintf("%s's answer to the Attacker is one Defender move or a pass, and then %s's Attacker steps again, so the answer takes no >: %s",
			us.Name(), us.Other().Name(), write)
	case p.phase == winPhaseSecond:
		return "the Attacker's second step ends the turn, so it takes no >: " + write
	case defender && p.phase == winPhaseRegular:
		return "your Defender pre-move is made: this move is your regular move, which ends the turn, so it takes no >: " + write
	case defender && p.phase == winPhaseStart && winStateOf(p).responded[us.index()]:
		return fmt.Sprintf("your Defender answered in %s's last turn, so this turn has no Defender pre-move; as your regular move it takes no >: %s",
			us.Other().Name(), write)
	}
	return ""
}

// winLegalText reports whether text is the friendly text of a legal swap
// or the coordinate form of a legal move of p.
func winLegalText(p *Position, text string) bool {
	var buf [256]Move
	for _, m := range p.Legal(buf[:0]) {
		if FormatMove(p, m) == text || (m.Kind == KindSpecial && winFriendlySwap(p, m) == text) {
			return true
		}
	}
	return false
}

// winAttackedExcept reports whether c's King in p is attacked by a piece
// of the opponent's other than the one on except (the pending Attacker).
// That piece still blocks lines and screens Cannons.
func winAttackedExcept(p *Position, c Color, except Square) bool {
	k := p.royal[c.index()]
	if k == NoSquare {
		return false
	}
	if except == NoSquare || p.board[except].Color() != c.Other() {
		return p.attacked(k, c.Other())
	}
	q := *p
	q.board[except] = NewPiece(c, winPawn) // a blocker that attacks nothing of c's
	return q.attacked(k, c.Other())
}

// winHasMove reports whether the player to act in p has a legal move. It
// tries the moves in a workspace the variant lends, so that a search,
// which asks this of every Defender pre-move that captures or leaves
// check, allocates nothing.
func winHasMove(p *Position) bool {
	ws := p.v.c.work.get()
	defer p.v.c.work.put(ws)
	moves := p.pseudoLegal(ws.moves[:0])
	ws.moves = moves[:0] // keeps a buffer that had to grow
	for _, m := range moves {
		if p.isLegal(m, &ws.pos) {
			return true
		}
	}
	return false
}

// winNextTurn is the turn's state machine (§2.3): who acts after m, in
// which phase (see the comment at the top of the file).
func winNextTurn(before *Position, m Move) Turn {
	us := before.toAct
	owner := winOwner(before)
	cont := m.Flags&FlagContinue != 0
	switch {
	case before.phase == winPhaseWindow:
		return Turn{ToAct: owner, Mover: owner, Phase: winPhaseSecond}
	case before.phase == winPhaseStart && cont && before.board[m.From].Type() == winDefender:
		return Turn{ToAct: us, Mover: us, Phase: winPhaseRegular}
	case before.phase <= winPhaseRegular && cont:
		return Turn{ToAct: us.Other(), Mover: us.Other(), Phase: winPhaseWindow}
	}
	return Turn{ToAct: owner.Other(), Mover: owner.Other(), Phase: winPhaseStart}
}

// winAfterMove brings the state up to date after m, whose turn
// winNextTurn set in after, and keeps the counters counting turns (see
// the comment at the top of the file).
func winAfterMove(before, after *Position, m Move) {
	us := before.toAct
	owner := winOwner(before)
	st := winStateOf(before)
	switch {
	case before.phase == winPhaseWindow:
		if m.Kind != KindPass {
			st.responded[us.index()] = true
		}
	case after.phase == winPhaseRegular: // the Defender pre-move
		if before.ep != NoSquare {
			after.setEnPassantFromFEN(before.ep) // the turn has not passed (W14)
		}
	case after.phase == winPhaseWindow: // a continuing Attacker step
		st.pending, st.kind = m.To, winStepKind(m.From, m.To)
	default: // the turn ends
		st.responded[owner.index()] = false
		st.irreversible = false
		st.pending, st.kind = NoSquare, 0
	}
	// The halfmove clock: playInto added one, or reset it to 0 for a
	// capture or a pawn move. Within a turn it stays; the move that ends
	// the turn adds one, unless the turn held a capture or a pawn move.
	switch {
	case after.phase == winPhaseStart:
		if winStateOf(before).irreversible {
			after.halfmove = 0
		}
	case after.halfmove == 0:
		st.irreversible = true
	default:
		after.halfmove = before.halfmove
	}
	// The move number: playInto added one whenever Black handed over to
	// White; it should when White's turn begins.
	if us == Black && after.toAct == White && !(owner == Black && after.phase == winPhaseStart) {
		after.fullmove--
	}
	after.state = st.pack()
}

// winMoverOf says whose pieces are moved: always the player to act's own
// (phases 0-3).
func winMoverOf(toAct Color, phase uint8) Color {
	if phase > winPhaseSecond {
		return NoColor
	}
	return toAct
}

// fen writes the state as "R/A/X" (see the comment at the top of the
// file), or "" when there is nothing to say.
func (s winState) fen() string {
	if s == (winState{}) {
		return ""
	}
	r := ""
	if s.responded[White.index()] {
		r += "w"
	}
	if s.responded[Black.index()] {
		r += "b"
	}
	if r == "" {
		r = "-"
	}
	a := "-"
	if s.pending != NoSquare {
		a = s.pending.String() + "b"
		if s.kind == winStepKnight {
			a = s.pending.String() + "n"
		}
	}
	x := "-"
	if s.irreversible {
		x = "x"
	}
	return r + "/" + a + "/" + x
}

// winParseState reads the field winState.fen writes. It refuses states
// the turn cannot reach: a pending Attacker outside the window and the
// second step (or, in the window, a square without the owner's Attacker),
// "x" at the start of a turn, an answer by the player whose turn it is
// not before the window was open, and a pre-move made by a player who had
// answered.
func winParseState(p *Position, field string) (winState, error) {
	var st winState
	parts := strings.Split(field, "/")
	if len(parts) != 3 {
		return st, fmt.Errorf("want three parts R/A/X, like -/f3n/-")
	}
	switch parts[0] {
	case "-":
	case "w", "b", "wb":
		st.responded = [2]bool{strings.Contains(parts[0], "w"), strings.Contains(parts[0], "b")}
	default:
		return st, fmt.Errorf("who answered %q: want -, w, b or wb", parts[0])
	}
	if a := parts[1]; a != "-" {
		if len(a) < 3 {
			return st, fmt.Errorf("pending Attacker %q: want a square and b or n, like f3n", a)
		}
		s, err := ParseSquare(a[:len(a)-1])
		if err != nil || !p.v.OnBoard(s) {
			return st, fmt.Errorf("pending Attacker %q: not a square of the board", a)
		}
		switch a[len(a)-1] {
		case 'b':
			st.kind = winStepBishop
		case 'n':
			st.kind = winStepKnight
		default:
			return st, fmt.Errorf("pending Attacker %q: the step kind is b (Bishop) or n (Knight)", a)
		}
		st.pending = s
	}
	switch parts[2] {
	case "-":
	case "x":
		st.irreversible = true
	default:
		return st, fmt.Errorf("%q: want x (the turn holds a capture or a pawn move) or -", parts[2])
	}
	owner := winOwner(p)
	switch {
	case st.pending != NoSquare && p.phase < winPhaseWindow:
		return st, fmt.Errorf("a pending Attacker outside the window and the second step")
	case st.pending != NoSquare && p.phase == winPhaseWindow && p.board[st.pending] != NewPiece(owner, winAttacker):
		return st, fmt.Errorf("no %s Attacker on %s", owner, st.pending)
	case st.irreversible && p.phase == winPhaseStart:
		return st, fmt.Errorf("x at the start of a turn")
	case st.responded[owner.Other().index()] && p.phase < winPhaseSecond:
		return st, fmt.Errorf("%s answered before the window of %s's turn opened", owner.Other(), owner)
	case st.responded[owner.index()] && p.phase == winPhaseRegular:
		return st, fmt.Errorf("%s made a pre-move after answering in the opponent's turn", owner)
	}
	return st, nil
}

// winPhaseName says which step of the turn the game is in and who must act.
func winPhaseName(p *Position) string {
	x := winColorName(winOwner(p))
	switch p.phase {
	case winPhaseStart:
		// What the '>' mark allows this turn, for the pieces the player has.
		var marks []string
		switch {
		case p.count[p.toAct.index()][winDefender] == 0:
		case winPreMoveAvailable(p):
			marks = append(marks, "a Defender pre-move, marked >, may come first")
		default:
			marks = append(marks, "no Defender pre-move: "+x+" answered in the last turn")
		}
		if p.count[p.toAct.index()][winAttacker] > 0 {
			marks = append(marks, "an Attacker step marked > may be followed by a second step")
		}
		if len(marks) == 0 {
			return x + " to move"
		}
		return x + " to move (" + strings.Join(marks, "; ") + ")"
	case winPhaseRegular:
		return x + " makes the regular move after the Defender pre-move"
	case winPhaseWindow:
		return winColorName(p.toAct) + " may answer with the Defender, or pass, before " + x + "'s Attacker steps again"
	case winPhaseSecond:
		st := winStateOf(p)
		a := st.pending
		if a == NoSquare || p.board[a] != NewPiece(p.toAct, winAttacker) {
			return x + " must pass: the Attacker cannot make a second step"
		}
		if st.kind == winStepKnight {
			return x + " may make the Attacker's second step from " + a.String() + " (a Bishop step), or pass"
		}
		return x + " may make the Attacker's second step from " + a.String() + " (a Bishop or Knight step), or pass"
	}
	return "move"
}

// winColorName returns "White" or "Black".
func winColorName(c Color) string {
	if c == Black {
		return "Black"
	}
	return "White"
}

// winDeadPosition reports the positions without mating material: only
// the Kings and at most one Knight or Tiger (the Tiger attacks as a
// Knight does), so that neither side can checkmate or capture a King.
func winDeadPosition(p *Position) bool {
	minor := 0
	for c := 0; c < 2; c++ {
		for t := winPawn; t < winKing; t++ {
			switch n := int(p.count[c][t]); {
			case n == 0:
			case t == winKnight || t == winTiger:
				minor += n
			default:
				return false
			}
		}
	}
	return minor <= 1
}

// winningTerm is Winning Chess's part of a computer player's judgement
// (Strategy.Term): each way an Attacker could reach the enemy King in its
// two steps is a threat, and each Defender beside its own King covers it.
func winningTerm(p *Position, _ func(PieceType) int) int {
	score := 0
	for _, s := range p.v.c.squares {
		pc := p.board[s]
		if pc == NoPiece {
			continue
		}
		c := pc.Color()
		sign := 1
		if c == Black {
			sign = -1
		}
		switch pc.Type() {
		case winDefender:
			if k := p.royal[c.index()]; k != NoSquare && tankDistance(s, k) == 1 {
				score += sign * 20
			}
		case winAttacker:
			score += sign * 25 * min(winThreats(p, s, p.royal[c.Other().index()]), 3)
		}
	}
	return score
}

// winThreats counts the first steps of the Attacker on a (a Knight leap or
// a Bishop slide to an empty square) after which its second step reaches
// the King on k.
func winThreats(p *Position, a, k Square) int {
	if k == NoSquare {
		return 0
	}
	n := 0
	for _, d := range [8]int{2*mailboxWidth + 1, 2*mailboxWidth - 1, mailboxWidth + 2, mailboxWidth - 2,
		-2*mailboxWidth + 1, -2*mailboxWidth - 1, -mailboxWidth + 2, -mailboxWidth - 2} {
		s := Square(int(a) + d)
		if p.board[s] == NoPiece && p.v.OnBoard(s) && winAttackerReaches(p, s, k, winStepKnight) {
			n++
		}
	}
	for _, d := range [4]int{mailboxWidth + 1, mailboxWidth - 1, -mailboxWidth + 1, -mailboxWidth - 1} {
		for s := Square(int(a) + d); p.board[s] == NoPiece && p.v.OnBoard(s); s = Square(int(s) + d) {
			if winAttackerReaches(p, s, k, winStepBishop) {
				n++
			}
		}
	}
	return n
}
