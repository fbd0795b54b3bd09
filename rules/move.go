package rules

// MoveKind says what a move does.
type MoveKind uint8

// Move kinds. These values are in memory only; moves are persisted in
// their canonical text form.
const (
	KindNormal    MoveKind = iota // a piece moves (and may capture, and may promote)
	KindCastle                    // castling: From/To are the castling piece's squares
	KindEnPassant                 // an en-passant capture
	KindDrop                      // a piece from the pocket is put on To
	KindPass                      // the player passes
	KindSpecial                   // a variant-defined move carried out by Hooks.Apply
)

// MoveFlags carry facts about a move that its form shows.
type MoveFlags uint8

// Move flags.
const (
	// FlagContinue marks a move after which the same player acts again by
	// choice (written with a trailing '>').
	FlagContinue MoveFlags = 1 << iota
)

// Move is one atomic action by the player to act. Moves are small values;
// compare them with ==. Only moves produced by Position.Legal (or parsed
// against a position) are meaningful for that position.
type Move struct {
	From, To  Square
	Kind      MoveKind
	Promotion PieceType // the piece a pawn becomes, or NoPieceType
	Drop      PieceType // the piece dropped (KindDrop)
	Flags     MoveFlags
	// Extra is variant data. On KindSpecial moves it says which special
	// action (Hooks.Apply reads it); on other moves it is 0 or the square on
	// which the move also puts a piece, which the variant's
	// Hooks.AfterMove places (see Place).
	Extra uint8
	// rule is the castling rule index for KindCastle.
	rule uint8
}

// Place returns the square on which m also puts a piece as part of the
// move (a captured piece put back elsewhere), or NoSquare. Both move forms
// write it after the move as '@' and the square: "c4d5@d8", "Bxd5@d8".
func (m Move) Place() Square {
	if m.Kind == KindSpecial {
		return NoSquare
	}
	return Square(m.Extra)
}

// Pass returns the move "pass" (legal only where a variant offers it).
func Pass() Move { return Move{Kind: KindPass} }

// IsCapture reports whether m captures a piece in p (a normal capture or
// en passant). Special moves answer false; their hooks describe them.
func (p *Position) IsCapture(m Move) bool {
	switch m.Kind {
	case KindEnPassant:
		return true
	case KindNormal:
		return p.board[m.To] != NoPiece
	}
	return false
}
