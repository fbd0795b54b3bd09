package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fairypost/fairypost/rules"
	"github.com/fogleman/gg"
)

func TestBadInput(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	chess := reg.Default("chess").Start()
	grand := reg.Default("grand").Start()
	for _, c := range []struct {
		name string
		p    rules.Position
		opts []Option
		want string
	}{
		{"zero position", rules.Position{}, nil, "no variant"},
		{"too small", chess, []Option{Size(MinSize - 1)}, "size 159 px is outside"},
		{"too large", chess, []Option{Size(MaxSize + 1)}, "size 2401 px is outside"},
		{"no perspective", chess, []Option{Perspective(rules.NoColor)}, "perspective"},
		{"previous of another variant", chess, []Option{Previous(grand)}, "another variant"},
		{"zero previous", chess, []Option{Previous(rules.Position{})}, "another variant"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, draw := range []func() error{
				func() error { _, err := r.Image(c.p, c.opts...); return err },
				func() error { return r.PNG(&bytes.Buffer{}, c.p, c.opts...) },
			} {
				err := draw()
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("got %v, want an ErrInvalid mentioning %q", err, c.want)
				}
			}
		})
	}
	if err := r.GIF(&bytes.Buffer{}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("GIF of no game: got %v, want ErrInvalid", err)
	}
	g := rules.NewGame(chess)
	if err := r.GIF(&bytes.Buffer{}, g, Size(10)); !errors.Is(err, ErrInvalid) {
		t.Errorf("GIF with a bad size: got %v, want ErrInvalid", err)
	}
}

// TestCheckPosition covers the checks that positions made by the rules
// engine never fail: a board larger than 12x12 and unknown piece codes.
// rules cannot build such positions (Register refuses the variant), so the
// check is exercised on what a registered variant reports.
func TestCheckPosition(t *testing.T) {
	reg := newTestRegistry(t)
	for _, k := range reg.Keys() {
		if err := checkPosition(reg.Default(k).Start()); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	if err := checkPosition(rules.Position{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero position: %v", err)
	}
}

// TestPieceTableCoversVariants checks that every piece of every
// registered variant, with every value of each option, names a drawing of
// the piece table (rules.PieceDef.Art) rather than falling back to its
// letter. A failure names the piece: add a row to pieceTable (pieces.go).
func TestPieceTableCoversVariants(t *testing.T) {
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	arts := newArtTable()
	for _, k := range reg.Keys() {
		for _, v := range variantsWithOptions(t, reg, k) {
			for _, d := range v.Pieces {
				if _, ok := arts.lookup(d); !ok {
					t.Errorf("variant %s: piece %c %s names the drawing %q, which pieceTable (pieces.go) does not have; it is drawn as its letter", k, d.Letter, d.Name, d.Art)
				}
			}
		}
	}
}

// variantsWithOptions returns variant key with its defaults and with each
// other value of each option.
func variantsWithOptions(tb testing.TB, reg *rules.Registry, key string) []*rules.Variant {
	tb.Helper()
	vs := []*rules.Variant{reg.Default(key)}
	for _, o := range reg.Default(key).Options {
		for _, val := range o.Values[1:] {
			v, err := reg.Variant(key, o.Key+"="+val)
			if err != nil {
				tb.Fatal(err)
			}
			vs = append(vs, v)
		}
	}
	return vs
}

func TestPieceTable(t *testing.T) {
	seen := map[string]bool{}
	for _, row := range pieceTable() {
		if seen[row.key] {
			t.Errorf("%q: two rows", row.key)
		}
		seen[row.key] = true
		if row.art.turn < 0 || row.art.turn > 3 || row.art.copies > 3 || row.art.parts > 3 {
			t.Errorf("%q: turn %d, copies %d, parts %d", row.key, row.art.turn, row.art.copies, row.art.parts)
		}
	}
	arts := newArtTable()
	// The drawing follows the art key alone, whatever the name or Betza.
	if _, ok := arts.lookup(rules.PieceDef{Name: "Berolina pawn", Betza: "mfFcfW"}); ok {
		t.Error("a piece without an art key found a drawing")
	}
	ferz, _ := arts.lookup(rules.PieceDef{Name: "Queen", Betza: "F", Art: "ferz-queen"})
	queen, _ := arts.lookup(rules.PieceDef{Name: "Queen", Betza: "F", Art: "queen"})
	if ferz.marks != marksFerz || queen.marks != 0 || !queen.plain || ferz.plain {
		t.Errorf("ferz-queen: %+v; queen: %+v", ferz, queen)
	}
}

// TestUnknownPiece checks that a piece whose drawing the table does not
// know is drawn (as its letter in a token) and listed in the legend with
// its movement in words, its own legend text last.
func TestUnknownPiece(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	v, err := reg.Variant("fusiontest", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Image(v.Start()); err != nil {
		t.Fatal(err)
	}
	lg := r.legend(v, DefaultSize, shownTypes(v.Start(), nil))
	found := false
	for _, it := range lg.items {
		found = found || it.text == "Z Zebra: "+rules.Describe(it.def) && strings.HasSuffix(it.text, "; leaps 3+2")
	}
	if !found {
		t.Errorf("the legend does not list the Zebra: %+v", lg.items)
	}
	z := r.pieceSprite(rules.PieceDef{Letter: 'Z', Name: "Zebra", Art: "zebra"}, rules.White, 60, false)
	y := r.pieceSprite(rules.PieceDef{Letter: 'Y', Name: "Yak", Art: "yak"}, rules.White, 60, false)
	if bytes.Equal(z.Pix, y.Pix) {
		t.Error("two unknown pieces with different letters look the same")
	}
}

// TestEveryPieceDistinct checks that no two drawings of the piece table
// are the same picture, and that each is well visible.
func TestEveryPieceDistinct(t *testing.T) {
	r := newTestRenderer(t)
	seen := map[string]string{}
	for _, row := range pieceTable() {
		for _, c := range []rules.Color{rules.White, rules.Black} {
			sp := r.pieceSprite(rules.PieceDef{Letter: 'X', Art: row.key}, c, 64, c == rules.Black)
			key := fmt.Sprintf("%v/%x", c, sp.Pix)
			if other, dup := seen[key]; dup {
				t.Errorf("%s and %s look the same (%v)", row.key, other, c)
			}
			seen[key] = row.key
			if opaque := countOpaque(sp); opaque < 64*64/8 {
				t.Errorf("%s (%v): only %d opaque pixels: nearly invisible", row.key, c, opaque)
			}
		}
	}
}

func countOpaque(img *image.RGBA) int {
	n := 0
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] > 128 {
			n++
		}
	}
	return n
}

// play plays moves (canonical or friendly) from the start of variant key.
func play(tb testing.TB, reg *rules.Registry, key, fen, moves string) *rules.Game {
	tb.Helper()
	return goldenCase{name: key, variant: key, fen: fen, moves: moves}.play(tb, reg)
}

func TestLastMoveMarks(t *testing.T) {
	reg := newTestRegistry(t)
	sq := func(s string) rules.Square {
		q, err := rules.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	for _, c := range []struct {
		name, variant, fen, moves string
		want                      map[string]squareMark // every marked square
		ghosts                    string                // squares with a faded removed piece
		off                       string                // squares a piece was pushed off the board from
	}{
		{name: "normal move", variant: "chess", moves: "e4",
			want: map[string]squareMark{"e2": markMove, "e4": markMove}},
		{name: "capture", variant: "chess", moves: "e4 d5 exd5",
			want: map[string]squareMark{"e4": markMove, "d5": markMove}},
		{name: "castling moves the rook too", variant: "chess", moves: "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O",
			want: map[string]squareMark{"e1": markMove, "g1": markMove, "h1": markShift, "f1": markShift}},
		{name: "en passant removes the pawn beside", variant: "chess", moves: "e4 Nf6 e5 d5 exd6",
			want: map[string]squareMark{"e5": markMove, "d6": markMove, "d5": markRemoved}, ghosts: "d5"},
		{name: "drop marks its square", variant: "crazyhouse", moves: "e4 d5 exd5 Qxd5 P@e4",
			want: map[string]squareMark{"e4": markMove}},
		{name: "push moves the line", variant: "tank", fen: "mnbakbnt/ppp2ppp/8/3pp3/4P3/4T3/PPPP1PPP/MNBAK1N1 w - - 0 1", moves: "e3e4",
			want: map[string]squareMark{"e3": markMove, "e4": markMove, "e5": markShift, "e6": markShift}},
		// The Knight from g1 now on h1 moved with the push; the one from
		// h1 left the board there.
		{name: "push off the board", variant: "tank", fen: "4k3/8/8/8/8/8/8/4KTnn w - - 0 1", moves: "f1g1",
			want: map[string]squareMark{"f1": markMove, "g1": markMove, "h1": markShift}, off: "h1"},
		{name: "detonation removes the blast area", variant: "tank", fen: "mnbakbnt/pppp1ppp/8/3np3/3MP3/8/PPPP1PPP/1NBAKBNT w - - 0 1", moves: "d4d4",
			want: map[string]squareMark{"d4": markRemoved, "d5": markRemoved, "e5": markRemoved, "e4": markRemoved,
				"c3": markBlast, "c4": markBlast, "c5": markBlast, "d3": markBlast, "e3": markBlast},
			ghosts: "d4 d5 e5 e4"},
		// The swap moves two pieces: both squares are the move's, and
		// nothing is pushed, shifted or removed.
		{name: "swap marks both squares and nothing else", variant: "winning", moves: "Af3> D~K",
			want: map[string]squareMark{"g8": markMove, "h8": markMove}},
		{name: "diagonal swap", variant: "winning", moves: "h3 h6 Dh2> D~K",
			want: map[string]squareMark{"h2": markMove, "g1": markMove}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, reg, c.variant, c.fen, c.moves)
			n := len(g.Moves())
			prev := g.PositionAt(n - 1)
			mm := lastMoveMarks(g.Position(), &prev)
			got := map[string]squareMark{}
			v := g.Variant()
			for _, s := range v.Squares() {
				if mm.kind[s] != markNone {
					got[s.String()] = mm.kind[s]
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("marks %v, want %v", got, c.want)
			}
			for _, s := range strings.Fields(c.ghosts) {
				if mm.ghost[sq(s)] != prev.At(sq(s)) {
					t.Errorf("%s: ghost %v, want the piece that stood there", s, mm.ghost[sq(s)])
				}
			}
			var off []string
			for _, o := range mm.off {
				off = append(off, o.from.String())
				if o.piece != prev.At(o.from) {
					t.Errorf("pushed off from %s: %v, want the piece that stood there", o.from, o.piece)
				}
			}
			if strings.Join(off, " ") != c.off {
				t.Errorf("pushed off from %q, want %q", off, c.off)
			}
			// Without the previous position only the move's squares.
			cur := g.Position()
			only := lastMoveMarks(cur, nil)
			m := cur.LastMove()
			for _, s := range v.Squares() {
				if want := s == m.From || s == m.To; (only.kind[s] == markMove) != want {
					t.Errorf("without Previous: %s marked %v", s, only.kind[s])
				}
			}
		})
	}
}

// TestTurnMarks: a turn of several moves gets numbered steps in order
// (passes skipped), the opponent's answer its own marks, and a piece
// captured on a square that is occupied at the end is kept, with the
// square its capturer came from; a single move has no steps.
func TestTurnMarks(t *testing.T) {
	reg := newTestRegistry(t)
	marks := func(g *rules.Game) *moveMarks {
		var before []rules.Position
		for i := g.LastTurn(); i < len(g.Moves()); i++ {
			before = append(before, g.PositionAt(i))
		}
		return turnMarks(g.Position(), before)
	}
	steps := func(mm *moveMarks) string {
		var s []string
		for _, st := range mm.steps {
			x := fmt.Sprintf("%d:%s-%s", st.n, st.from, st.to)
			if st.answer {
				x += "(answer)"
			}
			s = append(s, x)
		}
		return strings.Join(s, " ")
	}
	sq := func(s string) rules.Square {
		q, err := rules.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}

	g := play(t, reg, "trainwreck", "", "e4 e5 d5 exd5")
	mm := marks(g)
	if got := steps(mm); got != "1:d7-d5 2:e4-d5" {
		t.Errorf("train wreck steps %q", got)
	}
	before := g.PositionAt(3)
	if pc := mm.taken[sq("d5")]; pc != before.At(sq("d5")) || mm.takenFrom[sq("d5")] != sq("e4") {
		t.Errorf("the Black pawn taken on d5 by White's pawn from e4: %v from %v", pc, mm.takenFrom[sq("d5")])
	}

	g = play(t, reg, "trainwreck-threemove", "", "e4 e5 Nf6 Nc6 Nf3")
	if got := steps(marks(g)); got != "1:g8-f6 2:b8-c6 3:g1-f3" {
		t.Errorf("three-move steps %q", got)
	}

	g = play(t, reg, "winning", "r4kd4r/pppppp2pppp/12/12/12/12/PPPPPPPPPPPP/R4KA4R w - - 0 1", "Af3> Dh7 Ag4")
	mm = marks(g)
	if got := steps(mm); got != "1:g1-f3 2:g8-h7(answer) 3:f3-g4" {
		t.Errorf("winning steps %q", got)
	}
	if mm.kind[sq("h7")] != markAnswer || mm.kind[sq("g8")] != markAnswer || mm.kind[sq("g4")] != markMove {
		t.Errorf("answer squares %v %v, step %v", mm.kind[sq("g8")], mm.kind[sq("h7")], mm.kind[sq("g4")])
	}

	// Black without a Defender: the bot's pass is no step.
	g = play(t, reg, "winning", "r5k4r/pppppp2pppp/12/12/12/12/PPPPPPPPPPPP/R4KA4R w - - 0 1", "Af3> pass Ag4")
	if got := steps(marks(g)); got != "1:g1-f3 2:f3-g4" {
		t.Errorf("steps with a pass %q", got)
	}

	g = play(t, reg, "chess", "", "e4 d5 exd5")
	mm = marks(g)
	if mm.numbered || mm.taken[sq("d5")] == rules.NoPiece {
		t.Errorf("a capture: numbered %v, taken %v", mm.numbered, mm.taken[sq("d5")])
	}

	// The case: Black's swap after White's Attacker step is a
	// swap (a two-headed step), with nothing pushed off the board.
	g = play(t, reg, "winning", "", "Af3> D~K")
	mm = marks(g)
	if got := steps(mm); got != "1:e1-f3 2:h8-g8(answer)" || !mm.steps[1].swap || mm.steps[0].swap || len(mm.off) != 0 {
		t.Errorf("swap in a turn: steps %q, swap %v, pushed off %v", got, mm.steps[1].swap, mm.off)
	}
}

// TestSizes checks that the image width is the size asked for and that the
// whole range of sizes and every board draws.
func TestSizes(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	for _, k := range reg.Keys() {
		for _, size := range []int{MinSize, 333, DefaultSize, 1200} {
			img, err := r.Image(reg.Default(k).Start(), Size(size), Perspective(rules.Black))
			if err != nil {
				t.Fatalf("%s at %d: %v", k, size, err)
			}
			if img.Rect.Dx() != size || img.Rect.Dy() < size/2 {
				t.Errorf("%s at %d: image %v", k, size, img.Rect)
			}
			for i := 3; i < len(img.Pix); i += 4 {
				if img.Pix[i] != 255 {
					t.Fatalf("%s at %d: pixel %d is not opaque", k, size, i/4)
				}
			}
		}
	}
}

// TestConcurrent renders from many goroutines at once (run it with -race)
// and checks that every image is the one a lone render makes.
func TestConcurrent(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	type job struct {
		p    rules.Position
		opts []Option
	}
	// Every third golden case: a mix of variants, sizes and orientations
	// that keeps the test quick under the race detector.
	var jobs []job
	for i, c := range goldenCases(reg) {
		if i%3 != 0 || !c.registered(reg) {
			continue
		}
		g := c.play(t, reg)
		jobs = append(jobs, job{g.Position(), c.options(g)})
	}
	// The reference images, from a separate renderer, one at a time.
	ref := newTestRenderer(t)
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		var b bytes.Buffer
		if err := ref.PNG(&b, j.p, j.opts...); err != nil {
			t.Fatal(err)
		}
		want[i] = b.Bytes()
	}
	const workers, rounds = 8, 2
	var wg sync.WaitGroup
	errs := make(chan error, workers*len(jobs)*rounds)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < rounds*len(jobs); n++ {
				i := (n*7 + w*3) % len(jobs) // each worker its own order
				var b bytes.Buffer
				if err := r.PNG(&b, jobs[i].p, jobs[i].opts...); err != nil {
					errs <- err
					continue
				}
				if !bytes.Equal(b.Bytes(), want[i]) {
					errs <- fmt.Errorf("job %d: a concurrent render differs from the lone one", i)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestGIF checks the frames of a game GIF: one per position, the last held,
// every frame the full size, and the animation showing each position as
// Image draws it.
func TestGIF(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	g := play(t, reg, "tank", "", "e4 e5 h1g2 d5 exd5 a8a8 g2f3 d8d7")
	var b bytes.Buffer
	if err := r.GIF(&b, g, Size(480), Perspective(rules.Black)); err != nil {
		t.Fatal(err)
	}
	an, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	n := len(g.Moves())
	if len(an.Image) != n+1 || len(an.Delay) != n+1 {
		t.Fatalf("%d frames, %d delays; want %d", len(an.Image), len(an.Delay), n+1)
	}
	if an.Delay[n] <= an.Delay[1] || an.LoopCount != 0 {
		t.Errorf("delays %v, loop count %d: want the last frame held, looping", an.Delay, an.LoopCount)
	}
	checkFrames(t, r, g, an, 0, Size(480), Perspective(rules.Black))
}

// checkFrames checks that the frames of an (composited, transparent pixels
// keeping the frame before) show the positions of g from ply first on as
// Image draws them with opts.
func checkFrames(t *testing.T, r *Renderer, g *rules.Game, an *gif.GIF, first int, opts ...Option) {
	t.Helper()
	n := len(g.Moves())
	canvas := image.NewRGBA(image.Rect(0, 0, an.Config.Width, an.Config.Height))
	for k, fr := range an.Image {
		i := first + k
		draw.Draw(canvas, fr.Rect, fr, fr.Rect.Min, draw.Over)
		o := slices.Clip(opts)
		if i > 0 {
			o = append(o, Previous(g.PositionAt(i-1)))
		}
		if i == n {
			o = append(o, Outcome(g.Outcome()))
		}
		want, err := r.Image(g.PositionAt(i), o...)
		if err != nil {
			t.Fatal(err)
		}
		if want.Rect != canvas.Rect {
			t.Fatalf("frame %d: canvas %v, image %v", k, canvas.Rect, want.Rect)
		}
		if _, bad := diffImages(canvas, want); bad > 0 {
			t.Errorf("frame %d (ply %d): %d pixels differ from the position's image", k, i, bad)
		}
	}
}

// TestGIFLongGame checks the budgets of a game GIF on a 3,000-ply game on
// the largest board, asked for at the largest size: at most GIFMaxMoves
// moves (the last ones), the frames within GIFMaxPixels, the file within
// the byte budget, and a GIF that decodes to what WriteGIF reported.
func TestGIFLongGame(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	g := longGame(t, reg, "fusiontest", 3000)
	var b bytes.Buffer
	info, err := r.WriteGIF(&b, g, Size(MaxSize))
	if err != nil {
		t.Fatal(err)
	}
	if info.Plies != 3000 || info.FirstPly != 3000-GIFMaxMoves || info.Frames != GIFMaxMoves+1 || !info.Shortened() {
		t.Errorf("info %+v: want the last %d of 3000 plies", info, GIFMaxMoves)
	}
	if px := info.Frames * info.Width * info.Height; px > GIFMaxPixels || info.Width >= MaxSize || info.Width < GIFMinWidth {
		t.Errorf("%d frames of %dx%d: %d pixels, budget %d", info.Frames, info.Width, info.Height, px, GIFMaxPixels)
	}
	if info.Bytes != b.Len() || b.Len() > DefaultGIFBytes {
		t.Errorf("info says %d bytes, wrote %d; budget %d", info.Bytes, b.Len(), DefaultGIFBytes)
	}
	an, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Image) != info.Frames || an.Config.Width != info.Width || an.Config.Height != info.Height {
		t.Errorf("decoded %d frames of %dx%d, info %+v", len(an.Image), an.Config.Width, an.Config.Height, info)
	}
}

// TestGIFByteBudget checks that a GIF over its byte budget shows the last
// moves that fit (correctly, the first frame a whole position from the
// middle of the game), that a budget too small for even the last move
// writes nothing and says so, and that a budget below the minimum is bad
// input.
func TestGIFByteBudget(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	g := longGame(t, reg, "crazyhouse", 120)
	var whole bytes.Buffer
	all, err := r.WriteGIF(&whole, g, Size(320))
	if err != nil {
		t.Fatal(err)
	}
	if all.FirstPly != 0 || all.Frames != 121 {
		t.Fatalf("without a tight budget: %+v, want all 121 frames", all)
	}
	budget := all.Bytes / 3
	var b bytes.Buffer
	info, err := r.WriteGIF(&b, g, Size(320), GIFBytes(budget))
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() > budget || info.Bytes != b.Len() || info.FirstPly == 0 || info.Frames != 121-info.FirstPly {
		t.Fatalf("budget %d: wrote %d bytes, info %+v", budget, b.Len(), info)
	}
	an, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Image) != info.Frames || an.Delay[len(an.Delay)-1] != gifLastDelay {
		t.Fatalf("%d frames, delays %v; info %+v", len(an.Image), an.Delay, info)
	}
	checkFrames(t, r, g, an, info.FirstPly, Size(320))

	var none bytes.Buffer
	if _, err := r.WriteGIF(&none, g, Size(320), GIFBytes(minGIFBytes)); !errors.Is(err, ErrTooLarge) || none.Len() != 0 {
		t.Errorf("1 KiB budget: err %v, %d bytes written; want ErrTooLarge and nothing", err, none.Len())
	}
	if _, err := r.WriteGIF(&none, g, GIFBytes(10)); !errors.Is(err, ErrInvalid) {
		t.Errorf("10-byte budget: err %v, want ErrInvalid", err)
	}
}

// TestPNGMatchesImage checks that the palette of the PNG loses nothing
// that the golden tolerance would notice.
func TestPNGMatchesImage(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	for _, c := range goldenCases(reg) {
		if !c.registered(reg) {
			continue
		}
		g := c.play(t, reg)
		img, err := r.Image(g.Position(), c.options(g)...)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.PNG(&b, g.Position(), c.options(g)...); err != nil {
			t.Fatal(err)
		}
		dec, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if _, bad := diffImages(dec, img); bad != 0 {
			t.Errorf("%s: %d pixels of the PNG differ from the image", c.name, bad)
		}
	}
}

func TestQuantizerFewColours(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	cols := []color.RGBA{{240, 217, 181, 255}, {181, 136, 99, 255}, {0, 0, 0, 255}, {255, 255, 255, 255}}
	for i := 0; i < 40*30; i++ {
		img.SetRGBA(i%40, i/40, cols[(i/7)%len(cols)])
	}
	var q quantizer
	q.reset()
	q.add(img, img.Rect, 1)
	pal := q.palette(256)
	out := image.NewPaletted(img.Rect, pal)
	q.paletted(img, img.Rect, out)
	if len(pal) != len(cols) {
		t.Errorf("palette of %d colours, want %d", len(pal), len(cols))
	}
	for i := 0; i < 40*30; i++ {
		if got := color.RGBAModel.Convert(out.At(i%40, i/40)); got != cols[(i/7)%len(cols)] {
			t.Fatalf("pixel %d: %v, want %v", i, got, cols[(i/7)%len(cols)])
		}
	}
}

// TestImageAspect checks that images stay within maxAspect (height over
// width; a legend of many kinds gives names alone rather than grow) or,
// when even the names do not fit, that the legend gives names alone: the
// start of every registered variant, positions reached by random play,
// and a Cold Fusion middlegame with ten kinds of fused pieces, at
// Discord's size and the default size.
func TestImageAspect(t *testing.T) {
	reg := newTestRegistry(t)
	r := newTestRenderer(t)
	type pos struct {
		name string
		p    rules.Position
	}
	var ps []pos
	for _, k := range reg.Keys() {
		if k == "fusiontest" {
			continue
		}
		v := reg.Default(k)
		ps = append(ps, pos{k + " start", v.Start()})
		for seed := uint64(1); seed <= 3; seed++ {
			ps = append(ps, pos{fmt.Sprintf("%s seed %d", k, seed), playout(t, v, 80, seed).Position()})
		}
	}
	busy := play(t, reg, "coldfusion", "w3o4r/1n1qx1abj1/pp1lp1sppp/10/3p6/4P5/10/2L2T4/PP1P1GPPPP/W1BQD1ABJ1[S:Nn,D:R*bP*P*] w - - 0 12", "")
	ps = append(ps, pos{"coldfusion compounds", busy.Position()})
	for _, c := range ps {
		for _, size := range []int{400, DefaultSize} {
			img, err := r.Image(c.p, Size(size))
			if err != nil {
				t.Fatal(err)
			}
			if h := img.Rect.Dy(); float64(h) > maxAspect*float64(size)+1 {
				for _, it := range r.legend(c.p.Variant(), size, shownTypes(c.p, nil)).items {
					if strings.Join(it.lines, " ") != entryText(it.def, legendNames) {
						t.Errorf("%s at %d px: %d px tall, %.2f times the width, with %q in the legend", c.name, size, h, float64(h)/float64(size), it.lines)
					}
				}
			}
		}
	}
}

// TestLegendText checks that the legend tells each fairy piece by how it
// moves (rules.Describe) when there is room, and always by name at least
// (never by its letter alone) when saying more would make the image too
// tall.
func TestLegendText(t *testing.T) {
	reg := newTestRegistry(t)
	r := newTestRenderer(t)
	lines := func(p rules.Position) []string {
		var out []string
		for _, it := range r.legend(p.Variant(), 400, shownTypes(p, nil)).items {
			out = append(out, strings.Join(it.lines, " "))
		}
		return out
	}
	w := reg.Default("winning")
	tiger := w.Def(w.Type('T'))
	got := lines(w.Start())
	if want := "T Tiger: " + rules.Describe(tiger); !slices.Contains(got, want) && !slices.Contains(got, "T Tiger") {
		t.Errorf("winning legend %q lacks %q", got, want)
	}
	busy := play(t, reg, "coldfusion", "w3o4r/1n1qx1abj1/pp1lp1sppp/10/3p6/4P5/10/2L2T4/PP1P1GPPPP/W1BQD1ABJ1[S:Nn,D:R*bP*P*] w - - 0 12", "")
	got = lines(busy.Position())
	if len(got) != 10 || !slices.Contains(got, "G Guard") || !slices.Contains(got, "L Berolina pawn") {
		t.Errorf("busy Cold Fusion legend %q, want the 10 fairy kinds by name", got)
	}
	// Grand Chess leaves room for the Cardinal's and the Marshal's words;
	// Cold Fusion's frame (pockets above and below) for names only.
	cf := reg.Default("coldfusion")
	kinds := func(letters string) []string {
		var ts typeSet
		for i := range letters {
			ts |= 1 << cf.Type(letters[i])
		}
		var out []string
		for _, it := range r.legend(cf, 400, ts).items {
			out = append(out, strings.Join(it.lines, " "))
		}
		return out
	}
	g := reg.Default("grand")
	a, c := g.Def(g.Type('A')), g.Def(g.Type('C'))
	if got := lines(g.Start()); !slices.Equal(got, []string{"A Cardinal: " + rules.Describe(a), "C Marshal: " + rules.Describe(c)}) {
		t.Errorf("Grand Chess legend at 400 px: %q, want the Cardinal and the Marshal with their words", got)
	}
	if got := kinds("ACG"); !slices.Equal(got, []string{"A Cardinal", "C Marshal", "G Guard"}) {
		t.Errorf("Cold Fusion legend of A, C and G: %q, want the three by name", got)
	}
}

// TestNumbersCoverNoMark: the numbers of a turn's steps never cover a
// piece drawn small (a capture, a piece pushed off), a badge, another
// number or a swap's arrow, at Discord's width and the default one: the
// issue's diagonal Defender swap put its "2" over a marker.
func TestNumbersCoverNoMark(t *testing.T) {
	r := newTestRenderer(t)
	reg := newTestRegistry(t)
	for _, c := range []struct{ variant, fen, moves string }{
		{"winning", "", "h3 h6 Dh2> D~K"},
		{"winning", "", "Af3> D~K"},
		{"winning", "r4kd4r/pppppp2pppp/12/12/12/12/PPPPPPPPPPPP/R4KA4R w - - 0 1", "Af3> Dh7 Ag4"},
		{"trainwreck", "", "e4 e5 d5 exd5"},
		{"trainwreck-threemove", "", "e4 e5 Nf6 Nc6 Nf3"},
	} {
		g := play(t, reg, c.variant, c.fen, c.moves)
		var before []rules.Position
		for i := g.LastTurn(); i < len(g.Moves()); i++ {
			before = append(before, g.PositionAt(i))
		}
		mm := turnMarks(g.Position(), before)
		if !mm.numbered {
			t.Fatalf("%s %s: the turn has no numbered steps", c.variant, c.moves)
		}
		v := g.Variant()
		for _, size := range []int{400, 800} {
			for _, bottom := range []rules.Color{rules.White, rules.Black} {
				fr := r.frame(v, size, bottom)
				img := image.NewRGBA(fr.img.Rect)
				dc := gg.NewContextForRGBA(img)
				marks := r.drawMarks(dc, img, &fr.lay, v, bottom, mm)
				spots := numberSpots(&fr.lay, v, mm, marks, img.Rect)
				if len(spots) != len(mm.steps) {
					t.Errorf("%s %s: %d numbers for %d steps", c.variant, c.moves, len(spots), len(mm.steps))
				}
				rad := numberRadius(&fr.lay)
				cell := float64(fr.lay.cell)
				for i, sp := range spots {
					b := box(sp.x, sp.y, rad)
					avoid := append([]image.Rectangle(nil), marks...)
					for _, o := range spots[:i] {
						avoid = append(avoid, box(o.x, o.y, rad))
					}
					if st := sp.step; st.swap {
						fx, fy := squareCenter(&fr.lay, st.from)
						tx, ty := squareCenter(&fr.lay, st.to)
						avoid = append(avoid, arrowBounds(fx, fy, tx, ty, cell))
					}
					for _, a := range avoid {
						if b.Overlaps(a) {
							t.Errorf("%s %s at %d px, %s at the bottom: number %d at %v covers %v", c.variant, c.moves, size, bottom, sp.step.n, b, a)
						}
					}
				}
			}
		}
	}
}
