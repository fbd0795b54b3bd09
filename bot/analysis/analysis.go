// Package analysis runs the computer analysis of finished games for
// players (issue 28) on top of the game's life: it replays a game through
// gameplay.Service, analyses it with package ai/analysis off the
// interaction path, and stores the result with the game
// (bot.AnalysisStore), so an analysed game is shown again at once. At
// most one analysis runs per game, at most Config.AtOnce at a time (the
// others wait their turn), and a player may ask for at most
// Config.PerDay a day. A game still being played is refused: no help
// during play. It depends on bot and bot/gameplay and on no other
// feature package.
package analysis

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	analyser "github.com/fairypost/fairypost/ai/analysis"
	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/rules/notation"
)

// Config bounds the analyses. Zero fields take the defaults.
type Config struct {
	// Level is the analysis level (1..ai/analysis.MaxLevel; default
	// ai/analysis.DefaultLevel).
	Level int
	// Workers is how many positions one analysis searches at once
	// (default 1).
	Workers int
	// AtOnce is how many analyses run at the same time (default 1);
	// others wait for a free place.
	AtOnce int
	// PerDay is how many analyses one player may ask for in 24 hours
	// (default 5). Answers from storage do not count.
	PerDay int
}

// Defaults of Config's zero fields.
const (
	DefaultAtOnce = 1
	DefaultPerDay = 5
)

// Progress is told how many of an analysis's positions are searched.
type Progress func(done, total int)

// Done is told the stored analysis of a game once it is made, or why it
// failed.
type Done func(a *bot.GameAnalysis, err error)

// Service runs and keeps the analyses. Its methods are safe for
// concurrent use.
type Service struct {
	svc   *gameplay.Service
	store bot.AnalysisStore
	cfg   Config
	log   *slog.Logger
	slots chan struct{} // one per analysis running
	base  context.Context
	stop  context.CancelFunc

	mu      sync.Mutex
	running map[uint64]bool        // game IDs being analysed (or waiting)
	asked   map[string][]time.Time // per user: when they started analyses, the last 24 h
	wg      sync.WaitGroup
}

// New returns the analyses of svc's games, kept in store, bounded by cfg
// (EINVALID for a level out of range).
func New(svc *gameplay.Service, store bot.AnalysisStore, cfg Config, log *slog.Logger) (*Service, error) {
	if cfg.Level == 0 {
		cfg.Level = analyser.DefaultLevel
	}
	if cfg.Level < 1 || cfg.Level > analyser.MaxLevel {
		return nil, bot.Errorf(bot.EINVALID, "The analysis level %d is not 1 to %d.", cfg.Level, analyser.MaxLevel)
	}
	cfg.Workers = max(cfg.Workers, 1)
	if cfg.AtOnce <= 0 {
		cfg.AtOnce = DefaultAtOnce
	}
	if cfg.PerDay <= 0 {
		cfg.PerDay = DefaultPerDay
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	base, stop := context.WithCancel(context.Background())
	return &Service{svc: svc, store: store, cfg: cfg, log: log, slots: make(chan struct{}, cfg.AtOnce),
		base: base, stop: stop, running: map[uint64]bool{}, asked: map[string][]time.Time{}}, nil
}

// Close stops the analyses running (none is stored) and waits for them.
func (s *Service) Close() {
	s.stop()
	s.wg.Wait()
}

// Stored returns the stored analysis of game gameID, ENOTFOUND when
// there is none.
func (s *Service) Stored(ctx context.Context, gameID uint64) (*bot.GameAnalysis, error) {
	return s.store.Analysis(ctx, gameID)
}

// Request asks for the analysis of game gameID for userID. When the game
// was analysed it returns the stored analysis at once (and calls
// nothing). Otherwise it checks the request and starts the analysis in
// the background, returning (nil, nil): progress is then called as
// positions are searched and done once with the stored analysis or the
// error, both from the analysis's goroutine. Refused, with a reason a
// player understands: an unknown game (ENOTFOUND), a game still being
// played or without moves (EINVALID), a game being analysed already
// (ECONFLICT), a player who asked for Config.PerDay analyses in the last
// 24 hours (EFORBIDDEN).
func (s *Service) Request(ctx context.Context, gameID uint64, userID string, progress Progress, done Done) (*bot.GameAnalysis, error) {
	if a, err := s.store.Analysis(ctx, gameID); err == nil {
		return a, nil
	} else if bot.ErrorCode(err) != bot.ENOTFOUND {
		return nil, err
	}
	g, rg, err := s.svc.Views().Replay(ctx, gameID)
	if err != nil {
		return nil, err
	}
	if g.Ongoing() {
		return nil, bot.Errorf(bot.EINVALID, "Game %d is still being played: it can be analysed once it is over (no computer help during play).", gameID)
	}
	if len(rg.Moves()) == 0 {
		return nil, bot.Errorf(bot.EINVALID, "Game %d has no moves to analyse.", gameID)
	}
	now := s.svc.Now()
	s.mu.Lock()
	if s.running[gameID] {
		s.mu.Unlock()
		return nil, bot.Errorf(bot.ECONFLICT, "Game %d is being analysed already: the result will be posted when it is ready.", gameID)
	}
	recent := s.asked[userID][:0]
	for _, t := range s.asked[userID] {
		if now.Sub(t) < 24*time.Hour {
			recent = append(recent, t)
		}
	}
	if len(recent) >= s.cfg.PerDay {
		s.asked[userID] = recent
		s.mu.Unlock()
		return nil, bot.Errorf(bot.EFORBIDDEN, "You have asked for %d analyses in the last 24 hours, the most allowed: you may ask again after %s UTC.",
			len(recent), recent[0].Add(24*time.Hour).UTC().Format("15:04"))
	}
	s.asked[userID] = append(recent, now)
	s.running[gameID] = true
	s.wg.Add(1)
	s.mu.Unlock()
	go s.run(g, rg, userID, progress, done)
	return nil, nil
}

// run analyses game g (replayed as rg) when a place is free, stores the
// result and tells done.
func (s *Service) run(g *bot.Game, rg *rules.Game, userID string, progress Progress, done Done) {
	defer s.wg.Done()
	a, err := s.analyse(g, rg, userID, progress)
	s.mu.Lock()
	delete(s.running, g.ID)
	s.mu.Unlock()
	if err != nil {
		s.log.Warn("analysis failed", "game", g.ID, "err", err)
	}
	if done != nil {
		done(a, err)
	}
}

// analyse waits for a place, analyses and stores.
func (s *Service) analyse(g *bot.Game, rg *rules.Game, userID string, progress Progress) (*bot.GameAnalysis, error) {
	select {
	case s.slots <- struct{}{}:
	case <-s.base.Done():
		return nil, bot.Errorf(bot.EUNAVAILABLE, "The bot stopped before analysing game %d: ask again.", g.ID)
	}
	defer func() { <-s.slots }()
	opts := analyser.Options{Level: s.cfg.Level, Seed: g.ID, Workers: s.cfg.Workers}
	if progress != nil {
		opts.Progress = func(done, total int) { progress(done, total) }
	}
	an, err := analyser.Analyse(s.base, rg, opts)
	if err != nil {
		return nil, fmt.Errorf("analysis of game %d: %w", g.ID, err)
	}
	rec := Record(g, rg, an, opts.Seed)
	rec.RequestedBy, rec.Created = userID, s.svc.Now().UTC()
	if err := s.store.PutAnalysis(s.base, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// Record returns the stored form of analysis an of game g, replayed as
// rg, made with seed.
func Record(g *bot.Game, rg *rules.Game, an *analyser.Analysis, seed uint64) *bot.GameAnalysis {
	rec := &bot.GameAnalysis{GameID: g.ID, Variant: an.Variant, Level: an.Level, Seed: seed,
		WhiteAccuracy: an.White, BlackAccuracy: an.Black, WhiteOK: an.WhiteOK, BlackOK: an.BlackOK}
	for i, p := range an.Plies {
		pos := rg.PositionAt(i)
		ply := bot.AnalysedPly{Move: notation.SAN(&pos, p.Move), White: pos.ToAct() == rules.White,
			Eval: p.Eval.String(), WhiteWin: p.WhiteWin}
		if t := an.Turns[p.Turn]; t.To == i+1 {
			ply.Before = t.Before.String()
			if t.Judgement != analyser.Good {
				ply.Judgement = t.Judgement.String()
				ply.Best = strings.Join(notation.Line(rg.PositionAt(t.From), t.Best), " ")
			}
			before := t.Before.WhiteWin(an.Scale)
			after := p.WhiteWin
			if t.Player == rules.Black {
				before, after = 100-before, 100-after
			}
			ply.Loss = max(0, before-after)
		}
		rec.Plies = append(rec.Plies, ply)
	}
	return rec
}
