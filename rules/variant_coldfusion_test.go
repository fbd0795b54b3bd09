package rules

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// cfRegistry returns a registry with Cold Fusion Chess in it (built once).
var cfRegistry = sync.OnceValues(func() (*Registry, error) {
	r, err := NewRegistry()
	if err != nil {
		return nil, err
	}
	if r.Default("coldfusion") == nil {
		err = r.Register("coldfusion", newColdFusion)
	}
	return r, err
})

// cfVariant returns Cold Fusion Chess with options ("" = the defaults).
func cfVariant(tb testing.TB, options string) *Variant {
	tb.Helper()
	r, err := cfRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	v, err := r.Variant("coldfusion", options)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// cfFEN builds a Cold Fusion FEN from pieces such as "Ke1 kj10 Ra1 pe8"
// (the letter's case is the owner), the pocket section ("S:Qn,D:R*") and
// the side to move ("w" or "b", optionally with an en-passant square:
// "b e4").
func cfFEN(tb testing.TB, pieces, pocket, side string) string {
	tb.Helper()
	var board [10][10]byte
	for _, tok := range strings.Fields(pieces) {
		s, err := ParseSquare(tok[1:])
		if err != nil || s.File() >= 10 || s.Rank() >= 10 || board[s.Rank()][s.File()] != 0 {
			tb.Fatalf("cfFEN: bad piece %q", tok)
		}
		board[s.Rank()][s.File()] = tok[0]
	}
	var b strings.Builder
	for r := 9; r >= 0; r-- {
		empty := 0
		for f := 0; f < 10; f++ {
			if board[r][f] == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(board[r][f])
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	ep := "-"
	if s, e, ok := strings.Cut(side, " "); ok {
		side, ep = s, e
	}
	return fmt.Sprintf("%s[%s] %s - %s 0 1", b.String(), pocket, side, ep)
}

// cfPos returns the position of cfFEN(pieces, pocket, side) in the default variant.
func cfPos(tb testing.TB, pieces, pocket, side string) Position {
	tb.Helper()
	return mustFEN(tb, cfVariant(tb, ""), cfFEN(tb, pieces, pocket, side))
}

// cfTexts returns the canonical texts of p's legal moves, in order.
func cfTexts(p *Position) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		out = append(out, FormatMove(p, m))
	}
	return out
}

// cfExpect checks that every text of legal is a legal move of p and none
// of illegal is.
func cfExpect(t *testing.T, p *Position, legal, illegal []string) {
	t.Helper()
	texts := cfTexts(p)
	for _, s := range legal {
		if !slices.Contains(texts, s) {
			t.Errorf("%s: %s is not legal; legal: %v", p.FEN(), s, texts)
		}
	}
	for _, s := range illegal {
		if slices.Contains(texts, s) {
			t.Errorf("%s: %s is legal", p.FEN(), s)
		}
	}
}

// cfAt returns the FEN letter on the square named s ('.' when empty).
func cfAt(p *Position, s string) byte {
	sq, _ := ParseSquare(s)
	pc := p.At(sq)
	if pc == NoPiece {
		return '.'
	}
	return p.letter(pc)
}

// cfPocketOf returns the pocket section of p's FEN (between the brackets).
func cfPocketOf(p *Position) string {
	f := p.FEN()
	return f[strings.IndexByte(f, '[')+1 : strings.IndexByte(f, ']')]
}

// TestColdFusionStartPosition pins the start position: the Grand Chess
// array with empty pockets, and its move count by hand. Grand Chess has 65
// moves (perft 1 in grand.perft); Cold Fusion adds 2 fusions (each Rook
// along the empty first rank onto the other, making a Chariot), 14 splits
// (Queen: Rook to d1, Bishop to c1 and e1; Marshal: Rook to f1, Knight to
// d1, h1, e4 and g4; Cardinal: Bishop to f1 and h1, Knight to e1, i1, f4
// and h4) and 19 pocketings (every man but the King), 100 in all. After
// each of them Black has the mirrored 100, but for one: after White's
// Marshal goes to e4 (f2e4), Black may not pocket the e8 pawn, which would
// open the e-file to its King: 100*100-1 = 9999 at depth 2.
func TestColdFusionStartPosition(t *testing.T) {
	v := cfVariant(t, "")
	p := v.Start()
	const start = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1"
	if p.FEN() != start || v.StartFEN != start {
		t.Fatalf("start FEN %q", p.FEN())
	}
	moves := p.Legal(nil)
	kinds := map[string]int{}
	for _, m := range moves {
		switch {
		case m.Kind != KindSpecial:
			kinds["ordinary"]++
		case m.Extra&7 == cfFuse:
			kinds["fusion"]++
		case m.Extra&7 == cfSplit:
			kinds["split"]++
		case m.Extra&7 == cfPocket:
			kinds["pocket"]++
		default:
			kinds["other"]++
		}
	}
	if want := map[string]int{"ordinary": 65, "fusion": 2, "split": 14, "pocket": 19}; !mapsEqual(kinds, want) {
		t.Errorf("start moves by kind %v, want %v", kinds, want)
	}
	if n := Perft(&p, 2); n != 9999 {
		t.Errorf("perft 2 = %d, want 9999", n)
	}
	after := mustPlay(t, p, "f2e4")
	if texts := cfTexts(&after); slices.Contains(texts, "e8e8#d") || len(texts) != 99 {
		t.Errorf("after f2e4 Black has %d moves (want 99, without e8e8#d)", len(texts))
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestColdFusionPieces pins the piece table: 25 kinds (at most 31 fit),
// their letters and names (C4: B+N is the Cardinal; C17: the Templar
// Sergeant), which are royal and which count as pawns.
func TestColdFusionPieces(t *testing.T) {
	v := cfVariant(t, "")
	var got []string
	for _, d := range v.Pieces {
		s := string(d.Letter) + "=" + d.Name
		if d.Royal {
			s += "(royal)"
		}
		if d.Pawn {
			s += "(pawn)"
		}
		got = append(got, s)
	}
	want := []string{
		"P=Pawn(pawn)", "L=Berolina pawn(pawn)", "S=Sergeant(pawn)", "N=Knight", "B=Bishop", "R=Rook",
		"Q=Queen", "A=Cardinal", "C=Marshal", "K=King(royal)", "D=Dragon King(royal)", "O=Pope(royal)",
		"E=Eques Rex(royal)", "W=Chariot", "F=Archbishop", "J=Knightrider", "G=Guard", "H=Berolina Guard",
		"I=Guard Sergeant", "T=Templar", "U=Berolina Templar", "V=Templar Sergeant", "X=Cavalry",
		"Y=Berolina Cavalry", "Z=Cavalry Sergeant",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pieces:\n%v\nwant:\n%v", got, want)
	}
	if len(v.Pieces) > maxPieceTypes {
		t.Errorf("%d piece types, at most %d fit", len(v.Pieces), maxPieceTypes)
	}
	if len(v.Castling) != 0 {
		t.Errorf("C2: castling rules %v, want none", v.Castling)
	}
}

// cfFusionTarget is, for each mover letter standing on d4, a square its
// capturing movement reaches on an otherwise empty board.
var cfFusionTarget = map[byte]string{'K': "d5", 'R': "d6", 'B': "f6", 'N': "e6", 'P': "e5", 'L': "d5", 'S': "c5"}

// cfFusionSetup returns the position with White's mover on d4 and the
// target on the square of cfFusionTarget, White's King on a1 unless one of
// them is the King, Black's King on j9.
func cfFusionSetup(t *testing.T, mover, target byte) (Position, string) {
	t.Helper()
	to := cfFusionTarget[mover]
	pieces := fmt.Sprintf("%cd4 %c%s kj9", mover, target, to)
	if mover != 'K' && target != 'K' {
		pieces += " Ka1"
	}
	return cfPos(t, pieces, "", "w"), "d4" + to
}

// TestColdFusionFusionTable pins every fusion of docs/variants/coldfusion.md, each made
// by a mover onto a friendly man with the mover's capturing movement
// (both orders where both may move; a pawn-kind piece always as the
// mover): the move text is the mover's two squares and the result stands
// on the target's square.
func TestColdFusionFusionTable(t *testing.T) {
	for _, c := range []struct {
		mover, target, result byte
		name                  string
	}{
		{'R', 'B', 'Q', "Rook+Bishop=Queen"}, {'B', 'R', 'Q', "Bishop+Rook=Queen"},
		{'R', 'N', 'C', "Rook+Knight=Marshal"}, {'N', 'R', 'C', "Knight+Rook=Marshal"},
		{'B', 'N', 'A', "Bishop+Knight=Cardinal"}, {'N', 'B', 'A', "Knight+Bishop=Cardinal"},
		{'K', 'R', 'D', "King+Rook=Dragon King"}, {'R', 'K', 'D', "Rook+King=Dragon King"},
		{'K', 'B', 'O', "King+Bishop=Pope"}, {'B', 'K', 'O', "Bishop+King=Pope"},
		{'K', 'N', 'E', "King+Knight=Eques Rex"}, {'N', 'K', 'E', "Knight+King=Eques Rex"},
		{'R', 'R', 'W', "Rook+Rook=Chariot"}, {'B', 'B', 'F', "Bishop+Bishop=Archbishop"},
		{'N', 'N', 'J', "Knight+Knight=Knightrider"},
		{'P', 'P', 'L', "Pawn+Pawn=Berolina pawn"},
		{'P', 'L', 'S', "Pawn+Berolina=Sergeant"}, {'L', 'P', 'S', "Berolina+Pawn=Sergeant"},
		{'P', 'R', 'G', "Pawn+Rook=Guard"}, {'L', 'R', 'H', "Berolina+Rook=Berolina Guard"}, {'S', 'R', 'I', "Sergeant+Rook=Guard Sergeant"},
		{'P', 'B', 'T', "Pawn+Bishop=Templar"}, {'L', 'B', 'U', "Berolina+Bishop=Berolina Templar"}, {'S', 'B', 'V', "Sergeant+Bishop=Templar Sergeant"},
		{'P', 'N', 'X', "Pawn+Knight=Cavalry"}, {'L', 'N', 'Y', "Berolina+Knight=Berolina Cavalry"}, {'S', 'N', 'Z', "Sergeant+Knight=Cavalry Sergeant"},
		{'P', 'G', 'H', "Pawn+Guard=Berolina Guard"}, {'L', 'G', 'I', "Berolina+Guard=Guard Sergeant"}, {'P', 'H', 'I', "Pawn+Berolina Guard=Guard Sergeant"},
		{'P', 'T', 'U', "Pawn+Templar=Berolina Templar"}, {'L', 'T', 'V', "Berolina+Templar=Templar Sergeant"}, {'P', 'U', 'V', "Pawn+Berolina Templar=Templar Sergeant"},
		{'P', 'X', 'Y', "Pawn+Cavalry=Berolina Cavalry"}, {'L', 'X', 'Z', "Berolina+Cavalry=Cavalry Sergeant"}, {'P', 'Y', 'Z', "Pawn+Berolina Cavalry=Cavalry Sergeant"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, text := cfFusionSetup(t, c.mover, c.target)
			q := mustPlay(t, p, text)
			if got := cfAt(&q, text[2:]); got != c.result || cfAt(&q, "d4") != '.' {
				t.Errorf("%s in %s: %c on %s, %c on d4; want %c and empty", text, p.FEN(), got, text[2:], cfAt(&q, "d4"), c.result)
			}
			if cfPocketOf(&q) != "" {
				t.Errorf("a fusion changed the pockets: %s", q.FEN())
			}
		})
	}
}

// TestColdFusionIllegalFusions pins the fusions the rules forbid: over
// weight 2, the King with pawns, a fourth pawn (Berolina+Berolina, a pawn
// added to a Sergeant part: C7), a pawn part that is not the mover (so a
// hybrid never fuses as the mover), and a pawn fusing with its
// non-capturing step.
func TestColdFusionIllegalFusions(t *testing.T) {
	for _, c := range []struct {
		name          string
		mover, target byte
	}{
		{"weight: Queen onto Rook", 'Q', 'R'},
		{"weight: Rook onto Queen", 'R', 'Q'},
		{"weight: Rook onto Chariot", 'R', 'W'},
		{"weight: Knight onto Marshal", 'N', 'C'},
		{"weight: Bishop onto Cardinal", 'B', 'A'},
		{"weight: King onto Queen", 'K', 'Q'},
		{"weight: Rook onto Dragon King", 'R', 'D'},
		{"weight: Knight onto Knightrider", 'N', 'J'},
		{"weight: Guard onto Rook", 'G', 'R'},
		{"weight: Rook onto Guard", 'R', 'G'},
		{"weight: Pawn onto Queen", 'P', 'Q'},
		{"weight: Sergeant onto Archbishop", 'S', 'F'},
		{"King with pawns: Pawn onto King", 'P', 'K'},
		{"King with pawns: Berolina onto King", 'L', 'K'},
		{"King with pawns: Sergeant onto King", 'S', 'K'},
		{"King with pawns: King onto Pawn", 'K', 'P'},
		{"King with pawns: King onto Berolina", 'K', 'L'},
		{"King with pawns: Pawn onto Eques Rex", 'P', 'E'},
		{"fourth pawn: Pawn onto Sergeant", 'P', 'S'},
		{"fourth pawn: Sergeant onto Pawn", 'S', 'P'},
		{"fourth pawn: Berolina onto Berolina", 'L', 'L'},
		{"fourth pawn: Berolina onto Sergeant", 'L', 'S'},
		{"fourth pawn: Pawn onto Guard Sergeant", 'P', 'I'},
		{"fourth pawn: Pawn onto Templar Sergeant", 'P', 'V'},
		{"fourth pawn: Pawn onto Cavalry Sergeant", 'P', 'Z'},
		{"fourth pawn: Berolina onto Berolina Guard", 'L', 'H'},
		{"fourth pawn: Sergeant onto Guard", 'S', 'G'},
		{"fourth pawn: Berolina onto Berolina Cavalry", 'L', 'Y'},
		{"pawn not the mover: Rook onto Pawn", 'R', 'P'},
		{"pawn not the mover: Knight onto Berolina", 'N', 'L'},
		{"pawn not the mover: Bishop onto Sergeant", 'B', 'S'},
		{"pawn not the mover: Rook onto Templar", 'R', 'T'},
		{"pawn not the mover: Guard onto Pawn", 'G', 'P'},
		{"no second King: King onto King", 'K', 'K'},
	} {
		t.Run(c.name, func(t *testing.T) {
			mover := c.mover
			if _, ok := cfFusionTarget[mover]; !ok {
				mover = 'R' // a compound or hybrid mover: use its rook move d4-d6
			}
			to := cfFusionTarget[mover]
			pieces := fmt.Sprintf("%cd4 %c%s kj9", c.mover, c.target, to)
			if c.mover == 'K' && c.target == 'K' {
				// A side never has two royal men, so they never meet.
				if _, err := ParseFEN(cfVariant(t, ""), cfFEN(t, pieces, "", "w")); err == nil {
					t.Errorf("two Kings of one side accepted")
				}
				return
			}
			if !strings.ContainsAny(string([]byte{c.mover, c.target}), "KDOE") {
				pieces += " Ka1"
			}
			p := cfPos(t, pieces, "", "w")
			for _, s := range cfTexts(&p) {
				if strings.HasPrefix(s, "d4"+to) {
					t.Errorf("%s: %s is legal", p.FEN(), s)
				}
			}
		})
	}
	t.Run("a pawn fuses only with its capturing step", func(t *testing.T) {
		p := cfPos(t, "Pd4 Rd5 Re5 Ka1 kj10", "", "w")
		cfExpect(t, &p, []string{"d4e5"}, []string{"d4d5"})
		p = cfPos(t, "Ld4 Rd5 Re5 Ka1 kj10", "", "w")
		cfExpect(t, &p, []string{"d4d5"}, []string{"d4e5"})
		p = cfPos(t, "Pd4 Rc3 Ka1 kj10", "", "w")
		cfExpect(t, &p, nil, []string{"d4c3"})
	})
	t.Run("a fusion stops at the first piece in the way", func(t *testing.T) {
		p := cfPos(t, "Ra4 Nc4 Re4 Ka1 kj10", "", "w")
		cfExpect(t, &p, []string{"a4c4"}, []string{"a4e4"})
	})
}

// TestColdFusionSplits pins which component of every compound may split
// off (C5, C18: a single non-pawn atom, the whole pawn part, one pawn, or a
// Berolina pawn out of a Sergeant part, when what stays is a piece too),
// what stays behind, and that simple men never split: the man stands on
// d4 of an otherwise empty board; the split-off part lands on the target.
func TestColdFusionSplits(t *testing.T) {
	for _, c := range []struct {
		piece byte
		want  string // part letter -> what stays, for every split
	}{
		{'Q', "b=R r=B"}, {'C', "n=R r=N"}, {'A', "b=N n=B"},
		{'D', "k=R r=K"}, {'O', "b=K k=B"}, {'E', "k=N n=K"},
		{'W', "r=R"}, {'F', "b=B"}, {'J', "n=N"},
		{'L', "p=P"}, {'S', "l=P p=L"},
		{'G', "p=R r=P"}, {'H', "l=R p=G r=L"}, {'I', "l=G p=H r=S s=R"},
		{'T', "b=P p=B"}, {'U', "b=L l=B p=T"}, {'V', "b=S l=T p=U s=B"},
		{'X', "n=P p=N"}, {'Y', "l=N n=L p=X"}, {'Z', "l=X n=S p=Y s=N"},
		{'P', ""}, {'N', ""}, {'B', ""}, {'R', ""}, {'K', ""},
	} {
		t.Run(string(c.piece), func(t *testing.T) {
			pieces := string(c.piece) + "d4 kj9"
			if !strings.ContainsRune("KDOE", rune(c.piece)) {
				pieces += " Ka1"
			}
			p := cfPos(t, pieces, "", "w")
			first := map[string]string{}
			for _, s := range cfTexts(&p) {
				if part, ok := strings.CutPrefix(s, "d4"); ok && strings.Contains(part, "#") && !strings.HasSuffix(s, "#d") {
					tag := s[strings.IndexByte(s, '#')+1:]
					if _, seen := first[tag]; !seen {
						first[tag] = s
					}
				}
			}
			var got []string
			for tag, s := range first {
				q := mustPlay(t, p, s)
				to := s[2:strings.IndexByte(s, '#')]
				if part := cfAt(&q, to); part != tag[0]-('a'-'A') {
					t.Errorf("%s: %c landed on %s, want %c", s, part, to, tag[0]-('a'-'A'))
				}
				got = append(got, fmt.Sprintf("%s=%c", tag, cfAt(&q, "d4")))
			}
			slices.Sort(got)
			if strings.Join(got, " ") != c.want {
				t.Errorf("splits of %c: %q, want %q", c.piece, strings.Join(got, " "), c.want)
			}
		})
	}
}

// TestColdFusionSplitMovement pins how a split-off part moves: by its own
// movement only (a Bishop leaving a Queen goes diagonally), to empty
// squares (no capture, no fusion), a pawn part by its non-capturing
// movement.
func TestColdFusionSplitMovement(t *testing.T) {
	p := cfPos(t, "Qd4 Nf6 nb6 Pd6 Ka1 kj9", "", "w")
	cfExpect(t, &p, []string{"d4e5#b", "d4c5#b", "d4d5#r", "d4h4#r", "d4g1#b"},
		[]string{"d4f6#b", "d4g7#b", "d4b6#b", "d4d6#r", "d4d7#r", "d4e4#b", "d4c3#r"})
	// A Guard's pawn part moves one square straight ahead (not from its 3rd rank: no double step)
	// and never diagonally without a capture.
	p = cfPos(t, "Gd4 ne5 Ka1 kj9", "", "w")
	cfExpect(t, &p, []string{"d4d5#p", "d4d5#r", "d4d5"}, []string{"d4d6#p", "d4e5#p", "d4c5#p"})
	// A Sergeant part moves to the three squares ahead; a Berolina part to the two diagonals.
	p = cfPos(t, "Id4 Ka1 kj9", "", "w")
	cfExpect(t, &p, []string{"d4c5#s", "d4d5#s", "d4e5#s", "d4c5#l", "d4e5#l", "d4d5#p"}, []string{"d4d5#l", "d4c5#p"})
	// Black's parts move down the board.
	p = cfPos(t, "gd7 Ka1 kj9", "", "b")
	cfExpect(t, &p, []string{"d7d6#p", "d7d1#r"}, []string{"d7d8#p"})
}

// TestColdFusionDemotion pins every step of demotion (docs/variants/coldfusion.md, C15):
// an entry dropped from the Demotion pocket, captured or one's own,
// becomes the next piece down, a hybrid loses one pawn, a Pawn stays a
// Pawn; from the Safe pocket it keeps its kind. There is one drop per
// entry and square: no choice.
func TestColdFusionDemotion(t *testing.T) {
	for _, c := range []struct{ from, to byte }{
		{'Q', 'C'}, {'C', 'A'}, {'A', 'W'}, {'W', 'F'}, {'F', 'J'}, {'J', 'R'}, {'R', 'B'}, {'B', 'N'},
		{'N', 'S'}, {'S', 'L'}, {'L', 'P'}, {'P', 'P'},
		{'G', 'R'}, {'H', 'G'}, {'I', 'H'}, {'T', 'B'}, {'U', 'T'}, {'V', 'U'}, {'X', 'N'}, {'Y', 'X'}, {'Z', 'Y'},
	} {
		t.Run(fmt.Sprintf("%cto%c", c.from, c.to), func(t *testing.T) {
			pocket := fmt.Sprintf("S:%c,D:%c*", c.from, c.from)
			tags := []string{"#s", "#d*"}
			if !strings.ContainsRune("PLS", rune(c.from)) {
				pocket = fmt.Sprintf("S:%c,D:%c%c*", c.from, c.from, c.from)
				tags = append(tags, "#d")
			}
			p := cfPos(t, "Ka1 kj9", pocket, "w")
			n := 0
			for _, s := range cfTexts(&p) {
				if strings.HasPrefix(s, string(c.from)+"@e5") {
					n++
				}
			}
			if n != len(tags) {
				t.Errorf("%d drops of %c on e5, want %d (one per pocket entry kind)", n, c.from, len(tags))
			}
			for _, tag := range tags {
				text := string(c.from) + "@e5" + tag
				q := mustPlay(t, p, text)
				want := c.to
				if tag == "#s" {
					want = c.from
				}
				if got := cfAt(&q, "e5"); got != want {
					t.Errorf("%s: %c landed, want %c", text, got, want)
				}
			}
		})
	}
}

// TestColdFusionCaptureRouting pins where captured men go (docs/variants/coldfusion.md,
// C8, C9): captures by pawn-kind pieces, by a hybrid's pawn part (any
// capture the pawn part could make, en passant too) and by royal pieces to
// the captor's Safe pocket; other captures to the Demotion pocket, except
// that pawn-kind pieces they take leave the game. The captured man changes
// sides: the pocket letter is the captor's colour.
func TestColdFusionCaptureRouting(t *testing.T) {
	for _, c := range []struct {
		name, pieces, side, moves, want string
	}{
		{"a pawn's capture goes to Safe", "Pd4 ne5", "w", "d4e5", "S:N"},
		{"a Berolina pawn's straight capture goes to Safe", "Ld4 nd5", "w", "d4d5", "S:N"},
		{"a Sergeant's capture goes to Safe", "Sd4 nc5", "w", "d4c5", "S:N"},
		{"a pawn taking a pawn keeps it in Safe", "Pd4 pe5", "w", "d4e5", "S:P"},
		{"a King's capture goes to Safe", "Kd4 nd5 kj9", "w", "d4d5", "S:N"},
		{"C8: a royal compound's capture goes to Safe", "Dd4 nd8 kj9", "w", "d4d8", "S:N"},
		{"C8: a Pope's bishop capture goes to Safe", "Od4 ng7 kj9", "w", "d4g7", "S:N"},
		{"C8: a hybrid's capture its pawn part could make goes to Safe", "Gd4 ne5", "w", "d4e5", "S:N"},
		{"C8: a Berolina Guard's one-square straight capture goes to Safe", "Hd4 nd5", "w", "d4d5", "S:N"},
		{"a Guard's one-square straight capture is its rook's: Demotion", "Gd4 nd5", "w", "d4d5", "D:N"},
		{"a hybrid's capture by its rook part goes to Demotion", "Gd4 nd7", "w", "d4d7", "D:N"},
		{"a Cavalry's knight capture goes to Demotion", "Xd4 ne6", "w", "d4e6", "D:N"},
		{"a regular capture goes to Demotion", "Rd4 nd7", "w", "d4d7", "D:N"},
		{"a Chariot's turning capture goes to Demotion", "Wa2 nb10", "w", "a2b10", "D:N"},
		{"C9: a Pawn taken by a regular man leaves the game", "Rd4 pd7", "w", "d4d7", ""},
		{"C9: a Berolina pawn taken by a regular man leaves the game", "Rd4 ld7", "w", "d4d7", ""},
		{"C9: a Sergeant taken by a regular man leaves the game", "Rd4 sd7", "w", "d4d7", ""},
		{"C9: a hybrid taken by a regular man goes to Demotion", "Rd4 gd7", "w", "d4d7", "D:G"},
		{"a hybrid taken by a pawn goes to Safe", "Pd4 ge5", "w", "d4e5", "S:G"},
		{"en passant by a hybrid goes to Safe", "Ge6 pd8", "b", "d8d6 e6d7", "S:P"},
		{"en passant by a pawn goes to Safe", "Pe6 pd8", "b", "d8d6 e6d7", "S:P"},
		{"Black's pawn capture goes to Black's Safe pocket", "pd5 Ne4", "b", "d5e4", "S:n"},
		{"Black's regular capture of a pawn removes it", "rd5 Pd2", "b", "d5d2", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			pieces := c.pieces
			if !strings.ContainsAny(pieces, "KDOE") {
				pieces += " Ka1"
			}
			if !strings.Contains(pieces, "k") {
				pieces += " kj9"
			}
			p := mustPlay(t, cfPos(t, pieces, "", c.side), c.moves)
			if got := cfPocketOf(&p); got != c.want {
				t.Errorf("after %s: pockets %q, want %q (%s)", c.moves, got, c.want, p.FEN())
			}
		})
	}
}

// cfCase is a rule pinned on one position: pieces, pockets and side as
// for cfFEN, setup moves played first, then moves that must be legal or
// illegal, a move to play and what must follow it.
type cfCase struct {
	name, pieces, pocket, side string
	options                    string // variant options ("" = defaults)
	setup                      string
	legal, illegal             []string
	play                       string
	at                         map[string]byte // square -> letter after play ('.' = empty)
	wantPocket                 *string         // the pocket section after play
	check                      func(t *testing.T, before, after *Position)
}

func cfStr(s string) *string { return &s }

// run checks c.
func (c cfCase) run(t *testing.T) {
	t.Helper()
	v := cfVariant(t, c.options)
	p := mustPlay(t, mustFEN(t, v, cfFEN(t, c.pieces, c.pocket, c.side)), c.setup)
	cfExpect(t, &p, c.legal, c.illegal)
	if c.play == "" {
		if c.check != nil {
			c.check(t, &p, nil)
		}
		return
	}
	q := mustPlay(t, p, c.play)
	for s, want := range c.at {
		if got := cfAt(&q, s); got != want {
			t.Errorf("after %s: %c on %s, want %c (%s)", c.play, got, s, want, q.FEN())
		}
	}
	if c.wantPocket != nil {
		if got := cfPocketOf(&q); got != *c.wantPocket {
			t.Errorf("after %s: pockets %q, want %q (%s)", c.play, got, *c.wantPocket, q.FEN())
		}
	}
	if c.check != nil {
		c.check(t, &p, &q)
	}
}

// TestColdFusionREC pins each decision of docs/variants/coldfusion.md (C1-C22),
// each subtest named after it.
func TestColdFusionREC(t *testing.T) {
	for _, c := range []cfCase{
		{name: "C1 promotion zone: no promotion on the 8th by default", pieces: "Pe7 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"e7e8"}, illegal: []string{"e7e8q#s"}},
		{name: "C1 promotion zone: optional on the 9th", pieces: "Pe8 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"e8e9", "e8e9q#s"}, play: "e8e9q#s", at: map[string]byte{"e9": 'Q', "e8": '.'}, wantPocket: cfStr("")},
		{name: "C1 promotion zone: compulsory on the 10th", pieces: "Pe9 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"e9e10q#s"}, illegal: []string{"e9e10"}},
		{name: "C1 promotion zone: option zone=8 as in Grand Chess", options: "zone=8", pieces: "Pe7 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"e7e8", "e7e8q#s"}},
		{name: "C2 no castling", pieces: "Ke1 Rj1 ka10", side: "w", legal: []string{"e1f1", "j1f1"}, illegal: []string{"e1g1", "e1h1", "e1i1"}},
		{name: "C3 the King may initiate a fusion", pieces: "Kd4 Rd5 kj9", side: "w",
			legal: []string{"d4d5"}, play: "d4d5", at: map[string]byte{"d5": 'D', "d4": '.'},
			check: func(t *testing.T, _, after *Position) {
				if after.royal[0] != NewSquare(3, 4) {
					t.Errorf("White's royal square %s, want d5", after.royal[0])
				}
			}},
		{name: "C3 an attacked compound may split", pieces: "Qd4 rd9 Ka1 kj9", side: "w", legal: []string{"d4a4#r", "d4b6#b"}},
		{name: "C3 no through-check limit on a royal knight leap", pieces: "Ed4 ra5 kj9", side: "w", legal: []string{"d4e6"}},
		{name: "C4 the Bishop+Knight compound is the Cardinal, below the Marshal", pieces: "Ka1 kj9", pocket: "D:C", side: "w",
			play: "C@e5#d", at: map[string]byte{"e5": 'A'}},
		{name: "C5 a Guard Sergeant splits four ways", pieces: "Id4 Ka1 kj9", side: "w",
			legal: []string{"d4d6#r", "d4d5#s", "d4d5#p", "d4c5#l"}, play: "d4c5#l", at: map[string]byte{"c5": 'L', "d4": 'G'}},
		{name: "C6 a Pawn may move onto a Berolina pawn", pieces: "Pd4 Le5 Ka1 kj9", side: "w", play: "d4e5", at: map[string]byte{"e5": 'S'}},
		{name: "C6 a Berolina pawn may move onto a Pawn, with its straight capturing step", pieces: "Ld4 Pd5 Pe5 Ka1 kj9", side: "w",
			legal: []string{"d4d5"}, illegal: []string{"d4e5"}, play: "d4d5", at: map[string]byte{"d5": 'S'}},
		{name: "C7 no Berolina+Berolina", pieces: "Ld4 Ld5 Ka1 kj9", side: "w", illegal: []string{"d4d5"}},
		{name: "C7 no pawn onto a Sergeant", pieces: "Pd4 Se5 Ka1 kj9", side: "w", illegal: []string{"d4e5"}},
		{name: "C8 a royal compound's capture goes to Safe", pieces: "Ed4 nf5 kj9", side: "w", play: "d4f5", wantPocket: cfStr("S:N")},
		{name: "C8 a capture the pawn part could make goes to Safe", pieces: "Td4 ne5 Ka1 kj9", side: "w", play: "d4e5", wantPocket: cfStr("S:N")},
		{name: "C9 a Pawn taken by a regular man leaves the game", pieces: "Nd4 pe6 Ka1 kj9", side: "w", play: "d4e6", wantPocket: cfStr("")},
		{name: "C9 a hybrid taken by a regular man goes to Demotion", pieces: "Nd4 xe6 Ka1 kj9", side: "w", play: "d4e6", wantPocket: cfStr("D:X")},
		{name: "C10 promotion only to a man captured from the promoting player", pieces: "Pe9 Ka1 kj9", pocket: "S:q,D:r*", side: "w",
			legal: []string{"e9e10q#s"}, illegal: []string{"e9e10r#d", "e9e10r#d*"}},
		{name: "C10 hybrids are eligible", pieces: "Pe9 Ka1 kj9", pocket: "D:g", side: "w",
			legal: []string{"e9e10g#d"}, play: "e9e10g#d", at: map[string]byte{"e10": 'G', "e9": '.'}, wantPocket: cfStr("")},
		{name: "C10 a pawn with nothing to promote to may not enter the 10th but gives check from the 9th", pieces: "Pe9 Ka1 kd10", pocket: "S:Q,D:R*r*", side: "b",
			check: func(t *testing.T, p, _ *Position) {
				if !p.InCheck() {
					t.Errorf("Black's King on d10 is not in check from the pawn on e9")
				}
				q := mustPlay(t, *p, "d10c10")
				for _, s := range cfTexts(&q) {
					if strings.HasPrefix(s, "e9e10") || strings.HasPrefix(s, "e9d10") || strings.HasPrefix(s, "e9f10") {
						t.Errorf("%s: the pawn may go to the 10th: %s", q.FEN(), s)
					}
				}
			}},
		{name: "C11 a hybrid never promotes", pieces: "Ge9 Ka1 kj7", pocket: "S:q", side: "w",
			legal: []string{"e9e10"}, illegal: []string{"e9e10q#s", "e9e10#p"}, play: "e9e10", at: map[string]byte{"e10": 'G'}},
		{name: "C11 a hybrid's pawn part rides along on the 10th, and no split leaves it there", pieces: "Ge10 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"e10e9", "e10a10"}, illegal: []string{"e10e9#r", "e10a10#r"}},
		{name: "C12 pawn drops: not on the 9th and 10th, but on the 1st and 2nd", pieces: "Ka1 kj9", pocket: "S:PG,D:N", side: "w",
			legal: []string{"P@e8#s", "P@e1#s", "P@j2#s", "N@e8#d", "G@e10#s", "G@e9#s"}, illegal: []string{"P@e9#s", "P@e10#s", "N@e9#d", "N@e10#d"}},
		{name: "C12 the ban is judged after demotion", pieces: "Ka1 kj9", pocket: "D:QL*", side: "w",
			legal: []string{"Q@e10#d", "L@e8#d*"}, illegal: []string{"L@e9#d*"}},
		{name: "C12 pawn drops are measured from the dropper's side", pieces: "Ka1 kj9", pocket: "S:p", side: "b",
			legal: []string{"P@e9#s", "P@e10#s", "P@e3#s"}, illegal: []string{"P@e2#s", "P@e1#s"}},
		{name: "C12 a Pawn dropped on its 3rd rank may double-step", pieces: "Ka1 kj9", pocket: "S:P", side: "w",
			setup: "P@c3#s j9j10", legal: []string{"c3c5"}},
		{name: "C13 a Berolina pawn does not double-step", pieces: "Le3 Ka1 kj9", side: "w", legal: []string{"e3d4", "e3f4"}, illegal: []string{"e3e5", "e3c5", "e3g5", "e3e4"}},
		{name: "C13 a Sergeant does not double-step", pieces: "Se3 Ka1 kj9", side: "w", legal: []string{"e3d4", "e3e4", "e3f4"}, illegal: []string{"e3e5"}},
		{name: "C13 a Sergeant captures en passant diagonally", pieces: "Se6 pd8 Ka1 kj9", side: "b",
			setup: "d8d6", play: "e6d7", at: map[string]byte{"d7": 'S', "d6": '.'}, wantPocket: cfStr("S:P"),
			check: func(t *testing.T, before, _ *Position) {
				n := 0
				for _, s := range cfTexts(before) {
					if s == "e6d7" {
						n++
					}
				}
				if n != 1 {
					t.Errorf("e6d7 is listed %d times, want once (the en-passant capture)", n)
				}
			}},
		{name: "C13 a hybrid with a Sergeant part captures en passant", pieces: "Ze6 pd8 Ka1 kj9", side: "b",
			setup: "d8d6", play: "e6d7", at: map[string]byte{"d7": 'Z', "d6": '.'}, wantPocket: cfStr("S:P")},
		{name: "C13 a Berolina part does not capture en passant", pieces: "Ye6 pd8 Ka1 kj9", side: "b",
			setup: "d8d6", play: "e6d7", at: map[string]byte{"d7": 'Y', "d6": 'p'}, wantPocket: cfStr("")},
		{name: "C14 the Archbishop's edge square must be empty", pieces: "Fc3 Na5 Kj1 kh10", side: "w",
			legal: []string{"c3b4"}, illegal: []string{"c3a5", "c3b6", "c3c7"}},
		{name: "C14 the Archbishop captures on the edge without reflecting", pieces: "Fc3 na5 Kj1 kh10", side: "w",
			legal: []string{"c3a5"}, illegal: []string{"c3b6"}},
		{name: "C14 the Chariot does not turn before an enemy piece", pieces: "Wc3 nh3 Ka1 kj9", side: "w",
			legal: []string{"c3g3", "c3h3"}, illegal: []string{"c3g4", "c3g2"}},
		{name: "C14 the Chariot turns before its own piece and the edge", pieces: "Wc3 Nh3 Ka1 kj9", side: "w",
			legal: []string{"c3g4", "c3g2", "c3g10", "c3a4", "c3j1"}, illegal: []string{"c3f4", "c3h4"}},
		{name: "C15 demotion is one fixed step", pieces: "Ka1 kj9", pocket: "D:Q", side: "w",
			play: "Q@e5#d", at: map[string]byte{"e5": 'C'}, wantPocket: cfStr(""),
			check: func(t *testing.T, before, _ *Position) {
				var drops []string
				for _, s := range cfTexts(before) {
					if strings.Contains(s, "@e5") {
						drops = append(drops, s)
					}
				}
				if !slices.Equal(drops, []string{"Q@e5#d"}) {
					t.Errorf("drops on e5: %v, want only Q@e5#d", drops)
				}
			}},
		{name: "C16 stalemate is a draw, and pocketing does not escape it", pieces: "Ka1 Pa2 pa3 rb10 kj9", side: "w",
			check: func(t *testing.T, p, _ *Position) {
				if o := p.Outcome(); o.Result != Draw || o.Reason != "stalemate" {
					t.Errorf("outcome %+v, want a draw by stalemate", o)
				}
			}},
		{name: "C17 the Templar Sergeant", pieces: "Ka1 kj9", side: "w",
			check: func(t *testing.T, p, _ *Position) {
				if n := p.Variant().Def(p.Variant().Type('V')).Name; n != "Templar Sergeant" {
					t.Errorf("V is %q", n)
				}
			}},
		{name: "C18 a Berolina pawn splits into two Pawns", pieces: "Ld4 Ka1 kj9", side: "w",
			legal: []string{"d4d5#p"}, illegal: []string{"d4c5#p", "d4d6#p"}, play: "d4d5#p", at: map[string]byte{"d4": 'P', "d5": 'P'}},
		{name: "C18 a Sergeant splits into a Pawn and a Berolina pawn, either moving", pieces: "Sd4 Ka1 kj9", side: "w",
			legal: []string{"d4d5#p", "d4c5#l", "d4e5#l"}, play: "d4e5#l", at: map[string]byte{"d4": 'P', "e5": 'L'}},
		{name: "C19 a Cavalry double-steps and is taken en passant whole", pieces: "Xe3 pd5 Ka1 kj9", side: "w",
			setup: "e3e5", legal: []string{"d5e4"}, play: "d5e4", at: map[string]byte{"e5": '.', "e4": 'p'}, wantPocket: cfStr("S:x")},
		{name: "C19 a Templar double-steps and is taken en passant whole", pieces: "Te3 pf5 Ka1 kj9", side: "w",
			setup: "e3e5", play: "f5e4", at: map[string]byte{"e5": '.', "e4": 'p'}, wantPocket: cfStr("S:t")},
		{name: "C19a a Guard's two-square advance from its 3rd rank gives en passant", pieces: "Ge3 pd5 Ka1 kj9", side: "w",
			setup: "e3e5", legal: []string{"d5e4"}, play: "d5e4", at: map[string]byte{"e5": '.', "e4": 'p'}, wantPocket: cfStr("S:g")},
		{name: "C19 a Pawn split off on its 3rd rank may double-step", pieces: "Gd3 pc5 Ka1 kj9", side: "w",
			setup: "d3d5#p", legal: []string{"c5d4"}, play: "c5d4", at: map[string]byte{"d5": '.', "d3": 'R'}, wantPocket: cfStr("S:p")},
		{name: "C20 a fusion of pawns on the 9th may promote", pieces: "Pd8 Pe9 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"d8e9", "d8e9q#s"}, play: "d8e9q#s", at: map[string]byte{"e9": 'Q', "d8": '.'}, wantPocket: cfStr("")},
		{name: "C20 a fusion into a hybrid on the 10th does not promote", pieces: "Pd9 Re10 Ka1 kj9", pocket: "S:q", side: "w",
			legal: []string{"d9e10"}, illegal: []string{"d9e10q#s"}, play: "d9e10", at: map[string]byte{"e10": 'G'}},
		{name: "C20 a pawn part split off to the 10th must promote", pieces: "Ge9 Ka1 kj7", pocket: "D:q", side: "w",
			legal: []string{"e9e10q#p#d", "e9a9#r"}, illegal: []string{"e9e10#p"}, play: "e9e10q#p#d", at: map[string]byte{"e10": 'Q', "e9": 'R'}},
		{name: "C21 promotion names the opponent's pocket", pieces: "Pe9 Ka1 kj9", pocket: "S:q,D:q", side: "w",
			legal: []string{"e9e10q#s", "e9e10q#d"}, play: "e9e10q#d", wantPocket: cfStr("S:q")},
		{name: "C21 drops name the pocket and the entry kind", pieces: "Ka1 kj9", pocket: "S:Q,D:QQ*", side: "w",
			legal: []string{"Q@e5#s", "Q@e5#d", "Q@e5#d*"}, play: "Q@e5#d*", at: map[string]byte{"e5": 'C'}, wantPocket: cfStr("S:Q,D:Q")},
		{name: "C22 pocketing needs a regular move, not a drop", pieces: "Ka1 Pa2 pa3 rb10 kj9", pocket: "S:N", side: "w",
			legal: []string{"N@e5#s"}, illegal: []string{"a2a2#d"}},
		{name: "C22 pocketing with a regular move", pieces: "Ka1 Pa2 rb10 kj9", pocket: "S:N", side: "w",
			legal: []string{"a2a2#d", "a2a3"}, illegal: []string{"a1a1#d"}, play: "a2a2#d", wantPocket: cfStr("S:N,D:P*")},
	} {
		t.Run(c.name, c.run)
	}
}

// cfCheckDiagram builds the Cold Fusion position of board (see
// diagram_test.go), marks the destinations of the marked piece's ordinary
// moves (special moves left out) and compares them with want.
func cfCheckDiagram(t *testing.T, board, want string) {
	t.Helper()
	v := cfVariant(t, "")
	fen, from := diagramFEN(t, v, board)
	p := mustFEN(t, v, fen)
	g := parseDiagram(t, v, board)
	for _, m := range p.Legal(nil) {
		if m.Kind != KindSpecial && m.From == from {
			g.cells[m.To.Rank()][m.To.File()] = 'x'
		}
	}
	if got, w := g.render(), parseDiagram(t, v, want).render(); got != w {
		t.Errorf("destinations in %s:\ngot:\n%swant:\n%s", fen, got, w)
	}
}

// TestColdFusionPieceDiagrams pins the moves of the pieces Grand Chess
// lacks: the Chariot's turn and the Archbishop's reflection (C14: once,
// not in a corner, the Chariot only before the edge or its own piece,
// each destination one move however many paths reach it), the
// Knightrider, the Berolina pawn, the Sergeant, the royal compounds and
// the hybrids.
func TestColdFusionPieceDiagrams(t *testing.T) {
	for _, c := range []struct{ name, board, want string }{
		{"Chariot: turns at c1, a3 and g3, not at c4 before the enemy pawn", `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . p . . . . . . .
			. . . . . . . . . .
			. .*W . . . . P . .
			. . . . . . . . . .
			K . . . . . . . . .`, `
			x . . . . . x . . k
			x . . . . . x . . .
			x . . . . . x . . .
			x . . . . . x . . .
			x . . . . . x . . .
			x . x . . . x . . .
			x . x . . . x . . .
			x x*W x x x x P . .
			x . x . . . x . . .
			K x x x x x x x x x`},
		{"Archbishop: reflects off a5 and e1, not in the corners a1 and j10", `
			. . . . . . . k . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. .*F . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . K`, `
			. . . . . x . k . x
			. . . . x . . . x .
			. . . x . . . x . .
			. . x . . . x . . .
			. x . . . x . . . x
			x . . . x . . . x .
			. x . x . . . x . .
			. .*F . . . x . . .
			. x . x . x . . . .
			x . . . x . . . . K`},
		{"Knightrider: knight steps in a line, over empty landing squares, up to a piece", `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . P . . . . .
			. .*J . . . . . . .
			. . . . n . . . . .
			K . . . . . . . . .`, `
			. . . . . . . . . k
			. . . . . x . . . .
			. . . . . . . . . .
			x . . . x . . . . .
			. . . . . . . . . .
			. x . x . . . . . .
			x . . . P . . . . .
			. .*J . . . . . . .
			x . . . x . . . . .
			K x . x . . . . . .`},
		{"Berolina pawn: moves diagonally forward, captures straight forward", `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . n . . . . . .
			. . .*L . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			K . . . . . . . . .`, `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . x x x . . . . .
			. . .*L . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			K . . . . . . . . .`},
		{"Sergeant: one square in the three forward directions, moving or capturing", `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . n . P . . . . .
			. . .*S . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			K . . . . . . . . .`, `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . x x P . . . . .
			. . .*S . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			K . . . . . . . . .`},
		{"Dragon King: king and rook, never into check (b9, e1), passing attacked squares", `
			. . . . . . . . . k
			. . . . r . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			.*D . . . . . . . .`, `
			. x . . . . . . . k
			. . . . r . . . . .
			. x . . . . . . . .
			. x . . . . . . . .
			. x . . . . . . . .
			. x . . . . . . . .
			. x . . . . . . . .
			. x . . . . . . . .
			x x x . . . . . . .
			x*D x x . x x x x x`},
		{"Templar: bishop, pawn step and double step from the 3rd rank, diagonal captures", `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . .*T . . . . .
			. . . . . p . . . .
			K . . . . . . . . .`, `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . x
			x . . . . . . . x .
			. x . . . . . x . .
			. . x . x . x . . .
			. . . x x x . . . .
			. . . .*T . . . . .
			. . . x . x . . . .
			K . x . . . . . . .`},
		{"Cavalry: knight, pawn step, double step and diagonal captures", `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . p . . . . . .
			. . . .*X . . . . .
			. . . . . . . . . .
			K . . . . . . . . .`, `
			. . . . . . . . . k
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . x x x . . . .
			. . x x x . x . . .
			. . . .*X . . . . .
			. . x . . . x . . .
			K . . x . x . . . .`},
	} {
		t.Run(c.name, func(t *testing.T) { cfCheckDiagram(t, c.board, c.want) })
	}
}

// TestColdFusionCheck pins check in Cold Fusion: a royal compound is the
// King (it may not move or split into check, and it is checkmated); a
// Chariot's turn and an Archbishop's reflection give check, which forbids
// drops and moves into their paths.
func TestColdFusionCheck(t *testing.T) {
	t.Run("a Pope in check may block by splitting its King part off", func(t *testing.T) {
		// The King part steps to h1 and the Bishop part left on g1 shields it.
		p := cfPos(t, "Og1 Pf2 Pg2 Ph2 ra1 ra10 kj8", "", "w")
		if got := cfTexts(&p); !slices.Equal(got, []string{"g1h1#k"}) {
			t.Errorf("%s: legal %v, want only g1h1#k", p.FEN(), got)
		}
	})
	t.Run("a royal compound is the King: checkmate", func(t *testing.T) {
		// The Pope's King part cannot leave to i1 (the Bishop part left in
		// the corner would not shield it), its Bishop part is walled in.
		p := cfPos(t, "Oj1 Pi2 Pj2 ra1 ra10 kj8", "", "w")
		if o := p.Outcome(); o.Result != BlackWins || o.Reason != "checkmate" {
			t.Errorf("%s: outcome %+v, want Black wins by checkmate", p.FEN(), o)
		}
	})
	t.Run("a Dragon King in check may block by splitting its Rook off", func(t *testing.T) {
		p := cfPos(t, "Dg1 Pf2 Pg2 Ph2 ra1 ra10 kj8", "", "w")
		if !p.InCheck() {
			t.Fatalf("%s: not in check", p.FEN())
		}
		cfExpect(t, &p, []string{"g1f1#r", "g1b1#r"}, []string{"g1a1", "g1f1", "g1h1", "g1f1#k", "g1g1#d"})
	})
	t.Run("a King may not fuse into check", func(t *testing.T) {
		p := cfPos(t, "Kd4 Rd5 rd10 kj9", "", "w")
		cfExpect(t, &p, []string{"d4e4"}, []string{"d4d5"})
	})
	t.Run("a King split off may not step into check", func(t *testing.T) {
		p := cfPos(t, "Dd4 re10 kj9", "", "w")
		cfExpect(t, &p, []string{"d4c5#k", "d4d5#r"}, []string{"d4e5#k", "d4e3#k", "d4e4"})
	})
	t.Run("a Chariot's turn gives check", func(t *testing.T) {
		p := cfPos(t, "Wc3 Ph3 Ka1 kg10", "", "b")
		if !p.InCheck() {
			t.Fatalf("%s: not in check", p.FEN())
		}
		// g9 is on the path from g3; f10 and h10 on the path from c10 (the King on g10 no longer stops it).
		cfExpect(t, &p, []string{"g10f9", "g10h9"}, []string{"g10g9", "g10f10", "g10h10"})
	})
	t.Run("an Archbishop's reflection gives check", func(t *testing.T) {
		p := cfPos(t, "Fc3 Kj1 kc7", "", "b")
		if !p.InCheck() {
			t.Errorf("%s: not in check", p.FEN())
		}
	})
	t.Run("no drops while in check, even one that would block", func(t *testing.T) {
		p := cfPos(t, "Ka1 ra10 kj9", "S:N,D:R*", "w")
		for _, s := range cfTexts(&p) {
			if strings.Contains(s, "@") {
				t.Errorf("%s: drop %s while in check", p.FEN(), s)
			}
		}
		p = cfPos(t, "Ke1 wc8 kj9", "S:N", "w") // a Chariot turning at c1 checks along the first rank
		if !p.InCheck() {
			t.Fatalf("%s: not in check", p.FEN())
		}
		for _, s := range cfTexts(&p) {
			if strings.Contains(s, "@") || s == "e1d1" || s == "e1f1" {
				t.Errorf("%s: %s is legal in check by a turn", p.FEN(), s)
			}
		}
	})
	t.Run("a piece pinned against the King by a turn may not leave", func(t *testing.T) {
		p := cfPos(t, "Ke1 Nd1 wc8 kj9", "", "w")
		cfExpect(t, &p, []string{"e1f2"}, []string{"d1e3", "d1d1#d"})
	})
}

// TestColdFusionPocketing pins pocketing (docs/variants/coldfusion.md): one's own man,
// never a royal one, goes to one's Demotion pocket marked as one's own;
// it must not leave the King in check.
func TestColdFusionPocketing(t *testing.T) {
	p := cfPos(t, "Dd4 Qa4 Pb2 kj9", "", "w")
	cfExpect(t, &p, []string{"a4a4#d", "b2b2#d"}, []string{"d4d4#d"})
	q := mustPlay(t, p, "a4a4#d")
	if got := cfPocketOf(&q); got != "D:Q*" || cfAt(&q, "a4") != '.' {
		t.Errorf("after a4a4#d: %s", q.FEN())
	}
	if q.HalfmoveClock() != 0 {
		t.Errorf("pocketing did not reset the 50-move clock")
	}
	// The pocketed Queen comes back demoted, as White's.
	q = mustPlay(t, q, "j9j10 Q@e5#d*")
	if cfAt(&q, "e5") != 'C' || cfPocketOf(&q) != "" {
		t.Errorf("after the drop: %s", q.FEN())
	}
	// A pinned man may not be pocketed.
	p = cfPos(t, "Ka1 Ra4 ra10 kj9", "", "w")
	cfExpect(t, &p, []string{"a4a5"}, []string{"a4a4#d"})
}

// TestColdFusionFEN pins the FEN of Cold Fusion: compounds by their
// letters, the four pockets with the captured/own mark, round trips with
// equal hashes, the canonical order, and the errors.
func TestColdFusionFEN(t *testing.T) {
	v := cfVariant(t, "")
	for _, c := range []struct{ in, want string }{
		{"r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
			"r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1"},
		{"w8f/1nbqdcabn1/lsggtuvxyz/10/10/10/10/PPPPPPPPPP/1NBQ1CAJN1/R8E[S:QNp,D:RR*b*] b - - 3 7",
			"w8f/1nbqdcabn1/lsggtuvxyz/10/10/10/10/PPPPPPPPPP/1NBQ1CAJN1/R8E[S:QNp,D:RR*b*] b - - 3 7"},
		{"4k5/10/10/10/10/10/10/10/10/4K5[D:b*R*R,S:pNQ] w - - 0 1", "4k5/10/10/10/10/10/10/10/10/4K5[S:QNp,D:RR*b*] w - - 0 1"},
		{"4k5/10/10/10/10/10/10/10/10/4K5[D:I*,S:ZYXVUTIHGSLPJFWACQ] w - - 0 1",
			"4k5/10/10/10/10/10/10/10/10/4K5[S:QCAWFJGHITUVXYZSLP,D:I*] w - - 0 1"},
		{"4k5/10/10/10/10/10/10/10/10/4K5[-] w - - 0 1", "4k5/10/10/10/10/10/10/10/10/4K5[] w - - 0 1"},
	} {
		got := checkFENRoundTrip(t, v, c.in)
		if got != c.want {
			t.Errorf("FEN(ParseFEN(%q)) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, bad := range []string{
		"4k5/10/10/10/10/10/10/10/10/4K5[S:R*] w - - 0 1", // nothing own in the Safe pocket
		"4k5/10/10/10/10/10/10/10/10/4K5[D:P] w - - 0 1",  // a captured pawn never reaches the Demotion pocket
		"4k5/10/10/10/10/10/10/10/10/4K5[S:K] w - - 0 1",  // no royal man in a pocket
		"4k5/10/10/10/10/10/10/10/10/4K5[X:Q] w - - 0 1",  // no pocket X
		"4k5/10/10/10/10/10/10/10/10/4K5[QN] w - - 0 1",   // no section
		"4k5/10/10/10/10/10/10/10/10/4K5[S:Q+] w - - 0 1", // no such mark
		"4k5/10/10/10/10/10/10/10/10/4KD4[] w - - 0 1",    // two royal men
		"4k5/10/10/10/10/10/10/10/10/4K5[S:M] w - - 0 1",  // no piece M
	} {
		if _, err := ParseFEN(v, bad); err == nil {
			t.Errorf("ParseFEN(%q) accepted", bad)
		}
	}
	// A Grand Chess position is the same position in Cold Fusion, and a
	// plain grand FEN is unchanged by the pocket slots.
	grand := mustVariant(t, "grand")
	const g = "r8r/1nbqkcabn1/ppp1pppppp/10/10/2Pp6/10/PP1PPPPPPP/1NBQKCABN1/R8R b - c4 0 3"
	if got := checkFENRoundTrip(t, grand, g); got != g {
		t.Errorf("grand: %q became %q", g, got)
	}
	if got := checkFENRoundTrip(t, v, g); got != strings.Replace(g, "R8R b", "R8R[] b", 1) {
		t.Errorf("coldfusion: %q became %q", g, got)
	}
	// A hybrid's double step leaves an en-passant target that round-trips.
	p := mustPlay(t, cfPos(t, "Te3 pf5 Ka1 kj9", "", "w"), "e3e5")
	if p.EnPassant().String() != "e4" {
		t.Fatalf("after the Templar's double step: %s", p.FEN())
	}
	checkFENRoundTrip(t, v, p.FEN())
	if q := mustFEN(t, v, p.FEN()); q.Hash() != p.Hash() || q.EnPassant() != p.EnPassant() {
		t.Errorf("%s: the en-passant target does not round-trip", p.FEN())
	}
	// So does the target a Pawn split off on its 3rd rank leaves, with the
	// rest of its man on the square it came from.
	p = mustPlay(t, cfPos(t, "Gd3 pc5 Ka1 kj9", "", "w"), "d3d5#p")
	if p.EnPassant().String() != "d4" || cfAt(&p, "d3") != 'R' {
		t.Fatalf("after the split-off Pawn's double step: %s", p.FEN())
	}
	if q := mustFEN(t, v, p.FEN()); q.Hash() != p.Hash() || q.FEN() != p.FEN() {
		t.Errorf("%s: the en-passant target does not round-trip", p.FEN())
	}
	// Different pockets are different positions.
	a, b := cfPos(t, "Ka1 kj9", "D:Q", "w"), cfPos(t, "Ka1 kj9", "D:Q*", "w")
	c := cfPos(t, "Ka1 kj9", "S:Q", "w")
	if a.Hash() == b.Hash() || a.Hash() == c.Hash() || b.Hash() == c.Hash() {
		t.Errorf("pocket entries of different kinds hash alike")
	}
	if a.Pocket(White, v.Type('Q')) != 1 || a.Slot(White, 21) != 1 || v.Drops.Slots[21] != (PocketSlot{Pocket: 'D', Letter: 'Q'}) {
		t.Errorf("Pocket/Slot: %d %d %+v", a.Pocket(White, v.Type('Q')), a.Slot(White, 21), v.Drops.Slots[21])
	}
}

// TestColdFusionMoveTexts pins the canonical text of every kind of Cold
// Fusion move, which ParseMove reads back in any letter case.
func TestColdFusionMoveTexts(t *testing.T) {
	for _, c := range []struct{ pieces, pocket, side, text, friendly string }{
		{"Ra1 Rj1 Ke2 kh10", "", "w", "a1j1", "fusion"},
		{"Qd2 Ke2 kj9", "", "w", "d2d1#r", "split"},
		{"Ne4 Ke2 kj9", "", "w", "e4e4#d", "pocketing"},
		{"Ke2 kj9", "S:Q", "w", "Q@e4#s", "drop from Safe"},
		{"Ke2 kj9", "D:Q", "w", "Q@e4#d", "drop from Demotion"},
		{"Ke2 kj9", "D:Q*", "w", "Q@e4#d*", "drop of one's own"},
		{"Pe9 Ke2 kj9", "S:q", "w", "e9e10q#s", "promotion"},
		{"Pd9 Ke2 kj7 ne10", "D:q", "w", "d9e10q#d", "promotion with capture"},
		{"Pd8 Pe9 Ke2 kj9", "S:q", "w", "d8e9q#s", "fusion that promotes"},
		{"Gd8 Ke2 kj7", "D:q", "w", "d8d9q#p#d", "split that promotes"},
		{"kj9 Ka1", "S:p", "b", "P@e9#s", "Black's drop"},
	} {
		p := cfPos(t, c.pieces, c.pocket, c.side)
		for _, in := range []string{c.text, strings.ToUpper(c.text), " " + otherLetterCase(c.text) + "\n"} {
			m, err := ParseMove(&p, in)
			if err != nil {
				t.Errorf("%s (%s): ParseMove(%q): %v; legal %v", c.friendly, p.FEN(), in, err, cfTexts(&p))
				continue
			}
			if got := FormatMove(&p, m); got != c.text {
				t.Errorf("%s: FormatMove = %q, want %q", c.friendly, got, c.text)
			}
		}
		if err := checkCoordSyntax(c.text); err != nil {
			t.Errorf("%q is not a well-formed coordinate move: %v", c.text, err)
		}
	}
}

// cfSergeantEPGame is the game of issue 12 in which White's Sergeant on h6
// stands next to the en-passant square g7 (Black's last move g8g6).
const cfSergeantEPGame = "i2h4 f9g7#n h4h4#d g7f9 N@h6#d* a10j10 j1c1 b8b6 c1a1 i9j7 d2c1 i8i7 f3f5 j8i7 a1b1#r g8g6"

// cfTemplarEPGame is the game of issue 12 in which White's Templar on e6
// stands next to the en-passant square d7 (Black's last move d8d6).
const cfTemplarEPGame = "d3d4 a8a7 c2e4 a7a6 f3e4 j8j7 e4e5 j7j6 e5e6 d8d6"

// cfBoth checks that p has, from from to to, the en-passant capture (the
// canonical form from+to, friendly form captureSAN) and the quiet step of
// C19b (from+to+"#m", friendly form stepSAN), each read back from both
// forms, and returns the two moves.
func cfBoth(t *testing.T, p *Position, from, to, captureSAN, stepSAN string) (capture, step Move) {
	t.Helper()
	var found int
	for _, m := range p.Legal(nil) {
		switch FormatMove(p, m) {
		case from + to:
			capture = m
			found++
		case from + to + "#m":
			step = m
			found++
		}
	}
	if found != 2 || capture.Kind != KindEnPassant || step.Kind != KindSpecial {
		t.Fatalf("%s: want the en-passant capture %s%s and the quiet step %s%s#m, got %+v and %+v; legal %v",
			p.FEN(), from, to, from, to, capture, step, cfTexts(p))
	}
	for _, c := range []struct {
		m         Move
		canonical string
		friendly  string
	}{{capture, from + to, captureSAN}, {step, from + to + "#m", stepSAN}} {
		if got, err := ParseMove(p, c.canonical); err != nil || got != c.m {
			t.Errorf("%s: ParseMove(%s) = %+v, %v; want %+v", p.FEN(), c.canonical, got, err, c.m)
		}
		if c.m.Kind == KindSpecial {
			if got := p.v.Hooks.FriendlySpecial(p, c.m); got != c.friendly {
				t.Errorf("%s: friendly form of %s is %q, want %q", p.FEN(), c.canonical, got, c.friendly)
			}
		}
	}
	return capture, step
}

// TestColdFusionC19bSergeantQuietStepOntoEPSquare pins C19b with the
// Sergeant of issue 12's game: next to the en-passant square g7 it both
// captures en passant (h6g7, Sxg7: the pawn on g6 goes to the Safe pocket)
// and steps there quietly (h6g7#m, Sg7: g6 stays, a pawn move that resets
// the clock).
func TestColdFusionC19bSergeantQuietStepOntoEPSquare(t *testing.T) {
	p := mustPlay(t, cfVariant(t, "").Start(), cfSergeantEPGame)
	if p.EnPassant().String() != "g7" || cfAt(&p, "h6") != 'S' || cfAt(&p, "g6") != 'p' || cfPocketOf(&p) != "" {
		t.Fatalf("unexpected position %s", p.FEN())
	}
	capture, step := cfBoth(t, &p, "h6", "g7", "Sxg7", "Sg7")
	q, err := p.Play(step)
	if err != nil {
		t.Fatal(err)
	}
	if cfAt(&q, "g7") != 'S' || cfAt(&q, "h6") != '.' || cfAt(&q, "g6") != 'p' || cfPocketOf(&q) != cfPocketOf(&p) || q.HalfmoveClock() != 0 {
		t.Errorf("after the quiet step: %s", q.FEN())
	}
	if q.EnPassant() != NoSquare {
		t.Errorf("after the quiet step the en-passant target is %s", q.EnPassant())
	}
	r, err := p.Play(capture)
	if err != nil {
		t.Fatal(err)
	}
	if cfAt(&r, "g7") != 'S' || cfAt(&r, "g6") != '.' || cfPocketOf(&r) != "S:P" {
		t.Errorf("after the en-passant capture: %s", r.FEN())
	}
	if q.FEN() == r.FEN() {
		t.Error("the capture and the quiet step lead to the same position")
	}
}

// TestColdFusionC19bTemplarQuietStepOntoEPSquare pins C19b with the
// Templar of issue 12's game: next to the en-passant square d7 it captures
// en passant with its pawn part (e6d7, Txd7) and also makes its bishop
// step there (e6d7#m, Td7), which is no pawn move: the clock runs on.
func TestColdFusionC19bTemplarQuietStepOntoEPSquare(t *testing.T) {
	p := mustPlay(t, cfVariant(t, "").Start(), cfTemplarEPGame)
	if p.EnPassant().String() != "d7" || cfAt(&p, "e6") != 'T' {
		t.Fatalf("unexpected position %s", p.FEN())
	}
	_, step := cfBoth(t, &p, "e6", "d7", "Txd7", "Td7")
	q, err := p.Play(step)
	if err != nil {
		t.Fatal(err)
	}
	if cfAt(&q, "d7") != 'T' || cfAt(&q, "d6") != 'p' || q.HalfmoveClock() != 1 {
		t.Errorf("after the bishop step: %s", q.FEN())
	}
}

// TestColdFusionC19bQuietStepFriendlyOrigin pins the friendly form of the
// quiet step when another man of the same kind could also move to the
// en-passant square without capturing: the origin is written as SAN
// disambiguates (the file, here). Both Sergeants also capture en passant.
func TestColdFusionC19bQuietStepFriendlyOrigin(t *testing.T) {
	p := mustPlay(t, cfPos(t, "Sc6 Se6 pd8 Ka1 kj9", "", "b"), "d8d6")
	cfBoth(t, &p, "c6", "d7", "", "Scd7")
	cfBoth(t, &p, "e6", "d7", "", "Sed7")
	// Alone, the Sergeant's step needs no origin.
	p = mustPlay(t, cfPos(t, "Se6 pd8 Ka1 kj9", "", "b"), "d8d6")
	cfBoth(t, &p, "e6", "d7", "", "Sd7")
}

// TestColdFusionC19aGuardDoubleStepGivesEnPassant pins C19a with issue
// 12's position: the Guard's e3e5 (also a rook move) is its pawn part's
// double step, so Black may take it en passant (d5e4), and the FEN keeps
// the target; a rook capture over the same squares gives none, nor does
// a three-square advance.
func TestColdFusionC19aGuardDoubleStepGivesEnPassant(t *testing.T) {
	v := cfVariant(t, "")
	start := mustFEN(t, v, "k9/10/10/10/10/3p6/10/4G5/10/9K w - - 0 1")
	n := 0
	for _, s := range cfTexts(&start) {
		if s == "e3e5" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("e3e5 is listed %d times, want once (the rook move is the double step)", n)
	}
	p := mustPlay(t, start, "e3e5")
	if got, want := p.FEN(), "k9/10/10/10/10/3pG5/10/10/10/9K[] b - e4 0 1"; got != want {
		t.Errorf("after e3e5: %s, want %s (target e4, clock reset)", got, want)
	}
	cfExpect(t, &p, []string{"d5e4"}, nil)
	if q := mustFEN(t, v, p.FEN()); q.EnPassant() != p.EnPassant() || q.Hash() != p.Hash() {
		t.Errorf("FEN round trip of %s lost the en-passant target", p.FEN())
	}
	q := mustPlay(t, p, "d5e4")
	if cfAt(&q, "e5") != '.' || cfAt(&q, "e4") != 'p' || cfPocketOf(&q) != "S:g" {
		t.Errorf("after d5e4: %s, want the whole Guard taken into Black's Safe pocket", q.FEN())
	}
	for _, c := range []struct{ pieces, move string }{
		{"Ge3 ne5 pd5 Ka1 kj9", "e3e5"}, // a capture
		{"Ge3 pd6 Ka1 kj9", "e3e6"},     // three squares
		{"Ge4 pd6 Ka1 kj9", "e4e6"},     // not from the 3rd rank
	} {
		q := mustPlay(t, cfPos(t, c.pieces, "", "w"), c.move)
		if q.EnPassant() != NoSquare {
			t.Errorf("%s in %s gives the en-passant target %s", c.move, c.pieces, q.EnPassant())
		}
	}
	// Black's Guard, from its 3rd rank (the 8th).
	q = mustPlay(t, cfPos(t, "gd8 Pe6 Ka1 kj9", "", "b"), "d8d6")
	cfExpect(t, &q, []string{"e6d7"}, nil)
}

// TestColdFusionC19aPawnPartMovesResetTheClock pins C19a: a quiet move of
// a hybrid that its pawn part could make (a step, the double step) resets
// the move-count clock, whatever else the piece could do; its other quiet
// moves do not.
func TestColdFusionC19aPawnPartMovesResetTheClock(t *testing.T) {
	for _, c := range []struct {
		pieces, move string
		reset        bool
	}{
		{"Gd4 Ka1 kj9", "d4d5", true},  // Guard: Pawn step (also a rook step)
		{"Gd4 Ka1 kj9", "d4d6", false}, // rook move
		{"Gd4 Ka1 kj9", "d4d3", false}, // rook move backwards
		{"Ge3 Ka1 kj9", "e3e5", true},  // Pawn double step (also a rook move)
		{"Td4 Ka1 kj9", "d4d5", true},  // Templar: Pawn step
		{"Td4 Ka1 kj9", "d4e5", false}, // bishop step
		{"Xd4 Ka1 kj9", "d4d5", true},  // Cavalry: Pawn step
		{"Xd4 Ka1 kj9", "d4e6", false}, // knight leap
		{"Hd4 Ka1 kj9", "d4e5", true},  // Berolina Guard: Berolina step
		{"Hd4 Ka1 kj9", "d4d5", false}, // rook step (the Berolina part steps only diagonally)
		{"Vd4 Ka1 kj9", "d4e5", true},  // Templar Sergeant: Sergeant step (also a bishop step)
		{"Vd4 Ka1 kj9", "d4f6", false}, // bishop move
		{"Id4 Ka1 kj9", "d4c5", true},  // Guard Sergeant: Sergeant step
		{"Zd4 Ka1 kj9", "d4d5", true},  // Cavalry Sergeant: Sergeant step
	} {
		p := mustFEN(t, cfVariant(t, ""), strings.Replace(cfFEN(t, c.pieces, "", "w"), " 0 1", " 7 1", 1))
		q := mustPlay(t, p, c.move)
		if want := map[bool]int{true: 0, false: 8}[c.reset]; q.HalfmoveClock() != want {
			t.Errorf("%s in %s: clock %d, want %d", c.move, p.FEN(), q.HalfmoveClock(), want)
		}
	}
}

// TestColdFusionPerft runs testdata/perft/coldfusion.perft (the hand
// counts are in its comments) up to the node limit of TestPerftSuites,
// with the option zone=8 too where it cannot matter (no pawn near its 8th
// rank), and checks that Perft agrees with Divide.
func TestColdFusionPerft(t *testing.T) {
	v := cfVariant(t, "")
	limit := perftLimit()
	for _, c := range loadPerft(t, "coldfusion") {
		p := mustFEN(t, v, c.EPD)
		for _, row := range c.Rows {
			if row.Nodes > limit {
				continue
			}
			if got := Perft(&p, row.Depth); got != row.Nodes {
				var lines []string
				for _, d := range Divide(&p, row.Depth) {
					lines = append(lines, fmt.Sprintf("%s %d", FormatMove(&p, d.Move), d.Nodes))
				}
				t.Errorf("%s: perft %d = %d, want %d\n%s", c.ID, row.Depth, got, row.Nodes, strings.Join(lines, "\n"))
			}
		}
	}
}

// TestColdFusionAgreesWithGrand plays random Grand Chess games (from the
// Grand array and from the array without its compounds) and checks, in
// every position read as Cold Fusion with empty pockets, that the
// ordinary moves agree move for move (same order) with Grand Chess's
// moves without promotion, and that Cold Fusion adds only fusions,
// splits, pocketings and promotions. Where no fusion or split is possible
// the two move lists then differ only by pocketing and promotion.
func TestColdFusionAgreesWithGrand(t *testing.T) {
	grand, cf := mustVariant(t, "grand"), cfVariant(t, "")
	games, plies := 24, 160
	if testing.Short() {
		games = 6
	}
	positions, quiet := 0, 0
	for g := 0; g < games; g++ {
		rng := rand.New(rand.NewPCG(5, uint64(g)))
		start := grand.StartFEN
		if g%2 == 1 {
			start = "r8r/1nb1k2bn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NB1K2BN1/R8R w - - 0 1"
		}
		p := mustFEN(t, grand, start)
		for ply := 0; ply < plies; ply++ {
			gm := p.Legal(nil)
			if len(gm) == 0 {
				break
			}
			q := mustFEN(t, cf, p.FEN())
			var want, got []string
			for _, m := range gm {
				if m.Promotion == NoPieceType {
					want = append(want, FormatMove(&p, m))
				}
			}
			fusions := 0
			for _, m := range q.Legal(nil) {
				switch {
				case m.Kind != KindSpecial:
					got = append(got, FormatMove(&q, m))
				case m.Extra&7 == cfFuse || m.Extra&7 == cfSplit:
					fusions++
				case m.Extra&7 != cfPocket && m.Extra&7 != cfPromote:
					t.Fatalf("%s: unexpected special move %s", q.FEN(), FormatMove(&q, m))
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: ordinary moves differ\ncoldfusion: %v\ngrand:      %v", p.FEN(), got, want)
			}
			positions++
			if fusions == 0 {
				quiet++
			}
			p, _ = p.Play(gm[rng.IntN(len(gm))])
		}
	}
	t.Logf("%d positions compared, %d without fusions or splits", positions, quiet)
	if quiet == 0 {
		t.Errorf("no position without fusions or splits was compared")
	}
}

// cfPlayoutGames overrides the number of games of TestColdFusionPlayouts:
// go test ./rules -run TestColdFusionPlayouts -coldfusion.games 1000
var cfPlayoutGames = flag.Int("coldfusion.games", 0, "games in TestColdFusionPlayouts (0: the default)")

// cfPlayoutDefaultGames and cfPlayoutShortGames size TestColdFusionPlayouts.
const (
	cfPlayoutDefaultGames = 200
	cfPlayoutShortGames   = 60
	cfPlayoutMaxPlies     = 300
	cfReplayEvery         = 5               // every fifth game is replayed from its move texts (ParseMove doubles a game's cost)
	cfTotalWeight         = 2 * (10 + 3*13) // in thirds: ten pawns and thirteen non-pawn atoms a side
)

// cfWeights is the weight in thirds of each piece type, by type.
var cfWeights = func() []int {
	w := []int{0}
	for _, pc := range coldFusionPieces() {
		n := 0
		for _, c := range pc.comp {
			if c == 'P' {
				n++
			} else {
				n += 3
			}
		}
		w = append(w, n)
	}
	return w
}()

// cfWeight returns the weight in thirds of a piece type.
func cfWeight(t PieceType) int { return cfWeights[t] }

// cfMaterial returns the weight in thirds of everything on the board and
// in the pockets of p.
func cfMaterial(p *Position) int {
	v := p.Variant()
	n := 0
	for _, s := range v.Squares() {
		if pc := p.At(s); pc != NoPiece {
			n += cfWeight(pc.Type())
		}
	}
	for i, sl := range v.Drops.Slots {
		n += (p.Slot(White, i) + p.Slot(Black, i)) * cfWeight(v.Type(sl.Letter))
	}
	return n
}

// cfSlotIndex returns the index in Drops.Slots of the entries of letter l
// in pocket with mark.
func cfSlotIndex(v *Variant, pocket, l, mark byte) int {
	for i, sl := range v.Drops.Slots {
		if sl == (PocketSlot{Pocket: pocket, Letter: l, Mark: mark}) {
			return i
		}
	}
	return -1
}

// cfExpectedMove works out, from the rules and independently of the
// variant's hooks, what m does to the pockets (slot index -> change, per
// side) and how much material leaves the game (in thirds).
func cfExpectedMove(p *Position, m Move) (pockets [2]map[int]int, removed int) {
	v := p.Variant()
	us, them := p.ToAct(), p.ToAct().Other()
	pockets = [2]map[int]int{{}, {}}
	letter := func(t PieceType) byte { return v.Def(t).Letter }
	isPawn := func(t PieceType) bool { return v.Def(t).Pawn }
	royal := func(t PieceType) bool { return v.Def(t).Royal }
	capture := func(captor Piece, from, to Square, victim Piece, ep bool) {
		ct, vt := captor.Type(), victim.Type()
		d := int(to) - int(from)
		fwd := mailboxWidth
		if us == Black {
			fwd = -fwd
		}
		comp := coldFusionPieces()[ct-1].comp
		pawns := strings.Count(comp, "P")
		pawnCapture := (pawns == 1 || pawns == 3) && (d == fwd+1 || d == fwd-1) || (pawns == 2 || pawns == 3) && d == fwd
		switch {
		case ep || isPawn(ct) || royal(ct) || pawnCapture:
			pockets[us.index()][cfSlotIndex(v, 'S', letter(vt), 0)]++
		case isPawn(vt):
			removed += cfWeight(vt)
		default:
			pockets[us.index()][cfSlotIndex(v, 'D', letter(vt), 0)]++
		}
	}
	promote := func(leaves int) {
		removed += leaves
		pocket := byte('S')
		if m.Extra>>cfKindBits == cfDemoted {
			pocket = 'D'
		}
		pockets[them.index()][cfSlotIndex(v, pocket, letter(m.Promotion), 0)]--
	}
	switch {
	case m.Kind == KindNormal && p.At(m.To) != NoPiece:
		capture(p.At(m.From), m.From, m.To, p.At(m.To), false)
	case m.Kind == KindEnPassant:
		capture(p.At(m.From), m.From, m.To, p.At(p.epVictim), true)
	case m.Kind != KindSpecial:
	case m.Extra&7 == cfPromote:
		if p.At(m.To) != NoPiece {
			capture(p.At(m.From), m.From, m.To, p.At(m.To), false)
		}
		promote(cfWeight(p.At(m.From).Type()))
	case m.Extra&7 == cfFuse && m.Promotion != NoPieceType:
		promote(cfWeight(p.At(m.From).Type()) + cfWeight(p.At(m.To).Type()))
	case m.Extra&7 == cfSplit && m.Promotion != NoPieceType:
		promote(cfWeight(m.Drop))
	case m.Extra&7 == cfPocket:
		pockets[us.index()][cfSlotIndex(v, 'D', letter(p.At(m.From).Type()), '*')]++
	case m.Extra&7 == cfDrop:
		kind := m.Extra >> cfKindBits
		pocket, mark := byte('S'), byte(0)
		if kind != cfSafe {
			pocket = 'D'
		}
		if kind == cfOwn {
			mark = '*'
		}
		pockets[us.index()][cfSlotIndex(v, pocket, letter(m.Drop), mark)]--
		if kind != cfSafe {
			// One step down the chain, or a hybrid's last pawn off.
			landed := cfDemotedLetter(letter(m.Drop))
			removed += cfWeight(m.Drop) - cfWeight(v.Type(landed))
		}
	}
	return pockets, removed
}

// cfDemotedLetter is the demotion of docs/variants/coldfusion.md, written out for the
// tests: the chain for pieces without a pawn part, one pawn less for
// hybrids.
func cfDemotedLetter(l byte) byte {
	const chain, hybrids, less = "QCAWFJRBNSLPP", "GHITUVXYZ", "RGHBTUNXY"
	if i := strings.IndexByte(hybrids, l); i >= 0 {
		return less[i]
	}
	return chain[strings.IndexByte(chain, l)+1]
}

// TestColdFusionPlayouts plays seeded random games (math/rand/v2 PCG) of
// up to 300 plies, 1000 by default (-short: 60; -coldfusion.games N), on
// two goroutines, and checks after every move: the pockets changed exactly
// as the rules say (cfExpectedMove, an independent reading of the capture
// routing, promotion, pocketing and drops); all material is accounted for
// (the weight on the board and in the pockets plus the weight that left
// the game is 98 thirds); each side has exactly one royal man, where the
// position says; the FEN round-trips with an equal hash. At the end of
// every fifth game, replaying the canonical move texts from the start
// reproduces the final position.
func TestColdFusionPlayouts(t *testing.T) {
	v := cfVariant(t, "")
	games := cfPlayoutDefaultGames
	switch {
	case *cfPlayoutGames > 0:
		games = *cfPlayoutGames
	case testing.Short():
		games = cfPlayoutShortGames
	}
	const workers = 2
	var mu sync.Mutex
	stats := map[string]int{}
	t.Run("games", func(t *testing.T) {
		for w := 0; w < workers; w++ {
			t.Run(fmt.Sprint(w), func(t *testing.T) {
				t.Parallel()
				local := map[string]int{}
				for g := w; g < games && !t.Failed(); g += workers {
					cfPlayout(t, v, g, local)
				}
				mu.Lock()
				for k, n := range local {
					stats[k] += n
				}
				mu.Unlock()
			})
		}
	})
	t.Logf("%d games: %v", games, stats)
}

// cfPlayout plays and checks game number seed, counting what happened in stats.
func cfPlayout(t *testing.T, v *Variant, seed int, stats map[string]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(seed)))
	p := v.Start()
	removed := 0
	var texts []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("game %d, ply %d, %s: %s\nmoves: %s", seed, len(texts), p.FEN(), fmt.Sprintf(format, args...), strings.Join(texts, " "))
	}
	for len(texts) < cfPlayoutMaxPlies {
		moves := p.Legal(nil)
		if len(moves) == 0 {
			o := p.Outcome()
			if !o.Over() || (o.Reason == "checkmate") != p.InCheck() {
				fail("no moves, outcome %+v, in check %v", o, p.InCheck())
			}
			stats["end: "+string(o.Reason)]++
			break
		}
		m := moves[rng.IntN(len(moves))]
		want, rem := cfExpectedMove(&p, m)
		text := FormatMove(&p, m)
		var next Position
		if len(texts)%50 == 0 {
			var err error
			if next, err = p.Play(m); err != nil {
				fail("Play(%s): %v", text, err)
			}
		} else {
			next, _ = p.After(m)
		}
		texts = append(texts, text)
		stats[cfKindName(m)]++
		removed += rem
		for c := White; c <= Black; c++ {
			for i := range v.Drops.Slots {
				if d := next.Slot(c, i) - p.Slot(c, i); d != want[c.index()][i] {
					fail("%s: %s's pocket slot %c:%c%c changed by %d, want %d", text, c, v.Drops.Slots[i].Pocket, v.Drops.Slots[i].Letter, v.Drops.Slots[i].Mark, d, want[c.index()][i])
				}
			}
		}
		if n := cfMaterial(&next) + removed; n != cfTotalWeight {
			fail("%s: %d thirds on the board, in pockets and out of the game, want %d", text, n, cfTotalWeight)
		}
		for c := White; c <= Black; c++ {
			royals := 0
			for _, s := range v.Squares() {
				if pc := next.At(s); pc.Color() == c && v.Def(pc.Type()).Royal {
					royals++
					if next.royal[c.index()] != s {
						fail("%s: %s's royal man on %s, the position says %s", text, c, s, next.royal[c.index()])
					}
				}
			}
			if royals != 1 {
				fail("%s: %s has %d royal men", text, c, royals)
			}
		}
		fen := next.FEN()
		q, err := ParseFEN(v, fen)
		if err != nil || q.FEN() != fen || q.Hash() != next.Hash() {
			fail("%s: FEN %q does not round-trip: %v", text, fen, err)
		}
		p = next
	}
	if len(texts) == cfPlayoutMaxPlies {
		stats["end: ply cap"]++
	}
	if seed%cfReplayEvery != 0 {
		return
	}
	stats["replayed"]++
	r := v.Start()
	for i, s := range texts {
		m, err := ParseMove(&r, s)
		if err != nil {
			t.Fatalf("game %d replay ply %d: %v", seed, i+1, err)
		}
		r, _ = r.After(m)
	}
	if r.FEN() != p.FEN() || r.Hash() != p.Hash() {
		t.Fatalf("game %d: the replay ends in %s, the game in %s", seed, r.FEN(), p.FEN())
	}
}

// cfKindName names the kind of a move for the play-out statistics.
func cfKindName(m Move) string {
	if m.Kind != KindSpecial {
		return "ordinary"
	}
	names := map[uint8]string{cfFuse: "fusion", cfSplit: "split", cfPocket: "pocketing", cfDrop: "drop", cfPromote: "promotion"}
	name := names[m.Extra&7]
	if m.Promotion != NoPieceType && m.Extra&7 != cfPromote {
		name += "+promotion"
	}
	return name
}

// TestColdFusionMalformedInput feeds the hooks what no legal move list
// holds (random special moves through Position.After and FormatMove,
// mangled FENs and move texts) in positions of random games: nothing may
// panic, a mangled FEN that parses round-trips, and a text ParseMove
// accepts names a legal move.
func TestColdFusionMalformedInput(t *testing.T) {
	v := cfVariant(t, "")
	rng := rand.New(rand.NewPCG(11, 3))
	p := v.Start()
	sq := func() Square {
		if rng.IntN(8) == 0 {
			return Square(rng.IntN(256))
		}
		return NewSquare(rng.IntN(10), rng.IntN(10))
	}
	for ply := 0; ply < 400; ply++ {
		moves := p.Legal(nil)
		if len(moves) == 0 {
			p = v.Start()
			continue
		}
		for i := 0; i < 20; i++ {
			m := Move{From: sq(), To: sq(), Kind: KindSpecial, Extra: uint8(rng.IntN(256)),
				Promotion: PieceType(rng.IntN(cfTypes + 1)), Drop: PieceType(rng.IntN(cfTypes + 1))}
			if q, ok := p.After(m); ok {
				_ = q.FEN()
			}
			_ = FormatMove(&p, m)
		}
		fen := []byte(p.FEN())
		for i := 0; i < 3; i++ {
			const junk = "PLSNBRQACKDOEWFJGHITUVXYZplsnbrqackdoewfjghituvxyz123456789/[]:,*- "
			fen[rng.IntN(len(fen))] = junk[rng.IntN(len(junk))]
		}
		if q, err := ParseFEN(v, string(fen)); err == nil {
			checkFENRoundTrip(t, v, string(fen))
			q.Legal(nil)
			q.Outcome()
		}
		text := FormatMove(&p, moves[rng.IntN(len(moves))])
		b := []byte(text)
		const chars = "abcdefghij0123456789#@*sdqrnbkpl"
		b[rng.IntN(len(b))] = chars[rng.IntN(len(chars))]
		if m, err := ParseMove(&p, string(b)); err == nil {
			if _, err := p.Play(m); err != nil {
				t.Fatalf("%s: ParseMove(%q) accepted a move Play refuses: %v", p.FEN(), b, err)
			}
		}
		p, _ = p.After(moves[rng.IntN(len(moves))])
	}
}

// TestColdFusionClockAndDraws pins the ends by rule: two bare Kings with
// empty pockets are a dead position, and which moves reset the 50-move
// clock (captures, pawn-kind moves including fusions, promotions and
// split-off pawn parts, a hybrid's pawn-part step (C19a), pawn-kind drops,
// pocketings; not a hybrid's other moves or another split, fusion or
// drop).
func TestColdFusionClockAndDraws(t *testing.T) {
	p := cfPos(t, "Ke1 kj9", "", "w")
	if o := p.Outcome(); o.Result != Draw || o.Reason != "insufficient material" {
		t.Errorf("bare Kings: outcome %+v", o)
	}
	if p = cfPos(t, "Ke1 kj9", "D:P*", "w"); p.Outcome().Over() {
		t.Errorf("bare Kings with a pawn in hand: %+v", p.Outcome())
	}
	for _, c := range []struct {
		pieces, pocket, move string
		reset                bool
	}{
		{"Gd4 Ka1 kj9", "", "d4d5", true}, // the Guard's pawn step (C19a)
		{"Gd4 Ka1 kj9", "", "d4d5#p", true},
		{"Gd4 Ka1 kj9", "", "d4d6#r", false},
		{"Pd4 Re5 Ka1 kj9", "", "d4e5", true},
		{"Ra4 Re4 Ka1 kj9", "", "a4e4", false},
		{"Ra4 Ka1 kj9", "", "a4a4#d", true},
		{"Ka1 kj9", "S:P", "P@e4#s", true},
		{"Ka1 kj9", "S:N", "N@e4#s", false},
		{"Ka1 kj9", "D:N", "N@e4#d", true}, // a Knight from the Demotion pocket lands as a Sergeant
		{"Pe9 Ka1 kj9", "S:q", "e9e10q#s", true},
		{"Rd4 nd7 Ka1 kj9", "", "d4d7", true},
	} {
		p := mustFEN(t, cfVariant(t, ""), strings.Replace(cfFEN(t, c.pieces, c.pocket, "w"), " 0 1", " 7 1", 1))
		q := mustPlay(t, p, c.move)
		if want := map[bool]int{true: 0, false: 8}[c.reset]; q.HalfmoveClock() != want {
			t.Errorf("%s in %s: clock %d, want %d", c.move, p.FEN(), q.HalfmoveClock(), want)
		}
	}
}

// TestColdFusionArtAndLegend pins the drawing names and legends derived
// from each piece's components: a compound is drawn by its parts and its
// legend says what it is fused from (the pawn part by its number of
// pawns); a piece of one part has no legend but "your King" for the King;
// the Queen is drawn as a Queen.
func TestColdFusionArtAndLegend(t *testing.T) {
	v := cfVariant(t, "")
	for _, c := range []struct {
		letter      byte
		art, legend string
	}{
		{'P', "pawn", ""},
		{'L', "pawn+pawn", "two Pawns fused"},
		{'S', "pawn+pawn+pawn", "three Pawns fused"},
		{'Q', "queen", "a Rook and a Bishop fused"},
		{'C', "rook+knight", "a Rook and a Knight fused"},
		{'K', "king", "your King"},
		{'O', "king+bishop", "your King; a King and a Bishop fused"},
		{'W', "rook+rook", "two Rooks fused; may also turn 90° once, at the last empty square before the edge or an own piece, and go on as a Rook"},
		{'G', "rook+pawn", "a Rook and a Pawn fused"},
		{'H', "rook+pawn+pawn", "a Rook and a Berolina pawn fused"},
		{'V', "bishop+pawn+pawn+pawn", "a Bishop and a Sergeant fused"},
		{'Y', "knight+pawn+pawn", "a Knight and a Berolina pawn fused"},
	} {
		d := v.Def(v.Type(c.letter))
		if d.Art != c.art || d.Legend != c.legend {
			t.Errorf("%c %s: art %q, legend %q; want %q, %q", c.letter, d.Name, d.Art, d.Legend, c.art, c.legend)
		}
	}
}
