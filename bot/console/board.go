package console

import (
	"fmt"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// textBoard draws p as text, White at the bottom: the ranks top to bottom
// with their numbers on both sides, the files' letters above and below,
// each piece as its FEN letter (uppercase White, lowercase Black; a
// promoted piece of a variant that remembers promotion is followed by
// '~'), '.' for an empty square; then each side's hand for variants with
// pockets. turnLine says whose turn it is.
func textBoard(p *rules.Position) string {
	v := p.Variant()
	w := len(fmt.Sprint(v.Ranks))
	var b strings.Builder
	files := make([]string, v.Files)
	for f := range files {
		files[f] = fmt.Sprintf("%c ", 'a'+f)
	}
	edge := strings.Repeat(" ", w+2) + strings.TrimRight(strings.Join(files, ""), " ") + "\n"
	b.WriteString(edge)
	for r := v.Ranks - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%*d  ", w, r+1)
		for f := 0; f < v.Files; f++ {
			b.WriteString(cell(p, rules.NewSquare(f, r)))
		}
		fmt.Fprintf(&b, " %d\n", r+1)
	}
	b.WriteString(edge)
	if v.Drops.Enabled || len(v.Drops.Slots) > 0 {
		for _, c := range []rules.Color{rules.White, rules.Black} {
			fmt.Fprintf(&b, "%s in hand: %s\n", upperFirst(c.String()), hand(p, c))
		}
	}
	return b.String()
}

// gameBoard draws game g, whose position is p: a title line with the
// game's ID, variant and players, the text board, and a status line
// naming the player to act or the game's end as the record has it (a
// resignation or a timeout is not in the position). said is the text of
// the reply the board comes with: the phase of a multi-part turn that
// text tells already ("White moves a Black piece") is not told again.
func gameBoard(g *bot.Game, p *rules.Position, said string) string {
	var b strings.Builder
	variant := p.Variant().Name
	if g.Options != "" {
		variant += " (" + g.Options + ")"
	}
	if g.Status == bot.GameSetup && g.Setup != nil {
		// Nobody has a colour before the pre-game choice.
		fmt.Fprintf(&b, "Game %d, %s: @%s vs @%s\n", g.ID, variant, g.Setup.Challenger, g.Setup.Challenged)
	} else {
		fmt.Fprintf(&b, "Game %d, %s: @%s White, @%s Black\n", g.ID, variant, g.White, g.Black)
	}
	b.WriteString(textBoard(p))
	switch {
	case g.Status == bot.GameSetup && g.Setup != nil && g.Setup.Army == "":
		fmt.Fprintf(&b, "Waiting for @%s to choose the army they play (its colour in this position).\n", g.Setup.ArmyPicker())
	case g.Status == bot.GameSetup && g.Setup != nil:
		fmt.Fprintf(&b, "Waiting for @%s to choose who moves first.\n", g.Setup.FirstPicker())
	case g.Status == bot.GameSetup:
		b.WriteString("Waiting for the pre-game choice.\n")
	case g.Status == bot.GameAborted:
		fmt.Fprintf(&b, "Game aborted%s.\n", gameplay.AbortPhrase(g.Reason))
	case g.Status == bot.GameFinished:
		fmt.Fprintf(&b, "Game over: %s (%s).\n", g.Result, orDash(string(g.Reason)))
	default:
		line := turnLine(p)
		if o := p.Outcome(); !o.Over() {
			who := fmt.Sprintf("@%s (%s)", g.Player(p.ToAct() == rules.White), upperFirst(p.ToAct().String()))
			line = turnText(p, who, said)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// cell is the two characters of square s: the piece's letter (or '.')
// and a space, or '~' for a promoted piece.
func cell(p *rules.Position, s rules.Square) string {
	pc := p.At(s)
	if pc == rules.NoPiece {
		return ". "
	}
	suffix := " "
	if pc.Promoted() {
		suffix = "~"
	}
	return string(letter(p.Variant(), pc)) + suffix
}

// letter is pc's FEN letter: White's uppercase, Black's lowercase.
func letter(v *rules.Variant, pc rules.Piece) byte {
	l := v.Def(pc.Type()).Letter
	if pc.Color() == rules.Black {
		l += 'a' - 'A'
	}
	return l
}

// hand lists side c's pieces in hand: one letter per piece, in the
// variant's order (Drops.Slots: one "P: ..." group per pocket, each
// listed even when empty), "-" for nothing.
func hand(p *rules.Position, c rules.Color) string {
	v := p.Variant()
	pieces := func(l byte, n int) string {
		if c == rules.Black {
			l += 'a' - 'A'
		}
		return strings.Repeat(string(l), n)
	}
	if len(v.Drops.Slots) == 0 {
		var s strings.Builder
		for t := 1; t <= len(v.Pieces); t++ {
			s.WriteString(pieces(v.Pieces[t-1].Letter, p.Pocket(c, rules.PieceType(t))))
		}
		return orDash(s.String())
	}
	var order []byte
	groups := map[byte]string{}
	for i, sl := range v.Drops.Slots {
		if _, ok := groups[sl.Pocket]; !ok {
			order = append(order, sl.Pocket)
			groups[sl.Pocket] = ""
		}
		n := p.Slot(c, i)
		for range n {
			groups[sl.Pocket] += pieces(sl.Letter, 1)
			if sl.Mark != 0 {
				groups[sl.Pocket] += string(sl.Mark)
			}
		}
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%c: %s", k, orDash(groups[k]))
	}
	return strings.Join(parts, "  ")
}

// turnLine says whose turn it is in p, or how the game ended.
func turnLine(p *rules.Position) string {
	if o := p.Outcome(); o.Over() {
		return fmt.Sprintf("Game over: %s (%s).", resultText(o.Result), o.Reason)
	}
	return turnText(p, upperFirst(p.ToAct().String()), "")
}

// turnText is "WHO to move" for the player to act in p, with "(in
// check)", then the phase of a multi-part turn ("White moves a Black
// piece"), unless the text said holds it already, or whose pieces they
// move when not their own.
func turnText(p *rules.Position, who, said string) string {
	s := who + " to move"
	if p.InCheck() {
		s += " (in check)"
	}
	switch name := p.PhaseName(); {
	case name != "" && name != "move":
		if !strings.Contains(said, name) { // else told by the text above the board
			s += ": " + name
		}
	case p.Mover() != p.ToAct():
		s += ", moving " + upperFirst(p.Mover().String()) + "'s pieces"
	}
	return s + "."
}

// resultText is the PGN form of r.
func resultText(r rules.Result) string {
	switch r {
	case rules.WhiteWins:
		return "1-0"
	case rules.BlackWins:
		return "0-1"
	case rules.Draw:
		return "1/2-1/2"
	}
	return "*"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
