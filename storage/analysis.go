package storage

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// Game analyses (bot.AnalysisStore): one record per game, apart from the
// game record, keyed by the game's ID; Dump copies them.

// analysisRecord is the stored form of a bot.GameAnalysis.
type analysisRecord struct {
	Schema   int `json:"schema"`
	Analysis *bot.GameAnalysis
}

// CheckAnalysis returns an EINVALID error for an analysis that cannot be
// stored: without a game ID or without plies.
func CheckAnalysis(a *bot.GameAnalysis) error {
	if a == nil || a.GameID == 0 {
		return bot.Errorf(bot.EINVALID, "An analysis must name its game.")
	}
	if len(a.Plies) == 0 {
		return bot.Errorf(bot.EINVALID, "The analysis of game %d has no moves.", a.GameID)
	}
	return nil
}

// EncodeAnalysis returns the stored form of a.
func EncodeAnalysis(a *bot.GameAnalysis) ([]byte, error) {
	if err := CheckAnalysis(a); err != nil {
		return nil, err
	}
	return json.Marshal(analysisRecord{Schema: SchemaVersion, Analysis: a})
}

// DecodeAnalysis reads a stored analysis; a damaged record or one of a
// newer schema is an internal error.
func DecodeAnalysis(b []byte) (*bot.GameAnalysis, error) {
	var r analysisRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, bot.Errorf(bot.EINTERNAL, "a stored analysis does not decode: %v", err)
	}
	if r.Schema > SchemaVersion {
		return nil, bot.Errorf(bot.EINTERNAL, "an analysis of schema %d is newer than this program's %d", r.Schema, SchemaVersion)
	}
	if err := CheckAnalysis(r.Analysis); err != nil {
		return nil, bot.Errorf(bot.EINTERNAL, "a stored analysis is damaged: %v", err)
	}
	return r.Analysis, nil
}

// NoAnalysis is the error of Analysis for a game never analysed.
func NoAnalysis(gameID uint64) error {
	return bot.Errorf(bot.ENOTFOUND, "Game %d has not been analysed yet.", gameID)
}

// bucketAnalyses holds the analyses by game ID (8 bytes, big-endian).
// Open does not make it: the first analysis stored does, so files
// written before it need no migration.
var bucketAnalyses = []byte("analyses")

// analysisKey is the key of game id's analysis.
func analysisKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// Analysis returns the analysis of game gameID (bot.AnalysisStore).
func (db *DB) Analysis(ctx context.Context, gameID uint64) (*bot.GameAnalysis, error) {
	var a *bot.GameAnalysis
	err := db.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketAnalyses)
		if b == nil {
			return NoAnalysis(gameID)
		}
		v := b.Get(analysisKey(gameID))
		if v == nil {
			return NoAnalysis(gameID)
		}
		var err error
		a, err = DecodeAnalysis(v)
		return err
	})
	return a, err
}

// PutAnalysis stores a, replacing the game's analysis if any
// (bot.AnalysisStore).
func (db *DB) PutAnalysis(ctx context.Context, a *bot.GameAnalysis) error {
	v, err := EncodeAnalysis(a)
	if err != nil {
		return err
	}
	return db.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketAnalyses)
		if err != nil {
			return err
		}
		return b.Put(analysisKey(a.GameID), v)
	})
}

// dumpAnalyses adds the analyses of tx to d, by game ID.
func dumpAnalyses(tx *bolt.Tx, d *Dump) error {
	b := tx.Bucket(bucketAnalyses)
	if b == nil {
		return nil
	}
	return b.ForEach(func(_, v []byte) error {
		a, err := DecodeAnalysis(v)
		d.Analyses = append(d.Analyses, a)
		return err
	})
}

// loadAnalyses writes the analyses of d into tx, refusing a database
// that holds one already (Load copies into a new file only).
func loadAnalyses(tx *bolt.Tx, d *Dump) error {
	if len(d.Analyses) == 0 {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketAnalyses)
	if err != nil {
		return err
	}
	for _, a := range d.Analyses {
		v, err := EncodeAnalysis(a)
		if err != nil {
			return err
		}
		if b.Get(analysisKey(a.GameID)) != nil {
			return bot.Errorf(bot.ECONFLICT, "storage: load: the analysis of game %d is there already: load into a new file", a.GameID)
		}
		if err := b.Put(analysisKey(a.GameID), v); err != nil {
			return err
		}
	}
	return nil
}

// verifyAnalyses checks that the stores st (whose game store must be a
// bot.AnalysisStore when d has analyses: both backends' are) hold every
// analysis of d, equal, and returns the first difference.
func verifyAnalyses(ctx context.Context, d *Dump, st gameplay.Stores) error {
	if len(d.Analyses) == 0 {
		return nil
	}
	r, ok := st.Games.(bot.AnalysisStore)
	if !ok {
		return fmt.Errorf("the copy keeps no analyses, and %d were copied", len(d.Analyses))
	}
	for _, want := range d.Analyses {
		got, err := r.Analysis(ctx, want.GameID)
		if err != nil {
			return err
		}
		wb, _ := EncodeAnalysis(want)
		gb, err := EncodeAnalysis(got)
		if err != nil || string(wb) != string(gb) {
			return bot.Errorf(bot.EINTERNAL, "the analysis of game %d differs from the copied one", want.GameID)
		}
	}
	return nil
}
