package rules

// Standard chess pieces, in Fairy-Stockfish's type order (pockets are
// written in the reverse of this order, as Fairy-Stockfish does).
func chessPieces(pawnInitialRank int, noDropRanks []int) []PieceDef {
	return []PieceDef{
		{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Pawn: true, InitialRank: pawnInitialRank, NoDropRanks: noDropRanks},
		{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight"},
		{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop"},
		{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook"},
		{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen"},
		{Letter: 'K', Name: "King", Betza: "K", Art: "king", Royal: true},
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
		Strategy:             Strategy{NullMove: true, WinScale: 0.00283184},
		Help: VariantHelp{
			Summary: "Standard chess. Each side has a King, a Queen, two Rooks, two Bishops, two Knights and eight pawns; " +
				"White moves first and the players take turns, one move each. You win by checkmate: the enemy King is attacked " +
				"and no move saves it. A game is drawn by stalemate (the player to move has no legal move and is not in check) " +
				"and when neither side can ever checkmate; a player may claim a draw when a position occurs for the third time " +
				"or after 50 moves by each side without a capture or a pawn move, and the fifth occurrence or 75 such moves draw " +
				"at once.",
			Notation: append(fideNotation(),
				NotationHelp{Kind: "En passant", How: "a pawn that has just stepped two squares past an enemy pawn may be taken as if it had stepped one: write the capture to the square it crossed.",
					Example: "exd6", Moves: "e2e4 a7a6 e4e5 d7d5"}),
		},
	}, nil
}

// fideNotation explains how castling and promotion are written, with
// examples from the standard array: for chess and crazyhouse.
func fideNotation() []NotationHelp {
	return []NotationHelp{
		{Kind: "Castling", How: "the King moves two squares toward the h-Rook, which jumps over it (O-O-O: toward the a-Rook); both unmoved, the squares between them empty, the King not in check and not passing or landing on an attacked square.",
			Example: "O-O", Moves: "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"},
		{Kind: "Promotion", How: "a pawn reaching the last rank becomes a Queen, Rook, Bishop or Knight: add = and the new piece's letter.",
			Example: "e8=Q", FEN: "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"},
	}
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
		Strategy:        Strategy{NullMove: true, WinScale: 0.000966976},
		Help: VariantHelp{
			Summary: "Chess in which a captured piece changes sides and goes into the captor's hand. On your turn you may, " +
				"instead of moving, drop a piece from your hand onto any empty square, even to give check or checkmate; " +
				"pawns may not be dropped on the first or the last rank, and a pawn dropped on its own second rank may still " +
				"step two squares. A promoted piece that is captured goes to the hand as a pawn. Otherwise it is chess: " +
				"checkmate wins, stalemate draws, a draw may be claimed at the third repetition or after 50 moves by each " +
				"side without a capture or a pawn move, and the fifth repetition draws.",
			Notation: append([]NotationHelp{
				{Kind: "Drop", How: "the piece's letter (P for a pawn), @ and the empty square.",
					Example: "P@e4", Moves: "e2e4 d7d5 e4d5 d8d5"},
			}, fideNotation()...),
			Marks: []MarkHelp{
				{Mark: "pieces beside the board", Meaning: "each player's hand, the pieces they may drop; a number shows how many when there are two or more."},
			},
		},
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
			{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", Art: "pawn", Pawn: true, InitialRank: 3},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight"},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen"},
			{Letter: 'A', Name: "Cardinal", Betza: "BN", Art: "bishop+knight"},
			{Letter: 'C', Name: "Marshal", Betza: "RN", Art: "rook+knight"},
			{Letter: 'K', Name: "King", Betza: "K", Art: "king", Royal: true},
		},
		StartFEN:        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
		Promotion:       Promotion{Zone: 3, Choices: "QCARBN", LimitToStart: true},
		CheckRule:       true,
		DrawClaimPlies:  100,
		RepetitionClaim: 3,
		RepetitionAuto:  5,
		Strategy:        Strategy{NullMove: true, WinScale: 0.00636056},
		Help: VariantHelp{
			Summary: "Chess on a 10x10 board with two more pieces a side, the Marshal " +
				"(letter C), which moves as a Rook or a Knight, and the Cardinal (letter A), which moves as a Bishop or a " +
				"Knight. The Rooks start in the corners, the other pieces on the second rank and the pawns on the third, " +
				"from where a pawn may step two squares; en passant as in chess. A pawn may promote on the 8th or 9th rank " +
				"and must on the 10th, but only into a piece of a kind you now have fewer of than at the start, a piece you " +
				"have lost; with none, it may not move onto the 10th rank. No castling. Checkmate wins and stalemate draws; " +
				"a draw may be claimed at the third repetition or after 50 moves by each side without a capture or a pawn " +
				"move, and the fifth repetition draws.",
			Notation: []NotationHelp{
				{Kind: "Marshal", How: "its letter is C (as in the programs Grand Chess is played with), never M.",
					Example: "Ce4"},
				{Kind: "Cardinal", How: "its letter is A, never C.",
					Example: "Af4"},
				{Kind: "Promotion", How: "add = and the new piece's letter; a pawn that may stay a pawn on the 8th or 9th rank is written without it.",
					Example: "a10=C", FEN: "10/P9/9k/10/10/10/10/10/10/4K5 w - - 0 1"},
			},
		},
	}, nil
}
