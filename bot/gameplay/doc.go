// Package gameplay is the life of a correspondence game, independent of
// any transport: challenges and how a game begins (Service.Challenges),
// moves (Service.Move), the game's actions (Service.Act: draws,
// takebacks, resignation, abort, pause, pre-game choices), conditional
// lines (Service.Forecasting), notes and follows, the clock (Sweep and
// the Scheduler), and reading games for display (Service.Views: replays,
// history, turns, PGN). Its records and store interfaces are package
// bot's; it imports bot and never a package built on it.
//
// # One write path, features around it
//
// Every change of a game in play goes through one method of the Service
// (updateGame, round.go), and what features add to it is registered when
// they are made: finishers run in the update's transaction (the rating
// of a game that ends, the computer player's posts), events after its
// commit (a tournament records the result, the computer's runner wakes),
// sweepers in Sweep. Reading Move shows everything a move does. A
// feature has its own package under bot/ (bot/ratings, bot/tournaments,
// bot/computer, bot/notify, bot/prefs), imports bot and gameplay, and
// never another feature.
//
// # Time
//
// The Service never reads the wall clock: Now is injected (Clock), so
// tests decide what time it is.
package gameplay
