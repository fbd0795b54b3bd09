package rules

import (
	"fmt"
	"strings"
	"testing"
)

// Diagrams are boards drawn as text, as in scalachess's piece tests: one
// line per rank, the top rank first, one cell per file separated by
// spaces. A cell is '.' for an empty square or a FEN letter (uppercase
// White, lowercase Black). The square whose piece is tested is marked by a
// '*' written in place of the space before it ("*N"). In the expected
// diagram, the piece's destinations are marked 'x' (over the piece it
// would capture, if any); everything else is as in the input.

// diagramGrid is a parsed diagram: cells[r][f] with rank r counted from
// the bottom, and the marked square.
type diagramGrid struct {
	cells  [][]byte
	marked Square
}

// parseDiagram reads a diagram of v's board size.
func parseDiagram(tb testing.TB, v *Variant, diagram string) diagramGrid {
	tb.Helper()
	var lines []string
	for _, l := range strings.Split(diagram, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != v.Ranks {
		tb.Fatalf("diagram has %d ranks, %s has %d:\n%s", len(lines), v.Name, v.Ranks, diagram)
	}
	g := diagramGrid{cells: make([][]byte, v.Ranks), marked: NoSquare}
	for i, l := range lines {
		r := v.Ranks - 1 - i
		mark := false
		for j := 0; j < len(l); j++ {
			switch c := l[j]; {
			case c == ' ' || c == '\t':
			case c == '*':
				if mark || g.marked != NoSquare {
					tb.Fatalf("diagram rank %d marks a second square: %q", r+1, l)
				}
				mark = true
			case c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				if mark {
					g.marked = NewSquare(len(g.cells[r]), r)
					mark = false
				}
				g.cells[r] = append(g.cells[r], c)
			default:
				tb.Fatalf("diagram rank %d: unexpected %q in %q", r+1, c, l)
			}
		}
		if len(g.cells[r]) != v.Files || mark {
			tb.Fatalf("diagram rank %d has %d cells, %s has %d files: %q", r+1, len(g.cells[r]), v.Name, v.Files, l)
		}
	}
	return g
}

// render writes g as a diagram, in the form parseDiagram reads.
func (g diagramGrid) render() string {
	var b strings.Builder
	for r := len(g.cells) - 1; r >= 0; r-- {
		for f, c := range g.cells[r] {
			switch {
			case NewSquare(f, r) == g.marked:
				b.WriteByte('*')
			case f > 0:
				b.WriteByte(' ')
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// placement returns the FEN piece placement of the diagram's cells.
func (g diagramGrid) placement(v *Variant) string {
	var b strings.Builder
	for r := v.Ranks - 1; r >= 0; r-- {
		empty := 0
		for _, c := range g.cells[r] {
			if c == '.' {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// diagramFEN converts a diagram into a FEN of v, with the owner of the
// marked piece to move (no castling, no en passant), and returns the
// marked square.
func diagramFEN(tb testing.TB, v *Variant, diagram string) (string, Square) {
	tb.Helper()
	g := parseDiagram(tb, v, diagram)
	if g.marked == NoSquare {
		tb.Fatalf("diagram marks no square:\n%s", diagram)
	}
	var b strings.Builder
	b.WriteString(g.placement(v))
	if v.Drops.Enabled {
		b.WriteString("[]")
	}
	side := " w"
	if c := g.cells[g.marked.Rank()][g.marked.File()]; c >= 'a' && c <= 'z' {
		side = " b"
	} else if c == '.' {
		tb.Fatalf("diagram marks the empty square %s", g.marked)
	}
	b.WriteString(side + " - - 0 1")
	return b.String(), g.marked
}

// renderDestinations draws p with the piece on from marked and its legal
// destinations (the check rule applies, the end of the game does not)
// marked 'x'.
func renderDestinations(p *Position, from Square) string {
	v := p.Variant()
	g := diagramGrid{cells: make([][]byte, v.Ranks), marked: from}
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			c := byte('.')
			if pc := p.At(NewSquare(f, r)); pc != NoPiece {
				c = p.letter(pc)
			}
			g.cells[r] = append(g.cells[r], c)
		}
	}
	var scratch Position
	for _, m := range p.legalMoves(nil, &scratch) {
		if m.Kind != KindDrop && m.From == from {
			g.cells[m.To.Rank()][m.To.File()] = 'x'
		}
	}
	return g.render()
}

// checkDiagram builds the position of board, renders the destinations of
// its marked piece and compares them with want.
func checkDiagram(t *testing.T, key, board, want string) {
	t.Helper()
	v := mustVariant(t, key)
	fen, from := diagramFEN(t, v, board)
	p := mustFEN(t, v, fen)
	exp := parseDiagram(t, v, want)
	if exp.marked != from {
		t.Fatalf("the expected diagram marks %s, the board %s", exp.marked, from)
	}
	if got, w := renderDestinations(&p, from), exp.render(); got != w {
		t.Errorf("destinations of %c on %s in %s:\ngot:\n%swant:\n%s", p.letter(p.At(from)), from, fen, got, w)
	}
}

// TestDiagramHelpers pins the diagram helpers themselves: a diagram turns
// into the FEN it shows, and renders back to itself.
func TestDiagramHelpers(t *testing.T) {
	v := mustVariant(t, "chess")
	const board = `
		r . b q k b n r
		p p p p . p p p
		. . n . . . . .
		. . . . p . . .
		. . . . P . . .
		. . . . . N . .
		P P P P . P P P
		R N B Q K*B . R`
	fen, from := diagramFEN(t, v, board)
	if want := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 0 1"; fen != want {
		t.Errorf("diagramFEN = %q, want %q", fen, want)
	}
	if from != NewSquare(5, 0) {
		t.Errorf("marked square %s, want f1", from)
	}
	g := parseDiagram(t, v, board)
	if again := parseDiagram(t, v, g.render()).render(); again != g.render() {
		t.Errorf("render is not read back:\n%s\n%s", g.render(), again)
	}
	p := mustFEN(t, v, fen)
	want := `
		r . b q k b n r
		p p p p . p p p
		x . n . . . . .
		. x . . p . . .
		. . x . P . . .
		. . . x . N . .
		P P P P x P P P
		R N B Q K*B . R`
	if got, w := renderDestinations(&p, from), parseDiagram(t, v, want).render(); got != w {
		t.Errorf("got:\n%swant:\n%s", got, w)
	}
}

// TestPieceDiagrams pins how each piece of chess and Grand Chess moves and
// captures, on an empty board and on a board with pieces in the way: the
// king, queen, rook, bishop, knight and pawn (single and double step, the
// double step blocked by a piece on the square it crosses, diagonal
// captures, each colour forward), Grand Chess's Marshal (rook + knight,
// letter c) and Cardinal (bishop + knight, letter a) and its pawns' double
// step from the 3rd rank.
func TestPieceDiagrams(t *testing.T) {
	for _, c := range []struct{ name, variant, board, want string }{
		{"knight, empty board", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . .*N . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . x . x . . .
			. x . . . x . .
			. . .*N . . . .
			. x . . . x . .
			. . x . x . . .
			. . . . . . . .`},
		{"knight, blocked: it leaps over pieces, never onto its own", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . P . p . .
			. . . P P P . .
			. . . P*N P . .
			. . . P P P . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . P . x . .
			. . x P P P x .
			. . . P*N P . .
			. . x P P P x .
			. . . x . x . .
			. . . . . . . .`},
		{"knight in the corner", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . .*n`, `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . x .
			. . . . . x . .
			. . . . . . .*n`},
		{"bishop, empty board", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . .*B . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . . . . x
			x . . . . . x .
			. x . . . x . .
			. . x . x . . .
			. . .*B . . . .
			. . x . x . . .
			. x . . . x . .
			x . . . . . x .`},
		{"bishop, blocked: stops before its own pieces, captures the first enemy", "chess", `
			. . . . . . . .
			. . . . . . . .
			. p . . . P . .
			. . . . . . . .
			. . .*B . . . .
			. . . . . . . .
			. n . . . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. x . . . P . .
			. . x . x . . .
			. . .*B . . . .
			. . x . x . . .
			. x . . . x . .
			. . . . . . x .`},
		{"rook, empty board", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . .*R . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . x . . . .
			. . . x . . . .
			. . . x . . . .
			. . . x . . . .
			x x x*R x x x x
			. . . x . . . .
			. . . x . . . .
			. . . x . . . .`},
		{"rook, blocked", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . P . . . .
			. . . . . . . .
			. . .*R . . r .
			. . . . . . . .
			. . . q . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . P . . . .
			. . . x . . . .
			x x x*R x x x .
			. . . x . . . .
			. . . x . . . .
			. . . . . . . .`},
		{"queen, empty board", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . .*Q . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . x . . . x
			x . . x . . x .
			. x . x . x . .
			. . x x x . . .
			x x x*Q x x x x
			. . x x x . . .
			. x . x . x . .
			x . . x . . x .`},
		{"queen, blocked", "chess", `
			. . . . . . . .
			. . . . . . . .
			. p . P . . . .
			. . . . . . . .
			. P .*Q . . r .
			. . . . N . . .
			. . . b . . . .
			. . . . . . . .`, `
			. . . . . . . x
			. . . . . . x .
			. x . P . x . .
			. . x x x . . .
			. P x*Q x x x .
			. . x x N . . .
			. x . x . . . .
			x . . . . . . .`},
		{"king, empty board", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . .*K . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . x x x . . .
			. . x*K x . . .
			. . x x x . . .
			. . . . . . . .
			. . . . . . . .`},
		{"king, blocked: no step onto its own piece or into an attack", "chess", `
			. . . . r . . .
			. . . . . . . .
			. . p . . . . .
			. . n . . . . .
			. . .*K . . . .
			. . P . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . r . . .
			. . . . . . . .
			. . p . . . . .
			. . x . . . . .
			. . x*K . . . .
			. . P . . . . .
			. . . . . . . .
			. . . . . . . .`},
		{"white pawn on its first move: one or two steps", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . .*P . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . x . . .
			. . . . x . . .
			. . . .*P . . .
			. . . . . . . .`},
		{"white pawn, blocked: no double step over a piece, diagonal captures", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . n p P . .
			. . . .*P . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . x p P . .
			. . . .*P . . .
			. . . . . . . .`},
		{"white pawn, double step blocked on the far square", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . b . . .
			. . . . . . . .
			. . . .*P . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . b . . .
			. . . . x . . .
			. . . .*P . . .
			. . . . . . . .`},
		{"white pawn after its first move: one step", "chess", `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . .*P . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . x . . .
			. . . .*P . . .
			. . . . . . . .
			. . . . . . . .`},
		{"black pawn moves down the board", "chess", `
			. . . . . . . .
			. . .*p . . . .
			. . . . N . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . . . . . . .
			. . .*p . . . .
			. . . x x . . .
			. . . x . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`},
		{"pawn on the 7th promotes on each square it reaches", "chess", `
			. . r . r . . .
			. . .*P . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`, `
			. . x x x . . .
			. . .*P . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .`},
		{"pinned piece: a knight pinned to its king has no move", "chess", `
			. . . . r . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . .*N . . .
			. . . . . . . .
			. . . . . . . .
			. . . . K . . .`, `
			. . . . r . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . .*N . . .
			. . . . . . . .
			. . . . . . . .
			. . . . K . . .`},
		{"pinned piece: a rook pinned on a file moves along it", "chess", `
			. . . . r . . .
			. . . . . . . .
			. . . . . . . .
			. . . . . . . .
			. . . .*R . . .
			. . . . . . . .
			. . . . . . . .
			. . . . K . . .`, `
			. . . . x . . .
			. . . . x . . .
			. . . . x . . .
			. . . . x . . .
			. . . .*R . . .
			. . . . x . . .
			. . . . x . . .
			. . . . K . . .`},
		{"grand: marshal (c), empty board", "grand", `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . .*C . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`, `
			. . . . x . . . . .
			. . . . x . . . . .
			. . . . x . . . . .
			. . . x x x . . . .
			. . x . x . x . . .
			x x x x*C x x x x x
			. . x . x . x . . .
			. . . x x x . . . .
			. . . . x . . . . .
			. . . . x . . . . .`},
		{"grand: marshal (c), blocked", "grand", `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . P . . . . .
			. . N . . . . . . .
			. . . .*C . . r . .
			. . . . . . . . . .
			. . . . . p . . . .
			. . . . q . . . . .
			. . . . . . . . . .`, `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . x P x . . . .
			. . N . x . x . . .
			x x x x*C x x x . .
			. . x . x . x . . .
			. . . x x x . . . .
			. . . . x . . . . .
			. . . . . . . . . .`},
		{"grand: cardinal (a), empty board", "grand", `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . .*A . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`, `
			. . . . . . . . . x
			x . . . . . . . x .
			. x . . . . . x . .
			. . x x . x x . . .
			. . x x . x x . . .
			. . . .*A . . . . .
			. . x x . x x . . .
			. . x x . x x . . .
			. x . . . . . x . .
			x . . . . . . . x .`},
		{"grand: black cardinal (a), blocked", "grand", `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . R . . a p . . .
			. . . . . . . . . .
			. . . .*a . . . . .
			. . B . . . . . . .
			. . c . . . . . . .
			. . . . . . . N . .
			. . . . . . . . . .`, `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . x x . a p . . .
			. . x x . x x . . .
			. . . .*a . . . . .
			. . x x . x x . . .
			. . c x . x x . . .
			. . . . . . . x . .
			. . . . . . . . . .`},
		{"grand: pawn on the 3rd rank: one or two steps", "grand", `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . .*P . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`, `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . x . . . . .
			. . . . x . . . . .
			. . . .*P . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`},
		{"grand: black pawn on the 8th rank: one or two steps", "grand", `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . .*p . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`, `
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . .*p . . . .
			. . . . . x . . . .
			. . . . . x . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`},
	} {
		t.Run(c.name, func(t *testing.T) { checkDiagram(t, c.variant, c.board, c.want) })
	}
}
