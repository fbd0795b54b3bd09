package gameplay

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
)

// pgnWidth is the longest line of PGN movetext.
const pgnWidth = 80

// PGN returns game id, finished or not, in Portable Game Notation. Anyone
// may export any game; ENOTFOUND for an unknown game.
//
// Tags: the Seven Tag Roster (Event "fairypost correspondence game"; Site
// the Discord channel's address, or "?" when the game has no guild;
// Date the game's creation, UTC; Round "-"; White and Black the players'
// user IDs; Result), then GameId, Variant (the variant's name), VariantKey
// (its registry key), Options when the game has any, TimeControl
// ("1/259200": one move per 3 days; "-" for no limit), SetUp "1" and FEN
// when the game did not start from the variant's start position (a
// pre-game choice, a variant option does not count: it has its own tag),
// Termination ("normal", "time forfeit", "abandoned" for an aborted game,
// "unterminated" while it goes on), Reason (why it ended, in fairypost's
// words: "checkmate", "resignation", "timeout"...) once it has, and
// PlyCount.
//
// Movetext: the game is written turn by turn (TurnsOf), as /history
// shows it. Chess has one move per turn; Train Wreck two (one of the
// player's own pieces, then one of the opponent's); Winning Chess a
// Defender pre-move, marked '>', before the regular move, and an
// opponent's Defender answer between the two steps of an Attacker. Every
// turn is numbered once, with its full-move number (Turn.Number): "12."
// before White's turn, "12..." before Black's, whoever makes each of its
// parts, so White's turn 12 with Black's Defender answer between the
// Attacker's steps reads "12. Ad3> D~K Ab5". The turn's moves follow in the
// friendly form (rules/notation), then a comment holds the same moves in
// the canonical form (rules.FormatMove), separated by spaces. Train Wreck:
//
//	[...] 1. Nc3 d5 {b1c3 d7d5} 1... h5 Nf3 {h7h5 g1f3} 2. [...]
//
// Reading the comments in order gives every stored move exactly, for
// tools that do not know a variant's friendly notation (fairypost reads
// either form); they are the only comments. Lines are at most 80
// characters (a tag line can be longer); the text ends with a newline.
func (sub Views) PGN(ctx context.Context, id uint64) (string, error) {
	s := sub.s

	g, rg, err := s.Views().Replay(ctx, id)
	if err != nil {
		return "", err
	}
	v, err := s.rules.Variant(g.Variant, g.Options)
	if err != nil {
		return "", fmt.Errorf("game %d: %w", g.ID, err)
	}
	return formatPGN(g, rg, v, s.ComputerID()), nil
}

// formatPGN writes g, replayed as rg, of variant v (with g's options);
// in a game against the computer player (computer, its user ID) its name
// says so, with its level.
func formatPGN(g *bot.Game, rg *rules.Game, v *rules.Variant, computer string) string {
	var b strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, pgnEscape(value))
	}
	tag("Event", "fairypost correspondence game")
	tag("Site", pgnSite(g))
	date := "????.??.??"
	if !g.Created.IsZero() {
		date = g.Created.UTC().Format("2006.01.02")
	}
	tag("Date", date)
	tag("Round", "-")
	player := func(id string) string {
		if g.Level != 0 && id == computer {
			return fmt.Sprintf("%s (fairypost computer, level %d)", id, g.Level)
		}
		return id
	}
	tag("White", player(g.White))
	tag("Black", player(g.Black))
	tag("Result", g.Result.String())
	tag("GameId", strconv.FormatUint(g.ID, 10))
	tag("Variant", v.Name)
	tag("VariantKey", v.Key)
	if g.Options != "" {
		tag("Options", g.Options)
	}
	tc := "-"
	if g.DaysPerMove > 0 {
		tc = fmt.Sprintf("1/%d", g.DaysPerMove*24*60*60)
	}
	tag("TimeControl", tc)
	start, def := rg.Start(), v.Start()
	if start.FEN() != def.FEN() {
		tag("SetUp", "1")
		tag("FEN", start.FEN())
	}
	tag("Termination", pgnTermination(g))
	if !ongoing(g) && g.Reason != "" {
		tag("Reason", string(g.Reason))
	}
	moves := rg.Moves()
	tag("PlyCount", strconv.Itoa(len(moves)))
	b.WriteString("\n")

	var words []string
	for _, t := range TurnsOf(g, rg) {
		if len(t.Moves) == 0 {
			continue
		}
		// One number per turn, whoever made each of its parts: the
		// opponent's answer in the middle of White's turn reads
		// "12. Af3> D~K Ag4", as Train Wreck's move of an enemy piece
		// stays under its player's number.
		num := strconv.Itoa(t.Number) + "."
		if t.Color == rules.Black {
			num += ".."
		}
		words = append(words, num)
		canon := make([]string, len(t.Moves))
		for i, m := range t.Moves {
			words = append(words, m.SAN)
			canon[i] = m.Canonical
		}
		canon[0] = "{" + canon[0]
		canon[len(canon)-1] += "}"
		words = append(words, canon...)
	}
	words = append(words, g.Result.String())
	line := 0
	for i, w := range words {
		switch {
		case i == 0:
		case line+1+len(w) > pgnWidth:
			b.WriteString("\n")
			line = 0
		default:
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	b.WriteString("\n")
	return b.String()
}

// pgnSite returns the Site tag of g: the Discord address of its channel,
// or "?".
func pgnSite(g *bot.Game) string {
	if g.GuildID == "" || g.ChannelID == "" {
		return "?"
	}
	return "https://discord.com/channels/" + g.GuildID + "/" + g.ChannelID
}

// pgnTermination returns the PGN Termination tag value of g.
func pgnTermination(g *bot.Game) string {
	switch {
	case ongoing(g):
		return "unterminated"
	case g.Status == bot.GameAborted:
		return "abandoned"
	case g.Reason == ReasonTimeout:
		return "time forfeit"
	}
	return "normal"
}

// pgnEscape escapes a tag value: backslashes and quotes are escaped and
// line breaks become spaces.
func pgnEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(s)
}
