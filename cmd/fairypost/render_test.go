package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// decodePNG decodes the PNG file at path or fails the test.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func TestRenderPNG(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	white := filepath.Join(dir, "white.png")
	black := filepath.Join(dir, "black.png")
	moves := "e4 d5 exd5 Qxd5 Nc3 Qa5"
	if out := mustRun(t, "render", "-variant", "crazyhouse", "-moves", moves, "-o", white); out != "" {
		t.Errorf("stdout %q, want nothing", out)
	}
	mustRun(t, "render", "-variant", "crazyhouse", "-moves", moves, "-flip", "-o", black)
	wi, bi := decodePNG(t, white), decodePNG(t, black)
	if wi.Bounds().Dx() != 800 || wi.Bounds().Dy() <= 800 {
		t.Errorf("default image %v, want 800 wide and taller than wide (status, pockets)", wi.Bounds())
	}
	if wi.Bounds() != bi.Bounds() {
		t.Errorf("-flip changed the size: %v and %v", wi.Bounds(), bi.Bounds())
	}
	same := true
	for y := wi.Bounds().Min.Y; y < wi.Bounds().Max.Y && same; y += 7 {
		for x := wi.Bounds().Min.X; x < wi.Bounds().Max.X; x += 7 {
			if wi.At(x, y) != bi.At(x, y) {
				same = false
				break
			}
		}
	}
	if same {
		t.Error("-flip drew the same image")
	}

	small := filepath.Join(dir, "small.png")
	mustRun(t, "render", "-variant", "grand", "-size", "360", "-o", small)
	if got := decodePNG(t, small).Bounds().Dx(); got != 360 {
		t.Errorf("-size 360: width %d", got)
	}
	// Rendering again replaces the file.
	mustRun(t, "render", "-variant", "grand", "-size", "400", "-o", small)
	if got := decodePNG(t, small).Bounds().Dx(); got != 400 {
		t.Errorf("-size 400 over an existing file: width %d", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestRenderStdout(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "render", "-variant", "tank", "-moves", "h1g2 a8a8", "-o", "-")
	img, err := png.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatalf("-o - did not write a PNG: %v", err)
	}
	if img.Bounds().Dx() != 800 {
		t.Errorf("width %d", img.Bounds().Dx())
	}
}

func TestRenderGIF(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "game.GIF")
	mustRun(t, "render", "-variant", "chess", "-moves", "f3 e5 g4 Qh4#", "-size", "320", "-o", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	an, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Image) != 5 || an.Config.Width != 320 {
		t.Errorf("%d frames %dx%d; want 5 frames (start and 4 moves), 320 wide", len(an.Image), an.Config.Width, an.Config.Height)
	}
}

// TestRenderEveryVariant draws the start position of every variant
// "fairypost variants" lists, including ones added after this test.
func TestRenderEveryVariant(t *testing.T) {
	t.Parallel()
	var list []variantInfo
	if err := json.Unmarshal([]byte(mustRun(t, "variants", "-json")), &list); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, v := range list {
		path := filepath.Join(dir, v.Key+".png")
		mustRun(t, "render", "-variant", v.Key, "-size", "240", "-o", path)
		if got := decodePNG(t, path).Bounds().Dx(); got != 240 {
			t.Errorf("%s: width %d", v.Key, got)
		}
	}
}

func TestRenderBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "x.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "-variant", "chess"}, "fairypost render: -o FILE.png is required"},
		{[]string{"render", "-variant", "chess", "-o", filepath.Join(dir, "x.jpg")}, "must end in .png or .gif"},
		{[]string{"render", "-variant", "chess", "-o", out, "-size", "10"}, "-size 10 is out of range 160..2400"},
		{[]string{"render", "-variant", "chess", "-o", out, "-size", "big"}, `invalid value "big" for flag -size`},
		{[]string{"render", "-o", out}, "fairypost render: -variant is required"},
		{[]string{"render", "-variant", "shogi", "-o", out}, `unknown variant "shogi"`},
		{[]string{"render", "-variant", "chess", "-fen", "hello", "-o", out}, "bad FEN"},
		{[]string{"render", "-variant", "chess", "-moves", "e4 e4", "-o", out}, `move 2 "e4"`},
		{[]string{"render", "-variant", "chess", "-o", filepath.Join(dir, "no", "such", "dir.png")}, "fairypost render: -o "},
		{[]string{"render", "-variant", "chess", "-o", out, "extra"}, `unexpected argument "extra"`},
	} {
		checkBadInput(t, run(t, c.args...), c.want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed render left %s behind (%v)", out, err)
	}
}

// TestRenderMarksWholeTurn: the image of render -moves marks every move
// of the last turn, as the bot draws it (render.LastTurn), not only the
// last move.
func TestRenderMarksWholeTurn(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "turn.png")
	moves := "e4 e5 d5 exd5"
	mustRun(t, "render", "-variant", "trainwreck", "-moves", moves, "-size", "300", "-o", out)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	v := reg.Default("trainwreck")
	g := rules.NewGame(v.Start())
	for _, s := range strings.Fields(moves) {
		p := g.Position()
		m, err := notation.ParseMove(&p, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	r, err := render.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	draw := func(opts ...render.Option) []byte {
		var b bytes.Buffer
		if err := r.PNG(&b, g.Position(), append([]render.Option{render.Size(300), render.Outcome(g.Outcome())}, opts...)...); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if !bytes.Equal(got, draw(render.LastTurn(g))) {
		t.Error("render -moves does not draw the whole last turn")
	}
	if bytes.Equal(got, draw(render.Previous(g.PositionAt(3)))) {
		t.Error("render -moves marks only the last move")
	}
}

// TestRenderLongGIFSaysWhatWasCut: a GIF of a game longer than the
// renderer's move budget shows the last moves and says so on stderr.
func TestRenderLongGIFSaysWhatWasCut(t *testing.T) {
	t.Parallel()
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	v := reg.Default("crazyhouse")
	var texts []string
	for seed := uint64(1); seed < 100 && len(texts) < render.GIFMaxMoves+10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		g := rules.NewGame(v.Start())
		texts = texts[:0]
		for len(texts) < render.GIFMaxMoves+10 {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			p := g.Position()
			texts = append(texts, rules.FormatMove(&p, m))
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(texts) < render.GIFMaxMoves+10 {
		t.Fatalf("no random crazyhouse game of %d moves found", render.GIFMaxMoves+10)
	}
	path := filepath.Join(t.TempDir(), "long.gif")
	r := run(t, "render", "-variant", "crazyhouse", "-moves", strings.Join(texts, " "), "-size", "320", "-o", path)
	want := fmt.Sprintf("the game is too long to animate whole: the GIF shows its last %d moves\n", render.GIFMaxMoves)
	if r.code != 0 || r.stderr != want {
		t.Fatalf("exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
}
