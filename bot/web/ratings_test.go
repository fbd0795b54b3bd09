package web_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/internal/testkit"
)

// TestRatings: the page of a rated game in play shows each player's
// rating now (a newcomer's provisional 1500?), with Options.Standings;
// once the game has ended, the change the game made, as the bot
// announced it.
func TestRatings(t *testing.T) {
	var f *fixture
	f = newFixture(t, web.Options{})
	f2 := newFixtureOver(t, f, web.Options{Standings: f.db})
	ctx := context.Background()
	c, err := f.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", Variant: "chess", Rated: true, ChannelID: "chan"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{ChannelID: "chan"})
	if err != nil {
		t.Fatal(err)
	}
	testkit.Play(t, f.svc, g.ID, "alice e4", "bob e5")
	_, _, body := get(t, f2.url(g.ID, ""))
	if n := len(regexp.MustCompile(`<span class="rating">\(1500\?\)</span>`).FindAllString(body, -1)); n != 2 {
		t.Errorf("a rated game in play shows %d current ratings, want 2 (1500?):\n%s", n, between(body, `<dl class="facts">`, "</dl>"))
	}
	if _, err := f.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	_, _, body = get(t, f.url(g.ID, ""))
	for _, want := range []string{`Rated · #`, `(1500? → `, `(&#43;`, `(−`} {
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(body) {
			t.Errorf("the page of the rated game ended lacks %q:\n%s", want, between(body, `<dl class="facts">`, "</dl>"))
		}
	}
}
