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

// movesCmd runs /moves: the legal moves of the player to act in a game
// (a spectator's too), in the friendly form /move takes, grouped by
// piece and by kind (see legalMoveLines), split into messages of at most
// maxReply characters (Reply.More). It is private: the list is long.
func (h *Handler) movesCmd(ctx context.Context, req Request) (Reply, error) {
	g, err := h.resolveGame(ctx, req, modeLook, yourTurn(req.UserID))
	if err != nil {
		return Reply{}, err
	}
	switch g.Status {
	case bot.GameActive:
	case bot.GameSetup:
		return Reply{}, bot.Errorf(bot.EINVALID, "Game #%d has not started: %s", g.ID, h.status(g, nil))
	default:
		return Reply{}, bot.Errorf(bot.EINVALID, "Game #%d is over, so nobody has a move: %s", g.ID, h.resultText(g))
	}
	rg, err := h.replay(g)
	if err != nil {
		return Reply{}, err
	}
	p := rg.Position()
	legal := rg.Legal()
	if len(legal) == 0 {
		return Reply{}, bot.Errorf(bot.EINVALID, "Game #%d: %s has no legal move.", g.ID, mention(g.ToAct))
	}
	who := mention(g.ToAct)
	if g.ToAct == req.UserID {
		who = "you"
	}
	side := strings.ToUpper(p.ToAct().String()[:1]) + p.ToAct().String()[1:]
	count := fmt.Sprintf("%d legal moves", len(legal))
	if len(legal) == 1 {
		count = "1 legal move"
	}
	head := fmt.Sprintf("**Game #%d**: %s for %s (%s)", g.ID, count, who, side)
	if phase := p.PhaseName(); phase != "" && phase != "move" {
		head += ", " + phase
	}
	head += ":"
	lines := append([]string{head}, legalMoveLines(&p, legal)...)
	if ends := passEnds(rg); ends != "" {
		lines = append(lines, ends)
	}
	lines = append(lines, "Play one with /move, e.g. /move "+notation.SAN(&p, legal[0])+
		"; the coordinate form works too (/move "+rules.FormatMove(&p, legal[0])+").")
	msgs := splitMessages(lines, maxReply)
	return Reply{Text: msgs[0], More: msgs[1:], Ephemeral: true}, nil
}

// passEnds warns when passing, a legal move of the player to act in rg,
// would end the game at once ("Passing now ends the game at once in a
// draw: both players passed in a row.", as in Crazyhouse Annihilation
// after the opponent's pass); "" when passing is not legal or the game
// goes on after it. The variant's own rules decide: the pass is played on
// a fork of rg and the outcome read there (its Outcome hook, repetition
// included), so no variant is named here.
func passEnds(rg *rules.Game) string {
	p := rg.Position()
	var buf [256]rules.Move
	for _, m := range p.Legal(buf[:0]) {
		if m.Kind != rules.KindPass {
			continue
		}
		after := rg.Fork()
		if after.Play(m) != nil {
			return ""
		}
		o := after.Outcome()
		switch o.Result {
		case rules.Ongoing:
			return ""
		case rules.Draw:
			return "Passing now ends the game at once in a draw" + gameplay.EndPhrase(rg.Variant(), bot.Draw, o.Reason) + "."
		case rules.WhiteWins:
			return "Passing now ends the game at once: White wins" + gameplay.EndPhrase(rg.Variant(), bot.WhiteWins, o.Reason) + "."
		case rules.BlackWins:
			return "Passing now ends the game at once: Black wins" + gameplay.EndPhrase(rg.Variant(), bot.BlackWins, o.Reason) + "."
		}
		return ""
	}
	return ""
}

// legalMoveLines lists the legal moves of p in the friendly form, one
// line per group: the moves of each piece (the variant's piece order,
// pawns first), castling, each kind of special move the variant names
// (rules.Hooks.SpecialKind), drops, then passing; each line is the
// group's bold heading, its count and its moves in the engine's order.
// Explanations of the marks that are not obvious ('>', '+', '#') follow.
func legalMoveLines(p *rules.Position, legal []rules.Move) []string {
	v := p.Variant()
	sans := notation.SANs(p, legal)
	type group struct {
		name  string
		moves []string
	}
	pieces := make([][]string, len(v.Pieces)+1)
	var castles, drops, passes []string
	var specials []*group
	special := map[string]*group{}
	var cont, check bool
	for i, m := range legal {
		s := sans[i]
		cont = cont || m.Flags&rules.FlagContinue != 0
		body := strings.TrimSuffix(s, ">")
		check = check || strings.HasSuffix(body, "+") || strings.HasSuffix(body, "#")
		kind := ""
		if f := v.Hooks.SpecialKind; f != nil && m.Kind == rules.KindSpecial {
			kind = f(p, m)
		}
		from := rules.NoPieceType
		if m.Kind != rules.KindDrop && v.OnBoard(m.From) {
			from = p.At(m.From).Type()
		}
		switch {
		case kind != "":
			g := special[kind]
			if g == nil {
				g = &group{name: kind}
				special[kind] = g
				specials = append(specials, g)
			}
			g.moves = append(g.moves, s)
		case m.Kind == rules.KindCastle:
			castles = append(castles, s)
		case m.Kind == rules.KindPass:
			passes = append(passes, s)
		case from == rules.NoPieceType:
			drops = append(drops, s)
		default:
			pieces[from] = append(pieces[from], s)
		}
	}
	var out []string
	add := func(name string, moves []string) {
		if len(moves) > 0 {
			out = append(out, fmt.Sprintf("**%s** (%d): %s", name, len(moves), strings.Join(moves, ", ")))
		}
	}
	order := make([]rules.PieceType, 0, len(v.Pieces))
	for pawn := range 2 {
		for t := rules.PieceType(1); int(t) <= len(v.Pieces); t++ {
			if v.Def(t).Pawn == (pawn == 0) {
				order = append(order, t)
			}
		}
	}
	for _, t := range order {
		add(v.Def(t).Name, pieces[t])
	}
	add("Castling", castles)
	for _, g := range specials {
		add(g.name, g.moves)
	}
	add("Drops (piece letter @ square)", drops)
	add("Pass", passes)
	if cont {
		out = append(out, "A move ending in > does not end your turn: you act again after it.")
	}
	if check {
		out = append(out, "+ marks a move that gives check, # one that checkmates.")
	}
	return out
}

// splitMessages packs lines into messages of at most limit bytes, a line
// break between lines. A line that does not fit is cut after a comma
// (when what fits is worth it) and goes on in the next message, its bold
// heading repeated with "(continued)"; a line without a usable comma is
// cut anywhere, on a character boundary.
func splitMessages(lines []string, limit int) []string {
	var msgs []string
	cur := ""
	for _, l := range lines {
		for {
			sep := ""
			if cur != "" {
				sep = "\n"
			}
			if len(cur)+len(sep)+len(l) <= limit {
				cur += sep + l
				break
			}
			room := limit - len(cur) - len(sep)
			head := continued(l)
			cut := -1
			if room > 0 {
				cut = strings.LastIndex(l[:min(room, len(l))], ", ")
			}
			if cut > len(head) && (cur == "" || room >= limit/4) {
				msgs = append(msgs, cur+sep+l[:cut+1])
				cur, l = "", head+l[cut+2:]
				continue
			}
			if cur != "" {
				msgs, cur = append(msgs, cur), ""
				continue
			}
			k := truncatePoint(l, limit)
			if k <= 0 {
				k = min(len(l), max(limit, 1))
			}
			msgs, l = append(msgs, l[:k]), l[k:]
		}
	}
	if cur != "" || len(msgs) == 0 {
		msgs = append(msgs, cur)
	}
	return msgs
}

// continued returns the heading that starts the rest of a cut line: its
// bold name with "(continued)" ("**Pawn** (continued): "), or "" when the
// line has none.
func continued(line string) string {
	if !strings.HasPrefix(line, "**") {
		return ""
	}
	end := strings.Index(line[2:], "**")
	if end < 0 {
		return ""
	}
	return line[:end+4] + " (continued): "
}

// truncatePoint is the byte index at most n where s may be cut without
// splitting a character.
func truncatePoint(s string, n int) int {
	t := truncate(s, n+len("…"))
	return len(strings.TrimSuffix(t, "…"))
}

// OutcomeUnknownMove answers a move whose write the store could not
// confirm nor deny (bot.EUNKNOWN): it may have been played.
const OutcomeUnknownMove = "The store did not answer in time, so it is not known whether your move was played; /board shows whether it was."

// moveRefusal adds to err, the refusal of the move text, what to do
// next when the text was not a playable move: play one move at a time
// when it holds several words, and see /moves for the legal ones. A move
// whose outcome the store does not know is answered OutcomeUnknownMove.
// Other errors are returned as they are.
func moveRefusal(err error, text string) error {
	if bot.ErrorCode(err) == bot.EUNKNOWN {
		return fmt.Errorf("%w: %w", bot.Errorf(bot.EUNKNOWN, OutcomeUnknownMove), err)
	}
	msg := bot.ErrorMessage(err)
	if bot.ErrorCode(err) != bot.EINVALID {
		return err
	}
	var known bool
	for _, e := range []error{rules.ErrIllegalMove, rules.ErrBadMove, notation.ErrAmbiguousMove} {
		known = known || strings.HasPrefix(msg, e.Error()+":")
	}
	if !known {
		return err
	}
	if f := strings.Fields(text); len(f) > 1 && !strings.EqualFold(f[1], "e.p.") {
		msg += fmt.Sprintf(". One move at a time: /move %s, then /move %s", truncate(f[0], 30), truncate(f[1], 30))
	}
	return bot.Errorf(bot.EINVALID, "%s. /moves lists the legal moves.", strings.TrimRight(msg, "."))
}

// defineMoves defines /moves.
func defineMoves(catalogue) commandDef {
	return commandDef{Spec{Name: cmdMoves, Description: "List the legal moves of the player to act, written as /move takes them",
		Options: []OptionSpec{gameOption(" (or to watch)")}}, (*Handler).movesCmd}
}
