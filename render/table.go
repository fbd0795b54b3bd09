package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/image/font"
)

// Table is a table to draw as an image: a title line, an optional
// subtitle, a heading row and rows of cells, in the colours of the board
// images (dark background, light text). Leaderboards and player cards use
// it; what the cells say is the caller's.
type Table struct {
	Title    string
	Subtitle string
	Columns  []Column
	Rows     []TableRow
	// Empty is written under the headings when there are no rows.
	Empty string
}

// Column is one column of a Table.
type Column struct {
	Heading string
	// Right aligns the column's cells to the right (numbers).
	Right bool
	// Signed colours the cells by their sign: green for a leading "+",
	// red for a leading "−" or "-" (a trend).
	Signed bool
	// Fill gives the column the width the others leave (names); cells
	// too wide for it are written on several lines, the row growing to
	// hold them. At most one column should have it; without one, the
	// first column takes the rest.
	Fill bool
}

// TableRow is one row of a Table: one cell per column (missing cells are
// empty, extra ones are ignored).
type TableRow struct {
	Cells []string
	// Highlight marks the row (the reader's own line).
	Highlight bool
	// Gap draws a "⋯" row before this one: rows were left out between.
	Gap bool
}

// Table sizes.
const (
	// MaxTableRows bounds the rows a table image may have.
	MaxTableRows = 100
	// MaxTableColumns bounds its columns (a 20-player crosstable has 25).
	MaxTableColumns = 32
)

var (
	headingColor   = color.RGBA{226, 184, 66, 255}
	rowStripe      = color.RGBA{48, 46, 42, 255}
	highlightColor = color.RGBA{70, 86, 120, 255}
	gainColor      = color.RGBA{120, 210, 110, 255}
	lossColor      = color.RGBA{255, 110, 95, 255}
	ruleColor      = color.RGBA{90, 86, 80, 255}
)

// tableGeometry is where the parts of a table go, at width w. Text never
// runs out of its space and is never cut short: a title, subtitle or cell
// too wide for its space is broken into lines (breakLines), and its part
// grows to hold them.
type tableGeometry struct {
	u             float64 // scale: 1 at 800 px
	pad, rowH     int     // rowH: the height of a row of one line
	lineH         int     // each further line of a row
	titleH, subH  int
	titleLines    []string
	subLines      []string
	emptyLines    []string
	headings      [][]string // each column's heading, in lines
	headingLineH  int
	cells         [][][]string // cells[row][column]: the cell's lines
	rowHeights    []int
	x             []float64 // left edge of each column's text
	widths        []float64 // each column's width
	height        int
	headingFace   font.Face
	cellFace      font.Face
	titleFace     font.Face
	subtitleFace  font.Face
	headingHeight int
}

// checkTable refuses a table that cannot be drawn: no columns, too many
// columns or rows, text that is not valid UTF-8.
func checkTable(t *Table) error {
	if len(t.Columns) == 0 || len(t.Columns) > MaxTableColumns {
		return fmt.Errorf("%w: a table needs 1 to %d columns, not %d", ErrInvalid, MaxTableColumns, len(t.Columns))
	}
	if len(t.Rows) > MaxTableRows {
		return fmt.Errorf("%w: a table has at most %d rows, not %d", ErrInvalid, MaxTableRows, len(t.Rows))
	}
	return nil
}

// layoutTable measures t at width w (its height included).
func (r *Renderer) layoutTable(t *Table, w int) tableGeometry {
	u := float64(w) / 800
	g := tableGeometry{u: u, pad: int(24 * u), rowH: int(40 * u), lineH: int(26 * u)}
	g.titleFace = face(r.fonts.bold, 32*u)
	g.subtitleFace = face(r.fonts.text, 20*u)
	g.headingFace = face(r.fonts.bold, 19*u)
	g.cellFace = face(r.fonts.text, 22*u)
	text := float64(w - 2*g.pad)
	if t.Title != "" {
		g.titleLines = breakLines(g.titleFace, t.Title, text)
		g.titleH = int(52*u) + (len(g.titleLines)-1)*int(40*u)
	}
	if t.Subtitle != "" {
		g.subLines = breakLines(g.subtitleFace, t.Subtitle, text)
		g.subH = int(32*u) + (len(g.subLines)-1)*int(26*u)
	}
	// Natural widths: the widest of heading and cells.
	n := len(t.Columns)
	g.widths = make([]float64, n)
	cellsW := make([]float64, n) // the widest cell of each column
	for _, row := range t.Rows {
		for i := 0; i < n && i < len(row.Cells); i++ {
			cellsW[i] = max(cellsW[i], textWidth(g.cellFace, row.Cells[i]))
		}
	}
	for i, c := range t.Columns {
		g.widths[i] = max(cellsW[i], textWidth(g.headingFace, c.Heading))
	}
	fill := 0
	for i, c := range t.Columns {
		if c.Fill {
			fill = i
			break
		}
	}
	gap := 28 * u
	if n > 8 {
		gap = 14 * u // many columns (a crosstable): closer together
	}
	inner := float64(w - 2*g.pad - int(2*12*u))
	others := 0.0
	for i, cw := range g.widths {
		if i != fill {
			others += cw
		}
	}
	room := func() float64 { return inner - others - gap*float64(n-1) }
	if room() < g.widths[fill] {
		// The names do not fit on one line: the other columns' headings
		// of several words ("Best streak") take two lines when that
		// narrows their column markedly.
		for i, c := range t.Columns {
			if i == fill {
				continue
			}
			narrow := cellsW[i]
			for _, word := range strings.Fields(c.Heading) {
				narrow = max(narrow, textWidth(g.headingFace, word))
			}
			lines := breakLines(g.headingFace, c.Heading, narrow)
			wd := cellsW[i]
			for _, l := range lines {
				wd = max(wd, textWidth(g.headingFace, l))
			}
			if wd < g.widths[i]-24*u { // worth a second line
				others -= g.widths[i] - wd
				g.widths[i] = wd
			}
		}
	}
	g.widths[fill] = max(room(), 40*u)
	g.headings = make([][]string, n)
	headingLines := 1
	for i, c := range t.Columns {
		g.headings[i] = breakLines(g.headingFace, c.Heading, g.widths[i])
		headingLines = max(headingLines, len(g.headings[i]))
	}
	g.headingLineH = int(22 * u)
	g.headingHeight = int(36*u) + (headingLines-1)*g.headingLineH
	g.x = make([]float64, n)
	x := float64(g.pad) + 12*u
	for i := range g.widths {
		g.x[i] = x
		x += g.widths[i] + gap
	}
	rowsH := 0
	g.cells = make([][][]string, len(t.Rows))
	g.rowHeights = make([]int, len(t.Rows))
	for k, row := range t.Rows {
		g.cells[k] = make([][]string, n)
		lines := 1
		for i := 0; i < n && i < len(row.Cells); i++ {
			g.cells[k][i] = breakLines(g.cellFace, row.Cells[i], g.widths[i])
			lines = max(lines, len(g.cells[k][i]))
		}
		g.rowHeights[k] = g.rowH + (lines-1)*g.lineH
		rowsH += g.rowHeights[k]
		if row.Gap {
			rowsH += g.rowH
		}
	}
	if len(t.Rows) == 0 && t.Empty != "" {
		g.emptyLines = breakLines(g.cellFace, t.Empty, inner)
		rowsH = g.rowH + (len(g.emptyLines)-1)*g.lineH
	}
	g.height = g.pad + g.titleH + g.subH + g.headingHeight + rowsH + g.pad
	return g
}

// drawLines draws lines in face f, one under the other lineH apart, the
// block centred on y, each line anchored at x by the fraction ax of its
// width.
func drawLines(img *image.RGBA, f font.Face, lines []string, x, y, ax float64, lineH int, c color.Color) {
	top := y - float64((len(lines)-1)*lineH)/2
	for i, l := range lines {
		drawText(img, f, l, x, top+float64(i*lineH), ax, 0.35, c)
	}
}

// drawTable draws t onto img with its top at y0 and returns the y under
// it. img is w pixels wide.
func (r *Renderer) drawTable(img *image.RGBA, t *Table, g tableGeometry, y0 int) int {
	w := img.Bounds().Dx()
	u := g.u
	y := y0 + g.pad
	if t.Title != "" {
		drawLines(img, g.titleFace, g.titleLines, float64(g.pad), float64(y+g.titleH/2), 0, int(40*u), textColor)
		y += g.titleH
	}
	if t.Subtitle != "" {
		drawLines(img, g.subtitleFace, g.subLines, float64(g.pad), float64(y+g.subH/2), 0, int(26*u), dimTextColor)
		y += g.subH
	}
	left, right := g.pad, w-g.pad
	cellX := func(i int) (float64, float64) {
		if i < len(t.Columns) && t.Columns[i].Right {
			return g.x[i] + g.widths[i], 1
		}
		return g.x[i], 0
	}
	for i := range t.Columns {
		x, ax := cellX(i)
		drawLines(img, g.headingFace, g.headings[i], x, float64(y+g.headingHeight/2), ax, g.headingLineH, headingColor)
	}
	y += g.headingHeight
	draw.Draw(img, image.Rect(left, y-int(2*u)-1, right, y-int(2*u)+max(1, int(2*u))), image.NewUniform(ruleColor), image.Point{}, draw.Src)
	if len(t.Rows) == 0 && t.Empty != "" {
		h := g.rowH + (len(g.emptyLines)-1)*g.lineH
		drawLines(img, g.cellFace, g.emptyLines, g.x[0], float64(y+h/2), 0, g.lineH, dimTextColor)
		return y + h + g.pad
	}
	for k, row := range t.Rows {
		if row.Gap {
			drawText(img, g.cellFace, "⋯", float64(w)/2, float64(y+g.rowH/2), 0.5, 0.35, dimTextColor)
			y += g.rowH
		}
		bg := color.Color(nil)
		switch {
		case row.Highlight:
			bg = highlightColor
		case k%2 == 1:
			bg = rowStripe
		}
		h := g.rowHeights[k]
		if bg != nil {
			draw.Draw(img, image.Rect(left, y, right, y+h), image.NewUniform(bg), image.Point{}, draw.Src)
		}
		for i := 0; i < len(t.Columns) && i < len(row.Cells); i++ {
			s := row.Cells[i]
			c := color.Color(textColor)
			if t.Columns[i].Signed {
				switch {
				case strings.HasPrefix(s, "+"):
					c = gainColor
				case strings.HasPrefix(s, "−"), strings.HasPrefix(s, "-"):
					c = lossColor
				default:
					c = dimTextColor
				}
			}
			x, ax := cellX(i)
			drawLines(img, g.cellFace, g.cells[k][i], x, float64(y+h/2), ax, g.lineH, c)
		}
		y += h
	}
	return y + g.pad
}

// breakLines breaks s into lines at most w pixels wide in face f, so
// that all of s is drawn: at spaces where it can, and a word wider than w
// between two characters (after a hyphen when one is near the end of the
// line). Joined with spaces (a word broken inside, without), the lines
// give s back with its runs of spaces made single.
func breakLines(f font.Face, s string, w float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && textWidth(f, line+" "+word) <= w {
			line += " " + word
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = word
		for textWidth(f, line) > w && utf8.RuneCountInString(line) > 1 {
			rs := []rune(line)
			k := len(rs) - 1
			for k > 1 && textWidth(f, string(rs[:k])) > w {
				k--
			}
			// Rather after a hyphen, when one leaves most of the line.
			for j := k - 1; j > k/2; j-- {
				if rs[j-1] == '-' {
					k = j
					break
				}
			}
			lines = append(lines, string(rs[:k]))
			line = string(rs[k:])
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// checkWidth refuses a width outside MinSize..MaxSize.
func checkWidth(w int) error {
	if w < MinSize || w > MaxSize {
		return fmt.Errorf("%w: width %d is outside %d..%d", ErrInvalid, w, MinSize, MaxSize)
	}
	return nil
}

// TableImage draws t at width w (MinSize..MaxSize); its height follows
// from the rows. A table without columns, with more than MaxTableColumns
// columns or MaxTableRows rows, or a width out of range gives an error
// wrapping ErrInvalid.
func (r *Renderer) TableImage(t Table, w int) (*image.RGBA, error) {
	if err := checkWidth(w); err != nil {
		return nil, err
	}
	if err := checkTable(&t); err != nil {
		return nil, err
	}
	g := r.layoutTable(&t, w)
	img := image.NewRGBA(image.Rect(0, 0, w, g.height))
	draw.Draw(img, img.Bounds(), image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	r.drawTable(img, &t, g, 0)
	return img, nil
}

// TablePNG draws t as TableImage does and writes it to w as a PNG.
func (r *Renderer) TablePNG(w io.Writer, t Table, width int) error {
	img, err := r.TableImage(t, width)
	if err != nil {
		return err
	}
	return r.encodePNG(w, img)
}

// encodePNG writes img as a PNG at png.BestSpeed with pooled buffers.
func (r *Renderer) encodePNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.pngPool}
	return enc.Encode(w, img)
}
