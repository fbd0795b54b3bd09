package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/rules"
)

// game is what a game's page shows, built once per record version
// (pageCache): everything public about the game and nothing private
// (no conditional lines, notes, followers or pre-game seed).
type game struct {
	ID, Version uint64
	Ongoing     bool
	White       player
	Black       player
	// Setup reports a game waiting for its pre-game choice: nobody has a
	// colour yet (White and Black are the challenger and the challenged).
	Setup       bool
	VariantName string
	VariantKey  string
	Options     []string // "name: value", for the options not at their defaults
	TimeControl string
	Rated       string // "Rated" (with the pool) or "Casual"
	Plies       int
	Lines       []line   // the move list, one full move a line
	labels      []string // by ply: "12. Qc7", "12... Nf6"
	// Alts are the alt texts of the boards, by ply (0: the start).
	Alts []string
	// Started, Updated are the record's times.
	Started, Updated time.Time

	rec *bot.Game
	rg  *rules.Game

	// The move list's HTML, written once per side (moveList).
	movesOnce [2]sync.Once
	movesHTML [2]string
	movesErr  [2]error
}

// player is one side of a game as the page names it.
type player struct {
	Name   string // the server nickname (Options.Names), else the user ID
	Rating string // "1523 → 1541 (+18)" once rated, "1500?" while playing a rated game, "" when casual
}

// line is one line of the move list, as /history writes it: a full
// move, White's turn then Black's ("12. Qc7, Qxc4, b3 — Nf6, e5"); a
// line that begins with Black's turn has no White part.
type line struct {
	Number       string // "12." or, when the line begins with Black's turn, "12..."
	White, Black []move // the moves of each side's turn, in order
}

// move is one ply of the move list: a link around its friendly form,
// with the words around it that /history writes ("(Black answers Dg7)",
// "pass (forced)").
type move struct {
	Ply         int    // 1 for the first move
	Before, SAN string // Before: "(Black answers " for a move of the other player inside the turn
	After       string // ")" or " (forced)"
}

// historyLines groups turns into the lines of the move list as /history
// does, and names every ply ("12. Qc7", "12... Nf6") for the captions.
func historyLines(turns []gameplay.Turn, plies int) ([]line, []string) {
	var lines []line
	labels := make([]string, plies+1)
	labels[0] = "the start"
	for _, t := range turns {
		moves := make([]move, len(t.Moves))
		number := fmt.Sprintf("%d.", t.Number)
		if t.Color == rules.Black {
			number = fmt.Sprintf("%d...", t.Number)
		}
		for i, e := range t.Moves {
			mv := move{Ply: e.Ply, SAN: e.SAN}
			switch {
			case e.Color != t.Color && e.Forced:
				mv.Before, mv.After = "("+colourName(e.Color)+" had to ", ")"
			case e.Color != t.Color && e.SAN == "pass":
				mv.Before, mv.After = "("+colourName(e.Color)+" ", "es)"
			case e.Color != t.Color:
				mv.Before, mv.After = "("+colourName(e.Color)+" answers ", ")"
			case e.Forced:
				mv.After = " (forced)"
			}
			moves[i] = mv
			if e.Ply < len(labels) {
				labels[e.Ply] = number + " " + e.SAN
			}
		}
		switch {
		case t.Color == rules.Black && len(lines) > 0 && lines[len(lines)-1].Black == nil && !lines[len(lines)-1].closed():
			lines[len(lines)-1].Black = moves
		case t.Color == rules.Black:
			lines = append(lines, line{Number: number, Black: moves})
		default:
			lines = append(lines, line{Number: number, White: moves})
		}
	}
	return lines, labels
}

// closed reports whether l takes no more turns: it began with Black's.
func (l line) closed() bool { return l.White == nil }

// Names gives the short display name of a user in a guild, "" when
// unknown (as command.Options.Names).
type Names func(ctx context.Context, guildID, userID string) string

// buildGame reads what the page of g (replayed as rg) shows.
func (s *Server) buildGame(ctx context.Context, g *bot.Game, rg *rules.Game) (*game, error) {
	v, err := s.svc.Rules().Variant(g.Variant, g.Options)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	m := &game{ID: g.ID, Version: g.Version, Ongoing: g.Ongoing(), Setup: g.Status == bot.GameSetup,
		VariantName: v.Name, VariantKey: v.Key, Plies: len(rg.Moves()),
		Started: g.Created, Updated: g.Updated, rec: g, rg: rg}
	m.White = player{Name: s.name(ctx, g, g.White)}
	m.Black = player{Name: s.name(ctx, g, g.Black)}
	for o := range strings.SplitSeq(g.Options, ",") {
		if k, val, ok := strings.Cut(o, "="); ok {
			m.Options = append(m.Options, k+": "+val)
		}
	}
	m.TimeControl = timeControl(g)
	m.Rated = "Casual"
	if g.Rated {
		m.Rated = "Rated"
		s.ratings(ctx, g, m)
	}
	m.Lines, m.labels = historyLines(gameplay.TurnsOf(g, rg), m.Plies)
	m.Alts = make([]string, m.Plies+1)
	for ply := range m.Alts {
		m.Alts[ply] = altText(m, ply)
	}
	return m, nil
}

// name is how the page names userID in g: the computer player by its
// level, others by Options.Names, else by their user ID.
func (s *Server) name(ctx context.Context, g *bot.Game, userID string) string {
	if s.svc.IsComputer(userID) && g.Level > 0 {
		return fmt.Sprintf("the bot (level %d)", g.Level)
	}
	if s.opts.Names != nil {
		if n := s.opts.Names(ctx, g.GuildID, userID); n != "" {
			return n
		}
	}
	return userID
}

// ratings fills the ratings of the players of rated game g: the change
// recorded when it ended (in the first pool it counted in), else each
// player's current rating there when the Server reads ratings.
func (s *Server) ratings(ctx context.Context, g *bot.Game, m *game) {
	sys := s.svc.RatingSystem()
	if len(g.Ratings) > 0 {
		pool := g.Ratings[0].Pool
		for _, c := range g.Ratings {
			if c.Pool != pool {
				continue
			}
			text := sys.Display(c.Before) + " → " + sys.Display(c.After) + " (" + strings.TrimSpace(changeOnly(sys, c)) + ")"
			switch c.UserID {
			case g.White:
				m.White.Rating = text
			case g.Black:
				m.Black.Rating = text
			}
		}
		return
	}
	if s.opts.Standings == nil || !g.Ongoing() {
		return
	}
	pools, err := rating.PoolsForGame(g.Variant, g.Options, g.GuildID)
	if err != nil || len(pools) == 0 {
		return
	}
	key := pools[0].Key()
	for _, side := range []struct {
		id string
		p  *player
	}{{g.White, &m.White}, {g.Black, &m.Black}} {
		sts, err := s.opts.Standings.UserStandings(ctx, side.id)
		if err != nil {
			continue
		}
		var standing rating.Player // a newcomer's when none
		if i := slices.IndexFunc(sts, func(st bot.Standing) bool { return st.Pool == key }); i >= 0 {
			standing = sts[i].Player
		}
		if live, err := sys.Live(standing, s.svc.Now()); err == nil {
			side.p.Rating = sys.Display(live)
		}
	}
}

// changeOnly is the signed difference of a rating change ("+18", "−7").
func changeOnly(sys rating.System, c bot.RatingChange) string {
	full := sys.Change(c.Before, c.After) // "1523 → 1541 (+18)"
	if i, j := strings.LastIndex(full, "("), strings.LastIndex(full, ")"); i >= 0 && j > i {
		return full[i+1 : j]
	}
	return full
}

// timeControl describes g's clock: days per move and the time bank.
func timeControl(g *bot.Game) string {
	var s string
	switch g.DaysPerMove {
	case 0:
		return "No time limit"
	case 1:
		s = "1 day per move"
	default:
		s = fmt.Sprintf("%d days per move", g.DaysPerMove)
	}
	if g.BankDays > 0 {
		s += fmt.Sprintf(", plus a time bank of %d days each", g.BankDays)
	}
	return s
}

// state is the line that says where the game stands, at now: whose turn
// and the time left, or the result and why.
func (m *game) state(now time.Time) string {
	g := m.rec
	switch g.Status {
	case bot.GameSetup:
		who := m.nameOf(g.ToAct)
		if g.Setup != nil && g.Setup.Army != "" {
			return fmt.Sprintf("Before the game: %s chooses who moves first%s.", who, left(g.Deadline, now))
		}
		return fmt.Sprintf("Before the game: %s chooses the army they play%s.", who, left(g.Deadline, now))
	case bot.GameActive:
		if !g.PausedAt.IsZero() {
			return "The game is paused by agreement."
		}
		p := m.rg.Position()
		// What the player does now in a multi-part turn is in the
		// board's status bar (render), as in the bot's posts.
		return fmt.Sprintf("%s (%s) to move%s.", m.nameOf(g.ToAct), colourName(p.ToAct()), left(g.Deadline, now))
	case bot.GameAborted:
		return "The game was aborted" + gameplay.AbortPhrase(g.Reason) + "."
	case bot.GameFinished:
		reason := gameplay.EndPhrase(m.rg.Variant(), g.Result, g.Reason)
		switch g.Result {
		case bot.WhiteWins:
			return fmt.Sprintf("%s (White) won%s, 1-0.", m.White.Name, reason)
		case bot.BlackWins:
			return fmt.Sprintf("%s (Black) won%s, 0-1.", m.Black.Name, reason)
		case bot.Draw:
			return fmt.Sprintf("A draw%s, ½-½.", reason)
		}
		return "The game is over."
	}
	return ""
}

// nameOf returns the page's name of a player of the game.
func (m *game) nameOf(userID string) string {
	switch userID {
	case m.rec.White:
		return m.White.Name
	case m.rec.Black:
		return m.Black.Name
	}
	return userID
}

// left says how long until deadline, from now: ", 2 days 3 hours left".
func left(deadline, now time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	d := deadline.Sub(now)
	if d <= 0 {
		return ", time is up"
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && hours > 0:
		return fmt.Sprintf(", %s %s left", plural(days, "day"), plural(hours, "hour"))
	case days > 0:
		return fmt.Sprintf(", %s left", plural(days, "day"))
	case hours > 0 && mins > 0:
		return fmt.Sprintf(", %s %s left", plural(hours, "hour"), plural(mins, "minute"))
	case hours > 0:
		return fmt.Sprintf(", %s left", plural(hours, "hour"))
	case mins > 0:
		return fmt.Sprintf(", %s left", plural(mins, "minute"))
	}
	return ", less than a minute left"
}

// plural writes n with its noun.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// colourName is "White" or "Black".
func colourName(c rules.Color) string {
	if c == rules.Black {
		return "Black"
	}
	return "White"
}

// moveNumber is the move number of the title: the full move the game is
// at after ply (the ply's position's full-move number).
func (m *game) moveNumber(ply int) int {
	p := m.rg.PositionAt(ply)
	return p.Fullmove()
}

// label names the position after ply for people: "the start", or the
// ply's turn label and move ("23. Nf3", "23... Nxe4").
func (m *game) label(ply int) string {
	if ply < 0 || ply >= len(m.labels) || m.labels[ply] == "" {
		return fmt.Sprintf("ply %d", ply)
	}
	return m.labels[ply]
}
