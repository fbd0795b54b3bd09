package discord_test

import (
	"bytes"
	"fmt"
	"image/gif"
	"image/png"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/discordtest"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// finishSeed is the seed of every random start (rules.PreGame) drawn by
// the service of TestFinishes; the annihilation game below was found
// from the start it gives.
const finishSeed = 0x5eed_f00d_cafe_0001

// finish is a short game of one variant key played to its end: the moves
// as players type them (the friendly form, one /move each; moves the bot
// plays by itself, a lone "pass", are not listed), and the end the rules
// engine must reach with the last of them.
type finish struct {
	key    string
	moves  []string
	result bot.Result
	reason rules.Reason
}

// finishes holds one finish per variant key: among the shortest decisive
// games a helpmate search with the rules engine found (both sides
// cooperating), from the standard start or, for annihilation, from the
// start of finishSeed after harness.start's pre-game choice.
var finishes = []finish{
	{"chess", []string{"f3", "e5", "g4", "Qh4#"}, bot.BlackWins, "checkmate"},
	{"crazyhouse", []string{"f3", "e5", "g4", "Qh4#"}, bot.BlackWins, "checkmate"},
	// The Cardinal's knight leap from c8 mates the King boxed in by its
	// own Queen and Cardinal.
	{"grand", []string{"Ah4", "Qd10", "Ae7", "Af10", "Axc8#"}, bot.WhiteWins, "checkmate"},
	{"coldfusion", []string{"Ah4", "Qd10", "Ae7", "Af10", "Axc8#"}, bot.WhiteWins, "checkmate"},
	// White: own knight, then a black pawn; Black: own King forward, then
	// White's knight to d5, which takes the King on White's next turn.
	{"trainwreck", []string{"Nc3", "e6", "Ke7", "Nd5", "Nxe7"}, bot.WhiteWins, "king captured"},
	{"trainwreck-berolina", []string{"de3", "de6", "Kd7", "Qxd7"}, bot.WhiteWins, "king captured"},
	{"trainwreck-almost", []string{"Nc3", "e6", "Ke7", "Nd5", "Nxe7"}, bot.WhiteWins, "king captured"},
	// White's first turn has two parts, Black's three: Black's second
	// own move takes the King.
	{"trainwreck-threemove", []string{"d3", "c6", "Qa5", "Qxe1"}, bot.BlackWins, "king captured"},
	// The Attacker's double move: a quiet Bishop step marked to continue,
	// Black declines the response window, the second step takes the King.
	{"winning", []string{"Ad3", "f6", "Ac4>", "pass", "Axg8"}, bot.WhiteWins, "king captured"},
	{"easymate", []string{"e3", "f6", "Be2", "g5", "Bh5#"}, bot.WhiteWins, "checkmate"},
	{"tank", []string{"Nc3", "a6", "Nd5", "Nh6", "Nxc7#"}, bot.WhiteWins, "checkmate"},
	// Black is left without pieces on the board (its hand does not
	// count): 33 plies, the least possible, since White must capture all
	// 16 of Black's pieces, one a move, and cannot capture on its first.
	{"annihilation", strings.Fields(`e4 h5 Qxh5 d5 Qxf7 c6 exd5 Ne6 dxc6 Ng6 cxb7 a6 bxc8=Q Qxg2 Rxe6 Qd5 Rgxg6
		Qb7 Qxf8 Qc6 Rxe7 Qd7 Qfxe8 pass Rxd7 Rxb2 Qxa6 Rb3 Qxg8 Rc3 Rgxg7 Rc8 Qaxc8`), bot.WhiteWins, "annihilation"},
}

// TestFinishes plays a short game of every variant key to its real end by
// slash commands in the game's thread, and checks that the rules engine
// ended it on the last move with the expected result and reason (the
// stored game, and the game replayed by the engine), that the reply to
// the last move tells the result with the final board, and that the
// game-over notification posts the result with the final board PNG and
// the game's GIF.
func TestFinishes(t *testing.T) {
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range reg.Keys() {
		if !slices.ContainsFunc(finishes, func(f finish) bool { return f.key == key }) {
			t.Errorf("variant %s has no scripted finish", key)
		}
	}
	srv := newFake()
	defer srv.Close()
	h, err := startBot(srv, filepath.Join(t.TempDir(), "finish.db"), newClock(), boardSize, gameplay.Seed(func() uint64 { return finishSeed }))
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()

	for _, f := range finishes {
		t.Run(f.key, func(t *testing.T) {
			v, err := reg.Variant(f.key, "")
			if err != nil {
				t.Fatal(err)
			}
			ch := h.channel(t)
			u := h.users(t, "alice", "bob")
			g, thread := h.start(t, ch, u[0], u[1], f.key)
			if v.PreGame != nil {
				// harness.start: Bob takes the army that is White in the
				// drawn position and Alice moves first, so Alice's army
				// (Black there) plays White.
				want := v.PreGame.Normalize(v.PreGame.Start(finishSeed), rules.Black)
				if g.Setup == nil || g.Setup.Seed != finishSeed || g.StartFEN != want.FEN() {
					t.Fatalf("game %d starts from %q (setup %+v), the script was found from %q", g.ID, g.StartFEN, g.Setup, want.FEN())
				}
			}
			var last discordtest.Message
			for k, mv := range f.moves {
				if g.Status != bot.GameActive {
					t.Fatalf("game %d over (%s %s, %q) before move %d %q", g.ID, g.Status, g.Result, g.Reason, k+1, mv)
				}
				last, g = h.move(t, g, thread, mv)
			}
			if g.Status != bot.GameFinished || g.Result != f.result || g.Reason != f.reason {
				t.Fatalf("after %q: status %s, result %s, reason %q; want %s by %s", f.moves, g.Status, g.Result, g.Reason, f.result, f.reason)
			}
			// The engine, replaying the stored game, ends it the same way.
			rg, err := h.svc.Views().ReplayRecord(g)
			if err != nil {
				t.Fatal(err)
			}
			if o := rg.Outcome(); o.Result.String() != f.result.String() || o.Reason != f.reason {
				t.Errorf("replayed game %d: %s by %q, stored %s by %q", g.ID, o.Result, o.Reason, g.Result, g.Reason)
			}
			t.Logf("%s: %d plies, %s by %s", f.key, len(g.Moves), g.Result, g.Reason)

			// The reply to the last move tells the result, with the final board.
			if !strings.Contains(last.Content, f.result.String()) || !strings.Contains(last.Content, gameplay.EndPhrase(h.svc.Rules().Default(f.key), f.result, f.reason)) {
				t.Errorf("reply to the last move %q does not tell %s by %s", last.Content, f.result, f.reason)
			}
			if !hasFile(last, ".png") {
				t.Errorf("reply to the last move without a board: %q", last.Content)
			}
			if last.ChannelID != thread {
				t.Errorf("last reply posted in %s, not the thread %s", last.ChannelID, thread)
			}

			// The game-over notification reaches the thread with the final
			// board and the GIF of the whole game.
			h.deliver(t)
			over := h.waitMessage(t, thread, "with the result", func(m discordtest.Message) bool {
				return m.InteractionID == "" && strings.Contains(m.Content, f.result.String()) && hasFile(m, ".gif")
			})
			if err := checkImages(over, len(g.Moves)); err != nil {
				t.Errorf("game-over message %q: %v", over.Content, err)
			}
		})
	}
}

// hasFile reports whether m has an attachment whose name ends with ext.
func hasFile(m discordtest.Message, ext string) bool {
	return slices.ContainsFunc(m.Files, func(f discordtest.File) bool { return strings.HasSuffix(f.Name, ext) })
}

// checkImages checks that m carries a decodable board PNG and a GIF with
// a frame for the start and for each of the game's plies.
func checkImages(m discordtest.Message, plies int) error {
	var pngs, gifs int
	for _, f := range m.Files {
		switch {
		case strings.HasSuffix(f.Name, ".png"):
			if _, err := png.DecodeConfig(bytes.NewReader(f.Data)); err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
			pngs++
		case strings.HasSuffix(f.Name, ".gif"):
			a, err := gif.DecodeAll(bytes.NewReader(f.Data))
			if err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
			if len(a.Image) != plies+1 {
				return fmt.Errorf("%s: %d frames for %d plies", f.Name, len(a.Image), plies)
			}
			gifs++
		}
	}
	if pngs != 1 || gifs != 1 {
		return fmt.Errorf("%d PNGs and %d GIFs attached, want one of each", pngs, gifs)
	}
	return nil
}
