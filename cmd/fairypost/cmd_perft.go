package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/fairypost/fairypost/rules"
)

// maxPerftDepth bounds -depth. Deep counts take very long anyway (chess
// depth 7 is 3.2 billion leaves); the bound catches typos like -depth 55.
const maxPerftDepth = 20

// perftCommand is "fairypost perft".
func perftCommand() command {
	return command{
		name:     "perft",
		synopsis: "-variant KEY [-ini FILE] [-options K=V,...] [-fen FEN] [-moves ...] -depth N [-divide]",
		summary:  "count the leaves of the legal-move tree (engine testing)",
		doc: fmt.Sprintf(`
Counts the move sequences of -depth moves (plies; atomic moves in variants
with multi-part turns) from the position that -variant, -fen and -moves
give. Depth 0 counts 1; at most %d.
The last line is always "nodes N". With -divide, one "MOVE COUNT" line per
legal move (canonical form, generation order) comes first; the counts add
up to N.`, maxPerftDepth),
		setup: func(fs *flag.FlagSet) runFunc {
			var pf positionFlags
			pf.register(fs)
			depth := fs.Int("depth", 0, fmt.Sprintf("search depth `N`, 0..%d (required)", maxPerftDepth))
			divide := fs.Bool("divide", false, "print each legal move's count before the total")
			return func(ctx context.Context, a *app) error {
				depthSet := false
				fs.Visit(func(f *flag.Flag) { depthSet = depthSet || f.Name == "depth" })
				if !depthSet {
					return badInput("-depth is required (0..%d)", maxPerftDepth)
				}
				if *depth < 0 || *depth > maxPerftDepth {
					return badInput("-depth %d is out of range 0..%d", *depth, maxPerftDepth)
				}
				g, err := pf.game(a)
				if err != nil {
					return err
				}
				return a.writeLines(perft(g.Position(), *depth, *divide))
			}
		},
	}
}

// perft returns the output lines of "fairypost perft" for p.
func perft(p rules.Position, depth int, divide bool) []string {
	if !divide || depth == 0 {
		return []string{fmt.Sprintf("nodes %d", rules.Perft(&p, depth))}
	}
	var lines []string
	var total uint64
	for _, e := range rules.Divide(&p, depth) {
		lines = append(lines, fmt.Sprintf("%s %d", rules.FormatMove(&p, e.Move), e.Nodes))
		total += e.Nodes
	}
	return append(lines, fmt.Sprintf("nodes %d", total))
}
