package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// docsDir is the rules pages' directory, seen from this package.
var docsDir = filepath.Join("..", "..", "docs", "variants")

// Diagrams are compared by decoded pixels, as render's golden images are:
// a pixel differs when a channel is more than docsChannelTolerance away,
// and a diagram is stale when more than docsPixelTolerance of its pixels
// differ (font rasterization may round differently on other machines).
const (
	docsChannelTolerance = 24
	docsPixelTolerance   = 0.001
)

// TestDocsPages checks the rules pages: every variant key of the registry
// has docs/variants/KEY.md, linked from the index README.md, which names
// the command that redraws the diagrams; every image a page shows is in
// the diagram list, every listed diagram is shown by a page, and img/
// holds no other PNG; the anchors of a page are unique.
func TestDocsPages(t *testing.T) {
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(docsDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "go run ./cmd/fairypost docs") {
		t.Error("README.md does not name the command that redraws the diagrams")
	}
	diagrams, err := readDiagrams(filepath.Join(docsDir, docsManifest))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, d := range diagrams {
		listed[d.file] = false
	}
	imageRef := regexp.MustCompile(`\(img/([^)\s]+\.png)\)`)
	anchor := regexp.MustCompile(`<a id="([^"]+)"></a>`)
	for _, key := range reg.Keys() {
		page := key + ".md"
		text, err := os.ReadFile(filepath.Join(docsDir, page))
		if err != nil {
			t.Errorf("variant %s has no rules page: %v", key, err)
			continue
		}
		if !strings.Contains(string(index), "("+page+")") {
			t.Errorf("README.md does not link %s", page)
		}
		for _, m := range imageRef.FindAllStringSubmatch(string(text), -1) {
			if _, ok := listed[m[1]]; !ok {
				t.Errorf("%s shows img/%s, which %s does not list", page, m[1], docsManifest)
				continue
			}
			listed[m[1]] = true
		}
		seen := map[string]bool{}
		for _, m := range anchor.FindAllStringSubmatch(string(text), -1) {
			if seen[m[1]] {
				t.Errorf("%s: anchor %q twice", page, m[1])
			}
			seen[m[1]] = true
		}
	}
	for file, shown := range listed {
		if !shown {
			t.Errorf("%s lists %s, which no page shows", docsManifest, file)
		}
	}
	files, err := filepath.Glob(filepath.Join(docsDir, "img", "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, ok := listed[filepath.Base(f)]; !ok {
			t.Errorf("img/%s is not in %s (remove it, or list it)", filepath.Base(f), docsManifest)
		}
	}
}

// TestDocsDiagramsCurrent draws every diagram of the list and compares it
// with the PNG in docs/variants/img.
func TestDocsDiagramsCurrent(t *testing.T) {
	diagrams, err := readDiagrams(filepath.Join(docsDir, docsManifest))
	if err != nil {
		t.Fatal(err)
	}
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, registry: rules.NewRegistry}
	for _, d := range diagrams {
		t.Run(d.file, func(t *testing.T) {
			got, err := d.draw(a)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(docsDir, "img", d.file)
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (draw the diagrams with: go run ./cmd/fairypost docs)", err)
			}
			gi, err := png.Decode(bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			wi, err := png.Decode(bytes.NewReader(want))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if n, total := pixelsDiffering(gi, wi); n < 0 || float64(n) > docsPixelTolerance*float64(total) {
				t.Errorf("%s is stale (%d of %d pixels differ, or the size changed: %v, drawn %v); redraw the diagrams with: go run ./cmd/fairypost docs",
					path, n, total, wi.Bounds(), gi.Bounds())
			}
		})
	}
}

// pixelsDiffering returns how many pixels of a and b differ by more than
// docsChannelTolerance in a channel, and how many there are; -1 when the
// sizes differ.
func pixelsDiffering(a, b image.Image) (n, total int) {
	r := b.Bounds()
	total = r.Dx() * r.Dy()
	if a.Bounds() != r {
		return -1, total
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := color.RGBAModel.Convert(a.At(x, y)).(color.RGBA)
			q := color.RGBAModel.Convert(b.At(x, y)).(color.RGBA)
			if channelDiff(p.R, q.R) > docsChannelTolerance || channelDiff(p.G, q.G) > docsChannelTolerance ||
				channelDiff(p.B, q.B) > docsChannelTolerance || channelDiff(p.A, q.A) > docsChannelTolerance {
				n++
			}
		}
	}
	return n, total
}

func channelDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestDocsCommand runs "fairypost docs" on a small list: it writes the
// listed PNG as "fairypost render" draws it, and refuses a broken list
// or a diagram that cannot be drawn with one line naming it, writing
// nothing.
func TestDocsCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "img"), 0o755); err != nil {
		t.Fatal(err)
	}
	list := "# a comment\n\ntank-push.png | tank | - | 320 | black | - | e4 Th8-g8\n"
	if err := os.WriteFile(filepath.Join(dir, docsManifest), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "docs", "-dir", dir); !strings.Contains(out, "1 diagrams written") {
		t.Errorf("stdout %q", out)
	}
	ref := filepath.Join(dir, "ref.png")
	mustRun(t, "render", "-variant", "tank", "-moves", "e4 Th8-g8", "-flip", "-size", "320", "-o", ref)
	got, want := decodePNG(t, filepath.Join(dir, "img", "tank-push.png")), decodePNG(t, ref)
	if n, _ := pixelsDiffering(got, want); n != 0 {
		t.Errorf("docs drew tank-push.png unlike render (%d pixels differ)", n)
	}
	for _, c := range []struct{ list, want string }{
		{"a.png | chess | - | 480 | white | -\n", "want 7 fields"},
		{"a.png | chess | - | 20 | white | - | -\n", "size"},
		{"a.png | chess | - | 480 | up | - | -\n", `side "up"`},
		{"a.gif | chess | - | 480 | white | - | -\n", "ending in .png"},
		{"../a.png | chess | - | 480 | white | - | -\n", "plain name"},
		{"a.png | chezz | - | 480 | white | - | -\n", "chezz"},
		{"a.png | chess | - | 480 | white | - | e2e5\n", "e2e5"},
		{"a.png | chess | - | 480 | white | - | -\na.png | chess | - | 480 | white | - | e4\n", "already drawn by line 1"},
		{"a.png | chess | - | 480 | white | - | e4\nb.png | chess | - | 480 | white | - | e2e5\n", "b.png (line 2)"},
		{"# nothing\n", "lists no diagrams"},
	} {
		bad := t.TempDir()
		if err := os.Mkdir(filepath.Join(bad, "img"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bad, docsManifest), []byte(c.list), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, "docs", "-dir", bad)
		if r.code != exitBadInput || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("list %q: exit %d, stderr %q; want exit 2 and one line with %q", c.list, r.code, r.stderr, c.want)
		}
		if files, _ := filepath.Glob(filepath.Join(bad, "img", "*.png")); len(files) > 0 {
			t.Errorf("list %q: wrote %v", c.list, files)
		}
	}
}

// docsCheck is a comment of a rules page that states a position and
// moves that must be legal (or not) there:
//
//	<!-- check variant="coldfusion" moves="e5 f6" legal="exf6 e5f6" illegal="Kd1" -->
//
// options and fen may be given too; moves are played from fen (or the
// start). Each legal text must be a legal move written exactly as the bot
// writes it, in the friendly form (check marks optional) or the canonical
// form; each illegal text
// must be refused. outcome, when given, is the result and reason of the
// position reached ("1/2-1/2 repetition").
var docsCheck = regexp.MustCompile(`<!-- check((?:\s+[a-z]+="[^"]*")+)\s*-->`)

// docsAttr reads the key="value" pairs of a check comment.
var docsAttr = regexp.MustCompile(`([a-z]+)="([^"]*)"`)

// TestDocsExamples plays every check comment of the rules pages (see
// docsCheck), so that each example move a page gives is legal, and
// written as the bot writes it, in the position the page states.
func TestDocsExamples(t *testing.T) {
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, registry: func() (*rules.Registry, error) { return reg, nil }}
	pages, err := filepath.Glob(filepath.Join(docsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range docsCheck.FindAllStringSubmatch(string(text), -1) {
			n++
			attrs := map[string]string{}
			for _, kv := range docsAttr.FindAllStringSubmatch(c[1], -1) {
				attrs[kv[1]] = kv[2]
			}
			where := filepath.Base(page) + ": " + c[0]
			pf := positionFlags{variant: attrs["variant"], options: attrs["options"], fen: attrs["fen"], moves: attrs["moves"]}
			g, err := pf.game(a)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			p := g.Position()
			legal := g.Legal()
			for _, s := range strings.Fields(attrs["legal"]) {
				m, err := notation.ParseMove(&p, s)
				switch {
				case err != nil:
					t.Errorf("%s: %s: %v", where, s, err)
				case !slices.Contains(legal, m):
					t.Errorf("%s: %s is not legal once the game is over", where, s)
				case strings.TrimRight(notation.SAN(&p, m), "+#") != strings.TrimRight(s, "+#") && rules.FormatMove(&p, m) != s:
					t.Errorf("%s: %s is written %s (friendly) or %s (canonical)", where, s, notation.SAN(&p, m), rules.FormatMove(&p, m))
				}
			}
			for _, s := range strings.Fields(attrs["illegal"]) {
				if m, err := notation.ParseMove(&p, s); err == nil && slices.Contains(legal, m) {
					t.Errorf("%s: %s is legal", where, s)
				}
			}
			if want, ok := attrs["outcome"]; ok {
				o := g.Outcome()
				if got := strings.TrimSpace(o.Result.String() + " " + string(o.Reason)); got != want {
					t.Errorf("%s: outcome %q, want %q", where, got, want)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no check comments found")
	}
}
