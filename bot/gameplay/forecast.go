package gameplay

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// Conditional moves ("forecasts"). While waiting for the opponent, a
// player may store lines of play for a game: the opponent's expected
// moves and the player's answers, in the order they would be played from
// the current position. When the game reaches a point of a line where
// the line's owner is to act, the bot plays the owner's answer at once,
// inside the same store update (the same compare-and-swap) as the move
// that reached it, checked by the rules engine like a typed move. Lines
// the game left are dropped.
//
// A line is a list of atomic moves, so an opponent's "move" is their
// whole turn, however many moves it has (Train Wreck's two half-moves,
// Three-Move's three, a Winning Chess turn in which the owner answers as
// Defender), and an answer may be a whole turn of the owner's own. Forced
// passes (a player whose only legal move is "pass", which the bot plays
// for them, see Move) are part of a line: they are added when the line is
// stored, so they count as played.

// Bounds on conditional lines, so that a record stays small.
const (
	// MaxForecasts is the most lines one player keeps in one game.
	MaxForecasts = 20
	// MaxForecastMoves is the most moves one line has, forced passes
	// included.
	MaxForecastMoves = 60
)

// ForecastLine is a stored line as its owner sees it (Service.Forecasts).
type ForecastLine struct {
	Number int // 1-based, in the order the lines are kept
	// Moves are the line's moves still to come, in friendly form, each
	// with who makes it.
	Moves []ForecastMove
}

// ForecastMove is one move of a ForecastLine.
type ForecastMove struct {
	SAN    string // friendly form
	Mine   bool   // a move of the line's owner (an answer); otherwise the opponent's (expected)
	Forced bool   // a pass the bot plays because it is the only legal move
}

// String writes the line for its owner: "if Bb5, then a6; if Ba4, then
// Nf6". A turn of several moves is written as its moves in order;
// forced passes are written "(pass)".
func (l ForecastLine) String() string {
	var b strings.Builder
	for i := 0; i < len(l.Moves); {
		j := i
		for j < len(l.Moves) && l.Moves[j].Mine == l.Moves[i].Mine {
			j++
		}
		var words []string
		for _, m := range l.Moves[i:j] {
			if m.Forced {
				words = append(words, "("+m.SAN+")")
			} else {
				words = append(words, m.SAN)
			}
		}
		seg := strings.Join(words, " ")
		switch {
		case !l.Moves[i].Mine && i == 0:
			b.WriteString("if " + seg)
		case !l.Moves[i].Mine:
			b.WriteString("; if " + seg)
		case i == 0:
			b.WriteString("play " + seg)
		default:
			b.WriteString(", then " + seg)
		}
		i = j
	}
	return b.String()
}

// forecastStep is one move of a line being read: the canonical form, who
// makes it and whether the bot plays it as a forced pass.
type forecastStep struct {
	canonical string
	san       string
	actor     string
	forced    bool
}

// forcedPass returns the only legal move of rg's position when it is a
// pass and the game goes on: a move the bot plays by itself (see settle).
func forcedPass(rg *rules.Game) (rules.Move, bool) {
	if rg.Outcome().Over() {
		return rules.Move{}, false
	}
	legal := rg.Legal()
	if len(legal) != 1 {
		return rules.Move{}, false
	}
	p := rg.Position()
	if rules.FormatMove(&p, legal[0]) != "pass" {
		return rules.Move{}, false
	}
	return legal[0], true
}

// lineWords splits a typed line into move texts, leaving out move
// numbers ("12.", "12...") and commas.
func lineWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' }) {
		num := strings.TrimRight(w, ".")
		if num != w {
			if _, err := strconv.Atoi(num); err == nil {
				continue
			}
		}
		if n, rest, ok := strings.Cut(w, "."); ok {
			if _, err := strconv.Atoi(n); err == nil {
				w = strings.TrimLeft(rest, ".")
			}
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// readLine reads text, a line typed by owner, as moves played on from
// rg's position (rg is played on): each move must be legal where it
// comes, and forced passes are added where the bot would play them (a
// "pass" typed there is taken as that pass). It refuses, with EINVALID
// and the move at fault, a move that is not legal or ambiguous, a line
// that goes on after the game would be over, one without a move of the
// owner's, and one whose last move not forced is the opponent's (an
// expectation without an answer). Forced passes after the owner's last
// answer are left out.
func readLine(g *bot.Game, rg *rules.Game, owner, text string) ([]forecastStep, error) {
	words := lineWords(text)
	if len(words) == 0 {
		return nil, bot.Errorf(bot.EINVALID, "Give the line as moves, the opponent's first: for example line:\"Bb5 a6 Ba4 Nf6\".")
	}
	var steps []forecastStep
	for i := 0; i < len(words); i++ {
		w := words[i]
		if rg.Outcome().Over() {
			return nil, bot.Errorf(bot.EINVALID, "The line goes on after the game would be over (%s): leave out %s and what follows.", rg.Outcome().Reason, w)
		}
		p := rg.Position()
		who := userToAct(g, &p)
		m, err := readMove(&p, w)
		if err != nil {
			return nil, bot.Errorf(bot.EINVALID, "Move %d of the line, %s, for %s: %s", i+1, w, whoWord(who, owner), bot.ErrorMessage(moveError(err)))
		}
		steps = append(steps, forecastStep{canonical: rules.FormatMove(&p, m), san: notation.SAN(&p, m), actor: who})
		if err := rg.Play(m); err != nil {
			return nil, bot.Errorf(bot.EINVALID, "Move %d of the line, %s: %s", i+1, w, bot.ErrorMessage(moveError(err)))
		}
		for len(steps) < MaxForecastMoves+1 {
			pass, ok := forcedPass(rg)
			if !ok {
				break
			}
			q := rg.Position()
			steps = append(steps, forecastStep{canonical: rules.FormatMove(&q, pass), san: notation.SAN(&q, pass),
				actor: userToAct(g, &q), forced: true})
			if err := rg.Play(pass); err != nil {
				break // cannot happen: the move is legal
			}
			if i+1 < len(words) && strings.EqualFold(words[i+1], "pass") {
				i++ // the player wrote the forced pass
			}
		}
		if len(steps) > MaxForecastMoves {
			return nil, bot.Errorf(bot.EINVALID, "A line has at most %d moves (forced passes included).", MaxForecastMoves)
		}
	}
	last := -1
	for i, st := range steps {
		if st.actor == owner && !st.forced {
			last = i
		}
	}
	if last < 0 {
		return nil, bot.Errorf(bot.EINVALID, "The line has no move of yours: write your opponent's expected moves, then your answer (for example \"Bb5 a6\").")
	}
	for _, st := range steps[last+1:] {
		if !st.forced {
			return nil, bot.Errorf(bot.EINVALID, "The line ends with your opponent's %s and no answer of yours: add your answer, or leave it out.", st.san)
		}
	}
	return steps[:last+1], nil
}

// whoWord is "you" when who is owner, else "your opponent".
func whoWord(who, owner string) string {
	if who == owner {
		return "you"
	}
	return "your opponent"
}

// AddForecast stores a conditional line for userID in game gameID: text
// is the line in either notation, the opponent's expected moves first,
// then userID's answer, then the opponent's next expected moves and so on
// ("Bb5 a6 Ba4 Nf6": if they play Bb5 answer a6; then if Ba4, Nf6). A
// turn of several moves is written as its moves in order. The line is
// read move by move from the current position (see readLine) and kept
// private in the game record without changing its Version
// (GameStore.AnnotateGame), so the opponent's buttons stay valid. A line
// that continues one of userID's lines replaces it.
//
// Errors, with nothing changed: ENOTFOUND for an unknown game; EFORBIDDEN
// for a user who does not play in it; EINVALID for a game not being
// played, while it is userID's turn (lines start with the opponent's
// move: play yours first), for a line readLine refuses, one that answers
// differently from a stored line after the same moves (clear or keep
// one), one already stored, and past MaxForecasts lines.
func (sub Forecasting) AddForecast(ctx context.Context, gameID uint64, userID, text string) (*ForecastLine, error) {
	s := sub.s

	var added ForecastLine
	_, err := s.games.AnnotateGame(ctx, gameID, func(view bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		g := &view // its lines are worked on here, then kept in a
		if err := player(g, userID); err != nil {
			return nil, err
		}
		if err := s.playing(g); err != nil {
			return nil, err
		}
		if g.ToAct == userID {
			return nil, bot.Errorf(bot.EINVALID, "It is your turn in game %d: play your move first. A conditional line starts with your opponent's move, while you wait for it.", g.ID)
		}
		rg, err := s.replay(g)
		if err != nil {
			return nil, err
		}
		trimForecasts(g)
		steps, err := readLine(g, rg.Fork(), userID, text)
		if err != nil {
			return nil, err
		}
		line := bot.Forecast{Owner: userID, Base: len(g.Moves)}
		for _, st := range steps {
			line.Moves = append(line.Moves, st.canonical)
		}
		replace, n := -1, 0
		for i, f := range g.Forecasts {
			if f.Owner != userID {
				continue
			}
			n++
			k := 0
			for k < len(f.Moves) && k < len(line.Moves) && f.Moves[k] == line.Moves[k] {
				k++
			}
			switch {
			case k == len(line.Moves):
				return nil, bot.Errorf(bot.EINVALID, "Your line %d holds this line already: /forecast list shows your lines.", n)
			case k == len(f.Moves):
				replace = i // the new line continues f
			case steps[k].actor == userID:
				return nil, bot.Errorf(bot.EINVALID, "After the same moves, your line %d answers %s where this one answers %s: one answer only (/forecast clear, then add the line you keep).",
					n, sanAt(g, rg, f, k), steps[k].san)
			}
		}
		added = ForecastLine{}
		if replace >= 0 {
			g.Forecasts[replace] = line
		} else {
			if n >= MaxForecasts {
				return nil, bot.Errorf(bot.EINVALID, "You keep %d conditional lines in game %d already, the most there can be: /forecast clear first.", n, g.ID)
			}
			g.Forecasts = append(g.Forecasts, line)
		}
		k := 0
		for _, f := range g.Forecasts {
			if f.Owner == userID {
				k++
				if f.Base == line.Base && strings.Join(f.Moves, " ") == strings.Join(line.Moves, " ") {
					added.Number = k
				}
			}
		}
		for _, st := range steps {
			added.Moves = append(added.Moves, ForecastMove{SAN: st.san, Mine: st.actor == userID, Forced: st.forced})
		}
		a.Forecasts = g.Forecasts
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	return &added, nil
}

// sanAt returns the friendly form of move k of the stored line f of g,
// whose replay is rg (not played on), or its canonical form when the line
// does not replay.
func sanAt(g *bot.Game, rg *rules.Game, f bot.Forecast, k int) string {
	lines := forecastLines(g, rg, bot.Forecast{Owner: f.Owner, Base: f.Base, Moves: f.Moves[:k+1]})
	if len(lines) != k+1 {
		return f.Moves[k]
	}
	return lines[k].SAN
}

// forecastLines returns the moves of f in friendly form, played from the
// position of rg (not played on: a fork is). It stops at the first move
// that does not replay.
func forecastLines(g *bot.Game, rg *rules.Game, f bot.Forecast) []ForecastMove {
	fg := rg.Fork()
	var out []ForecastMove
	for _, text := range f.Moves {
		p := fg.Position()
		m, err := rules.ParseMove(&p, text)
		if err != nil {
			break
		}
		_, forced := forcedPass(fg)
		who := userToAct(g, &p)
		san := notation.SAN(&p, m)
		if fg.Play(m) != nil {
			break
		}
		out = append(out, ForecastMove{SAN: san, Mine: who == f.Owner, Forced: forced})
	}
	return out
}

// Forecasts returns userID's conditional lines in game gameID, with the
// game, in the order they are kept: what is still to come of each.
// Only the owner sees their lines. ENOTFOUND for an unknown game,
// EFORBIDDEN for a user who does not play in it.
func (sub Forecasting) Forecasts(ctx context.Context, gameID uint64, userID string) (*bot.Game, []ForecastLine, error) {
	s := sub.s

	g, err := s.games.Game(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	if err := player(g, userID); err != nil {
		return nil, nil, err
	}
	rg, err := s.replay(g)
	if err != nil {
		return nil, nil, err
	}
	var out []ForecastLine
	for _, f := range g.Forecasts {
		if f.Owner != userID || f.Base != len(g.Moves) {
			continue
		}
		out = append(out, ForecastLine{Number: len(out) + 1, Moves: forecastLines(g, rg, f)})
	}
	return g, out, nil
}

// ForecastEnd returns the replay of game gameID with userID's conditional
// line number (1-based, as Forecasts numbers them) played on: the
// position the line leads to, for a board image. Errors as for
// Forecasts, and EINVALID for a line number userID does not have.
func (sub Forecasting) ForecastEnd(ctx context.Context, gameID uint64, userID string, number int) (*bot.Game, *rules.Game, error) {
	s := sub.s

	g, err := s.games.Game(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	if err := player(g, userID); err != nil {
		return nil, nil, err
	}
	rg, err := s.replay(g)
	if err != nil {
		return nil, nil, err
	}
	k := 0
	for _, f := range g.Forecasts {
		if f.Owner != userID || f.Base != len(g.Moves) {
			continue
		}
		if k++; k != number {
			continue
		}
		fg := rg.Fork()
		for _, text := range f.Moves {
			p := fg.Position()
			m, err := rules.ParseMove(&p, text)
			if err != nil || fg.Play(m) != nil {
				break
			}
		}
		return g, fg, nil
	}
	if k == 0 {
		return nil, nil, bot.Errorf(bot.EINVALID, "You have no conditional line in game %d.", g.ID)
	}
	return nil, nil, bot.Errorf(bot.EINVALID, "You have %d conditional line(s) in game %d: choose a number from 1 to %d.", k, g.ID, k)
}

// ClearForecasts removes all of userID's conditional lines in game gameID
// and returns how many there were. Like AddForecast it leaves Version as
// it is. Errors as for Forecasts.
func (sub Forecasting) ClearForecasts(ctx context.Context, gameID uint64, userID string) (int, error) {
	s := sub.s

	n := 0
	_, err := s.games.AnnotateGame(ctx, gameID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		n = 0
		if err := player(&g, userID); err != nil {
			return nil, err
		}
		var keep []bot.Forecast
		for _, f := range g.Forecasts {
			if f.Owner == userID {
				n++
			} else {
				keep = append(keep, f)
			}
		}
		if n == 0 {
			return nil, noChange{}
		}
		a.Forecasts = keep
		return nil, nil
	})
	if err != nil && !errors.Is(err, noChange{}) {
		return 0, err
	}
	return n, nil
}

// noChange is what an update function returns to write nothing, with no
// error for the caller.
type noChange struct{}

func (noChange) Error() string { return "nothing to change" }

// trimForecasts brings g's lines up to its moves: a line whose Base is
// behind is kept only when the game's moves since match the line's
// first moves, and is then cut to the rest, with Base now the game's
// length; lines with nothing left, and lines the game left, are dropped.
// Lines ahead of the game (a takeback removed moves) are dropped too.
func trimForecasts(g *bot.Game) {
	keep := g.Forecasts[:0]
	for _, f := range g.Forecasts {
		if f.Base > len(g.Moves) {
			continue
		}
		played := g.Moves[f.Base:]
		if len(played) >= len(f.Moves) {
			continue
		}
		match := true
		for i, m := range played {
			match = match && f.Moves[i] == m
		}
		if !match {
			continue
		}
		keep = append(keep, bot.Forecast{Owner: f.Owner, Base: len(g.Moves), Moves: f.Moves[len(played):]})
	}
	if len(keep) == 0 {
		keep = nil
	}
	g.Forecasts = keep
}

// ForecastAnswer is a move the bot played from a conditional line.
type ForecastAnswer struct {
	UserID string // the owner of the line, for whom it was played
	SAN    string // the move in friendly form
}

// answerForecasts plays, after a move of g (replayed as rg, which has
// every move of g.Moves), the conditional answers its lines hold: while
// the game goes on and the player to act has a line whose next move is
// theirs, that move is checked by the rules engine and played, followed
// by the forced passes (settle). Lines the game left are dropped (a line
// whose move is no longer legal too, its owner told), and they all go
// when the game is over. told are the notifications of the move so far:
// a "your turn" to a player whose answer was then played is taken out,
// and each answer is told to both players (NotifyForecast), with the turn
// it answered. It returns the answers and the forced passes played, in
// order, and the notifications. r holds the players' reminder settings,
// read before the update: it reads no store.
func (s *Service) answerForecasts(g *bot.Game, rg *rules.Game, told []bot.Notification, now time.Time, r Reminders) ([]ForecastAnswer, []autoMove, []bot.Notification) {
	var answers []ForecastAnswer
	var auto []autoMove
	run := answerRun{at: -1}
	for len(g.Forecasts) > 0 {
		trimForecasts(g)
		if g.Status != bot.GameActive || rg.Outcome().Over() {
			g.Forecasts = nil
			break
		}
		p := rg.Position()
		who := userToAct(g, &p)
		idx := -1
		for i, f := range g.Forecasts {
			if f.Owner == who {
				idx = i
				break
			}
		}
		if idx < 0 {
			break
		}
		text := g.Forecasts[idx].Moves[0]
		answered := lastOpponentTurn(g, rg, who)
		m, err := rules.ParseMove(&p, text)
		if err == nil {
			err = rg.Play(m)
		}
		if err != nil {
			g.Forecasts = append(g.Forecasts[:idx:idx], g.Forecasts[idx+1:]...)
			told = append(told, gameNotification(g, bot.NotifyForecast, who, fmt.Sprintf(
				"Game %d: your conditional line was dropped: its next move, %s, is not legal now (%s).", g.ID, text, bot.ErrorMessage(moveError(err))), now))
			continue
		}
		san := notation.SAN(&p, m)
		g.Moves = append(g.Moves, rules.FormatMove(&p, m))
		g.DrawOffer, g.Takeback, g.Updated = "", "", now
		answers = append(answers, ForecastAnswer{UserID: who, SAN: san})
		// The "your turn" told before this answer is out of date.
		kept := told[:0]
		for _, n := range told {
			if !(n.Kind == bot.NotifyYourTurn && n.UserID == who) {
				kept = append(kept, n)
			}
		}
		told = kept
		if run.at >= len(told) || run.at >= 0 && told[run.at].Kind != bot.NotifyForecast {
			run.at = -1 // cannot happen: forecast told are not taken out
		}
		// One notification to each player per run of answers of one
		// owner (a turn of several moves is told at once).
		if run.owner != who || run.at < 0 || run.end != len(g.Moves)-1 {
			colour := "White"
			if p.ToAct() == rules.Black {
				colour = "Black"
			}
			run = answerRun{owner: who, at: len(told), answered: answered,
				head: fmt.Sprintf("Game %d: <@%s> (%s) played ", g.ID, who, colour)}
			told = append(told, toBoth(g, bot.NotifyForecast, "", now)...)
		}
		run.sans = append(run.sans, san)
		text = run.head + strings.Join(run.sans, ", ") + " at once, from a conditional line stored in advance"
		if run.answered != "" {
			text += " to answer " + run.answered
		}
		told[run.at].Text, told[run.at+1].Text = text+".", text+"."
		run.end = len(g.Moves)
		a, n := s.settle(g, rg, who, now, r)
		auto = append(auto, a...)
		told = append(told, n...)
	}
	if len(g.Forecasts) == 0 {
		g.Forecasts = nil
	}
	return answers, auto, told
}

// answerRun is a run of answers of one owner being told: where its two
// notifications are in the list, and what they say.
type answerRun struct {
	owner    string
	at       int // index of the first of the two notifications, -1 for none
	end      int // len(Game.Moves) after its last answer: a run goes on only from there
	head     string
	answered string
	sans     []string
}

// lastOpponentTurn returns the friendly forms of the moves of the
// opponent of userID in the turn of rg that ends the game so far
// ("Bb5", "Ab3 Ac4"), or "" when the last turn is userID's.
func lastOpponentTurn(g *bot.Game, rg *rules.Game, userID string) string {
	n := len(rg.Moves())
	if n == 0 {
		return ""
	}
	var sans []string
	for _, t := range TurnsSince(g, rg, n-1) {
		for _, e := range t.Moves {
			if e.UserID != userID && !e.Forced {
				sans = append(sans, e.SAN)
			}
		}
	}
	return strings.Join(sans, ", ")
}

// Forecasting keeps the players' conditional lines: adding, listing,
// clearing them, and a line's end as its owner would see it. Obtained
// from Service.Forecasting.
type Forecasting struct{ s *Service }

// Forecasting returns the Service's conditional lines.
func (s *Service) Forecasting() Forecasting { return Forecasting{s} }
