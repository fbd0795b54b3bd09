package rules

// Perft counts the leaf nodes of the tree of legal moves of the given
// depth from p (a finished game has no moves). Depth 0 counts 1.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return perft(p, depth, bufs)
}

func perft(p *Position, depth int, bufs [][]Move) uint64 {
	moves := p.Legal(bufs[depth-1][:0])
	bufs[depth-1] = moves[:0]
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	var next Position
	for _, m := range moves {
		p.playInto(m, &next)
		n += perft(&next, depth-1, bufs)
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
