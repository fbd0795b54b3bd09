package storage_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

// chess is the standard chess variant of a fresh rules registry.
func chess(tb testing.TB) *rules.Variant {
	tb.Helper()
	reg, err := rules.NewRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	v, err := reg.Variant("chess", "")
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// player plays games of chess into a store with legal moves picked by a
// seeded random source, as package bot would: the moves are the truth,
// FEN and ToAct the cache of where they lead. Not safe for concurrent
// use.
type player struct {
	db    *storage.DB
	v     *rules.Variant
	rng   *rand.Rand
	games map[uint64]*rules.Game // the rules' view of each game started
	now   time.Time
}

func newPlayer(db *storage.DB, v *rules.Variant, seed uint64) *player {
	return &player{db: db, v: v, rng: rand.New(rand.NewPCG(seed, 1)), games: map[uint64]*rules.Game{}, now: t0}
}

// start creates a challenge from white to black and accepts it into a
// game of chess from the start position, as one stored game.
func (p *player) start(white, black, channel string) (*bot.Game, error) {
	c := &bot.Challenge{Challenger: white, Challenged: black, ChannelID: channel, Variant: "chess",
		DaysPerMove: 3, Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: p.now.Add(gameplay.ChallengeTTL),
		Created: p.now, Updated: p.now}
	if err := p.db.CreateChallenge(ctx, c, nil); err != nil {
		return nil, err
	}
	start := p.v.Start()
	_, g, err := p.db.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
		c.Status, c.Updated = bot.ChallengeAccepted, p.now
		return bot.ChallengeChange{Game: &bot.Game{Variant: "chess", StartFEN: start.FEN(), FEN: start.FEN(),
			ToAct: white, White: white, Black: black, ChannelID: channel, Status: bot.GameActive, DaysPerMove: 3,
			Deadline: p.now.Add(72 * time.Hour), TurnStarted: p.now, Created: p.now, Updated: p.now}}, nil
	})
	if err != nil {
		return nil, err
	}
	p.games[g.ID] = rules.NewGame(start)
	return g, nil
}

// move plays a random legal move in game id, started by p, with a
// compare-and-swap on the version p last saw (the stored game must not
// have changed behind p's back). It returns the stored game, or nil and
// no error when the game is over.
func (p *player) move(id, version uint64) (*bot.Game, error) {
	rg := p.games[id]
	legal := rg.Legal()
	if len(legal) == 0 {
		return nil, nil
	}
	pos := rg.Position()
	m := legal[p.rng.IntN(len(legal))]
	text := rules.FormatMove(&pos, m)
	next, err := pos.Play(m)
	if err != nil {
		return nil, fmt.Errorf("playing %s: %w", text, err)
	}
	p.now = p.now.Add(time.Minute)
	g, err := p.db.UpdateGame(ctx, id, version, func(g *bot.Game) ([]bot.Notification, error) {
		g.Moves = append(g.Moves, text)
		g.FEN, g.Updated, g.Reminded, g.DrawOffer = next.FEN(), p.now, false, ""
		g.ToAct, g.TurnStarted, g.Deadline = g.Player(next.ToAct() == rules.White), p.now, p.now.Add(72*time.Hour)
		return []bot.Notification{{Kind: bot.NotifyYourTurn, UserID: g.ToAct, GameID: g.ID, Text: "your turn", Created: p.now}}, nil
	})
	if err != nil {
		return nil, err
	}
	if err := rg.Play(m); err != nil {
		return nil, err
	}
	if o := rg.Outcome(); o.Over() {
		return p.db.UpdateGame(ctx, id, g.Version, func(g *bot.Game) ([]bot.Notification, error) {
			g.Status, g.Result, g.Reason = bot.GameFinished, botResult(o.Result), o.Reason
			g.ToAct, g.Deadline = "", time.Time{}
			return nil, nil
		})
	}
	return g, nil
}

// botResult maps a rules result to package bot's.
func botResult(r rules.Result) bot.Result {
	switch r {
	case rules.WhiteWins:
		return bot.WhiteWins
	case rules.BlackWins:
		return bot.BlackWins
	case rules.Draw:
		return bot.Draw
	}
	return bot.NoResult
}

// replay plays g's moves with the rules from its StartFEN and returns an
// error unless each is legal and the position they lead to is g's FEN.
func replay(v *rules.Variant, g *bot.Game) error {
	start, err := rules.ParseFEN(v, g.StartFEN)
	if err != nil {
		return fmt.Errorf("game %d: start: %w", g.ID, err)
	}
	rg := rules.NewGame(start)
	for i, s := range g.Moves {
		pos := rg.Position()
		m, err := rules.ParseMove(&pos, s)
		if err != nil {
			return fmt.Errorf("game %d: move %d %q: %w", g.ID, i+1, s, err)
		}
		if err := rg.Play(m); err != nil {
			return fmt.Errorf("game %d: move %d %q: %w", g.ID, i+1, s, err)
		}
	}
	if pos := rg.Position(); pos.FEN() != g.FEN {
		return fmt.Errorf("game %d: %d moves lead to %s, cached FEN %s", g.ID, len(g.Moves), pos.FEN(), g.FEN)
	}
	if o := rg.Outcome(); o.Over() != (g.Status == bot.GameFinished) {
		return fmt.Errorf("game %d: status %s after %d moves, rules say %+v", g.ID, g.Status, len(g.Moves), o)
	}
	return nil
}
