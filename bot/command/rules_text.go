package command

// rulesSummary returns the rules of variant key in short, as /rules shows
// them before the piece list generated from the engine's data; "" for a
// key without a summary. Written from the project's rules specification
// (RULES.md) and the variants' original texts.
func rulesSummary(key string) string {
	const trainWreck = "Each turn has two half-moves by the same player: first move one of your own pieces, then one of your opponent's pieces (never their King). " +
		"A piece captures only enemies of its owner, whoever moves it, so with an enemy piece you may take your own men. " +
		"Pieces move only forward unless capturing (captures go any way): King 1 step to the 3 forward squares, Queen forward file or forward diagonals, Rook forward file, Bishop forward diagonals, Knight the 4 leaps that gain rank. Pawns as in chess, no en passant. " +
		"Castling as in chess, and an unmoved Queen may castle with an unmoved Rook the same way, ignoring attacks. There is no check: you win by capturing the King, and a player with no legal half-move loses."
	switch key {
	case "chess":
		return "Standard chess (FIDE rules): checkmate wins; stalemate, threefold repetition (claimed), the 50-move rule (claimed) and insufficient material draw. Castling, en passant and promotion as usual."
	case "crazyhouse":
		return "Chess where captured pieces change colour and go to the captor's hand (a captured promoted piece becomes a pawn). " +
			"Instead of moving you may drop a piece from your hand on any empty square (pawns not on the first or last rank), written P@e4. Checkmate wins; otherwise as in chess."
	case "grand":
		return "Grand Chess (Freeling): 10x10, each side adds a Marshal (Rook+Knight) and a Cardinal (Bishop+Knight). Pawns start on the 3rd rank and may double-step from there, en passant allowed. " +
			"Promotion is optional on the 8th and 9th ranks and compulsory on the 10th, but only to a piece you have lost (fewer than at the start); with none available a pawn cannot promote. No castling. Checkmate wins; stalemate draws."
	case "trainwreck":
		return "Train Wreck Chess (Aronson). " + trainWreck
	case "trainwreck-berolina":
		return "Berolina Train Wreck Chess: Train Wreck Chess with Berolina pawns, which move one step diagonally forward (two from their starting rank) and capture straight ahead; no en passant. " + trainWreck
	case "trainwreck-almost":
		return "Almost Train Wreck Chess: Train Wreck Chess with Chancellors (Rook+Knight) instead of Queens; the Chancellor may castle like the Queen. " + trainWreck
	case "trainwreck-threemove":
		return "Three-Move Train Wreck Chess: White's first turn is own piece then opponent's piece; every later turn is own piece, own piece, then an opponent's piece. " + trainWreck
	case "winning":
		return "Winning Chess (Savard), 12 files. Tiger: moves as a Bishop, captures (and checks) only as a Knight. Cannon: moves as a Rook, captures by jumping exactly one piece along a line. " +
			"Attacker: steps as a Bishop or a Knight; after a non-capturing step it may step again (after a Bishop step: Bishop or Knight; after a Knight step: Bishop), and the opponent may first answer with one Defender move. " +
			"Defender: a King step, or swaps with its adjacent King; you may make one Defender move before your regular move, unless your Defender answered during the opponent's turn. " +
			"Castling: King two squares, Rook hops over. Checkmate or capturing the King wins; pawns promote to Q, R, N, Tiger, Cannon, Attacker or Defender."
	case "easymate":
		return "Making Checkmate Trivially Easy (Savard): chess where the Queen moves and captures only one square diagonally (a Ferz). " +
			"When you capture the enemy Queen you may put it back on any empty square of its owner's back rank as part of the move. " +
			"While any of your Queens is attacked, your King may not move (not even to escape check, nor castle). Otherwise chess: checkmate wins, stalemate draws. Options add Queen castling, a promotion penalty and Augmented Tigers."
	case "coldfusion":
		return "Cold Fusion Chess (gwalla): Grand Chess setup; each player has a Safe and a Demotion pocket. A turn is one of: a move; a fusion (move onto a friendly piece and merge, up to weight 2: non-pawns weigh 1, pawns 1/3); " +
			"a split (a component of a compound moves away to an empty square); pocketing one of your non-royal pieces; or a drop from a pocket onto an empty square (not while in check). " +
			"Captures by pawns and royal pieces go to the Safe pocket; other captures go to the Demotion pocket (pawns captured so are lost) and are demoted one step when dropped. " +
			"Pawns promote on the 9th (optional) or 10th rank only to a piece captured from you that the opponent holds. Checkmate wins."
	case "tank":
		return "Tank Chess (Kurnia): chess with a Bomb (a-rook), an Atomic bomb (Queen) and a Tank (h-rook). Bombs move one King step, never capture, and may instead detonate, removing every piece within 1 (Atomic: 2) squares, themselves included. " +
			"The Tank moves one King step, never captures, and pushes the whole line of pieces in front of it one square (off the board = removed). " +
			"Check means the opponent could remove your King next move. Checkmate or removing the King wins; both Kings gone, stalemate, repetition and the 50-move rule draw. Promotion to N, B, Bomb, Atomic bomb or Tank; no castling."
	case "annihilation":
		return "Crazyhouse Annihilation: random back ranks, independent for each side; before play one player picks the army, the other who moves first (/choose). " +
			"Crazyhouse rules, but the King is an ordinary piece: no check, no checkmate, no castling. Drops go only on empty squares attacked by one of your pieces. " +
			"You may pass instead of moving. You lose when you have no piece left on the board, even with pieces in hand. Option dropcapture=on lets a drop capture an attacked enemy piece."
	}
	return ""
}
