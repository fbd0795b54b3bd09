package bot

import (
	"context"
	"time"
)

// DeferredAnswer is an interaction an adapter acknowledged as deferred
// (the user sees "thinking…") and has not answered yet. It is kept in a
// store shared by the processes (DeferredStore) so that, when the process
// that deferred it dies, another one can still answer with the
// interaction's token, which stays valid until Expires.
type DeferredAnswer struct {
	// InteractionID identifies the record; ApplicationID and Token are
	// what editing the deferred response needs.
	InteractionID, ApplicationID, Token string
	// Owner names the process that deferred it (the name it is a
	// candidate under in the election of the processes sharing the
	// store): while Owner lives it answers itself.
	Owner string
	// UserID asked, in ChannelID; Request is what they asked, as they
	// typed it ("/move e4") or "a button".
	UserID, ChannelID, Request string
	// GameID is the game a move was asked in (0: not a move, or no game
	// found). Move is the move as typed. Before is the number of plies
	// the game had before this request's move: the move was played when
	// the game has more (Moves[Before] is it). -1 when the request cannot
	// have played a move (it was not the user's turn).
	GameID uint64
	Move   string
	Before int
	// Deferred is when it was acknowledged; Expires when its token stops
	// accepting answers (the store may forget it from then on).
	Deferred, Expires time.Time
}

// DeferredStore keeps the deferred answers not answered yet (see
// DeferredAnswer). Safe for concurrent use by every process sharing the
// store.
type DeferredStore interface {
	// PutDeferred records a, replacing a record of the same
	// InteractionID; it is kept until DeleteDeferred or a.Expires.
	// EINVALID for a record without InteractionID or Token, or expired.
	PutDeferred(ctx context.Context, a DeferredAnswer) error
	// DeleteDeferred forgets the record of interactionID (answered);
	// deleting one that is not there is no error.
	DeleteDeferred(ctx context.Context, interactionID string) error
	// DeferredAnswers returns the records whose Expires is after now,
	// ordered by Deferred; records past their time are never returned
	// (and may be dropped).
	DeferredAnswers(ctx context.Context, now time.Time) ([]DeferredAnswer, error)
}

// DeferredOutcome is what the store says of a deferred move: played
// (the move as recorded, in Moves[a.Before]) or not.
func DeferredOutcome(a DeferredAnswer, g *Game) (played bool, move string) {
	if g == nil || a.Before < 0 || len(g.Moves) <= a.Before {
		return false, ""
	}
	return true, g.Moves[a.Before]
}
