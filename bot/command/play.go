package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// resolveMode says how a command without game: picks its game.
type resolveMode uint8

const (
	// modePlay: the requester's games here; among several, prefer.
	modePlay resolveMode = iota + 1
	// modeLook: as modePlay, and for someone with no game here the only
	// game being played here (spectators).
	modeLook
)

// inChannel reports whether g is played in channelID or its thread.
func inChannel(g *bot.Game, channelID string) bool {
	return g.ChannelID == channelID || (g.ThreadID != "" && g.ThreadID == channelID)
}

// pick narrows games to one: the game whose thread the request comes
// from, else the only one, else the only one prefer accepts.
func pick(games []*bot.Game, channelID string, prefer func(*bot.Game) bool) (*bot.Game, bool) {
	for _, g := range games {
		if g.ThreadID != "" && g.ThreadID == channelID {
			return g, true
		}
	}
	if len(games) == 1 {
		return games[0], true
	}
	if prefer != nil {
		var found *bot.Game
		n := 0
		for _, g := range games {
			if prefer(g) {
				found, n = g, n+1
			}
		}
		if n == 1 {
			return found, true
		}
	}
	return nil, false
}

// ambiguous is the answer when several games fit.
func ambiguous(games []*bot.Game, whose string) error {
	ids := make([]string, 0, len(games))
	for _, g := range games {
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	return bot.Errorf(bot.EINVALID, "%s", truncate(fmt.Sprintf("%s %d games in this channel (%s): add game:ID to say which.",
		whose, len(games), strings.Join(ids, ", ")), maxReply))
}

// resolveGame returns the game a request is about: game:ID when given;
// otherwise among the requester's games being played (or set up) in this
// channel, the game of the thread the request comes from, else the only
// one, else the only one prefer accepts (nil: none preferred). With
// modeLook, someone with no game here gets the only game played here.
// Anything else asks for game:.
func (h *Handler) resolveGame(ctx context.Context, req Request, mode resolveMode, prefer func(*bot.Game) bool) (*bot.Game, error) {
	id, err := parseID(optGame, req.Options[optGame])
	if err != nil {
		return nil, err
	}
	if id != 0 {
		g, err := h.svc.Views().Game(ctx, id)
		if err != nil {
			return nil, err
		}
		if !visible(g, req) {
			// The same answer as for a game that does not exist: IDs are
			// sequential, and other servers' games are none of our business.
			return nil, bot.Errorf(bot.ENOTFOUND, "There is no game %d here: /games lists yours.", id)
		}
		return g, nil
	}
	all, err := h.svc.Views().ActiveGames(ctx, req.UserID)
	if err != nil {
		return nil, err
	}
	var mine []*bot.Game
	for _, g := range all {
		if inChannel(g, req.ChannelID) {
			mine = append(mine, g)
		}
	}
	if len(mine) > 0 {
		if g, ok := pick(mine, req.ChannelID, prefer); ok {
			return g, nil
		}
		return nil, ambiguous(mine, "You have")
	}
	if mode == modeLook {
		here, err := h.svc.Views().ChannelGames(ctx, req.ChannelID)
		if err != nil {
			return nil, err
		}
		if g, ok := pick(here, req.ChannelID, nil); ok {
			return g, nil
		}
		if len(here) > 1 {
			return nil, ambiguous(here, "There are")
		}
		return nil, bot.Errorf(bot.EINVALID, "No game is being played in this channel: add game:ID (/games lists yours).")
	}
	if len(all) > 0 {
		return nil, bot.Errorf(bot.EINVALID, "You have no game in this channel: add game:ID (/games lists yours).")
	}
	return nil, bot.Errorf(bot.EINVALID, "You have no game in progress: /challenge someone first.")
}

// visible reports whether the requester of req may see g: its players
// from anywhere (a DM included), anyone else only from g's server. Acting
// on a game is the service's to check (only players may).
func visible(g *bot.Game, req Request) bool {
	return g.IsPlayer(req.UserID) || (!req.DM && req.GuildID == g.GuildID)
}

// yourTurn prefers the games where userID is to act (a move or, in
// setup, a pre-game choice: the service sets ToAct for both).
func yourTurn(userID string) func(*bot.Game) bool {
	return func(g *bot.Game) bool {
		return g.ToAct == userID
	}
}

// move runs /move.
func (h *Handler) move(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modePlay, yourTurn(req.UserID))
	if err != nil {
		return Reply{}, err
	}
	res, err := h.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: req.UserID, Move: strings.TrimSpace(req.Options[optMove]), Version: bot.AnyVersion})
	if err != nil {
		return Reply{}, moveRefusal(err, req.Options[optMove])
	}
	ng, rg := res.Game, res.Replayed
	var b strings.Builder
	// The move is told with the rest of its turn before it and the
	// passes the bot played after it.
	ply := len(rg.Moves()) - len(res.AutoMoves) - res.AnswerPlies
	turns := gameplay.TurnsSince(ng, rg, ply-1)
	b.WriteString(summary(flatten(turns, playedFrom(turns, req.UserID, ply)), ply, fmt.Sprintf(" in game #%d", ng.ID)))
	b.WriteString(".\n")
	if res.Remark != "" {
		b.WriteString(res.Remark + "\n")
	}
	b.WriteString(answersText(res.Answers))
	switch {
	case len(res.Answers) > 0 && ng.Status == bot.GameActive:
		b.WriteString(turnText(ng, rg))
	case ng.Status != bot.GameActive:
		b.WriteString(h.resultText(ng))
	case res.SameTurn:
		p := rg.Position()
		if len(res.AutoMoves) > 0 && p.Phase() == 0 {
			// The opponent's turn, played by the bot, came back to
			// the start of a turn.
			fmt.Fprintf(&b, "%s, it is your turn again", mention(req.UserID))
		} else {
			fmt.Fprintf(&b, "%s, your turn continues", mention(req.UserID))
		}
		if phase := p.PhaseName(); phase != "" && phase != "move" {
			b.WriteString(": " + phase)
		}
		b.WriteByte('.')
		b.WriteString(fewMoves(&p))
		if ends := passEnds(rg); ends != "" {
			b.WriteString(" " + ends)
		}
	default:
		b.WriteString(turnText(ng, rg))
	}
	return h.boardReply(ng, rg, b.String())
}

// maxListed is the most legal moves a reply lists in full.
const maxListed = 12

// fewMoves lists the legal moves of p in the friendly form (" Your moves:
// Ac6, Ad5 or pass.") inside a multi-part turn (a phase other than 0) when
// there are at most maxListed, as in Winning Chess's response window and
// the Attacker's second step; "" otherwise (a whole turn's choice is not
// spelled out: /moves lists it).
func fewMoves(p *rules.Position) string {
	if p.Phase() == 0 {
		return ""
	}
	legal := p.Legal(nil)
	if len(legal) == 0 || len(legal) > maxListed {
		return ""
	}
	sans := notation.SANs(p, legal)
	if len(sans) == 1 {
		return " Your move: " + sans[0] + "."
	}
	return " Your moves: " + strings.Join(sans[:len(sans)-1], ", ") + " or " + sans[len(sans)-1] + "."
}

// board runs /board: the position from the requester's side (White's
// for spectators), without pinging anyone; buttons for players only.
func (h *Handler) board(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modeLook, yourTurn(req.UserID))
	if err != nil {
		return Reply{}, err
	}
	rg, err := h.replay(g)
	if err != nil {
		return Reply{}, err
	}
	text := h.header(g) + "\n" + h.status(g, rg)
	if colorOf(g, req.UserID) == rules.Black {
		text += "\nYour side, Black, is at the bottom of this board."
	}
	rep, err := h.boardReplyFrom(g, rg, req.UserID, text)
	if err != nil {
		return Reply{}, err
	}
	rep.Mention = nil
	if !g.IsPlayer(req.UserID) {
		rep.Buttons = nil
	}
	return rep, nil
}

// status says where g stands, without pinging: whose turn and the time
// left, the pre-game choice awaited, the standing offers, or the result.
func (h *Handler) status(g *bot.Game, rg *rules.Game) string {
	switch g.Status {
	case bot.GameSetup:
		if g.Setup != nil && g.Setup.Army == "" {
			return fmt.Sprintf("Waiting for %s to choose an army.", mention(g.Setup.ArmyPicker()))
		}
		if g.Setup != nil {
			return fmt.Sprintf("Waiting for %s to choose who moves first.", mention(g.Setup.FirstPicker()))
		}
		return "Waiting for the pre-game choice."
	case bot.GameActive:
	default:
		return h.resultText(g)
	}
	p := rg.Position()
	s := fmt.Sprintf("%s to act", mention(g.ToAct))
	if phase := p.PhaseName(); phase != "" && phase != "move" {
		s += " (" + phase + ")"
	}
	s += ", " + timeLeft(g.Deadline, h.svc.Now()) + "."
	if g.DrawOffer != "" {
		s += fmt.Sprintf(" %s offers a draw.", mention(g.DrawOffer))
	}
	if g.Takeback != "" {
		s += fmt.Sprintf(" %s asks to take back their last move.", mention(g.Takeback))
	}
	return s + timeOff(g, h.svc.Now())
}

// defineMove defines /move.
func defineMove(catalogue) commandDef {
	return commandDef{Spec{Name: cmdMove, Description: "Play a move (e4, Nf3, O-O, P@e4 or e2e4; /moves lists the legal ones)", Options: []OptionSpec{
		{Name: optMove, Description: "Your move: start typing to see the legal ones", Kind: OptionString, Required: true, Autocomplete: true},
		gameOption(""),
	}}, (*Handler).move}
}

// defineBoard defines /board.
func defineBoard(catalogue) commandDef {
	return commandDef{Spec{Name: cmdBoard, Description: "Show a game's board, your side at the bottom", Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).board}
}
