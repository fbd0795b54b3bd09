package gameplay

import (
	"fmt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// VariantName returns the display name of variant key with options
// ("Tank Chess", "Winning Chess [ranks=10]"); the key itself when the
// registry does not know it.
func (s *Service) VariantName(key, options string) string {
	name := key
	if v := s.rules.Default(key); v != nil {
		name = v.Name
	}
	if options != "" {
		name += " [" + options + "]"
	}
	return name
}

// The reasons a game ends for besides those of the rules (rules.Reason):
// those of the players and of the clock. Records store their values.
const (
	ReasonAgreement   rules.Reason = "agreement"         // a draw offered and accepted
	ReasonResignation rules.Reason = "resignation"       // a player resigned
	ReasonTimeout     rules.Reason = "timeout"           // a player ran out of time
	ReasonAborted     rules.Reason = "aborted"           // a player aborted the game (ActAbort)
	ReasonNoMove      rules.Reason = "no move in time"   // aborted: the first moves were not made in time
	ReasonNoChoice    rules.Reason = "no choice in time" // aborted: the pre-game choice was not made in time
)

// EndPhrase says why a game of variant v was won or drawn, to follow
// "<player> wins" or "a draw": " by checkmate", " on time", ": both
// Kings were captured". reason is Game.Reason (or a rules.Outcome's): a
// standard reason is worded here, a reason of the variant's own rules by
// v's definition (rules.Variant.EndPhrase); v may be nil (an unknown
// variant). An unknown reason reads " (reason)", an empty one "".
func EndPhrase(v *rules.Variant, r bot.Result, reason rules.Reason) string {
	if reason == "" {
		return ""
	}
	if v != nil {
		if phrase, ok := v.EndPhrase(reason, r == bot.Draw); ok {
			return phrase
		}
	}
	if r == bot.Draw {
		switch reason {
		case ReasonAgreement:
			return " by agreement"
		case rules.ReasonRepetition:
			return " by repetition of the position"
		case rules.ReasonStalemate:
			return " by stalemate: the player to move had no legal move"
		case rules.ReasonMoveCount:
			return " by the move-count rule: too long without a capture or a pawn move"
		case rules.ReasonInsufficientMaterial:
			return ": neither side has the material left to win"
		case rules.ReasonBothKingsCaptured:
			return ": both Kings were captured at once"
		case rules.ReasonBothReachedGoal:
			return ": both sides reached their goal at once"
		case rules.ReasonBothPassed:
			return ": both players passed in a row"
		case rules.ReasonExtinction:
			return " by extinction: a piece both sides must keep is gone"
		}
		return " (" + string(reason) + ")"
	}
	switch reason {
	case rules.ReasonExtinction:
		return " by extinction: the other side lost every piece of a kind it must keep"
	case rules.ReasonGoalReached:
		return " by reaching the goal"
	case rules.ReasonCheckmate:
		return " by checkmate"
	case rules.ReasonKingCaptured:
		return " by capturing the King"
	case rules.ReasonStalemate:
		return " by stalemate: the opponent had no legal move, which loses here"
	case ReasonResignation:
		return " by resignation"
	case ReasonTimeout:
		return " on time"
	}
	return " (" + string(reason) + ")"
}

// endPhrase is EndPhrase for g, which is over, in g's variant.
func (s *Service) endPhrase(g *bot.Game) string {
	return EndPhrase(s.rules.Default(g.Variant), g.Result, g.Reason)
}

// AbortPhrase says why a game was aborted, to follow "was aborted": ""
// when a player aborted it (ReasonAborted), else ": " and the reason
// (ReasonNoMove reads ": no move was made in time").
func AbortPhrase(reason rules.Reason) string {
	switch reason {
	case "", ReasonAborted:
		return ""
	case ReasonNoMove:
		return ": no move was made in time"
	case ReasonNoChoice:
		return ": the pre-game choice was not made in time"
	}
	return fmt.Sprintf(" (%s)", reason)
}

// counted writes n and noun, with an s unless n is 1: "1 move", "3 moves".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// times says how often something happened: "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
