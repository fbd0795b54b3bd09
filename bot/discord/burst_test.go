package discord_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/discordtest"
)

// BenchmarkBurst fires bursts of N simultaneous /board commands (each
// draws a board at the default size) at the bot through the fake Discord,
// with Discord's timings: the fake's 3 s deadline for the first answer and
// the bot's default DeferAfter. Per burst it reports how many were answered
// late (the user saw "This interaction failed"), how many were turned away
// as busy, how many were deferred, and the slowest first answer. Run it
// with -benchtime 1x: one iteration is one burst, and every answer,
// edits included, arrives before the next.
func BenchmarkBurst(b *testing.B) {
	for _, n := range []int{250, 500, 1000, 2000, 4000, 8000, 16000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			srv := discordtest.New() // Discord's 3 s deadline
			defer srv.Close()
			srv.AddGuild(guildID, "chess club")
			h, err := startBotWith(srv, filepath.Join(b.TempDir(), "burst.db"), newClock(), command.DefaultBoardSize,
				discord.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer h.stop()
			u := h.users(b, "alice", "bob")
			_, thread := h.start(b, h.channel(b), u[0], u[1], "chess")
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			var late, busy, deferred, bursts int
			var slowest time.Duration
			for b.Loop() {
				bursts++
				ixs := make([]*discordtest.Interaction, n)
				for k := range ixs {
					if ixs[k], err = srv.Slash(u[k%2], thread, "board"); err != nil {
						b.Fatal(err)
					}
				}
				for _, ix := range ixs {
					resp, err := ix.Response(ctx)
					if errors.Is(err, discordtest.ErrInteractionFailed) {
						late++
						continue
					}
					if err != nil {
						b.Fatal(err)
					}
					slowest = max(slowest, resp.Elapsed)
					switch {
					case resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource:
						deferred++
						if _, err := ix.Final(ctx); err != nil {
							b.Fatalf("deferred /board never edited: %v", err)
						}
					case resp.Message != nil && strings.Contains(resp.Message.Content, "busy"):
						busy++
					}
				}
			}
			b.ReportMetric(float64(late)/float64(bursts), "late/burst")
			b.ReportMetric(float64(busy)/float64(bursts), "busy/burst")
			b.ReportMetric(float64(deferred)/float64(bursts), "deferred/burst")
			b.ReportMetric(slowest.Seconds(), "s-slowest")
		})
	}
}
