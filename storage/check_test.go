package storage_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/tournament"
)

// problemTexts returns the problems Check finds in db, as text.
func problemTexts(t *testing.T, db *storage.DB) []string {
	t.Helper()
	problems, err := db.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range problems {
		out = append(out, p.String())
	}
	return out
}

// id8 is an ID as the keys hold it.
func id8(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// TestCheckFindsIndexesOutOfStep: a database written through the stores
// is sound; an index entry removed, one added that no record calls for,
// and a record changed behind its indexes' back are each found, named
// by index, key and record.
func TestCheckFindsIndexesOutOfStep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1", "e2e4")
	over := mustAddGame(t, db, "carol", "dave", "c2")
	if _, err := db.UpdateGame(ctx, over.ID, bot.AnyVersion, func(g *bot.Game) ([]bot.Notification, error) {
		g.Status, g.Result, g.Reason, g.ToAct, g.Deadline = bot.GameFinished, bot.WhiteWins, "resignation", "", time.Time{}
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	pending := mustChallenge(t, db, "erin", "frank", t0.Add(time.Hour))
	if got := problemTexts(t, db); len(got) != 0 {
		t.Fatalf("a database written by the stores has problems: %q", got)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	err := rawDB(t, path, true, func(tx *bolt.Tx) error {
		// alice's game leaves the index of her ongoing games.
		if err := tx.Bucket([]byte("active_games_by_user")).Delete(append([]byte("alice\x00"), id8(g.ID)...)); err != nil {
			return err
		}
		// The finished game is back in the ongoing games of its channel.
		if err := tx.Bucket([]byte("active_games_by_channel")).Put(append([]byte("c2\x00"), id8(over.ID)...), []byte{}); err != nil {
			return err
		}
		// The pending challenge's record moves to another channel without
		// its index.
		challenges := tx.Bucket([]byte("challenges"))
		var rec map[string]any
		if err := json.Unmarshal(challenges.Get(id8(pending.ID)), &rec); err != nil {
			return err
		}
		rec["channel"] = "elsewhere"
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return challenges.Put(id8(pending.ID), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := storage.Open(path, storage.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got := problemTexts(t, ro)
	want := []string{
		`active_games_by_user: entry "alice" → 1 of game 1 is missing`,
		`active_games_by_channel: entry "c2" → 2 matches no record`,
		`challenges_by_channel: entry "c1" → 3 matches no record`,
		`challenges_by_channel: entry "elsewhere" → 3 of challenge 3 is missing`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckFindsRatingAndTournamentIndexesOutOfStep: the indexes of
// standings (ratings_by_user) and tournaments (by channel, running, by
// start time) are checked against their records as the games' are.
func TestCheckFindsRatingAndTournamentIndexesOutOfStep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	g := mustAddGame(t, db, "alice", "bob", "c1")
	if _, err := db.UpdateGameRated(ctx, g.ID, bot.AnyVersion, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
		st, err := tx.Standing("global/chess", "alice")
		if err != nil {
			return nil, err
		}
		st.Player.Games = 1
		return nil, tx.PutStanding(st, bot.RatingEvent{GameID: g.ID})
	}); err != nil {
		t.Fatal(err)
	}
	e, err := tournament.NewEvent(tournament.RoundRobinKind, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr := &bot.Tournament{ChannelID: "c1", Organizer: "alice", Variant: "chess", DaysPerMove: 3, StartAt: t0.Add(time.Hour),
		Event: e, Created: t0, Updated: t0}
	if err := db.CreateTournament(ctx, tr, nil); err != nil {
		t.Fatal(err)
	}
	if got := problemTexts(t, db); len(got) != 0 {
		t.Fatalf("a database written by the stores has problems: %q", got)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	err = rawDB(t, path, true, func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte("ratings_by_user")).Delete([]byte("alice\x00global/chess")); err != nil {
			return err
		}
		if err := tx.Bucket([]byte("tournaments_by_channel")).Delete(append([]byte("c1\x00"), id8(tr.ID)...)); err != nil {
			return err
		}
		return tx.Bucket([]byte("running_tournaments")).Put(id8(tr.ID), []byte{})
	})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := storage.Open(path, storage.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got := strings.Join(problemTexts(t, ro), "\n")
	for _, want := range []string{
		"ratings_by_user: entry", "of the standing of alice in global/chess is missing",
		"tournaments_by_channel: entry", fmt.Sprintf("of tournament %d is missing", tr.ID),
		"running_tournaments: entry", "matches no record",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}
