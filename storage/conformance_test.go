package storage_test

import (
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/storage/storetest"
)

// TestConformance runs the stores' conformance suite on bbolt files.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) gameplay.Stores {
		db := mustOpenDB(t, "")
		return db.Stores()
	})
}

// BenchmarkConformanceCommitMove is storetest.BenchCommitMove on a bbolt
// file (fsync on every commit, bbolt's default), to compare with the
// same benchmark on etcd (package storage/etcdstore).
func BenchmarkConformanceCommitMove(b *testing.B) {
	db := mustOpenDB(b, "")
	storetest.BenchCommitMove(b, db.Stores())
}

// BenchmarkConformanceCommitMoveParallel is
// storetest.BenchCommitMoveParallel on a bbolt file.
func BenchmarkConformanceCommitMoveParallel(b *testing.B) {
	db := mustOpenDB(b, "")
	storetest.BenchCommitMoveParallel(b, db.Stores())
}

// TestReplayGuardConformance runs the replay guard's conformance suite
// on bbolt files.
func TestReplayGuardConformance(t *testing.T) {
	storetest.RunReplayGuard(t, func(t *testing.T) bot.ReplayGuard { return mustOpenDB(t, "") })
}

// TestDeferredConformance runs the deferred answers' conformance suite
// on bbolt files.
func TestDeferredConformance(t *testing.T) {
	storetest.RunDeferred(t, func(t *testing.T) bot.DeferredStore { return mustOpenDB(t, "") })
}

// TestSecretConformance runs the secrets' conformance suite on bbolt
// files.
func TestSecretConformance(t *testing.T) {
	storetest.RunSecrets(t, func(t *testing.T) storetest.SecretStore { return mustOpenDB(t, "") })
}

// TestAnalysisConformance runs the analyses' conformance suite on bbolt
// files.
func TestAnalysisConformance(t *testing.T) {
	storetest.RunAnalyses(t, func(t *testing.T) bot.AnalysisStore { return mustOpenDB(t, "") })
}

// TestVariantConformance runs the defined variants' conformance suite on
// bbolt files.
func TestVariantConformance(t *testing.T) {
	storetest.RunVariants(t, func(t *testing.T) bot.VariantStore { return mustOpenDB(t, "") })
}
