// Package tournament is the pure core of fairypost's correspondence
// tournaments: pairings, scores, tiebreaks and the rows of a crosstable.
// It knows players only by id (a string), does no I/O and reads no clock;
// package bot stores events, creates the games of each round and calls
// back here with the results.
//
// # Events and results
//
// An event is its players in seed order (best first: by rating, then by
// joining order, as the caller decides) and its rounds. A Round is a list
// of Games (White, Black, Result) and at most one bye. Results are
// persisted with explicit numbers; a forfeit (a player who left the
// event, or one who never started the game) is a result of its own so
// that crosstables can show it, and scores as a win and a loss.
//
// # The life of an event
//
// Event holds one tournament's state and moves it on with methods that
// return a changed copy (the store's compare-and-swap pattern): Join and
// Leave while Open; Start with the seed order, which pairs the whole
// round-robin or the first Swiss round; Record for each result; Advance
// once the current games are over, which pairs the next Swiss round or
// finishes the event; Pause, Resume, Cancel. A player who leaves after
// the start loses every game of theirs still without a result by forfeit
// and is not paired again. Permissions (who may start or cancel) and
// time (when a round starts) belong to the caller.
//
// # Round-robin: Berger tables
//
// RoundRobin returns the whole schedule at once, since correspondence
// round-robins play all rounds in parallel. It follows the FIDE Berger
// tables: with n players (n even; for an odd count a phantom player is
// added and whoever is paired with it has a bye that round), round r
// pairs player n with player a = 1 + (r-1)·n/2 mod (n-1) and then a+k
// against a-k for k = 1..n/2-1 (numbers counted 1..n-1 cyclically), so
// everyone meets everyone exactly once in n-1 rounds, and every player
// has White in half their games (one more or fewer when they play an odd
// number).
//
// # Swiss: a documented simplification of the Dutch system
//
// PairSwiss pairs one round from the results so far. Its rules, in order
// of priority:
//
//  1. Absolute: no two players meet twice; nobody gets a second bye; a
//     withdrawn player is not paired.
//  2. Byes: with an odd number of players the bye goes to the lowest
//     ranked player who has not had one and whose absence leaves a
//     pairing of everyone else that keeps rules 1 and 3 (rule 1 alone
//     when no choice of bye allows rule 3). A bye scores ByePoints (1, as
//     the FIDE and lichess pairing-allocated bye) and counts as no
//     colour.
//  3. Colours: no player's whites and blacks may differ by more than two
//     and nobody gets one colour three times in a row. These hold
//     whenever any pairing satisfying rule 1 allows it; only when none
//     does are they dropped for that round (PairSwiss says so).
//  4. Score groups: players are ranked by score, then seed. Working down
//     from the top, each player is paired with the closest score still
//     available; within a score group the top half meets the bottom half
//     in order (1st against the first of the bottom half, and so on), as
//     the Dutch system does; an odd player out floats down to the next
//     group. Among candidates with equal score, one whose colour
//     preference fits comes first.
//  5. Colour allocation: each player gets the colour they need most
//     (absolute, then a colour difference of one, then simply alternating
//     from their last game); on a tie, the player with the larger colour
//     difference, then the higher ranked player, gets their wish. In the
//     first round the higher ranked player has White on odd boards.
//
// The pairing is the first complete pairing in that order of preference,
// top boards first: a depth-first search over the candidates in order,
// where a maximum-matching algorithm (Edmonds' blossom algorithm) first
// proves that the field, and if the search runs long each step, can be
// completed, so a pairing is found whenever one exists. It is not the
// full FIDE Dutch system (C.04.3): there is no global optimisation of
// floaters, and the transpositions and exchanges of the Dutch rules are
// approximated by the order of candidates.
//
// MaxSwissRounds bounds the rounds: at most half the players, rounded up,
// so that a pairing without repeats always exists (unless players
// withdraw; then the event may end early).
//
// # Standings and tiebreaks
//
// Standings ranks by points, then the event's tiebreaks, then seed.
// Round-robin: Sonneborn-Berger (the points of the opponents a player beat
// plus half the points of those they drew with), then number of wins.
// Swiss: Buchholz cut-1 (Buchholz without its lowest term), Buchholz (the
// sum of the opponents' points), then Sonneborn-Berger. In a Swiss a bye
// round counts for Buchholz as a virtual opponent with the player's own
// points (the idea of the FIDE 2023 tiebreak rules, simplified); a
// forfeited game counts as a game against its opponent. In a round-robin
// a bye is no game at all and scores nothing: everyone has the same
// number of them. Players who share points and every tiebreak share a
// rank.
package tournament
