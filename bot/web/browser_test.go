package web_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
)

// browser is a headless chromium driven by chromedp, with the errors its
// pages reported (console errors, exceptions, CSP violations).
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// newBrowser starts Debian's chromium (the chromium package: .ci/run
// installs it), failing tb when it is not installed.
func newBrowser(tb testing.TB) *browser {
	tb.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		tb.Fatalf("chromium is not installed (apt-get install -y chromium): the page is tested in a real browser: %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	tb.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // starts the browser and opens the tab
		tb.Fatal(err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, m.String()+" at "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// do runs actions with a time limit.
func (b *browser) do(tb testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.Fatal(err)
	}
}

// eval evaluates expr in the page.
func eval[T any](tb testing.TB, b *browser, expr string) T {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// call sends a protocol command to the page.
func call[P any](tb testing.TB, b *browser, cmd cdp.Command[P, cdp.Empty], params P) {
	tb.Helper()
	if _, err := chromedp.Call(b.ctx, cmd, params); err != nil {
		tb.Fatal(err)
	}
}

// noErrors fails tb with the errors the pages reported.
func (b *browser) noErrors(tb testing.TB) {
	tb.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		tb.Errorf("the browser reported: %s", e)
	}
	b.errors = nil
}

// shown is what the page shows: the ply in the caption, the board's
// address, whether the board image is loaded and its natural width.
type shown struct {
	Ply, Plies, Src, Search, Alt string
	Complete                     bool
	Width                        int
	Marker                       bool
}

const shownJS = `(() => { const i = document.getElementById("board"); return {
	Ply: document.getElementById("ply").textContent, Plies: document.getElementById("plies").textContent,
	Src: i.getAttribute("src"), Search: location.search, Alt: i.alt, Complete: i.complete, Width: i.naturalWidth,
	Marker: window.fpMarker === 1}; })()`

// waitShown polls the page until ok accepts what it shows (5 s at most).
func (b *browser) waitShown(tb testing.TB, what string, ok func(shown) bool) shown {
	tb.Helper()
	var s shown
	for range 250 {
		s = eval[shown](tb, b, shownJS)
		if ok(s) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Fatalf("%s: the page shows %+v", what, s)
	return s
}

// screenshot takes a screenshot of the whole page width px wide, saves it
// (in $FAIRYPOST_SCREENSHOTS when set, for people to look at) and checks
// that the board is on it: the image's box lies within the width, is at
// least 300 px wide and holds the board's dark and light squares.
func (b *browser) screenshot(tb testing.TB, name string, width int) {
	tb.Helper()
	call(tb, b, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: int64(width), Height: 800, DeviceScaleFactor: 1, Mobile: width < 600})
	b.do(tb, chromedp.Sleep(150*time.Millisecond))
	box := eval[struct{ X, Y, W, H float64 }](tb, b, `(() => { const r = document.getElementById("board").getBoundingClientRect();
			return {X: r.left + scrollX, Y: r.top + scrollY, W: r.width, H: r.height}; })()`)
	shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.Fatal(err)
	}
	dir := os.Getenv("FAIRYPOST_SCREENSHOTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
		tb.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		tb.Fatal(err)
	}
	if box.W < 300 || box.X < 0 || box.X+box.W > float64(width)+0.5 || img.Bounds().Dx() != width {
		tb.Fatalf("%s: the board's box %+v in a page %d px wide (screenshot %v)", name, box, width, img.Bounds())
	}
	// The board's squares are two colours apart: count distinct tones on
	// a line across the middle of the image.
	tones := map[uint32]bool{}
	y := int(box.Y + box.H/2)
	for x := int(box.X) + 2; x < int(box.X+box.W)-2; x += 3 {
		r, g, bl, _ := img.At(x, y).RGBA()
		tones[(r>>12)<<8|(g>>12)<<4|bl>>12] = true
	}
	if len(tones) < 3 {
		tb.Errorf("%s: the board's box %+v holds %d tones across its middle: no board drawn", name, box, len(tones))
	}
	call(tb, b, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
}

// TestBrowser: in chromium, a finished Cold Fusion game is stepped
// through with the keys and by clicks without reloading (the ply shown
// and the board change, the next boards are prefetched), and a Winning
// Chess game in play takes a move played through the Service without
// reloading and without losing the ply shown; no page reports an error;
// the board is on screenshots 360 and 1280 px wide.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		// It runs in the full run (go test ./...); under the race
		// detector's -short run the browser's minute adds nothing the
		// page's own tests do not race-check.
		t.Skip("the browser test runs in the full run, not with -short")
	}
	f := newFixture(t, web.Options{PollInterval: 200 * time.Millisecond})
	cf := f.newGame(t, "coldfusion")
	f.playOn(t, cf.ID, 60)
	if _, err := f.svc.Act(context.Background(), gameplay.ActionRequest{Action: gameplay.ActResign, GameID: cf.ID, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)

	b.do(t, chromedp.Navigate(f.url(cf.ID, "")), chromedp.WaitReady(chromedp.ID("board")), chromedp.Evaluate[chromedp.Void](`window.fpMarker = 1`))
	end := b.waitShown(t, "loaded", func(s shown) bool { return s.Complete && s.Width == web.DefaultBoardSize })
	if end.Ply != "60" || end.Plies != "60" || !strings.Contains(end.Alt, "The game is over.") {
		t.Fatalf("at load: %+v", end)
	}
	step := func(key, wantPly string) shown {
		t.Helper()
		before := b.waitShown(t, "before "+key, func(shown) bool { return true })
		b.do(t, chromedp.KeyEvent(key))
		s := b.waitShown(t, "after "+key, func(s shown) bool { return s.Ply == wantPly && s.Complete && s.Width > 0 })
		if s.Src == before.Src || !s.Marker || s.Search != "?ply="+wantPly && !strings.HasPrefix(s.Search, "?ply="+wantPly+"&") {
			t.Fatalf("after %q: %+v (before: %+v): want a new board at ply %s without a reload", key, s, before, wantPly)
		}
		return s
	}
	step(kb.ArrowLeft, "59")
	step(kb.ArrowLeft, "58")
	step(kb.ArrowRight, "59")
	step(kb.Home, "0")
	step(kb.ArrowRight, "1")
	step(kb.End, "60")
	if s := step("f", "60"); !strings.Contains(s.Src, "flip=1") {
		t.Errorf("f did not turn the board: %s", s.Src)
	}
	step("f", "60")
	b.do(t, chromedp.Click(chromedp.CSS(`#moves a[data-ply="10"]`)))
	s := b.waitShown(t, "after a click on ply 10", func(s shown) bool { return s.Ply == "10" && s.Complete })
	if !s.Marker || s.Search != "?ply=10" {
		t.Errorf("after a click on ply 10: %+v", s)
	}
	b.waitShown(t, "alt texts", func(s shown) bool { return strings.Contains(s.Alt, "White: ") && strings.Contains(s.Alt, "played by") })
	steps := eval[[]struct {
		Ply        int
		Ms         float64
		Prefetched bool
	}](t, b, `window.fpSteps`)
	for _, st := range steps {
		t.Logf("step to ply %d: board shown in %.1f ms (prefetched %v)", st.Ply, st.Ms, st.Prefetched)
	}
	load := eval[float64](t, b, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
	t.Logf("Cold Fusion, 60 plies: load event at %.1f ms", load)
	b.screenshot(t, "coldfusion-1280.png", 1280)
	b.screenshot(t, "coldfusion-360.png", 360)
	b.noErrors(t)

	wg := f.newGame(t, "winning")
	wg = f.playOn(t, wg.ID, 20)
	b.do(t, chromedp.Navigate(f.url(wg.ID, "?ply=12")), chromedp.WaitReady(chromedp.ID("board")), chromedp.Evaluate[chromedp.Void](`window.fpMarker = 1`))
	b.waitShown(t, "the Winning game at ply 12", func(s shown) bool { return s.Ply == "12" && s.Plies == "20" && s.Complete })
	step(kb.ArrowRight, "13")
	f.playOn(t, wg.ID, 1)
	s = b.waitShown(t, "after a move played through the Service", func(s shown) bool { return s.Plies == "21" })
	if s.Ply != "13" || !s.Marker {
		t.Errorf("after the move: %+v, want ply 13 still shown, without a reload", s)
	}
	last := eval[string](t, b, `(document.querySelector('#moves a[data-ply="21"]') || {}).textContent || ""`)
	if last == "" {
		t.Error("the new move is not in the move list")
	}
	step(kb.End, "21")
	b.screenshot(t, "winning-360.png", 360)
	b.screenshot(t, "winning-1280.png", 1280)
	// The dark scheme: the page's colours follow the system's.
	bg := eval[string](t, b, `getComputedStyle(document.body).backgroundColor`)
	call(t, b, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
	if dark := eval[string](t, b, `getComputedStyle(document.body).backgroundColor`); dark == bg {
		t.Errorf("the background is %s in both colour schemes", bg)
	}
	b.screenshot(t, "winning-dark-360.png", 360)
	// Keyboard focus is visible: a focused move has an outline.
	b.do(t, chromedp.Evaluate[chromedp.Void](`document.querySelector('#moves a[data-ply="3"]').focus()`), chromedp.KeyEvent(kb.Tab))
	if outline := eval[string](t, b, `getComputedStyle(document.activeElement).outlineStyle`); outline == "none" {
		t.Errorf("the focused %s has no outline", eval[string](t, b, `document.activeElement.outerHTML`))
	}
	b.noErrors(t)
}
