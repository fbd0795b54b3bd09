package command

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// TestRulesEveryVariant runs /rules for every variant key: each message
// fits Discord's 2,000 characters, the first with every section whole
// (nothing left to the pointer), and shows the variant's own summary,
// each notation example with how it is written, each mark, the pieces,
// and the page with the full rules; every piece has its line saying how
// it moves (rules.Describe), in the first message or the next ones.
func TestRulesEveryVariant(t *testing.T) {
	e := newEnv(t)
	reg, _ := registry()
	for _, k := range reg.Keys() {
		v := reg.Default(k)
		r := e.ok("alice", "/rules variant:"+k)
		text := r.Text
		for _, m := range append([]string{text}, r.More...) {
			if n := len([]rune(m)); n > 2000 {
				t.Errorf("/rules %s: a message of %d characters", k, n)
			}
		}
		if strings.Contains(text, "More (") || strings.HasSuffix(text, "…") {
			t.Errorf("/rules %s left something out:\n%s", k, text)
		}
		all := strings.Join(append([]string{text}, r.More...), "\n")
		for _, p := range v.Pieces {
			line := "• " + string(p.Letter) + " " + p.Name + ": " + rules.Describe(p)
			if !strings.Contains(all, line+"\n") && !strings.HasSuffix(all, line) {
				t.Errorf("/rules %s lacks the line %q:\n%s", k, line, all)
			}
		}
		want := []string{v.Name, v.Help.Summary, "Pieces", v.RulesPage()}
		for _, n := range v.Help.Notation {
			want = append(want, n.Kind+" `"+n.Example+"`: "+n.How)
		}
		for _, m := range v.Help.Marks {
			want = append(want, m.Mark, m.Meaning)
		}
		for _, o := range v.Options {
			want = append(want, o.Key+"="+strings.Join(o.Values, "|"))
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("/rules %s lacks %q:\n%s", k, w, text)
			}
		}
		if strings.Contains(text, "RULES.md") {
			t.Errorf("/rules %s cites RULES.md", k)
		}
	}
}

// TestRulesTexts pins what players found wrong or missing in /rules: the
// Berolina pawns, Almost's Chancellor, Three-Move's three half-moves, and
// the special moves and marks of the variants that have them.
func TestRulesTexts(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		key       string
		want, not []string
	}{
		{"trainwreck-berolina", []string{"Pawns are Berolina pawns: they move one square diagonally forward", "capture straight ahead", "`cxc4`", "`ed3`"},
			[]string{"Pawns move as in chess"}},
		{"trainwreck-almost", []string{"Chancellor (which stands for the Queen", "unmoved Chancellor may also castle", "`CO-O-O`"},
			[]string{"Queen may", "QO-O", "Queen castling"}},
		{"trainwreck-threemove", []string{"Every later turn is three: two moves of your own pieces", "Second own half-move `Bc5`"},
			[]string{"two half-moves by one player"}},
		{"trainwreck", []string{"first one of your own pieces, then one of your opponent's", "`QO-O-O`", "O-O-O needs d1 empty", "`dxe4`: with an opponent's piece"},
			[]string{"check`"}},
		{"winning", []string{"`Dh2>`", "`Af3>`", "Attacker step that ends the turn `Af3`: without >", "Defender answer `Dh7`", "`pass`", "`D~K`", "`>` — the turn goes on", "`x` a capture, `=` a promotion, `+` check, `#` checkmate", "Castling `O-O`"}, nil},
		{"coldfusion", []string{"`R&j1=W`", "`Cf2/Ne4`", "`^Nb2`", "`N@e4`", "`B=N@e4`", "`R*=B@e4`", "`e10=Q(S)`", "`S:` — Safe pocket", "`D:` — Demotion pocket", "`*` — a piece you pocketed yourself"}, nil},
		{"tank", []string{"`M*a1`", "`Th1-h2`", "`Th6-h7=T`", "\n• M Bomb: moves like a King; never captures; may explode instead, removing every piece within one square",
			"\n• T Tank: moves like a King; never captures; pushes the pieces in the line it steps into one square on",
			"\n• P Pawn: moves one square forward, or two squares forward from its side's 2nd rank if the square between is empty; captures one square diagonally forward (also en passant)"}, nil},
		{"winning", []string{"\n• T Tiger: moves like a Bishop; captures like a Knight", "\n• A Attacker: moves like a Bishop or a Knight; after a move marked >",
			"\n• C Cannon: moves like a Rook; captures any distance along its rank or file, over exactly one piece (of either side) on the way"}, nil},
		{"coldfusion", []string{"\n• W Chariot: moves any distance along its rank or file; two Rooks fused; may also turn 90° once",
			"\n• F Archbishop: moves any distance diagonally; two Bishops fused; may also bounce 90° once off the board's edge",
			"\n• J Knightrider: moves by repeating one jump in an L (two squares one way and one to the side) any number of times in a straight line",
			"\n• D Dragon King: moves like a Rook, or one square diagonally; your King; a King and a Rook fused"}, nil},
		{"grand", []string{"\n• A Cardinal: moves like a Bishop or a Knight", "\n• C Marshal: moves like a Rook or a Knight"}, nil},
		{"trainwreck", []string{"\n• R Rook: moves any distance forward; captures like a Rook"}, nil},
		{"coldfusion", []string{"**Marks**\n• `x` a capture, `+` check"}, []string{"`=` a promotion"}},
		{"annihilation", []string{"`pass`", "empty square attacked by one of your pieces", "one player chooses which army to play", "`P@d3`", "`P@xd5`", "no + or #"},
			[]string{"`+` check"}},
		{"easymate", []string{"`Bxe7@d8`", "`QO-O-O`", "option queencastle", "your King is frozen"}, nil},
		{"crazyhouse", []string{"`P@e4`", "pieces beside the board"}, nil},
		{"grand", []string{"Marshal `Ce4`", "Cardinal `Af4`", "`a10=C`"}, nil},
	} {
		r := e.ok("alice", "/rules variant:"+c.key)
		text := strings.Join(append([]string{r.Text}, r.More...), "\n")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("/rules %s lacks %q:\n%s", c.key, w, text)
			}
		}
		for _, w := range c.not {
			if strings.Contains(text, w) {
				t.Errorf("/rules %s says %q:\n%s", c.key, w, text)
			}
		}
	}
}

// TestRulesTextFitsByDesign feeds rulesText a variant whose help is far
// too long: the reply still fits, keeps the head and the pointer, takes
// the options' short form when the long one does not fit, and names in
// the pointer what it left out.
func TestRulesTextFitsByDesign(t *testing.T) {
	long := strings.Repeat("word ", 150)
	v := &rules.Variant{Key: "huge", Name: "Huge", Files: 8, Ranks: 8,
		Pieces:  []rules.PieceDef{{Letter: 'K', Name: "King"}},
		Options: []rules.OptionDef{{Key: "mode", Values: []string{"a", "b"}, Doc: strings.Repeat("long ", 100)}},
		Help: rules.VariantHelp{Summary: long,
			Notation: []rules.NotationHelp{{Kind: "Jump", How: long + long, Example: "K*e4"}},
			Marks:    []rules.MarkHelp{{Mark: "%", Meaning: long}}},
	}
	text := rulesText(v)
	if len(text) > maxReply {
		t.Fatalf("%d bytes", len(text))
	}
	for _, w := range []string{"**Huge** (`huge`, 8x8)", long, "**Marks**", "K King", "mode=a|b", "More (how to write the moves) and the full rules: docs/variants/huge.md"} {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "long long") || strings.Contains(text, "K*e4") {
		t.Errorf("a section that does not fit was shown:\n%s", text)
	}

	v.Help.Summary = strings.Repeat(long, 10)
	text = rulesText(v)
	if len(text) > maxReply || !strings.Contains(text, "…") ||
		!strings.HasSuffix(text, "More (how to write the moves, the marks, the options, the pieces) and the full rules: docs/variants/huge.md") {
		t.Errorf("a summary too long: %d bytes:\n%s", len(text), text)
	}
}
