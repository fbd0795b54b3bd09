package ai

import "github.com/fairypost/fairypost/rules"

// Line returns the line the last Search of this Engine expects from pos,
// its root: first follows (the move that search chose, or another legal
// move of pos), then the moves its transposition table holds for each
// position reached, up to max atomic moves in all. The line stops early
// where the table has no legal move for a position, at the end of the
// game, or at a position of the line met before. It must be called after
// the Search of pos and before any other search of the Engine; the
// result then depends only on that search's inputs (for a search by
// nodes). It returns nil when first is not legal in pos.
func (e *Engine) Line(pos rules.Position, first rules.Move, max int) []rules.Move {
	if max <= 0 {
		return nil
	}
	var next rules.Position
	if !legal(&pos, first) || !pos.AfterInto(first, &next) {
		return nil
	}
	line := []rules.Move{first}
	seen := map[uint64]bool{pos.Hash(): true}
	cur := next
	for len(line) < max {
		h := cur.Hash()
		if seen[h] {
			break
		}
		seen[h] = true
		ent := e.probe(h)
		if ent == nil || !legal(&cur, ent.move) || !cur.AfterInto(ent.move, &next) {
			break
		}
		line = append(line, ent.move)
		cur = next
	}
	return line
}

// legal reports whether m is a legal move of p (none is once p's game is
// over).
func legal(p *rules.Position, m rules.Move) bool {
	if p.Outcome().Over() {
		return false
	}
	for _, l := range p.Legal(nil) {
		if l == m {
			return true
		}
	}
	return false
}
