package ai

import "github.com/fairypost/fairypost/rules"

// Move ordering scores: the transposition table's move, then captures and
// promotions by MVV-LVA, then the variant's special moves, the killers and
// the quiet moves by history.
const (
	royalCaptureScore = 1 << 29
	ttMoveScore       = 1 << 28
	captureScore      = 1 << 24
	specialScore      = 1 << 23
	killerScore       = 1 << 22
	historyMax        = 1 << 20
)

// victim returns the type of the piece m takes in p by its data (a normal
// capture of a piece the mover does not move, en passant), or NoPieceType.
func victim(p *rules.Position, m rules.Move) rules.PieceType {
	switch m.Kind {
	case rules.KindEnPassant:
		return p.At(m.From).Type() // a pawn takes a pawn
	case rules.KindNormal, rules.KindDrop:
		if pc := p.At(m.To); pc != rules.NoPiece && pc.Color() != p.Mover() {
			return pc.Type()
		}
	}
	return rules.NoPieceType
}

// historyIndex returns the indexes of m in the history table.
func historyIndex(m rules.Move) (int, int) {
	from := int(m.From)
	if m.Kind == rules.KindDrop {
		from = int(m.Drop) // drops have no origin; their piece stands in
	}
	return from, int(m.To)
}

// orderMoves scores moves for ordering into the ply's score buffer.
func (e *Engine) orderMoves(ply int, p *rules.Position, moves []rules.Move, ttMove rules.Move, useTT bool) []int32 {
	scores := e.scores[ply][:0]
	k := &e.killers[ply]
	for _, m := range moves {
		var s int32
		switch {
		case useTT && m == ttMove && victim(p, m) == rules.NoPieceType:
			s = ttMoveScore
		default:
			if t := victim(p, m); t != rules.NoPieceType {
				if e.ev.pieces[t].royal {
					s = royalCaptureScore // taking the King ends the game
					break
				}
				attacker := 0
				if m.Kind != rules.KindDrop {
					attacker = e.ev.pieceValue(p.At(m.From).Type())
				}
				s = captureScore + int32(e.ev.pieceValue(t)*16-attacker/8) + 4096
			} else if m.Promotion != rules.NoPieceType {
				s = captureScore + int32(e.ev.pieceValue(m.Promotion))
			} else {
				f, t := historyIndex(m)
				h := e.history[f][t]
				switch {
				case m.Kind == rules.KindSpecial:
					s = specialScore + h/8
				case m == k[0]:
					s = killerScore + 1
				case m == k[1]:
					s = killerScore
				default:
					s = h
				}
			}
		}
		scores = append(scores, s)
	}
	e.scores[ply] = scores[:0]
	return scores
}

// pickNext moves the best-scored move from index i on to index i and
// returns it (a selection sort done lazily: cut-offs come early).
func pickNext(moves []rules.Move, scores []int32, i int) rules.Move {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[b] {
			b = j
		}
	}
	if b != i {
		moves[i], moves[b] = moves[b], moves[i]
		scores[i], scores[b] = scores[b], scores[i]
	}
	return moves[i]
}

// rememberQuiet records a quiet move that caused a cut-off.
func (e *Engine) rememberQuiet(ply int, m rules.Move, depth int) {
	k := &e.killers[ply]
	if k[0] != m {
		k[1], k[0] = k[0], m
	}
	f, t := historyIndex(m)
	h := &e.history[f][t]
	*h += int32(depth * depth)
	if *h > historyMax {
		for i := range e.history {
			for j := range e.history[i] {
				e.history[i][j] /= 2
			}
		}
	}
}
