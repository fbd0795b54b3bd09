package command

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// benchCold makes BenchmarkMoveByLength start every stored game with an
// empty replay cache.
var benchCold = flag.Bool("bench.cold", false, "BenchmarkMoveByLength: every stored game's first move replays it in full")

// longLine returns the longest of the seeded random lines of at most
// plies canonical moves of v (seeds 1 to 40) that avoid ending the game:
// each move is one after which the game goes on, while there is one.
// Train Wreck's pieces move only forward unless they capture, so its
// games cannot be made arbitrarily long.
func longLine(b *testing.B, v *rules.Variant, plies int) []string {
	b.Helper()
	var best []string
	for seed := uint64(1); seed <= 40 && len(best) < plies; seed++ {
		if l := randomLine(b, v, plies, seed); len(l) > len(best) {
			best = l
		}
	}
	return best
}

// randomLine is one line for longLine.
func randomLine(b *testing.B, v *rules.Variant, plies int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 11))
	g := rules.NewGame(v.Start())
	var texts []string
	for len(texts) < plies {
		legal := g.Legal()
		p := g.Position()
		var pick rules.Move
		found := false
		for _, k := range rng.Perm(len(legal)) {
			f := g.Fork()
			if err := f.Play(legal[k]); err != nil {
				b.Fatal(err)
			}
			if !f.Outcome().Over() {
				pick, found = legal[k], true
				break
			}
		}
		if !found {
			return texts
		}
		texts = append(texts, rules.FormatMove(&p, pick))
		if err := g.Play(pick); err != nil {
			b.Fatal(err)
		}
	}
	return texts
}

// BenchmarkMoveByLength measures /move through Execute (resolving the
// game, committing the move to bbolt with fsync, replaying, rendering the
// 800 px board) at plies 10, 100, 300 and 600 of the three heaviest
// variants: the cost of a move must not grow with the game. Each timed
// move is played in a game stored at that ply (a fresh game every four
// moves, made outside the timing). With -bench.cold the first /move on
// each stored game pays one full replay, as the first move after a
// restart does; by default the game is looked at once outside the timing
// (its replay cached), as a game just shown or played is.
func BenchmarkMoveByLength(b *testing.B) {
	reg, err := registry()
	if err != nil {
		b.Fatal(err)
	}
	for _, key := range []string{"coldfusion", "trainwreck-threemove", "winning"} {
		v := reg.Default(key)
		line := longLine(b, v, 600+8)
		for _, plies := range []int{10, 100, 300, 600} {
			if plies+8 > len(line) {
				b.Logf("%s: no line of %d plies found (longest %d)", key, plies+8, len(line))
				continue
			}
			b.Run(fmt.Sprintf("%s/ply%d", key, plies), func(b *testing.B) {
				db := testkit.OpenDB(b)
				svc := gameplay.NewService(gameplay.Stores{Games: db, Challenges: db, Users: db, Outbox: db}, reg)
				h := New(svc, prefs.New(svc, db), Options{})
				ctx := context.Background()
				var (
					game *bot.Game
					at   int
				)
				for i := 0; b.Loop(); i++ {
					if i%4 == 0 {
						b.StopTimer()
						game, at = storedGame(b, db, svc, v, line[:plies]), plies
						if !*benchCold {
							if _, err := svc.Views().ReplayRecord(game); err != nil {
								b.Fatal(err)
							}
						}
						b.StartTimer()
					}
					user := game.White
					p := rgPosition(b, v, line[:at])
					if p.ToAct() == rules.Black {
						user = game.Black
					}
					r := h.Execute(ctx, Request{UserID: user, GuildID: "g", ChannelID: "c", Name: "move",
						Options: map[string]string{"move": line[at], "game": fmt.Sprint(game.ID)}})
					if r.Ephemeral || len(r.Files) != 1 {
						b.Fatalf("ply %d %s: %q", at+1, line[at], r.Text)
					}
					at++
				}
			})
		}
	}
}

// rgPosition replays moves (outside the measured path's cost matters
// little: it is the benchmark's own bookkeeping, done by the caller's
// loop at the same cost for every length).
func rgPosition(b *testing.B, v *rules.Variant, moves []string) rules.Position {
	b.StopTimer()
	defer b.StartTimer()
	g, err := rules.Replay(v.Start(), moves)
	if err != nil {
		b.Fatal(err)
	}
	return g.Position()
}

// storedGame writes an active game of v between alice and bob with the
// moves played, as the service would have stored it, and returns it.
func storedGame(b *testing.B, db *storage.DB, svc *gameplay.Service, v *rules.Variant, moves []string) *bot.Game {
	ctx := context.Background()
	c, err := svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", GuildID: "g", ChannelID: "c",
		Variant: v.Key, Color: bot.ColorWhite})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Challenges().Accept(ctx, c.ID, bot.AnyVersion, "bob", bot.Where{GuildID: "g", ChannelID: "c"}); err != nil {
		b.Fatal(err)
	}
	rg, err := rules.Replay(v.Start(), moves)
	if err != nil {
		b.Fatal(err)
	}
	p := rg.Position()
	g, err := db.UpdateGame(ctx, c.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves, g.FEN = moves, p.FEN()
		g.ToAct = g.Player(p.ToAct() == rules.White)
		return nil, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return g
}
