package command

import (
	"bytes"
	"testing"
)

// forecastShow is alice's "/forecast show number:1" in game id.
func forecastShow(id uint64) Request {
	req := parse("alice", "c1", "/forecast action:show number:1")
	req.Options[optGame] = itoa(id)
	return req
}

// boardPNGOf returns the single PNG of a reply, failing without one.
func boardPNGOf(t *testing.T, what string, r Reply) []byte {
	t.Helper()
	if len(r.Files) != 1 || len(r.Files[0].Data) == 0 {
		t.Fatalf("%s: want one image, got %s", what, show(r))
	}
	return r.Files[0].Data
}

// TestPrivateBoardsNeverServedToOthers is issue 24's privacy bug: the
// image of the end of alice's conditional line once shared the cache key
// of the real board (game, version, side, size), so a spectator's /board
// could show a position that never happened, and /forecast show could
// answer with the real board. In both orders, every other user's /board
// must be byte-identical to the same board drawn by a Handler with an
// empty cache, and the line's board must be the line's end, not the
// current position.
func TestPrivateBoardsNeverServedToOthers(t *testing.T) {
	// "fresh process": a Handler whose first image is the line (the
	// issue's console run); "after the move": the Handler that drew the
	// move's board; "board first": the real boards, then the line.
	for _, order := range []string{"fresh process", "after the move", "board first"} {
		t.Run(order, func(t *testing.T) {
			e := newEnv(t)
			id := e.start("chess")
			e.ok("alice", "/move move:e4 game:"+itoa(id))
			add := parse("alice", "c1", "/forecast action:add")
			add.Options[optLine], add.Options[optGame] = "e5 Nf3 Nc6 Bb5", itoa(id)
			if r := e.h.Execute(e.ctx, add); !r.Ephemeral || r.Text == "" {
				t.Fatalf("/forecast add: %s", show(r))
			}
			// A Handler that has drawn nothing: what each board must be.
			fresh := func() *Handler {
				return New(e.svc, e.h.prefs, Options{BoardSize: 240, GIFSize: 160, Tournaments: e.tours, Ratings: e.rates})
			}
			board := func(h *Handler, user string) []byte {
				return boardPNGOf(t, user+"'s /board", h.Execute(e.ctx, parse(user, "c1", "/board game:"+itoa(id))))
			}
			line := func(h *Handler) []byte {
				r := h.Execute(e.ctx, forecastShow(id))
				if !r.Ephemeral {
					t.Fatalf("/forecast show is not private: %s", show(r))
				}
				return boardPNGOf(t, "/forecast show", r)
			}
			wantLine := line(fresh())
			h := e.h
			if order == "fresh process" {
				h = fresh()
			}
			if order == "board first" {
				board(h, "carol")
				board(h, "alice")
			}
			if got := line(h); !bytes.Equal(got, wantLine) {
				t.Errorf("/forecast show after the real boards were drawn is not the line's end")
			}
			for _, user := range []string{"carol", "alice", "bob"} {
				got, want := board(h, user), board(fresh(), user)
				if !bytes.Equal(got, want) {
					t.Errorf("%s's /board differs from the same board drawn with an empty cache", user)
				}
				if bytes.Equal(got, wantLine) {
					t.Errorf("%s's /board shows alice's private line", user)
				}
			}
		})
	}
}
