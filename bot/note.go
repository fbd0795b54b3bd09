package bot

import (
	"context"
	"strings"
)

// MaxNoteLen is the longest private note a player keeps on a game, in
// bytes.
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
// for empty text and for a note that would grow past MaxNoteLen.
func (s *Service) AddNote(ctx context.Context, gameID uint64, userID, text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", Errorf(EINVALID, "Write the note: /note action:add text:...")
	}
	var out string
	_, err := s.games.AnnotateGame(ctx, gameID, func(g *Game) ([]Notification, error) {
		if err := player(g, userID); err != nil {
			return nil, err
		}
		for i, n := range g.Notes {
			if n.UserID != userID {
				continue
			}
			if len(n.Text)+1+len(text) > MaxNoteLen {
				return nil, Errorf(EINVALID, "Your note on game %d would be longer than %d characters: clear it first (/note action:clear).", g.ID, MaxNoteLen)
			}
			g.Notes[i].Text += "\n" + text
			out = g.Notes[i].Text
			return nil, nil
		}
		g.Notes = append(g.Notes, Note{UserID: userID, Text: text})
		out = text
		return nil, nil
	})
	return out, err
}

// ClearNote removes userID's note on game gameID. Errors as for AddNote,
// and EINVALID when there is none.
func (s *Service) ClearNote(ctx context.Context, gameID uint64, userID string) error {
	_, err := s.games.AnnotateGame(ctx, gameID, func(g *Game) ([]Notification, error) {
		if err := player(g, userID); err != nil {
			return nil, err
		}
		for i, n := range g.Notes {
			if n.UserID == userID {
				g.Notes = append(g.Notes[:i:i], g.Notes[i+1:]...)
				if len(g.Notes) == 0 {
					g.Notes = nil
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
