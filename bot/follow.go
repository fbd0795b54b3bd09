package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairypost/fairypost/rules"
)

// MaxFollowers is the most spectators who follow one game.
const MaxFollowers = 25

// Follow has userID, who does not play in game gameID, follow it: from
// now on they are sent the moves of the game as they are played and its
// result (NotifyFollow), where their notifications go. Following changes
// only what the game record keeps besides play (GameStore.AnnotateGame),
// so the players' buttons stay valid. Errors, with nothing changed:
// ENOTFOUND for an unknown game; EINVALID for an empty user ID, a player
// of the game (who is told anyway), a game that is over, one userID
// follows already, and one with MaxFollowers followers. Who may see the
// game is the adapter's to check.
func (s *Service) Follow(ctx context.Context, gameID uint64, userID string) (*Game, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Who follows? No user given.")
	}
	return s.games.AnnotateGame(ctx, gameID, func(g *Game) ([]Notification, error) {
		switch {
		case g.IsPlayer(userID):
			return nil, Errorf(EINVALID, "You play in game %d: you are told of its moves already.", g.ID)
		case !g.Ongoing():
			return nil, Errorf(EINVALID, "Game %d is over: there is nothing left to follow (/history shows its moves).", g.ID)
		case slices.Contains(g.Followers, userID):
			return nil, Errorf(EINVALID, "You follow game %d already: /unfollow stops it.", g.ID)
		case len(g.Followers) >= MaxFollowers:
			return nil, Errorf(EINVALID, "Game %d has %d followers, the most there can be.", g.ID, MaxFollowers)
		}
		g.Followers = append(g.Followers, userID)
		return nil, nil
	})
}

// Unfollow stops userID following game gameID. ENOTFOUND for an unknown
// game; EINVALID when userID does not follow it.
func (s *Service) Unfollow(ctx context.Context, gameID uint64, userID string) (*Game, error) {
	return s.games.AnnotateGame(ctx, gameID, func(g *Game) ([]Notification, error) {
		i := slices.Index(g.Followers, userID)
		if i < 0 {
			return nil, Errorf(EINVALID, "You do not follow game %d.", g.ID)
		}
		g.Followers = slices.Delete(slices.Clone(g.Followers), i, i+1)
		if len(g.Followers) == 0 {
			g.Followers = nil
		}
		return nil, nil
	})
}

// followNotifications tells each follower of g the moves of rg (the replay of g)
// from the 0-based ply from on, once a turn is complete: when the game
// stands at the start of a turn (or is over), the moves from the start
// of the turn that holds ply from, in one notification each ("Game 12
// (...): <@a> played e4; <@b> played e5"); none in the middle of a turn
// (which is told whole when it ends), without followers or without such
// moves.
func (s *Service) followNotifications(g *Game, rg *rules.Game, from int, now time.Time) []Notification {
	if len(g.Followers) == 0 || from >= len(rg.Moves()) {
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
	return toFollowers(g, text, now)
}

// toFollowers returns a NotifyFollow notification of text to each
// follower of g.
func toFollowers(g *Game, text string, now time.Time) []Notification {
	var out []Notification
	for _, u := range g.Followers {
		out = append(out, gameNotification(g, NotifyFollow, u, text, now))
	}
	return out
}
