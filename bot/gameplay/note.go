package gameplay

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/fairypost/fairypost/bot"
)

// MaxNoteLen is the longest private note a player keeps on a game, in
// characters (its lines and the line breaks between them): room for a
// note shown with the board's header and status in one 2000-character
// message.
const MaxNoteLen = 1500

// Notes are the players' private notes on their games, kept by the
// Service's NoteStore.
type Notes struct{ s *Service }

// Notes returns the players' private notes.
func (s *Service) Notes() Notes { return Notes{s} }

// Add adds text as a new line of userID's private note on game
// gameID and returns the whole note. The note is kept apart from the
// game (NoteStore: the game and its Version do not change) and shown
// only to its writer. Errors, with nothing changed: ENOTFOUND for an
// unknown game; EFORBIDDEN for a user who does not play in it; EINVALID
// for empty text and for a note that would grow past MaxNoteLen
// characters, saying how many it holds.
func (ns Notes) Add(ctx context.Context, gameID uint64, userID, text string) (string, error) {
	s := ns.s
	text = strings.TrimSpace(text)
	if text == "" {
		return "", bot.Errorf(bot.EINVALID, "Write the note: /note action:add text:...")
	}
	if err := s.notePlayer(ctx, gameID, userID); err != nil {
		return "", err
	}
	return s.noteStore.UpdateNote(ctx, gameID, userID, func(old string) (string, error) {
		note := text
		if old != "" {
			note = old + "\n" + text
		}
		if n := utf8.RuneCountInString(note); n > MaxNoteLen {
			return "", bot.Errorf(bot.EINVALID, "A note holds at most %d characters; your note on game %d holds %d, and this line would make it %d: add a shorter line, or clear the note first (/note action:clear).",
				MaxNoteLen, gameID, utf8.RuneCountInString(old), n)
		}
		return note, nil
	})
}

// Clear removes userID's note on game gameID. Errors as for Add, and
// EINVALID when there is none.
func (ns Notes) Clear(ctx context.Context, gameID uint64, userID string) error {
	s := ns.s
	if err := s.notePlayer(ctx, gameID, userID); err != nil {
		return err
	}
	_, err := s.noteStore.UpdateNote(ctx, gameID, userID, func(old string) (string, error) {
		if old == "" {
			return "", bot.Errorf(bot.EINVALID, "You have no note on game %d.", gameID)
		}
		return "", nil
	})
	return err
}

// Read returns userID's private note on game gameID, "" when none.
// Errors as for Add.
func (ns Notes) Read(ctx context.Context, gameID uint64, userID string) (string, error) {
	s := ns.s
	if err := s.notePlayer(ctx, gameID, userID); err != nil {
		return "", err
	}
	return s.noteStore.Note(ctx, gameID, userID)
}

// notePlayer returns nil when userID plays in game gameID and the
// Service keeps notes; ENOTFOUND for an unknown game, EFORBIDDEN for
// someone else. The players of a game never change, so what it read
// stays true while the note is written.
func (s *Service) notePlayer(ctx context.Context, gameID uint64, userID string) error {
	if s.noteStore == nil {
		return bot.Errorf(bot.EINVALID, "This bot keeps no notes.")
	}
	g, err := s.games.Game(ctx, gameID)
	if err != nil {
		return err
	}
	return player(g, userID)
}
