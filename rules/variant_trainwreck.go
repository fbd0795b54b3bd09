package rules

import (
	"fmt"
	"math/bits"
	"strings"
)

// Train Wreck Chess (Peter Aronson, 2004) and its three sub-variants, as
// docs/variants/trainwreck.md specifies them.
//
// How the engine expresses the family:
//
//   - Pieces are Betza data (§1.4): non-captures go forward only, captures
//     in every direction. "Forward" is the owner's, and a piece captures
//     only the pieces of its owner's opponent, whoever moves it: the
//     generator moves Position.Mover()'s pieces and captures the other
//     colour's (§1.3). No piece has an en-passant leg (§1.5).
//   - A turn is a sequence of phases (§1.2, §1.7), held in Position.Phase
//     and written after the side in FEN:
//
//     phase 0 ("w", "b")    the player to act moves one of their own pieces;
//     phase 1 ("w1", "b1")  the player to act moves one of the opponent's
//     pieces, never its King;
//     phase 2 ("w2", "b2")  Three-Move only: the second own sub-move.
//
//     So Train Wreck runs w, w1, b, b1, w, ... and Three-Move runs w, w1
//     (White's first turn, the turn numbered 1), then b, b2, b1, w, w2,
//     w1, ... Phase 1 is always "the opponent's piece", in every key.
//     (the rules page names the half-moves w1 and w2; the FEN counts from 0.)
//   - There is no check rule; a captured King loses (RoyalCaptureLoses), and
//     so does the player to act with no legal half-move, in any phase
//     (StalemateLoses; §1.6, #tw1, #2). Nothing is drawn automatically
//     (#tw12).
//   - Castling: the King's FIDE castling (FEN letters K, Q, k, q) keeps
//     the attack conditions, the attackers being the pieces the opponent
//     owns (#tw6); the Queen's (the Chancellor's in Almost, #tw10)
//     ignores attacks (§1.5, #tw5). Its FEN letters are the rook's
//     file: H (d1-f1 with h1-e1), A (d1-b1 with a1-c1), h and a for Black;
//     so the start position's rights are "KQkqHAha". Moving a piece, by
//     either player, loses its rights (§1.5).
//   - Promotion: the player who moves the pawn chooses, the new piece
//     belongs to the pawn's owner (§1.5, #tw8).

// Train Wreck piece descriptions (docs/variants/trainwreck.md).
const (
	twPawnBetza       = "fmWfcFifmnD" // FIDE pawn without en passant
	twBerolinaBetza   = "mfFcfWifmnA" // Berolina pawn without en passant; the double step is lame (#tw11)
	twKnightBetza     = "mffNmfsNcN"
	twBishopBetza     = "mfBcB"
	twRookBetza       = "mfRcR"
	twQueenBetza      = "mfQcQ"
	twChancellorBetza = "mfRmffNmfsNcRcN"
	twKingBetza       = "mfKcK"
)

// Phases of a Train Wreck turn (see the comment at the top of the file).
const (
	twPhaseOwn      uint8 = 0 // the player to act moves an own piece
	twPhaseOpponent uint8 = 1 // the player to act moves an opponent's piece, not the King
	twPhaseOwnAgain uint8 = 2 // Three-Move: the second own sub-move
)

// trainWreckOptions chooses a member of the family.
type trainWreckOptions struct {
	key, name string
	pawn      PieceDef // the pawn: twPawn or twBerolinaPawn
	queen     byte     // the letter of the piece on d1/d8 that castles like a Queen: 'Q' or 'C'
	threeMove bool     // own, own, opponent after White's first turn
	winScale  float64  // Strategy.WinScale, fitted by fairypost fitcurve
}

// newTrainWreck returns Train Wreck Chess (docs/variants/trainwreck.md, with the
// resolutions of §the Train Wreck decisions): each turn the player moves one of their own
// pieces, then one of the opponent's pieces other than the King;
// non-captures go forward only; a piece captures only its owner's enemies;
// Queens castle like Kings but ignore attacks; no en passant; the mover
// chooses the promotion piece; capturing the King or leaving the player to
// act without a legal half-move wins.
func newTrainWreck(map[string]string) (*Variant, error) {
	return trainWreckVariant(trainWreckOptions{key: "trainwreck", winScale: 0.000168487, name: "Train Wreck Chess", pawn: twPawn(), queen: 'Q'}), nil
}

// newTrainWreckBerolina returns Berolina Train Wreck Chess (docs/variants/trainwreck-berolina.md,
// §1.9, #tw11): Train Wreck with every pawn a Berolina pawn (moves one
// square diagonally forward, or two from its starting rank over an empty
// square, and captures straight ahead), without en passant.
func newTrainWreckBerolina(map[string]string) (*Variant, error) {
	return trainWreckVariant(trainWreckOptions{key: "trainwreck-berolina", winScale: 0.000168487, name: "Berolina Train Wreck Chess", pawn: twBerolinaPawn(), queen: 'Q'}), nil
}

// newTrainWreckAlmost returns Almost Train Wreck Chess (docs/variants/trainwreck-berolina.md,
// §1.9, #tw10): Train Wreck with Chancellors (Rook + Knight) instead of
// Queens, promotion to C, R, B or N, and the Chancellor castling as the
// Queen does.
func newTrainWreckAlmost(map[string]string) (*Variant, error) {
	return trainWreckVariant(trainWreckOptions{key: "trainwreck-almost", winScale: 0.000168487, name: "Almost Train Wreck Chess", pawn: twPawn(), queen: 'C'}), nil
}

// newTrainWreckThreeMove returns Three-Move Train Wreck Chess, "Two Steps
// Forward and One Step Back" (docs/variants/trainwreck-threemove.md, #tw9): White's first turn
// is as in Train Wreck; every later turn, Black's first included, is two
// moves of the player's own pieces (the same piece may move twice) and then
// one of the opponent's. Having no legal move loses in each of the three.
func newTrainWreckThreeMove(map[string]string) (*Variant, error) {
	return trainWreckVariant(trainWreckOptions{key: "trainwreck-threemove", winScale: 0.000149431, name: "Three-Move Train Wreck Chess", pawn: twPawn(), queen: 'Q', threeMove: true}), nil
}

// twPawn is the pawn of Train Wreck: a chess pawn without en passant.
func twPawn() PieceDef {
	return PieceDef{Letter: 'P', Name: "Pawn", Betza: twPawnBetza, Art: "pawn", Pawn: true, InitialRank: 2,
		Legend: "never captures en passant"}
}

// twBerolinaPawn is the pawn of Berolina Train Wreck.
func twBerolinaPawn() PieceDef {
	return PieceDef{Letter: 'P', Name: "Pawn", Betza: twBerolinaBetza, Art: "berolina-pawn", Pawn: true, InitialRank: 2,
		Legend: "a Berolina pawn; never captures en passant"}
}

// trainWreckVariant builds a member of the Train Wreck family.
func trainWreckVariant(o trainWreckOptions) *Variant {
	queen := PieceDef{Letter: 'Q', Name: "Queen", Betza: twQueenBetza, Art: "queen"}
	promotions := "QRBN"
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	if o.queen == 'C' {
		queen = PieceDef{Letter: 'C', Name: "Chancellor", Betza: twChancellorBetza, Art: "rook+knight"}
		promotions = "CRBN"
		start = "rnbckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR"
	}
	v := &Variant{
		Key:   o.key,
		Name:  o.name,
		Files: 8,
		Ranks: 8,
		Pieces: []PieceDef{
			o.pawn,
			{Letter: 'N', Name: "Knight", Betza: twKnightBetza, Art: "knight"},
			{Letter: 'B', Name: "Bishop", Betza: twBishopBetza, Art: "bishop"},
			{Letter: 'R', Name: "Rook", Betza: twRookBetza, Art: "rook"},
			queen,
			{Letter: 'K', Name: "King", Betza: twKingBetza, Art: "king", Royal: true},
		},
		StartFEN:          start + " w KQkqHAha - 0 1",
		Castling:          append(fideCastling(), trainWreckQueenCastling(o.queen)...),
		Promotion:         Promotion{Zone: 1, Choices: promotions},
		RoyalCaptureLoses: true,
		Stalemate:         StalemateLoses,
		Help:              trainWreckHelp(o),
		// The game is won by taking the King or leaving the player to
		// act without a legal half-move, and each player's turn draws on
		// its own pieces and on the opponent's other than the King:
		// trainWreckTerm judges those pools of half-moves; material stays
		// (captures go every way, so pieces are the threats, and a piece
		// put in the way of an enemy one gives that one a move). Measured
		// in the arena (against the same search judging material alone,
		// 100 games per seed unless said): material and a light mobility
		// alone scored 53% and 51% at level 4; with trainWreckTerm (as
		// now, twPoolDanger 3200) 83% and 78% at level 4 (seeds 4, 5), 82%
		// at level 5 (88 games), Berolina 88%, Almost 88%, Three-Move 90%
		// (60 games each, level 4); half that weight scored 78-86%.
		Strategy: Strategy{Material: 100, Mobility: 3, Term: trainWreckTerm, WinScale: o.winScale},
	}
	v.Hooks = Hooks{
		NextTurn:  trainWreckNextTurn,
		MoverOf:   trainWreckMoverOf,
		Legal:     trainWreckLegal,
		Refusal:   trainWreckRefusal,
		Immobile:  trainWreckImmobile,
		PhaseName: trainWreckPhaseName,
	}
	if o.threeMove {
		// Two own moves in a row: a piece two moves from the King
		// threatens to take it before the opponent can answer.
		v.Strategy.TwoStepThreat = 600
		v.Hooks.NextTurn = threeMoveNextTurn
		v.Hooks.MoverOf = threeMoveMoverOf
		v.Hooks.PhaseName = threeMovePhaseName
	}
	return v
}

// trainWreckHelp returns the help of the member o of the family: the
// rules in short (docs/variants/trainwreck.md with the resolutions of the Train Wreck decisions) and how its
// turns and castlings are written.
func trainWreckHelp(o trainWreckOptions) VariantHelp {
	queen, letter := "Queen", string(o.queen)
	var b strings.Builder
	if o.threeMove {
		b.WriteString("White's first turn is two half-moves: a White piece, then a Black one. Every later turn is three: " +
			"two moves of your own pieces (the same piece may move twice), then one of an opponent's piece other than the King. ")
	} else {
		b.WriteString("Each turn is two half-moves by one player: first one of your own pieces, then one of your opponent's, " +
			"never the King. ")
	}
	b.WriteString("A piece captures only its owner's enemies, whoever moves it: with an opponent's piece you may take your own. " +
		"Moving without capturing, a piece goes only forward (toward its owner's far side): the King to the 3 squares " +
		"ahead, the Rook straight ahead, the Bishop diagonally ahead, ")
	if o.queen == 'C' {
		queen = "Chancellor"
		b.WriteString("the Chancellor (which stands for the Queen and moves as a Rook or a Knight) straight ahead or by a " +
			"Knight leap that gains ground, ")
	} else {
		b.WriteString("the Queen as either, ")
	}
	b.WriteString("the Knight by the 4 leaps that gain ground; captures go any way. ")
	if o.pawn.Betza == twBerolinaBetza {
		b.WriteString("Pawns are Berolina pawns: they move one square diagonally forward (two from the start) and capture " +
			"straight ahead. ")
	} else {
		b.WriteString("Pawns move as in chess. ")
	}
	b.WriteString("No en passant. The mover picks a promotion, for the pawn's owner. There is no check: capturing the King " +
		"wins, and having no legal half-move loses. Castling as in chess; an unmoved " + queen + " may also castle, " +
		"ignoring attacks.")

	castleFEN := "rnb" + strings.ToLower(letter) + "kbnr/pppppppp/8/8/8/8/PPPPPPPP/R2" + letter + "KBNR w KQkqHAha - 0 1"
	h := VariantHelp{Summary: b.String()}
	other := NotationHelp{Kind: "Opponent's piece", How: "written like any move, with a capital letter for either colour: here a Black Knight.",
		Example: "Nc6", Moves: "e2e4"}
	capture := NotationHelp{Kind: "Taking your own piece", How: "with an opponent's piece, written like any capture: a Black pawn takes White's on e4.",
		Example: "dxe4", Moves: "e2e4 d7d5 a7a6 b2b3 g1f3"}
	switch {
	case o.pawn.Betza == twBerolinaBetza:
		other.Moves = "e2c4"
		capture.How = "with an opponent's piece, written like any capture: a Black pawn takes White's straight ahead on c4."
		capture.Example, capture.Moves = "cxc4", "e2c4 e7c5 a7b6 b2a3 g1f3"
	case o.threeMove:
		capture.Moves = "e2e4 d7d5 a7a6 b8c6 b2b3 g1f3 h2h3"
	}
	h.Notation = append(h.Notation, other)
	if o.threeMove {
		h.Notation = append(h.Notation, NotationHelp{Kind: "Second own half-move", How: "written like the first.",
			Example: "Bc5", Moves: "e2e4 e7e5 g8f6"})
	}
	h.Notation = append(h.Notation, capture)
	if o.pawn.Betza == twBerolinaBetza {
		h.Notation = append(h.Notation, NotationHelp{Kind: "Pawn move", How: "the pawn's file first when two pawns could go there: the e-pawn to d3.",
			Example: "ed3"})
	}
	h.Notation = append(h.Notation,
		NotationHelp{Kind: queen + " castling", How: "the " + queen + " goes two squares toward the a-Rook, which jumps over it (" +
			letter + "O-O: toward the h-Rook).",
			Example: letter + "O-O-O", FEN: castleFEN},
		NotationHelp{Kind: "King castling", How: "as in chess, in your own half-move; O-O-O needs d1 empty, so it is not " + letter + "O-O-O.",
			Example: "O-O", FEN: "rnb" + strings.ToLower(letter) + "kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB" + letter + "K2R w KQkqHAha - 0 1"})
	return h
}

// trainWreckQueenCastling returns the castling of the piece with letter
// queen on d1/d8 (docs/variants/trainwreck.md, #tw5): two squares toward the rook, the
// rook landing on the square crossed, attacks ignored.
func trainWreckQueenCastling(queen byte) []CastlingRule {
	return []CastlingRule{
		{Color: White, FENLetter: 'H', Piece: queen, Rook: 'R', PieceFrom: "d1", PieceTo: "f1", RookFrom: "h1", RookTo: "e1", IgnoreAttacks: true},
		{Color: White, FENLetter: 'A', Piece: queen, Rook: 'R', PieceFrom: "d1", PieceTo: "b1", RookFrom: "a1", RookTo: "c1", IgnoreAttacks: true},
		{Color: Black, FENLetter: 'h', Piece: queen, Rook: 'R', PieceFrom: "d8", PieceTo: "f8", RookFrom: "h8", RookTo: "e8", IgnoreAttacks: true},
		{Color: Black, FENLetter: 'a', Piece: queen, Rook: 'R', PieceFrom: "d8", PieceTo: "b8", RookFrom: "a8", RookTo: "c8", IgnoreAttacks: true},
	}
}

// trainWreckNextTurn is the two-part turn of docs/variants/trainwreck.md: own piece
// (phase 0), then an opponent's piece (phase 1), then the other player.
func trainWreckNextTurn(before *Position, _ Move) Turn {
	if before.phase == twPhaseOwn {
		return Turn{ToAct: before.toAct, Mover: before.toAct.Other(), Phase: twPhaseOpponent}
	}
	return Turn{ToAct: before.toAct.Other(), Mover: before.toAct.Other(), Phase: twPhaseOwn}
}

// trainWreckMoverOf says whose pieces are moved in a phase of Train
// Wreck; it has phases 0 and 1 only.
func trainWreckMoverOf(toAct Color, phase uint8) Color {
	switch phase {
	case twPhaseOwn:
		return toAct
	case twPhaseOpponent:
		return toAct.Other()
	}
	return NoColor
}

// threeMoveNextTurn is the turn of docs/variants/trainwreck-threemove.md: White's first turn (the
// turn numbered 1) is own, opponent; every other turn own, own, opponent.
func threeMoveNextTurn(before *Position, _ Move) Turn {
	us := before.toAct
	switch before.phase {
	case twPhaseOwn:
		if us == White && before.fullmove == 1 {
			return Turn{ToAct: us, Mover: us.Other(), Phase: twPhaseOpponent}
		}
		return Turn{ToAct: us, Mover: us, Phase: twPhaseOwnAgain}
	case twPhaseOwnAgain:
		return Turn{ToAct: us, Mover: us.Other(), Phase: twPhaseOpponent}
	}
	return Turn{ToAct: us.Other(), Mover: us.Other(), Phase: twPhaseOwn}
}

// threeMoveMoverOf says whose pieces are moved in a phase of Three-Move
// Train Wreck (phases 0, 1 and 2).
func threeMoveMoverOf(toAct Color, phase uint8) Color {
	if phase == twPhaseOwnAgain {
		return toAct
	}
	return trainWreckMoverOf(toAct, phase)
}

// trainWreckLegal forbids moving the opponent's King (docs/variants/trainwreck.md):
// neither a King move nor castling, which counts as a King move. The
// opponent's Queen (or Chancellor) may castle (#tw4).
func trainWreckLegal(before, _ *Position, m Move) bool {
	if before.mover == before.toAct {
		return true
	}
	c := &before.v.c
	switch m.Kind {
	case KindNormal:
		return !c.royalType[before.board[m.From].Type()]
	case KindCastle:
		return !c.royalType[c.castling[m.rule].piece]
	}
	return true
}

// trainWreckRefusal is the Refusal hook: the only moves trainWreckLegal
// refuses move the opponent's King.
func trainWreckRefusal(before *Position, m Move) string {
	if trainWreckLegal(before, nil, m) {
		return ""
	}
	return twEnemyKing(before)
}

// twEnemyKing says that the King of the side whose pieces are moved in
// p's half-move may not be moved.
func twEnemyKing(p *Position) string {
	return fmt.Sprintf("the enemy King may not be moved: in this half-move you move one of %s's other pieces", p.mover.Name())
}

// trainWreckImmobile is the Immobile hook: in the half-move on the
// opponent's pieces, their King may not move, wherever it would go.
func trainWreckImmobile(p *Position, from Square) string {
	pc := p.board[from]
	if p.mover == p.toAct || pc == NoPiece || pc.Color() != p.mover || !p.v.c.royalType[pc.Type()] {
		return ""
	}
	return twEnemyKing(p)
}

// trainWreckPhaseName describes the phase: "White moves a Black piece".
func trainWreckPhaseName(p *Position) string {
	return p.toAct.Name() + " moves a " + p.mover.Name() + " piece"
}

// threeMovePhaseName is trainWreckPhaseName telling Three-Move's two own
// sub-moves apart: "Black moves a Black piece (second of two)".
func threeMovePhaseName(p *Position) string {
	s := trainWreckPhaseName(p)
	switch {
	case p.phase == twPhaseOwnAgain:
		s += " (second of two)"
	case p.phase == twPhaseOwn && !(p.toAct == White && p.fullmove == 1):
		s += " (first of two)"
	}
	return s
}

// twPoolDanger is what the computer player counts, in hundredths of a
// pawn, for a pool of half-moves that is down to its last one (see
// trainWreckTerm); a pool of n counts 4·twPoolDanger/(n+1)².
const twPoolDanger = 3200

// trainWreckPools counts the half-moves the pieces of each side could
// make now, each piece moved by its owner's rules (forward without
// capturing, capturing the owner's enemies), castling left out: all[c]
// counts every piece of side c, others[c] every piece but the King,
// which is what the opponent's half-move on c's pieces chooses from. It
// allocates nothing.
func trainWreckPools(p *Position) (all, others [2]int) {
	var buf [64]Move // the most moves one piece has (27 for a Queen) fit
	c := &p.v.c
	for ui, us := range [2]Color{White, Black} {
		for w := 0; w < 3; w++ {
			for b := p.occ[ui][w]; b != 0; b &= b - 1 {
				from := squareOfBit(w*64 + bits.TrailingZeros64(b))
				n := len(p.pieceMoves(buf[:0], from, us))
				all[ui] += n
				if !c.royalType[p.board[from].Type()] {
					others[ui] += n
				}
			}
		}
	}
	return all, others
}

// twDanger is how much a side whose half-move must choose from a pool
// of n moves risks having none: nothing much while the pool is large,
// and steeply more as it runs dry (4·twPoolDanger at 0, twPoolDanger at
// 1, a ninth of it at 5).
func twDanger(n int) int {
	return 4 * twPoolDanger / ((n + 1) * (n + 1))
}

// trainWreckTerm is the family's own judgement of p (Strategy.Term), in
// hundredths of a pawn for White. The game is won by leaving the
// opponent without a half-move (docs/variants/trainwreck.md, #tw2), and
// each side's turn draws on two pools: its own pieces for its own
// half-move(s), and the opponent's pieces other than the King for the
// half-move made with them. So a side wants the opponent's own pieces
// hemmed in and its own pieces other than the King short of moves (the
// opponent must move one of them), while its King keeps room and the
// opponent's other pieces keep some moves for its own second half-move.
// Each pool is judged by how close it is to running dry (twDanger), so
// only small pools weigh, and no piece is worth chasing for its own sake.
// The material-only search, which captures the pieces whose moves it
// needs, loses to this (figures in trainWreckVariant's comment).
func trainWreckTerm(p *Position, _ func(PieceType) int) int {
	all, others := trainWreckPools(p)
	w, b := White.index(), Black.index()
	// White's half-moves draw on all[w] and others[b], Black's on all[b]
	// and others[w].
	s := twDanger(all[b]) + twDanger(others[w]) - twDanger(all[w]) - twDanger(others[b])
	// Bounded well below the search's scores of won games, whatever the
	// material beside it.
	return max(-twTermBound, min(twTermBound, s))
}

// twTermBound bounds trainWreckTerm's judgement: pools this low are all
// but lost, and a judgement must stay far from the scores of games won.
const twTermBound = 16000
