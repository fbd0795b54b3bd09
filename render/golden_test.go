package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
	"github.com/fogleman/gg"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// Golden images are compared by decoded pixels: a pixel differs when a
// channel is more than goldenChannelTolerance away, and the test fails
// when more than goldenPixelTolerance of the pixels differ (font
// rasterization may round differently on other CPUs). On failure the
// image drawn and a diff image are written to testdata/failed.
const (
	goldenChannelTolerance = 24
	goldenPixelTolerance   = 0.001
)

// newTestRenderer returns a Renderer or stops the test.
func newTestRenderer(tb testing.TB) *Renderer {
	tb.Helper()
	r, err := NewRenderer()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// newTestRegistry returns the registry of every variant, plus the test
// variant "fusiontest" (testRegistryVariant).
func newTestRegistry(tb testing.TB) *rules.Registry {
	tb.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.Register("fusiontest", newFusionTest); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// newFusionTest is a 12x12 variant with drops whose pieces carry the names
// of Cold Fusion's compounds (their moves here are simple stand-ins), and
// one piece the renderer does not know: the largest board, compounds on
// the board and in hand, the letter fallback and the legend.
func newFusionTest(map[string]string) (*rules.Variant, error) {
	return &rules.Variant{
		Key: "fusiontest", Name: "Render test (12x12)", Files: 12, Ranks: 12,
		Help: rules.VariantHelp{Summary: "A render test variant."},
		Pieces: []rules.PieceDef{
			{Letter: 'P', Name: "Pawn", Betza: "fmWfcF", Art: "pawn", Legend: "a pawn", Pawn: true},
			{Letter: 'U', Name: "Berolina pawn", Betza: "fmFfcW", Art: "pawn+pawn", Legend: "2 pawns", Pawn: true},
			{Letter: 'S', Name: "Sergeant", Betza: "fK", Art: "pawn+pawn+pawn", Legend: "3 pawns", Pawn: true},
			{Letter: 'N', Name: "Knight", Betza: "N", Art: "knight", Legend: "a knight"},
			{Letter: 'R', Name: "Rook", Betza: "R", Art: "rook", Legend: "a rook"},
			{Letter: 'B', Name: "Bishop", Betza: "B", Art: "bishop", Legend: "a bishop"},
			{Letter: 'Q', Name: "Queen", Betza: "Q", Art: "queen", Legend: "a queen"},
			{Letter: 'M', Name: "Marshal", Betza: "RN", Art: "rook+knight", Legend: "R+N"},
			{Letter: 'C', Name: "Cardinal", Betza: "BN", Art: "bishop+knight", Legend: "B+N"},
			{Letter: 'H', Name: "Chariot", Betza: "R", Art: "rook+rook", Legend: "R+R"},
			{Letter: 'A', Name: "Archbishop", Betza: "B", Art: "bishop+bishop", Legend: "B+B"},
			{Letter: 'I', Name: "Knightrider", Betza: "NN", Art: "knight+knight", Legend: "N+N"},
			{Letter: 'G', Name: "Guard", Betza: "R", Art: "rook+pawn", Legend: "R+P"},
			{Letter: 'T', Name: "Berolina Templar", Betza: "B", Art: "bishop+pawn+pawn", Legend: "B+P+P"},
			{Letter: 'V', Name: "Cavalry Sergeant", Betza: "N", Art: "knight+pawn+pawn+pawn", Legend: "N+P+P+P"},
			{Letter: 'D', Name: "Dragon King", Betza: "KR", Art: "king+rook", Legend: "K+R, royal", Royal: true},
			{Letter: 'Z', Name: "Zebra", Betza: "N", Art: "zebra", Legend: "leaps 3+2"},
		},
		StartFEN:  "zhmaitgvcqdb/pppppppppppp/uuss8/12/12/12/12/12/12/8SSUU/PPPPPPPPPPPP/ZHMAITGVCQDB[MIGabtv] w - - 0 1",
		Drops:     rules.Drops{Enabled: true},
		CheckRule: true,
	}, nil
}

// goldenCase is one golden image: a position reached by moves, drawn with
// the last move marked.
type goldenCase struct {
	name             string
	variant, fen     string
	moves            string
	perspective      rules.Color
	size             int
	wantInCheck      bool
	wantOver         bool
	wantPhaseContain string
	turn             bool   // mark the whole last turn (LastTurn), not the last move
	status           string // the Status option
}

// goldenCases lists the golden images: the start position of every
// variant in the registry (a variant registered later gets its case, and
// fails until its golden is generated with -update), then the positions
// that show pockets, check, special moves, results and orientation.
func goldenCases(reg *rules.Registry) []goldenCase {
	var cs []goldenCase
	for _, k := range reg.Keys() {
		if k == "fusiontest" {
			continue
		}
		cs = append(cs, goldenCase{name: "start-" + k, variant: k})
	}
	return append(cs,
		goldenCase{name: "start-chess-black", variant: "chess", perspective: rules.Black},
		goldenCase{name: "crazyhouse-pockets", variant: "crazyhouse",
			moves: "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bg4 Bd2 Bxf3 gxf3 Nc6 Bb5 P@d5 Bxc6+ bxc6 N@e5 Qxc3 bxc3"},
		goldenCase{name: "crazyhouse-pockets-black", variant: "crazyhouse", perspective: rules.Black,
			moves: "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bg4 Bd2 Bxf3 gxf3 Nc6 Bb5 P@d5 Bxc6+ bxc6 N@e5 Qxc3 bxc3"},
		goldenCase{name: "chess-check", variant: "chess", moves: "e4 f5 Qh5+", wantInCheck: true},
		goldenCase{name: "chess-check-black", variant: "chess", moves: "e4 f5 Qh5+", perspective: rules.Black, wantInCheck: true},
		goldenCase{name: "chess-castling", variant: "chess", moves: "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O"},
		goldenCase{name: "chess-en-passant", variant: "chess", moves: "e4 Nf6 e5 d5 exd6"},
		goldenCase{name: "chess-mate", variant: "chess", moves: "f3 e5 g4 Qh4#", wantInCheck: true, wantOver: true},
		goldenCase{name: "tank-push", variant: "tank", fen: "mnbakbnt/ppp2ppp/8/3pp3/4P3/4T3/PPPP1PPP/MNBAK1N1 w - - 0 1", moves: "e3e4"},
		goldenCase{name: "tank-detonation", variant: "tank", fen: "mnb1kbnt/ppp2ppp/3p4/2pnp3/3AP3/2N5/PPPP1PPP/MNB1KBNT w - - 0 1", moves: "d4d4"},
		goldenCase{name: "trainwreck-phase", variant: "trainwreck", moves: "e4", wantPhaseContain: "White moves a Black piece"},
		goldenCase{name: "grand-black", variant: "grand", moves: "e5 e6 Nc4", perspective: rules.Black},
		goldenCase{name: "fusiontest-12x12", variant: "fusiontest", moves: "G@f6"},
		goldenCase{name: "fusiontest-crowded-hands", variant: "fusiontest", perspective: rules.Black,
			fen: "zhmaitgvcqdb/pppppppppppp/uuss8/12/12/12/12/12/12/8SSUU/PPPPPPPPPPPP/ZHMAITGVCQDB[PPPUSNRBQMCHAIGTVZpusnrbqmchaigtvvvz] w - - 0 1"},
		goldenCase{name: "chess-small", variant: "chess", moves: "e4 e5", size: 360},
		// At the width Discord shows images: the Tiger, Attacker and
		// Defender, and Cold Fusion's compounds, must read there.
		goldenCase{name: "winning-400", variant: "winning", size: 400},
		goldenCase{name: "coldfusion-400", variant: "coldfusion", size: 400},
		goldenCase{name: "coldfusion-compounds-400", variant: "coldfusion", size: 400,
			fen:   "w3o4r/1n1qx1abj1/pp1lp1sppp/10/3p6/4P5/10/2L2T4/PP1P1GPPPP/W1BQD1ABJ1[S:Nn,D:R*bP*P*] w - - 0 12",
			moves: "e1e2#r"},
		// Compounds on the board and in both pockets of each side, a
		// split (the Dragon King's Rook steps off).
		goldenCase{name: "coldfusion-compounds", variant: "coldfusion",
			fen:   "w3o4r/1n1qx1abj1/pp1lp1sppp/10/3p6/4P5/10/2L2T4/PP1P1GPPPP/W1BQD1ABJ1[S:Nn,D:R*bP*P*] w - - 0 12",
			moves: "e1e2#r"},
		// Whole turns at Discord's size: Black's three moves (the third
		// with White's Knight); Black's pawn, then White's pawn taking it
		// (a capture by the opponent's piece, the victim small in the
		// corner); White's Attacker steps with Black's Defender answer
		// between them; a Tank pushing a Tank off the board.
		goldenCase{name: "threemove-turn", variant: "trainwreck-threemove", moves: "e4 e5 Nf6 Nc6 Nf3", size: 450, turn: true,
			wantPhaseContain: "(first of two)"},
		goldenCase{name: "trainwreck-capture-turn", variant: "trainwreck", moves: "e4 e5 d5 exd5", size: 450, turn: true},
		goldenCase{name: "winning-answer-turn", variant: "winning", fen: "r4kd4r/pppppp2pppp/12/12/12/12/PPPPPPPPPPPP/R4KA4R w - - 0 1",
			moves: "Af3> Dh7 Ag4", size: 450, turn: true},
		goldenCase{name: "annihilation-choice", variant: "annihilation", size: 450,
			status: "Pre-game choice pending: which army to play"},
		goldenCase{name: "tank-push-off-turn", variant: "tank", fen: "mnbakbnt/pppppp1p/6pT/8/8/8/PPPPPPP1/MNBAK1N1 w - - 0 1",
			moves: "h6h7", size: 450, turn: true},
	)
}

// registered reports whether c's variant is in reg: the variants other
// engineers add appear there as they land, and their cases wait for them.
func (c goldenCase) registered(reg *rules.Registry) bool { return reg.Default(c.variant) != nil }

// play builds the game of c.
func (c goldenCase) play(tb testing.TB, reg *rules.Registry) *rules.Game {
	tb.Helper()
	v, err := reg.Variant(c.variant, "")
	if err != nil {
		tb.Fatal(err)
	}
	start := v.Start()
	if c.fen != "" {
		if start, err = rules.ParseFEN(v, c.fen); err != nil {
			tb.Fatal(err)
		}
	}
	g := rules.NewGame(start)
	for _, text := range strings.Fields(c.moves) {
		p := g.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			tb.Fatalf("%s: move %s: %v", c.name, text, err)
		}
		if err := g.Play(m); err != nil {
			tb.Fatalf("%s: move %s: %v", c.name, text, err)
		}
	}
	return g
}

// options returns the render options of c for game g.
func (c goldenCase) options(g *rules.Game) []Option {
	opts := []Option{Outcome(g.Outcome())}
	if n := len(g.Moves()); n > 0 && c.turn {
		opts = append(opts, LastTurn(g))
	} else if n > 0 {
		opts = append(opts, Previous(g.PositionAt(n-1)))
	}
	if c.perspective != rules.NoColor {
		opts = append(opts, Perspective(c.perspective))
	}
	if c.size != 0 {
		opts = append(opts, Size(c.size))
	}
	if c.status != "" {
		opts = append(opts, Status(c.status))
	}
	return opts
}

func TestGolden(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	for _, c := range goldenCases(reg) {
		t.Run(c.name, func(t *testing.T) {
			if !c.registered(reg) {
				t.Skipf("variant %s is not registered", c.variant)
			}
			g := c.play(t, reg)
			p := g.Position()
			if p.InCheck() != c.wantInCheck || g.Outcome().Over() != c.wantOver {
				t.Fatalf("position: check %v, over %v; the case wants %v, %v", p.InCheck(), g.Outcome().Over(), c.wantInCheck, c.wantOver)
			}
			if c.wantPhaseContain != "" && !strings.Contains(p.PhaseName(), c.wantPhaseContain) {
				t.Fatalf("phase %q, want %q", p.PhaseName(), c.wantPhaseContain)
			}
			var buf bytes.Buffer
			if err := r.PNG(&buf, p, c.options(g)...); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, buf.Bytes())
		})
	}
	t.Run("pieces", func(t *testing.T) {
		var buf bytes.Buffer
		if err := png.Encode(&buf, pieceSheet(r, 72)); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "pieces", buf.Bytes())
	})
}

// checkGolden compares the PNG got with testdata/golden/name.png, or
// writes it there with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate the golden image with: go test ./render -run TestGolden -update, then look at it)", err)
	}
	gi, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	wi, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	diff, n := diffImages(gi, wi)
	total := wi.Bounds().Dx() * wi.Bounds().Dy()
	if diff != nil && float64(n) <= goldenPixelTolerance*float64(total) {
		return
	}
	dir := filepath.Join("testdata", "failed")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, name+".png"), got, 0o644)
	if diff != nil {
		var b bytes.Buffer
		if png.Encode(&b, diff) == nil {
			_ = os.WriteFile(filepath.Join(dir, name+"-diff.png"), b.Bytes(), 0o644)
		}
	}
	if gi.Bounds() != wi.Bounds() {
		t.Fatalf("%s: image is %v, golden %v; written to %s", name, gi.Bounds(), wi.Bounds(), dir)
	}
	t.Fatalf("%s: %d of %d pixels differ from the golden image (tolerance %.1f%%); the image and a diff (red = differs) are in %s; if the change is intended, look at them and run go test ./render -run TestGolden -update",
		name, n, total, 100*goldenPixelTolerance, dir)
}

// diffImages returns an image that shows the golden faded and the pixels
// that differ in red, and how many differ; nil when the sizes differ.
func diffImages(got, want image.Image) (*image.RGBA, int) {
	if got.Bounds() != want.Bounds() {
		return nil, -1
	}
	b := want.Bounds()
	out := image.NewRGBA(b)
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := color.RGBAModel.Convert(got.At(x, y)).(color.RGBA)
			w := color.RGBAModel.Convert(want.At(x, y)).(color.RGBA)
			if chanDiff(g.R, w.R) > goldenChannelTolerance || chanDiff(g.G, w.G) > goldenChannelTolerance ||
				chanDiff(g.B, w.B) > goldenChannelTolerance || chanDiff(g.A, w.A) > goldenChannelTolerance {
				n++
				out.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
				continue
			}
			l := uint8((uint16(w.R) + uint16(w.G) + uint16(w.B)) / 6)
			out.SetRGBA(x, y, color.RGBA{l + 100, l + 100, l + 100, 255})
		}
	}
	return out, n
}

func chanDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// pieceSheet draws every drawing of the piece table, White and Black on
// a light and a dark square, with its name; the last row is a drawing the
// table does not know (the piece's letter in a token).
func pieceSheet(r *Renderer, cell int) *image.RGBA {
	rows := pieceTable()
	rows = append(rows, artRow{key: "unknown"})
	const cols = 3
	colW := 4*cell + 200
	h := (len(rows)+cols-1)/cols*cell + 20
	img := image.NewRGBA(image.Rect(0, 0, cols*colW+20, h))
	draw.Draw(img, img.Rect, image.NewUniform(backgroundColor), image.Point{}, draw.Src)
	dc := gg.NewContextForRGBA(img)
	dc.SetFontFace(face(r.fonts.text, 15))
	dc.SetColor(textColor)
	for i, row := range rows {
		x0 := 10 + (i%cols)*colW
		y0 := 10 + (i/cols)*cell
		def := rules.PieceDef{Letter: 'Z', Art: row.key}
		for j := 0; j < 4; j++ {
			sq := image.Rect(x0+j*cell, y0, x0+(j+1)*cell, y0+cell)
			c := lightSquare
			if j%2 == 1 {
				c = darkSquare
			}
			draw.Draw(img, sq, image.NewUniform(c), image.Point{}, draw.Src)
			side := rules.White
			if j >= 2 {
				side = rules.Black
			}
			blit(img, sq.Min, r.pieceSprite(def, side, cell, side == rules.Black))
		}
		dc.DrawStringAnchored(row.key, float64(x0+4*cell+8), float64(y0+cell/2), 0, 0.35)
	}
	return img
}

// TestGoldenFilesUsed fails on a golden image no case produces (left over
// from a renamed case). A start-KEY image of a variant that is not
// registered (yet) is only logged.
func TestGoldenFilesUsed(t *testing.T) {
	names := map[string]bool{"pieces": true}
	for _, n := range tableGoldenNames() {
		names[n] = true
	}
	for _, c := range goldenCases(newTestRegistry(t)) {
		names[c.name] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		n := strings.TrimSuffix(filepath.Base(f), ".png")
		switch {
		case names[n]:
		case strings.HasPrefix(n, "start-"):
			t.Logf("%s: variant %s is not registered", f, strings.TrimPrefix(n, "start-"))
		default:
			t.Errorf("%s is not produced by any golden case; delete it", f)
		}
	}
}
