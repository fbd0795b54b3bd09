package ai

import "github.com/fairypost/fairypost/rules"

// greedy chooses the move whose whole turn (every move the player to act
// makes before someone else acts or the game ends) leaves the best
// material, looking no further: the arena's "greedy" player. Ties are
// broken by the seed. It returns the move, its score, and the number of
// moves that tied.
func (e *Engine) greedy(root []rootMove) (rules.Move, int, int) {
	p := &e.pos[0]
	best, n := -infScore, 0
	for i := range root {
		child := &e.pos[1]
		if !p.AfterInto(root[i].move, child) {
			root[i].score = -infScore
			continue
		}
		s := e.greedyTurn(1, p.ToAct())
		root[i].score = s
		switch {
		case s > best:
			best, n = s, 1
		case s == best:
			n++
		}
	}
	x := e.opts.Seed ^ e.hashes[0]
	k := int(splitmix(&x) % uint64(n))
	for i := range root {
		if root[i].score == best {
			if k == 0 {
				return root[i].move, best, n
			}
			k--
		}
	}
	return root[0].move, best, n
}

// greedyTurn scores the position at ply for player us: the best material
// us can reach by the end of its turn, or the game's end.
func (e *Engine) greedyTurn(ply int, us rules.Color) int {
	e.nodes++
	p := &e.pos[ply]
	moves := p.LegalInto(e.moves[ply][:0], &e.scratch)
	e.moves[ply] = moves[:0]
	if len(moves) == 0 {
		s := e.terminal(p, ply)
		if p.ToAct() != us {
			s = -s
		}
		return s
	}
	if p.ToAct() != us || ply >= maxPly-1 {
		s := e.ev.whiteScore(p)
		if us == rules.Black {
			s = -s
		}
		return s
	}
	best := -infScore
	for _, m := range moves {
		if !p.AfterInto(m, &e.pos[ply+1]) {
			continue
		}
		if s := e.greedyTurn(ply+1, us); s > best {
			best = s
		}
	}
	return best
}
