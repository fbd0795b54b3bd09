// Package tournaments runs correspondence tournaments (issue 17) on top
// of the game's life (package bot): it owns what a tournament does
// (Service: create, join, start, pair, record, finish) and nothing else.
// Its records and store (bot.Tournament, bot.TournamentStore) are at
// the root, in package bot, with every other record; it depends on bot
// and the pure packages (tournament, rating, rules) and on no other
// feature package.
//
// A tournament is made in a server's channel by its organiser
// (Create) with a variant and its options, days per move, the
// system (round-robin, or Swiss with a number of rounds) and whether its
// games are rated. Players join until the organiser starts it
// (Start); the seed order is by rating in the event's pool
// (established ratings first, then by rating; newcomers in joining
// order). A round-robin creates every game of every round at once, as
// correspondence events play their rounds in parallel; a Swiss creates
// the games of round 1, and each next round when the games of the last
// one are all over. Games are created as an accepted challenge creates
// one (colours from the pairing, the clock of White started, White told
// it is their turn), in the same store transaction as the tournament's
// change, and are played as any game.
//
// When a tournament game ends, its result is recorded in the event
// (Sync, run by an event registered with the game's Service right
// after any update that ends such a game, by the sweep for running
// tournaments, and by /tournament standings, so a crash between the two
// transactions only delays it). A game lost on time is a loss; a game aborted on time (the
// player to act never moved) is lost by forfeit by that player (White
// when no move was played, else Black); /abort is refused in tournament
// games. A player who leaves a running tournament forfeits their games
// without a result (their games being played are resigned for them) and
// is not paired again. When the last round is over the tournament is
// finished and the channel is told the winner; the standings and a PGN
// of every game are available with /tournament standings. Variants with a
// pre-game choice (rules.Variant.PreGame) are not offered in tournaments.
// The organiser's actions take the organiser's user ID; an adapter that
// knows a user manages the server may pass the organiser's ID for them.
package tournaments
