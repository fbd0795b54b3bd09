package gameplay

import (
	"context"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// Game actions besides moves: draws, abort and takebacks. Each is one
// store transaction (GameStore.UpdateGame) with its notifications; each
// takes the version of the game the user saw (or AnyVersion) and refuses
// with ECONFLICT when the game changed since, with ENOTFOUND for an
// unknown game and EFORBIDDEN for a user who does not play in it. A
// refused action changes nothing.

// ply is what the replay of a game tells about one of its moves.
type ply struct {
	actor  rules.Color // the player who made it (the player to act before it)
	forced bool        // it was the only legal move, so the bot played it (Move)
}

// pliesOf returns, for each move of rg, who made it and whether it was
// forced. A move counts as a player's own when it was not forced: the
// bot plays forced moves for them.
func pliesOf(rg *rules.Game) []ply {
	out := make([]ply, len(rg.Moves()))
	var buf []rules.Move
	for i, m := range rg.Moves() {
		p := rg.PositionAt(i)
		out[i].actor = p.ToAct()
		if m.Kind == rules.KindPass {
			buf = p.Legal(buf[:0])
			out[i].forced = len(buf) == 1
		}
	}
	return out
}

// bothMovedIn reports whether each colour made at least one move of its
// own (not forced) in plies.
func bothMovedIn(plies []ply) bool {
	var moved [2]bool
	for _, p := range plies {
		if p.forced {
			continue
		}
		switch p.actor {
		case rules.White:
			moved[0] = true
		case rules.Black:
			moved[1] = true
		}
		if moved[0] && moved[1] {
			return true
		}
	}
	return false
}

// BothMoved reports whether each player of g has made at least one move
// of their own: while not, either player may abort the game (ActAbort), and
// a player who runs out of time aborts it instead of losing. Who made
// each move comes from replaying the game (in multi-part turns a player
// makes several moves in a row, and in Winning Chess's response window
// the opponent acts within the mover's turn); a move the bot played
// because it was the only legal one (a forced pass, see Move) is not the
// player's own. A game in its pre-game choice has no moves: false. A game
// that does not replay (a corrupt record) counts as moved by both when it
// has two moves or more, so that it is not aborted on that account.
func (s *Service) BothMoved(g *bot.Game) bool {
	moved, err := s.bothMoved(g)
	return moved || err != nil
}

// bothMoved is BothMoved with the Service's registry; the error is the
// replay's (EINTERNAL: a corrupt record).
func (s *Service) bothMoved(g *bot.Game) (bool, error) {
	if len(g.Moves) < 2 {
		return false, nil
	}
	rg, err := s.replay(g)
	if err != nil {
		return false, err
	}
	return bothMovedIn(pliesOf(rg)), nil
}

// opponent returns the other player of g than userID, a player of g.
func opponent(g *bot.Game, userID string) string {
	if userID == g.White {
		return g.Black
	}
	return g.White
}

// gameNotification returns a notification of kind about g to userID.
func gameNotification(g *bot.Game, kind bot.NotificationKind, userID, text string, now time.Time) bot.Notification {
	return bot.Notification{Kind: kind, UserID: userID, GuildID: g.GuildID, ChannelID: g.ChannelID,
		GameID: g.ID, Text: text, Created: now}
}

// toBoth returns a notification of kind about g to each player.
func toBoth(g *bot.Game, kind bot.NotificationKind, text string, now time.Time) []bot.Notification {
	return []bot.Notification{gameNotification(g, kind, g.White, text, now), gameNotification(g, kind, g.Black, text, now)}
}

// player refuses, with EFORBIDDEN, a user who does not play in g.
func player(g *bot.Game, userID string) error {
	if !g.IsPlayer(userID) {
		return bot.Errorf(bot.EFORBIDDEN, "You are not playing in game %d.", g.ID)
	}
	return nil
}

// offerDraw offers a draw in game gameID on behalf of userID, a player of
// the active game: the opponent is told (NotifyDrawOffered) and may
// accept or decline it. The offer stands until the opponent answers or
// moves (which declines it), or the offerer moves (which lets it lapse):
// so a player offers after moving, while the opponent thinks. When the
// opponent's offer stands, offering accepts it. EINVALID when the game is
// not being played or userID's own offer stands already.
func (s *Service) offerDraw(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *bot.Game) ([]bot.Notification, error) {
		now := s.now()
		switch g.DrawOffer {
		case userID:
			return nil, bot.Errorf(bot.EINVALID, "Your draw offer in game %d stands already.", g.ID)
		case opponent(g, userID):
			g.Updated = now
			return s.finish(g, bot.Draw, ReasonAgreement, now), nil
		}
		g.DrawOffer, g.Updated = userID, now
		return []bot.Notification{gameNotification(g, bot.NotifyDrawOffered, opponent(g, userID),
			fmt.Sprintf("<@%s> offers a draw in game %d (%s): accept or decline it, or move to decline it.", userID, g.ID, s.VariantName(g.Variant, g.Options)), now)}, nil
	})
}

// acceptDraw accepts the draw offered in game gameID: userID must be the
// opponent of the player whose offer stands. The game is drawn by
// agreement and both players are told. EINVALID when the game is not
// being played, no offer stands, or the offer is userID's own.
func (s *Service) acceptDraw(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if err := s.drawOfferTo(g, userID); err != nil {
			return nil, err
		}
		now := s.now()
		g.Updated = now
		return s.finish(g, bot.Draw, ReasonAgreement, now), nil
	})
}

// declineDraw declines the draw offered in game gameID: userID must be
// the opponent of the player whose offer stands, who is told
// (NotifyDrawDeclined). Errors as for AcceptDraw.
func (s *Service) declineDraw(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if err := s.drawOfferTo(g, userID); err != nil {
			return nil, err
		}
		now := s.now()
		offerer := g.DrawOffer
		g.DrawOffer, g.Updated = "", now
		return []bot.Notification{gameNotification(g, bot.NotifyDrawDeclined, offerer,
			fmt.Sprintf("<@%s> declined your draw offer in game %d.", userID, g.ID), now)}, nil
	})
}

// drawOfferTo refuses an answer of userID to a draw offer in g unless an
// offer of userID's opponent stands in the active game.
func (s *Service) drawOfferTo(g *bot.Game, userID string) error {
	if err := player(g, userID); err != nil {
		return err
	}
	if err := s.playing(g); err != nil {
		return err
	}
	switch g.DrawOffer {
	case "":
		return bot.Errorf(bot.EINVALID, "No draw is offered in game %d.", g.ID)
	case userID:
		return bot.Errorf(bot.EINVALID, "The draw offer in game %d is your own: your opponent answers it.", g.ID)
	}
	return nil
}

// claimDraw claims a draw in game gameID for userID, the player to act,
// under the variant's rules (rules.Game.DrawClaim): the position occurred
// as often as the variant's repetition claim asks, or as many plies
// passed without a capture or pawn move as its move-count rule asks. The
// game is drawn with that reason and both players are told. EFORBIDDEN
// for a player who is not to act; EINVALID for a game not being played
// and for a claim the rules do not allow, saying why.
func (s *Service) claimDraw(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *bot.Game) ([]bot.Notification, error) {
		rg, err := s.replay(g)
		if err != nil {
			return nil, err
		}
		p := rg.Position()
		if userToAct(g, &p) != userID {
			return nil, bot.Errorf(bot.EFORBIDDEN, "Only the player to act may claim a draw in game %d, and it is not your turn.", g.ID)
		}
		reason, ok := rg.DrawClaim()
		if !ok {
			return nil, bot.Errorf(bot.EINVALID, "%s", noClaim(g, rg))
		}
		now := s.now()
		g.Updated = now
		return s.finish(g, bot.Draw, reason, now), nil
	})
}

// noClaim says why no draw can be claimed now in g, replayed as rg.
func noClaim(g *bot.Game, rg *rules.Game) string {
	v := rg.Variant()
	if v.RepetitionClaim == 0 && v.DrawClaimPlies == 0 {
		return fmt.Sprintf("No draw can be claimed in %s: its rules have no draw claims (offer a draw instead).", v.Name)
	}
	msg := fmt.Sprintf("No draw can be claimed in game %d now:", g.ID)
	if v.RepetitionClaim > 0 {
		msg += fmt.Sprintf(" the position has occurred %s, a claim needs it %s;", times(rg.Repetitions()), times(v.RepetitionClaim))
	}
	if v.DrawClaimPlies > 0 {
		p := rg.Position()
		were := "were"
		if p.HalfmoveClock() == 1 {
			were = "was"
		}
		msg += fmt.Sprintf(" %s (plies) %s played without a capture or pawn move, a claim needs %d;", counted(p.HalfmoveClock(), "move"), were, v.DrawClaimPlies)
	}
	return msg[:len(msg)-1] + "."
}

// abort ends game gameID without a result on behalf of userID, either
// player, while the players have not both moved (BothMoved; a game in its
// pre-game choice included): status GameAborted, ReasonAborted, both
// players told (NotifyGameOver). EINVALID once both have moved (resign or
// offer a draw instead) and for a game that is over.
func (s *Service) abort(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if err := player(g, userID); err != nil {
			return nil, err
		}
		if g.Tournament != 0 && g.Ongoing() {
			return nil, bot.Errorf(bot.EINVALID, "Game %d is a game of tournament %d, so it cannot be aborted: resign it, or leave the tournament.", g.ID, g.Tournament)
		}
		if g.Status != bot.GameSetup {
			if err := s.playing(g); err != nil {
				return nil, err
			}
			moved, err := s.bothMoved(g)
			if err != nil {
				return nil, err
			}
			if moved {
				return nil, bot.Errorf(bot.EINVALID, "Both players have moved in game %d, so it can no longer be aborted: resign or offer a draw instead.", g.ID)
			}
		}
		now := s.now()
		g.Status, g.Result, g.Reason, g.Updated = bot.GameAborted, bot.NoResult, ReasonAborted, now
		stopClock(g)
		return toBoth(g, bot.NotifyGameOver, fmt.Sprintf("Game %d was aborted by <@%s>.", g.ID, userID), now), nil
	})
}

// lastOwnMove returns the index in g's moves of the last move userID
// made themselves (not forced), or -1.
func lastOwnMove(g *bot.Game, rg *rules.Game, userID string) int {
	plies := pliesOf(rg)
	for i := len(plies) - 1; i >= 0; i-- {
		if !plies[i].forced && g.Player(plies[i].actor == rules.White) == userID {
			return i
		}
	}
	return -1
}

// requestTakeback asks, on behalf of userID, to take back userID's last
// move in game gameID; the opponent is told (NotifyTakebackAsked) and may
// accept (ActAcceptTakeback) or decline (ActDeclineTakeback). Any move clears
// the request. EINVALID for a game not being played, for a player who
// has not made a move of their own yet, and while a request stands.
func (s *Service) requestTakeback(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updatePlaying(ctx, gameID, version, userID, func(g *bot.Game) ([]bot.Notification, error) {
		switch g.Takeback {
		case userID:
			return nil, bot.Errorf(bot.EINVALID, "Your takeback request in game %d stands already.", g.ID)
		case opponent(g, userID):
			return nil, bot.Errorf(bot.EINVALID, "Your opponent asks to take back a move in game %d: accept or decline that first.", g.ID)
		}
		rg, err := s.replay(g)
		if err != nil {
			return nil, err
		}
		if lastOwnMove(g, rg, userID) < 0 {
			return nil, bot.Errorf(bot.EINVALID, "You have no move to take back in game %d.", g.ID)
		}
		now := s.now()
		g.Takeback, g.Updated = userID, now
		return []bot.Notification{gameNotification(g, bot.NotifyTakebackAsked, opponent(g, userID),
			fmt.Sprintf("<@%s> asks to take back their last move in game %d: accept or decline.", userID, g.ID), now)}, nil
	})
}

// acceptTakeback grants the takeback asked in game gameID: userID must be
// the opponent of the player who asked. The moves after the asker's last
// move of their own are removed with it (so the asker is to act again, in
// the same phase of their turn), the clock of the asker's turn restarts,
// a standing draw offer lapses, the conditional lines (Forecast) are
// dropped, and both players are told
// (NotifyTakenBack). EINVALID when the game is not being played, no
// request stands, or the request is userID's own.
func (s *Service) acceptTakeback(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	reminders := s.gameReminders(ctx, gameID)
	g, err := s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if err := s.takebackTo(g, userID); err != nil {
			return nil, err
		}
		rg, err := s.replay(g)
		if err != nil {
			return nil, err
		}
		asker := g.Takeback
		i := lastOwnMove(g, rg, asker)
		if i < 0 {
			return nil, fmt.Errorf("game %d: takeback asked by %s, who has no move of their own", g.ID, asker)
		}
		removed := len(g.Moves) - i
		g.Moves = g.Moves[:i]
		g.Forecasts = nil // read from a position that is no longer the game's
		if rg, err = s.replay(g); err != nil {
			return nil, err
		}
		now := s.now()
		p := rg.Position()
		g.FEN, g.ToAct = p.FEN(), userToAct(g, &p)
		startTurn(g, now, reminders)
		g.DrawOffer, g.Takeback, g.Updated = "", "", now
		what := "their last move"
		if removed > 1 {
			what = fmt.Sprintf("their last move (%d moves were taken back)", removed)
		}
		return toBoth(g, bot.NotifyTakenBack, fmt.Sprintf("Game %d: <@%s> accepted that <@%s> takes back %s. It is <@%s>'s turn.",
			g.ID, userID, asker, what, g.ToAct), now), nil
	})
	if err != nil {
		return nil, err
	}
	return s.recheckReminder(ctx, g, reminders), nil
}

// declineTakeback refuses the takeback asked in game gameID: userID must
// be the opponent of the player who asked, who is told
// (NotifyTakebackDeclined). Errors as for AcceptTakeback.
func (s *Service) declineTakeback(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if err := s.takebackTo(g, userID); err != nil {
			return nil, err
		}
		now := s.now()
		asker := g.Takeback
		g.Takeback, g.Updated = "", now
		return []bot.Notification{gameNotification(g, bot.NotifyTakebackDeclined, asker,
			fmt.Sprintf("<@%s> declined your takeback request in game %d.", userID, g.ID), now)}, nil
	})
}

// takebackTo refuses an answer of userID to a takeback request in g
// unless one of userID's opponent stands in the active game.
func (s *Service) takebackTo(g *bot.Game, userID string) error {
	if err := player(g, userID); err != nil {
		return err
	}
	if err := s.playing(g); err != nil {
		return err
	}
	switch g.Takeback {
	case "":
		return bot.Errorf(bot.EINVALID, "No takeback is asked in game %d.", g.ID)
	case userID:
		return bot.Errorf(bot.EINVALID, "The takeback request in game %d is your own: your opponent answers it.", g.ID)
	}
	return nil
}

// updatePlaying updates game gameID, expected at version, on behalf of
// userID: fn runs only when userID plays in the game (EFORBIDDEN
// otherwise, as player says) and it is being played (EINVALID otherwise,
// as playing says). Errors and contract as GameStore.UpdateGame.
func (s *Service) updatePlaying(ctx context.Context, gameID, version uint64, userID string, fn func(g *bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	return s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if err := player(g, userID); err != nil {
			return nil, err
		}
		if err := s.playing(g); err != nil {
			return nil, err
		}
		return fn(g)
	})
}
