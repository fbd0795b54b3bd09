package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// linkButtons returns the link buttons of r.
func linkButtons(r Reply) []Button {
	var out []Button
	for _, b := range r.Buttons {
		if b.Style == ButtonLink {
			out = append(out, b)
		}
	}
	return out
}

// TestLinkButtons: with Options.Link, a board (a move's reply, /board, a
// notification) carries one "View game" link button with the address the
// link function gives for its game, a reply without a board none; when
// the address cannot be made the board comes without it, the failure
// logged, and /link says the address could not be made.
func TestLinkButtons(t *testing.T) {
	e := newEnv(t)
	var fail error
	e.h.link = func(ctx context.Context, id uint64) (string, error) {
		return fmt.Sprintf("https://games.example.org/g/%d/tok", id), fail
	}
	id := e.start("chess")
	want := fmt.Sprintf("https://games.example.org/g/%d/tok", id)
	for _, line := range []string{"/move move:e4", "/board"} {
		r := e.ok("alice", line)
		if bs := linkButtons(r); len(bs) != 1 || bs[0].URL != want || bs[0].Label != "View game" || bs[0].CustomID != "" {
			t.Errorf("%s: link buttons %+v, want one to %s", line, bs, want)
		}
	}
	if bs := linkButtons(e.ok("alice", "/games")); len(bs) != 0 {
		t.Errorf("/games, without a board, has link buttons %+v", bs)
	}
	if r := e.ok("alice", "/link"); !r.Ephemeral || !strings.Contains(r.Text, want) {
		t.Errorf("/link: %q (ephemeral %v)", r.Text, r.Ephemeral)
	}
	fail = errors.New("the store is down")
	r := e.ok("bob", "/move move:e5")
	if len(r.Files) == 0 || len(linkButtons(r)) != 0 {
		t.Errorf("a move whose link failed: %d files, link buttons %+v; want the board without a link", len(r.Files), linkButtons(r))
	}
	if !strings.Contains(e.log.String(), "no page address for the board") {
		t.Errorf("the failure is not logged: %s", e.log.String())
	}
	if r := e.run("alice", "/link"); !r.Ephemeral || !strings.Contains(r.Text, fmt.Sprintf("The address of game #%d's page could not be made", id)) {
		t.Errorf("/link whose link failed: %q", r.Text)
	}
	if !strings.Contains(e.log.String(), "the store is down") {
		t.Errorf("the cause of /link's failure is not logged: %s", e.log.String())
	}
}
