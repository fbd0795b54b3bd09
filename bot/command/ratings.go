package command

import (
	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rating"
)

// resultText describes how a game ended, naming the winner, followed for
// a rated game by its players' rating changes (bot.RatingLines).
func resultText(g *bot.Game) string {
	line := resultLine(g)
	if r := bot.RatingLines(rating.Lichess(), g); line != "" && r != "" {
		line += "\n" + r
	}
	return line
}

// parseRated reads the rated: option of /challenge: "yes" (or not given:
// games between people are rated by default) or "no" (casual).
func parseRated(s string) (bool, error) {
	switch s {
	case "", "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, bot.Errorf(bot.EINVALID, "rated: choose yes (the game changes both players' ratings) or no (a casual game).")
}

// ratedText says whether challenge c is rated, for its announcement.
func ratedText(c *bot.Challenge) string {
	if c.Rated {
		return "rated"
	}
	return "casual (not rated)"
}
