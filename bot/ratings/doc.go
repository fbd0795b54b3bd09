// Package ratings rates games and reads ratings (issue 17), on top of the
// game's life (package bot): Register adds to every game update the
// finisher that rates a rated game as it ends, in the same transaction;
// Service reads standings, histories and leaderboards. Its records and
// store (bot.Standing, bot.RatingChange, bot.RatingStore) are at the
// root, in package bot; it depends on bot and package rating and on no
// other feature package.
//
// A challenge says whether its game is rated (Challenge.Rated, copied to
// Game.Rated when it is accepted; the command layer's default is rated,
// since every game is between people). A rated game changes its players'
// ratings once, when it ends with a result (GameFinished: a decisive
// result, a draw, a loss on time all count), in the store transaction that
// ends it; an aborted game (GameAborted) never counts. The game's record
// keeps the changes (Game.Ratings), so the announcement of the result
// shows them ("<@alice> 1523 → 1541 (+18)") however late it is delivered.
//
// Each game updates the pools rating.PoolsForGame names (the variant with
// the options that change the game, in the guild and globally; see
// package rating). A player's standing in a pool is one record
// (bot.Standing) with its own version, read and written in the transaction
// that ends the game (bot.RatingStore.UpdateGameRated), so two games ending
// at once for one player are rated one after the other, never from the
// same old rating.
//
// Takebacks: a takeback is always by consent (the opponent accepts it,
// gameplay.Service.AnswerTakeback), rated game or not, so a rated game already
// allows them only when both players agree; a game's rating is computed
// from its result alone, once, at its end.
package ratings
