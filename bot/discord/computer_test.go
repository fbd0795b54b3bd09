package discord_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	computerplayer "github.com/fairypost/fairypost/bot/computer"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// TestComputerOpponentOnDiscord: /challenge with the bot itself as the
// opponent starts a casual game at once; after the player's move (a
// slash command answered at once), the computer's move is played by the
// runner in the background, posted once in the game's thread with the
// board after the player's own move, and the player is told by DM
// (their notification setting) too.
func TestComputerOpponentOnDiscord(t *testing.T) {
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, filepath.Join(t.TempDir(), "computer.db"), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	h.svc.SetComputer(srv.BotID())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The runner and the deliverer run in the background, as in
	// production: the runner pokes the deliverer after each action.
	runner := computerplayer.NewRunner(h.svc, 1, nil)
	runner.Poke = h.deliv.Poke
	var wg sync.WaitGroup
	wg.Go(func() { runner.Run(ctx) })
	wg.Go(func() { h.deliv.Run(ctx, time.Hour) })
	defer func() { cancel(); wg.Wait() }()

	ch := h.channel(t)
	alice := h.users(t, "alice")[0]
	m := public(t, h.slash(t, alice, ch, "challenge", discordtest.String("variant", "chess"),
		discordtest.User("opponent", srv.BotID()), discordtest.String("color", "white"), discordtest.Int("level", 2)))
	if !strings.Contains(m.Content, "accepted challenge #") || !strings.Contains(m.Content, "at level 2") {
		t.Fatalf("challenge to the bot: %q", m.Content)
	}
	g := h.channelGame(t, ch)
	if g.Status != bot.GameActive || g.White != alice || g.Black != srv.BotID() || g.Rated {
		t.Fatalf("game against the bot: %+v", g)
	}
	thread := h.thread(t, g.ID)
	public(t, h.slash(t, alice, thread, "move", discordtest.String("move", "e4")))
	// The computer is woken once alice's move is shown; its move is
	// posted in the thread after hers.
	h.waitMessage(t, thread, "with the computer's move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+srv.BotID()+"> played ")
	})
	answer := h.waitMessage(t, srv.DMChannel(alice), "with the computer's move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+srv.BotID()+"> played ")
	})
	if len(answer.Files) == 0 {
		t.Errorf("the computer's move came without a board: %q", answer.Content)
	}
	botPost := movePosts(t, srv.Messages(thread), alice, srv.BotID())
	post := srv.Messages(thread)[botPost]
	if !strings.Contains(post.Content, " in game #") || !strings.Contains(post.Content, "<@"+alice+">, your move.") ||
		!slices.Contains(post.Mentions, alice) || len(post.Buttons()) == 0 {
		t.Errorf("the computer's move in the thread: %q, mentions %v, buttons %d", post.Content, post.Mentions, len(post.Buttons()))
	}
	if after := h.game(t, g.ID); len(after.Moves) != 2 || after.ToAct != alice {
		t.Errorf("after the computer's answer: moves %v, to act %q", after.Moves, after.ToAct)
	}
}

// movePosts checks the moves posted in a game's thread (ms): the
// player's first move, then the computer's answer with a PNG board, each
// once; it returns the index of the computer's.
func movePosts(t *testing.T, ms []discordtest.Message, player, computer string) int {
	t.Helper()
	mine, its := -1, -1
	for k, m := range ms {
		switch {
		case strings.Contains(m.Content, "<@"+player+"> played "):
			if mine >= 0 {
				t.Errorf("the player's move posted twice: %s", contents(ms))
			}
			mine = k
		case strings.Contains(m.Content, "<@"+computer+"> played "):
			if its >= 0 {
				t.Errorf("the computer's move posted twice: %s", contents(ms))
			}
			its = k
			if len(m.Files) != 1 || !strings.HasSuffix(m.Files[0].Name, ".png") || m.Files[0].ContentType != "image/png" {
				t.Errorf("the computer's move posted without its board: %+v", m.Files)
			}
		}
	}
	if mine < 0 || its < mine {
		t.Fatalf("the thread does not show the player's move then the computer's (at %d and %d): %s", mine, its, contents(ms))
	}
	return its
}

// TestComputerDrawOfferOnDiscord: in a dead even game the computer offers
// a draw with its move, posted in the game's thread with the buttons to
// answer it (and DMed to the player); the player declines with the
// button, and the computer does not offer again on its next turn.
func TestComputerDrawOfferOnDiscord(t *testing.T) {
	srv, h, computer, runner := computerOpponent(t, "computer-draw.db")
	runner.Draws = computerplayer.DrawOffers{MinPlies: 0, Turns: 2, Margin: 20}
	ch := h.channel(t)
	alice := h.users(t, "alice")[0]
	// Kings and locked pawns: nobody can win.
	g := h.startFrom(t, ch, alice, computer, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1")
	play := func(where, move string) *bot.Game {
		t.Helper()
		public(t, h.slash(t, alice, where, "move", discordtest.String("move", move)))
		if acted, err := runner.Step(ctxT(t), g.ID); err != nil || !acted {
			t.Fatalf("the computer's answer to %s: acted %v, %v", move, acted, err)
		}
		h.deliver(t)
		return h.game(t, g.ID)
	}
	if cur := play(ch, "Kd2"); cur.DrawOffer != "" {
		t.Fatalf("offered after one even turn of two")
	}
	thread := h.thread(t, g.ID)
	movePosts(t, srv.Messages(thread), alice, computer)
	if cur := play(thread, "Kc3"); cur.DrawOffer != computer {
		t.Fatalf("no offer after two even turns: %+v", cur)
	}
	offer := h.lastWithButton(t, thread, "Decline draw")
	if !strings.Contains(offer.Content, "<@"+computer+"> offers a draw in game #") || !slices.Contains(offer.Mentions, alice) {
		t.Errorf("the offer in the thread: %q, mentions %v", offer.Content, offer.Mentions)
	}
	h.waitMessage(t, srv.DMChannel(alice), "with the offer", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+computer+"> offers a draw")
	})
	declined := public(t, h.click(t, alice, offer, "Decline draw"))
	if !strings.Contains(declined.Content, "declines the draw offer") {
		t.Errorf("declining: %q", declined.Content)
	}
	if cur := play(thread, "Kb3"); cur.DrawOffer != "" || cur.Status != bot.GameActive {
		t.Errorf("offered again right after the decline: %+v", cur)
	}
}

// TestComputerGameEndInThread: in a game where the computer plays White
// the end is posted once in the game's thread with the game's animation
// (Black's copy, since White's is nobody's), as in games between people,
// and DMed to the player.
func TestComputerGameEndInThread(t *testing.T) {
	srv, h, computer, runner := computerOpponent(t, "computer-end.db")
	ch := h.channel(t)
	alice := h.users(t, "alice")[0]
	// White must play Kb1, and Qh1 mates.
	g := h.startFrom(t, ch, computer, alice, "7q/8/8/8/8/1k6/8/K7 w - - 0 1")
	if acted, err := runner.Step(ctxT(t), g.ID); err != nil || !acted {
		t.Fatalf("the computer's step: acted %v, %v", acted, err)
	}
	h.deliver(t)
	thread := h.thread(t, g.ID)
	h.waitMessage(t, thread, "with the computer's move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+computer+"> played Kb1")
	})
	public(t, h.slash(t, alice, thread, "move", discordtest.String("move", "Qh1")))
	if end := h.game(t, g.ID); end.Result != bot.BlackWins {
		t.Fatalf("after the mate: %s %q", end.Result, end.Reason)
	}
	h.deliver(t)
	var ends int
	for _, m := range srv.Messages(thread) {
		if slices.ContainsFunc(m.Files, func(f discordtest.File) bool { return strings.HasSuffix(f.Name, ".gif") }) {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("the end posted with its animation %d times in the thread: %s", ends, contents(srv.Messages(thread)))
	}
	h.waitMessage(t, srv.DMChannel(alice), "with the end", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "wins by checkmate")
	})
}

// startFrom creates, through the store as an accepted challenge would,
// a game in channel between white and black from fen, without a time
// limit.
func (h *harness) startFrom(t *testing.T, channel, white, black, fen string) *bot.Game {
	t.Helper()
	now := h.clk.Now()
	c := &bot.Challenge{Challenger: white, Challenged: black, GuildID: guildID, ChannelID: channel, Variant: "chess",
		Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: now.Add(gameplay.ChallengeTTL), Created: now, Updated: now}
	if err := h.db.CreateChallenge(context.Background(), c, nil); err != nil {
		t.Fatal(err)
	}
	_, g, err := h.db.UpdateChallenge(context.Background(), c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status = bot.ChallengeAccepted
		toAct := white
		if strings.Contains(fen, " b ") {
			toAct = black
		}
		return bot.ChallengeChange{Game: &bot.Game{ID: c.ID, Variant: "chess", StartFEN: fen, FEN: fen, ToAct: toAct,
			White: white, Black: black, GuildID: guildID, ChannelID: channel, Status: bot.GameActive, Level: 2,
			TurnStarted: now, Created: now, Updated: now}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// computerOpponent starts a bot on a fake Discord (both stopped when the
// test ends) whose computer player plays as the bot's own user, and
// returns them with that user's ID and a runner of one worker that the
// test steps by hand.
func computerOpponent(t *testing.T, db string) (*discordtest.Server, *harness, string, *computerplayer.Runner) {
	t.Helper()
	srv := newFake()
	t.Cleanup(srv.Close)
	h, err := startBot(srv, filepath.Join(t.TempDir(), db), newClock(), boardSize)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.stop)
	computer := srv.BotID()
	h.svc.SetComputer(computer)
	return srv, h, computer, computerplayer.NewRunner(h.svc, 1, nil)
}
