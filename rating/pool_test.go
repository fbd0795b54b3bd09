package rating

import (
	"errors"
	"testing"
	"time"
)

func TestPools(t *testing.T) {
	pools, err := PoolsForGame("winning", "ranks=10", "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) != 2 || pools[0].Key() != "guild/g1/winning,ranks=10" || pools[1].Key() != "global/winning,ranks=10" {
		t.Fatalf("pools of a guild game: %+v", pools)
	}
	if pools[0].Global() || !pools[1].Global() || pools[0].Name() != "winning ranks=10" {
		t.Errorf("Global/Name: %v %v %q", pools[0].Global(), pools[1].Global(), pools[0].Name())
	}
	// Options make their own pool; the defaults ("") share the variant's.
	plain, _ := NewPool("winning", "", "g1")
	if plain == pools[0] || plain.Key() == pools[0].Key() || plain.Name() != "winning" {
		t.Errorf("winning and winning ranks=10 share a pool: %+v", plain)
	}
	dm, err := PoolsForGame("chess", "", "")
	if err != nil || len(dm) != 1 || dm[0].Key() != "global/chess" {
		t.Errorf("a game outside guilds: %+v %v", dm, err)
	}
	for _, p := range []Pool{pools[0], pools[1], plain, dm[0], {Variant: "easymate", Options: "penalty=on,queencastle=both,tigers=on"}} {
		back, err := ParsePool(p.Key())
		if err != nil || back != p {
			t.Errorf("ParsePool(%q) = %+v, %v; want %+v", p.Key(), back, err, p)
		}
	}
	bad := []struct{ variant, options, guild string }{
		{"", "", ""},
		{"Chess", "", ""},
		{"win ning", "", ""},
		{"winning", "ranks", ""},
		{"winning", "ranks=", ""},
		{"winning", "ranks=10,", ""},
		{"easymate", "tigers=on,penalty=on", ""},
		{"easymate", "tigers=on,tigers=off", ""},
		{"chess", "", "a/b"},
	}
	for _, b := range bad {
		if _, err := NewPool(b.variant, b.options, b.guild); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewPool(%q, %q, %q): err = %v, want ErrInvalid", b.variant, b.options, b.guild, err)
		}
	}
	for _, k := range []string{"", "chess", "global/", "guild/chess", "guild//chess", "local/g/chess", "global/chess,x"} {
		if _, err := ParsePool(k); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParsePool(%q): err = %v, want ErrInvalid", k, err)
		}
	}
}

func TestLeaderboard(t *testing.T) {
	s := Lichess()
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	recent := now.Add(-24 * time.Hour)
	est := func(r float64, games int) Player {
		return Player{Glicko: Glicko{r, 60, 0.06}, Games: games, Last: recent}
	}
	entries := []Entry{
		{ID: "carol", Now: est(1700, 30), Before: est(1650, 25)},
		{ID: "alice", Now: est(1800.4, 40), Before: est(1810, 35)},
		{ID: "dave", Now: est(1700, 45), Before: est(1700, 45)},
		{ID: "newbie", Now: Player{Glicko: Glicko{1900, 200, 0.09}, Games: 2, Last: recent}},
		// Strong once, but idle for years: provisional again.
		{ID: "ghost", Now: Player{Glicko: Glicko{2100, 60, 0.06}, Games: 90, Last: now.AddDate(-5, 0, 0)}},
		{ID: "bob", Now: est(1500, 12)},
	}
	lb, err := s.Leaderboard(entries, now, 2, "bob")
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Rank: 1, ID: "alice", Rating: 1800, Games: 40, Trend: -10},
		{Rank: 2, ID: "dave", Rating: 1700, Games: 45, Trend: 0},
	}
	if len(lb.Top) != 2 || lb.Top[0] != want[0] || lb.Top[1] != want[1] {
		t.Fatalf("top = %+v, want %+v", lb.Top, want)
	}
	if lb.Own == nil || *lb.Own != (Row{Rank: 4, ID: "bob", Rating: 1500, Games: 12, Trend: 0}) {
		t.Errorf("bob's own line = %+v", lb.Own)
	}
	// The caller in the top gets no separate line; a provisional caller
	// gets an unranked one.
	if lb, _ := s.Leaderboard(entries, now, 3, "carol"); lb.Own != nil || lb.Top[2].ID != "carol" || lb.Top[2].Trend != 50 {
		t.Errorf("carol in the top: %+v", lb)
	}
	lb, _ = s.Leaderboard(entries, now, 10, "newbie")
	if len(lb.Top) != 4 || lb.Own == nil || lb.Own.Rank != 0 || !lb.Own.Provisional || lb.Own.Display() != "1900?" || lb.Own.Trend != 400 {
		t.Errorf("a provisional caller: %+v own %+v", lb.Top, lb.Own)
	}
	if lb, _ := s.Leaderboard(entries, now, 10, "ghost"); lb.Own == nil || !lb.Own.Provisional {
		t.Errorf("an idle player is still ranked: %+v", lb)
	}
	if _, err := s.Leaderboard(append(entries, Entry{ID: "bob"}), now, 3, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("duplicate id: %v", err)
	}
	if _, err := s.Leaderboard(entries, now, -1, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative size: %v", err)
	}
}
