package etcdstore_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestMigrateNotesAndFollows: data of schema 3, whose game records hold
// their followers and notes, is brought to the current schema by Open:
// the notes and followers come back through the stores, the game reads
// as before without them, and its record no longer holds them.
func TestMigrateNotesAndFollows(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	ctx := context.Background()
	const prefix = "old/"
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	g := &bot.Game{ID: 7, Version: 3, Variant: "chess", StartFEN: "start", FEN: "start", Moves: []string{"e2e4"},
		White: "alice", Black: "bob", ChannelID: "c1", Status: bot.GameActive, Created: t0, Updated: t0}
	b, err := storage.EncodeGame(g)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	rec["schema"] = 3
	rec["followers"] = []string{"dave", "carol"}
	rec["notes"] = []map[string]string{{"user": "bob", "text": "trade queens"}}
	if b, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	client := openStore(t, c).Client()
	if _, err := client.Put(ctx, prefix+"meta/schema", "3"); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Put(ctx, prefix+"game/0000000000000007", string(b)); err != nil {
		t.Fatal(err)
	}
	s, err := etcdstore.Open(ctx, etcdstore.Options{Endpoints: c.Endpoints, Prefix: prefix})
	if err != nil {
		t.Fatalf("opening schema-3 data: %v", err)
	}
	defer s.Close()
	if got, err := s.Game(ctx, 7); err != nil || !reflect.DeepEqual(got, g) {
		t.Errorf("the migrated game: %+v, %v; want %+v", got, err, g)
	}
	if fs, err := s.Followers(ctx, 7); err != nil || !slices.Equal(fs, []string{"carol", "dave"}) {
		t.Errorf("followers after the migration: %v, %v", fs, err)
	}
	if ns, err := s.Notes(ctx, 7); err != nil || !reflect.DeepEqual(ns, []bot.Note{{GameID: 7, UserID: "bob", Text: "trade queens"}}) {
		t.Errorf("notes after the migration: %+v, %v", ns, err)
	}
	r, err := client.Get(ctx, prefix+"game/0000000000000007")
	if err != nil || len(r.Kvs) != 1 || strings.Contains(string(r.Kvs[0].Value), "followers") || strings.Contains(string(r.Kvs[0].Value), "notes") {
		t.Errorf("the game record after the migration: %v, %v", r, err)
	}
	if r, err := client.Get(ctx, prefix+"meta/schema"); err != nil || len(r.Kvs) != 1 || string(r.Kvs[0].Value) != strconv.Itoa(storage.SchemaVersion) {
		t.Errorf("the schema key after the migration: %v, %v", r, err)
	}
}
