package command

import (
	"bytes"
	"context"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rating"
)

// decodePNG checks that f is a PNG and returns its width and height.
func decodePNG(t *testing.T, f File) (int, int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// Rated play through the commands: a rated challenge by default, the
// result announced with both rating changes, a casual challenge that
// changes nothing, then /leaderboard and /profile as images and text.
func TestRatedPlayAndRatingCommands(t *testing.T) {
	e := newEnv(t)
	c := e.ok("alice", "/challenge opponent:bob variant:chess color:white")
	if !strings.Contains(c.Text, ", rated.") {
		t.Errorf("challenge text %q does not say it is rated", c.Text)
	}
	id := challengeID(t, c)
	e.ok("bob", "/accept challenge:"+itoa(id))
	e.ok("alice", "/move move:f3")
	e.ok("bob", "/move move:e5")
	e.ok("alice", "/move move:g4")
	end := e.ok("bob", "/move move:Qh4#")
	g := e.game(id)
	if len(g.Ratings) != 4 {
		t.Fatalf("game ratings %+v", g.Ratings)
	}
	sys := rating.Lichess()
	for _, user := range []string{"alice", "bob"} {
		for _, ch := range g.Ratings[:2] {
			if ch.UserID == user {
				want := "<@" + user + "> " + sys.Change(ch.Before, ch.After)
				if !strings.Contains(end.Text, want) {
					t.Errorf("the mating move's reply %q lacks %q", end.Text, want)
				}
			}
		}
	}
	if !strings.Contains(end.Text, "<@bob> 1500? → ") || !strings.Contains(end.Text, "(+") || !strings.Contains(end.Text, "(−") {
		t.Errorf("reply %q: want bob's gain and alice's loss", end.Text)
	}
	// The game-over notification shows them too.
	ns, err := e.db.PendingNotifications(e.ctx, t0.AddDate(1, 0, 0), 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, n := range ns {
		if n.Kind == bot.NotifyGameOver && n.GameID == id {
			rep := e.h.Notification(e.ctx, n)
			seen = true
			if !strings.Contains(rep.Text, "<@alice> 1500? → ") {
				t.Errorf("game-over notification %q lacks the rating change", rep.Text)
			}
		}
	}
	if !seen {
		t.Error("no game-over notification")
	}

	// A casual game: said so, and rates nothing.
	c = e.ok("alice", "/challenge opponent:bob variant:chess color:white rated:no")
	if !strings.Contains(c.Text, "casual (not rated)") {
		t.Errorf("casual challenge text %q", c.Text)
	}
	casual := challengeID(t, c)
	e.ok("bob", "/accept challenge:"+itoa(casual))
	res := e.ok("alice", "/resign game:"+itoa(casual))
	if strings.Contains(res.Text, "→") || len(e.game(casual).Ratings) != 0 {
		t.Errorf("casual game rated: %q", res.Text)
	}
	e.refused("alice", "/challenge opponent:bob variant:chess rated:maybe", "rated")

	// Both are provisional after one game: nobody ranked, the caller's
	// own line shown.
	lb := e.ok("bob", "/leaderboard variant:chess")
	if len(lb.Files) != 1 || !strings.HasSuffix(lb.Files[0].Name, ".png") {
		t.Fatalf("leaderboard: %s", show(lb))
	}
	if w, _ := decodePNG(t, lb.Files[0]); w != imageWidth {
		t.Errorf("leaderboard width %d", w)
	}
	if !strings.Contains(lb.Text, "Nobody is ranked yet") || !strings.Contains(lb.Text, "–. <@bob> ") || !strings.Contains(lb.Text, "1 game") {
		t.Errorf("leaderboard text %q", lb.Text)
	}
	if r := e.ok("bob", "/leaderboard variant:chess scope:global"); !strings.Contains(r.Text, "all servers") || !strings.Contains(r.Text, "<@bob>") {
		t.Errorf("global leaderboard %q", r.Text)
	}
	if r := e.ok("bob", "/leaderboard variant:tank"); strings.Contains(r.Text, "<@bob>") || len(r.Files) != 1 {
		t.Errorf("tank leaderboard %s", show(r))
	}
	e.refused("bob", "/leaderboard variant:chess options:nonsense=1", "nonsense")

	card := e.ok("carol", "/profile user:bob")
	if len(card.Files) != 1 {
		t.Fatalf("profile: %s", show(card))
	}
	if _, h := decodePNG(t, card.Files[0]); h < 300 {
		t.Errorf("card height %d: no chart?", h)
	}
	for _, want := range []string{"Player card of <@bob>", "Chess: 1", "1 game (1 won, 0 drawn, 0 lost)", "best winning streak 1", "Playing now: 0 games"} {
		if !strings.Contains(card.Text, want) {
			t.Errorf("profile text %q lacks %q", card.Text, want)
		}
	}
	// Counts agree with their number, and the scope is named once.
	for _, bad := range []string{"1 games", "rated games of all games", "games of all"} {
		if strings.Contains(card.Text, bad) || strings.Contains(lb.Text, bad) {
			t.Errorf("%q in the profile %q or the leaderboard %q", bad, card.Text, lb.Text)
		}
	}
	if r := e.ok("carol", "/profile"); !strings.Contains(r.Text, "No rated game yet") {
		t.Errorf("carol's own profile %q", r.Text)
	}
}

// Once players are established the leaderboard ranks them, and the
// caller outside the top sees their own line after a gap.
func TestLeaderboardRanks(t *testing.T) {
	e := newEnv(t)
	// bob and carol each play alice many times; bob wins every third
	// game against her and draws the others, carol loses every third.
	play := func(other string, otherWins bool, i int) {
		id := e.start("chess")
		switch {
		case i%3 != 0:
			e.ok("alice", "/draw action:offer game:"+itoa(id))
			e.ok(other, "/draw action:accept game:"+itoa(id))
		case otherWins:
			e.ok("alice", "/resign game:"+itoa(id))
		default:
			g := e.game(id)
			if _, err := e.svc.Act(e.ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: id, Version: bot.AnyVersion, UserID: g.Black}); err != nil {
				t.Fatal(err)
			}
		}
		e.clk.Advance(3600e9)
	}
	for i := 0; i < 18; i++ {
		play("bob", true, i)
	}
	lb := e.ok("alice", "/leaderboard variant:chess")
	if !strings.Contains(lb.Text, "1. <@bob> ") || !strings.Contains(lb.Text, "2. <@alice> ") {
		t.Fatalf("leaderboard %q: want bob first, alice second", lb.Text)
	}
	if strings.Contains(lb.Text, "…") {
		t.Errorf("alice is in the top, yet her line is repeated: %q", lb.Text)
	}
	if r := e.ok("dave", "/leaderboard variant:chess"); strings.Contains(r.Text, "dave") {
		t.Errorf("dave has no rating, yet: %q", r.Text)
	}
}

// Names drawn in images: the name the request carried, else the
// adapter's Names, else the ID.
func TestDisplayName(t *testing.T) {
	e := newEnv(t)
	req := Request{UserID: "1", GuildID: "g", Users: map[string]UserFacts{"1": {Name: "Alice"}}}
	if n := e.h.displayName(e.ctx, req, "1"); n != "Alice" {
		t.Errorf("request name: %q", n)
	}
	if n := e.h.displayName(e.ctx, req, "2"); n != "2" {
		t.Errorf("unknown name: %q", n)
	}
	e.h.names = func(_ context.Context, guild, user string) string {
		if guild == "g" && user == "2" {
			return "Bob"
		}
		return ""
	}
	if n := e.h.displayName(e.ctx, req, "2"); n != "Bob" {
		t.Errorf("adapter name: %q", n)
	}
}

// TestCountsAgreeWithNumbers: a count of one is singular wherever the
// bot writes one: the commands' choices ("1 extra day"), a challenge's
// time bank, a refused draw claim after one move, a Swiss of one round.
func TestCountsAgreeWithNumbers(t *testing.T) {
	e := newEnv(t)
	oneThings := regexp.MustCompile(`\b1 ([a-z]+ )?[a-z]+s\b`)
	singularS := map[string]bool{"is": true, "was": true, "has": true}
	wrong := func(text string) string {
		for _, m := range oneThings.FindAllString(text, -1) {
			if f := strings.Fields(m); !singularS[f[len(f)-1]] {
				return m
			}
		}
		return ""
	}
	for _, s := range e.h.Specs() {
		for _, o := range s.Options {
			for _, c := range o.Choices {
				if w := wrong(c.Name); w != "" {
					t.Errorf("/%s %s: choice %q says %q", s.Name, o.Name, c.Name, w)
				}
			}
		}
	}
	c := e.ok("alice", "/challenge opponent:bob variant:chess color:white bank:1")
	if !strings.Contains(c.Text, "a time bank of 1 day each") || wrong(c.Text) != "" {
		t.Errorf("challenge with a bank of one day: %q", c.Text)
	}
	id := e.start("chess")
	e.ok("alice", "/move move:Nf3")
	if r := e.refused("bob", "/draw action:claim game:"+itoa(id), "1 move (plies) was played"); wrong(r.Text) != "" {
		t.Errorf("draw claim: %q", r.Text)
	}
	for _, text := range []string{
		e.run("carol", "/tournament action:create variant:chess system:swiss rounds:1").Text,
		e.run("alice", "/tournament action:create variant:chess system:swiss rounds:1").Text,
	} {
		if w := wrong(text); w != "" {
			t.Errorf("%q says %q", text, w)
		}
	}
}
