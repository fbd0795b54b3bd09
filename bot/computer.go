package bot

import (
	"context"
	"sync/atomic"

	"github.com/fairypost/fairypost/ai"
)

// The computer player (package ai) plays under one user ID, the bot's own
// (on Discord its application's user, in the console "bot"): a challenge
// to it is accepted at once, as a casual game at the level asked for
// (Challenge.Level, Game.Level), and a ComputerRunner plays its turns as
// soon as they come, through the same compare-and-swap as a person's
// move. Nothing is ever sent to it: the notifications addressed to it are
// left out where they are made.

// Computer levels: ai's levels, 1 (a few hundred positions a move) to
// ai.TopLevel (by time: ai.DefaultMoveTime a move).
const (
	MinComputerLevel     = 1
	MaxComputerLevel     = ai.TopLevel
	DefaultComputerLevel = 4
)

// computer is the Service's computer player: the user ID it plays under
// and how its turns are woken (ComputerRunner.Run installs that).
type computer struct {
	id   atomic.Pointer[string]
	wake atomic.Pointer[func(gameID uint64)]
}

// SetComputer sets the user ID the computer player plays under ("" for
// none, the default). Transports call it once they know their own user
// (a Discord bot learns it when it connects), before serving.
func (s *Service) SetComputer(userID string) { s.computer.id.Store(&userID) }

// ComputerID returns the user ID the computer player plays under, or "".
func (s *Service) ComputerID() string {
	if id := s.computer.id.Load(); id != nil {
		return *id
	}
	return ""
}

// IsComputer reports whether userID is the computer player.
func (s *Service) IsComputer(userID string) bool {
	id := s.ComputerID()
	return id != "" && userID == id
}

// notComputer returns notes without those addressed to the computer
// player (it reads none), in the same slice.
func (s *Service) notComputer(notes []Notification) []Notification {
	id := s.ComputerID()
	if id == "" {
		return notes
	}
	kept := notes[:0]
	for _, n := range notes {
		if n.UserID != id {
			kept = append(kept, n)
		}
	}
	return kept
}

// wakeComputer tells the computer's runner that g, just written, may want
// it: its turn or choice, or an offer or request of its opponent.
func (s *Service) wakeComputer(g *Game) {
	if g == nil || !g.Ongoing() || !g.IsPlayer(s.ComputerID()) {
		return
	}
	if w := s.computer.wake.Load(); w != nil {
		(*w)(g.ID)
	}
}

// computerGames is the GameStore of a Service: every update's
// notifications for the computer player are left out, and a game it plays
// wakes it after each update.
type computerGames struct {
	GameStore
	svc *Service
}

// UpdateGame is GameStore.UpdateGame with notes to the computer left out.
func (c computerGames) UpdateGame(ctx context.Context, id, expected uint64, fn func(*Game) ([]Notification, error)) (*Game, error) {
	g, err := c.GameStore.UpdateGame(ctx, id, expected, func(g *Game) ([]Notification, error) {
		notes, err := fn(g)
		return c.svc.notComputer(notes), err
	})
	if err == nil {
		c.svc.wakeComputer(g)
	}
	return g, err
}
