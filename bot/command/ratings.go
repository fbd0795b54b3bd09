package command

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/render"
)

// resultText describes how a game ended, naming the winner, followed for
// a rated game by its players' rating changes (ratings.Lines).
func (h *Handler) resultText(g *bot.Game) string {
	line := h.resultLine(g)
	if r := ratings.Lines(rating.Lichess(), g); line != "" && r != "" {
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

// Command and option names of the ratings commands.
const (
	cmdLeaderboard = "leaderboard"
	cmdProfile     = "profile"
	optScope       = "scope"
	optUser        = "user"
)

// leaderboardSize is how many ranked players /leaderboard shows.
const leaderboardSize = 10

// chartPoints bounds the points of each line of a player card's chart.
const chartPoints = 60

// imageWidth is the width of leaderboard and player card images.
const imageWidth = 800

// scopeOption is the scope: option of /leaderboard and /profile.
func scopeOption() OptionSpec {
	return OptionSpec{Name: optScope, Kind: OptionString, Choices: choices("server", "global"),
		Description: "server: this server's players (the default in a server); global: every server's"}
}

// defineLeaderboard defines /leaderboard.
func defineLeaderboard(c catalogue) commandDef {
	return commandDef{Spec{Name: cmdLeaderboard, Description: "The best rated players of a variant, as a picture and as text", Options: []OptionSpec{
		{Name: optVariant, Description: "The variant", Kind: OptionString, Required: true, Choices: c.variants},
		{Name: optOptions, Description: "Variant options as key=value,key=value: each set of options is rated apart", Kind: OptionString},
		scopeOption(),
	}}, func(h *Handler, ctx context.Context, req Request) (Reply, error) {
		return h.ratingCommand(ctx, req, cmdLeaderboard)
	}}
}

// defineProfile defines /profile.
func defineProfile(catalogue) commandDef {
	return commandDef{Spec{Name: cmdProfile, Description: "A player's card: ratings per variant with their history, results and streaks", Options: []OptionSpec{
		{Name: optUser, Description: "Whose card (default: yours)", Kind: OptionUser},
		scopeOption(),
	}}, func(h *Handler, ctx context.Context, req Request) (Reply, error) {
		return h.ratingCommand(ctx, req, cmdProfile)
	}}
}

// ratingCommand runs /leaderboard or /profile.
func (h *Handler) ratingCommand(ctx context.Context, req Request, name string) (Reply, error) {
	if !h.ratings.Rates() {
		return Reply{}, bot.Errorf(bot.EINVALID, "This bot keeps no ratings, so it has no leaderboards or player cards.")
	}
	guild, where, err := ratingScope(req)
	if err != nil {
		return Reply{}, err
	}
	if name == cmdLeaderboard {
		return h.leaderboard(ctx, req, guild, where)
	}
	return h.profile(ctx, req, guild, where)
}

// ratingScope returns the guild whose pools a request is about ("" for
// the global pools) and the games those pools count, as a phrase to
// follow "from" ("this server's rated games"): a server's own unless
// scope:global is asked or there is no server (a DM, the console, whose
// games are rated in the global pools only).
func ratingScope(req Request) (guild, games string, err error) {
	switch req.Options[optScope] {
	case "", "server":
		if req.GuildID != "" {
			return req.GuildID, "this server's rated games", nil
		}
		if req.Options[optScope] == "server" && req.DM {
			return "", "", bot.Errorf(bot.EINVALID, "scope: server works in a server's channel; in a direct message, leave it out (or say global) for the ratings of every server.")
		}
		return "", "all rated games", nil
	case "global":
		return "", "the rated games of all servers", nil
	}
	return "", "", bot.Errorf(bot.EINVALID, "scope: choose server or global.")
}

// displayName is how an image names userID: the name the transport gave
// for the user (Request.Users, the caller and users named in options),
// else the adapter's Options.Names, else the ID itself (in the console,
// IDs are the names people typed). The message's text names people with
// mentions, which Discord shows as their names.
func (h *Handler) displayName(ctx context.Context, req Request, userID string) string {
	if f, ok := req.Users[userID]; ok && f.Name != "" {
		return f.Name
	}
	if h.names != nil {
		if n := h.names(ctx, req.GuildID, userID); n != "" {
			return n
		}
	}
	return userID
}

// signed writes a change with its sign: "+18", "−7", "±0".
func signed(d int) string {
	switch {
	case d > 0:
		return fmt.Sprintf("+%d", d)
	case d < 0:
		return fmt.Sprintf("−%d", -d)
	}
	return "±0"
}

// leaderboard runs /leaderboard: the pool of the variant with its
// options in the scope, as an image and as text.
func (h *Handler) leaderboard(ctx context.Context, req Request, guild, where string) (Reply, error) {
	key := req.Options[optVariant]
	_, canonical, err := h.svc.Rules().Resolve(key, req.Options[optOptions])
	if err != nil {
		return Reply{}, bot.Errorf(bot.EINVALID, "%s", err.Error())
	}
	pool, err := rating.NewPool(key, canonical, guild)
	if err != nil {
		return Reply{}, bot.Errorf(bot.EINVALID, "%s", err.Error())
	}
	lb, err := h.ratings.Leaderboard(ctx, pool, leaderboardSize, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	title := "Leaderboard · " + h.variantName(key, canonical)
	sub := fmt.Sprintf("From %s · ? = provisional, not ranked · trend: %s", where, counted(int(ratings.TrendWindow.Hours()/24), "day"))
	table := render.Table{Title: title, Subtitle: sub,
		Columns: []render.Column{{Heading: "#", Right: true}, {Heading: "Player", Fill: true}, {Heading: "Rating", Right: true},
			{Heading: "Games", Right: true}, {Heading: "Trend", Right: true, Signed: true}},
		Empty: "Nobody is ranked yet: a player is ranked once their rating is established (after a few rated games)."}
	var text strings.Builder
	fmt.Fprintf(&text, "**%s** (from %s)\n", title, where)
	// line adds row r; own marks the caller's row, gap rows left out
	// before it.
	line := func(r rating.Row, own, gap bool) {
		rank, cell := "–", ""
		if r.Rank > 0 {
			rank = strconv.Itoa(r.Rank)
			cell = rank
		}
		name := h.displayName(ctx, req, r.ID)
		if own {
			name += " (you)"
		}
		table.Rows = append(table.Rows, render.TableRow{Cells: []string{cell, name,
			r.Display(), strconv.Itoa(r.Games), signed(r.Trend)}, Highlight: own, Gap: gap})
		fmt.Fprintf(&text, "%s. %s %s, %s, trend %s\n", rank, mention(r.ID), r.Display(), counted(r.Games, "game"), signed(r.Trend))
	}
	for _, r := range lb.Top {
		line(r, r.ID == req.UserID, false)
	}
	if lb.Own != nil {
		gap := len(lb.Top) > 0 && lb.Own.Rank != len(lb.Top)+1
		if gap {
			text.WriteString("…\n")
		}
		line(*lb.Own, true, gap)
	}
	if len(lb.Top) == 0 {
		text.WriteString(table.Empty + "\n")
	}
	if len(lb.Top) == 0 && len(table.Rows) > 0 {
		// The caller's unranked line alone: say why nobody is above it.
		table.Subtitle = "Nobody is ranked yet · " + table.Subtitle
	}
	var buf bytes.Buffer
	if err := h.renderer.TablePNG(&buf, table, imageWidth); err != nil {
		return Reply{}, fmt.Errorf("leaderboard image: %w", err)
	}
	return Reply{Text: strings.TrimSpace(text.String()),
		Files: []File{{Name: "leaderboard-" + key + ".png", Data: buf.Bytes()}}}, nil
}

// profile runs /profile: the player card of the user: option's player
// (the caller by default) in the scope.
func (h *Handler) profile(ctx context.Context, req Request, guild, where string) (Reply, error) {
	user := req.Options[optUser]
	if user == "" {
		user = req.UserID
	}
	prs, err := h.ratings.Player(ctx, user, guild)
	if err != nil {
		return Reply{}, err
	}
	active, err := h.svc.Views().ActiveGames(ctx, user)
	if err != nil {
		return Reply{}, err
	}
	sys := h.svc.RatingSystem()
	now := h.svc.Now()
	name := h.displayName(ctx, req, user)
	card := render.Card{
		Table: render.Table{Title: name, Subtitle: "Ratings from " + where,
			Columns: []render.Column{{Heading: "Variant", Fill: true}, {Heading: "Rating", Right: true}, {Heading: "Peak", Right: true},
				{Heading: "Games", Right: true}, {Heading: "W / D / L", Right: true}, {Heading: "Best streak", Right: true}},
			Empty: "No rated game yet."},
		Chart: render.Chart{Title: "Rating history (end of each day with rated games)"},
	}
	var text strings.Builder
	fmt.Fprintf(&text, "**Player card of %s** (from %s)\n", mention(user), where)
	best, bestPool := 0, ""
	for _, pr := range prs {
		if len(card.Table.Rows) == render.MaxTableRows {
			break
		}
		hist := make([]rating.HistoryEntry, len(pr.History))
		for i, ev := range pr.History {
			hist[i] = ev.Entry
		}
		c, err := sys.Card(pr.Player, hist, now, chartPoints)
		if err != nil {
			return Reply{}, fmt.Errorf("card of %s in %s: %w", user, pr.Pool.Key(), err)
		}
		vname := h.variantName(pr.Pool.Variant, pr.Pool.Options)
		peak := "–"
		if c.Peak > 0 {
			peak = strconv.Itoa(c.Peak)
		}
		card.Table.Rows = append(card.Table.Rows, render.TableRow{Cells: []string{vname, c.Display, peak, strconv.Itoa(c.Games),
			fmt.Sprintf("%d / %d / %d", c.Wins, c.Draws, c.Losses), strconv.Itoa(c.LongestStreak)}})
		fmt.Fprintf(&text, "%s: %s, peak %s, %s (%d won, %d drawn, %d lost), best winning streak %d\n",
			vname, c.Display, peak, counted(c.Games, "game"), c.Wins, c.Draws, c.Losses, c.LongestStreak)
		if len(card.Chart.Series) < render.MaxSeries {
			s := render.Series{Name: vname}
			for _, p := range c.Chart {
				s.Points = append(s.Points, render.ChartPoint{At: p.Day, Value: float64(p.Rating)})
			}
			card.Chart.Series = append(card.Chart.Series, s)
		}
		if c.LongestStreak > best {
			best, bestPool = c.LongestStreak, vname
		}
	}
	if len(prs) == 0 {
		fmt.Fprintf(&text, "No rated game yet.\n")
	}
	playing := "Playing now: " + counted(len(active), "game")
	streak := "Longest winning streak: none yet"
	if best > 0 {
		streak = fmt.Sprintf("Longest winning streak: %d (%s)", best, bestPool)
	}
	card.Footer = []string{playing, streak}
	fmt.Fprintf(&text, "%s. %s.", playing, streak)
	var buf bytes.Buffer
	if err := h.renderer.CardPNG(&buf, card, imageWidth); err != nil {
		return Reply{}, fmt.Errorf("player card image: %w", err)
	}
	return Reply{Text: text.String(), Files: []File{{Name: "profile.png", Data: buf.Bytes()}}}, nil
}
