// Package render draws positions of every fairypost variant as board
// images: PNGs for the bot's messages and an animated GIF of a whole game.
//
// # Game GIFs
//
// A game GIF is bounded whatever the game's length and the size asked for
// (see GIFMaxMoves, GIFMaxPixels, GIFMinWidth, GIFBytes): at most 300
// moves, the last ones; frames × pixels per frame at most 100 million,
// a long game being drawn narrower; at most 8 MiB by default, fewer moves
// being shown when the frames would exceed it. Frames are encoded one at
// a time, from the end of the game backwards, so building one holds two
// frames and the encoded bytes, and WriteGIF reports what was left out.
//
// # What an image shows
//
// From top to bottom: a status bar (whose turn it is and, in multi-part
// turns, what the player does now, from rules.Position.PhaseName; "Check!"
// when the player to act is in check), which becomes the result banner once
// the game is over; the pocket of the side at the top (variants with
// drops, each pocket of a side when it has several); the board with file
// and rank coordinates, from either side (Perspective); the pocket of the
// side at the bottom; and a legend of the pieces shown that are not
// standard chess pieces (Discord users cannot hover over an image). On the
// board: the last move (from and to squares, pieces that moved with it,
// pieces it removed drawn faded on red; see Previous) or the whole last
// turn (every move, numbered arrows when there are several, captured and
// pushed-off pieces kept small; see Turn) and a red glow under a King in
// check. The background is opaque and dark with light text, so
// the image reads the same in Discord's light and dark themes.
//
// # Pieces
//
// Every piece is drawn from one set, the chess pieces of Noto Sans Symbols
// 2, plus round tokens for pieces without a chess shape (Bomb, Atomic
// bomb, Tank, Winning Chess's Attacker and Defender: crossed swords and a
// shield). Fairy pieces are decorations of these: split glyphs for
// compounds (Dragon King = left half of a King, right half of a Rook),
// turned glyphs (Cannon, Archbishop, Knightrider), copies (the Chariot is
// two Rooks, Cold Fusion's Berolina pawn two Pawns and Sergeant three),
// small Pawns in front of a piece for Cold Fusion's pawn parts (a Guard is
// a Rook with one, a Berolina Guard with two), corner badges (Augmented
// Tiger) and movement marks (Berolina Train Wreck's pawn, the Ferz
// Queen). Each piece's definition names its drawing (rules.PieceDef.Art),
// and the table in pieces.go is keyed by that name, so a new piece that
// looks like a known one needs nothing here and a new drawing is one row;
// a piece whose drawing is not in the table is drawn as its letter in a
// token. The legend shows each fairy piece's letter, name and how it
// moves (rules.Describe); it gives names alone rather than make an image
// taller than 1.35 times its width, but always names every piece shown.
//
// # Fonts
//
// The fonts are embedded (fonts/, with their licences), so images are the
// same on every machine. Faces are created per use: a font.Face is not safe
// for concurrent use, the parsed fonts are.
//
// # Concurrency and speed
//
// A Renderer is safe for concurrent use. It caches piece sprites, the
// static part of each image (background, board, coordinates, pocket
// boxes) per variant, size and orientation, and legends, and composites
// the sprites onto a copy; PNGs are written with a palette of 256 colours
// (the static part is quantized once) at png.BestSpeed with pooled
// buffers: about 5 ms and 40 KB for an 800 px chess board. Errors about
// what was asked to be drawn wrap ErrInvalid; nothing panics on bad input.
package render
