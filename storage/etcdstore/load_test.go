package etcdstore_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// bigDump returns a dump of n games between 1,000 users in 50 channels,
// each with the accepted challenge it came from, one in three finished,
// the others with deadlines spread over a week, 40 plies each, and a
// thousand waiting notifications.
func bigDump(n int) *storage.Dump {
	d := &storage.Dump{LastID: uint64(n)}
	moves := make([]string, 40)
	for i := range moves {
		moves[i] = fmt.Sprintf("%c%d%c%d", 'a'+i%8, 1+i%8, 'h'-i%8, 8-i%8)
	}
	for i := 1; i <= n; i++ {
		white, black, ch := fmt.Sprint("user", i%1000), fmt.Sprint("user", (i*7+1)%1000), fmt.Sprint("chan", i%50)
		g := &bot.Game{ID: uint64(i), Version: 41, Variant: "chess", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			Moves: moves, FEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", ToAct: white,
			White: white, Black: black, GuildID: "g", ChannelID: ch, Status: bot.GameActive, DaysPerMove: 3,
			Deadline: t0.Add(time.Duration(i%10080) * time.Minute), TurnStarted: t0, Created: t0, Updated: t0}
		if i%3 == 0 {
			g.Status, g.Result, g.Reason, g.Deadline, g.ToAct = bot.GameFinished, bot.Draw, "agreement", time.Time{}, ""
		}
		d.Games = append(d.Games, g)
		d.Challenges = append(d.Challenges, &bot.Challenge{ID: uint64(i), Version: 2, Challenger: white, Challenged: black,
			GuildID: "g", ChannelID: ch, Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite, Status: bot.ChallengeAccepted,
			Expires: t0.Add(time.Hour), Created: t0, Updated: t0})
	}
	for i := range 1000 {
		d.Outbox = append(d.Outbox, bot.Notification{ID: uint64(i + 1), Kind: bot.NotifyYourTurn, UserID: fmt.Sprint("user", i),
			GameID: uint64(i + 1), Text: "Your move.", Created: t0})
	}
	return d
}

// BenchmarkMigrate100k loads 100,000 games with their challenges and a
// thousand notifications into an in-process etcd (fsync on), as
// "fairypost migrate" does, then verifies the copy; it reports the time
// of each step (load-s, verify-s). Run it with -benchtime=1x.
func BenchmarkMigrate100k(b *testing.B) {
	d := bigDump(100_000)
	c := etcdtest.Start(b, 1, etcdtest.Options{Fsync: true})
	var load, verify time.Duration
	for range b.N {
		s := openStore(b, c)
		start := time.Now()
		if err := s.Load(b.Context(), d); err != nil {
			b.Fatal(err)
		}
		load += time.Since(start)
		start = time.Now()
		if err := storage.Verify(b.Context(), d, s.Stores()); err != nil {
			b.Fatal(err)
		}
		verify += time.Since(start)
	}
	b.ReportMetric(load.Seconds()/float64(b.N), "load-s")
	b.ReportMetric(verify.Seconds()/float64(b.N), "verify-s")
}

// TestLoadSmall: Load then Verify on a small dump, and Load refuses a
// prefix that holds records.
func TestLoadSmall(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	d := bigDump(300)
	if err := s.Load(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	if err := storage.Verify(t.Context(), d, s.Stores()); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(t.Context(), d); err == nil {
		t.Error("a second Load into the same prefix succeeded")
	}
	ns, err := s.PendingNotifications(t.Context(), t0, 0)
	if err != nil || len(ns) != 1000 || ns[0].UserID != "user0" || ns[999].UserID != "user999" {
		t.Errorf("outbox after the load: %d notes, %v", len(ns), err)
	}
}

// TestDumpPages: Dump reads back what Load wrote, over more than one
// page of keys, with the notifications in order.
func TestDumpPages(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	d := bigDump(1200)
	d.LastID = 5000
	d.Preferences = []*bot.Preferences{{UserID: "user1", Version: 3, Delivery: bot.DeliverOff, ReminderPercent: 10}}
	if err := s.Load(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	got, err := s.Dump(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for i := range got.Outbox {
		if i > 0 && got.Outbox[i].ID <= got.Outbox[i-1].ID {
			t.Fatalf("outbox IDs out of order at %d", i)
		}
		got.Outbox[i].ID = d.Outbox[i].ID
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("dumped %d games, %d challenges, %d preferences, %d notes, last ID %d; want %d, %d, %d, %d, %d (or a field differs)",
			len(got.Games), len(got.Challenges), len(got.Preferences), len(got.Outbox), got.LastID,
			len(d.Games), len(d.Challenges), len(d.Preferences), len(d.Outbox), d.LastID)
	}
}
