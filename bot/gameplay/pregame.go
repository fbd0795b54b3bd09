package gameplay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// The pre-game choice of a variant with a rules.PreGame (Crazyhouse
// Annihilation, docs/variants/annihilation.md and Z6):
//
//  1. Accept draws a seed and creates the game in GameSetup, its StartFEN
//     and FEN the drawn position (so that it can be shown), Setup
//     recording the seed, both players and who picks the army (the
//     challenge's Chooser), and asks the army picker to choose
//     (NotifyChoice).
//  2. The army picker (Setup.ArmyPicker) chooses the army they play,
//     "white" or "black": its colour in the drawn position (Setup.Army).
//  3. The other player (Setup.FirstPicker) chooses who moves first, "me"
//     or "opponent" (Setup.FirstMover records the colour, in the drawn
//     position, of the army that moves first).
//  4. The game starts from PreGame.Normalize(drawn position, that
//     colour): the first mover plays White, so when the army drawn as
//     Black moves first the board is turned round and the colours swap.
//
// Each step is a turn with the game's clock: TurnStarted, Deadline and
// RemindAt are set for the player who must choose (startTurn), so a
// choice that never comes runs out of time like a move, and since nobody
// has moved the game is then aborted. Until step 4, White is the
// challenger and Black the challenged player, provisionally: only ToAct
// says who must act.

// Choices of the pre-game steps.
const (
	choiceWhite    = "white"
	choiceBlack    = "black"
	choiceMe       = "me"
	choiceOpponent = "opponent"
)

// startSetup makes g, a new game of v, wait for the pre-game choice of
// v.PreGame between the players of st (Seed is drawn here), and returns
// the notification asking the army picker to choose. r holds the players'
// reminder settings, read before the update.
func (s *Service) startSetup(g *bot.Game, v *rules.Variant, st *bot.Setup, now time.Time, r Reminders) bot.Notification {
	st.Seed = s.seed()
	start := v.PreGame.Start(st.Seed)
	g.Status = bot.GameSetup
	g.Setup = st
	g.White, g.Black = st.Challenger, st.Challenged
	g.StartFEN, g.FEN = start.FEN(), start.FEN()
	g.ToAct = st.ArmyPicker()
	startTurn(g, now, r)
	return s.choiceNotification(g, now, fmt.Sprintf(
		"Game %d (%s) starts from a random position. Choose the army you play: %s or %s, by its colour in the position shown (/choose); "+
			"then <@%s> chooses who moves first, and the first mover plays White.",
		g.ID, s.VariantName(g.Variant, g.Options), choiceWhite, choiceBlack, st.FirstPicker()))
}

// choiceNotification asks g.ToAct for a pre-game choice.
func (s *Service) choiceNotification(g *bot.Game, now time.Time, text string) bot.Notification {
	if !g.Deadline.IsZero() {
		text += fmt.Sprintf(" Choose before %s.", g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
	}
	return bot.Notification{Kind: bot.NotifyChoice, UserID: g.ToAct, GuildID: g.GuildID, ChannelID: g.ChannelID,
		GameID: g.ID, Text: text, Created: now}
}

// choose makes userID's pre-game choice in game gameID (Game.Status
// GameSetup): first the army picker (Setup.ArmyPicker) chooses the army
// they play, "white" or "black" by its colour in the position shown;
// then the other player (Setup.FirstPicker) chooses who moves first, "me"
// or "opponent". The second choice starts the game: its start position
// is the drawn one normalised so that the first mover plays White (the
// first mover's user becomes White), the game is active and the first
// mover is sent "your turn". Case and surrounding spaces of choice do not
// matter. version as for Move.
//
// Errors, with nothing changed: ENOTFOUND, ECONFLICT as for Move;
// EFORBIDDEN for a user who does not play in the game or whose choice it
// is not; EINVALID for a game without a pending choice and for a word
// that is not one of the step's choices.
func (s *Service) choose(ctx context.Context, gameID, version uint64, userID, choice string) (*bot.Game, error) {
	reminders := s.gameReminders(ctx, gameID)
	g, err := s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if !g.IsPlayer(userID) {
			return nil, bot.Errorf(bot.EFORBIDDEN, "You are not playing in game %d.", g.ID)
		}
		if g.Status != bot.GameSetup || g.Setup == nil {
			return nil, bot.Errorf(bot.EINVALID, "Game %d has no pre-game choice to make.", g.ID)
		}
		if userID != g.ToAct {
			return nil, bot.Errorf(bot.EFORBIDDEN, "It is <@%s>'s choice in game %d, not yours.", g.ToAct, g.ID)
		}
		v, err := s.rules.Variant(g.Variant, g.Options)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", g.ID, err)
		}
		if v.PreGame == nil {
			return nil, fmt.Errorf("game %d: variant %s has no pre-game", g.ID, g.Variant)
		}
		word := strings.ToLower(strings.TrimSpace(choice))
		now := s.now()
		st := g.Setup
		armyPicker, firstPicker := st.ArmyPicker(), st.FirstPicker()
		if st.Army == "" {
			if userID != armyPicker {
				return nil, bot.Errorf(bot.EFORBIDDEN, "It is <@%s>'s choice in game %d, not yours.", armyPicker, g.ID)
			}
			if word != choiceWhite && word != choiceBlack {
				return nil, bot.Errorf(bot.EINVALID, "Choose the army you play in game %d: %s or %s (its colour in the position shown), not %q.",
					g.ID, choiceWhite, choiceBlack, choice)
			}
			st.Army = word
			g.ToAct, g.Updated = firstPicker, now
			startTurn(g, now, reminders)
			return []bot.Notification{s.choiceNotification(g, now, fmt.Sprintf(
				"<@%s> will play the army shown as %s in game %d (%s). Choose who moves first: %s or %s (/choose). "+
					"The first mover plays White: if the army shown as Black moves first, the board is turned round and the colours swap.",
				armyPicker, strings.ToUpper(word[:1])+word[1:], g.ID, s.VariantName(g.Variant, g.Options), choiceMe, choiceOpponent))}, nil
		}
		if userID != firstPicker {
			return nil, bot.Errorf(bot.EFORBIDDEN, "It is <@%s>'s choice in game %d, not yours.", firstPicker, g.ID)
		}
		var first, second string // the users who move first and second
		switch word {
		case choiceMe:
			first, second = firstPicker, armyPicker
		case choiceOpponent:
			first, second = armyPicker, firstPicker
		default:
			return nil, bot.Errorf(bot.EINVALID, "Choose who moves first in game %d: %s or %s, not %q.", g.ID, choiceMe, choiceOpponent, choice)
		}
		// The army picker's army has colour st.Army in the drawn
		// position, the other player's the other one.
		firstColour := rules.White
		if (st.Army == choiceBlack) == (first == armyPicker) {
			firstColour = rules.Black
		}
		drawn, err := rules.ParseFEN(v, g.StartFEN)
		if err != nil {
			return nil, fmt.Errorf("game %d: drawn start: %w", g.ID, err)
		}
		start := v.PreGame.Normalize(drawn, firstColour)
		st.FirstMover = firstColour.String()
		g.White, g.Black = first, second
		g.StartFEN, g.Status, g.Updated = start.FEN(), bot.GameActive, now
		_, told := s.settle(g, rules.NewGame(start), "", now, reminders)
		return told, nil
	})
	if err != nil {
		return nil, err
	}
	return s.recheckReminder(ctx, g, reminders), nil
}
