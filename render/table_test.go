package render

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font"
)

// testLeaderboard is a leaderboard as the bot draws one: ten ranked
// players, a gap, and the reader's own line.
func testLeaderboard() Table {
	t := Table{
		Title:    "Leaderboard · Chess",
		Subtitle: "This server · established players · trend over 30 days",
		Columns: []Column{{Heading: "#", Right: true}, {Heading: "Player", Fill: true}, {Heading: "Rating", Right: true},
			{Heading: "Games", Right: true}, {Heading: "Trend", Right: true, Signed: true}},
	}
	names := []string{"alice", "bob", "carol", "a-very-long-display-name-that-does-not-fit-in-the-column-at-all", "dan", "erin", "frank", "grace", "heidi", "ivan"}
	for i, n := range names {
		trend := []string{"+18", "−7", "±0"}[i%3]
		t.Rows = append(t.Rows, TableRow{Cells: []string{fmt.Sprint(i + 1), n, fmt.Sprint(1900 - 37*i), fmt.Sprint(40 - 3*i), trend}})
	}
	t.Rows = append(t.Rows, TableRow{Cells: []string{"", "zed (you)", "1500?", "3", "+12"}, Highlight: true, Gap: true})
	return t
}

// testCard is a player card with three variants, one with a single game.
func testCard() Card {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	series := func(name string, start float64, steps ...float64) Series {
		s := Series{Name: name}
		v := start
		for i, d := range steps {
			v += d
			s.Points = append(s.Points, ChartPoint{At: day.AddDate(0, 0, 3*i), Value: v})
		}
		return s
	}
	return Card{
		Table: Table{
			Title: "alice", Subtitle: "Ratings in this server",
			Columns: []Column{{Heading: "Variant", Fill: true}, {Heading: "Rating", Right: true}, {Heading: "Games", Right: true},
				{Heading: "W / D / L", Right: true}, {Heading: "Best streak", Right: true}},
			Rows: []TableRow{
				{Cells: []string{"Chess", "1687", "24", "14 / 4 / 6", "5"}},
				{Cells: []string{"Crazyhouse", "1544?", "6", "3 / 0 / 3", "2"}},
				{Cells: []string{"Winning Chess (ranks=10)", "1380?", "1", "0 / 0 / 1", "0"}},
			},
		},
		Chart: Chart{Title: "Rating history", Series: []Series{
			series("Chess", 1500, 120, 40, -30, 25, 18, -12, 30, 0, 16),
			series("Crazyhouse", 1500, 90, -60, 14),
			series("Winning Chess (ranks=10)", 1380, 0),
		}},
		Footer: []string{"Playing now: 3 games", "Longest winning streak: 5 (Chess)"},
	}
}

// tableGoldenNames are the golden images of TestGoldenTables.
func tableGoldenNames() []string {
	return []string{"leaderboard", "player-card", "leaderboard-empty-400", "crosstable"}
}

func TestGoldenTables(t *testing.T) {
	r := newTestRenderer(t)
	var buf bytes.Buffer
	if err := r.TablePNG(&buf, testLeaderboard(), 800); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "leaderboard", buf.Bytes())
	buf.Reset()
	if err := r.CardPNG(&buf, testCard(), 800); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "player-card", buf.Bytes())
	buf.Reset()
	empty := Table{Title: "Leaderboard · Tank Chess", Columns: testLeaderboard().Columns, Empty: "Nobody is ranked yet."}
	if err := r.TablePNG(&buf, empty, 400); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "leaderboard-empty-400", buf.Bytes())
	buf.Reset()
	if err := r.TablePNG(&buf, testCrosstable(), 1000); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "crosstable", buf.Bytes())
}

// testCrosstable is the crosstable of a 6-player Swiss after 3 rounds,
// as the bot draws one: round cells (opponent, colour, result), points
// and tiebreaks, the reader's row highlighted.
func testCrosstable() Table {
	t := Table{Title: "Tournament #7 · Chess · Swiss", Subtitle: "finished · 3 of 3 rounds paired · tiebreaks: Buchholz cut-1, Buchholz, Sonneborn-Berger",
		Columns: []Column{{Heading: "#", Right: true}, {Heading: "Player", Fill: true}, {Heading: "R1", Right: true},
			{Heading: "R2", Right: true}, {Heading: "R3", Right: true}, {Heading: "Pts", Right: true},
			{Heading: "BhC1", Right: true}, {Heading: "Bh", Right: true}, {Heading: "SB", Right: true}}}
	rows := [][]string{
		{"1", "alice", "4w1", "3b1", "2w½", "2½", "4", "5½", "4¾"},
		{"2", "bob", "5b1", "6w1", "1b½", "2½", "3", "4", "3¼"},
		{"3", "carol", "6w1", "1w0", "5b1", "2", "3½", "4", "2½"},
		{"4", "dan", "1b0", "bye", "6b1", "2", "2½", "4½", "1"},
		{"5", "erin", "2w0", "4b+", "3w0", "1", "4½", "6½", "0"},
		{"6", "frank", "3b0", "2b0", "4w0", "0", "5", "6½", "0"},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, TableRow{Cells: r, Highlight: r[1] == "carol"})
	}
	return t
}

// The image grows with the rows, and the highlighted row is drawn in its
// colour.
func TestTableLayout(t *testing.T) {
	r := newTestRenderer(t)
	lb := testLeaderboard()
	full, err := r.TableImage(lb, 800)
	if err != nil {
		t.Fatal(err)
	}
	lb.Rows = lb.Rows[:3]
	short, err := r.TableImage(lb, 800)
	if err != nil {
		t.Fatal(err)
	}
	if !(full.Bounds().Dy() > short.Bounds().Dy()) {
		t.Errorf("11 rows and a gap: %v; 3 rows: %v", full.Bounds(), short.Bounds())
	}
	g := r.layoutTable(&lb, 800)
	// The last row of the full table is highlighted: its left edge, below
	// the text, has the highlight colour.
	own := full.RGBAAt(g.pad+2, full.Bounds().Dy()-g.pad-3)
	if own != highlightColor {
		t.Errorf("own line's background %v, want %v", own, highlightColor)
	}
}

// Bad input is refused with ErrInvalid, never drawn or panicking.
func TestTableAndCardRefuseBadInput(t *testing.T) {
	r := newTestRenderer(t)
	many := Table{Columns: []Column{{Heading: "x"}}}
	for i := 0; i <= MaxTableRows; i++ {
		many.Rows = append(many.Rows, TableRow{Cells: []string{"x"}})
	}
	backwards := testCard()
	backwards.Chart.Series[0].Points[1].At = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	nan := testCard()
	nan.Chart.Series[1].Points[0].Value = nanValue()
	cases := map[string]func() error{
		"no columns":   func() error { _, err := r.TableImage(Table{Title: "x"}, 800); return err },
		"too many":     func() error { _, err := r.TableImage(many, 800); return err },
		"narrow":       func() error { _, err := r.TableImage(testLeaderboard(), MinSize-1); return err },
		"wide":         func() error { _, err := r.CardImage(testCard(), MaxSize+1); return err },
		"backwards":    func() error { _, err := r.CardImage(backwards, 800); return err },
		"not a number": func() error { _, err := r.CardImage(nan, 800); return err },
	}
	for name, f := range cases {
		if err := f(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	// Text that does not fit is cut short, not drawn outside.
	long := Table{Columns: []Column{{Heading: strings.Repeat("very long heading ", 20)}},
		Rows: []TableRow{{Cells: []string{strings.Repeat("x", 500)}}}}
	if _, err := r.TableImage(long, MinSize); err != nil {
		t.Error(err)
	}
}

func nanValue() float64 { z := 0.0; return z / z }

func BenchmarkLeaderboardPNG(b *testing.B) {
	r := newTestRenderer(b)
	lb := testLeaderboard()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.TablePNG(&buf, lb, 800); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/png")
}

func BenchmarkPlayerCardPNG(b *testing.B) {
	r := newTestRenderer(b)
	c := testCard()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.CardPNG(&buf, c, 800); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/png")
}

func BenchmarkCrosstablePNG(b *testing.B) {
	r := newTestRenderer(b)
	ct := testCrosstable()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.TablePNG(&buf, ct, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/png")
}

// TestTableTextNeverCut: no title, subtitle, cell or footer is cut
// short. The long titles of a leaderboard and a player card (the issue's
// "Three-Move Tr…" and "provisional, not r…"), a name without spaces and
// a long variant name are laid out at the smallest width and at 800 px:
// every line they are broken into fits its space, and the lines give
// back the whole text.
func TestTableTextNeverCut(t *testing.T) {
	r := newTestRenderer(t)
	lb := testLeaderboard()
	lb.Title = "Leaderboard · Three-Move Train Wreck Chess [variant=threemove]"
	lb.Subtitle = "Nobody is ranked yet · From all rated games · ? = provisional, not ranked · trend: 30 days"
	card := testCard()
	card.Table.Rows[2].Cells[0] = "Three-Move Train Wreck Chess"
	card.Table.Subtitle = "Ratings from the rated games of all servers, this one and every other"
	card.Footer = append(card.Footer, "Longest winning streak: 12 (Three-Move Train Wreck Chess [variant=threemove]), a long footer")
	rejoin := func(lines []string) string { return strings.Join(lines, " ") }
	unbroken := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for _, w := range []int{MinSize, 400, 800} {
		for _, tb := range []Table{lb, card.Table} {
			g := r.layoutTable(&tb, w)
			text := float64(w - 2*g.pad)
			check := func(what, src string, lines []string, f font.Face, room float64) {
				t.Helper()
				for _, l := range lines {
					if textWidth(f, l) > room {
						t.Errorf("width %d, %s: line %q is %.0f px wide, the space %.0f", w, what, l, textWidth(f, l), room)
					}
				}
				if got := rejoin(lines); got != strings.Join(strings.Fields(src), " ") && unbroken(got) != unbroken(src) {
					t.Errorf("width %d, %s: lines %q do not give back %q", w, what, lines, src)
				}
			}
			check("title", tb.Title, g.titleLines, g.titleFace, text)
			check("subtitle", tb.Subtitle, g.subLines, g.subtitleFace, text)
			for i, c := range tb.Columns {
				check("heading "+c.Heading, c.Heading, g.headings[i], g.headingFace, g.widths[i])
			}
			for k, row := range tb.Rows {
				for i, cell := range row.Cells {
					check(fmt.Sprintf("row %d cell %d", k+1, i+1), cell, g.cells[k][i], g.cellFace, g.widths[i])
				}
			}
		}
		if w == 800 {
			g := r.layoutTable(&lb, w)
			if len(g.titleLines) != 2 || len(g.subLines) != 2 {
				t.Errorf("at 800 px the long title and subtitle take %d and %d lines, want 2 each", len(g.titleLines), len(g.subLines))
			}
			// The card's long variant name takes two lines, not three:
			// "Best streak" gives up its width for a second line.
			g = r.layoutTable(&card.Table, w)
			if n := len(g.cells[2][0]); n != 2 || len(g.headings[4]) != 2 {
				t.Errorf("at 800 px the long variant name takes %d lines (%q), the heading %q", n, g.cells[2][0], g.headings[4])
			}
		}
		if _, err := r.CardImage(card, w); err != nil {
			t.Error(err)
		}
	}
	for _, c := range []struct {
		s     string
		w     float64
		lines int
	}{
		{"", 100, 1}, {"x", 1, 1}, {"a-very-long-display-name-that-does-not-fit", 150, 3}, {"one two three", 1000, 1},
	} {
		f := face(r.fonts.text, 22)
		got := breakLines(f, c.s, c.w)
		if len(got) < c.lines || unbroken(rejoin(got)) != unbroken(c.s) {
			t.Errorf("breakLines(%q, %v) = %q", c.s, c.w, got)
		}
	}
}
