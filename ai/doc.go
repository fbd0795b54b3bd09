// Package ai is fairypost's computer player: one search for every variant
// of package rules. It imports only rules and the standard library, does
// no I/O and keeps no package-level state.
//
// # The search
//
// Engine.Search runs iterative deepening over atomic moves (one
// Position.Legal move each) with a principal variation search, a
// transposition table keyed by Position.Hash (which covers the phase of a
// multi-part turn, pockets and the variant's own state), move ordering
// (the table's move, captures by most valuable victim and least valuable
// attacker, the variant's special moves, killer moves and a history
// table), a player in check at a turn boundary searched one move deeper,
// late quiet moves searched shallower first (late-move reductions) and a
// quiescence search. Variants whose Strategy says having to move is no
// disadvantage (NullMove: chess, crazyhouse, grand) are also pruned by a
// pass (the null move), by the static judgement near the horizon
// (futility) and, in the quiescence search, by skipping captures that
// cannot help (too little taken, or a defended piece taken by a dearer
// one); zugzwang-driven games (Train Wreck, won by stalemate) never are.
// Scores are from the point of view of
// the player to act and change sign only when the player to act changes,
// so multi-part turns (Train Wreck's two half-moves, Three-Move's three,
// Winning Chess's Attacker steps and Defender answers, passes) need no
// code of their own. A position is judged statically only at a turn
// boundary (phase 0): at the horizon the quiescence search finishes the
// turn, with every move at the horizon (the root player's own turn; in a
// later turn the noisy and eight best-ordered quiet moves) and then the noisy moves (captures,
// promotions, and special moves that remove a piece of the side not
// moving: detonations, push-offs) and the best-ordered quiet moves. Game ends are scored from the rules' outcome,
// with the distance in atomic moves; repetitions of the game's or the
// path's positions, the move-count draw and insufficient material score 0.
//
// # The evaluation
//
// Everything the evaluation knows comes from the variant: piece values
// from how each piece moves (its Betza legs' average reach on an empty
// board, riders' further squares counting less), pawns at 100, royal
// pieces at 0 (their loss is the end), pieces in hand at a share of their
// value, mobility from the same legs walked on the board, pawns by their
// advance, passed pawns (no enemy pawn ahead on their file or the next),
// doubled and isolated pawns, royal pieces by the lines open towards them
// while the enemy keeps its army and by their centrality when it has
// lost it, and the
// variant's rules.Strategy: the weight of material and mobility, the count
// of the last pieces on the board
// (Annihilation), two-move threats on the King (Three-Move), and the
// variant's own term (Train Wreck's pools of half-moves — a side loses
// when the pieces its next half-move must move run out of moves — Tank's
// bombs and exposed Kings, Winning Chess's Attacker threats and Defender
// cover, Easymate's frozen King).
//
// # Levels
//
// Levels 1-8 are node budgets (300 to 160,000 positions), so a level
// plays the same on every machine; weaker levels draw their move (by
// Options.Seed) among those within a spread of the best. A budget may
// stretch to ten times itself to finish the first iteration; a move the
// unfinished first iteration did not judge is preferred to one it proved
// lost, and an unfinished later iteration that judged the last best move
// again decides among the moves it judged. The result
// depends only on the position, the game's earlier positions, the options
// and the Engine's earlier searches. TopLevel searches by time with a hard
// limit (Options.MoveTime, default 2 s). A search is cancelled with its
// context. In steady state a search allocates nothing per node, the
// rules' move generation included (TestNoAllocationPerNode, every key).
package ai
