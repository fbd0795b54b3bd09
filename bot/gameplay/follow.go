package gameplay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// MaxFollowers is the most spectators who follow one game.
const MaxFollowers = 25

// Follow has userID, who does not play in game gameID, follow it: from
// now on they are sent the moves of the game as they are played and its
// result (NotifyFollow), where their notifications go. Following is
// kept apart from the game (FollowStore), so the players' buttons stay
// valid. Errors, with nothing changed: ENOTFOUND for an unknown game;
// EINVALID for an empty user ID, a player of the game (who is told
// anyway), a game that is over, one userID follows already, and one with
// MaxFollowers followers. Who may see the game is the adapter's to
// check. It returns the game as read.
func (s *Service) Follow(ctx context.Context, gameID uint64, userID string) (*bot.Game, error) {
	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Who follows? No user given.")
	}
	g, err := s.followed(ctx, gameID)
	if err != nil {
		return nil, err
	}
	switch {
	case g.IsPlayer(userID):
		return nil, bot.Errorf(bot.EINVALID, "You play in game %d: you are told of its moves already.", g.ID)
	case !g.Ongoing():
		return nil, bot.Errorf(bot.EINVALID, "Game %d is over: there is nothing left to follow (/history shows its moves).", g.ID)
	}
	// A game that ends between the read above and this write keeps a
	// follower it will never tell anything: harmless.
	err = s.follows.UpdateFollow(ctx, gameID, userID, func(follows bool, n int) (bool, error) {
		switch {
		case follows:
			return true, bot.Errorf(bot.EINVALID, "You follow game %d already: /unfollow stops it.", g.ID)
		case n >= MaxFollowers:
			return false, bot.Errorf(bot.EINVALID, "Game %d has %d followers, the most there can be.", g.ID, MaxFollowers)
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Unfollow stops userID following game gameID and returns the game as
// read. ENOTFOUND for an unknown game; EINVALID when userID does not
// follow it.
func (s *Service) Unfollow(ctx context.Context, gameID uint64, userID string) (*bot.Game, error) {
	g, err := s.followed(ctx, gameID)
	if err != nil {
		return nil, err
	}
	err = s.follows.UpdateFollow(ctx, gameID, userID, func(follows bool, _ int) (bool, error) {
		if !follows {
			return false, bot.Errorf(bot.EINVALID, "You do not follow game %d.", g.ID)
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// followed reads game gameID for Follow and Unfollow; EINVALID when the
// Service keeps no follows.
func (s *Service) followed(ctx context.Context, gameID uint64) (*bot.Game, error) {
	if s.follows == nil {
		return nil, bot.Errorf(bot.EINVALID, "This bot keeps no followers.")
	}
	return s.games.Game(ctx, gameID)
}

// followersOf returns the followers of game id, read before an update
// of it so that the update's function reads no store; nil when the
// Service keeps no follows.
func (s *Service) followersOf(ctx context.Context, id uint64) ([]string, error) {
	if s.follows == nil {
		return nil, nil
	}
	return s.follows.Followers(ctx, id)
}

// resultToFollowers returns, for an update that ended g with a result
// (before is the game as the update read it), the players' game-over
// notification among told as a NotifyFollow notification to each of
// followers; nil for any other update.
func resultToFollowers(before bot.GameBefore, g *bot.Game, told []bot.Notification, followers []string) []bot.Notification {
	if len(followers) == 0 || !before.Ongoing || g.Status != bot.GameFinished {
		return nil
	}
	for _, n := range told {
		if n.Kind == bot.NotifyGameOver && n.GameID == g.ID {
			return toFollowers(g, followers, n.Text, n.Created)
		}
	}
	return nil
}

// followNotes tells each of followers (of g) the moves of rg (the replay of g)
// from the 0-based ply from on, once a turn is complete: when the game
// stands at the start of a turn (or is over), the moves from the start
// of the turn that holds ply from, in one notification each ("Game 12
// (...): <@a> played e4; <@b> played e5"); none in the middle of a turn
// (which is told whole when it ends), without followers or without such
// moves.
func (s *Service) followNotifications(g *bot.Game, followers []string, rg *rules.Game, from int, now time.Time) []bot.Notification {
	if len(followers) == 0 || from >= len(rg.Moves()) {
		return nil
	}
	if p := rg.Position(); !p.BeginsTurn() && !rg.Outcome().Over() {
		return nil
	}
	for from > 0 {
		if p := rg.PositionAt(from); p.BeginsTurn() {
			break
		}
		from--
	}
	var parts []string
	var who string
	var sans []string
	flush := func() {
		if who != "" {
			parts = append(parts, fmt.Sprintf("<@%s> played %s", who, strings.Join(sans, ", ")))
		}
	}
	for _, e := range historyFrom(g, rg, from) {
		if e.UserID != who {
			flush()
			who, sans = e.UserID, nil
		}
		san := e.SAN
		if e.Forced {
			san += " (the only legal move)"
		}
		sans = append(sans, san)
	}
	flush()
	text := fmt.Sprintf("Game %d (%s, <@%s> vs <@%s>): %s.", g.ID, s.VariantName(g.Variant, g.Options), g.White, g.Black, strings.Join(parts, "; "))
	return toFollowers(g, followers, text, now)
}

// toFollowers returns a NotifyFollow notification of text to each of
// followers, about g.
func toFollowers(g *bot.Game, followers []string, text string, now time.Time) []bot.Notification {
	var out []bot.Notification
	for _, u := range followers {
		out = append(out, gameNotification(g, bot.NotifyFollow, u, text, now))
	}
	return out
}
