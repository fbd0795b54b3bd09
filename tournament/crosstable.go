package tournament

import (
	"fmt"
	"strings"
)

// Crosstable is the data of a crosstable, for a renderer to draw as an
// image and for the text alternative: a header and one row per player in
// standings order.
type Crosstable struct {
	Kind Kind
	// Columns heads the cells: the row numbers "1".."n" of a round-robin
	// (player against player), "R1".."Rk" of a Swiss (round by round).
	Columns []string
	// Tiebreaks heads the tiebreak values of each row.
	Tiebreaks []string
	Rows      []CrossRow
}

// CrossRow is one player's row.
type CrossRow struct {
	Standing
	// No is the row number (1 for the first row); cells refer to
	// opponents by it.
	No    int
	Cells []Cell
}

// Cell is one cell of a row: one opponent of a round-robin, one round of
// a Swiss.
type Cell struct {
	// Text is what to draw: in a round-robin "1", "½", "0", "+" (won by
	// forfeit), "−" (lost by forfeit), "·" (not played yet), "×" (the
	// player's own column), "" (no game); in a Swiss the opponent's row
	// number, "w" or "b" for the colour, and the result ("5w1", "12b½",
	// "3w·" while pending), or "bye", or "" for a round the player was not
	// paired in.
	Text string
	// Opponent is the opponent's row number (0 for none); White is true
	// when the row's player had White.
	Opponent int
	White    bool
	Result   Result
}

// NewCrosstable builds the crosstable of an event of the given kind from
// its players (seed order) and rounds so far. Errors are those of
// Standings.
func NewCrosstable(kind Kind, players []string, rounds []Round) (Crosstable, error) {
	st, err := Standings(kind, players, rounds)
	if err != nil {
		return Crosstable{}, err
	}
	ct := Crosstable{Kind: kind, Tiebreaks: TiebreakNames(kind), Rows: make([]CrossRow, len(st))}
	rowOf := make(map[string]int, len(st))
	for i, s := range st {
		ct.Rows[i] = CrossRow{Standing: s, No: i + 1}
		rowOf[s.ID] = i
	}
	if kind == SwissKind {
		for r := range rounds {
			ct.Columns = append(ct.Columns, fmt.Sprintf("R%d", r+1))
		}
		for i := range ct.Rows {
			ct.Rows[i].Cells = make([]Cell, len(rounds))
		}
		for r, rd := range rounds {
			for _, g := range rd.Games {
				w, b := rowOf[g.White], rowOf[g.Black]
				ct.Rows[w].Cells[r] = swissCell(b+1, true, g.Result)
				ct.Rows[b].Cells[r] = swissCell(w+1, false, g.Result)
			}
			if rd.Bye != "" {
				ct.Rows[rowOf[rd.Bye]].Cells[r] = Cell{Text: "bye"}
			}
		}
		return ct, nil
	}
	for i := range ct.Rows {
		ct.Columns = append(ct.Columns, fmt.Sprintf("%d", i+1))
		ct.Rows[i].Cells = make([]Cell, len(ct.Rows))
		ct.Rows[i].Cells[i] = Cell{Text: "×"}
	}
	for _, rd := range rounds {
		for _, g := range rd.Games {
			w, b := rowOf[g.White], rowOf[g.Black]
			ct.Rows[w].Cells[b] = Cell{Text: resultMark(g.Result, true), Opponent: b + 1, White: true, Result: g.Result}
			ct.Rows[b].Cells[w] = Cell{Text: resultMark(g.Result, false), Opponent: w + 1, Result: g.Result}
		}
	}
	return ct, nil
}

func swissCell(opp int, white bool, r Result) Cell {
	colour := "b"
	if white {
		colour = "w"
	}
	return Cell{Text: fmt.Sprintf("%d%s%s", opp, colour, resultMark(r, white)), Opponent: opp, White: white, Result: r}
}

// resultMark is r from one side's point of view: "1", "½", "0", "+",
// "−", "·".
func resultMark(r Result, white bool) string {
	if r == Pending {
		return "·"
	}
	sw, sb := r.halfPoints()
	own := sb
	if white {
		own = sw
	}
	switch {
	case r.Forfeit() && own == 2:
		return "+"
	case r.Forfeit():
		return "−"
	case own == 2:
		return "1"
	case own == 1:
		return "½"
	}
	return "0"
}

// Text writes the crosstable as plain text, one line per row, for the
// message that goes with the image (screen readers, search): rank, name,
// cells, points and tiebreaks, with names from name (the id itself when
// name is nil).
func (ct Crosstable) Text(name func(id string) string) string {
	if name == nil {
		name = func(id string) string { return id }
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#  Player  %s  Pts  %s\n", strings.Join(ct.Columns, " "), strings.Join(ct.Tiebreaks, " / "))
	for _, r := range ct.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.Text
			if cells[i] == "" {
				cells[i] = "-"
			}
		}
		tbs := make([]string, len(r.Tiebreaks))
		for i, x := range r.Tiebreaks {
			tbs[i] = FormatPoints(x)
		}
		fmt.Fprintf(&b, "%d. %s  %s  %s  %s\n", r.Rank, name(r.ID), strings.Join(cells, " "), FormatPoints(r.Points), strings.Join(tbs, " / "))
	}
	return b.String()
}
