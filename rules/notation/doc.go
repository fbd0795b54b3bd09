// Package notation writes and reads moves in the friendly form: standard
// algebraic notation (SAN) as chess players know it, generalised to every
// variant of package rules. It asks only the variant's data (piece
// letters, PieceDef.Pawn, castling rules, drops, the check rule) and its
// FriendlySpecial hook, never which variant it is. The canonical
// coordinate form ("g1f3", "e7e8q", "P@e4") stays in package rules
// (rules.FormatMove, rules.ParseMove); this package imports rules, never
// the reverse.
//
// # The friendly form, as SAN writes it
//
// A piece move is the piece's letter (PieceDef.Letter, uppercase), the
// disambiguation, an 'x' when the move captures (en passant included),
// and the destination square: files a-l, ranks 1-12.
//
//	Nf3  Bxe5  Cj10  Ae10  Qh4e1  R10a5
//
// Disambiguation is needed when another piece of the same type could make
// a legal move to the same square. The origin's file is written when it
// tells the pieces apart, else its rank, else both: Nbd2 (knights on b1
// and f3), R1a3 (rooks on a1 and a5), Qh4e1 (queens on h4, e4 and h1).
//
// A pawn (a piece with PieceDef.Pawn) has no letter, except the further
// kinds of pawn marked PieceDef.LetterInSAN (Cold Fusion's Berolina pawn
// Lf7 and Sergeant Sj7), which are written like pieces. A pawn's capture
// always starts with the pawn's file; a promotion ends with '=' and the
// new piece's letter:
//
//	e4  exd5  exd6 (en passant)  e8=Q  bxa8=N  a9  a9=C  a10=C
//
// In Grand Chess promotion on the 8th and 9th ranks is optional: "a9"
// stays a pawn, "a9=C" becomes a Marshal.
//
// A move that also puts a piece on another square (rules.Move.Place: in
// Making Checkmate Trivially Easy, a captured Queen put back on its
// owner's back rank) ends with '@' and that square, after any promotion:
//
//	Bxd5@d8  exd8=Q@a8
//
// Castling is "O-O" when the castling piece moves toward the h-side
// (higher files) and "O-O-O" when it moves toward the a-side; a castling
// piece that stays put goes by the rook's side. The castling of the royal
// piece (the king) is written so; that of any other piece has the piece's
// letter before: "QO-O", "QO-O-O" (the Queen's castling of Train Wreck and
// of easymate's queencastle option), "CO-O-O" (the Chancellor's, Almost
// Train Wreck). Should a variant have two castling rules of one side,
// direction and castling piece, those castling moves are written in the
// coordinate form ("f1j1").
//
// A drop is the dropped piece's letter, '@' and the square; pawns keep
// their letter: "N@e4", "P@e4". A pass is "pass".
//
// Moves of kind rules.KindSpecial (defined by a variant's hooks) are
// written as the variant's rules.Hooks.FriendlySpecial says, followed by
// the marks below like any move:
//
//	M*e2  A*d1                       Tank Chess: a Bomb, an Atomic bomb detonates
//	Te5-f6  Td6-d7=M                 Tank Chess: the Tank pushes (a pawn promotes)
//	D~K  Dh1~K                       Winning Chess: the Defender swaps with its King
//	R&j1=W  Qd2/Bf4  ^Ne4            Cold Fusion: fusion, split, pocketing
//	Q@e4  Q=C@e4  Q*=C@e4  e10=Q(S)  Cold Fusion: drops, promotion
//
// (each variant's constructor documents its texts). A special move of a
// variant without that hook, or for which the hook gives "", is written in
// its coordinate form, rules.FormatMove, with no check marks: "N@xe5"
// (Crazyhouse Annihilation's drop-capture).
//
// # Marks at the end
//
// In variants with the check rule (or a Check hook), a move that gives
// check ends with '+',
// one that checkmates with '#': "Qxf7#", "e8=Q+", "N@d6+". They are found
// by playing the move. Only a move that hands the turn to the opponent is
// marked; after the first part of a multi-part turn, or a move that
// continues the turn, the same player acts again and nobody is in check
// yet.
//
// A move that continues the player's turn (rules.FlagContinue) ends with
// '>': "Nf3>", "exd5>", "O-O>", "N@e4>", "pass>". The '>' is always the
// very last character, as in the coordinate form ("g1f3>"), so it would
// follow a check mark; but since check marks go only on moves that hand
// the turn over, a move never carries both.
//
// The friendly form of every legal move of a position is unique in it,
// and ParseSAN reads it back as the same move.
//
// # Reading
//
// ParseSAN reads everything SAN writes (including the coordinate forms SAN
// falls back to) and is tolerant, like good chess software. The friendly
// text of a special move is read by exact, case-sensitive match (followed
// by optional check marks and annotations, and by '>' exactly when the
// move continues the turn), before anything else; so is the canonical form
// of a special move. Everything else is read as follows:
//
//   - check marks and annotations are optional and ignored ("Nf3", "Nf3+",
//     "Nf3!?"); '>' must be given exactly when the move continues the turn,
//     and may stand before or after them;
//   - 'x' is optional ("ed5" for "exd5", "Ne5" for "Nxe5") but wrong on a
//     move that captures nothing; ':' and '×' are read as 'x', a '-'
//     between origin and destination is allowed ("Ng1-f3"), and " e.p."
//     may follow an en-passant capture;
//   - '=' before a promotion letter is optional and the letter may be in
//     either case ("e8=Q", "e8Q", "e8=q", "e8q", also "e8/Q" and "e8(Q)");
//   - castling may be written with zeros or lowercase o's ("0-0", "o-o-o");
//     the letter of the castling piece may be in either case ("qO-O"), and
//     may be given for the royal piece too ("KO-O" for "O-O");
//   - more disambiguation than needed is fine ("Ng1f3", "e2e4") as long as
//     the move is unambiguous;
//   - spaces are ignored; "--" and "0000" are read as "pass";
//   - chess figurines stand for the letter of the variant's piece of that
//     name ("♞c6" is "Nc6", "♙e4" is "e4");
//   - a drop onto a piece ("N@xe5") is read, and is legal only as a
//     variant's special move (Crazyhouse Annihilation's drop-capture);
//     elsewhere its error says why (drops go onto empty squares).
//
// Piece letters must be uppercase, because lowercase a-l are files: "bc4"
// is a pawn on the b-file capturing on c4, never a bishop move (the error
// for such a move suggests "Bc4" when that is legal). A lowercase letter
// that is no file of the variant's board ("kf7" on 8x8) can only be a
// piece: the error suggests "Kf7" when it is legal and says why not when
// it is not. Drops accept the letter in either case ("p@e4"). A pawn move written without a file
// ("d5") never captures, so that it cannot silently become "exd5".
//
// Errors are one line and say what is wrong: unreadable text wraps
// rules.ErrBadMove; a well-formed move that is not legal wraps
// rules.ErrIllegalMove and says why ("the Knight on c3 cannot move to
// e5", "it would leave the king in check", "castling O-O needs f1
// empty"); text that names several legal moves wraps ErrAmbiguousMove and
// lists them ("ambiguous move: Nd2: it could be Nbd2 or Nfd2"). ParseMove
// accepts the coordinate form as well.
//
// Errors point the right way, asking only the variant's data and hooks:
// text that no notation of the variant reads is unreadable, a well-formed
// move that is not legal is illegal with the rule that forbids it, and
// squares off the board are told with the variant's own board size ("a
// file a-h and a rank 1-8"). The variant's own reason comes first
// (rules.Hooks.Refusal for a move its rules refuse, such as a frozen
// King; rules.Hooks.Immobile and rules.Position.PieceRefusal for a piece
// that may not move at all now, such as Train Wreck's enemy King;
// rules.Hooks.ExplainText for text in the shape of its own moves, such as
// "A*e2" with no bomb there, a fusion "R&j1=Q" with the wrong result, or
// "D~K>" where Winning Chess's answer ends the turn); a piece already on
// the square named, and in a part of the turn that moves the opponent's
// pieces, whose pieces move now, are said;
// a reason without a suggestion ends with the legal moves the text
// probably meant ("did you mean QO-O-O?"): the same move with a
// promotion or placement added, or with a castling piece's letter before
// it, and moves of another shape with the same piece letter and
// destination ("P@g6" for "P*=P@g6"); a letter that is no piece of the
// variant but the initial of one piece's name names that piece ("M is
// not a piece of Grand Chess: its Marshal is written C"); unreadable text
// gets examples of the moves legal in the position, one of each kind.
package notation
