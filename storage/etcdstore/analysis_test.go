package etcdstore_test

import (
	"reflect"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	"github.com/fairypost/fairypost/storage/storetest"
)

// TestAnalysisMigrates: a bbolt file's analyses are copied into etcd by
// Load, back by Dump, into a new bbolt file by Load again, and Verify
// checks every copy (and sees a changed one).
func TestAnalysisMigrates(t *testing.T) {
	ctx := t.Context()
	db := testkit.OpenDB(t)
	for _, id := range []uint64{2, 11} {
		if err := db.PutAnalysis(ctx, storetest.SampleAnalysis(id)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := db.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Analyses) != 2 {
		t.Fatalf("bbolt dumped %d analyses, want 2", len(d.Analyses))
	}
	s := openStore(t, etcdtest.Start(t, 1, etcdtest.Options{}))
	if err := s.Load(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, s.Stores()); err != nil {
		t.Fatal(err)
	}
	back, err := s.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Analyses, d.Analyses) {
		t.Fatalf("dumped from etcd: %+v, want %+v", back.Analyses, d.Analyses)
	}
	db2 := testkit.OpenDB(t)
	if err := db2.Load(ctx, back); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, db2.Stores()); err != nil {
		t.Fatal(err)
	}
	changed := storetest.SampleAnalysis(11)
	changed.WhiteAccuracy = 12
	if err := s.PutAnalysis(ctx, changed); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(ctx, d, s.Stores()); err == nil {
		t.Error("Verify accepted a copy whose analysis differs")
	}
	var _ bot.AnalysisStore = db // both backends are analysis stores
	var _ bot.AnalysisStore = s
}
