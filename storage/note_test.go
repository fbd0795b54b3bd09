package storage_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	bolt "go.etcd.io/bbolt"
)

// TestMigrateNotesAndFollows: a schema-3 file, whose game records hold
// their followers and notes, is refused read-only (nothing is read
// without them), and a read-write Open moves them into note and follow
// records: the store returns them, the game reads as before without
// them, its record no longer holds them, and Check finds nothing wrong.
func TestMigrateNotesAndFollows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	plain := mustAddGame(t, db, "alice", "carol", "c1")
	db.Close()
	key := []byte{0, 0, 0, 0, 0, 0, 0, byte(g.ID)}
	err := rawDB(t, path, true, func(tx *bolt.Tx) error {
		for _, name := range []string{"notes", "follows"} {
			if err := tx.DeleteBucket([]byte(name)); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 3}); err != nil {
			return err
		}
		var rec map[string]any
		if err := json.Unmarshal(tx.Bucket([]byte("games")).Get(key), &rec); err != nil {
			return err
		}
		rec["schema"] = 3
		rec["followers"] = []string{"dave", "carol"}
		rec["notes"] = []map[string]string{{"user": "bob", "text": "trade queens"}, {"user": "alice", "text": "castle long\nthen h4"}}
		v, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return tx.Bucket([]byte("games")).Put(key, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(path, storage.Options{ReadOnly: true}); !errors.Is(err, storage.ErrOldSchema) {
		t.Fatalf("the schema-3 file read-only: %v, want ErrOldSchema", err)
	}
	db = mustOpenDB(t, path)
	if got, err := db.Game(ctx, g.ID); err != nil || !reflect.DeepEqual(got, g) {
		t.Errorf("the migrated game: %+v, %v; want %+v", got, err, g)
	}
	if got, err := db.Game(ctx, plain.ID); err != nil || !reflect.DeepEqual(got, plain) {
		t.Errorf("the game without notes: %+v, %v; want %+v", got, err, plain)
	}
	if fs, err := db.Followers(ctx, g.ID); err != nil || !slices.Equal(fs, []string{"carol", "dave"}) {
		t.Errorf("followers after the migration: %v, %v", fs, err)
	}
	want := []bot.Note{{GameID: g.ID, UserID: "alice", Text: "castle long\nthen h4"}, {GameID: g.ID, UserID: "bob", Text: "trade queens"}}
	if ns, err := db.Notes(ctx, g.ID); err != nil || !reflect.DeepEqual(ns, want) {
		t.Errorf("notes after the migration: %+v, %v; want %+v", ns, err, want)
	}
	if n, err := db.Note(ctx, g.ID, "bob"); err != nil || n != "trade queens" {
		t.Errorf("bob's note: %q, %v", n, err)
	}
	if problems, err := db.Check(ctx); err != nil || len(problems) != 0 {
		t.Errorf("Check after the migration: %v, %v", problems, err)
	}
	db.Close()
	err = rawDB(t, path, false, func(tx *bolt.Tx) error {
		var rec map[string]any
		if err := json.Unmarshal(tx.Bucket([]byte("games")).Get(key), &rec); err != nil {
			return err
		}
		if _, ok := rec["followers"]; ok {
			t.Errorf("the game record still holds followers: %v", rec)
		}
		if _, ok := rec["notes"]; ok {
			t.Errorf("the game record still holds notes: %v", rec)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := schemaOf(t, path); v != storage.SchemaVersion {
		t.Errorf("schema after the migration: %d, want %d", v, storage.SchemaVersion)
	}
}

// TestCheckFindsStrayNotes: a note or follow of a game that does not
// exist, or kept under another game's key, is a problem Check reports.
func TestCheckFindsStrayNotes(t *testing.T) {
	db := mustOpenDB(t, "")
	g := mustAddGame(t, db, "alice", "bob", "c1")
	if _, err := db.UpdateNote(ctx, g.ID, "alice", func(string) (string, error) { return "fine", nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateNote(ctx, 77, "alice", func(string) (string, error) { return "stray", nil }); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateFollow(ctx, 78, "carol", func(bool, int) (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	problems, err := db.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	wantAll := []string{"notes: the note of game 77 by alice names a game that does not exist",
		"follows: the follow of game 78 by carol names a game that does not exist"}
	if !slices.Equal(got, wantAll) {
		t.Errorf("problems %q, want %q", got, wantAll)
	}
	// The cleanup checks the database too: the strays go.
	if _, err := db.UpdateNote(ctx, 77, "alice", func(string) (string, error) { return "", nil }); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateFollow(ctx, 78, "carol", func(bool, int) (bool, error) { return false, nil }); err != nil {
		t.Fatal(err)
	}
}
