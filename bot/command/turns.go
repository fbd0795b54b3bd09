package command

import (
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// maxSummaryMoves bounds the moves a turn summary names: the summary of
// a long stretch (a player who never moved yet in a long game) keeps the
// latest ones.
const maxSummaryMoves = 24

// turnMove is one move of a summary with what the summary needs of its
// turn.
type turnMove struct {
	gameplay.HistoryEntry
	answer bool // made by the player whose turn it is not (a Defender answer)
}

// flatten lists the moves of turns from the 0-based ply from on.
func flatten(turns []gameplay.Turn, from int) []turnMove {
	var out []turnMove
	for _, t := range turns {
		for _, e := range t.Moves {
			if e.Ply-1 >= from {
				out = append(out, turnMove{HistoryEntry: e, answer: e.UserID != t.UserID})
			}
		}
	}
	return out
}

// summary names moves in order, who played them and how: "<@bob> played
// Qc7, Qxc4, b3", "<@alice> played Af3>; <@bob> answered Dg7; <@alice>
// played Ag4". A pass the bot played because it was the only legal move
// says so; a part that is only passes reads "<@bob> passed". The move
// of ply bold (1-based; 0 for none) is in bold. where,
// when not empty, follows the first part (" in game #12"). Moves beyond
// maxSummaryMoves are left out from the front ("… ").
func summary(moves []turnMove, bold int, where string) string {
	var b strings.Builder
	if len(moves) > maxSummaryMoves {
		moves = moves[len(moves)-maxSummaryMoves:]
		b.WriteString("… ")
	}
	for i := 0; i < len(moves); {
		j := i
		for j < len(moves) && moves[j].UserID == moves[i].UserID && moves[j].answer == moves[i].answer {
			j++
		}
		part := moves[i:j]
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(mention(part[0].UserID))
		switch {
		case allPasses(part, true):
			b.WriteString(" passed (the only legal move, so the bot played it)")
		case allPasses(part, false):
			b.WriteString(" passed")
		default:
			if part[0].answer {
				b.WriteString(" answered ")
			} else {
				b.WriteString(" played ")
			}
			for k, m := range part {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(moveWords(m.HistoryEntry, bold))
			}
		}
		if i == 0 {
			b.WriteString(where)
		}
		i = j
	}
	return b.String()
}

// allPasses reports whether every move of part is a pass, each forced
// when forced is set.
func allPasses(part []turnMove, forced bool) bool {
	for _, m := range part {
		if m.Canonical != "pass" || forced && !m.Forced {
			return false
		}
	}
	return true
}

// moveWords writes one move of a summary: its friendly form, in bold
// when it is ply bold, and what the bot did.
func moveWords(e gameplay.HistoryEntry, bold int) string {
	s := e.SAN
	if e.Ply == bold {
		s = "**" + s + "**"
	}
	if e.Forced {
		s += " (the only legal move, played by the bot)"
	}
	return s
}

// sinceLastOwn returns the 0-based ply after the last move userID made
// in g (replayed as rg; a forced pass the bot played for them does not
// count), 0 when they made none: what happened since they last acted.
func sinceLastOwn(g *bot.Game, rg *rules.Game, userID string) int {
	side := colorOf(g, userID)
	moves := rg.Moves()
	for i := len(moves) - 1; i >= 0; i-- {
		p := rg.PositionAt(i)
		if p.ToAct() != side {
			continue
		}
		if moves[i].Kind == rules.KindPass && len(p.Legal(nil)) == 1 {
			continue // the bot's
		}
		return i + 1
	}
	return 0
}

// playedFrom returns the 0-based ply where the reply to a move of
// userID, made at 1-based ply, starts telling the game: the beginning of
// the turn it belongs to when that is userID's turn (so a turn's last
// half-move is told with the first), else the move itself (an answer
// inside the opponent's turn).
func playedFrom(turns []gameplay.Turn, userID string, ply int) int {
	for _, t := range turns {
		if len(t.Moves) == 0 || t.Moves[0].Ply > ply || t.Moves[len(t.Moves)-1].Ply < ply {
			continue
		}
		if t.UserID == userID {
			return t.Moves[0].Ply - 1
		}
	}
	return ply - 1
}

// lastTurnSummary is the sentence that tells userID what happened in g
// (replayed as rg) since they last moved, from the beginning of the turn
// where it starts (so the opponent's whole turn is told, with userID's
// own answer inside it), "" when nothing happened.
func lastTurnSummary(g *bot.Game, rg *rules.Game, userID string) string {
	from := sinceLastOwn(g, rg, userID)
	moves := flatten(gameplay.TurnsSince(g, rg, from), 0)
	if len(moves) == 0 {
		return ""
	}
	return summary(moves, 0, "") + "."
}
