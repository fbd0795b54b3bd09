package variantsini

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

func newRegistry(t testing.TB) *rules.Registry {
	t.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// checkErr compiles text and returns its error text; it fails when the
// text compiles.
func checkErr(t *testing.T, text string) string {
	t.Helper()
	_, err := Check(text, newRegistry(t))
	if err == nil {
		t.Fatalf("%q compiled; want an error", text)
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	return err.Error()
}

func TestRefusedDefinitions(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"unsupported key", "[a:chess]\n\n# walls\nwallingRule = duck\n", "line 4: `wallingRule` is not supported"},
		{"unknown parent", "[a:shogi]\n", "line 1: parent \"shogi\" is not a variant that can be extended"},
		{"own parent", "[a:a]\n", "line 1: [a] names itself as its parent"},
		{"later parent", "[a:b]\n[b:chess]\n", "line 1: parent \"b\""},
		{"cycle", "[a:b]\n[b:a]\n", "line 2: parent \"a\""},
		{"builtin name", "[chess:chess]\n", "line 1: [chess] is the name of a variant fairypost already has"},
		{"twice", "[a:chess]\n[a:chess]\n", "line 2: section [a] is defined twice (first on line 1)"},
		{"bad betza", "[a:chess]\ncustomPiece1 = x:mRyN\n", "line 2: `customPiece1`: betza \"mRyN\": \"y\" is not part of the supported Betza notation"},
		{"betza on builtin", "[a:chess]\nknight = n:N\n", "only custom pieces and the king take a Betza description"},
		{"custom without betza", "[a:chess]\ncustomPiece3 = x\n", "a custom piece needs its moves"},
		{"start fen off the board", "[a:chess]\nstartFen = rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", "line 1: [a]"},
		{"no royal piece", "[a]\nrook = r\nstartFen = r7/8/8/8/8/8/8/R7 w - - 0 1\n", "no king, no extinction rule and no flag rule"},
		{"board too large", "[a:chess]\nmaxFile = 12\nmaxRank = 12\n", "line 3: `maxRank`: the board is 12 files by 12 ranks; at most 12 by 10"},
		{"bad bool", "[a:chess]\ncastling = yes\n", "line 2: `castling`: \"yes\" is not true or false"},
		{"bad value", "[a:chess]\nstalemateValue = lose\n", "line 2: `stalemateValue`: \"lose\" is not win, loss, draw or none"},
		{"unknown letter", "[a:chess]\npromotionPieceTypes = qz\n", "line 2: `promotionPieceTypes`: \"z\" is not the letter of a piece"},
		{"bad region", "[a:chess]\nflagRegionWhite = *11\n", "line 2: `flagRegionWhite`: \"*11\""},
		{"line outside a section", "pawn = p\n[a:chess]\n", "line 1: a line outside any section"},
		{"not key value", "[a:chess]\njust words\n", "line 2: \"just words\" is not of the form key = value"},
		{"empty", "# nothing\n", "no section"},
		{"bad name", "[My Variant:chess]\n", "line 1: section name: \"My Variant\": use lowercase letters"},
		{"double step region", "[a:chess]\ndoubleStepRegionWhite = e2 d2\n", "`doubleStepRegionWhite`: the double-step region: only whole ranks are supported"},
		{"inherited promotion region", "[a:chess]\nmaxRank = 10\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\ndoubleStepRegionBlack = *9\n", "line 1: `promotionRegionWhite` (inherited): the promotion region: White's is rank 8 and Black's rank 1 on a board of 10 ranks"},
		{"shogi promotion", "[a:chess]\npromotedPieceType = n:q\n", "line 2: `promotedPieceType` is not supported"},
		{"too long", strings.Repeat("#", MaxTextBytes+1), "at most 256 KB"},
		{"too many sections", manySections(MaxSections + 1), "line 201: more than 200 sections in one text"},
		{"janggi cannon", "[a:chess]\njanggiCannon = c\n", "its ban on jumping over or capturing cannons is not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkErr(t, tc.text); !strings.Contains(got, tc.want) {
				t.Errorf("error:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
}

func manySections(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "[s%d:chess]\n", i)
	}
	return b.String()
}

func TestEveryProblemIsReportedByLine(t *testing.T) {
	text := "[a:chess]\nwallingRule = arrow\ncastling = maybe\n[b:chess]\ngating = true\n"
	got := checkErr(t, text)
	want := "line 2: `wallingRule` is not supported\nline 3: `castling`: \"maybe\" is not true or false\nline 5: `gating` is not supported"
	if got != want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, want)
	}
}

func TestAKeySetTwiceTakesItsLastValue(t *testing.T) {
	reg := newRegistry(t)
	if _, err := Compile("[a:chess]\nking = k:KN\nking = k:RF\n", reg); err != nil {
		t.Fatal(err)
	}
	v := reg.Default("a")
	if got := v.Def(v.Type('K')).Betza; got != "RF" {
		t.Errorf("king moves %q, want RF (the last value)", got)
	}
}

func TestGUIKeysAreIgnoredAndCommentsSkipped(t *testing.T) {
	text := "; a comment\n[a:chess]\n# another\npieceToCharTable = PNBRQ.K\nvariantTemplate = shogi\npocketSize = 7\n\r\n"
	defs, err := Check(text, newRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Name != "a" || defs[0].Parent != "chess" {
		t.Fatalf("definitions = %+v", defs)
	}
}

func TestCompileRegistersEverySectionOrNone(t *testing.T) {
	reg := newRegistry(t)
	n := len(reg.Keys())
	if _, err := Compile("[good:chess]\n[bad:chess]\nwallingRule = duck\n", reg); err == nil {
		t.Fatal("a text with a bad section compiled")
	}
	if len(reg.Keys()) != n || reg.Default("good") != nil {
		t.Fatalf("a failed text registered sections: %v", reg.Keys())
	}
	defs, err := Compile("[good:chess]\n[child:good]\nking = k:KN\n", reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 2 || reg.Default("good") == nil || reg.Default("child") == nil {
		t.Fatalf("registered %v", reg.Keys())
	}
	// The child inherits chess from its parent and changes the king.
	v := reg.Default("child")
	if got := v.Def(v.Type('K')).Betza; got != "KN" {
		t.Errorf("child's king moves %q, want KN", got)
	}
	if v.Def(v.Type('Q')).Betza != "Q" || len(v.Castling) != 4 {
		t.Errorf("child lost what it inherits: %+v", v.Pieces)
	}
}

// A letter given to a second piece takes it from the first, as in the
// format.
func TestLetterMovesToTheNewPiece(t *testing.T) {
	reg := newRegistry(t)
	if _, err := Compile("[swap:chess]\narchbishop = b\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", reg); err != nil {
		t.Fatal(err)
	}
	v := reg.Default("swap")
	if d := v.Def(v.Type('B')); d.Name != "Archbishop" || d.Betza != "BN" {
		t.Errorf("B is %+v, want the archbishop", d)
	}
}

func TestTranslateBetza(t *testing.T) {
	tests := []struct{ in, want string }{
		{"N", "N"},
		{"fN", "frNflN"}, // the format's f is ff: the two narrow forward leaps
		{"fsW", "fWrWlW"},
		{"mRcpR", "mRcpR"},
		{"R2", "W2"},
		{"gQ", "gQ"},
		{"nN", "nN"},
		{"KN", "KN"},
		{"WW", "R"},
		{"WR", "R"}, // the leap is one of the rook's moves
		{"QN", "QN"},
		{"fmWimfnD", "mfWminfD"},
		{"mfWimfW", "mfW"}, // the initial move is also an ordinary one
		{"ffNllN", "frNflNlfNlbN"},
		{"fmWfceF", "mfWcefrFceflF"}, // e: en passant with the captures it cannot make quietly
		{"eN", "N"},                  // none such: no en passant at all
	}
	for _, tc := range tests {
		got, err := translateBetza(tc.in)
		if err != nil {
			t.Errorf("translateBetza(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("translateBetza(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if _, err := rules.ParseBetza(got); err != nil {
			t.Errorf("translateBetza(%q) = %q, which fairypost cannot read: %v", tc.in, got, err)
		}
	}
	for _, bad := range []string{"", "m", "yN", "nR", "nC", "pR3", "eR", "fW12"} {
		if got, err := translateBetza(bad); err == nil {
			t.Errorf("translateBetza(%q) = %q, want an error", bad, got)
		}
	}
}

func TestKindTable(t *testing.T) {
	if len(predefined) != int(kindCustom) {
		t.Fatalf("%d predefined pieces, kindCustom = %d", len(predefined), kindCustom)
	}
	keys := SupportedKeys()
	for _, k := range []string{"pawn", "customPiece25", "king", "startFen", "flagMove", "pieceToCharTable"} {
		found := false
		for _, x := range keys {
			found = found || x == k
		}
		if !found {
			t.Errorf("SupportedKeys lacks %s", k)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"[a:chess]\ncustomPiece1 = x:mRcpR\n",
		"[a]\npawn = p\nking = k:WfF\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n",
		"[a:crazyhouse]\ndropRegionWhite = *1 a* d4\nflagRegion = *8\n",
		"[a:grand]\npromotionLimit = q:1 c:2\n[b:a]\nextinctionPieceTypes = *\nextinctionValue = win\n",
		"[x:chess]\nmaxFile = 12\nmaxRank = 10\n",
	} {
		f.Add(s)
	}
	reg := newRegistry(f)
	f.Fuzz(func(t *testing.T, text string) {
		defs, err := Check(text, reg)
		if err == nil {
			for _, d := range defs {
				v := d.Variant()
				if v.Key != d.Name {
					t.Fatalf("definition %s has key %s", d.Name, v.Key)
				}
			}
		}
	})
}

// TestTestdataCoversEveryKey checks that the definitions whose perft is
// recorded from Fairy-Stockfish set every supported rule key at least
// once (the piece keys are covered as a kind: predefined, custom, king).
func TestTestdataCoversEveryKey(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ini")
	used := map[string]bool{}
	sections := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		secs, err := Parse(string(text))
		if err != nil {
			t.Fatal(err)
		}
		sections += len(secs)
		for _, s := range secs {
			for _, e := range s.Entries {
				used[e.Key] = true
			}
		}
	}
	if sections < 25 {
		t.Errorf("%d test definitions, want at least 25", sections)
	}
	for _, k := range SupportedKeys() {
		if _, piece := kindByKey(k); piece {
			continue
		}
		if !used[k] {
			t.Errorf("no test definition sets %s", k)
		}
	}
	for _, k := range []string{"pawn", "customPiece1", "king", "archbishop", "horse", "cannon"} {
		if !used[k] {
			t.Errorf("no test definition sets %s", k)
		}
	}
}
