package bot

import "context"

// SetThread records threadID as the place where game gameID is posted
// (Game.ThreadID), so an adapter finds it again after a restart. The
// game's version does not change: the thread is not part of play, and
// buttons already posted stay valid. Errors: ENOTFOUND for an unknown
// game, EINVALID for an empty or absurdly long ID.
func (s *Service) SetThread(ctx context.Context, gameID uint64, threadID string) error {
	if threadID == "" || len(threadID) > 64 {
		return Errorf(EINVALID, "A thread ID must have 1 to 64 characters.")
	}
	_, err := s.games.AnnotateGame(ctx, gameID, func(g *Game) ([]Notification, error) {
		g.ThreadID = threadID
		return nil, nil
	})
	return err
}
