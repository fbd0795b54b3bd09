package main

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	"github.com/fairypost/fairypost/tournament"
)

// migrateFixture writes a database with records of every kind: active,
// finished and set-up games with deadlines and reminders, challenges
// pending and accepted, preferences, waiting notifications (one
// retried), ratings with their histories from rated finished games,
// tournaments open (with a start time) and running (with their games),
// players' notes and spectators' follows, the servers' defined variants.
// It returns the file's path.
func migrateFixture(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	// The secret of the game pages' links goes with the records.
	if _, err := db.EnsureSecret(ctx, storage.PageSecret); err != nil {
		t.Fatal(err)
	}
	// A game's analysis goes with the records too.
	if err := db.PutAnalysis(ctx, &bot.GameAnalysis{GameID: 2, Variant: "chess", Level: 5, Seed: 2,
		Plies:         []bot.AnalysedPly{{Move: "e4", White: true, Eval: "0.30", WhiteWin: 52.7, Before: "0.20"}},
		WhiteAccuracy: 100, WhiteOK: true, RequestedBy: "u1", Created: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	// The servers' defined variants go too, locked or not.
	defs := []bot.DefinedVariant{
		{Server: "g", Name: "kingless", Text: "[kingless:chess]\nking = -\ncommoner = k\n", Author: "u1", Created: time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)},
		{Server: "h", Name: "mine", Text: "[mine:chess]\n", Author: "u2", Created: time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)},
	}
	if err := db.DefineVariants(ctx, defs); err != nil {
		t.Fatal(err)
	}
	if err := db.LockVariant(ctx, "g", "kingless"); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 30 {
		white, black := fmt.Sprint("u", i%7), fmt.Sprint("u", (i+3)%7)
		c := &bot.Challenge{Challenger: white, Challenged: black, GuildID: "g", ChannelID: fmt.Sprint("c", i%4), Variant: "chess",
			DaysPerMove: 3, Color: bot.ColorWhite, Status: bot.ChallengePending, Expires: t0.Add(time.Duration(i) * time.Hour), Created: t0, Updated: t0}
		if err := db.CreateChallenge(ctx, c, []bot.Notification{{Kind: bot.NotifyChallengeReceived, UserID: black, Text: fmt.Sprint("challenge ", i)}}); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			continue // stays pending
		}
		_, g, err := db.UpdateChallenge(ctx, c.ID, c.Version, func(c *bot.Challenge) (bot.ChallengeChange, error) {
			c.Status = bot.ChallengeAccepted
			return bot.ChallengeChange{Game: &bot.Game{Variant: "chess", StartFEN: "s", FEN: "s", ToAct: white, White: white, Black: black,
				GuildID: "g", ChannelID: c.ChannelID, Status: bot.GameActive, DaysPerMove: 3,
				Deadline: t0.Add(time.Duration(72-i) * time.Hour), TurnStarted: t0, Created: t0, Updated: t0}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		switch i % 4 {
		case 1:
			_, err = db.UpdateGameRated(ctx, g.ID, g.Version, func(g *bot.Game, tx bot.RatingTx) ([]bot.Notification, error) {
				g.Status, g.Result, g.Reason, g.Deadline, g.ToAct = bot.GameFinished, bot.BlackWins, "resignation", time.Time{}, ""
				g.Rated = true
				for i, u := range []string{white, black} {
					st, err := tx.Standing("guild/g/chess", u)
					if err != nil {
						return nil, err
					}
					st.Player.Games++
					st.Player.Glicko = rating.Glicko{Rating: 1500 + 10*float64(st.Player.Games), Deviation: 200, Volatility: 0.06}
					st.Player.Last = t0.Add(time.Duration(g.ID) * time.Minute)
					ev := bot.RatingEvent{GameID: g.ID, Entry: rating.HistoryEntry{At: st.Player.Last, Score: float64(i), After: st.Player.Glicko}}
					if err := tx.PutStanding(st, ev); err != nil {
						return nil, err
					}
				}
				return []bot.Notification{{Kind: bot.NotifyGameOver, UserID: white, GameID: g.ID, Text: fmt.Sprint("over ", g.ID)}}, nil
			})
		case 2:
			_, err = db.AnnotateGame(ctx, g.ID, func(g bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
				a.ThreadID, a.RemindAt = fmt.Sprint("t", g.ID), t0.Add(time.Duration(i)*time.Minute)
				return nil, nil
			})
		case 3:
			// A player's note and two spectators following.
			if _, err = db.UpdateNote(ctx, g.ID, white, func(string) (string, error) { return fmt.Sprint("note on ", g.ID), nil }); err != nil {
				break
			}
			for _, u := range []string{"s1", "s2"} {
				if err = db.UpdateFollow(ctx, g.ID, u, func(bool, int) (bool, error) { return true, nil }); err != nil {
					break
				}
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"u1", "u4"} {
		if _, err := db.UpdatePreferences(ctx, u, func(p *bot.Preferences) error {
			p.Delivery, p.ReminderPercent = bot.DeliverChannel, 40
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i, kind := range []tournament.Kind{tournament.RoundRobinKind, tournament.SwissKind} {
		rounds := 0
		if kind == tournament.SwissKind {
			rounds = 3
		}
		e, err := tournament.NewEvent(kind, rounds)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"u1", "u2", "u3", "u4"} {
			if e, err = e.Join(p); err != nil {
				t.Fatal(err)
			}
		}
		tr := &bot.Tournament{GuildID: "g", ChannelID: fmt.Sprint("c", i), Organizer: "u1", Variant: "chess", DaysPerMove: 3,
			Rated: true, StartAt: t0.Add(time.Duration(i+1) * time.Hour), Event: e, Created: t0, Updated: t0}
		if err := db.CreateTournament(ctx, tr, nil); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			continue // stays open, with its start time
		}
		if _, err := db.UpdateTournament(ctx, tr.ID, tr.Version, func(tr *bot.Tournament, newID func() (uint64, error)) (bot.TournamentChange, error) {
			e, err := tr.Event.Start(tr.Event.Players)
			if err != nil {
				return bot.TournamentChange{}, err
			}
			tr.Event = e
			var change bot.TournamentChange
			for _, p := range e.Schedule[0].Games {
				id, err := newID()
				if err != nil {
					return change, err
				}
				tr.Games = append(tr.Games, bot.TournamentGame{Round: 1, White: p.White, Black: p.Black, GameID: id})
				change.Games = append(change.Games, &bot.Game{ID: id, Variant: "chess", StartFEN: "s", FEN: "s", ToAct: p.White,
					White: p.White, Black: p.Black, GuildID: "g", ChannelID: tr.ChannelID, Status: bot.GameActive, DaysPerMove: 3,
					Rated: true, Tournament: tr.ID, Deadline: t0.Add(72 * time.Hour), TurnStarted: t0, Created: t0, Updated: t0})
			}
			return change, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	ns, err := db.PendingNotifications(ctx, t0, 0)
	if err != nil || len(ns) < 3 {
		t.Fatal(ns, err)
	}
	if err := db.AckNotification(ctx, ns[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := db.RetryNotification(ctx, ns[2].ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMigrate copies a database into an in-process etcd: everything is
// copied and verified, the bot's stores then work on the copy with IDs
// continuing after the file's, and a second copy into the same prefix is
// refused. The endpoint is written host:port, as etcdctl takes it.
func TestMigrate(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	path := migrateFixture(t)
	to := "etcd:" + strings.TrimPrefix(c.Endpoints[0], "http://")
	r := run(t, "migrate", "-from", "bolt:"+path, "-to", to, "-prefix", "moved/")
	if r.code != exitOK || !strings.Contains(r.stdout, "30 challenges") || !strings.Contains(r.stdout, "22 games") ||
		!strings.Contains(r.stdout, "2 users' preferences") || !strings.Contains(r.stdout, "7 ratings with 12 rated results, 2 tournaments, 4 notes, 8 follows") ||
		!strings.Contains(r.stdout, "verified") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "moved/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.Dump(context.Background())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The check migrate ran passes on its own, and catches a change.
	st := s.Stores()
	if err := storage.Verify(context.Background(), d, st); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AnnotateGame(context.Background(), d.Games[0].ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID = "moved"
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(context.Background(), d, st); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("game %d differs", d.Games[0].ID)) {
		t.Errorf("Verify after a change: %v", err)
	}
	if _, err := s.AnnotateGame(context.Background(), d.Games[0].ID, func(_ bot.Game, a *bot.Annotations) ([]bot.Notification, error) {
		a.ThreadID = d.Games[0].ThreadID
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	// An index entry lost is caught too.
	key := fmt.Sprintf("moved/ix/games_by_user/%s\x00%016x", d.Games[1].White, d.Games[1].ID)
	if r, err := s.Client().Delete(context.Background(), key); err != nil || r.Deleted != 1 {
		t.Fatalf("deleting %q: %v, %v", key, r, err)
	}
	if err := storage.Verify(context.Background(), d, st); err == nil || !strings.Contains(err.Error(), "GamesByUser("+d.Games[1].White+")") {
		t.Errorf("Verify after an index entry was lost: %v", err)
	}
	ch := &bot.Challenge{Challenger: "u1", Challenged: "u2", Variant: "chess", Status: bot.ChallengePending, Color: bot.ColorRandom}
	if err := s.CreateChallenge(context.Background(), ch, nil); err != nil || ch.ID != d.LastID+1 {
		t.Errorf("first challenge after the copy: ID %d, %v; want %d", ch.ID, err, d.LastID+1)
	}
	r = run(t, "migrate", "-from", "bolt:"+path, "-to", to, "-prefix", "moved/")
	if r.code == exitOK || !strings.Contains(r.stderr, "load into an empty prefix") {
		t.Errorf("second copy into the same prefix: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestMigrateBadInput(t *testing.T) {
	db := migrateFixture(t)
	for args, want := range map[string]string{
		"-from etcd:x -to bolt:y":                          `-from: "x": want host:port`,
		"-from etcd:ftp://x:1 -to bolt:y":                  `-from: "ftp://x:1": want host:port or an http:// or https:// URL, not ftp://`,
		"-from etcd:a:2379,,b:2379 -to bolt:y":             `-from: an empty endpoint`,
		"-from mysql:x -to bolt:y":                         `-from "mysql:x": want bolt:FILE or etcd:URL`,
		"-from bolt:" + db + " -to bolt:y":                 "copy from a file to etcd or from etcd to a file",
		"-from etcd:http://a -to etcd:http://b":            "copy from a file to etcd or from etcd to a file",
		"-from bolt:" + db + " -to etcd:a:99999":           `"a:99999": the port "99999" is not a number from 1 to 65535`,
		"-from bolt:/no/such.db -to etcd:http://a":         "no such database file",
		"-from bolt:" + db + " -to etcd:http://a -prefix=": "-prefix must not be empty",
		"-from etcd:http://a -to bolt:" + db:               "exists: the copy makes a new file",
	} {
		r := run(t, append([]string{"migrate"}, strings.Fields(args)...)...)
		if r.code != exitBadInput || !strings.Contains(r.stderr, want) {
			t.Errorf("migrate %s: exit %d, stderr %q; want exit 2 and %q", args, r.code, r.stderr, want)
		}
	}
}

// TestMigrateBack copies a database file holding every kind of record
// into etcd and back into a new file: the new file holds the same
// records (its Dump equals the first's, but for the notifications' IDs),
// listings and waiting notifications as the first.
func TestMigrateBack(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	path := migrateFixture(t)
	back := filepath.Join(t.TempDir(), "back.db")
	to := "etcd:" + strings.Join(c.Endpoints, ",")
	if r := run(t, "migrate", "-from", "bolt:"+path, "-to", to, "-prefix", "there/"); r.code != exitOK {
		t.Fatalf("there: exit %d, stderr %q", r.code, r.stderr)
	}
	r := run(t, "migrate", "-from", to, "-to", "bolt:"+back, "-prefix", "there/")
	if r.code != exitOK || !strings.Contains(r.stdout, "22 games") || !strings.Contains(r.stdout, "2 tournaments") {
		t.Fatalf("back: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	orig, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := orig.Dump(context.Background())
	orig.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(back, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := storage.Verify(context.Background(), d, db.Stores()); err != nil {
		t.Errorf("the file copied back differs from the first: %v", err)
	}
	everyKind(t, d)
	got, err := db.Dump(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !sameDump(got, d) {
		t.Errorf("the dump of the file copied back differs from the first's:\n%+v\nwant\n%+v", got, d)
	}
	ch := &bot.Challenge{Challenger: "u1", Challenged: "u2", Variant: "chess", Status: bot.ChallengePending, Color: bot.ColorRandom}
	if err := db.CreateChallenge(context.Background(), ch, nil); err != nil || ch.ID != d.LastID+1 {
		t.Errorf("first challenge in the file copied back: ID %d, %v; want %d", ch.ID, err, d.LastID+1)
	}
	// An empty prefix copies to an empty file.
	empty := filepath.Join(t.TempDir(), "empty.db")
	if r := run(t, "migrate", "-from", to, "-to", "bolt:"+empty, "-prefix", "nothing/"); r.code != exitOK || !strings.Contains(r.stdout, "0 games") {
		t.Errorf("empty prefix: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// everyKind fails unless d holds at least one record of each kind (each
// slice of storage.Dump, found by reflection): a kind added to Dump must
// be added to migrateFixture too.
func everyKind(t *testing.T, d *storage.Dump) {
	t.Helper()
	v := reflect.ValueOf(d).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.Len() == 0 {
			t.Errorf("the fixture holds no record of the kind %s", v.Type().Field(i).Name)
		}
	}
}

// sameDump reports whether a and b hold the same records, the
// notifications' IDs aside (a copy gives them new ones).
func sameDump(a, b *storage.Dump) bool {
	strip := func(d *storage.Dump) storage.Dump {
		c := *d
		c.Outbox = slices.Clone(d.Outbox)
		for i := range c.Outbox {
			c.Outbox[i].ID = 0
		}
		return c
	}
	x, y := strip(a), strip(b)
	return reflect.DeepEqual(x, y)
}
