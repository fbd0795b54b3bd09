package gameplay

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/rules"
)

// ChallengeTTL is how long a challenge waits for an answer.
const ChallengeTTL = 7 * 24 * time.Hour

// Service is correspondence play: challenges and games, checked against
// the rules engine and kept in the stores. It is safe for concurrent use;
// all state is in the stores, but for a bounded cache of replayed games
// keyed by game ID and record version (ReplayCacheSize).
type Service struct {
	games      bot.GameStore
	challenges bot.ChallengeStore
	users      bot.UserStore
	outbox     bot.Outbox
	noteStore  bot.NoteStore   // nil: no notes (Notes refuses)
	follows    bot.FollowStore // nil: no followers (Follow refuses)
	rules      *rules.Registry
	now        func() time.Time
	coin       func() bool
	seed       func() uint64
	replays    *replayCache

	ratings  bot.RatingStore // nil: game updates have no standings at hand
	rating   rating.System   // the parameters of the ratings
	computer computer        // the computer player (computer.go)

	// The features' parts of every game update (round.go), in the order
	// they run.
	finishers []bot.Finisher
	events    []bot.GameEvent
	sweepers  []Sweeper // the features' parts of Sweep (sweep.go)
}

// Option configures a Service.
type Option func(*Service)

// Clock sets the function the Service reads the time from (default
// time.Now).
func Clock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// Coin sets the coin the Service tosses for a random colour: true gives
// the challenger white (default: math/rand/v2).
func Coin(coin func() bool) Option { return func(s *Service) { s.coin = coin } }

// Stores are the stores a Service keeps its records in; package storage's
// DB is all of them.
type Stores struct {
	Games      bot.GameStore
	Challenges bot.ChallengeStore
	Users      bot.UserStore
	Outbox     bot.Outbox
	// Notes and Follows keep the players' private notes and the
	// spectators following games; without them the Service refuses
	// notes and follows.
	Notes   bot.NoteStore
	Follows bot.FollowStore
	// Ratings, when set, keeps ratings: every game update is then a
	// RatingStore.UpdateGameRated, with the standings at hand for the
	// finishers (package bot/ratings rates games). Optional.
	Ratings bot.RatingStore
	// Tournaments, when set, keeps tournaments: the store of package
	// bot/tournaments (the Service itself does not use it). Optional.
	Tournaments bot.TournamentStore
}

// ReplayCacheSize sets how many replayed games the Service keeps in
// memory (default DefaultReplayCacheSize; 0 keeps none). Each is about a
// kilobyte per ply.
func ReplayCacheSize(n int) Option { return func(s *Service) { s.replays = newReplayCache(n) } }

// Seed sets where the Service draws the seeds of random starts from (a
// variant's pre-game, rules.PreGame); default: math/rand/v2.
func Seed(seed func() uint64) Option { return func(s *Service) { s.seed = seed } }

// NewService returns a Service over the stores, checking moves with reg.
func NewService(st Stores, reg *rules.Registry, opts ...Option) *Service {
	s := &Service{games: st.Games, challenges: st.Challenges, users: st.Users, outbox: st.Outbox,
		noteStore: st.Notes, follows: st.Follows,
		rules: reg, now: time.Now,
		coin: func() bool { return rand.IntN(2) == 0 }, seed: rand.Uint64,
		replays: newReplayCache(DefaultReplayCacheSize), ratings: st.Ratings, rating: rating.Lichess()}
	for _, o := range opts {
		o(s)
	}
	// What every game update does besides its own change (round.go):
	// in its transaction, the computer's posts, then the finishers the
	// features register (ratings.Register: the rating of a rated game
	// it ends); after the commit, the events they register (the
	// progress of the game's tournament, tournaments.New; the
	// computer's wake-up, computer.NewRunner).
	s.AddFinisher(s.computerTurnPosts)
	return s
}

// Rules returns the rules registry the Service checks moves with.
func (s *Service) Rules() *rules.Registry { return s.rules }

// Now returns the Service's current time.
func (s *Service) Now() time.Time { return s.now() }

// replay rebuilds the game g records: its variant with options, the start
// position and every stored move; from the replay cache when g's ID and
// version were replayed or played recently. The caller may play on the
// game it gets. A stored game that does not replay is corrupt: EINTERNAL.
func (s *Service) replay(g *bot.Game) (*rules.Game, error) {
	if rg := s.replays.get(g); rg != nil {
		return rg, nil
	}
	rg, err := s.replayAll(g)
	if err != nil {
		return nil, err
	}
	s.replays.put(g, rg)
	return rg, nil
}

// replayAll is replay without the cache.
func (s *Service) replayAll(g *bot.Game) (*rules.Game, error) {
	v, err := s.rules.Variant(g.Variant, g.Options)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	start := v.Start()
	if g.StartFEN != "" {
		if start, err = rules.ParseFEN(v, g.StartFEN); err != nil {
			return nil, fmt.Errorf("game %d: start: %w", g.ID, err)
		}
	}
	rg, err := rules.Replay(start, g.Moves)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	return rg, nil
}

// ReplayRecord rebuilds the rules game the record g describes (its
// variant with options, its start position and every stored move),
// without reading the store: for adapters that hold a record already. A
// record that does not replay is corrupt: an internal error.
func (sub Views) ReplayRecord(g *bot.Game) (*rules.Game, error) {
	s := sub.s
	return s.replay(g)
}

// userToAct returns the user ID of the player to act in p.
func userToAct(g *bot.Game, p *rules.Position) string {
	switch p.ToAct() {
	case rules.White:
		return g.White
	case rules.Black:
		return g.Black
	}
	return ""
}

// resultOf converts a rules result.
func resultOf(r rules.Result) bot.Result {
	switch r {
	case rules.WhiteWins:
		return bot.WhiteWins
	case rules.BlackWins:
		return bot.BlackWins
	case rules.Draw:
		return bot.Draw
	}
	return bot.NoResult
}

// moveError turns an error of notation.ParseMove or rules.Game.Play into
// a domain error: the rules' reason for the user, EINVALID.
func moveError(err error) error {
	if errors.Is(err, rules.ErrBadMove) || errors.Is(err, rules.ErrIllegalMove) {
		return bot.Errorf(bot.EINVALID, "%s", err.Error())
	}
	var e *bot.Error
	if errors.As(err, &e) {
		return e
	}
	return bot.Errorf(bot.EINVALID, "%s", err.Error())
}

// deadline returns when a player whose turn starts at now runs out of
// time in g, or the zero time when unlimited: the days per move, and in
// an active game what is left of the time bank of g.ToAct.
func deadline(g *bot.Game, now time.Time) time.Time {
	if g.DaysPerMove <= 0 {
		return time.Time{}
	}
	d := time.Duration(g.DaysPerMove) * 24 * time.Hour
	if g.Status == bot.GameActive {
		d += g.BankLeft(g.ToAct)
	}
	return now.Add(d)
}

// RatingSystem returns the parameters the Service rates games with:
// always rating.Lichess(), so that every adapter shows a stored rating
// change (ratings.Lines) as it was computed.
func (s *Service) RatingSystem() rating.System { return s.rating }
