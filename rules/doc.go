// Package rules is fairypost's rules engine: pure Go, with no I/O, no
// clock and no package-level state. It knows every variant fairypost
// plays and decides, exactly, which moves are legal and how games end.
//
// # Variants are data
//
// A Variant is a board size (up to 12x12), a list of PieceDef, a start
// position in FEN, and declarations for castling, promotion, drops and
// the ends of the game. Pieces move as their Betza description says (see
// ParseBetza for the supported subset: leapers, riders with a range,
// hoppers, move-only and capture-only parts, directions relative to the
// owner, lame leaps, initial-only moves and en passant). Each PieceDef also
// carries what players are told about the piece: the name of its drawing
// (Art, which the renderer keys its pictures by) and a few words on how it
// moves (Legend); Register refuses a piece without them. What data cannot
// say is written as Hooks: who acts next in a multi-part turn and whose
// pieces they move, moves that are not from-to (a pass, a detonation),
// extra legality conditions and other ends. Shared code asks what a
// variant allows, never which variant it is. A Registry builds each
// variant (with its options) once, checks it and compiles it to move
// tables; a compiled Variant is immutable.
//
// # Positions are values
//
// A Position holds the board, pockets, the player to act and the phase of
// a multi-part turn, castling rights, the en-passant target and the move
// counters. Play returns a new Position and never changes its receiver,
// so positions may be shared freely between goroutines. A Game adds the
// history that repetition needs.
//
// # Moves and notation
//
// A Move is one atomic action by the player to act. Its canonical
// coordinate form (FormatMove, ParseMove) is what fairypost stores:
// "e2e4", "e7e8q", "P@e4", "a9a10c", "pass", with a trailing '>' when the
// player's turn continues. The friendly form for people (SAN) lives in
// package rules/notation. FEN (ParseFEN, Position.FEN) round-trips every
// position; for chess, crazyhouse and grand it is exactly
// Fairy-Stockfish's FEN, so positions can be exchanged with other tools.
//
// # Speed
//
// The board is a 16x16 mailbox with a wall around the playable area;
// moves are generated from per-piece, per-side step tables, and attacks
// are found by walking the same tables backwards from the target.
// Legality is decided per position with pins found once, geometry for
// moves that cannot expose the king and in-place trial moves for the
// rest; Perft allocates nothing per node.
package rules
