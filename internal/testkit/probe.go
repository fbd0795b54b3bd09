package testkit

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Probe wraps the stores of a Service (Stores) to see how they are used:
// it counts the calls of each method (Calls), and records as a violation
// any store call made while the function of an update runs (UpdateGame,
// AnnotateGame, UpdateChallenge, UpdatePreferences, UpdateNote,
// UpdateFollow): an update's function
// must touch no store. "While" is in time, not per goroutine: a store
// call from another goroutine during an update counts too, so tests that
// check Violations do nothing else at the same time. Methods added to the
// store interfaces after the Probe pass through uncounted. Safe for
// concurrent use.
type Probe struct {
	st gameplay.Stores

	mu         sync.Mutex
	calls      map[string]int
	updating   int // update functions running
	violations []string
}

// NewProbe returns a Probe over st.
func NewProbe(st gameplay.Stores) *Probe { return &Probe{st: st, calls: map[string]int{}} }

// Stores returns the wrapped stores, to give a Service: every store of
// the Stores the Probe was made with (ratings and tournaments only when
// it has them).
func (p *Probe) Stores() gameplay.Stores {
	st := gameplay.Stores{Games: probeGames{p.st.Games, p}, Challenges: probeChallenges{p.st.Challenges, p},
		Users: probeUsers{p.st.Users, p}, Outbox: probeOutbox{p.st.Outbox, p}}
	if p.st.Notes != nil {
		st.Notes = probeNotes{p.st.Notes, p}
	}
	if p.st.Follows != nil {
		st.Follows = probeFollows{p.st.Follows, p}
	}
	if p.st.Ratings != nil {
		st.Ratings = probeRatings{p.st.Ratings, p}
	}
	if p.st.Tournaments != nil {
		st.Tournaments = probeTournaments{p.st.Tournaments, p}
	}
	return st
}

// Calls returns how many times each method was called ("Game",
// "UpdateGame", ...) since the Probe was made or Reset.
func (p *Probe) Calls() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.calls)
}

// Reset sets the counts to zero and forgets the violations.
func (p *Probe) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls, p.violations = map[string]int{}, nil
}

// Violations returns the store calls made while an update's function ran,
// as "Preferences during an update", in order.
func (p *Probe) Violations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.violations...)
}

// call counts a call of method.
func (p *Probe) call(method string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[method]++
	if p.updating > 0 {
		p.violations = append(p.violations, fmt.Sprintf("%s during an update", method))
	}
}

// inUpdate marks the start of an update's function and returns what
// marks its end: defer p.inUpdate()().
func (p *Probe) inUpdate() func() {
	p.mu.Lock()
	p.updating++
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.updating--
		p.mu.Unlock()
	}
}

type probeGames struct {
	bot.GameStore
	p *Probe
}

func (g probeGames) Game(ctx context.Context, id uint64) (*bot.Game, error) {
	g.p.call("Game")
	return g.GameStore.Game(ctx, id)
}

func (g probeGames) GamesByUser(ctx context.Context, userID string) ([]*bot.Game, error) {
	g.p.call("GamesByUser")
	return g.GameStore.GamesByUser(ctx, userID)
}

func (g probeGames) GamesByChannel(ctx context.Context, channelID string) ([]*bot.Game, error) {
	g.p.call("GamesByChannel")
	return g.GameStore.GamesByChannel(ctx, channelID)
}

func (g probeGames) ActiveGamesByUser(ctx context.Context, userID string) ([]*bot.Game, error) {
	g.p.call("ActiveGamesByUser")
	return g.GameStore.ActiveGamesByUser(ctx, userID)
}

func (g probeGames) ActiveGamesByChannel(ctx context.Context, channelID string) ([]*bot.Game, error) {
	g.p.call("ActiveGamesByChannel")
	return g.GameStore.ActiveGamesByChannel(ctx, channelID)
}

func (g probeGames) GamesDue(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	g.p.call("GamesDue")
	return g.GameStore.GamesDue(ctx, t)
}

func (g probeGames) GamesToRemind(ctx context.Context, t time.Time) ([]*bot.Game, error) {
	g.p.call("GamesToRemind")
	return g.GameStore.GamesToRemind(ctx, t)
}

func (g probeGames) EarliestGameTimes(ctx context.Context) (time.Time, time.Time, error) {
	g.p.call("EarliestGameTimes")
	return g.GameStore.EarliestGameTimes(ctx)
}

func (g probeGames) UpdateGame(ctx context.Context, id, expected uint64, fn func(*bot.Game) ([]bot.Notification, error)) (*bot.Game, error) {
	g.p.call("UpdateGame")
	return g.GameStore.UpdateGame(ctx, id, expected, func(gm *bot.Game) ([]bot.Notification, error) {
		defer g.p.inUpdate()()
		return fn(gm)
	})
}

func (g probeGames) AnnotateGame(ctx context.Context, id uint64, fn func(bot.Game, *bot.Annotations) ([]bot.Notification, error)) (*bot.Game, error) {
	g.p.call("AnnotateGame")
	return g.GameStore.AnnotateGame(ctx, id, func(gm bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		defer g.p.inUpdate()()
		return fn(gm, a)
	})
}

type probeNotes struct {
	bot.NoteStore
	p *Probe
}

func (n probeNotes) Note(ctx context.Context, gameID uint64, userID string) (string, error) {
	n.p.call("Note")
	return n.NoteStore.Note(ctx, gameID, userID)
}

func (n probeNotes) Notes(ctx context.Context, gameID uint64) ([]bot.Note, error) {
	n.p.call("Notes")
	return n.NoteStore.Notes(ctx, gameID)
}

func (n probeNotes) UpdateNote(ctx context.Context, gameID uint64, userID string, fn func(string) (string, error)) (string, error) {
	n.p.call("UpdateNote")
	return n.NoteStore.UpdateNote(ctx, gameID, userID, func(text string) (string, error) {
		defer n.p.inUpdate()()
		return fn(text)
	})
}

type probeFollows struct {
	bot.FollowStore
	p *Probe
}

func (f probeFollows) Followers(ctx context.Context, gameID uint64) ([]string, error) {
	f.p.call("Followers")
	return f.FollowStore.Followers(ctx, gameID)
}

func (f probeFollows) UpdateFollow(ctx context.Context, gameID uint64, userID string, fn func(bool, int) (bool, error)) error {
	f.p.call("UpdateFollow")
	return f.FollowStore.UpdateFollow(ctx, gameID, userID, func(follows bool, n int) (bool, error) {
		defer f.p.inUpdate()()
		return fn(follows, n)
	})
}

type probeChallenges struct {
	bot.ChallengeStore
	p *Probe
}

func (c probeChallenges) CreateChallenge(ctx context.Context, ch *bot.Challenge, notes []bot.Notification) error {
	c.p.call("CreateChallenge")
	return c.ChallengeStore.CreateChallenge(ctx, ch, notes)
}

func (c probeChallenges) Challenge(ctx context.Context, id uint64) (*bot.Challenge, error) {
	c.p.call("Challenge")
	return c.ChallengeStore.Challenge(ctx, id)
}

func (c probeChallenges) ChallengesByUser(ctx context.Context, userID string) ([]*bot.Challenge, error) {
	c.p.call("ChallengesByUser")
	return c.ChallengeStore.ChallengesByUser(ctx, userID)
}

func (c probeChallenges) ChallengesByChannel(ctx context.Context, channelID string) ([]*bot.Challenge, error) {
	c.p.call("ChallengesByChannel")
	return c.ChallengeStore.ChallengesByChannel(ctx, channelID)
}

func (c probeChallenges) ChallengesExpiring(ctx context.Context, t time.Time) ([]*bot.Challenge, error) {
	c.p.call("ChallengesExpiring")
	return c.ChallengeStore.ChallengesExpiring(ctx, t)
}

func (c probeChallenges) EarliestExpiry(ctx context.Context) (time.Time, error) {
	c.p.call("EarliestExpiry")
	return c.ChallengeStore.EarliestExpiry(ctx)
}

func (c probeChallenges) UpdateChallenge(ctx context.Context, id, expected uint64, fn func(*bot.Challenge) (bot.ChallengeChange, error)) (*bot.Challenge, *bot.Game, error) {
	c.p.call("UpdateChallenge")
	return c.ChallengeStore.UpdateChallenge(ctx, id, expected, func(ch *bot.Challenge) (bot.ChallengeChange, error) {
		defer c.p.inUpdate()()
		return fn(ch)
	})
}

type probeUsers struct {
	bot.UserStore
	p *Probe
}

func (u probeUsers) Preferences(ctx context.Context, userID string) (*bot.Preferences, error) {
	u.p.call("Preferences")
	return u.UserStore.Preferences(ctx, userID)
}

func (u probeUsers) UpdatePreferences(ctx context.Context, userID string, fn func(*bot.Preferences) error) (*bot.Preferences, error) {
	u.p.call("UpdatePreferences")
	return u.UserStore.UpdatePreferences(ctx, userID, func(pr *bot.Preferences) error {
		defer u.p.inUpdate()()
		return fn(pr)
	})
}

type probeOutbox struct {
	bot.Outbox
	p *Probe
}

func (o probeOutbox) PendingNotifications(ctx context.Context, now time.Time, limit int) ([]bot.Notification, error) {
	o.p.call("PendingNotifications")
	return o.Outbox.PendingNotifications(ctx, now, limit)
}

func (o probeOutbox) RetryNotification(ctx context.Context, id uint64, notBefore time.Time) error {
	o.p.call("RetryNotification")
	return o.Outbox.RetryNotification(ctx, id, notBefore)
}

func (o probeOutbox) AckNotification(ctx context.Context, id uint64) error {
	o.p.call("AckNotification")
	return o.Outbox.AckNotification(ctx, id)
}

func (o probeOutbox) SetAsideNotification(ctx context.Context, id uint64, reason string) error {
	o.p.call("SetAsideNotification")
	return o.Outbox.SetAsideNotification(ctx, id, reason)
}

type probeRatings struct {
	bot.RatingStore
	p *Probe
}

func (r probeRatings) UpdateGameRated(ctx context.Context, id, expected uint64, fn func(*bot.Game, bot.RatingTx) ([]bot.Notification, error)) (*bot.Game, error) {
	r.p.call("UpdateGameRated")
	return r.RatingStore.UpdateGameRated(ctx, id, expected, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		defer r.p.inUpdate()()
		return fn(g, tx) // tx is the update's own: its reads are no violation
	})
}

func (r probeRatings) PoolStandings(ctx context.Context, pool string) ([]bot.Standing, error) {
	r.p.call("PoolStandings")
	return r.RatingStore.PoolStandings(ctx, pool)
}

func (r probeRatings) UserStandings(ctx context.Context, userID string) ([]bot.Standing, error) {
	r.p.call("UserStandings")
	return r.RatingStore.UserStandings(ctx, userID)
}

func (r probeRatings) RatingHistory(ctx context.Context, pool, userID string) ([]bot.RatingEvent, error) {
	r.p.call("RatingHistory")
	return r.RatingStore.RatingHistory(ctx, pool, userID)
}

type probeTournaments struct {
	bot.TournamentStore
	p *Probe
}

func (t probeTournaments) CreateTournament(ctx context.Context, tr *bot.Tournament, notes []bot.Notification) error {
	t.p.call("CreateTournament")
	return t.TournamentStore.CreateTournament(ctx, tr, notes)
}

func (t probeTournaments) Tournament(ctx context.Context, id uint64) (*bot.Tournament, error) {
	t.p.call("Tournament")
	return t.TournamentStore.Tournament(ctx, id)
}

func (t probeTournaments) TournamentsByChannel(ctx context.Context, channelID string) ([]*bot.Tournament, error) {
	t.p.call("TournamentsByChannel")
	return t.TournamentStore.TournamentsByChannel(ctx, channelID)
}

func (t probeTournaments) RunningTournaments(ctx context.Context) ([]*bot.Tournament, error) {
	t.p.call("RunningTournaments")
	return t.TournamentStore.RunningTournaments(ctx)
}

func (t probeTournaments) TournamentsToStart(ctx context.Context, at time.Time) ([]*bot.Tournament, error) {
	t.p.call("TournamentsToStart")
	return t.TournamentStore.TournamentsToStart(ctx, at)
}

func (t probeTournaments) EarliestTournamentStart(ctx context.Context) (time.Time, error) {
	t.p.call("EarliestTournamentStart")
	return t.TournamentStore.EarliestTournamentStart(ctx)
}

// UpdateTournament counts the call; fn may read other stores (the
// contract allows it), so its reads are no violation.
func (t probeTournaments) UpdateTournament(ctx context.Context, id, expected uint64, fn func(*bot.Tournament, func() (uint64, error)) (bot.TournamentChange, error)) (*bot.Tournament, error) {
	t.p.call("UpdateTournament")
	return t.TournamentStore.UpdateTournament(ctx, id, expected, fn)
}
