package gameplay

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// LegalMove is a move the player to act may make, in both notations.
type LegalMove struct {
	Friendly  string // the SAN-like form for people (rules/notation)
	Canonical string // the stored coordinate form (rules.FormatMove)
}

// HistoryEntry is one move of a game, as played.
type HistoryEntry struct {
	Ply       int         // 1 for the first move of the game
	Color     rules.Color // the side that made the move
	UserID    string      // the player who made it
	SAN       string      // the friendly form, in the position it was played in
	Canonical string      // the stored coordinate form
	// Forced reports a pass that was the only legal move, which the bot
	// plays for the player (see Service.Move).
	Forced bool
}

// Turn is one player's turn (rules.Position.BeginsTurn): the moves from
// the position that begins it up to the next such position. Most turns
// are one move; a Train Wreck turn is two half-moves; a Winning Chess
// turn may hold the opponent's Defender answer between its Attacker's
// steps: that entry has the opponent's Color and UserID.
type Turn struct {
	Number int         // the full-move number of the position that begins it, as PGN numbers moves
	Color  rules.Color // whose turn it is
	UserID string      // the player whose turn it is
	Moves  []HistoryEntry
}

// ongoing reports whether g is still to be played (a pre-game choice or
// moves).
func ongoing(g *bot.Game) bool { return g.Ongoing() }

// ActiveGames returns the games userID plays that are not over (pre-game
// choice or active): those where userID is to act first, then by time
// left (earliest Deadline first, unlimited games last), then by ID. It
// reads the store's index by user and renders nothing. EINVALID for an
// empty user ID.
func (sub Views) ActiveGames(ctx context.Context, userID string) ([]*bot.Game, error) {
	s := sub.s

	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Whose games? No user given.")
	}
	games, err := s.games.ActiveGamesByUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(games, func(a, b *bot.Game) int {
		if at, bt := a.ToAct == userID, b.ToAct == userID; at != bt {
			if at {
				return -1
			}
			return 1
		}
		if c := compareDeadlines(a.Deadline, b.Deadline); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return games, nil
}

// ChannelGames returns the games of channelID that are not over (pre-game
// choice or active), by ID. EINVALID for an empty channel ID.
func (sub Views) ChannelGames(ctx context.Context, channelID string) ([]*bot.Game, error) {
	s := sub.s

	if channelID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Which channel? No channel given.")
	}
	all, err := s.games.ActiveGamesByChannel(ctx, channelID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(g *bot.Game) bool { return !ongoing(g) }), nil
}

// Game returns game id as stored, or ENOTFOUND. Anyone may look.
func (sub Views) Game(ctx context.Context, id uint64) (*bot.Game, error) {
	s := sub.s

	return s.games.Game(ctx, id)
}

// Replay returns game id and its replayed rules game (start position and
// every stored move). ENOTFOUND for an unknown game; a stored game that
// does not replay is an internal error.
func (sub Views) Replay(ctx context.Context, id uint64) (*bot.Game, *rules.Game, error) {
	s := sub.s

	g, err := s.games.Game(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	rg, err := s.replay(g)
	if err != nil {
		return nil, nil, err
	}
	return g, rg, nil
}

// LegalMoves returns the moves userID may make now in game gameID, in the
// rules engine's order, each in the friendly and the canonical form. It
// is empty (and no error) when the game is not active (a pre-game choice
// or over) or it is not userID's turn, including when userID does not
// play in it. It renders nothing, so it suits autocompletion.
// ENOTFOUND for an unknown game.
func (sub Views) LegalMoves(ctx context.Context, gameID uint64, userID string) ([]LegalMove, error) {
	s := sub.s

	g, err := s.games.Game(ctx, gameID)
	if err != nil {
		return nil, err
	}
	if g.Status != bot.GameActive || userID == "" || g.ToAct != userID {
		return nil, nil
	}
	rg, err := s.replay(g)
	if err != nil {
		return nil, err
	}
	p := rg.Position()
	if userToAct(g, &p) != userID {
		return nil, nil
	}
	moves := rg.Legal()
	sans := notation.SANs(&p, moves)
	out := make([]LegalMove, len(moves))
	for i, m := range moves {
		out[i] = LegalMove{Friendly: sans[i], Canonical: rules.FormatMove(&p, m)}
	}
	return out, nil
}

// History returns every move of game id, in order, each with the player
// who made it and both notations. ENOTFOUND for an unknown game.
func (sub Views) History(ctx context.Context, id uint64) ([]HistoryEntry, error) {
	s := sub.s

	g, rg, err := s.Views().Replay(ctx, id)
	if err != nil {
		return nil, err
	}
	return history(g, rg), nil
}

// history lists the moves of rg, the replay of g.
func history(g *bot.Game, rg *rules.Game) []HistoryEntry { return historyFrom(g, rg, 0) }

// historyFrom lists the moves of rg, the replay of g, from the 0-based
// ply from on.
func historyFrom(g *bot.Game, rg *rules.Game, from int) []HistoryEntry {
	moves := rg.Moves()
	out := make([]HistoryEntry, 0, len(moves)-from)
	for i := from; i < len(moves); i++ {
		m := moves[i]
		p := rg.PositionAt(i)
		e := HistoryEntry{Ply: i + 1, Color: p.ToAct(), UserID: userToAct(g, &p),
			SAN: notation.SAN(&p, m), Canonical: rules.FormatMove(&p, m)}
		if m.Kind == rules.KindPass {
			e.Forced = len(p.Legal(nil)) == 1
		}
		out = append(out, e)
	}
	return out
}

// Turns returns the moves of game id grouped into turns, in order (see
// Turn). ENOTFOUND for an unknown game.
func (sub Views) Turns(ctx context.Context, id uint64) ([]Turn, error) {
	s := sub.s

	g, rg, err := s.Views().Replay(ctx, id)
	if err != nil {
		return nil, err
	}
	return TurnsOf(g, rg), nil
}

// TurnsOf groups the moves of rg, the replay of g, into turns. A game
// that started in the middle of a turn has that turn's rest first, owned
// by the player to act at the start.
func TurnsOf(g *bot.Game, rg *rules.Game) []Turn { return TurnsSince(g, rg, 0) }

// TurnsSince is TurnsOf from the turn that holds the 0-based ply ply on:
// the latest turns of a game without the cost of writing every move.
// It is empty when ply is not a move of rg.
func TurnsSince(g *bot.Game, rg *rules.Game, ply int) []Turn {
	if ply < 0 || ply >= len(rg.Moves()) {
		return nil
	}
	for ply > 0 {
		if p := rg.PositionAt(ply); p.BeginsTurn() {
			break
		}
		ply--
	}
	var turns []Turn
	for _, e := range historyFrom(g, rg, ply) {
		i := e.Ply - 1
		p := rg.PositionAt(i)
		if i == ply || p.BeginsTurn() {
			turns = append(turns, Turn{Number: p.Fullmove(), Color: p.ToAct(), UserID: userToAct(g, &p)})
		}
		t := &turns[len(turns)-1]
		t.Moves = append(t.Moves, e)
	}
	return turns
}

// PendingChallenges returns the challenges addressed to userID that they
// may still answer (pending and not expired), newest first. Open
// challenges in a channel are not included: they are addressed to nobody.
// EINVALID for an empty user ID.
func (sub Challenges) PendingChallenges(ctx context.Context, userID string) ([]*bot.Challenge, error) {
	s := sub.s

	if userID == "" {
		return nil, bot.Errorf(bot.EINVALID, "Whose challenges? No user given.")
	}
	all, err := s.challenges.ChallengesByUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := slices.DeleteFunc(all, func(c *bot.Challenge) bool {
		return c.Status != bot.ChallengePending || c.Challenged != userID || !now.Before(c.Expires)
	})
	slices.SortFunc(out, func(a, b *bot.Challenge) int { return cmp.Compare(b.ID, a.ID) })
	return out, nil
}

// compareDeadlines orders deadlines earliest first, with the zero time
// (no time limit) after every real deadline.
func compareDeadlines(a, b time.Time) int {
	switch {
	case a.IsZero() && b.IsZero():
		return 0
	case a.IsZero():
		return 1
	case b.IsZero():
		return -1
	}
	return a.Compare(b)
}

// Views reads games for display: listings, replays, legal moves, history,
// turns and PGN. It changes nothing. Obtained from Service.Views.
type Views struct{ s *Service }

// Views returns the Service's read side.
func (s *Service) Views() Views { return Views{s} }
