package bot

import "context"

// Note is a player's private note on a game: shown only to them.
type Note struct {
	GameID uint64
	UserID string
	Text   string
}

// Follow is a spectator following a game (Service.Follow).
type Follow struct {
	GameID uint64
	UserID string
}

// NoteStore keeps the players' private notes on games (Service.Notes),
// one record per game and user, apart from the game record: writing a
// note neither reads nor writes the game. Implementations are safe for
// concurrent use.
type NoteStore interface {
	// Note returns userID's note on game gameID, "" when there is none.
	Note(ctx context.Context, gameID uint64, userID string) (string, error)

	// Notes returns the notes on game gameID, ordered by user ID.
	Notes(ctx context.Context, gameID uint64) ([]Note, error)

	// UpdateNote changes userID's note on game gameID in one
	// transaction: fn gets the note as stored ("" for none) and returns
	// the note to store ("" removes it). If fn returns an error nothing
	// changes and the error is returned as it is. Returns the note as
	// stored. fn is pure and may run more than once: it calls no store.
	// The store does not check that the game exists: the caller has read
	// it.
	UpdateNote(ctx context.Context, gameID uint64, userID string, fn func(text string) (string, error)) (string, error)
}

// FollowStore keeps which spectators follow which game (Service.Follow),
// one record per game and user, apart from the game record, so
// following writes no game. Implementations are safe for concurrent use.
type FollowStore interface {
	// Followers returns the user IDs following game gameID, ordered by
	// user ID; nil when none.
	Followers(ctx context.Context, gameID uint64) ([]string, error)

	// UpdateFollow decides in one transaction whether userID follows
	// game gameID: fn gets whether they follow it now and how many
	// users do, and returns whether they follow it afterwards. If fn
	// returns an error nothing changes and the error is returned as it
	// is. fn is pure and may run more than once: it calls no store. The
	// store does not check that the game exists: the caller has read it.
	UpdateFollow(ctx context.Context, gameID uint64, userID string, fn func(follows bool, count int) (bool, error)) error
}
