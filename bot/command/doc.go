// Package command defines every user command of fairypost — its name,
// options and what it does — independently of any transport. The console
// (bot/console) and Discord (bot/discord) adapters translate their input
// into a Request, call Handler.Execute (or Press for a button, Complete
// for autocomplete) and show the Reply; they hold no command logic.
//
// # Where things are
//
// Each command is defined (spec and handler together) in its own file, by
// a define<Command> function; commandList (specs.go) is the one list of
// them, which Specs (what Discord registers), the console's parser and
// /help read. The game actions besides moves (gameplay.Service.Act: resign,
// draws, abort, takebacks, pause, the pre-game choice) are one table,
// gameActions (actions.go): each row says the action, which game a command
// prefers, the reply and the buttons that do it.
//
// # Resolving the game option
//
// Commands about a game take an optional game:ID. Without it, the game is
// found among the requester's games in progress (pre-game choice or
// play) in the request's channel, counting a game's thread (Game.ThreadID)
// as its channel:
//
//  1. a request from a game's thread is about that game;
//  2. else the only such game;
//  3. else the only one the command prefers: /move and /choose the one
//     where it is the requester's turn, /draw accept|decline the one
//     where the opponent's offer stands, /takeback accept|decline the one
//     where the opponent asked, /pause ask|decline the one where the
//     opponent asked to pause and /pause resume a paused one (the rows of
//     gameActions say which);
//  4. else the requester is asked to add game:, with the candidate IDs.
//
// Commands that only look (/board, /history, /export) let someone with no
// game in the channel (a spectator) see the only game being played there.
// The console's channel is "", where all its games are.
//
// # Replies
//
// A reply to a move shows the board from the side of the player to act
// next (the mover's once the game is over) and mentions that player, or
// both players when the game ended; /board shows the requester's side
// (White's for spectators) and pings nobody. Errors and private answers
// (/games, /moves, /settings, /help, /variants, /export) are Ephemeral.
// Texts are at most 2000 bytes; long lists end with "… and N more", except
// /moves, whose list goes on in further messages (Reply.More).
//
// # Buttons
//
// Custom IDs have the form "fp1:<action>:<id>:<version>" (at most 100
// characters), where id is a game or challenge ID and version the
// record's version the button was shown with. A click is refused when the
// record has changed since (ECONFLICT, "out of date"), when the clicker
// does not play in the game (EFORBIDDEN), and when the ID is not one
// fairypost makes (EINVALID). Resign asks for a confirmation first.
package command
