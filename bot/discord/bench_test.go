package discord_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// BenchmarkMove measures /move end to end through discordgo and the fake
// Discord: the interaction sent over the gateway, option conversion, game
// resolution, validation by the rules engine, the bbolt commit, the board
// rendered at the default size, and the response with the PNG received by
// the fake. Games of chess are played with legal moves (a new game after
// 80 plies or at the end). It reports the median and the 99th percentile
// of the latencies.
func BenchmarkMove(b *testing.B) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, b.TempDir()+"/bench.db", newClock(), command.DefaultBoardSize)
	if err != nil {
		b.Fatal(err)
	}
	defer h.stop()
	u := h.users(b, "alice", "bob")
	var g *bot.Game
	var thread string
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if g == nil || g.Status != bot.GameActive || len(g.Moves) >= 80 {
			if g != nil && g.Status == bot.GameActive {
				h.slash(b, g.White, thread, "resign")
			}
			g, thread = h.start(b, h.channel(b), u[0], u[1], "chess")
		}
		legal := h.legal(b, g)
		mv := legal[(i*7)%len(legal)]
		b.StartTimer()
		start := time.Now()
		ix, err := srv.Slash(g.ToAct, thread, "move", discordtest.String("move", mv))
		if err != nil {
			b.Fatal(err)
		}
		m := h.shown(b, ix)
		lat = append(lat, time.Since(start))
		b.StopTimer()
		if m.Ephemeral || len(m.Files) == 0 {
			b.Fatalf("move %s: %q", mv, m.Content)
		}
		g = h.game(b, g.ID)
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
	}
}

// BenchmarkAutocompleteVeteran measures autocomplete of /move (the legal
// moves offered as one types) through discordgo and the fake Discord for
// a player with 20 games in progress and 2,000 finished ones: the
// interaction in, the game found through the index of ongoing games, the
// moves listed, the answer received. Median and 99th percentile.
func BenchmarkAutocompleteVeteran(b *testing.B) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, b.TempDir()+"/veteran.db", newClock(), command.DefaultBoardSize)
	if err != nil {
		b.Fatal(err)
	}
	defer h.stop()
	vet := h.users(b, "veteran")[0]
	ctx := ctxT(b)
	var here string
	for i := range 2020 {
		ch := fmt.Sprintf("c%d", i%40)
		c, err := h.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: vet, Challenged: fmt.Sprintf("opp%d", i), GuildID: guildID,
			ChannelID: ch, Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite})
		if err != nil {
			b.Fatal(err)
		}
		g, err := h.svc.Challenges().Accept(ctx, c.ID, c.Version, c.Challenged, bot.Where{GuildID: guildID, ChannelID: ch})
		if err != nil {
			b.Fatal(err)
		}
		if i < 2000 {
			if _, err := h.svc.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: g.Version, UserID: c.Challenged}); err != nil {
				b.Fatal(err)
			}
		} else if here == "" {
			here = h.channel(b)
			if _, err := h.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: vet, Challenged: "x", GuildID: guildID, ChannelID: here,
				Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite}); err != nil {
				b.Fatal(err)
			}
			// The game to complete moves in is the one of this channel.
			c, err := h.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: vet, Challenged: "y", GuildID: guildID, ChannelID: here,
				Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.svc.Challenges().Accept(ctx, c.ID, c.Version, "y", bot.Where{GuildID: guildID, ChannelID: here}); err != nil {
				b.Fatal(err)
			}
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		ix, err := srv.Autocomplete(vet, here, "move", discordtest.Focused("move", "N"))
		if err != nil {
			b.Fatal(err)
		}
		cs, err := ix.Choices(ctx)
		lat = append(lat, time.Since(start))
		if err != nil || len(cs) == 0 {
			b.Fatalf("choices %v, %v", cs, err)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
}
