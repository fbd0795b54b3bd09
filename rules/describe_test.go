package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDescribeBetza pins the words for representative Betza definitions:
// the chess pieces, compounds, split move and capture, lame and
// initial-only legs, en passant, hoppers, range limits, riders of leaps
// and partial directions.
func TestDescribeBetza(t *testing.T) {
	for _, c := range []struct{ betza, want string }{
		{"R", "moves any distance along its rank or file"},
		{"B", "moves any distance diagonally"},
		{"Q", "moves any distance in any direction"},
		{"K", "moves one square in any direction"},
		{"N", "moves in an L (two squares one way and one to the side), jumping over any piece"},
		{"RN", "moves like a Rook or a Knight"},
		{"BN", "moves like a Bishop or a Knight"},
		{"KN", "moves like a King or a Knight"},
		{"RF", "moves like a Rook, or one square diagonally"},
		{"mBcN", "moves like a Bishop; captures like a Knight"},
		{"fmWfceFifmnD", "moves one square forward, or two squares forward from its side's starting rank if the square between is empty; captures one square diagonally forward (also en passant)"},
		{"mfFcfW", "moves one square diagonally forward; captures one square forward"},
		{"mRcpR", "moves like a Rook; captures any distance along its rank or file, over exactly one piece (of either side) on the way"},
		{"mK", "moves like a King; never captures"},
		{"cK", "captures like a King; never moves without capturing"},
		{"mfBcB", "moves any distance diagonally forward; captures like a Bishop"},
		{"mfKcK", "moves one square forward, straight or diagonally; captures like a King"},
		{"mffNmfsNcN", "moves in an L (two squares one way and one to the side), only forward, jumping over any piece; captures like a Knight"},
		{"RfceFifmnD", "moves and captures like a Rook; also captures one square diagonally forward (also en passant)"},
		{"BfWfceF", "moves and captures like a Bishop, or one square forward; also captures one square diagonally forward (also en passant)"},
		{"R3", "moves up to three squares along its rank or file"},
		{"W", "moves one square straight in any of the four directions"},
		{"D", "moves exactly two squares straight in any of the four directions, jumping over any piece between"},
		{"A", "moves exactly two squares diagonally, jumping over any piece between"},
		{"C", "moves three squares one way and one to the side, jumping over any piece"},
		{"NN", "moves by repeating one jump in an L (two squares one way and one to the side) any number of times in a straight line, every square it lands on before the last empty"},
		{"nN", "moves in an L (two squares one way and one to the side), jumping over any piece, blocked by a piece on the square next to it in the longer direction"},
		{"vR", "moves any distance forward or backward along its file"},
		{"sW", "moves one square sideways along its rank"},
		{"frN", "moves in an L (two squares one way and one to the side), only two forward and one away from the a-file, jumping over any piece"},
		{"pQ", "moves any distance in any direction, over exactly one piece (of either side) on the way"},
		{"DD", "moves by jumps of two squares along its rank or file, repeated any number of times in one line over empty landing squares"},
	} {
		got, err := DescribeBetza(c.betza)
		if err != nil {
			t.Errorf("%s: %v", c.betza, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.betza, got, c.want)
		}
	}
	if _, err := DescribeBetza("X"); err == nil {
		t.Error("DescribeBetza(X) gave no error")
	}
}

// TestDescribeEveryPiece describes every piece of every registered
// variant: each line is non-empty, never says "unknown", starts with the
// words generated from its Betza (the initial rank named where it has
// initial-only moves) and ends with its own Legend when it has one.
func TestDescribeEveryPiece(t *testing.T) {
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range reg.Keys() {
		v := reg.Default(k)
		for _, d := range v.Pieces {
			got := Describe(d)
			base, err := DescribeBetza(d.Betza)
			switch {
			case err != nil:
				t.Errorf("%s %s: %v", k, d.Name, err)
			case got == "" || strings.Contains(strings.ToLower(got), "unknown"):
				t.Errorf("%s %s: %q", k, d.Name, got)
			case !strings.HasPrefix(got, strings.SplitN(base, " from its side's", 2)[0]):
				t.Errorf("%s %s: %q does not start with the Betza words %q", k, d.Name, got, base)
			case d.Legend != "" && !strings.HasSuffix(got, "; "+d.Legend):
				t.Errorf("%s %s: %q does not end with its legend %q", k, d.Name, got, d.Legend)
			case strings.Contains(base, "starting rank") && !strings.Contains(got, "rank") || strings.Contains(got, "starting rank"):
				t.Errorf("%s %s: %q does not name its initial rank", k, d.Name, got)
			}
		}
	}
}

// TestDescribeNamesInitialRank: Describe names the rank from which a
// piece's initial-only moves start (Grand Chess pawns: the 3rd).
func TestDescribeNamesInitialRank(t *testing.T) {
	d := PieceDef{Letter: 'P', Name: "Pawn", Betza: "fmWfceFifmnD", InitialRank: 3, Legend: "a test"}
	want := "moves one square forward, or two squares forward from its side's 3rd rank if the square between is empty; captures one square diagonally forward (also en passant); a test"
	if got := Describe(d); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

var updatePages = flag.Bool("update-pages", false, "rewrite the generated piece lists of the rules pages (docs/variants)")

// Markers of the generated piece list of a rules page.
const (
	piecesBegin = "<!-- generated from the piece definitions (rules.Describe): go test ./rules -run TestRulesPagesListPieces -update-pages -->"
	piecesEnd   = "<!-- end of the generated list -->"
)

// pagePieces is the generated piece list of v's rules page: a line per
// piece with its letter, name and how it moves (Describe).
func pagePieces(v *Variant) string {
	var b strings.Builder
	b.WriteString(piecesBegin + "\n")
	for _, d := range v.Pieces {
		fmt.Fprintf(&b, "- **%c %s**: %s.\n", d.Letter, d.Name, Describe(d))
	}
	b.WriteString(piecesEnd)
	return b.String()
}

// TestRulesPagesListPieces checks that the rules page of every registered
// variant (Variant.RulesPage) lists each of its pieces with the words
// Describe gives, between the markers, so that the pages stay true when a
// piece or the describer changes; -update-pages rewrites the lists (a
// page without one gets a "How the pieces move" section before "Writing
// moves").
func TestRulesPagesListPieces(t *testing.T) {
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range reg.Keys() {
		v := reg.Default(k)
		path := filepath.Join("..", v.RulesPage())
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", k, err)
			continue
		}
		page, want := string(raw), pagePieces(v)
		i, j := strings.Index(page, piecesBegin), strings.Index(page, piecesEnd)
		var got string
		if i >= 0 && j > i {
			got = page[i : j+len(piecesEnd)]
		}
		if got == want {
			continue
		}
		if !*updatePages {
			t.Errorf("%s: the piece list does not match the rules (run go test ./rules -run TestRulesPagesListPieces -update-pages); want:\n%s", path, want)
			continue
		}
		switch {
		case got != "":
			page = page[:i] + want + page[j+len(piecesEnd):]
		case strings.Contains(page, "\n## Writing moves"):
			page = strings.Replace(page, "\n## Writing moves", "\n## How the pieces move\n\n"+want+"\n\n## Writing moves", 1)
		default:
			page = strings.TrimRight(page, "\n") + "\n\n## How the pieces move\n\n" + want + "\n"
		}
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
