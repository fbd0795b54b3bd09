package gameplay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fairypost/fairypost/bot"
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
	Game   *bot.Game // the game as stored after the move
	Played string    // the move in canonical form, as stored
	SAN    string    // the move in friendly form, for people
	// SameTurn reports that the player who moved acts again (a
	// multi-part turn, or a turn that came back to them through moves
	// played automatically): the adapter asks them for the next move.
	SameTurn bool
	// AutoMoves are the friendly forms of the moves the bot played after
	// Played because each was the only legal move (a forced "pass",
	// docs/variants/winning.md#w13), in order; nil when none.
	AutoMoves []string
	// AutoPlayers are the user IDs of the players for whom the bot
	// played each of AutoMoves, in the same order.
	AutoPlayers []string
	// Replayed is the stored game as the rules engine sees it after the
	// move (and the automatic ones), so an adapter drawing the board
	// need not replay the game again. It belongs to the caller.
	Replayed *rules.Game
	// Answers are the moves the bot played after Played (and AutoMoves)
	// from conditional lines (Forecast), in order; nil when none.
	// AnswerPlies counts the moves at the end of Replayed that came with
	// them: the answers and the forced passes after them.
	Answers     []ForecastAnswer
	AnswerPlies int
	// Remark is a line for the player who moved, "" when none: that the
	// move ended their turn while its form marked '>' would have
	// continued it, and what that form does (a Winning Chess Attacker
	// step that may step again, a Defender pre-move).
	Remark string
}

// maxAutoMoves bounds the forced moves played after one move. Every
// variant's forced passes end within a few plies (a pass hands the turn
// on, two passes or a side without moves end the game); a longer chain is
// left to the players, who then play "pass" themselves.
const maxAutoMoves = 8

// Move plays req.Move in game req.GameID for req.UserID, exactly once: the
// game is replayed from its stored moves, the move is read in either
// notation and checked by the rules engine, appended, and the game's end
// (if any) is recorded, all in one store transaction together with the
// notifications. The player to act comes from the position, so in a
// multi-part turn the same player acts several times in a row.
//
// After the move, while the game goes on and the only legal move of the
// player to act is "pass" (docs/variants/winning.md#w13: a response window without a
// Defender move, an Annihilation player without a move), the bot plays
// it for them, appends it too and reports it in MoveResult.AutoMoves,
// with an auto-move notification to both players; this repeats, since
// the game may end or another forced pass follow.
//
// Then the conditional lines stored for the game are followed
// (answerForecasts): an answer a line holds for the player now to act is
// played at once, in the same transaction, and told to both players;
// lines the game left are dropped (see Forecast).
//
// Any move clears a standing draw offer: the offerer's own move lets it
// lapse and the opponent's move declines it (without a notification: the
// offerer hears of the move). It also clears a takeback request, which
// was about the position before. Whenever the turn passes to the other
// player (at least once along the moves played), the clock restarts:
// TurnStarted is now, Reminded false, Deadline DaysPerMove from now,
// RemindAt when the player then to act wants to be reminded (their
// Preferences.ReminderPercent, read before the update), and that player is
// sent "your turn". When the game ends both players are sent "game over"
// instead.
//
// The move is read as notation.ParseMove reads it, but a check or mate
// mark without '>' on a move whose continuing form ('>') is legal too is
// refused, offering both forms, since the mark says nothing about whether
// the turn was meant to go on; when only the continuing form is legal,
// the text is read as that one (see readMove).
//
// The update is Service.updateGame's (round.go): in the same
// transaction the finishers run (the computer player's posts and the
// notifications it does not get, registered by NewService; the rating of
// a rated game the move ended, ratings.Register), and after the commit
// the events (the game's tournament records an ended game,
// tournaments.New; the computer's runner is woken when it plays in the
// game, computer.NewRunner). cmd/fairypost wires every feature.
//
// Errors, with nothing changed: ENOTFOUND for an unknown game; ECONFLICT
// when req.Version is not AnyVersion and the game has moved on;
// EFORBIDDEN when the user does not play in the game or it is not their
// turn; EINVALID for a game that is over or still in its pre-game
// choice, and for an unreadable, illegal or ambiguous move, with the
// rules engine's reason.
func (s *Service) Move(ctx context.Context, req MoveRequest) (*MoveResult, error) {
	var res MoveResult
	reminders := s.gameReminders(ctx, req.GameID)
	followers, err := s.followersOf(ctx, req.GameID)
	if err != nil {
		return nil, err
	}
	g, err := s.updateFollowed(ctx, req.GameID, req.Version, followers, func(g *bot.Game) ([]bot.Notification, error) {
		res = MoveResult{} // fn may run more than once
		if !g.IsPlayer(req.UserID) {
			return nil, bot.Errorf(bot.EFORBIDDEN, "You are not playing in game %d.", g.ID)
		}
		if err := s.playing(g); err != nil {
			return nil, err
		}
		rg, err := s.replay(g)
		if err != nil {
			return nil, err
		}
		p := rg.Position()
		if userToAct(g, &p) != req.UserID {
			return nil, bot.Errorf(bot.EFORBIDDEN, "It is not your turn in game %d.", g.ID)
		}
		if err := notPaused(g); err != nil {
			return nil, err
		}
		if !g.Deadline.IsZero() && !s.now().Before(g.Deadline) {
			return nil, timeRanOut{}
		}
		m, err := readMove(&p, req.Move)
		if err != nil {
			return nil, moveError(err)
		}
		res.Played, res.SAN, res.Remark = rules.FormatMove(&p, m), notation.SAN(&p, m), continuedBy(&p, m)
		if err := rg.Play(m); err != nil {
			return nil, moveError(err)
		}
		now := s.now()
		from := len(g.Moves)
		g.Moves = append(g.Moves, res.Played)
		g.DrawOffer, g.Takeback, g.PauseOffer, g.Updated = "", "", "", now
		var told []bot.Notification
		var auto []autoMove
		auto, told = s.settle(g, rg, req.UserID, now, reminders)
		for _, a := range auto {
			res.AutoMoves, res.AutoPlayers = append(res.AutoMoves, a.san), append(res.AutoPlayers, a.user)
		}
		before := len(g.Moves)
		res.Answers, _, told = s.answerForecasts(g, rg, told, now, reminders)
		res.AnswerPlies = len(g.Moves) - before
		told = append(told, s.followNotifications(g, followers, rg, from, now)...)
		res.Replayed = rg
		res.SameTurn = g.Status == bot.GameActive && g.ToAct == req.UserID
		return told, nil
	})
	if errors.Is(err, timeRanOut{}) {
		return nil, s.ranOut(ctx, req.GameID)
	}
	if err != nil {
		return nil, err
	}
	s.replays.put(g, res.Replayed) // the next move or view of this version replays nothing
	res.Game = s.recheckReminder(ctx, g, reminders)
	return &res, nil
}

// timeRanOut is what a move's update function returns when the player's
// deadline has passed before the scheduler ended the game (it was down,
// or has not woken yet): the update changes nothing and Move ends the
// game on time instead (ranOut).
type timeRanOut struct{}

func (timeRanOut) Error() string { return "time ran out" }

// ranOut ends game id on time as the scheduler would have (timeOut) and
// returns the error that tells the player who tried to move.
func (s *Service) ranOut(ctx context.Context, id uint64) error {
	now := s.now()
	if _, err := s.timeOut(ctx, id, now); err != nil && !errors.Is(err, sweepSkip{}) {
		return err
	}
	g, err := s.games.Game(ctx, id)
	if err != nil {
		return err
	}
	if g.Status == bot.GameActive {
		// The game moved on meanwhile (a takeback gave new time): the
		// move was not played; the player may try again.
		return bot.Errorf(bot.ECONFLICT, "Game %d has changed meanwhile: look again.", id)
	}
	return bot.Errorf(bot.EINVALID, "Your time in game %d ran out before this move: the game is over (%s%s).",
		id, g.Result, s.endPhrase(g))
}

// settle completes a change of g whose replay is rg (g.Moves holds
// every move of rg): it plays the forced passes (see Move), appending
// them to both, caches the position, records the end of the game or the
// player to act with the clock (startTurn, when the turn passed), and
// returns the forced moves and the notifications.
// before is the user ID of the player who acted last (the one who moved,
// or "" at the start of a game). r holds the players' reminder settings,
// read before the update: settle reads no store.
func (s *Service) settle(g *bot.Game, rg *rules.Game, before string, now time.Time, r Reminders) (auto []autoMove, told []bot.Notification) {
	acting, started := g.ToAct, g.TurnStarted // whose clock ran, since when
	passed := false                           // the turn passed to the other player at some point
	if p := rg.Position(); userToAct(g, &p) != before {
		passed = true
	}
	for len(auto) < maxAutoMoves && !rg.Outcome().Over() {
		p := rg.Position()
		legal := rg.Legal()
		if len(legal) != 1 || rules.FormatMove(&p, legal[0]) != "pass" {
			break
		}
		who := userToAct(g, &p)
		san := notation.SAN(&p, legal[0])
		if err := rg.Play(legal[0]); err != nil {
			break // cannot happen: the move is legal; the player plays on
		}
		g.Moves = append(g.Moves, rules.FormatMove(&p, legal[0]))
		auto = append(auto, autoMove{san: san, user: who})
		told = append(told, s.autoMoveNotifications(g, who, p.ToAct(), san, now)...)
		if q := rg.Position(); userToAct(g, &q) != who {
			passed = true
		}
	}
	next := rg.Position()
	g.FEN = next.FEN()
	if o := rg.Outcome(); o.Over() {
		return auto, append(told, s.finish(g, resultOf(o.Result), o.Reason, now)...)
	}
	g.ToAct = userToAct(g, &next)
	if passed {
		bot.SpendBank(g, acting, started, now)
		startTurn(g, now, r)
		told = append(told, yourTurn(g, s.VariantName(g.Variant, g.Options), now))
	}
	return auto, told
}

// BeginPlay completes g, a new game in play created at now (Status
// GameActive, StartFEN its start position start, players set), as an
// accepted challenge completes one: the player to act, the clock of White
// started, and the notifications that tell them (returned). r holds the
// players' reminder settings (ReadReminders): BeginPlay reads no store,
// so a store transaction creating the game may call it.
func (s *Service) BeginPlay(g *bot.Game, start rules.Position, now time.Time, r Reminders) []bot.Notification {
	_, told := s.settle(g, rules.NewGame(start), "", now, r)
	return told
}

// autoMove is a move the bot played because it was the only legal one.
type autoMove struct {
	san  string // its friendly form
	user string // the user ID of the player for whom it was played
}

// autoMoveNotifications tells both players of g that the bot played san for who,
// playing colour.
func (s *Service) autoMoveNotifications(g *bot.Game, who string, colour rules.Color, san string, now time.Time) []bot.Notification {
	name := "White"
	if colour == rules.Black {
		name = "Black"
	}
	return toBoth(g, bot.NotifyAutoMove, fmt.Sprintf("Game %d: the bot played %s for <@%s> (%s): it was the only legal move.", g.ID, san, who, name), now)
}

// playing refuses, with EINVALID, a game that is not being played: over,
// or waiting for its pre-game choice.
func (s *Service) playing(g *bot.Game) error {
	switch g.Status {
	case bot.GameActive:
		return nil
	case bot.GameSetup:
		return bot.Errorf(bot.EINVALID, "Game %d has not started yet: it waits for the pre-game choice (/choose).", g.ID)
	case bot.GameAborted:
		return bot.Errorf(bot.EINVALID, "Game %d was aborted.", g.ID)
	}
	return bot.Errorf(bot.EINVALID, "Game %d is over (%s%s).", g.ID, g.Result, s.endPhrase(g))
}

// resign ends game gameID as a loss for userID, who must play in it
// (EFORBIDDEN), at any moment of an active game (EINVALID once over, and
// during the pre-game choice, when Abort ends a game), and notifies both
// players. version as for Move.
func (s *Service) resign(ctx context.Context, gameID, version uint64, userID string) (*bot.Game, error) {
	return s.updateGame(ctx, gameID, version, func(g *bot.Game) ([]bot.Notification, error) {
		if !g.IsPlayer(userID) {
			return nil, bot.Errorf(bot.EFORBIDDEN, "You are not playing in game %d.", g.ID)
		}
		if g.Status == bot.GameSetup {
			return nil, bot.Errorf(bot.EINVALID, "Game %d has not started yet: abort it instead (/abort).", g.ID)
		}
		if err := s.playing(g); err != nil {
			return nil, err
		}
		r := bot.WhiteWins
		if userID == g.White {
			r = bot.BlackWins
		}
		now := s.now()
		g.Updated = now
		return s.finish(g, r, ReasonResignation, now), nil
	})
}

// finish records the end of g and returns the notifications for it. A
// standing draw offer or takeback request ends with the game.
func (s *Service) finish(g *bot.Game, r bot.Result, reason rules.Reason, now time.Time) []bot.Notification {
	g.Status, g.Result, g.Reason = bot.GameFinished, r, reason
	stopClock(g)
	text := fmt.Sprintf("Game %d is over (%s): ", g.ID, r)
	switch r {
	case bot.WhiteWins:
		text += "<@" + g.White + "> (White) wins" + s.endPhrase(g) + "."
	case bot.BlackWins:
		text += "<@" + g.Black + "> (Black) wins" + s.endPhrase(g) + "."
	default:
		text += "a draw" + s.endPhrase(g) + "."
	}
	var told []bot.Notification
	for _, u := range []string{g.White, g.Black} {
		told = append(told, bot.Notification{Kind: bot.NotifyGameOver, UserID: u, GuildID: g.GuildID,
			ChannelID: g.ChannelID, GameID: g.ID, Text: text, Created: now})
	}
	return told // and to the followers: updateFollowed
}

// yourTurn returns the notification that it is g.ToAct's turn in g, a
// game of the variant called name.
func yourTurn(g *bot.Game, name string, now time.Time) bot.Notification {
	text := fmt.Sprintf("Your turn in game %d (%s).", g.ID, name)
	if !g.Deadline.IsZero() {
		text += fmt.Sprintf(" Move before %s.", g.Deadline.UTC().Format("2006-01-02 15:04 MST"))
	}
	return bot.Notification{Kind: bot.NotifyYourTurn, UserID: g.ToAct, GuildID: g.GuildID, ChannelID: g.ChannelID,
		GameID: g.ID, Text: text, Created: now}
}
