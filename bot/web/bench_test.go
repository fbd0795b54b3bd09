package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
)

// longGame makes a finished Cold Fusion game of 300 plies (resigned at
// the end), played through the Service, in a fixture of its own.
func longGame(tb testing.TB, opts web.Options) (*fixture, uint64) {
	tb.Helper()
	f := newFixture(tb, opts)
	g := f.newGame(tb, "coldfusion")
	f.playOn(tb, g.ID, 300)
	if _, err := f.svc.Act(context.Background(), gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, UserID: "bob"}); err != nil {
		tb.Fatal(err)
	}
	return f, g.ID
}

// weight returns the bytes of the page at path with its stylesheet and
// script.
func weight(tb testing.TB, f *fixture, url string) (html, assets int) {
	_, _, body := get(tb, url)
	for _, m := range regexp.MustCompile(`(?:href|src)="(/assets/[^"]+)"`).FindAllStringSubmatch(body, -1) {
		_, _, a := get(tb, f.http.URL+m[1])
		assets += len(a)
	}
	return len(body), assets
}

// TestLongGamePageWeight: the page of a 300-ply Cold Fusion game, with
// its stylesheet and script, is under 50 KB.
func TestLongGamePageWeight(t *testing.T) {
	f, id := longGame(t, web.Options{})
	html, assets := weight(t, f, f.url(id, ""))
	t.Logf("300-ply Cold Fusion page: HTML %d bytes, stylesheet and script %d bytes", html, assets)
	if html+assets >= 50_000 {
		t.Errorf("the page weighs %d bytes with its assets, want under 50 KB", html+assets)
	}
}

// BenchmarkPage loads the page of a 300-ply Cold Fusion game and its
// board (cached after the first load), through the handler, from
// parallel clients: page loads per second.
func BenchmarkPage(b *testing.B) {
	f, id := longGame(b, web.Options{Rate: 1e9, Burst: 1e9})
	page := strings.TrimPrefix(f.url(id, ""), f.http.URL)
	board := page + "/board.png?ply=300"
	serve := func(path string) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, path, nil)
		f.srv.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatalf("%s: %d", path, w.Code)
		}
		io.Copy(io.Discard, w.Body)
	}
	serve(page)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			serve(page)
			serve(board)
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "loads/s")
}

// BenchmarkChromium loads the page of a 300-ply Cold Fusion game in
// chromium (the board drawn and cached on the server already) and steps
// one ply back with the previous board fetched ahead: the load event's
// time (ms), with the time the HTML took to arrive and the board's
// fetch, and the step's, from the key to the frame showing the board;
// and, for the browser's own cost on the machine, the load of the rules
// page (a few lines of text).
func BenchmarkChromium(b *testing.B) {
	f, id := longGame(b, web.Options{})
	br := newBrowser(b)
	var load, html, board, step, baseline float64
	steps := 0
	for range b.N {
		// The browser's own cost on this machine: a page of a few lines.
		br.do(b, chromedp.Navigate(f.http.URL+"/rules/chess"), chromedp.WaitReady(chromedp.CSS("h1")))
		for range 100 {
			if v := eval[float64](b, br, `performance.getEntriesByType("navigation")[0].loadEventEnd`); v > 0 {
				baseline += v
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		br.do(b, chromedp.Navigate(f.url(id, "")), chromedp.WaitReady(chromedp.ID("board")))
		br.waitShown(b, "loaded", func(s shown) bool { return s.Complete })
		load += eval[float64](b, br, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
		html += eval[float64](b, br, `performance.getEntriesByType("navigation")[0].responseEnd`)
		board += eval[float64](b, br, `(performance.getEntriesByType("resource").find(e => e.name.includes("board.png")) || {duration: 0}).duration`)
		// Wait until the board before the last is fetched ahead.
		for range 250 {
			if eval[bool](b, br, `[...document.querySelectorAll("img")].length >= 0 && performance.getEntriesByType("resource").some(e => e.name.includes("ply=299"))`) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		br.do(b, chromedp.KeyEvent(kb.ArrowLeft))
		br.waitShown(b, "stepped", func(s shown) bool { return s.Ply == "299" && s.Complete })
		var st []struct {
			Ms         float64
			Prefetched bool
		}
		for range 100 {
			if st = eval[[]struct {
				Ms         float64
				Prefetched bool
			}](b, br, `window.fpSteps`); len(st) > 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if len(st) > 0 && st[0].Prefetched {
			step += st[0].Ms
			steps++
		}
	}
	b.ReportMetric(load/float64(b.N), "load-ms")
	b.ReportMetric(baseline/float64(b.N), "rules-page-load-ms")
	b.ReportMetric(html/float64(b.N), "html-ms")
	b.ReportMetric(board/float64(b.N), "board-ms")
	if steps > 0 {
		b.ReportMetric(step/float64(steps), "step-ms")
	}
	b.ReportMetric(float64(steps), "prefetched-steps")
}
