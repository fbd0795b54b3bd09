package etcdstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	"github.com/fairypost/fairypost/storage/storetest"
)

// prefixes numbers the key prefixes of the stores the tests open on one
// cluster, so that each starts empty.
var prefixes atomic.Int64

// openStore opens a store with a prefix of its own on c, closed when t
// ends.
func openStore(t testing.TB, c *etcdtest.Cluster) *etcdstore.Store {
	t.Helper()
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints,
		Prefix: fmt.Sprintf("test%d/", prefixes.Add(1))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestConformance runs the stores' conformance suite on an in-process
// single-member etcd, each subtest under a prefix of its own.
func TestConformance(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	storetest.Run(t, func(t *testing.T) gameplay.Stores {
		s := openStore(t, c)
		return s.Stores()
	})
}

// TestReplayGuardConformance runs the replay guard's conformance suite
// on an in-process single-member etcd, each subtest under a prefix of
// its own.
func TestReplayGuardConformance(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	storetest.RunReplayGuard(t, func(t *testing.T) bot.ReplayGuard { return openStore(t, c) })
}

// BenchmarkCommitMove is storetest.BenchCommitMove on an in-process
// single-member etcd that syncs its log to disk on every commit, as a
// production member does: compare with the same benchmark on bbolt
// (package storage).
func BenchmarkCommitMove(b *testing.B) {
	c := etcdtest.Start(b, 1, etcdtest.Options{Fsync: true})
	s := openStore(b, c)
	storetest.BenchCommitMove(b, s.Stores())
}

// BenchmarkCommitMoveParallel is storetest.BenchCommitMoveParallel on
// etcd: one member, and three (all in this process, on this machine's
// cores), fsync on.
func BenchmarkCommitMoveParallel(b *testing.B) {
	for _, members := range []int{1, 3} {
		b.Run(fmt.Sprintf("members=%d", members), func(b *testing.B) {
			c := etcdtest.Start(b, members, etcdtest.Options{Fsync: true})
			s := openStore(b, c)
			storetest.BenchCommitMoveParallel(b, s.Stores())
		})
	}
}

// BenchmarkCommitMove3Members is BenchmarkCommitMove on three members
// (in this process, fsync on): the cost of replication.
func BenchmarkCommitMove3Members(b *testing.B) {
	c := etcdtest.Start(b, 3, etcdtest.Options{Fsync: true})
	s := openStore(b, c)
	storetest.BenchCommitMove(b, s.Stores())
}

// TestDeferredConformance runs the deferred answers' conformance suite
// on an in-process single-member etcd, each subtest under a prefix of
// its own.
func TestDeferredConformance(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	storetest.RunDeferred(t, func(t *testing.T) bot.DeferredStore { return openStore(t, c) })
}

// TestTournamentRoundOverTheTransactionLimit: a round whose games do not
// fit in one etcd transaction (--max-txn-ops, 128 by default) is refused
// with a message for the operator, and nothing is created.
func TestTournamentRoundOverTheTransactionLimit(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	tr := &bot.Tournament{ChannelID: "chan", Organizer: "p0", Variant: "chess", DaysPerMove: 3, Created: testkit.T0, Updated: testkit.T0}
	if err := s.CreateTournament(ctx, tr, nil); err != nil {
		t.Fatal(err)
	}
	const games = 20 // about eight operations each
	_, err := s.UpdateTournament(ctx, tr.ID, tr.Version, func(tr *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
		var change bot.TournamentChange
		for i := range games {
			id, err := newID()
			if err != nil {
				return change, err
			}
			white, black := fmt.Sprint("p", 2*i), fmt.Sprint("p", 2*i+1)
			change.Games = append(change.Games, &bot.Game{ID: id, Variant: "chess", White: white, Black: black, ChannelID: "chan",
				Status: bot.GameActive, Tournament: tr.ID, Deadline: testkit.T0.Add(time.Hour), Created: testkit.T0, Updated: testkit.T0})
		}
		return change, nil
	})
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(err.Error(), "--max-txn-ops") {
		t.Fatalf("a round of %d games: %v, want a refusal naming --max-txn-ops", games, err)
	}
	if got, err := s.Tournament(ctx, tr.ID); err != nil || got.Version != tr.Version {
		t.Errorf("the tournament after the refusal: %+v, %v", got, err)
	}
	if gs, err := s.GamesByChannel(ctx, "chan"); err != nil || len(gs) != 0 {
		t.Errorf("games created by the refused round: %d, %v", len(gs), err)
	}
}

// TestVariantConformance runs the defined variants' conformance suite on
// an in-process single-member etcd, each subtest under a prefix of its
// own.
func TestVariantConformance(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	storetest.RunVariants(t, func(t *testing.T) bot.VariantStore { return openStore(t, c) })
}

// TestSecretConformance runs the secrets' conformance suite on an
// in-process single-member etcd, each subtest under a prefix of its own.
func TestSecretConformance(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	storetest.RunSecrets(t, func(t *testing.T) storetest.SecretStore { return openStore(t, c) })
}

// TestAnalysisConformance runs the analyses' conformance suite on an
// in-process single-member etcd, each subtest under a prefix of its own.
func TestAnalysisConformance(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	storetest.RunAnalyses(t, func(t *testing.T) bot.AnalysisStore { return openStore(t, c) })
}
