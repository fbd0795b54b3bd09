package rules

// How the standard chess pieces move (PieceDef.Legend), for every
// variant whose pieces move so.
const (
	legendPawn   = "steps 1 forward (2 from its start rank), captures 1 diagonally forward"
	legendKnight = "jumps in an L: 2 squares one way, then 1 to the side, over any piece"
	legendBishop = "any distance diagonally"
	legendRook   = "any distance along its rank or file"
	legendQueen  = "any distance along its rank, file or diagonals"
	legendKing   = "1 step in any direction"
)

// Standard chess pieces, in Fairy-Stockfish's type order (pockets are
// written in the reverse of this order, as Fairy-Stockfish does).
func chessPieces(pawnInitialRank int, noDropRanks []int) []PieceDef {
	return []PieceDef{
		{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Legend: legendPawn, Pawn: true, InitialRank: pawnInitialRank, NoDropRanks: noDropRanks},
		{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight", Legend: legendKnight},
		{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop", Legend: legendBishop},
		{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: legendRook},
		{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: legendQueen},
		{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: legendKing, Royal: true},
	}
}

// fideCastling is castling on the standard 8x8 array (KQkq).
func fideCastling() []CastlingRule {
	return []CastlingRule{
		{Color: White, FENLetter: 'K', Piece: 'K', Rook: 'R', PieceFrom: "e1", PieceTo: "g1", RookFrom: "h1", RookTo: "f1"},
		{Color: White, FENLetter: 'Q', Piece: 'K', Rook: 'R', PieceFrom: "e1", PieceTo: "c1", RookFrom: "a1", RookTo: "d1"},
		{Color: Black, FENLetter: 'k', Piece: 'K', Rook: 'R', PieceFrom: "e8", PieceTo: "g8", RookFrom: "h8", RookTo: "f8"},
		{Color: Black, FENLetter: 'q', Piece: 'K', Rook: 'R', PieceFrom: "e8", PieceTo: "c8", RookFrom: "a8", RookTo: "d8"},
	}
}

// newChess returns standard chess (FIDE Laws): threefold repetition and
// the 50-move rule may be claimed, fivefold repetition, the 75-move rule
// and dead positions of bare material end the game.
func newChess(map[string]string) (*Variant, error) {
	return &Variant{
		Key:                  "chess",
		Name:                 "Chess",
		Files:                8,
		Ranks:                8,
		Pieces:               chessPieces(2, nil),
		StartFEN:             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Castling:             fideCastling(),
		Promotion:            Promotion{Zone: 1, Choices: "QRBN"},
		CheckRule:            true,
		DrawClaimPlies:       100,
		DrawAutoPlies:        150,
		RepetitionClaim:      3,
		RepetitionAuto:       5,
		InsufficientMaterial: bareMinorPieces,
	}, nil
}

// bareMinorPieces reports the dead positions of standard chess material:
// no pawns, rooks or queens, and either at most one knight or bishop in
// all, or only bishops all standing on squares of one colour.
func bareMinorPieces(p *Position) bool {
	v := p.v
	knight, bishop := v.Type('N'), v.Type('B')
	for c := 0; c < 2; c++ {
		for t := 1; t <= len(v.Pieces); t++ {
			pt := PieceType(t)
			if p.pocket[c][t] > 0 || (p.count[c][t] > 0 && pt != knight && pt != bishop && !v.c.royalType[t]) {
				return false
			}
		}
	}
	knights := p.Count(White, knight) + p.Count(Black, knight)
	bishops := p.Count(White, bishop) + p.Count(Black, bishop)
	switch {
	case knights+bishops <= 1:
		return true
	case knights > 0:
		return false
	}
	var colors [2]bool
	for _, s := range v.Squares() {
		if p.board[s].Type() == bishop {
			colors[(s.File()+s.Rank())%2] = true
		}
	}
	return !(colors[0] && colors[1])
}

// newCrazyhouse returns crazyhouse: captured pieces change sides and go
// to the captor's hand; a player may drop a piece from hand on an empty
// square instead of moving, never a pawn on the first or last rank;
// captured promoted pieces go to hand as pawns.
func newCrazyhouse(map[string]string) (*Variant, error) {
	return &Variant{
		Key:             "crazyhouse",
		Name:            "Crazyhouse",
		Files:           8,
		Ranks:           8,
		Pieces:          chessPieces(2, []int{1, 8}),
		StartFEN:        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
		Castling:        fideCastling(),
		Promotion:       Promotion{Zone: 1, Choices: "QRBN", Remember: true},
		Drops:           Drops{Enabled: true, CapturesToHand: true, DemoteTo: 'P'},
		CheckRule:       true,
		DrawClaimPlies:  100,
		RepetitionClaim: 3,
		RepetitionAuto:  5,
	}, nil
}

// newGrand returns Grand Chess (Christian Freeling): 10x10, Marshal (c,
// R+N) and Cardinal (a, B+N), pawns double-step from the 3rd rank, promote
// optionally on the 8th and 9th and compulsorily on the 10th, only to a
// piece type of which the player has fewer than at the start; no castling.
func newGrand(map[string]string) (*Variant, error) {
	return &Variant{
		Key:   "grand",
		Name:  "Grand Chess",
		Files: 10,
		Ranks: 10,
		Pieces: []PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Legend: legendPawn, Pawn: true, InitialRank: 3},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight", Legend: legendKnight},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop", Legend: legendBishop},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: legendRook},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: legendQueen},
			{Letter: 'A', Name: "Cardinal", Betza: "BN", Art: "bishop+knight", Legend: "moves as a Bishop or a Knight"},
			{Letter: 'C', Name: "Marshal", Betza: "RN", Art: "rook+knight", Legend: "moves as a Rook or a Knight"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Legend: legendKing, Royal: true},
		},
		StartFEN:        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
		Promotion:       Promotion{Zone: 3, Choices: "QCARBN", LimitToStart: true},
		CheckRule:       true,
		DrawClaimPlies:  100,
		RepetitionClaim: 3,
		RepetitionAuto:  5,
	}, nil
}
