package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/tournament"
)

// Correspondence tournaments (issue 17).
//
// A Tournament is made in a server's channel by its organiser
// (CreateTournament) with a variant and its options, days per move, the
// system (round-robin, or Swiss with a number of rounds) and whether its
// games are rated. Players join until the organiser starts it
// (StartTournament); the seed order is by rating in the event's pool
// (established ratings first, then by rating; newcomers in joining
// order). A round-robin creates every game of every round at once, as
// correspondence events play their rounds in parallel; a Swiss creates
// the games of round 1, and each next round when the games of the last
// one are all over. Games are created as an accepted challenge creates
// one (colours from the pairing, the clock of White started, White told
// it is their turn), in the same store transaction as the tournament's
// change, and are played as any game.
//
// When a tournament game ends, its result is recorded in the event
// (SyncTournament, run by the Service right after any update that ends
// such a game, by the sweep for running tournaments, and by
// TournamentStanding, so a crash between the two transactions only
// delays it). A game lost on time is a loss; a game aborted on time (the
// player to act never moved) is lost by forfeit by that player (White
// when no move was played, else Black); /abort is refused in tournament
// games. A player who leaves a running tournament forfeits their games
// without a result (their games being played are resigned for them) and
// is not paired again. When the last round is over the tournament is
// finished and the channel is told the winner; the standings and a PGN
// of every game are available with /tournament standings. Variants with a
// pre-game choice (rules.Variant.PreGame) are not offered in tournaments.
// The organiser's actions take the organiser's user ID; an adapter that
// knows a user manages the server may pass the organiser's ID for them.

// Tournament is a correspondence tournament: the record the stores keep.
type Tournament struct {
	ID      uint64 // from the same sequence as challenges and games
	Version uint64 // incremented by every write; 1 when created

	GuildID, ChannelID string
	Organizer          string // user ID

	Variant     string // rules registry key
	Options     string // canonical options
	DaysPerMove int
	Rated       bool
	// StartAt is when the tournament starts by itself (the sweep starts
	// it, or cancels it when fewer than tournament.MinPlayers joined);
	// zero when the organiser starts it. Stores index it while the
	// tournament is open.
	StartAt time.Time

	Event tournament.Event
	// Games lists the game playing each pairing of Event.Schedule.
	Games []TournamentGame

	Created, Updated time.Time
}

// TournamentGame links one pairing of a tournament to its game.
type TournamentGame struct {
	Round        int // from 1
	White, Black string
	GameID       uint64
}

// Clone returns a deep copy of t.
func (t *Tournament) Clone() *Tournament {
	c := *t
	c.Games = slices.Clone(t.Games)
	e := t.Event
	e.Players = slices.Clone(e.Players)
	e.Withdrawn = slices.Clone(e.Withdrawn)
	e.Schedule = make([]tournament.Round, len(t.Event.Schedule))
	for i, r := range t.Event.Schedule {
		e.Schedule[i] = tournament.Round{Games: slices.Clone(r.Games), Bye: r.Bye}
	}
	if t.Event.Schedule == nil {
		e.Schedule = nil
	}
	c.Event = e
	return &c
}

// TournamentChange is what a TournamentStore.UpdateTournament function
// asks for besides the edited tournament.
type TournamentChange struct {
	// Games are created in the same transaction, each with the ID fn
	// got from its newID function and Version 1.
	Games []*Game
	// Notifications are appended to the outbox.
	Notifications []Notification
}

// TournamentStore keeps tournaments. Implementations are safe for
// concurrent use. It is optional (Stores.Tournaments): without one the
// tournament methods answer EINVALID.
type TournamentStore interface {
	// CreateTournament assigns t a new ID from the sequence of challenge
	// and game IDs, sets Version to 1, stores it and appends notes to the
	// outbox, atomically.
	CreateTournament(ctx context.Context, t *Tournament, notes []Notification) error

	// Tournament returns tournament id, or an ENOTFOUND error.
	Tournament(ctx context.Context, id uint64) (*Tournament, error)

	// TournamentsByChannel returns the tournaments made in channelID,
	// ordered by ID.
	TournamentsByChannel(ctx context.Context, channelID string) ([]*Tournament, error)

	// RunningTournaments returns the tournaments whose event is running
	// or paused, ordered by ID, at a cost independent of finished ones.
	RunningTournaments(ctx context.Context) ([]*Tournament, error)

	// TournamentsToStart returns the open tournaments whose StartAt is
	// set and not after t, earliest first.
	TournamentsToStart(ctx context.Context, t time.Time) ([]*Tournament, error)

	// EarliestTournamentStart returns the earliest StartAt of the open
	// tournaments, the zero time when none has one, reading only where
	// the index starts.
	EarliestTournamentStart(ctx context.Context) (time.Time, error)

	// UpdateTournament changes tournament id in one transaction, as
	// ChallengeStore.UpdateChallenge does: ENOTFOUND; ECONFLICT when
	// expected is not AnyVersion and differs; fn's error returned as it is
	// with nothing changed. fn gets a copy to edit and newID, which
	// returns a fresh ID from the sequence of challenge and game IDs for
	// each game it creates. The copy is stored with Version incremented,
	// the games of the change created (none may exist yet) with their
	// indexes, and the notifications appended, all atomically. fn may run
	// more than once and may read other stores.
	UpdateTournament(ctx context.Context, id, expected uint64, fn func(t *Tournament, newID func() (uint64, error)) (TournamentChange, error)) (*Tournament, error)
}

// TournamentRequest is what an organiser asks for.
type TournamentRequest struct {
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

// tournaments refuses when the Service keeps no tournaments.
func (s *Service) tournamentStore() (TournamentStore, error) {
	if s.tournaments == nil {
		return nil, Errorf(EINVALID, "This bot runs no tournaments.")
	}
	return s.tournaments, nil
}

// tournamentError turns an error of package tournament into a domain
// error for the user.
func tournamentError(err error) error {
	if errors.Is(err, tournament.ErrInvalid) || errors.Is(err, tournament.ErrNoPairing) {
		msg := strings.TrimPrefix(err.Error(), "tournament: invalid input: ")
		if msg == "" {
			return Errorf(EINVALID, "The tournament cannot do that now.")
		}
		return Errorf(EINVALID, "%s", strings.ToUpper(msg[:1])+msg[1:]+".")
	}
	return err
}

// CreateTournament makes an open tournament in a server's channel; the
// organiser joins it. EINVALID for a missing organiser or server, an
// unknown variant or option, a variant with a pre-game choice, days per
// move not allowed, an unknown system or a Swiss without rounds (or a
// round-robin with some).
func (s *Service) CreateTournament(ctx context.Context, req TournamentRequest) (*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	if req.Organizer == "" || req.ChannelID == "" {
		return nil, Errorf(EINVALID, "A tournament is made by someone in a channel.")
	}
	if !ValidDaysPerMove(req.DaysPerMove) {
		return nil, Errorf(EINVALID, "Days per move must be 1, 2, 3, 5, 7, 14 or unlimited, not %d.", req.DaysPerMove)
	}
	v, err := s.rules.Variant(req.Variant, req.Options)
	if err != nil {
		return nil, Errorf(EINVALID, "%s", err.Error())
	}
	if v.PreGame != nil {
		return nil, Errorf(EINVALID, "%s starts with a pre-game choice of armies, which tournaments do not offer: choose another variant.", v.Name)
	}
	opts, err := rules.ParseOptions(v.Options, req.Options)
	if err != nil {
		return nil, Errorf(EINVALID, "%s", err.Error())
	}
	e, err := tournament.NewEvent(req.Kind, req.Rounds)
	if err != nil {
		return nil, tournamentError(err)
	}
	if e, err = e.Join(req.Organizer); err != nil {
		return nil, tournamentError(err)
	}
	now := s.now()
	if !req.StartAt.IsZero() && (!req.StartAt.After(now) || req.StartAt.After(now.Add(MaxStartDelay))) {
		return nil, Errorf(EINVALID, "The start time must be in the future and at most %d days ahead.", int(MaxStartDelay.Hours()/24))
	}
	t := &Tournament{GuildID: req.GuildID, ChannelID: req.ChannelID, Organizer: req.Organizer,
		Variant: req.Variant, Options: rules.FormatOptions(v.Options, opts), DaysPerMove: req.DaysPerMove, Rated: req.Rated,
		StartAt: req.StartAt, Event: e, Created: now, Updated: now}
	if err := store.CreateTournament(ctx, t, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// Tournament returns tournament id.
func (s *Service) Tournament(ctx context.Context, id uint64) (*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.Tournament(ctx, id)
}

// ChannelTournaments returns the tournaments made in channelID.
func (s *Service) ChannelTournaments(ctx context.Context, channelID string) ([]*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.TournamentsByChannel(ctx, channelID)
}

// inServer refuses, as if there were no such tournament, a request from
// another server.
func (t *Tournament) inServer(guild string) error {
	if t.GuildID != guild {
		return Errorf(ENOTFOUND, "There is no tournament %d.", t.ID)
	}
	return nil
}

// JoinTournament adds userID to open tournament id, from its server.
func (s *Service) JoinTournament(ctx context.Context, id uint64, userID, guild string) (*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.UpdateTournament(ctx, id, AnyVersion, func(t *Tournament, _ func() (uint64, error)) (TournamentChange, error) {
		if err := t.inServer(guild); err != nil {
			return TournamentChange{}, err
		}
		e, err := t.Event.Join(userID)
		if err != nil {
			return TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.now()
		return TournamentChange{}, nil
	})
}

// LeaveTournament takes userID out of tournament id: before the start
// they are simply no longer in it; after, they forfeit every game of
// theirs without a result (the games being played are resigned for
// them) and are not paired again.
func (s *Service) LeaveTournament(ctx context.Context, id uint64, userID, guild string) (*Tournament, error) {
	return s.RemoveFromTournament(ctx, id, userID, userID, guild)
}

// RemoveFromTournament takes player out of tournament id on behalf of
// actor, who must be the player (LeaveTournament) or the organiser
// (EFORBIDDEN otherwise), with the same effect as the player leaving.
func (s *Service) RemoveFromTournament(ctx context.Context, id uint64, actor, player, guild string) (*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	userID := player
	t, err := store.UpdateTournament(ctx, id, AnyVersion, func(t *Tournament, _ func() (uint64, error)) (TournamentChange, error) {
		if err := t.inServer(guild); err != nil {
			return TournamentChange{}, err
		}
		if actor != player && actor != t.Organizer {
			return TournamentChange{}, Errorf(EFORBIDDEN, "Only the organiser, <@%s>, can remove a player from tournament %d.", t.Organizer, t.ID)
		}
		e, err := t.Event.Leave(userID)
		if err != nil {
			return TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.now()
		return TournamentChange{}, nil
	})
	if err != nil {
		return nil, err
	}
	// Games still being played end by resignation; their results are
	// already forfeits in the event, which SyncTournament leaves as they
	// are.
	for _, tg := range t.Games {
		if tg.White != userID && tg.Black != userID {
			continue
		}
		g, err := s.games.Game(ctx, tg.GameID)
		if err != nil {
			return nil, err
		}
		if g.Ongoing() {
			if _, err := s.Resign(ctx, g.ID, AnyVersion, userID); err != nil && ErrorCode(err) != EINVALID {
				return nil, err
			}
		}
	}
	return s.SyncTournament(ctx, id)
}

// CancelTournament stops tournament id for good; only its organiser may
// (EFORBIDDEN). Games being played go on but count for nothing.
func (s *Service) CancelTournament(ctx context.Context, id uint64, userID, guild string) (*Tournament, error) {
	return s.organise(ctx, id, userID, guild, "cancel", tournament.Event.Cancel)
}

// PauseTournament pauses running tournament id; only its organiser may
// (EFORBIDDEN). Games go on and their results are recorded, but no new
// round is paired (Swiss) and the event does not finish until it
// resumes.
func (s *Service) PauseTournament(ctx context.Context, id uint64, userID, guild string) (*Tournament, error) {
	return s.organise(ctx, id, userID, guild, "pause", tournament.Event.Pause)
}

// ResumeTournament resumes paused tournament id (organiser only) and
// pairs or finishes what waited meanwhile.
func (s *Service) ResumeTournament(ctx context.Context, id uint64, userID, guild string) (*Tournament, error) {
	if _, err := s.organise(ctx, id, userID, guild, "resume", tournament.Event.Resume); err != nil {
		return nil, err
	}
	return s.SyncTournament(ctx, id)
}

// organise applies change to tournament id's event on behalf of userID,
// who must be the organiser (EFORBIDDEN); what names the change for the
// refusal.
func (s *Service) organise(ctx context.Context, id uint64, userID, guild, what string, change func(tournament.Event) (tournament.Event, error)) (*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	return store.UpdateTournament(ctx, id, AnyVersion, func(t *Tournament, _ func() (uint64, error)) (TournamentChange, error) {
		if err := t.inServer(guild); err != nil {
			return TournamentChange{}, err
		}
		if userID != t.Organizer {
			return TournamentChange{}, Errorf(EFORBIDDEN, "Only the organiser, <@%s>, can %s tournament %d.", t.Organizer, what, t.ID)
		}
		e, err := change(t.Event)
		if err != nil {
			return TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.now()
		return TournamentChange{}, nil
	})
}

// seeds orders t's players by their rating in t's pool (the guild's):
// established ratings first, highest first, then the others in joining
// order.
func (s *Service) seeds(ctx context.Context, t *Tournament) ([]string, error) {
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
	now := s.now()
	live := map[string]rating.Glicko{}
	for _, st := range sts {
		if g, err := s.rating.Live(st.Player, now); err == nil && !s.rating.Provisional(g) {
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

// StartTournament starts open tournament id; only its organiser may
// (EFORBIDDEN). The games of the first round (every round of a
// round-robin) are created at once.
func (s *Service) StartTournament(ctx context.Context, id uint64, userID, guild string) (*Tournament, error) {
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
	reminders := s.readReminders(ctx, t.Event.Players...)
	return store.UpdateTournament(ctx, id, t.Version, func(t *Tournament, newID func() (uint64, error)) (TournamentChange, error) {
		if err := t.inServer(guild); err != nil {
			return TournamentChange{}, err
		}
		if userID != t.Organizer {
			return TournamentChange{}, Errorf(EFORBIDDEN, "Only the organiser, <@%s>, can start tournament %d.", t.Organizer, t.ID)
		}
		e, err := t.Event.Start(seeds)
		if err != nil {
			return TournamentChange{}, tournamentError(err)
		}
		t.Event, t.Updated = e, s.now()
		return s.pairGames(t, newID, reminders)
	})
}

// pairGames creates the games of every pairing of t's schedule that has
// none yet, and the notes that tell the channel and the players; r holds
// the players' reminder settings, read before the update.
func (s *Service) pairGames(t *Tournament, newID func() (uint64, error), reminders reminderSettings) (TournamentChange, error) {
	v, err := s.rules.Variant(t.Variant, t.Options)
	if err != nil {
		return TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	have := map[TournamentGame]bool{}
	for _, tg := range t.Games {
		have[TournamentGame{Round: tg.Round, White: tg.White, Black: tg.Black}] = true
	}
	now := s.now()
	var ch TournamentChange
	var lines []string
	for r, round := range t.Event.Schedule {
		paired := false
		for _, pair := range round.Games {
			key := TournamentGame{Round: r + 1, White: pair.White, Black: pair.Black}
			if have[key] || pair.Result != tournament.Pending {
				continue
			}
			id, err := newID()
			if err != nil {
				return TournamentChange{}, err
			}
			start := v.Start()
			g := &Game{ID: id, Variant: t.Variant, Options: t.Options, GuildID: t.GuildID, ChannelID: t.ChannelID,
				DaysPerMove: t.DaysPerMove, Rated: t.Rated, Tournament: t.ID, White: pair.White, Black: pair.Black,
				StartFEN: start.FEN(), Status: GameActive, Created: now, Updated: now}
			_, notes := s.settle(g, rules.NewGame(start), "", now, reminders)
			key.GameID = id
			t.Games = append(t.Games, key)
			ch.Games = append(ch.Games, g)
			ch.Notifications = append(ch.Notifications, notes...)
			lines = append(lines, fmt.Sprintf("round %d: <@%s> (White) vs <@%s>, game #%d", r+1, pair.White, pair.Black, id))
			paired = true
		}
		if paired && round.Bye != "" {
			lines = append(lines, fmt.Sprintf("round %d: <@%s> has the bye", r+1, round.Bye))
		}
	}
	if len(lines) > 0 {
		text := fmt.Sprintf("Tournament #%d (%s) — new games:\n%s", t.ID, s.VariantName(t.Variant, t.Options), strings.Join(lines, "\n"))
		ch.Notifications = append([]Notification{{Kind: NotifyTournament, GuildID: t.GuildID, ChannelID: t.ChannelID,
			TournamentID: t.ID, Text: text, Created: now}}, ch.Notifications...)
	}
	return ch, nil
}

// tournamentResult is the event's result of finished or aborted game g
// (Pending while g is being played).
func tournamentResult(g *Game) tournament.Result {
	switch g.Status {
	case GameFinished:
		switch g.Result {
		case WhiteWins:
			return tournament.WhiteWins
		case BlackWins:
			return tournament.BlackWins
		case Draw:
			return tournament.Draw
		}
		return tournament.DoubleForfeit
	case GameAborted:
		// Only on time (abort is refused in tournament games): the
		// player to act never moved: White when no move was played.
		if len(g.Moves) == 0 {
			return tournament.BlackWinsByForfeit
		}
		return tournament.WhiteWinsByForfeit
	}
	return tournament.Pending
}

// SyncTournament records in tournament id the results of its games that
// are over, pairs the next round when the current one is over (Swiss) or
// finishes the event, and tells the channel. It is idempotent; the
// Service runs it whenever a tournament game ends.
//
// Its update touches no store: the tournament's games and its players'
// reminder settings are read first, and the update is made against the
// version they were read with (tried again, up to 3 times, when the
// tournament changed meanwhile).
func (s *Service) SyncTournament(ctx context.Context, id uint64) (*Tournament, error) {
	store, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		t, err := s.syncTournament(ctx, store, id)
		if ErrorCode(err) == ECONFLICT && attempt < 3 {
			continue
		}
		return t, err
	}
}

// syncTournament is one try of SyncTournament.
func (s *Service) syncTournament(ctx context.Context, store TournamentStore, id uint64) (*Tournament, error) {
	cur, err := store.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	games := make(map[uint64]*Game, len(cur.Games))
	for _, tg := range cur.Games {
		g, err := s.games.Game(ctx, tg.GameID)
		if err != nil {
			return nil, err
		}
		games[tg.GameID] = g
	}
	reminders := s.readReminders(ctx, cur.Event.Players...)
	t, err := store.UpdateTournament(ctx, id, cur.Version, func(t *Tournament, newID func() (uint64, error)) (TournamentChange, error) {
		if t.Event.Status != tournament.Running && t.Event.Status != tournament.Paused {
			return TournamentChange{}, errUnchanged
		}
		recorded := 0
		for _, tg := range t.Games {
			if tg.Round < 1 || tg.Round > len(t.Event.Schedule) {
				return TournamentChange{}, Errorf(EINTERNAL, "Tournament %d links game %d to round %d, which it does not have.", t.ID, tg.GameID, tg.Round)
			}
			pair := t.Event.Schedule[tg.Round-1]
			i := slices.IndexFunc(pair.Games, func(p tournament.Game) bool { return p.White == tg.White && p.Black == tg.Black })
			if i < 0 || pair.Games[i].Result != tournament.Pending {
				continue
			}
			g, ok := games[tg.GameID]
			if !ok {
				return TournamentChange{}, Errorf(ECONFLICT, "Tournament %d changed while its games were read.", t.ID)
			}
			r := tournamentResult(g)
			if r == tournament.Pending {
				continue
			}
			if t.Event, err = t.Event.Record(tg.Round, tg.White, tg.Black, r); err != nil {
				return TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
			}
			recorded++
		}
		e, changed, err := t.Event.Advance()
		if err != nil {
			return TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
		}
		if recorded == 0 && !changed {
			return TournamentChange{}, errUnchanged
		}
		t.Event, t.Updated = e, s.now()
		if !changed {
			return TournamentChange{}, nil
		}
		if e.Status == tournament.Finished {
			winners, err := e.Winners()
			if err != nil {
				return TournamentChange{}, fmt.Errorf("tournament %d: %w", t.ID, err)
			}
			names := make([]string, len(winners))
			for i, w := range winners {
				names[i] = "<@" + w + ">"
			}
			text := fmt.Sprintf("Tournament #%d (%s) is over: %s won. The final standings and the PGN of every game are attached (and /tournament action:standings id:%d shows them).",
				t.ID, s.VariantName(t.Variant, t.Options), strings.Join(names, " and "), t.ID)
			return TournamentChange{Notifications: []Notification{{Kind: NotifyTournament, GuildID: t.GuildID,
				ChannelID: t.ChannelID, TournamentID: t.ID, Text: text, Created: t.Updated}}}, nil
		}
		return s.pairGames(t, newID, reminders)
	})
	if errors.Is(err, errUnchanged) {
		return store.Tournament(ctx, id)
	}
	return t, err
}

// errUnchanged is what SyncTournament's update returns when there is
// nothing to record, so that the store writes nothing.
var errUnchanged = errors.New("tournament unchanged")

// syncEnded runs SyncTournament for g's tournament when g is a
// tournament game that is over; a failure is left to the next sync (the
// sweep, /tournament standings) and does not undo the game's change.
func (s *Service) syncEnded(ctx context.Context, g *Game) {
	if g == nil || g.Tournament == 0 || g.Ongoing() || s.tournaments == nil {
		return
	}
	_, _ = s.SyncTournament(ctx, g.Tournament)
}

// startDue starts the open tournaments whose start time has come, as
// their organiser would, or cancels those with too few players, telling
// the channel; it returns how many it started or cancelled.
func (s *Service) startDue(ctx context.Context, now time.Time) (int, error) {
	if s.tournaments == nil {
		return 0, nil
	}
	ts, err := s.tournaments.TournamentsToStart(ctx, now)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, t := range ts {
		if len(t.Event.Players) < tournament.MinPlayers {
			_, err = s.tournaments.UpdateTournament(ctx, t.ID, t.Version, func(t *Tournament, _ func() (uint64, error)) (TournamentChange, error) {
				e, err := t.Event.Cancel()
				if err != nil {
					return TournamentChange{}, tournamentError(err)
				}
				t.Event, t.Updated = e, now
				text := fmt.Sprintf("Tournament #%d (%s) is cancelled: only %d joined by its start time, it needs at least %d players.",
					t.ID, s.VariantName(t.Variant, t.Options), len(t.Event.Players), tournament.MinPlayers)
				return TournamentChange{Notifications: []Notification{{Kind: NotifyTournament, GuildID: t.GuildID,
					ChannelID: t.ChannelID, TournamentID: t.ID, Text: text, Created: now}}}, nil
			})
		} else {
			_, err = s.StartTournament(ctx, t.ID, t.Organizer, t.GuildID)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tournament %d: start: %w", t.ID, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// syncRunning runs SyncTournament for every running tournament: the
// sweep's safety net for a result a crash kept from being recorded.
func (s *Service) syncRunning(ctx context.Context) error {
	if s.tournaments == nil {
		return nil
	}
	ts, err := s.tournaments.RunningTournaments(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if _, err := s.SyncTournament(ctx, t.ID); err != nil {
			return err
		}
	}
	return nil
}

// TournamentPGN returns the PGN of every game of tournament id, in the
// order they were paired.
func (s *Service) TournamentPGN(ctx context.Context, id uint64) (string, error) {
	t, err := s.Tournament(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, tg := range t.Games {
		p, err := s.PGN(ctx, tg.GameID)
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimSpace(p))
		b.WriteString("\n\n")
	}
	return b.String(), nil
}
