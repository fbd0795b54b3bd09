// Package rating is fairypost's Glicko-2 rating system: pure arithmetic
// with no I/O and no clock (every time is passed in), used by package bot
// to rate games and by the leaderboards.
//
// # The algorithm
//
// Update is Glickman's Glicko-2 rating-period update, step by step as in
// "Example of the Glicko-2 system" (Mark E. Glickman, glicko.net): scale
// to the Glicko-2 scale, compute the estimated variance v and improvement
// Δ, find the new volatility with the Illinois iteration, and update the
// deviation and rating. The worked example of that paper (a 1500/200/0.06
// player against 1400/30, 1550/100 and 1700/300 with τ = 0.5) is a test.
//
// # Instant ratings, as lichess rates
//
// fairypost rates each game as soon as it ends rather than in batches: Rate
// treats one game as a rating period of its own whose length is the time
// since the player's previous rated game, measured in rating periods of
// RatingPeriod (lichess's 0.21436 periods a day, one period ≈ 4.67 days).
// A player who has not played for a while therefore gets a wider
// deviation, and their next results move their rating more; Live gives
// the deviation a player has now, for leaderboards and for the opponent's
// side of a game. Deviations are kept between MinDeviation and
// MaxDeviation and volatility between MinVolatility and MaxVolatility, so
// that no input, however extreme, gives a NaN or an infinity.
//
// # Provisional ratings
//
// A rating is provisional while its deviation is at least
// ProvisionalDeviation (110, as lichess): it is shown with a "?"
// ("1500?") and is left out of leaderboard ranks. A newcomer starts at
// 1500 with deviation 500 and volatility 0.09 and is provisional for
// their first several games.
//
// # Rating pools
//
// A Pool is what one rating is for: a variant key plus the options that
// change the game, in a scope (one guild, or global). Every variant option
// fairypost has today changes the rules (board size, drops, castling,
// winning ranks...), so each distinct canonical option set is its own
// pool: "winning" and "winning ranks=10" are rated separately, and the
// defaults share the plain variant's pool because canonical options leave
// defaults out. A rated game updates two pools per player: the guild pool
// of the guild it was played in, and the global pool. The two are computed
// independently from the ratings each player has in that pool, so a
// guild's ladder is not disturbed by games elsewhere.
//
// # Leaderboards and player cards
//
// Leaderboard and Card compute the rows and numbers a renderer draws (and
// the text alternative prints): ranks of established players with their
// trend and the caller's own line, and a player's W/D/L, streaks, peak and
// a thinned rating chart. They draw nothing themselves.
package rating
