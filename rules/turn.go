package rules

// BeginsTurn reports whether p is the first moment of a turn: phase 0,
// which is where every variant's turn begins. A turn is every move from
// one such position up to the next: one move in chess; Train Wreck's two
// half-moves; a Winning Chess Defender pre-move, the regular move and,
// after a continuing Attacker step, the opponent's Defender answer (made
// by the other player, inside this turn) and the second step. The player
// whose turn it is is ToAct of the position that begins it.
func (p *Position) BeginsTurn() bool { return p.phase == 0 }

// LastTurn returns the ply at which the turn of the last move began: the
// moves from LastTurn() to the end are that turn's so far (all of them
// when the game started in the middle of a turn), in order. It returns
// len(Moves()) when no move was played.
func (g *Game) LastTurn() int {
	n := len(g.moves)
	if n == 0 {
		return 0
	}
	i := n - 1
	for i > 0 && !g.positions[i].BeginsTurn() {
		i--
	}
	return i
}
