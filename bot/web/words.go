package web

import (
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/rules"
)

// altText is the alt text of the board after ply in m: what was played
// and by whom, who acts, then every piece in words, by side and kind, with
// the pockets: "Board after 23. Nf3, played by White. Black to move.
// White: King g1; Rook a1, f1; .... Black: ...". The board of the last
// ply of a game over says so instead of who moves.
func altText(m *game, ply int) string {
	p := m.rg.PositionAt(ply)
	var b strings.Builder
	if ply == 0 {
		b.WriteString("Board at the start")
	} else {
		prev := m.rg.PositionAt(ply - 1)
		fmt.Fprintf(&b, "Board after %s, played by %s", m.label(ply), colourName(prev.ToAct()))
	}
	switch {
	case ply == m.Plies && !m.Ongoing:
		b.WriteString(". The game is over.")
	case m.Setup:
		b.WriteString(". The players are choosing their armies.")
	default:
		fmt.Fprintf(&b, ". %s to move.", colourName(p.ToAct()))
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		b.WriteString(" ")
		b.WriteString(sideInWords(&p, c))
	}
	return b.String()
}

// sideInWords lists c's pieces in p by kind, in the variant's order of
// pieces, each kind with its squares, then c's pocket.
func sideInWords(p *rules.Position, c rules.Color) string {
	v := p.Variant()
	squares := make([][]string, len(v.Pieces)+1)
	for _, sq := range v.Squares() {
		pc := p.At(sq)
		if pc.Color() == c && pc.Type() != rules.NoPieceType {
			squares[pc.Type()] = append(squares[pc.Type()], sq.String())
		}
	}
	var kinds, pocket []string
	for i, def := range v.Pieces {
		t := rules.PieceType(i + 1)
		if len(squares[t]) > 0 {
			kinds = append(kinds, def.Name+" "+strings.Join(squares[t], ", "))
		}
		if n := p.Pocket(c, t); n > 0 {
			pocket = append(pocket, fmt.Sprintf("%d %s", n, def.Name))
		}
	}
	s := colourName(c) + ": "
	if len(kinds) == 0 {
		s += "no pieces on the board"
	} else {
		s += strings.Join(kinds, "; ")
	}
	if len(pocket) > 0 {
		s += "; in hand: " + strings.Join(pocket, ", ")
	}
	return s + "."
}
