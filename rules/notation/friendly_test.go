package notation

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// Positions with the variants' special moves and named castlings.
const (
	fenTankPromo    = "4k3/2P5/2T5/8/8/8/8/M3K3 w - - 0 1"
	fenWinningTwo   = "6k5/12/12/12/12/12/12/5DKD4 w - - 0 1"
	fenTrainWreck   = "r2qk2r/8/8/8/8/8/8/R2QK2R w KQkqHAha - 0 1"
	fenAlmost       = "r2ck2r/8/8/8/8/8/8/R2CK2R w KQkqHAha - 0 1"
	fenEasymate     = "r2qk2r/8/8/8/8/8/8/R2QK2R w KQkqHAha - 0 1"
	fenCFPieces     = "7k2/10/10/10/10/9R/4N5/10/3Q1K4/R8N[D:QQ*] w - - 0 1"
	fenCFPromotions = "5r3k/3LP5/3P6/10/10/10/10/10/10/K9[S:q,D:q] w - - 0 1"
	fenCFSplitPromo = "10/4G5/10/9k/10/10/10/10/10/K9[D:q] w - - 0 1"
	fenCFSergeantEP = "9w/1nbqkcab2/p1pppp1p2/8ln/1p4pS2/5P4/10/PPPPP1PPPP/1NB1KCAB2/RRQ7[] w - g7 0 9"
	fenCFTwoEP      = "10/9k/10/10/2SpS5/10/10/10/10/K9[] w - d7 0 2"
)

// friendlyCases are the friendly texts of the variants' special moves
// (rules.Hooks.FriendlySpecial) and of castlings named by their piece.
var friendlyCases = []struct {
	name, key, opts, fen string
	move                 string // coordinate form
	want                 string // SAN
}{
	{"tank detonation", "tank", "", "", "a1a1", "M*a1"},
	{"tank push", "tank", "", "", "h1g1", "Th1-g1"},
	{"tank push that promotes", "tank", "", fenTankPromo, "c6c7n", "Tc6-c7=N"},
	{"tank push that promotes to a Bomb", "tank", "", fenTankPromo, "c6c7m", "Tc6-c7=M"},
	{"tank quiet step", "tank", "", fenTankPromo, "c6d6", "Td6"},
	{"winning swap as a pre-move", "winning", "", "", "h1g1>", "D~K>"},
	{"winning swap, two Defenders", "winning", "", fenWinningTwo, "f1g1>", "Df1~K>"},
	{"winning swap, the other Defender", "winning", "", fenWinningTwo, "h1g1>", "Dh1~K>"},
	{"train wreck King castling", "trainwreck", "", fenTrainWreck, "e1g1", "O-O"},
	{"train wreck King castling long", "trainwreck", "", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
	{"train wreck Queen castling", "trainwreck", "", "r2q3r/4k3/8/8/8/8/4K3/R2Q3R w HAha - 0 1", "d1f1", "QO-O"},
	{"train wreck Queen castling long", "trainwreck", "", fenTrainWreck, "d1b1", "QO-O-O"},
	{"almost train wreck Chancellor castling", "trainwreck-almost", "", fenAlmost, "d1b1", "CO-O-O"},
	{"easymate Queen castling", "easymate", "queencastle=both", fenEasymate, "d1b1", "QO-O-O"},
	{"easymate King castling", "easymate", "queencastle=both", fenEasymate, "e1g1", "O-O"},
	{"cold fusion fusion", "coldfusion", "", fenCFPieces, "a1j1", "Ra&j1=C"},
	{"cold fusion fusion, other rook", "coldfusion", "", fenCFPieces, "j5j1", "Rj&j1=C"},
	{"cold fusion split", "coldfusion", "", fenCFPieces, "d2f4#b", "Qd2/Bf4"},
	{"cold fusion split of the Rook", "coldfusion", "", fenCFPieces, "d2d5#r", "Qd2/Rd5"},
	{"cold fusion pocketing", "coldfusion", "", fenCFPieces, "e4e4#d", "^Ne4"},
	{"cold fusion drop from Demotion", "coldfusion", "", fenCFPieces, "Q@e5#d", "Q=C@e5"},
	{"cold fusion drop of an own man", "coldfusion", "", fenCFPieces, "Q@e5#d*", "Q*=C@e5"},
	{"cold fusion promotion from Safe", "coldfusion", "", fenCFPromotions, "e9e10q#s", "e10=Q(S)"},
	{"cold fusion promotion from Demotion", "coldfusion", "", fenCFPromotions, "e9e10q#d", "e10=Q(D)"},
	{"cold fusion promotion with a capture", "coldfusion", "", fenCFPromotions, "e9f10q#d", "exf10=Q(D)+"},
	{"cold fusion Berolina promotion", "coldfusion", "", fenCFPromotions, "d9e10q#s", "de10=Q(S)"},
	{"cold fusion fusion of pawns", "coldfusion", "", fenCFPromotions, "d8e9", "P&e9=L"},
	{"cold fusion fusion of pawns that promotes", "coldfusion", "", fenCFPromotions, "d8e9q#s", "P&e9=Q(S)"},
	{"cold fusion split that promotes", "coldfusion", "", fenCFSplitPromo, "e9e10q#p#d", "Ge9/Pe10=Q(D)"},
	{"cold fusion en passant beside the quiet step (C19b)", "coldfusion", "", fenCFSergeantEP, "h6g7", "Sxg7"},
	{"cold fusion quiet step onto the en-passant square (C19b)", "coldfusion", "", fenCFSergeantEP, "h6g7#m", "Sg7"},
	{"cold fusion quiet step with its origin (C19b)", "coldfusion", "", fenCFTwoEP, "c6d7#m", "Scd7"},
	{"cold fusion en passant with its origin (C19b)", "coldfusion", "", fenCFTwoEP, "e6d7", "Sexd7"},
	{"cold fusion safe drop", "coldfusion", "", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[S:N] w - - 0 1", "N@e5#s", "N@e5"},
}

// TestFriendly checks the friendly texts above, that ParseSAN and
// ParseMove read them back, and that every legal move of each position
// has a unique SAN that reads back.
func TestFriendly(t *testing.T) {
	r := newRegistry(t)
	for _, c := range friendlyCases {
		v, err := r.Variant(c.key, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p := v.Start()
		if c.fen != "" {
			if p, err = rules.ParseFEN(v, c.fen); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		m := coordMove(t, &p, c.move)
		if got := SAN(&p, m); got != c.want {
			t.Errorf("%s: SAN(%s) = %q, want %q", c.name, c.move, got, c.want)
		}
		for name, parse := range map[string]func(*rules.Position, string) (rules.Move, error){"ParseSAN": ParseSAN, "ParseMove": ParseMove} {
			if got, err := parse(&p, c.want); err != nil || got != m {
				t.Errorf("%s: %s(%q) = %v, %v; want %s", c.name, name, c.want, got, err, c.move)
			}
		}
		legal := p.Legal(nil)
		all := SANs(&p, legal)
		checkAllMoves(t, &p, legal)
		for i, m := range legal {
			if s := SAN(&p, m); s != all[i] {
				t.Errorf("%s: SANs gives %q, SAN %q", c.name, all[i], s)
			}
			if got, err := ParseMove(&p, all[i]); err != nil || got != m {
				t.Errorf("%s: ParseMove(%q) = %v, %v; want %s", c.name, all[i], got, err, rules.FormatMove(&p, m))
			}
		}
	}
}

// TestFriendlyPlayouts plays seeded random games in the variants with
// special moves or several castlings per side and direction: every move
// played must round-trip through SAN, and in every 8th position all legal
// moves must (with unique SANs).
func TestFriendlyPlayouts(t *testing.T) {
	r := newRegistry(t)
	for vi, c := range []struct{ key, opts string }{
		{"tank", ""}, {"winning", ""}, {"coldfusion", ""}, {"trainwreck", ""},
		{"trainwreck-almost", ""}, {"easymate", "queencastle=both"}, {"annihilation", "dropcapture=on"},
	} {
		t.Run(c.key, func(t *testing.T) {
			t.Parallel()
			v, err := r.Variant(c.key, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(20240612, uint64(vi)))
			for g := 0; g < 30; g++ {
				p := v.Start()
				var buf [512]rules.Move
				for ply := 0; ply < 120; ply++ {
					legal := p.Legal(buf[:0])
					if len(legal) == 0 {
						break
					}
					if ply%8 == 7 {
						checkAllMoves(t, &p, legal)
					}
					m := legal[rng.IntN(len(legal))]
					s := SAN(&p, m)
					if got, err := ParseSAN(&p, s); err != nil || got != m {
						t.Fatalf("game %d ply %d, %s: ParseSAN(%q) = %v, %v; want %s", g, ply, p.FEN(), s, got, err, rules.FormatMove(&p, m))
					}
					if p, err = p.Play(m); err != nil {
						t.Fatalf("game %d ply %d: Play(%s): %v", g, ply, s, err)
					}
				}
			}
		})
	}
}

// TestParseNamedCastling checks the tolerant reading of castlings named
// by their piece, and why one is refused.
func TestParseNamedCastling(t *testing.T) {
	r := newRegistry(t)
	v, err := r.Variant("trainwreck", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParseFEN(v, fenTrainWreck)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"QO-O-O": "d1b1", "Q0-0-0": "d1b1", "qo-o-o": "d1b1", "QO-O-O!": "d1b1",
		"O-O": "e1g1", "KO-O": "e1g1", "0-0": "e1g1",
	} {
		if got, err := ParseSAN(&p, text); err != nil || rules.FormatMove(&p, got) != want {
			t.Errorf("ParseSAN(%q) = %v, %v; want %s", text, got, err, want)
		}
	}
	for text, reason := range map[string]string{
		"QO-O":  "castling QO-O needs e1 empty",
		"O-O-O": "castling O-O-O needs d1 empty",
		"NO-O":  "White has no castling NO-O in Train Wreck Chess",
		"ZO-O":  "Z is not a piece of Train Wreck Chess",
	} {
		_, err := ParseSAN(&p, text)
		if err == nil || !strings.Contains(err.Error(), reason) {
			t.Errorf("ParseSAN(%q): %v; want %q", text, err, reason)
		}
	}
}
