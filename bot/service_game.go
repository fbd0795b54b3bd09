package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// MoveRequest is a move a user submits.
type MoveRequest struct {
	GameID  uint64
	UserID  string
	Move    string // canonical ("g1f3") or friendly ("Nf3") form
	Version uint64 // the game version the user saw, or AnyVersion
}

// MoveResult is what a committed move did.
type MoveResult struct {
	Game   *Game  // the game as stored after the move
	Played string // the move in canonical form, as stored
	SAN    string // the move in friendly form, for people
	// SameTurn reports that the player who moved acts again (a
	// multi-part turn): the adapter asks them for the next part.
	SameTurn bool
}

// Move plays req.Move in game req.GameID for req.UserID, exactly once: the
// game is replayed from its stored moves, the move is read in either
// notation and checked by the rules engine, appended, and the game's end
// (if any) is recorded, all in one store transaction together with the
// notifications: "your turn" to the player to act when that player
// changes, "game over" to both players when the game ends. The player to
// act comes from the position, so in a multi-part turn the same player
// acts several times in a row.
//
// Errors, with nothing changed: ENOTFOUND for an unknown game; ECONFLICT
// when req.Version is not AnyVersion and the game has moved on;
// EFORBIDDEN when the user does not play in the game or it is not their
// turn; EINVALID for a finished game, and for an unreadable or illegal
// move, with the rules engine's reason.
func (s *Service) Move(ctx context.Context, req MoveRequest) (*MoveResult, error) {
	var res MoveResult
	g, err := s.games.UpdateGame(ctx, req.GameID, req.Version, func(g *Game) ([]Notification, error) {
		if !g.IsPlayer(req.UserID) {
			return nil, Errorf(EFORBIDDEN, "You are not playing in game %d.", g.ID)
		}
		if g.Status != GameActive {
			return nil, Errorf(EINVALID, "Game %d is over (%s %s).", g.ID, g.Result, g.Reason)
		}
		rg, err := s.replay(g)
		if err != nil {
			return nil, err
		}
		p := rg.Position()
		if userToAct(g, &p) != req.UserID {
			return nil, Errorf(EFORBIDDEN, "It is not your turn in game %d.", g.ID)
		}
		m, err := notation.ParseMove(&p, req.Move)
		if err != nil {
			return nil, moveError(err)
		}
		res.Played, res.SAN = rules.FormatMove(&p, m), notation.SAN(&p, m)
		if err := rg.Play(m); err != nil {
			return nil, moveError(err)
		}
		now := s.now()
		next := rg.Position()
		g.Moves = append(g.Moves, res.Played)
		g.FEN, g.Updated = next.FEN(), now
		if o := rg.Outcome(); o.Over() {
			return s.finish(g, resultOf(o.Result), o.Reason, now), nil
		}
		g.ToAct = userToAct(g, &next)
		res.SameTurn = g.ToAct == req.UserID
		if res.SameTurn {
			return nil, nil
		}
		g.Deadline = deadline(g, now)
		return []Notification{yourTurn(g, now)}, nil
	})
	if err != nil {
		return nil, err
	}
	res.Game = g
	return &res, nil
}

// Resign ends game gameID as a loss for userID, who must play in it
// (EFORBIDDEN), at any moment of an active game (EINVALID once over),
// and notifies both players. version as for Move.
func (s *Service) Resign(ctx context.Context, gameID, version uint64, userID string) (*Game, error) {
	return s.games.UpdateGame(ctx, gameID, version, func(g *Game) ([]Notification, error) {
		if !g.IsPlayer(userID) {
			return nil, Errorf(EFORBIDDEN, "You are not playing in game %d.", g.ID)
		}
		if g.Status != GameActive {
			return nil, Errorf(EINVALID, "Game %d is over (%s %s).", g.ID, g.Result, g.Reason)
		}
		r := WhiteWins
		if userID == g.White {
			r = BlackWins
		}
		now := s.now()
		g.Updated = now
		return s.finish(g, r, "resignation", now), nil
	})
}

// finish records the end of g and returns the notifications for it.
func (s *Service) finish(g *Game, r Result, reason string, now time.Time) []Notification {
	g.Status, g.Result, g.Reason = GameFinished, r, reason
	g.ToAct, g.Deadline = "", time.Time{}
	text := fmt.Sprintf("Game %d is over: %s by %s.", g.ID, r, reason)
	var notes []Notification
	for _, u := range []string{g.White, g.Black} {
		notes = append(notes, Notification{Kind: NotifyGameOver, UserID: u, GuildID: g.GuildID,
			ChannelID: g.ChannelID, GameID: g.ID, Text: text, Created: now})
	}
	return notes
}

// yourTurn returns the notification that it is g.ToAct's turn.
func yourTurn(g *Game, now time.Time) Notification {
	text := fmt.Sprintf("Your turn in game %d (%s).", g.ID, g.Variant)
	if !g.Deadline.IsZero() {
		text += fmt.Sprintf(" Move before %s.", g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
	}
	return Notification{Kind: NotifyYourTurn, UserID: g.ToAct, GuildID: g.GuildID, ChannelID: g.ChannelID,
		GameID: g.ID, Text: text, Created: now}
}
