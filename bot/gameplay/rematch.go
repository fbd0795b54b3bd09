package gameplay

import (
	"context"

	"github.com/fairypost/fairypost/bot"
)

// Rematch challenges, on behalf of userID, the opponent of finished game
// gameID to a new game like it: the same variant, options, days per
// move and time bank, rated if the game was rated (casual if it was
// casual), in the same server and channel, with the colours swapped (userID
// plays the colour the opponent had). In a variant with a pre-game choice,
// where colours follow from the choice, the choices are swapped instead:
// whoever picked the army picks who moves first. The opponent answers it
// as any challenge (Accept, Decline), and is told as for any challenge.
//
// Errors, with nothing changed: ENOTFOUND for an unknown game; EFORBIDDEN
// for a user who does not play in it; EINVALID for a game that is not
// finished (aborted games included), and while a rematch challenge
// between the two players for this game's variant stands (either's: the
// opponent's is answered with Accept), with its number.
func (sub Challenges) Rematch(ctx context.Context, gameID uint64, userID string) (*bot.Challenge, error) {
	s := sub.s

	g, err := s.games.Game(ctx, gameID)
	if err != nil {
		return nil, err
	}
	if err := player(g, userID); err != nil {
		return nil, err
	}
	if g.Status != bot.GameFinished {
		return nil, bot.Errorf(bot.EINVALID, "Game %d is not finished: a rematch is offered once a game has a result.", g.ID)
	}
	opp := opponent(g, userID)
	for _, who := range []string{userID, opp} {
		cs, err := s.Challenges().PendingChallenges(ctx, opponent(g, who))
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c.Challenger != who || c.Variant != g.Variant || c.Options != g.Options || c.DaysPerMove != g.DaysPerMove || c.BankDays != g.BankDays || c.Rated != g.Rated {
				continue
			}
			if who == userID {
				return nil, bot.Errorf(bot.EINVALID, "Your challenge #%d to <@%s> for this game stands already: they may accept it.", c.ID, opp)
			}
			return nil, bot.Errorf(bot.EINVALID, "<@%s> asked for a rematch already: accept challenge #%d (/accept challenge:%d).", opp, c.ID, c.ID)
		}
	}
	req := ChallengeRequest{Challenger: userID, Challenged: opp, GuildID: g.GuildID, ChannelID: g.ChannelID,
		Variant: g.Variant, Options: g.Options, DaysPerMove: g.DaysPerMove, BankDays: g.BankDays, Rated: g.Rated}
	switch {
	case g.Setup != nil:
		// The army picker of this game chooses who moves first in the next.
		req.Chooser = bot.ChooserChallenger
		if g.Setup.ArmyPicker() == userID {
			req.Chooser = bot.ChooserChallenged
		}
	case g.White == userID:
		req.Color = bot.ColorBlack
	default:
		req.Color = bot.ColorWhite
	}
	return s.Challenges().Challenge(ctx, req)
}
