// Package analysis is fairypost's post-game analysis: it searches every
// position of a finished game with package ai, turns the evaluations into
// winning chances on the variant's curve, judges each turn as lichess
// does, names the engine's better turn and computes lichess's accuracies.
// It does no file or network I/O (the fitting pairs are read from and
// written to any io.Reader and io.Writer) and keeps no package-level state.
//
// # Winning chances
//
// An evaluation of cp hundredths of a pawn (White's point of view) gives
// White winning chances 2/(1+exp(-k*cp))-1 in -1..1, lichess's curve
// (scalachess eval.scala) with the scale k of the variant
// (rules.Strategy.WinScale), fitted by Fit on (evaluation, result) pairs
// of the variant's self-play games ("fairypost fitcurve"); a variant
// without one uses lichess's k for Stockfish in chess, LichessScale. The
// chances are bounded by lichess's bound (its curve at 10 pawns), which a
// forced end reaches; Win% is 50+50*chances.
//
// # Judgements
//
// A turn is judged by its player's whole turn, as lila's Advice.scala
// judges a move: the drop of the player's winning chances from the
// position before the turn to the position after it, 0.1, 0.2 and 0.3
// making an inaccuracy, a mistake and a blunder. A turn that lets the
// opponent force the end is a blunder (milder when the player was already
// lost: a mistake below the curve at -7 pawns in chess, an inaccuracy below
// -9.99), as is one that lets go of the player's own forced end (milder
// when still far ahead); other changes between forced ends are not judged.
// A multi-part turn (Train Wreck's half-moves, Three-Move's three, Winning
// Chess's Attacker steps with the opponent's Defender answer inside) is
// judged as one, from the position before it to the position after it. A
// forced turn (each of the player's parts had a single legal move: a
// forced pass) is never judged nor counted in accuracy, and a turn that
// is the engine's own choice is neither judged nor charged (the engine
// cannot blame its best turn on a deeper look at the next position).
//
// # Accuracy
//
// A turn's accuracy is lichess's (lila AccuracyPercent.scala) from the
// player's Win% before and after it: 103.1668*exp(-0.043544*lost)-3.1669
// plus one, within 0..100. A player's game accuracy is the mean of the
// volatility-weighted mean and the harmonic mean of their turns'
// accuracies, each turn weighted by the standard deviation of Win% over a
// window of the game around it (lichess's gameAccuracy), over turns in
// place of lichess's alternating moves.
//
// # Cost and reproducibility
//
// Each position is searched afresh with the node budget of an ai level
// (DefaultLevel unless told), for the best move, so an analysis depends
// only on the game, the level, the seed and the scale, never on the
// machine nor on how many workers search at once.
package analysis
