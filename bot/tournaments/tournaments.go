package tournaments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/tournament"
)

// Service runs correspondence tournaments over a gameplay.Service, the game's
// life: it creates their games in the tournament's transaction (as an
// accepted challenge would, gameplay.Service.BeginPlay), records their results
// after each update that ends one (an event it registers with the game's
// Service), and starts and catches up tournaments from the sweep (a
// bot.Sweeper it registers). A nil *Service, or one without a store, runs
// no tournaments: every method refuses with EINVALID. It is safe for
// concurrent use.
type Service struct {
	core    *gameplay.Service
	store   bot.TournamentStore
	ratings bot.RatingStore // nil: players are seeded in joining order
}

// New returns the tournaments over core, kept in store, seeded by the
// ratings in ratings (nil: in joining order), and registers with core
// what a game update and the sweep do for them: make it while core is
// built, before it serves. A nil store gives a Service that runs no
// tournaments and registers nothing.
func New(core *gameplay.Service, store bot.TournamentStore, ratings bot.RatingStore) *Service {
	s := &Service{core: core, store: store, ratings: ratings}
	if store != nil {
		core.OnGameCommitted(s.syncEnded)
		core.AddSweeper(sweeper{s})
	}
	return s
}

// Request is what an organiser asks for.
type Request struct {
	Organizer          string
	GuildID, ChannelID string
	Variant, Options   string
	DaysPerMove        int
	Kind               tournament.Kind
	Rounds             int // Swiss only
	Rated              bool
	// StartAt, when not zero, is when the tournament starts by itself:
	// after now and at most MaxStartDelay later.
	StartAt time.Time
}

// MaxStartDelay bounds how far ahead a tournament's start time may be.
const MaxStartDelay = 60 * 24 * time.Hour

// tournamentStore returns the store, or refuses when the Service keeps
// no tournaments (nil, or made without a store).
func (s *Service) tournamentStore() (bot.TournamentStore, error) {
	if s == nil || s.store == nil {
		return nil, bot.Errorf(bot.EINVALID, "This bot runs no tournaments.")
	}
	return s.store, nil
}

// tournamentError turns an error of package tournament into a domain
// error for the user.
func tournamentError(err error) error {
	if errors.Is(err, tournament.ErrInvalid) || errors.Is(err, tournament.ErrNoPairing) {
		msg := strings.TrimPrefix(err.Error(), "tournament: invalid input: ")
		if msg == "" {
			return bot.Errorf(bot.EINVALID, "The tournament cannot do that now.")
		}
		return bot.Errorf(bot.EINVALID, "%s", strings.ToUpper(msg[:1])+msg[1:]+".")
	}
	return err
}

// Create makes an open tournament in a server's channel; the
// organiser joins it. bot.EINVALID for a missing organiser or server, an
// unknown variant or option, a variant with a pre-game choice, days per
// move not allowed, an unknown system or a Swiss without rounds (or a
// round-robin with some).
func (s *Service) Create(ctx context.Context, req Request) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	if req.Organizer == "" || req.ChannelID == "" {
		return nil, bot.Errorf(bot.EINVALID, "A tournament is made by someone in a channel.")
	}
	if !bot.ValidDaysPerMove(req.DaysPerMove) {
		return nil, bot.Errorf(bot.EINVALID, "Days per move must be 1, 2, 3, 5, 7, 14 or unlimited, not %d.", req.DaysPerMove)
	}
	v, options, err := s.core.Rules().Resolve(req.Variant, req.Options)
	if err != nil {
		return nil, bot.Errorf(bot.EINVALID, "%s", err.Error())
	}
	if v.PreGame != nil {
		return nil, bot.Errorf(bot.EINVALID, "%s starts with a pre-game choice of armies, which tournaments do not offer: choose another variant.", v.Name)
	}
	e, err := tournament.NewEvent(req.Kind, req.Rounds)
	if err != nil {
		return nil, tournamentError(err)
	}
	if e, err = e.Join(req.Organizer); err != nil {
		return nil, tournamentError(err)
	}
	now := s.core.Now()
	if !req.StartAt.IsZero() && (!req.StartAt.After(now) || req.StartAt.After(now.Add(MaxStartDelay))) {
		return nil, bot.Errorf(bot.EINVALID, "The start time must be in the future and at most %d days ahead.", int(MaxStartDelay.Hours()/24))
	}
	t := &bot.Tournament{GuildID: req.GuildID, ChannelID: req.ChannelID, Organizer: req.Organizer,
		Variant: req.Variant, Options: options, DaysPerMove: req.DaysPerMove, Rated: req.Rated,
		StartAt: req.StartAt, Event: e, Created: now, Updated: now}
	if err := store.CreateTournament(ctx, t, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// Get returns tournament id.
func (s *Service) Get(ctx context.Context, id uint64) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.Tournament(ctx, id)
}

// InChannel returns the tournaments made in channelID.
func (s *Service) InChannel(ctx context.Context, channelID string) ([]*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.TournamentsByChannel(ctx, channelID)
}

// inServer refuses, as if there were no such tournament, a request from
// another server than t's.
func inServer(t *bot.Tournament, guild string) error {
	if t.GuildID != guild {
		return bot.Errorf(bot.ENOTFOUND, "There is no tournament %d.", t.ID)
	}
	return nil
}

// Join adds userID to open tournament id, from its server.
func (s *Service) Join(ctx context.Context, id uint64, userID, guild string) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.UpdateTournament(ctx, id, bot.AnyVersion, func(t *bot.Tournament, _ func() (uint64, error)) (bot.TournamentChange, error) {
		if err := inServer(t, guild); err != nil {
			return bot.TournamentChange{}, err
		}
		e, err := t.Event.Join(userID)
		if err != nil {
			return bot.TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.core.Now()
		return bot.TournamentChange{}, nil
	})
}

// Leave takes userID out of tournament id: before the start
// they are simply no longer in it; after, they forfeit every game of
// theirs without a result (the games being played are resigned for
// them) and are not paired again.
func (s *Service) Leave(ctx context.Context, id uint64, userID, guild string) (*bot.Tournament, error) {
	return s.Remove(ctx, id, userID, userID, guild)
}

// Remove takes player out of tournament id on behalf of
// actor, who must be the player (Leave) or the organiser
// (bot.EFORBIDDEN otherwise), with the same effect as the player leaving.
func (s *Service) Remove(ctx context.Context, id uint64, actor, player, guild string) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	userID := player
	t, err := store.UpdateTournament(ctx, id, bot.AnyVersion, func(t *bot.Tournament, _ func() (uint64, error)) (bot.TournamentChange, error) {
		if err := inServer(t, guild); err != nil {
			return bot.TournamentChange{}, err
		}
		if actor != player && actor != t.Organizer {
			return bot.TournamentChange{}, bot.Errorf(bot.EFORBIDDEN, "Only the organiser, <@%s>, can remove a player from tournament %d.", t.Organizer, t.ID)
		}
		e, err := t.Event.Leave(userID)
		if err != nil {
			return bot.TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.core.Now()
		return bot.TournamentChange{}, nil
	})
	if err != nil {
		return nil, err
	}
	// Games still being played end by resignation; their results are
	// already forfeits in the event, which Sync leaves as they
	// are.
	for _, tg := range t.Games {
		if tg.White != userID && tg.Black != userID {
			continue
		}
		g, err := s.core.Views().Game(ctx, tg.GameID)
		if err != nil {
			return nil, err
		}
		if g.Ongoing() {
			if _, err := s.core.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: bot.AnyVersion, UserID: userID}); err != nil && bot.ErrorCode(err) != bot.EINVALID {
				return nil, err
			}
		}
	}
	return s.Sync(ctx, id)
}

// Cancel stops tournament id for good; only its organiser may
// (bot.EFORBIDDEN). Games being played go on but count for nothing.
func (s *Service) Cancel(ctx context.Context, id uint64, userID, guild string) (*bot.Tournament, error) {
	return s.organise(ctx, id, userID, guild, "cancel", tournament.Event.Cancel)
}

// Pause pauses running tournament id; only its organiser may
// (bot.EFORBIDDEN). Games go on and their results are recorded, but no new
// round is paired (Swiss) and the event does not finish until it
// resumes.
func (s *Service) Pause(ctx context.Context, id uint64, userID, guild string) (*bot.Tournament, error) {
	return s.organise(ctx, id, userID, guild, "pause", tournament.Event.Pause)
}

// Resume resumes paused tournament id (organiser only) and
// pairs or finishes what waited meanwhile.
func (s *Service) Resume(ctx context.Context, id uint64, userID, guild string) (*bot.Tournament, error) {
	if _, err := s.organise(ctx, id, userID, guild, "resume", tournament.Event.Resume); err != nil {
		return nil, err
	}
	return s.Sync(ctx, id)
}

// organise applies change to tournament id's event on behalf of userID,
// who must be the organiser (bot.EFORBIDDEN); what names the change for the
// refusal.
func (s *Service) organise(ctx context.Context, id uint64, userID, guild, what string, change func(tournament.Event) (tournament.Event, error)) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.UpdateTournament(ctx, id, bot.AnyVersion, func(t *bot.Tournament, _ func() (uint64, error)) (bot.TournamentChange, error) {
		if err := inServer(t, guild); err != nil {
			return bot.TournamentChange{}, err
		}
		if userID != t.Organizer {
			return bot.TournamentChange{}, bot.Errorf(bot.EFORBIDDEN, "Only the organiser, <@%s>, can %s tournament %d.", t.Organizer, what, t.ID)
		}
		e, err := change(t.Event)
		if err != nil {
			return bot.TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.core.Now()
		return bot.TournamentChange{}, nil
	})
}

// seeds orders t's players by their rating in t's pool (the guild's):
// established ratings first, highest first, then the others in joining
// order.
func (s *Service) seeds(ctx context.Context, t *bot.Tournament) ([]string, error) {
	players := slices.Clone(t.Event.Players)
	if s.ratings == nil {
		return players, nil
	}
	pool, err := rating.NewPool(t.Variant, t.Options, t.GuildID)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	sts, err := s.ratings.PoolStandings(ctx, pool.Key())
	if err != nil {
		return nil, err
	}
	now := s.core.Now()
	live := map[string]rating.Glicko{}
	for _, st := range sts {
		if g, err := s.core.RatingSystem().Live(st.Player, now); err == nil && !s.core.RatingSystem().Provisional(g) {
			live[st.UserID] = g
		}
	}
	slices.SortStableFunc(players, func(a, b string) int {
		ga, okA := live[a]
		gb, okB := live[b]
		switch {
		case okA && okB:
			if ga.Rating > gb.Rating {
				return -1
			}
			if ga.Rating < gb.Rating {
				return 1
			}
			return 0
		case okA:
			return -1
		case okB:
			return 1
		}
		return 0
	})
	return players, nil
}

// Start starts open tournament id; only its organiser may
// (bot.EFORBIDDEN). The games of the first round (every round of a
// round-robin) are created at once.
func (s *Service) Start(ctx context.Context, id uint64, userID, guild string) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	t, err := store.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	seeds, err := s.seeds(ctx, t)
	if err != nil {
		return nil, err
	}
	reminders := s.core.ReadReminders(ctx, t.Event.Players...)
	return store.UpdateTournament(ctx, id, t.Version, func(t *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		if err := inServer(t, guild); err != nil {
			return bot.TournamentChange{}, err
		}
		if userID != t.Organizer {
			return bot.TournamentChange{}, bot.Errorf(bot.EFORBIDDEN, "Only the organiser, <@%s>, can start tournament %d.", t.Organizer, t.ID)
		}
		e, err := t.Event.Start(seeds)
		if err != nil {
			return bot.TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.core.Now()
		return s.pairGames(t, newID, reminders)
	})
}

// pairGames creates the games of every pairing of t's schedule that has
// none yet, and the notifications that tell the channel and the players; r holds
// the players' reminder settings, read before the update.
func (s *Service) pairGames(t *bot.Tournament, newID func() (uint64, error), reminders gameplay.Reminders) (bot.TournamentChange, error) {
	v, err := s.core.Rules().Variant(t.Variant, t.Options)
	if err != nil {
		return bot.TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	have := map[bot.TournamentGame]bool{}
	for _, tg := range t.Games {
		have[bot.TournamentGame{Round: tg.Round, White: tg.White, Black: tg.Black}] = true
	}
	now := s.core.Now()
	var ch bot.TournamentChange
	var lines []string
	for r, round := range t.Event.Schedule {
		paired := false
		for _, pair := range round.Games {
			key := bot.TournamentGame{Round: r + 1, White: pair.White, Black: pair.Black}
			if have[key] || pair.Result != tournament.Pending {
				continue
			}
			id, err := newID()
			if err != nil {
				return bot.TournamentChange{}, err
			}
			start := v.Start()
			g := &bot.Game{ID: id, Variant: t.Variant, Options: t.Options, GuildID: t.GuildID, ChannelID: t.ChannelID,
				DaysPerMove: t.DaysPerMove, Rated: t.Rated, Tournament: t.ID, White: pair.White, Black: pair.Black,
				StartFEN: start.FEN(), Status: bot.GameActive, Created: now, Updated: now}
			told := s.core.BeginPlay(g, start, now, reminders)
			key.GameID = id
			t.Games = append(t.Games, key)
			ch.Games = append(ch.Games, g)
			ch.Notifications = append(ch.Notifications, told...)
			lines = append(lines, fmt.Sprintf("round %d: <@%s> (White) vs <@%s>, game #%d", r+1, pair.White, pair.Black, id))
			paired = true
		}
		if paired && round.Bye != "" {
			lines = append(lines, fmt.Sprintf("round %d: <@%s> has the bye", r+1, round.Bye))
		}
	}
	if len(lines) > 0 {
		text := fmt.Sprintf("Tournament #%d (%s) — new games:\n%s", t.ID, s.core.VariantName(t.Variant, t.Options), strings.Join(lines, "\n"))
		ch.Notifications = append([]bot.Notification{{Kind: bot.NotifyTournament, GuildID: t.GuildID, ChannelID: t.ChannelID,
			TournamentID: t.ID, Text: text, Created: now}}, ch.Notifications...)
	}
	return ch, nil
}

// tournamentResult is the event's result of finished or aborted game g
// (Pending while g is being played).
func tournamentResult(g *bot.Game) tournament.Result {
	switch g.Status {
	case bot.GameFinished:
		switch g.Result {
		case bot.WhiteWins:
			return tournament.WhiteWins
		case bot.BlackWins:
			return tournament.BlackWins
		case bot.Draw:
			return tournament.Draw
		}
		return tournament.DoubleForfeit
	case bot.GameAborted:
		// Only on time (abort is refused in tournament games): the
		// player to act never moved: White when no move was played.
		if len(g.Moves) == 0 {
			return tournament.BlackWinsByForfeit
		}
		return tournament.WhiteWinsByForfeit
	}
	return tournament.Pending
}

// Sync records in tournament id the results of its games that
// are over, pairs the next round when the current one is over (Swiss) or
// finishes the event, and tells the channel. It is idempotent; the
// Service runs it whenever a tournament game ends.
//
// Its update touches no store: the tournament's games and its players'
// reminder settings are read first, and the update is made against the
// version they were read with (tried again, up to 3 times, when the
// tournament changed meanwhile).
func (s *Service) Sync(ctx context.Context, id uint64) (*bot.Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		t, err := s.syncTournament(ctx, store, id)
		if bot.ErrorCode(err) == bot.ECONFLICT && attempt < 3 {
			continue
		}
		return t, err
	}
}

// syncTournament is one try of Sync.
func (s *Service) syncTournament(ctx context.Context, store bot.TournamentStore, id uint64) (*bot.Tournament, error) {
	cur, err := store.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	games := make(map[uint64]*bot.Game, len(cur.Games))
	for _, tg := range cur.Games {
		g, err := s.core.Views().Game(ctx, tg.GameID)
		if err != nil {
			return nil, err
		}
		games[tg.GameID] = g
	}
	reminders := s.core.ReadReminders(ctx, cur.Event.Players...)
	t, err := store.UpdateTournament(ctx, id, cur.Version, func(t *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		if t.Event.Status != tournament.Running && t.Event.Status != tournament.Paused {
			return bot.TournamentChange{}, errUnchanged
		}
		recorded := 0
		for _, tg := range t.Games {
			if tg.Round < 1 || tg.Round > len(t.Event.Schedule) {
				return bot.TournamentChange{}, bot.Errorf(bot.EINTERNAL, "Tournament %d links game %d to round %d, which it does not have.", t.ID, tg.GameID, tg.Round)
			}
			pair := t.Event.Schedule[tg.Round-1]
			i := slices.IndexFunc(pair.Games, func(p tournament.Game) bool { return p.White == tg.White && p.Black == tg.Black })
			if i < 0 || pair.Games[i].Result != tournament.Pending {
				continue
			}
			g, ok := games[tg.GameID]
			if !ok {
				return bot.TournamentChange{}, bot.Errorf(bot.ECONFLICT, "Tournament %d changed while its games were read.", t.ID)
			}
			r := tournamentResult(g)
			if r == tournament.Pending {
				continue
			}
			if t.Event, err = t.Event.Record(tg.Round, tg.White, tg.Black, r); err != nil {
				return bot.TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
			}
			recorded++
		}
		e, changed, err := t.Event.Advance()
		if err != nil {
			return bot.TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
		}
		if recorded == 0 && !changed {
			return bot.TournamentChange{}, errUnchanged
		}
		t.Event, t.Updated = e, s.core.Now()
		if !changed {
			return bot.TournamentChange{}, nil
		}
		if e.Status == tournament.Finished {
			winners, err := e.Winners()
			if err != nil {
				return bot.TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
			}
			names := make([]string, len(winners))
			for i, w := range winners {
				names[i] = "<@" + w + ">"
			}
			text := fmt.Sprintf("Tournament #%d (%s) is over: %s won. The final standings and the PGN of every game are attached (and /tournament action:standings id:%d shows them).",
				t.ID, s.core.VariantName(t.Variant, t.Options), strings.Join(names, " and "), t.ID)
			return bot.TournamentChange{Notifications: []bot.Notification{{Kind: bot.NotifyTournament, GuildID: t.GuildID,
				ChannelID: t.ChannelID, TournamentID: t.ID, Text: text, Created: t.Updated}}}, nil
		}
		return s.pairGames(t, newID, reminders)
	})
	if errors.Is(err, errUnchanged) {
		return store.Tournament(ctx, id)
	}
	return t, err
}

// errUnchanged is what Sync's update returns when there is
// nothing to record, so that the store writes nothing.
var errUnchanged = errors.New("tournament unchanged")

// syncEnded runs Sync for g's tournament when g is a
// tournament game that is over; a failure is left to the next sync (the
// sweep, /tournament standings) and does not undo the game's change.
func (s *Service) syncEnded(ctx context.Context, g *bot.Game) {
	if g == nil || g.Tournament == 0 || g.Ongoing() || s.store == nil {
		return
	}
	_, _ = s.Sync(ctx, g.Tournament)
}

// startDue starts the open tournaments whose start time has come, as
// their organiser would, or cancels those with too few players, telling
// the channel; it returns how many it started or cancelled.
func (s *Service) startDue(ctx context.Context, now time.Time) (int, error) {
	if s.store == nil {
		return 0, nil
	}
	ts, err := s.store.TournamentsToStart(ctx, now)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, t := range ts {
		if len(t.Event.Players) < tournament.MinPlayers {
			_, err = s.store.UpdateTournament(ctx, t.ID, t.Version, func(t *bot.Tournament, _ func() (uint64, error)) (bot.TournamentChange, error) {
				e, err := t.Event.Cancel()
				if err != nil {
					return bot.TournamentChange{}, tournamentError(err)
				}
				t.Event, t.Updated = e, now
				text := fmt.Sprintf("Tournament #%d (%s) is cancelled: only %d joined by its start time, it needs at least %d players.",
					t.ID, s.core.VariantName(t.Variant, t.Options), len(t.Event.Players), tournament.MinPlayers)
				return bot.TournamentChange{Notifications: []bot.Notification{{Kind: bot.NotifyTournament, GuildID: t.GuildID,
					ChannelID: t.ChannelID, TournamentID: t.ID, Text: text, Created: now}}}, nil
			})
		} else {
			_, err = s.Start(ctx, t.ID, t.Organizer, t.GuildID)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tournament %d: start: %w", t.ID, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// sweeper is the tournaments' part of the game Service's sweep
// (bot.Sweeper).
type sweeper struct{ s *Service }

// Sweep starts the open tournaments whose start time has come (or
// cancels them), then runs Sync for every running tournament.
func (w sweeper) Sweep(ctx context.Context, now time.Time) error {
	var errs []error
	if _, err := w.s.startDue(ctx, now); err != nil {
		errs = append(errs, fmt.Errorf("tournaments to start: %w", err))
	}
	if err := w.s.syncRunning(ctx); err != nil {
		errs = append(errs, fmt.Errorf("tournaments: %w", err))
	}
	return errors.Join(errs...)
}

// NextWake returns the earliest start time of the open tournaments.
func (w sweeper) NextWake(ctx context.Context) (time.Time, error) {
	return w.s.store.EarliestTournamentStart(ctx)
}

// syncRunning runs Sync for every running tournament: the
// sweep's safety net for a result a crash kept from being recorded.
func (s *Service) syncRunning(ctx context.Context) error {
	if s.store == nil {
		return nil
	}
	ts, err := s.store.RunningTournaments(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if _, err := s.Sync(ctx, t.ID); err != nil {
			return err
		}
	}
	return nil
}

// PGN returns the PGN of every game of tournament id, in the
// order they were paired.
func (s *Service) PGN(ctx context.Context, id uint64) (string, error) {
	t, err := s.Get(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, tg := range t.Games {
		p, err := s.core.Views().PGN(ctx, tg.GameID)
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimSpace(p))
		b.WriteString("\n\n")
	}
	return b.String(), nil
}
