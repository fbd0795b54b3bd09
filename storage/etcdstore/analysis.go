package etcdstore

import (
	"context"
	"fmt"
	"strconv"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
)

// analysisKey is where game id's analysis is kept (bot.AnalysisStore),
// zero-padded so that keys sort by game ID.
func (s *Store) analysisKey(id uint64) string {
	return s.p + "analysis/" + fmt.Sprintf("%020s", strconv.FormatUint(id, 10))
}

// Analysis returns the analysis of game gameID, ENOTFOUND when there is
// none (as storage.DB.Analysis).
func (s *Store) Analysis(ctx context.Context, gameID uint64) (*bot.GameAnalysis, error) {
	v, _, found, err := s.getOne(ctx, s.analysisKey(gameID))
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, storage.NoAnalysis(gameID)
	}
	return storage.DecodeAnalysis(v)
}

// PutAnalysis stores a, replacing the game's analysis if any (as
// storage.DB.PutAnalysis).
func (s *Store) PutAnalysis(ctx context.Context, a *bot.GameAnalysis) error {
	b, err := storage.EncodeAnalysis(a)
	if err != nil {
		return err
	}
	if _, err := s.c.Put(ctx, s.analysisKey(a.GameID), string(b)); err != nil {
		return bot.OutcomeUnknown(fmt.Errorf("etcd: %w", err))
	}
	return nil
}

// dumpAnalyses adds the analyses under the prefix at revision rev to d,
// by game ID.
func (s *Store) dumpAnalyses(ctx context.Context, rev int64, d *storage.Dump) error {
	return s.scan(ctx, s.p+"analysis/", rev, func(kv *mvccpb.KeyValue) error {
		a, err := storage.DecodeAnalysis(kv.Value)
		d.Analyses = append(d.Analyses, a)
		return err
	})
}

// loadAnalysisOps returns the puts that copy the analyses of d.
func (s *Store) loadAnalysisOps(d *storage.Dump) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	for _, a := range d.Analyses {
		b, err := storage.EncodeAnalysis(a)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.analysisKey(a.GameID), string(b)))
	}
	return ops, nil
}
