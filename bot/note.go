package bot

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxNoteLen is the longest private note a player keeps on a game, in
// characters (its lines and the line breaks between them): room for a
// note shown with the board's header and status in one 2000-character
// message.
const MaxNoteLen = 1500

// Note is a player's private note on a game: shown only to them.
type Note struct {
	UserID string
	Text   string
}

// AddNote adds text as a new line of userID's private note on game
// gameID and returns the whole note. The note is kept with the game
// (an annotation: GameStore.AnnotateGame, Version unchanged) and shown
// only to its writer. Errors, with nothing changed: ENOTFOUND for an
// unknown game; EFORBIDDEN for a user who does not play in it; EINVALID
// for empty text and for a note that would grow past MaxNoteLen
// characters, saying how many it holds.
func (s *Service) AddNote(ctx context.Context, gameID uint64, userID, text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", Errorf(EINVALID, "Write the note: /note action:add text:...")
	}
	var out string
	_, err := s.games.AnnotateGame(ctx, gameID, func(view Game, a *Annotations) ([]Notification, error) {
		g := &view // its notes are worked on here, then kept in a
		if err := player(g, userID); err != nil {
			return nil, err
		}
		i := slices.IndexFunc(g.Notes, func(n Note) bool { return n.UserID == userID })
		note := text
		if i >= 0 {
			note = g.Notes[i].Text + "\n" + text
		}
		if n := utf8.RuneCountInString(note); n > MaxNoteLen {
			have := 0
			if i >= 0 {
				have = utf8.RuneCountInString(g.Notes[i].Text)
			}
			return nil, Errorf(EINVALID, "A note holds at most %d characters; your note on game %d holds %d, and this line would make it %d: add a shorter line, or clear the note first (/note action:clear).",
				MaxNoteLen, g.ID, have, n)
		}
		if i >= 0 {
			g.Notes[i].Text = note
		} else {
			g.Notes = append(g.Notes, Note{UserID: userID, Text: note})
		}
		a.Notes = g.Notes
		out = note
		return nil, nil
	})
	return out, err
}

// ClearNote removes userID's note on game gameID. Errors as for AddNote,
// and EINVALID when there is none.
func (s *Service) ClearNote(ctx context.Context, gameID uint64, userID string) error {
	_, err := s.games.AnnotateGame(ctx, gameID, func(g Game, a *Annotations) ([]Notification, error) {
		if err := player(&g, userID); err != nil {
			return nil, err
		}
		for i, n := range a.Notes {
			if n.UserID == userID {
				a.Notes = append(a.Notes[:i:i], a.Notes[i+1:]...)
				if len(a.Notes) == 0 {
					a.Notes = nil
				}
				return nil, nil
			}
		}
		return nil, Errorf(EINVALID, "You have no note on game %d.", g.ID)
	})
	return err
}

// NoteOf returns userID's note on g, "" when none.
func (g *Game) NoteOf(userID string) string {
	for _, n := range g.Notes {
		if n.UserID == userID {
			return n.Text
		}
	}
	return ""
}
