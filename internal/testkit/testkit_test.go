package testkit_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
)

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestCheckDBReportsIndexProblems: CheckDB, which every database of
// OpenDB goes through when its test ends, reports an index entry that
// no record calls for.
func TestCheckDBReportsIndexProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := testkit.OpenDBAt(t, path)
	svc := testkit.Service(t, db, testkit.NewClock(testkit.T0))
	c, err := svc.Challenges().Challenge(context.Background(), gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob", ChannelID: "c", Variant: "chess", DaysPerMove: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Challenges().Accept(context.Background(), c.ID, c.Version, "bob", bot.Where{ChannelID: "c"}); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t}
	testkit.CheckDB(rec, db)
	if len(rec.errors) > 0 {
		t.Fatalf("a sound database: %q", rec.errors)
	}
	db.Close()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games_by_user")).Put(append([]byte("carol\x00"), 0, 0, 0, 0, 0, 0, 0, 1), []byte{})
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	db = testkit.OpenDBAt(t, path)
	testkit.CheckDB(rec, db)
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], `games_by_user: entry "carol" → 1 matches no record`) {
		t.Errorf("errors %q, want the stray entry of carol", rec.errors)
	}
	// The cleanup would fail this test: the entry goes.
	db.Close()
	b, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games_by_user")).Delete(append([]byte("carol\x00"), 0, 0, 0, 0, 0, 0, 0, 1))
	}); err != nil {
		t.Fatal(err)
	}
}

// TestProbeCatchesStoreInUpdate: a store called from inside an update's
// function is a violation; the same call outside is only counted.
func TestProbeCatchesStoreInUpdate(t *testing.T) {
	db := testkit.OpenDB(t)
	p := testkit.NewProbe(testkit.Stores(db))
	st := p.Stores()
	ctx := context.Background()
	if _, err := st.Users.Preferences(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if v := p.Violations(); len(v) != 0 {
		t.Fatalf("a read outside any update: %q", v)
	}
	_, err := st.Users.UpdatePreferences(ctx, "alice", func(pr *bot.Preferences) error {
		_, err := st.Games.ActiveGamesByUser(ctx, "alice")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Violations(); len(v) != 1 || v[0] != "ActiveGamesByUser during an update" {
		t.Errorf("violations %q", v)
	}
	if c := p.Calls(); c["Preferences"] != 1 || c["UpdatePreferences"] != 1 || c["ActiveGamesByUser"] != 1 {
		t.Errorf("calls %v", c)
	}
}
