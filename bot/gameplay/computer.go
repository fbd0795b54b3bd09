package gameplay

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fairypost/fairypost/ai"
	"github.com/fairypost/fairypost/bot"
)

// The computer player (package ai) plays under one user ID, the bot's own
// (on Discord its application's user, in the console "bot"): a challenge
// to it is accepted at once, as a casual game at the level asked for
// (Challenge.Level, Game.Level), and a runner (package bot/computer) plays its turns as
// soon as they come, through the same compare-and-swap as a person's
// move. Nothing is ever sent to it: the notifications addressed to it are
// left out where they are made. What it does that no reply to a person
// shows (its turns, its draw offers) is posted to the game's thread
// through the outbox, in the transaction that stores it (computerPosts).

// Computer levels: ai's levels, 1 (a few hundred positions a move) to
// ai.TopLevel (by time: ai.DefaultMoveTime a move).
const (
	MinComputerLevel     = 1
	MaxComputerLevel     = ai.TopLevel
	DefaultComputerLevel = 4
)

// computer is the Service's computer player: the user ID it plays
// under. Its runner (package bot/computer) registers its wake-up with the
// Service when it is made (OnComputerGame).
type computer struct {
	id atomic.Pointer[string]
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

// notComputer returns told without those addressed to the computer
// player (it reads none), in the same slice.
func (s *Service) notComputer(told []bot.Notification) []bot.Notification {
	id := s.ComputerID()
	if id == "" {
		return told
	}
	kept := told[:0]
	for _, n := range told {
		if n.UserID != id {
			kept = append(kept, n)
		}
	}
	return kept
}

// wakeComputer returns the GameEvent that tells the computer's runner,
// through wake, that g, just written, may want it: its turn or choice,
// an offer or request of its opponent, or its end (the runner forgets
// what it kept of the game). Games it does not play wake nothing. Under
// a context from HoldComputer the wake waits for its release.
func (s *Service) wakeComputer(wake func(gameID uint64)) bot.GameEvent {
	return func(ctx context.Context, g *bot.Game) {
		if g == nil || !g.IsPlayer(s.ComputerID()) {
			return
		}
		if h, ok := ctx.Value(heldKey{}).(*heldWakes); ok && h.hold(g.ID, wake) {
			return
		}
		wake(g.ID)
	}
}

// OnComputerGame registers wake to be called with the ID of every game
// the computer plays after each committed update of it, or its creation
// (OnGameCommitted), held under a context from HoldComputer until its
// release: how its runner (package bot/computer) learns of its turns. As
// AddFinisher, while the Service is built, before it serves.
func (s *Service) OnComputerGame(wake func(gameID uint64)) { s.OnGameCommitted(s.wakeComputer(wake)) }

// HoldComputer returns a context under which the updates of games the
// computer plays do not wake it at once, and the function that wakes it
// for each game so held (once each; later calls do nothing, and an
// update after it wakes at once again). An adapter answering a player
// runs the request under it and releases after the answer is out, so
// that the computer's reply (and its post in the game's thread) comes
// after the player's own move is shown. A release never called holds the
// wakes until the runner's next scan (a restart).
func (s *Service) HoldComputer(ctx context.Context) (context.Context, func()) {
	h := &heldWakes{}
	return context.WithValue(ctx, heldKey{}, h), func() {
		for _, w := range h.release() {
			w.wake(w.id)
		}
	}
}

// heldKey is the context key of HoldComputer's heldWakes.
type heldKey struct{}

// heldWakes are the games whose wakes wait for a release.
type heldWakes struct {
	mu       sync.Mutex
	held     []heldWake
	released bool
}

// heldWake is one wake held: game id for the runner woken by wake.
type heldWake struct {
	id   uint64
	wake func(gameID uint64)
}

// hold keeps the wake of game id through wake for the release and
// reports whether it did: false once released.
func (h *heldWakes) hold(id uint64, wake func(gameID uint64)) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return false
	}
	if !slices.ContainsFunc(h.held, func(w heldWake) bool { return w.id == id }) {
		h.held = append(h.held, heldWake{id: id, wake: wake})
	}
	return true
}

// release ends the hold and returns the wakes held.
func (h *heldWakes) release() []heldWake {
	h.mu.Lock()
	defer h.mu.Unlock()
	held := h.held
	h.held, h.released = nil, true
	return held
}

// computerTurnPosts is the computer player's Finisher: the update's
// notifications addressed to the computer are left out (it reads none),
// and what it did that no reply to a person shows is posted to the game's
// thread (computerPosts), first, so that the thread tells the move before
// anyone is pinged about it.
func (s *Service) computerTurnPosts(u *bot.GameUpdate) error {
	u.Notifications = s.notComputer(u.Notifications)
	if posts := s.computerPosts(u.Game, u.Before); len(posts) > 0 {
		u.Notifications = append(posts, u.Notifications...)
	}
	return nil
}

// computerPosts returns the posts to g's thread (notifications to
// nobody, UserID "") for what the computer player did in an update of
// g, which was before as read (GameUpdate.Before): the moves it appended while it was to act
// once its turn is over (the turn passed, or the game ended), as one
// NotifyComputerTurn, and the draw it offered, as a NotifyDrawOffered. A
// person's moves and offers need none: the reply to their command is
// posted. Nothing when the computer does not play in g.
func (s *Service) computerPosts(g *bot.Game, before bot.GameBefore) []bot.Notification {
	me := s.ComputerID()
	if me == "" || !g.IsPlayer(me) {
		return nil
	}
	now := s.now()
	var posts []bot.Notification
	if before.ToAct == me && len(g.Moves) > before.Moves && (g.Status != bot.GameActive || g.ToAct != me) {
		posts = append(posts, gameNotification(g, bot.NotifyComputerTurn, "",
			fmt.Sprintf("<@%s> played in game %d (%s).", me, g.ID, s.VariantName(g.Variant, g.Options)), now))
	}
	if before.DrawOffer != me && g.DrawOffer == me && g.Status == bot.GameActive {
		posts = append(posts, gameNotification(g, bot.NotifyDrawOffered, "",
			fmt.Sprintf("<@%s> offers a draw in game #%d. <@%s>: accept or decline with the buttons or /draw, or move to decline it.",
				me, g.ID, opponent(g, me)), now))
	}
	return posts
}
