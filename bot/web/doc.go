// Package web serves a page for every game: the players, the variant
// (with its rules page), the options, the time control, the ratings, where
// the game stands, the board as the bot draws it in Discord and the moves
// grouped by turns as /history groups them, stepped through move by move;
// the PGN (as /export) and the animated GIF to download.
//
// # Who may see a game
//
// A page's address carries a token, an HMAC of the game's ID under a
// secret kept in the database (storage.PageSecret; Token, Link): a game
// ID alone or a forged token is answered 404, without reading the store
// (the secret is read at most once per KeyTTL). Rotating the secret
// revokes every link. A page shows only what the players see in the
// game's thread: never a conditional line, a note, a follower or the seed
// of a random start.
//
// # What a page does
//
// Without JavaScript every move and button is a link to its position
// (?ply=N, ?flip=1). With it (assets/page.js) stepping is done in place:
// a click, ← and → (one ply), Home and End, f to turn the board; the
// next boards are fetched ahead. The page of a game in play polls
// /state with the version as ETag and, when the game changed, takes the
// new moves without losing the ply shown. Boards are PNGs of package
// render with the options of the bot's posts (the turn's arrows, the
// pockets, the legend, the result), cached by what they show (imageKey),
// never by who asks; an address of a board carries the record version
// (?v=), and is cached for ever by browsers when it is the current one.
//
// # What a request may be
//
// GET and HEAD only, without a body; at most Options.Rate requests a
// second per client address (Options.Burst at once); paths and queries
// of at most 256 bytes, read by parseRequest (400 for a malformed query,
// 404 for a path that names nothing). Every answer has a strict
// Content-Security-Policy (nothing from elsewhere: the page, its
// stylesheet, its script and its images come from the server itself), no
// Referer, no framing. NewHTTPServer sets the timeouts of every
// connection. The Server only reads: it suits a database opened
// read-only ("fairypost web").
package web
