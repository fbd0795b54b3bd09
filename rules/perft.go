package rules

// Perft counts the leaf nodes of the tree of legal moves of the given
// depth from p (a finished game has no moves). Depth 0 counts 1.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	w := &perftWork{moves: make([][]Move, depth), next: make([]Position, depth)}
	for i := range w.moves {
		w.moves[i] = make([]Move, 0, 256)
	}
	return w.perft(p, depth)
}

// perftWork is the memory Perft reuses at each depth, so that counting
// allocates nothing per node.
type perftWork struct {
	moves   [][]Move
	next    []Position
	scratch Position
}

func (w *perftWork) perft(p *Position, depth int) uint64 {
	moves := p.legal(w.moves[depth-1][:0], &w.scratch)
	w.moves[depth-1] = moves[:0]
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	next := &w.next[depth-1]
	for _, m := range moves {
		p.playInto(m, next)
		n += w.perft(next, depth-1)
	}
	return n
}

// DivideEntry is one root move of Divide with its subtree count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for each legal move of p in generation order, the perft
// count of depth-1 after it.
func Divide(p *Position, depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var out []DivideEntry
	for _, m := range p.Legal(nil) {
		var next Position
		p.playInto(m, &next)
		out = append(out, DivideEntry{Move: m, Nodes: Perft(&next, depth-1)})
	}
	return out
}
