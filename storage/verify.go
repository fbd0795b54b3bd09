package storage

import (
	"context"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Verify checks that st holds exactly the records of d, through the
// stores' own methods: every game, challenge and preference record equal;
// for every user and channel of d, each listing (games, ongoing games,
// challenges) with the IDs d implies, in ID order; the deadline,
// reminder and expiry listings and their earliest times; the standings
// and rating histories (verifyRatings) and the tournaments with their
// listings (verifyTournaments); the notes and followers of every game
// (verifyNotesAndFollows); the secrets (verifySecrets); the analyses (verifyAnalyses); and the outbox
// with d's notifications in d's order (IDs may differ). It returns the
// first difference found. "fairypost migrate" runs it after a copy.
func Verify(ctx context.Context, d *Dump, st gameplay.Stores) error {
	users, channels := map[string]bool{}, map[string]bool{}
	note := func(m map[string]bool, keys ...string) {
		for _, k := range keys {
			if k != "" {
				m[k] = true
			}
		}
	}
	for _, g := range d.Games {
		note(users, g.White, g.Black)
		note(channels, g.ChannelID)
	}
	for _, c := range d.Challenges {
		note(users, c.Challenger, c.Challenged)
		note(channels, c.ChannelID)
	}
	if err := sameRecords(d.Games, func(g *bot.Game) string { return fmt.Sprintf("game %d", g.ID) },
		func(g *bot.Game) (*bot.Game, error) { return st.Games.Game(ctx, g.ID) }); err != nil {
		return err
	}
	if err := sameRecords(d.Challenges, func(c *bot.Challenge) string { return fmt.Sprintf("challenge %d", c.ID) },
		func(c *bot.Challenge) (*bot.Challenge, error) { return st.Challenges.Challenge(ctx, c.ID) }); err != nil {
		return err
	}
	if err := sameRecords(d.Preferences, func(p *bot.Preferences) string { return "the record of the preferences of " + p.UserID },
		func(p *bot.Preferences) (*bot.Preferences, error) { return st.Users.Preferences(ctx, p.UserID) }); err != nil {
		return err
	}
	gameIDs := func(keep func(*bot.Game) bool) []uint64 {
		var ids []uint64
		for _, g := range d.Games {
			if keep(g) {
				ids = append(ids, g.ID)
			}
		}
		slices.Sort(ids)
		return ids
	}
	challengeIDs := func(keep func(*bot.Challenge) bool) []uint64 {
		var ids []uint64
		for _, c := range d.Challenges {
			if keep(c) {
				ids = append(ids, c.ID)
			}
		}
		slices.Sort(ids)
		return ids
	}
	checkGames := func(what string, list func(context.Context, string) ([]*bot.Game, error), key string, want []uint64) error {
		gs, err := list(ctx, key)
		if err != nil {
			return fmt.Errorf("%s(%s): %w", what, key, err)
		}
		if got := idsOfGames(gs); !slices.Equal(got, want) {
			return fmt.Errorf("%s(%s) = %v, want %v", what, key, got, want)
		}
		return nil
	}
	userList, channelList := slices.Sorted(maps.Keys(users)), slices.Sorted(maps.Keys(channels))
	if err := each(len(userList), func(i int) error {
		u := userList[i]
		checks := []error{
			checkGames("GamesByUser", st.Games.GamesByUser, u, gameIDs(func(g *bot.Game) bool { return g.IsPlayer(u) })),
			checkGames("ActiveGamesByUser", st.Games.ActiveGamesByUser, u, gameIDs(func(g *bot.Game) bool { return g.IsPlayer(u) && g.Ongoing() })),
		}
		cs, err := st.Challenges.ChallengesByUser(ctx, u)
		want := challengeIDs(func(c *bot.Challenge) bool { return c.Challenger == u || c.Challenged == u })
		if err == nil && !slices.Equal(idsOfChallenges(cs), want) {
			err = fmt.Errorf("ChallengesByUser(%s) = %v, want %v", u, idsOfChallenges(cs), want)
		}
		return firstError(append(checks, err)...)
	}); err != nil {
		return err
	}
	if err := each(len(channelList), func(i int) error {
		ch := channelList[i]
		checks := []error{
			checkGames("GamesByChannel", st.Games.GamesByChannel, ch, gameIDs(func(g *bot.Game) bool { return g.ChannelID == ch })),
			checkGames("ActiveGamesByChannel", st.Games.ActiveGamesByChannel, ch, gameIDs(func(g *bot.Game) bool { return g.ChannelID == ch && g.Ongoing() })),
		}
		cs, err := st.Challenges.ChallengesByChannel(ctx, ch)
		want := challengeIDs(func(c *bot.Challenge) bool { return c.ChannelID == ch })
		if err == nil && !slices.Equal(idsOfChallenges(cs), want) {
			err = fmt.Errorf("ChallengesByChannel(%s) = %v, want %v", ch, idsOfChallenges(cs), want)
		}
		return firstError(append(checks, err)...)
	}); err != nil {
		return err
	}
	if err := verifyTimes(ctx, d, st); err != nil {
		return err
	}
	if err := verifyRatings(ctx, d, st); err != nil {
		return err
	}
	if err := verifyTournaments(ctx, d, st); err != nil {
		return err
	}
	if err := verifyNotesAndFollows(ctx, d, st); err != nil {
		return err
	}
	if err := verifyVariants(ctx, d, st); err != nil {
		return err
	}
	if err := verifySecrets(ctx, d, st); err != nil {
		return err
	}
	if err := verifyAnalyses(ctx, d, st); err != nil {
		return err
	}
	return verifyOutbox(ctx, d, st.Outbox)
}

// verifyTimes checks the deadline, reminder and expiry listings (all of
// them, up to the end of time) and their earliest times.
func verifyTimes(ctx context.Context, d *Dump, st gameplay.Stores) error {
	end := time.Unix(0, math.MaxInt64)
	byTime := func(at func(*bot.Game) time.Time) []uint64 {
		var gs []*bot.Game
		for _, g := range d.Games {
			if !at(g).IsZero() {
				gs = append(gs, g)
			}
		}
		slices.SortStableFunc(gs, func(a, b *bot.Game) int {
			if c := compareKeys(at(a), at(b)); c != 0 {
				return c
			}
			return cmpID(a.ID, b.ID)
		})
		return idsOfGames(gs)
	}
	deadline := func(g *bot.Game) time.Time { return g.Deadline }
	remind := func(g *bot.Game) time.Time { return g.RemindAt }
	for _, c := range []struct {
		what string
		list func(context.Context, time.Time) ([]*bot.Game, error)
		want []uint64
	}{{"GamesDue", st.Games.GamesDue, byTime(deadline)}, {"GamesToRemind", st.Games.GamesToRemind, byTime(remind)}} {
		gs, err := c.list(ctx, end)
		if err != nil {
			return fmt.Errorf("%s: %w", c.what, err)
		}
		if got := idsOfGames(gs); !slices.Equal(got, c.want) {
			return fmt.Errorf("%s = %v, want %v", c.what, got, c.want)
		}
	}
	ed, er, err := st.Games.EarliestGameTimes(ctx)
	if err != nil {
		return fmt.Errorf("EarliestGameTimes: %w", err)
	}
	if err := sameEarliest("deadline", ed, d.Games, deadline); err != nil {
		return err
	}
	if err := sameEarliest("reminder", er, d.Games, remind); err != nil {
		return err
	}
	var pending []*bot.Challenge
	for _, c := range d.Challenges {
		if c.Status == bot.ChallengePending {
			pending = append(pending, c)
		}
	}
	slices.SortStableFunc(pending, func(a, b *bot.Challenge) int {
		if c := compareKeys(a.Expires, b.Expires); c != 0 {
			return c
		}
		return cmpID(a.ID, b.ID)
	})
	cs, err := st.Challenges.ChallengesExpiring(ctx, end)
	if err != nil {
		return fmt.Errorf("ChallengesExpiring: %w", err)
	}
	if got, want := idsOfChallenges(cs), idsOfChallenges(pending); !slices.Equal(got, want) {
		return fmt.Errorf("ChallengesExpiring = %v, want %v", got, want)
	}
	ee, err := st.Challenges.EarliestExpiry(ctx)
	if err != nil {
		return fmt.Errorf("EarliestExpiry: %w", err)
	}
	if len(pending) == 0 && !ee.IsZero() || len(pending) > 0 && compareKeys(ee, pending[0].Expires) != 0 {
		return fmt.Errorf("EarliestExpiry = %v, want that of %d challenges pending", ee, len(pending))
	}
	return nil
}

// sameEarliest checks that got is the earliest time at gives a game of
// gs (as the index keys it), or zero when none has one.
func sameEarliest(what string, got time.Time, gs []*bot.Game, at func(*bot.Game) time.Time) error {
	var want time.Time
	for _, g := range gs {
		if t := at(g); !t.IsZero() && (want.IsZero() || compareKeys(t, want) < 0) {
			want = t
		}
	}
	if got.IsZero() != want.IsZero() || !want.IsZero() && compareKeys(got, want) != 0 {
		return fmt.Errorf("earliest %s %v, want %v", what, got, want)
	}
	return nil
}

// verifyNotesAndFollows checks, for every game of d and every game a
// note or follow of d names, that st lists the notes and followers d
// holds for it, in user order.
func verifyNotesAndFollows(ctx context.Context, d *Dump, st gameplay.Stores) error {
	notes, follows := map[uint64][]bot.Note{}, map[uint64][]string{}
	games := map[uint64]bool{}
	for _, g := range d.Games {
		games[g.ID] = true
	}
	for _, n := range d.Notes {
		notes[n.GameID] = append(notes[n.GameID], n)
		games[n.GameID] = true
	}
	for _, f := range d.Follows {
		follows[f.GameID] = append(follows[f.GameID], f.UserID)
		games[f.GameID] = true
	}
	if st.Notes == nil || st.Follows == nil {
		if len(d.Notes)+len(d.Follows) > 0 {
			return fmt.Errorf("the stores keep no notes or follows, and %d notes and %d follows are to be kept", len(d.Notes), len(d.Follows))
		}
		return nil
	}
	ids := slices.Sorted(maps.Keys(games))
	return each(len(ids), func(i int) error {
		id := ids[i]
		ns, err := st.Notes.Notes(ctx, id)
		if err != nil {
			return fmt.Errorf("notes on game %d: %w", id, err)
		}
		if !reflect.DeepEqual(ns, notes[id]) {
			return fmt.Errorf("notes on game %d: %+v, want %+v", id, ns, notes[id])
		}
		fs, err := st.Follows.Followers(ctx, id)
		if err != nil {
			return fmt.Errorf("followers of game %d: %w", id, err)
		}
		if !slices.Equal(fs, follows[id]) {
			return fmt.Errorf("followers of game %d: %v, want %v", id, fs, follows[id])
		}
		return nil
	})
}

// verifyOutbox checks that out lists d's notifications in d's order,
// equal but for their IDs.
func verifyOutbox(ctx context.Context, d *Dump, out bot.Outbox) error {
	got, err := out.PendingNotifications(ctx, time.Unix(0, math.MaxInt64), 0)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	if len(got) != len(d.Outbox) {
		return fmt.Errorf("outbox holds %d notifications, want %d", len(got), len(d.Outbox))
	}
	for i := range got {
		g, w := got[i], d.Outbox[i]
		g.ID, w.ID = 0, 0
		if !reflect.DeepEqual(g, w) {
			return fmt.Errorf("notification %d of the outbox differs: %+v, want %+v", i+1, g, w)
		}
	}
	return nil
}

// compareKeys orders two times as the time indexes do: as their keys
// (timeKey: clamped to the Unix nanoseconds of 1970..2262).
func compareKeys(a, b time.Time) int {
	return slices.Compare(timeKey(a, 0), timeKey(b, 0))
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func idsOfGames(gs []*bot.Game) []uint64 {
	ids := make([]uint64, len(gs))
	for i, g := range gs {
		ids[i] = g.ID
	}
	return ids
}

func idsOfChallenges(cs []*bot.Challenge) []uint64 {
	ids := make([]uint64, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

// sameRecords checks, reading on verifyWorkers goroutines, that get
// returns every record of want deeply equal to it; the first that is
// missing or differs is named by name.
func sameRecords[T any](want []T, name func(T) string, get func(T) (T, error)) error {
	return each(len(want), func(i int) error {
		w := want[i]
		got, err := get(w)
		if err != nil {
			return fmt.Errorf("%s: %w", name(w), err)
		}
		if !reflect.DeepEqual(got, w) {
			return fmt.Errorf("%s differs: %+v, want %+v", name(w), got, w)
		}
		return nil
	})
}

// verifyWorkers is how many reads Verify has in flight at once: a remote
// store answers each after a round trip.
const verifyWorkers = 8

// each runs check for 0..n-1 on verifyWorkers goroutines, stopping soon
// after a failure, and returns the error of the lowest i that failed
// (nil if none did), so the message does not depend on scheduling.
func each(n int, check func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(verifyWorkers, n) {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if errs[i] = check(i); errs[i] != nil {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return firstError(errs...)
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
