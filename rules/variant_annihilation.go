package rules

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
)

// annihilationStandardFEN is the variant's start position when no seed is
// given (Variant.Start): the orthodox array, without castling rights. Real
// games start from AnnihilationStart.
const annihilationStandardFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"

// Crazyhouse Annihilation's use of Move.Extra and FEN.
const (
	// annDropCapture is Move.Extra of a drop onto an enemy piece (a
	// KindSpecial move, with the option dropcapture=on).
	annDropCapture = 1
	// annStatePrefix starts the FEN field of the pass count ("passes=1").
	annStatePrefix = "passes="
)

// annState is Crazyhouse Annihilation's own state (Variant.State).
type annState struct {
	// passes is the number of consecutive passes that led to the
	// position (0, 1, or 2 = drawn). It records how the position was
	// reached, not what it is: repetition leaves it out (Z1a).
	passes uint8
}

// annStateOf returns the state of p, a position of the variant.
func annStateOf(p *Position) annState { return unpackAnnState(p.state) }

func unpackAnnState(b stateBytes) annState { return annState{passes: b[0]} }

func (s annState) pack() stateBytes { return stateBytes{s.passes} }

// fen writes the pass count ("passes=1"), or nothing when it is 0.
func (s annState) fen() string {
	if s.passes != 0 {
		return annStatePrefix + strconv.Itoa(int(s.passes))
	}
	return ""
}

// parseAnnState reads the field annState.fen writes.
func parseAnnState(_ *Position, field string) (annState, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(field, annStatePrefix))
	if !strings.HasPrefix(field, annStatePrefix) || err != nil || n < 0 || n > 2 {
		return annState{}, fmt.Errorf("want %s0, %s1 or %s2 (consecutive passes)", annStatePrefix, annStatePrefix, annStatePrefix)
	}
	return annState{passes: uint8(n)}, nil
}

// annIdentity is the part of the state that makes a position what it
// is: none of it (Z1a).
func annIdentity(annState) annState { return annState{} }

// annihilation holds the options of one combination of Crazyhouse
// Annihilation, as its constructor receives them; its methods are the
// variant's hooks.
type annihilation struct {
	dropCapture bool // dropcapture=on
}

// newAnnihilation returns Crazyhouse Annihilation (ortzuncp blog, 2010) as
// docs/variants/annihilation.md specifies it, with the decisions Z1-Z7:
//
//   - crazyhouse (captured pieces change sides and go to hand, a captured
//     promoted piece goes to hand as a pawn, no pawn drops on the first or
//     last rank, promotion to Q, R, B or N: Z3), without castling;
//   - the King is an ordinary piece: no check, it may be captured, goes to
//     hand, may be dropped, and a side may have several;
//   - a drop lands only on an empty square attacked, in the capture
//     pattern (Z2: pawns diagonally forward, sliders blocked by any piece),
//     by one of the dropper's pieces on the board (Drops.OnlyAttacked);
//   - a player may always pass ("pass");
//   - a player with no pieces on the board loses at once, even with pieces
//     in hand; this is judged in every position, so right after every move
//     (Z7), and a drop never annihilates anyone since it only adds a piece.
//     Both sides without pieces (only possible in a position set up by
//     FEN) is a draw: nobody has a piece left to win with;
//   - two consecutive passes, one by each player (Z1), and mutual
//     stalemate, where neither side has a move other than a pass (Z4),
//     draw at once; the pass count is the variant state ("passes=1" as a
//     seventh FEN field);
//   - threefold repetition draws automatically (Z1); whether the last move
//     was a pass is not part of the position for repetition (Z1a: the
//     pass count is left out of Position.Hash), so the same board, hands,
//     side to act and en-passant target repeat whether or not a pass led
//     to them; there is no 50-move rule (Z5).
//
// The option dropcapture=on (docs/variants/annihilation.md, off by default) also lets a
// piece be dropped on an enemy piece standing on such an attacked square,
// capturing it into the dropper's hand. Such a drop is a KindSpecial move
// written "N@xe5"; like any capture it may annihilate the opponent (the
// attacking piece could have made the capture itself).
//
// The random back ranks and the pre-game choice of docs/variants/annihilation.md and Z6 are
// AnnihilationStart and AnnihilationNormalize, which the variant's
// PreGame offers to shared code; Variant.Start is the
// orthodox array without castling, the position the perft figures of the
// issue start from.
func newAnnihilation(opts map[string]string) (*Variant, error) {
	options := optionSet[annihilation]{
		choice("dropcapture", "a piece may also be dropped on an attacked enemy piece, capturing it into hand",
			func(a *annihilation) *bool { return &a.dropCapture }, onOff()),
	}
	return options.build("annihilation", opts, annihilationVariant)
}

// annihilationVariant builds Crazyhouse Annihilation with the options a.
func annihilationVariant(a annihilation) *Variant {
	pieces := chessPieces(2, []int{1, 8})
	for i := range pieces {
		pieces[i].Royal = false
	}
	v := &Variant{
		Key:            "annihilation",
		Name:           "Crazyhouse Annihilation",
		Files:          8,
		Ranks:          8,
		Pieces:         pieces,
		StartFEN:       annihilationStandardFEN,
		Promotion:      Promotion{Zone: 1, Choices: "QRBN", Remember: true},
		Drops:          Drops{Enabled: true, CapturesToHand: true, DemoteTo: 'P', OnlyAttacked: true},
		RepetitionAuto: 3,
		State:          newStateKind(unpackAnnState, parseAnnState, annIdentity),
		// The game is won by removing the opponent's last piece from the
		// board, so the number of pieces there counts, the last ones most;
		// pieces in hand are a reserve that can be dropped back.
		Strategy: Strategy{Material: 60, LastPieces: 400},
		Help: VariantHelp{
			Summary: "Crazyhouse (a captured piece changes sides and goes to the captor's hand, " +
				"and may be dropped back instead of a move) in which you win by leaving your opponent no piece on the " +
				"board; pieces in hand do not count. The King is an ordinary piece: there is no check or checkmate, it " +
				"may be captured and dropped, and there is no castling. Each side's first rank is arranged at random, " +
				"separately. Before the first move one player chooses which army to play and the other which army moves " +
				"first; the board is then turned so that the first mover plays White from the bottom. A drop may only go " +
				"on an empty square attacked by one of your pieces, and a pawn never on the first or last rank. You may " +
				"pass instead of moving. Two passes in a row, or a position occurring for the third time, draw.",
			Notation: []NotationHelp{
				{Kind: "Drop", How: "the letter (P for a pawn), @ and an empty square that one of your pieces attacks: here the Bishop on f1 and the pawn on c2 attack d3.",
					Example: "P@d3", Moves: "e2e4 d7d5 e4d5 d8d5"},
				{Kind: "Pass", How: "you make no move this turn.",
					Example: "pass"},
				{Kind: "Drop that captures (option dropcapture)", How: "@x and the square of an enemy piece one of your pieces attacks.",
					Example: "P@xd5", Options: "dropcapture=on", Moves: "e2e4 d7d5 e4d5 g8f6 b1c3 f6d5"},
			},
			Marks: []MarkHelp{
				{Mark: "pieces beside the board", Meaning: "each player's hand, the pieces they may drop; a number shows how many when there are two or more."},
				{Mark: "no + or #", Meaning: "there is no check in this game."},
			},
		},
	}
	v.EndReasons = []EndReason{
		{Reason: reasonAnnihilation, Phrase: ": the opponent has no pieces left"},
		{Reason: reasonBothAnnihilated, Draw: true, Phrase: ": both armies were wiped out at once"},
		{Reason: reasonConsecutivePasses, Draw: true, Phrase: ": both players passed in a row"},
		{Reason: reasonMutualStalemate, Draw: true, Phrase: ": neither player had a legal move"},
	}
	v.Hooks = Hooks{
		AfterMove:     a.afterMove,
		ExtraMoves:    a.extraMoves,
		Apply:         a.apply,
		Outcome:       a.outcome,
		FormatSpecial: a.formatSpecial,
		ExplainText:   a.explainText,
		SpecialKind: func(*Position, Move) string {
			return "Drop-captures — dropped onto an enemy piece, which goes to your hand"
		},
		Effect: a.effect,
	}
	v.PreGame = &PreGame{
		Start:     func(seed uint64) Position { return AnnihilationStart(v, seed) },
		Normalize: AnnihilationNormalize,
	}
	return v
}

// afterMove keeps the count of consecutive passes: one more after a
// pass, none after any other move. The turn passes as in chess.
func (annihilation) afterMove(before, after *Position, m Move) {
	s := annStateOf(before)
	if m.Kind != KindPass {
		s.passes = 0
	} else if s.passes < 255 {
		s.passes++
	}
	after.state = s.pack()
}

// extraMoves appends the drop-captures (with the option) and the pass.
func (a annihilation) extraMoves(p *Position, out []Move) []Move {
	if a.dropCapture {
		out = a.dropCaptures(p, out, p.mover)
	}
	return append(out, Pass())
}

// dropCaptures appends the drops of us onto enemy pieces standing on
// squares us attacks: each piece type in hand, squares from a1 upwards.
func (annihilation) dropCaptures(p *Position, out []Move, us Color) []Move {
	c := &p.v.c
	ui := us.index()
	them := NewPiece(us.Other(), 0)
	for t := PieceType(1); int(t) <= len(p.v.Pieces); t++ {
		if p.pocket[ui][t] == 0 {
			continue
		}
		for _, s := range c.squares {
			pc := p.board[s]
			if pc != NoPiece && pc&pieceBlack == them && !c.noDrop[ui][t][p.v.relRank(s, us)] && p.attacked(s, us) {
				out = append(out, Move{To: s, Kind: KindSpecial, Drop: t, Extra: annDropCapture})
			}
		}
	}
	return out
}

// apply carries out a drop-capture: the enemy piece goes to the dropper's
// hand (a promoted one as a pawn), the dropped piece takes its square.
func (annihilation) apply(next *Position, m Move) {
	if m.Extra != annDropCapture {
		return
	}
	us := next.mover
	next.capture(m.To, us)
	next.pocket[us.index()][m.Drop]--
	next.put(m.To, NewPiece(us, m.Drop))
}

// effect is the Effect hook: a drop-capture puts the dropped piece on To
// and sends the enemy piece that stood there to the dropper's hand.
func (annihilation) effect(before, after *Position, m Move) MoveEffect {
	victim := before.At(m.To)
	if m.Extra != annDropCapture || victim == NoPiece || after.At(m.To) == victim {
		return MoveEffect{}
	}
	return MoveEffect{Kind: EffectDropCapture, Placed: []Square{m.To},
		Removed: []Removal{{Square: m.To, Piece: victim, Hand: before.mover}}}
}

// The reasons of Crazyhouse Annihilation's own ends (outcome), worded in
// its definition (Variant.EndReasons).
const (
	reasonAnnihilation      Reason = "annihilation"           // a side has no pieces left on the board: it loses
	reasonBothAnnihilated   Reason = "both sides annihilated" // both at once: a draw
	reasonConsecutivePasses Reason = "consecutive passes"     // two passes in a row: a draw
	reasonMutualStalemate   Reason = "mutual stalemate"       // neither side can move: a draw
)

// outcome reports annihilation (a side without pieces on the board loses),
// the draw by two consecutive passes and the draw by mutual stalemate.
func (annihilation) outcome(p *Position) (Outcome, bool) {
	wGone, bGone := !annHasPieces(p, White), !annHasPieces(p, Black)
	switch {
	case wGone && bGone:
		return Outcome{Result: Draw, Reason: reasonBothAnnihilated}, true
	case wGone:
		return Outcome{Result: BlackWins, Reason: reasonAnnihilation}, true
	case bGone:
		return Outcome{Result: WhiteWins, Reason: reasonAnnihilation}, true
	}
	if annStateOf(p).passes >= 2 {
		return Outcome{Result: Draw, Reason: reasonConsecutivePasses}, true
	}
	if !annCanMove(p, p.toAct) && !annCanMove(p, p.toAct.Other()) {
		return Outcome{Result: Draw, Reason: reasonMutualStalemate}, true
	}
	return Outcome{}, false
}

// annHasPieces reports whether c has at least one piece on the board of p.
func annHasPieces(p *Position, c Color) bool {
	o := &p.occ[c.index()]
	return o[0]|o[1]|o[2] != 0
}

// annCanMove reports whether side would have a legal move other than a
// pass if it were to act in p: a piece move (there is no check) or a drop
// onto an empty attacked square. A drop-capture never decides it: the
// piece attacking its square could make the capture itself.
func annCanMove(p *Position, side Color) bool {
	if side != p.mover {
		q := *p
		q.toAct, q.mover = side, side
		q.ep, q.epVictim = NoSquare, NoSquare // only the player to act may capture en passant
		p = &q
	}
	var buf [64]Move
	si := side.index()
	for w := 0; w < 3; w++ {
		for b := p.occ[si][w]; b != 0; b &= b - 1 {
			if len(p.pieceMoves(buf[:0], squareOfBit(w*64+bits.TrailingZeros64(b)), side)) > 0 {
				return true
			}
		}
	}
	return len(p.drops(buf[:0], side)) > 0
}

// formatSpecial writes a drop-capture as "N@xe5".
func (annihilation) formatSpecial(p *Position, m Move) string {
	if m.Extra != annDropCapture || m.Drop == NoPieceType || int(m.Drop) > len(p.v.Pieces) {
		return "?"
	}
	return string(p.v.Pieces[m.Drop-1].Letter) + "@x" + m.To.String()
}

// explainText is the ExplainText hook for a drop onto a piece, "N@xe5":
// without the option dropcapture=on there is no such move; with it, the
// piece dropped there must be an enemy one that a piece of the dropper
// attacks, and a pawn keeps off the first and last ranks. Text of any
// other shape, a piece not in hand and an empty square give "" (the
// generic reasons say so).
func (a annihilation) explainText(p *Position, text string) string {
	s := strings.TrimRight(text, "+#!?>")
	if len(s) < 5 || s[1] != '@' || (s[2] != 'x' && s[2] != ':') {
		return ""
	}
	t := p.v.Type(s[0] &^ 0x20)
	to, err := ParseSquare(s[3:])
	if t == NoPieceType || err != nil || !p.v.OnBoard(to) {
		return ""
	}
	if !a.dropCapture {
		return fmt.Sprintf("a drop onto a piece, capturing it (%c@x%s), needs the option dropcapture=on, and this game is played without it: "+
			"a piece is dropped only on an empty square", p.v.Pieces[t-1].Letter, to)
	}
	us, pc, name := p.mover, p.board[to], p.v.Pieces[t-1].Name
	switch {
	case p.pocket[us.index()][t] == 0 || pc == NoPiece:
		return ""
	case pc.Color() == us:
		return fmt.Sprintf("the %s on %s is %s's own: a drop captures only an enemy piece", p.v.Pieces[pc.Type()-1].Name, to, us.Name())
	case p.v.c.noDrop[us.index()][t][p.v.relRank(to, us)]:
		return fmt.Sprintf("a %s may not be dropped on rank %d", name, to.Rank()+1)
	case !p.attacked(to, us):
		return fmt.Sprintf("a drop captures only an enemy piece that one of your pieces attacks, and no %s piece attacks %s", us.Name(), to)
	}
	return ""
}

// annihilationArrangements is the number of distinct back ranks of one
// side: the arrangements of R, R, N, N, B, B, Q, K, 8!/(2!·2!·2!).
const annihilationArrangements = 5040

// annihilationPieces is the back-rank multiset in the order
// annihilationBackRank enumerates it.
const annihilationPieces = "BBKNNQRR"

// annihilationStream is the PCG stream (its second seed word) of
// AnnihilationStart: "annihila" in ASCII.
const annihilationStream = 0x616e6e6968696c61

// annihilationBackRank returns arrangement n (0 <= n < 5040) of the back
// rank, files a to h, in uppercase: the arrangements are numbered in
// lexicographic order, so 0 is "BBKNNQRR" and 5039 "RRQNNKBB".
func annihilationBackRank(n int) [8]byte {
	const letters = "BKNQR"    // the distinct letters of annihilationPieces
	var left [len(letters)]int // left[i] = how many of letters[i] remain
	for i := range letters {
		left[i] = strings.Count(annihilationPieces, letters[i:i+1])
	}
	var out [8]byte
	for pos := 0; pos < 8; pos++ {
		for i := range letters {
			if left[i] == 0 {
				continue
			}
			left[i]--
			k := annArrangements(left[:])
			if n < k {
				out[pos] = letters[i]
				break
			}
			n -= k
			left[i]++
		}
	}
	return out
}

// annArrangements returns the number of distinct orders of a multiset
// with the given multiplicities.
func annArrangements(counts []int) int {
	fact := func(n int) int {
		f := 1
		for i := 2; i <= n; i++ {
			f *= i
		}
		return f
	}
	total, n := 1, 0
	for _, c := range counts {
		n += c
		total *= fact(c)
	}
	return fact(n) / total
}

// annihilationDraw returns the arrangement numbers of White's and Black's
// back ranks for seed: two independent draws from a PCG generator
// (math/rand/v2, seeded with seed and annihilationStream), each mapped to
// 0..5039 by the high word of a 64x64-bit product. Only PCG's specified
// output is used, so the mapping does not depend on the Go release.
func annihilationDraw(seed uint64) (white, black int) {
	src := rand.NewPCG(seed, annihilationStream)
	w, _ := bits.Mul64(src.Uint64(), annihilationArrangements)
	b, _ := bits.Mul64(src.Uint64(), annihilationArrangements)
	return int(w), int(b)
}

// AnnihilationStart returns the random start position of Crazyhouse
// Annihilation for seed (docs/variants/annihilation.md): White's and Black's back ranks
// are independent random arrangements of R, R, N, N, B, B, Q, K (5040 each,
// 25,401,600 starts; bishops may share a colour, the King need not stand
// between the Rooks, and the ranks need not mirror each other), pawns on
// ranks 2 and 7, hands empty, White to move. The same seed always gives
// the same position. v must be an annihilation variant (any options) from
// the registry; AnnihilationStart panics for a variant whose pieces or
// board cannot hold the position.
//
// The pre-game choice follows (AnnihilationNormalize). Storage records the
// seed and the chosen first mover (the colour, in this position, of the
// army that moves first) with the game; the start position is then
// AnnihilationNormalize(AnnihilationStart(v, seed), firstMover). Games also
// store their start FEN, as every game does, so a recorded game never
// depends on this generator.
func AnnihilationStart(v *Variant, seed uint64) Position {
	w, b := annihilationDraw(seed)
	white, black := annihilationBackRank(w), annihilationBackRank(b)
	fen := strings.ToLower(string(black[:])) + "/pppppppp/8/8/8/8/PPPPPPPP/" + string(white[:]) + "[] w - - 0 1"
	p, err := ParseFEN(v, fen)
	if err != nil {
		panic(fmt.Sprintf("rules: AnnihilationStart on variant %q: %v", v.Key, err))
	}
	return p
}

// AnnihilationNormalize carries out the pre-game choice of Crazyhouse
// Annihilation (docs/variants/annihilation.md, Z6: one player picks an army, the other
// picks which army moves first): firstMover is the colour, in p, of the
// army chosen to move first. When it is Black, the board is rotated by 180
// degrees and the colours of pieces and hands swapped, so that the first
// mover's army is White, on ranks 1-2, and White is to act; otherwise p is
// returned unchanged. p is meant to be a start position (White to act);
// the move counters and the variant state are kept, castling rights
// (which annihilation has none of) and the en-passant target are dropped.
func AnnihilationNormalize(p Position, firstMover Color) Position {
	if firstMover != Black {
		return p
	}
	v := p.v
	q := v.c.empty
	q.royal = [2]Square{NoSquare, NoSquare}
	for _, s := range v.c.squares {
		if pc := p.board[s]; pc != NoPiece {
			q.put(NewSquare(v.Files-1-s.File(), v.Ranks-1-s.Rank()), pc^pieceBlack)
		}
	}
	q.pocket[0], q.pocket[1] = p.pocket[1], p.pocket[0]
	q.toAct, q.mover = White, White
	q.halfmove, q.fullmove = p.halfmove, p.fullmove
	q.state = p.state
	return q
}
