package command

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/render"
	"github.com/fairypost/fairypost/rules"
)

// replay rebuilds the rules game a record describes (Service.ReplayRecord).
func (h *Handler) replay(g *bot.Game) (*rules.Game, error) { return h.svc.Views().ReplayRecord(g) }

// colorOf returns the colour userID plays in g, NoColor for a spectator.
func colorOf(g *bot.Game, userID string) rules.Color {
	switch userID {
	case "":
		return rules.NoColor
	case g.White:
		return rules.White
	case g.Black:
		return rules.Black
	}
	return rules.NoColor
}

// Orientation of board images: every board posted where others read it
// (the game's thread or channel: replies to moves, accepts, choices and
// button presses) keeps White at the bottom for the whole game, so that
// spectators can follow it; the game's first post says so
// (orientationLine). A board sent to one player (a notification in a DM)
// and /board, which a user asks for, show that user's own side; when such
// a notification is posted in the thread instead, Reply.PublicFiles turn
// it back to White.

// orientationLine tells the players, in the post that starts a game, how
// its boards are turned.
const orientationLine = "Boards posted here keep White at the bottom; /board and the messages the bot sends you directly show your own side at the bottom."

// boardPNG draws the current position of g (replayed as rg) from the
// side of viewer (White for spectators and for viewer ""), marking the
// last turn (every move of it) and the result; a game waiting for its
// pre-game choice says so instead of who moves. The same image drawn
// lately (same positions, marks, status, result, side and size: see
// imageKey) is not drawn again. Only for boards anyone may see: a
// private board goes through privateBoardPNG.
func (h *Handler) boardPNG(g *bot.Game, rg *rules.Game, viewer string) (File, error) {
	side := boardSide(g, viewer)
	status, o := boardStatus(g), g.Outcome()
	k := imageKey{id: g.ID, side: side, size: h.size, content: boardContent(rg, status, o)}
	return h.images.image(k, func() (File, error) {
		return h.drawBoard(g, rg, side)
	})
}

// privateBoardPNG is boardPNG for a board only viewer may see (the end
// of their conditional line): drawn every time, never cached, so that no
// other user's board can be answered with it.
func (h *Handler) privateBoardPNG(g *bot.Game, rg *rules.Game, viewer string) (File, error) {
	return h.drawBoard(g, rg, boardSide(g, viewer))
}

// boardSide is the side at the bottom of viewer's boards of g: their own,
// White for spectators and for viewer "".
func boardSide(g *bot.Game, viewer string) rules.Color {
	if side := colorOf(g, viewer); side != rules.NoColor {
		return side
	}
	return rules.White
}

// boardStatus is the status line a board of g shows instead of who
// moves, "" when none (see render.Status).
func boardStatus(g *bot.Game) string {
	if g.Status == bot.GameSetup {
		return setupStatus(g)
	}
	return ""
}

// drawBoard is boardPNG without the cache, from side's side.
func (h *Handler) drawBoard(g *bot.Game, rg *rules.Game, side rules.Color) (File, error) {
	opts := []render.Option{render.Size(h.size), render.Perspective(side), render.LastTurn(rg)}
	if status := boardStatus(g); status != "" {
		opts = append(opts, render.Status(status))
	}
	if o := g.Outcome(); o.Over() {
		opts = append(opts, render.Outcome(o))
	}
	var buf bytes.Buffer
	if err := h.renderer.PNG(&buf, rg.Position(), opts...); err != nil {
		return File{}, fmt.Errorf("game %d: render: %w", g.ID, err)
	}
	return File{Name: fmt.Sprintf("game-%d-%d.png", g.ID, len(g.Moves)), Data: buf.Bytes()}, nil
}

// setupStatus is the status line of the picture of a game waiting for
// its pre-game choice: which choice it waits for (no mention: it is
// drawn in the image).
func setupStatus(g *bot.Game) string {
	if g.Setup != nil && g.Setup.Army != "" {
		return "Pre-game choice pending: who moves first"
	}
	return "Pre-game choice pending: which army to play"
}

// publicFiles returns the files of a notification as posted in the game's
// thread (Reply.PublicFiles): the board with White at the bottom and, when
// the notification had two files, the game's GIF so turned; nil when one
// cannot be drawn (the reader's files are posted then).
func (h *Handler) publicFiles(g *bot.Game, rg *rules.Game, n int) []File {
	f, err := h.boardPNG(g, rg, "")
	if err != nil {
		return nil
	}
	files := []File{f}
	if n > 1 {
		gif, _, err := h.gameGIF(g, rg, "")
		if err != nil {
			return nil
		}
		if len(gif.Data) > 0 {
			files = append(files, gif)
		}
	}
	return files
}

// gameGIF draws the game as an animated GIF, the result on its last
// frame, from the side of viewer, within the renderer's budgets (see
// render.WriteGIF); cached as boardPNG's images. caption, when not empty, is
// a line for the players: that the animation starts late in a long game,
// or that it was too large to attach (the File has no Data then, and err
// is nil).
func (h *Handler) gameGIF(g *bot.Game, rg *rules.Game, viewer string) (f File, caption string, err error) {
	side := boardSide(g, viewer)
	k := imageKey{id: g.ID, gif: true, side: side, size: h.gifSize, content: gifContent(rg, g.Outcome())}
	f, err = h.images.image(k, func() (File, error) {
		return h.drawGIF(g, rg, side)
	})
	return f, f.Caption, err
}

// drawGIF is gameGIF without the cache, from side's side; the caption goes
// in File.Caption.
func (h *Handler) drawGIF(g *bot.Game, rg *rules.Game, side rules.Color) (File, error) {
	opts := []render.Option{render.Size(h.gifSize), render.Perspective(side)}
	if o := g.Outcome(); o.Over() {
		opts = append(opts, render.Outcome(o))
	}
	var buf bytes.Buffer
	info, err := h.renderer.WriteGIF(&buf, rg, opts...)
	switch {
	case errors.Is(err, render.ErrTooLarge):
		h.log.Warn("command: game GIF over its budget; left out", "game", g.ID, "err", err)
		return File{Caption: "The animation of the game was too large to attach."}, nil
	case err != nil:
		return File{}, fmt.Errorf("game %d: gif: %w", g.ID, err)
	}
	f := File{Name: fmt.Sprintf("game-%d.gif", g.ID), Data: buf.Bytes()}
	if info.Shortened() {
		f.Caption = fmt.Sprintf("The game is too long to animate whole: the animation starts at move %d.", info.FirstPly/2+1)
	}
	return f, nil
}

// mention returns the Discord form of a user mention.
func mention(userID string) string { return "<@" + userID + ">" }

// opponent returns the other player of g.
func opponent(g *bot.Game, userID string) string {
	if userID == g.White {
		return g.Black
	}
	return g.White
}

// variantName returns the display name of a variant key (the key itself
// when unknown), with the options when not the defaults.
func (h *Handler) variantName(key, options string) string { return h.svc.VariantName(key, options) }

// daysText describes days per move.
func daysText(days int) string {
	switch days {
	case 0:
		return "no time limit"
	case 1:
		return "1 day per move"
	}
	return fmt.Sprintf("%d days per move", days)
}

// timeLeft describes how long until deadline, from now.
func timeLeft(deadline, now time.Time) string {
	if deadline.IsZero() {
		return "no time limit"
	}
	d := deadline.Sub(now)
	if d <= 0 {
		return "time is up"
	}
	days := int(d / (24 * time.Hour))
	hours := int(d % (24 * time.Hour) / time.Hour)
	mins := int(d % time.Hour / time.Minute)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh left", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm left", hours, mins)
	case mins > 0:
		return fmt.Sprintf("%dm left", mins)
	}
	return "less than a minute left"
}

// resultLine describes how a game ended, naming the winner.
func (h *Handler) resultLine(g *bot.Game) string {
	switch g.Status {
	case bot.GameAborted:
		return fmt.Sprintf("Game #%d was aborted%s.", g.ID, gameplay.AbortPhrase(g.Reason))
	case bot.GameFinished:
	default:
		return ""
	}
	reason := gameplay.EndPhrase(h.svc.Rules().Default(g.Variant), g.Result, g.Reason)
	switch g.Result {
	case bot.WhiteWins:
		return fmt.Sprintf("Game #%d is over: %s (White) wins%s, 1-0.", g.ID, mention(g.White), reason)
	case bot.BlackWins:
		return fmt.Sprintf("Game #%d is over: %s (Black) wins%s, 0-1.", g.ID, mention(g.Black), reason)
	case bot.Draw:
		return fmt.Sprintf("Game #%d is over: a draw%s, ½-½.", g.ID, reason)
	}
	return fmt.Sprintf("Game #%d is over.", g.ID)
}

// turnText tells the player to act in g (replayed as rg) what to do.
func turnText(g *bot.Game, rg *rules.Game) string {
	if g.ToAct == "" {
		return ""
	}
	p := rg.Position()
	s := fmt.Sprintf("%s, your move", mention(g.ToAct))
	if phase := p.PhaseName(); phase != "" && phase != "move" {
		s += ": " + phase
	}
	s += "." + fewMoves(&p)
	if ends := passEnds(rg); ends != "" {
		s += " " + ends
	}
	return s
}

// boardReply is a game's board, White at the bottom, with its text, the
// mentions and the buttons the situation calls for: the player to act is
// mentioned (both players once the game is over).
func (h *Handler) boardReply(g *bot.Game, rg *rules.Game, text string) (Reply, error) {
	return h.boardReplyFrom(g, rg, "", text)
}

// boardReplyFrom is boardReply with the board from viewer's side (see
// boardPNG).
func (h *Handler) boardReplyFrom(g *bot.Game, rg *rules.Game, viewer, text string) (Reply, error) {
	f, err := h.boardPNG(g, rg, viewer)
	if err != nil {
		return Reply{}, err
	}
	rep := Reply{Text: text, Files: []File{f}, GameID: g.ID, Game: g, Replayed: rg}
	switch {
	case g.Status == bot.GameActive && g.ToAct != "":
		rep.Mention = []string{g.ToAct}
	case g.Status == bot.GameFinished || g.Status == bot.GameAborted:
		rep.Mention = []string{g.White, g.Black}
	}
	rep.Buttons = gameButtons(g)
	return rep, nil
}

// header is a game's one-line description: its players (with their
// colours once the pre-game choice, if any, is made), variant and time.
func (h *Handler) header(g *bot.Game) string {
	if g.Status == bot.GameSetup && g.Setup != nil {
		// Nobody has a colour until the pre-game choice is made.
		return fmt.Sprintf("Game #%d · %s vs %s · %s · %s", g.ID, mention(g.Setup.Challenger), mention(g.Setup.Challenged),
			h.variantName(g.Variant, g.Options), daysText(g.DaysPerMove))
	}
	return fmt.Sprintf("Game #%d · %s (White) vs %s (Black) · %s · %s%s", g.ID, mention(g.White), mention(g.Black),
		h.variantName(g.Variant, g.Options), daysText(g.DaysPerMove), levelText(g))
}

// levelText marks a game against the computer player: " · the bot at
// level N"; "" for a game between people.
func levelText(g *bot.Game) string {
	if g.Level == 0 {
		return ""
	}
	return fmt.Sprintf(" · the bot at level %d", g.Level)
}

// joinLines joins lines up to limit characters, ending with "and N
// more" when some do not fit.
func joinLines(head string, lines []string, limit int) string {
	var b strings.Builder
	b.WriteString(head)
	for i, l := range lines {
		more := fmt.Sprintf("\n… and %d more", len(lines)-i)
		if b.Len()+1+len(l)+len(more) > limit && i < len(lines)-1 || b.Len()+1+len(l) > limit {
			b.WriteString(more)
			break
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String()
}
