package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// OpenDeferred returns the deferred-answer store of a fresh, empty
// backend for test t, closed when t ends.
type OpenDeferred func(t *testing.T) bot.DeferredStore

// RunDeferred runs the conformance tests of bot.DeferredStore as
// subtests of t, each on a store of its own from open.
func RunDeferred(t *testing.T, open OpenDeferred) {
	tests := []struct {
		name string
		fn   func(*testing.T, bot.DeferredStore)
	}{
		{"PutListDelete", testDeferredPutListDelete},
		{"Expiry", testDeferredExpiry},
		{"Refused", testDeferredRefused},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// deferred returns a deferred answer of interaction id, deferred at at
// and expiring 15 minutes later.
func deferred(id string, at time.Time) bot.DeferredAnswer {
	return bot.DeferredAnswer{InteractionID: id, ApplicationID: "app", Token: "token-" + id, Owner: "host/1",
		UserID: "alice", ChannelID: "c1", Request: "/move e4", GameID: 7, Move: "e4", Before: 3,
		Deferred: at, Expires: at.Add(15 * time.Minute)}
}

// listDeferred returns the interaction IDs DeferredAnswers lists at now.
func listDeferred(t *testing.T, s bot.DeferredStore, now time.Time) []bot.DeferredAnswer {
	t.Helper()
	as, err := s.DeferredAnswers(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	return as
}

func testDeferredPutListDelete(t *testing.T, s bot.DeferredStore) {
	ctx := t.Context()
	now := time.Now().UTC().Round(0) // as decoded: UTC, no monotonic reading
	b, a := deferred("2", now.Add(time.Second)), deferred("1", now)
	for _, d := range []bot.DeferredAnswer{b, a} {
		if err := s.PutDeferred(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	got := listDeferred(t, s, now)
	if len(got) != 2 || fmt.Sprint(got[0]) != fmt.Sprint(a) || fmt.Sprint(got[1]) != fmt.Sprint(b) {
		t.Fatalf("listed %+v, want %+v then %+v (by the time deferred, every field kept)", got, a, b)
	}
	if !got[0].Deferred.Equal(a.Deferred) || !got[0].Expires.Equal(a.Expires) {
		t.Errorf("times %v %v, want %v %v", got[0].Deferred, got[0].Expires, a.Deferred, a.Expires)
	}
	a.Owner = "host/2"
	if err := s.PutDeferred(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got := listDeferred(t, s, now); len(got) != 2 || got[0].Owner != "host/2" {
		t.Errorf("after putting again: %+v, want 2 records, the first owned by host/2", got)
	}
	if err := s.DeleteDeferred(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDeferred(ctx, "1"); err != nil {
		t.Errorf("deleting again: %v, want no error", err)
	}
	if got := listDeferred(t, s, now); len(got) != 1 || got[0].InteractionID != "2" {
		t.Errorf("after deleting 1: %+v, want only 2", got)
	}
}

func testDeferredExpiry(t *testing.T, s bot.DeferredStore) {
	ctx := t.Context()
	now := time.Now().UTC().Round(0) // as decoded: UTC, no monotonic reading
	d := deferred("9", now)
	if err := s.PutDeferred(ctx, d); err != nil {
		t.Fatal(err)
	}
	if got := listDeferred(t, s, d.Expires.Add(-time.Second)); len(got) != 1 {
		t.Errorf("a second before it expires: %d records, want 1", len(got))
	}
	for _, at := range []time.Time{d.Expires, d.Expires.Add(time.Hour)} {
		if got := listDeferred(t, s, at); len(got) != 0 {
			t.Errorf("at %v, once expired: %+v, want none", at.Sub(d.Expires), got)
		}
	}
}

func testDeferredRefused(t *testing.T, s bot.DeferredStore) {
	ctx := t.Context()
	now := time.Now().UTC().Round(0) // as decoded: UTC, no monotonic reading
	noID, noToken, past := deferred("", now), deferred("3", now), deferred("4", now.Add(-time.Hour))
	noToken.Token = ""
	for _, d := range []bot.DeferredAnswer{noID, noToken, past} {
		if err := s.PutDeferred(ctx, d); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("PutDeferred(%+v): %v, want EINVALID", d, err)
		}
	}
	if got := listDeferred(t, s, now); len(got) != 0 {
		t.Errorf("after refused puts: %+v, want none", got)
	}
}
