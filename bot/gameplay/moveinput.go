package gameplay

import (
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// A move that continues the mover's turn is marked '>' (rules.FlagContinue:
// Winning Chess's Attacker step that may step again, its Defender
// pre-move). Where the same move also exists without the mark, ending the
// turn, players who mark checks out of habit write "Af3+" and would have
// the turn end when they meant it to go on. readMove therefore reads a
// check or mate mark without '>' strictly, and continuedBy tells the
// player who ended a turn that it could have gone on.

// readMove reads text as a legal move of p (notation.ParseMove), except
// that text ending in a check or mate mark ('+', '#', annotations aside)
// without '>':
//   - names nothing when both the move it reads as and that move's
//     continuing form ('>') are legal: an EINVALID error offers the two
//     forms, saying what each does;
//   - is read as the continuing form when only that one is legal.
//
// Errors are those of notation.ParseMove otherwise.
func readMove(p *rules.Position, text string) (rules.Move, error) {
	body, marked := checkMarked(text)
	if !marked {
		return notation.ParseMove(p, text)
	}
	end, endErr := notation.ParseMove(p, body)
	cont, contErr := notation.ParseMove(p, body+">")
	endOK := endErr == nil && end.Flags&rules.FlagContinue == 0
	contOK := contErr == nil && cont.Flags&rules.FlagContinue != 0
	switch {
	case endOK && contOK:
		e, c := turnEnding(p, end), notation.SAN(p, cont)
		return rules.Move{}, bot.Errorf(bot.EINVALID, "%s could mean two moves: %s ends your turn; %s continues it (%s). Send the one you mean: %s or %s.",
			strings.TrimSpace(text), e, c, afterward(p, cont), e, c)
	case contOK && !endOK:
		return cont, nil
	}
	return notation.ParseMove(p, text)
}

// checkMarked reports whether text ends with '+' or '#' among its end
// marks ('+', '#', '!', '?') and has no '>' there, and returns text
// without those marks.
func checkMarked(text string) (body string, marked bool) {
	s := strings.TrimSpace(text)
	check := false
	for s != "" {
		switch s[len(s)-1] {
		case '+', '#':
			check = true
		case '!', '?':
		case '>':
			return s, false
		default:
			return s, check
		}
		s = strings.TrimSpace(s[:len(s)-1])
	}
	return s, false
}

// continuing returns the continuing form of m ('>'), when it is a legal
// move of p.
func continuing(p *rules.Position, m rules.Move) (rules.Move, bool) {
	c := m
	c.Flags |= rules.FlagContinue
	var buf [256]rules.Move
	for _, l := range p.Legal(buf[:0]) {
		if l == c {
			return l, true
		}
	}
	return rules.Move{}, false
}

// turnEnding returns the friendly form of m, which ends the turn, without
// its check mark.
func turnEnding(p *rules.Position, m rules.Move) string {
	return strings.TrimRight(notation.SAN(p, m), "+#")
}

// afterward says what comes after c, a continuing move of p: the
// description of the phase it leads to ("then Black may answer ...").
func afterward(p *rules.Position, c rules.Move) string {
	q, ok := p.After(c)
	if !ok {
		return "you act again"
	}
	if phase := q.PhaseName(); phase != "" && phase != "move" {
		return "then " + phase
	}
	return "you act again"
}

// continuedBy returns a remark for the player who played m in p, a move that
// ended their turn, when its continuing form was legal too: what that form
// would have done. "" otherwise.
func continuedBy(p *rules.Position, m rules.Move) string {
	if m.Flags&rules.FlagContinue != 0 {
		return ""
	}
	c, ok := continuing(p, m)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s ended your turn. %s would have continued it (%s): a move marked > continues the turn.",
		turnEnding(p, m), notation.SAN(p, c), afterward(p, c))
}
