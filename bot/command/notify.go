package command

import (
	"context"
	"fmt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// Notification returns how the outbox notification n is shown, mentioning
// n.UserID when it is for a user:
//   - your-turn: what the opponent played since the player last moved
//     (their whole turn, every atomic move in order, with the passes the
//     bot played), the text, the board from the player's side and the
//     game's buttons;
//   - game-over: the result, the final board and a GIF of the whole game;
//   - reminder: the game and the time left;
//   - follow: the text and the board, White at the bottom, no buttons;
//   - computer-turn (to the game's thread): as the reply to a person's
//     /move, what the computer player played since its opponent last
//     moved, whose move it is (or the result), the board with White at
//     the bottom and the game's buttons, mentioning the player to act;
//   - choice: the text, the drawn position and the buttons of the
//     pre-game choice for the player whose choice it is;
//   - draw-offered, takeback-asked: the text with the buttons to answer
//     (a draw offer to the game's thread mentions the player it is made to);
//   - pause: the text, with the buttons to answer a request to pause
//     that still stands for the player it is made to;
//   - challenge-received: the text with Accept/Decline buttons;
//   - tournament: the text; the end of a tournament with its final
//     crosstable image and the PGN of every game;
//   - digest: the games where it is the user's turn, with the opponent's
//     moves and the boards, then the text (digestReply);
//   - others: the text.
//
// The reply carries the game it read (Reply.Game, and Reply.Replayed when
// it replayed it), so that the adapter delivering it reads nothing again.
// When the game cannot be read or drawn, the text alone is shown (the
// failure is logged). Never panics.
func (h *Handler) Notification(ctx context.Context, n bot.Notification) (rep Reply) {
	defer h.recover("notification", &rep)
	defer func() {
		h.addLink(ctx, &rep)
		rep.Text = truncate(rep.Text, maxReply)
	}()
	rep = Reply{Text: n.Text, GameID: n.GameID}
	if n.UserID != "" {
		rep.Mention = []string{n.UserID}
	}
	switch n.Kind {
	case bot.NotifyTournament:
		return h.tournamentNotification(ctx, n, rep)
	case bot.NotifyDigest:
		return h.digestReply(ctx, n, rep)
	case bot.NotifyChallengeReceived:
		if n.ChallengeID != 0 {
			c := &bot.Challenge{ID: n.ChallengeID, Version: 1, Challenged: n.UserID}
			rep.Buttons = challengeButtons(c)
			rep.Buttons = rep.Buttons[:len(rep.Buttons)-1] // no Cancel: the challenger is not told
		}
		return rep
	case bot.NotifyYourTurn, bot.NotifyGameOver, bot.NotifyReminder, bot.NotifyDrawOffered, bot.NotifyTakebackAsked,
		bot.NotifyChoice, bot.NotifyTakenBack, bot.NotifyAutoMove, bot.NotifyFollow, bot.NotifyComputerTurn, bot.NotifyPause:
	default:
		return rep
	}
	if n.GameID == 0 {
		return rep
	}
	g, err := h.svc.Views().Game(ctx, n.GameID)
	if err != nil {
		h.log.Warn("command: notification without its game", "notification", n.ID, "game", n.GameID, "err", err)
		return rep
	}
	rep.Game = g
	switch n.Kind {
	case bot.NotifyReminder:
		if n.UserID != "" {
			rep.Text = fmt.Sprintf("%s, reminder: it is your turn in game #%d (%s, vs %s): %s.", mention(n.UserID), g.ID,
				h.variantName(g.Variant, g.Options), mention(opponent(g, n.UserID)), timeLeft(g.Deadline, h.svc.Now()))
		}
		rep.Buttons = gameButtons(g)
		return rep
	case bot.NotifyPause:
		// A request to pause, still standing, with the buttons to answer
		// it for the player asked.
		if n.UserID != "" && n.UserID != g.PauseOffer {
			rep.Buttons = pauseButtons(g)
		}
		return rep
	case bot.NotifyDrawOffered, bot.NotifyTakebackAsked, bot.NotifyAutoMove:
		rep.Buttons = gameButtons(g)
		if n.UserID == "" && n.Kind == bot.NotifyDrawOffered && g.DrawOffer != "" {
			rep.Mention = []string{opponent(g, g.DrawOffer)}
		}
		return rep
	case bot.NotifyChoice:
		// The drawn position with White at the bottom, which the choice
		// refers to, and the buttons for the player whose choice it is.
		if g.ToAct == n.UserID {
			rep.Buttons = choiceButtons(g)
		}
		if f, err := h.setupPNG(g); err != nil {
			h.log.Error("command: notification: pre-game board", "game", g.ID, "err", err)
		} else {
			rep.Files = []File{f}
		}
		return rep
	}
	rg, err := h.replay(g)
	if err != nil {
		h.log.Error("command: notification: replay", "game", g.ID, "err", err)
		return rep
	}
	rep.Replayed = rg
	if n.Kind == bot.NotifyComputerTurn {
		return h.computerTurn(g, rg, rep)
	}
	if rep.Text == "" {
		rep.Text = h.status(g, rg)
	}
	if n.UserID != "" && n.Kind == bot.NotifyYourTurn && g.ToAct == n.UserID {
		rep.Text = fmt.Sprintf("%s\n%s", rep.Text, turnText(g, rg))
		if s := lastTurnSummary(g, rg, n.UserID); s != "" && g.Status == bot.GameActive {
			rep.Text = s + "\n" + rep.Text
		}
	}
	f, err := h.boardPNG(g, rg, n.UserID)
	if err != nil {
		h.log.Error("command: notification: render", "game", g.ID, "err", err)
		return rep
	}
	rep.Files = []File{f}
	rep.Buttons = gameButtons(g)
	if n.Kind == bot.NotifyFollow {
		rep.Buttons = nil // a spectator's
		return rep
	}
	if n.Kind == bot.NotifyGameOver {
		if res := h.resultText(g); res != "" {
			rep.Text = res
		}
		gif, caption, err := h.gameGIF(g, rg, n.UserID)
		if err != nil {
			h.log.Error("command: notification: gif", "game", g.ID, "err", err)
		} else if gif.Data != nil {
			rep.Files = append(rep.Files, gif)
		}
		if caption != "" {
			rep.Text += "\n" + caption
		}
	}
	if colorOf(g, n.UserID) == rules.Black {
		rep.PublicFiles = h.publicFiles(g, rg, len(rep.Files))
	}
	return rep
}

// computerTurn is the post of a computer-turn notification in g (replayed
// as rg; rep carries the notification's text): the reply a person's /move
// would have had, telling what was played since the computer's opponent
// last moved. When nothing was (the opponent has moved again since), the
// notification's own text and where the game stands are told instead.
func (h *Handler) computerTurn(g *bot.Game, rg *rules.Game, rep Reply) Reply {
	human := opponent(g, h.svc.ComputerID())
	text := rep.Text + "\n" + h.status(g, rg)
	if moves := flatten(gameplay.TurnsSince(g, rg, sinceLastOwn(g, rg, human)), 0); len(moves) > 0 {
		text = summary(moves, 0, fmt.Sprintf(" in game #%d", g.ID)) + ".\n"
		if g.Status == bot.GameActive {
			text += turnText(g, rg)
		} else {
			text += h.resultText(g)
		}
	}
	out, err := h.boardReply(g, rg, text)
	if err != nil {
		h.log.Error("command: notification: render", "game", g.ID, "err", err)
		rep.Text = text
		return rep
	}
	return out
}
