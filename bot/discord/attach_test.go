package discord_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/rules"
)

// TestGameOverWithTooLargeGIF plays a game longer than a GIF shows
// (render.GIFMaxMoves) against a fake Discord whose upload limit is below
// the size of the game's GIF, so that the game-over notification with its
// GIF is refused (413, code 40005) wherever it goes. Each player still
// gets it by DM, and the game's thread its copy: the result, the final
// board, a line saying the animation was too large, and none attached.
func TestGameOverWithTooLargeGIF(t *testing.T) {
	const limit = 64 << 10 // a 240 px board PNG fits; the GIF of 300 moves does not
	srv := discordtest.New(discordtest.WithDeadline(fakeDeadline), discordtest.WithMaxFileSize(limit))
	defer srv.Close()
	srv.AddGuild(guildID, "chess club")
	h, err := startBot(srv, filepath.Join(t.TempDir(), "gif.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	u := h.users(t, "alice", "bob")
	g, thread := h.start(t, h.channel(t), u[0], u[1], "chess")

	// The record of a long game, stored in one write as if the moves had
	// been played (playing them one by one costs a commit each).
	const plies = render.GIFMaxMoves + 20
	rg, err := h.svc.Views().ReplayRecord(g)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]int{}
	var moves []string
	for len(rg.Moves()) < plies {
		p := rg.Position()
		legal := rotate(rg.Legal(), len(rg.Moves())*7)
		k := slices.IndexFunc(legal, func(m rules.Move) bool {
			next, err := p.Play(m)
			return err == nil && !next.Outcome().Over() && seen[next.Hash()] < 2
		})
		if k < 0 {
			t.Fatalf("no move keeps the game going after %d plies", len(rg.Moves()))
		}
		moves = append(moves, rules.FormatMove(&p, legal[k]))
		if err := rg.Play(legal[k]); err != nil {
			t.Fatal(err)
		}
		next := rg.Position()
		seen[next.Hash()]++
	}
	ctx := context.Background()
	final := rg.Position()
	g, err = h.db.UpdateGame(ctx, g.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves, g.FEN, g.ToAct = moves, final.FEN(), g.White
		if final.ToAct() == rules.Black {
			g.ToAct = g.Black
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: g.ToAct}); err != nil {
		t.Fatal(err)
	}
	h.deliver(t)

	over := func(m discordtest.Message) bool { return strings.Contains(m.Content, "resignation") }
	for _, where := range []struct{ name, channel string }{
		{"alice's DMs", srv.DMChannel(u[0])}, {"bob's DMs", srv.DMChannel(u[1])}, {"the thread", thread},
	} {
		m := h.waitMessage(t, where.channel, "telling the game is over", over)
		if !strings.Contains(m.Content, "too large") || !strings.Contains(m.Content, "animation starts at move") {
			t.Errorf("%s: %q does not say the animation was too large and where it starts", where.name, m.Content)
		}
		if !hasFile(m, ".png") || hasFile(m, ".gif") {
			t.Errorf("%s: files %v, want the board PNG and no GIF", where.name, fileNames(m))
		}
	}
	refused := 0
	for _, r := range srv.Requests() {
		if r.Status == 413 && r.Code == 40005 {
			refused++
		}
	}
	if refused < 3 {
		t.Errorf("%d requests refused as too large, want the GIF refused at least in each DM and the thread", refused)
	}
}

// rotate returns ms starting at index k (modulo its length).
func rotate(ms []rules.Move, k int) []rules.Move {
	if len(ms) == 0 {
		return ms
	}
	k %= len(ms)
	return append(slices.Clone(ms[k:]), ms[:k]...)
}

// fileNames returns the names of m's attachments.
func fileNames(m discordtest.Message) []string {
	var out []string
	for _, f := range m.Files {
		out = append(out, f.Name)
	}
	return out
}
