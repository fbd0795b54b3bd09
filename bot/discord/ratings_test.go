package discord_test

import (
	"bytes"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot/discordtest"
)

// Rated play through the fake Discord: the mating move's reply and the
// game-over post in the thread announce both rating changes; /leaderboard
// and /profile answer with a PNG and the same facts as text, within
// Discord's deadline.
func TestRatedPlayAndRatings(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, filepath.Join(t.TempDir(), "ratings.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	ch := h.channel(t)
	u := h.users(t, "alice", "bob", "carol")
	alice, bob, carol := u[0], u[1], u[2]
	g, thread := h.start(t, ch, alice, bob, "chess")
	var last discordtest.Message
	for _, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		last, g = h.move(t, g, thread, mv)
	}
	if len(g.Ratings) != 4 {
		t.Fatalf("game %d: ratings %+v", g.ID, g.Ratings)
	}
	for _, want := range []string{"<@" + bob + "> 1500? → ", "<@" + alice + "> 1500? → ", "(+", "(−"} {
		if !strings.Contains(last.Content, want) {
			t.Errorf("reply to the mating move %q lacks %q", last.Content, want)
		}
	}
	h.deliver(t)
	h.waitMessage(t, thread, "the result with the rating changes", func(m discordtest.Message) bool {
		return m.InteractionID == "" && strings.Contains(m.Content, "0-1") && strings.Contains(m.Content, "<@"+bob+"> 1500? → ")
	})

	lb := public(t, h.slash(t, carol, ch, "leaderboard", discordtest.String("variant", "chess")))
	checkPNGFile(t, lb, "leaderboard")
	if !strings.Contains(lb.Content, "Leaderboard · Chess") || !strings.Contains(lb.Content, "this server") {
		t.Errorf("leaderboard text %q", lb.Content)
	}
	own := public(t, h.slash(t, bob, ch, "leaderboard", discordtest.String("variant", "chess"), discordtest.String("scope", "global")))
	if !strings.Contains(own.Content, "<@"+bob+">") || !strings.Contains(own.Content, "all servers") {
		t.Errorf("bob's own line missing from %q", own.Content)
	}
	if len(own.Mentions) != 0 {
		t.Errorf("a leaderboard pings %v", own.Mentions)
	}
	if n := h.b.Name(ctxT(t), guildID, bob); !strings.HasPrefix(n, "bob") {
		t.Errorf("the name images give bob: %q", n)
	}
	card := public(t, h.slash(t, carol, ch, "profile", discordtest.User("user", bob)))
	checkPNGFile(t, card, "profile")
	for _, want := range []string{"Player card of <@" + bob + ">", "1 game (1 won, 0 drawn, 0 lost)"} {
		if !strings.Contains(card.Content, want) {
			t.Errorf("profile text %q lacks %q", card.Content, want)
		}
	}
}

// checkPNGFile checks that m carries one decodable PNG.
func checkPNGFile(t *testing.T, m discordtest.Message, what string) {
	t.Helper()
	if len(m.Files) != 1 || !strings.HasSuffix(m.Files[0].Name, ".png") {
		t.Fatalf("%s: %d files: %q", what, len(m.Files), m.Content)
	}
	if _, err := png.Decode(bytes.NewReader(m.Files[0].Data)); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}
