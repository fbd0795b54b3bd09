package bot

import "fmt"

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

// EndPhrase says why a game was won or drawn, to follow "<player> wins"
// or "a draw": " by checkmate", " on time", ": both Kings were
// captured". reason is Game.Reason (or a rules.Outcome's); an unknown
// reason reads " (reason)", an empty one "".
func EndPhrase(r Result, reason string) string {
	if reason == "" {
		return ""
	}
	if r == Draw {
		switch reason {
		case "agreement":
			return " by agreement"
		case "repetition":
			return " by repetition of the position"
		case "stalemate":
			return " by stalemate: the player to move had no legal move"
		case "move-count rule":
			return " by the move-count rule: too long without a capture or a pawn move"
		case "insufficient material":
			return ": neither side has the material left to win"
		case "both kings captured":
			return ": both Kings were captured at once"
		case "both sides annihilated":
			return ": both armies were wiped out at once"
		case "consecutive passes":
			return ": both players passed in a row"
		case "mutual stalemate":
			return ": neither player had a legal move"
		}
		return " (" + reason + ")"
	}
	switch reason {
	case "checkmate":
		return " by checkmate"
	case "king captured":
		return " by capturing the King"
	case "stalemate":
		return " by stalemate: the opponent had no legal move, which loses here"
	case "resignation":
		return " by resignation"
	case timeoutReason:
		return " on time"
	case "annihilation":
		return ": the opponent has no pieces left"
	}
	return " (" + reason + ")"
}

// AbortPhrase says why a game was aborted, to follow "was aborted": ""
// when a player aborted it (Game.Reason "aborted"), else ": " and the
// reason ("no move in time" reads ": no move was made in time").
func AbortPhrase(reason string) string {
	switch reason {
	case "", "aborted":
		return ""
	case "no move in time":
		return ": no move was made in time"
	case "no choice in time":
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
