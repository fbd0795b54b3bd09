package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
)

// OpenVariants returns the variant store of a fresh, empty backend for
// test t, closed when t ends.
type OpenVariants func(t *testing.T) bot.VariantStore

// RunVariants runs the conformance tests of the defined variants as
// subtests of t, each on a store of its own from open.
func RunVariants(t *testing.T, open OpenVariants) {
	tests := []struct {
		name string
		fn   func(*testing.T, bot.VariantStore)
	}{
		{"DefineAndRead", testVariantDefineAndRead},
		{"NameTakenChangesNothing", testVariantNameTaken},
		{"ServersApart", testVariantServersApart},
		{"LockThenRemoveRefused", testVariantLock},
		{"RemoveConcurrently", testVariantRemoveConcurrently},
		{"Invalid", testVariantInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func defined(server, name, author string) bot.DefinedVariant {
	return bot.DefinedVariant{Server: server, Name: name, Author: author,
		Text:    fmt.Sprintf("[%s:chess]\nking = -\ncommoner = k\nextinctionValue = loss\nextinctionPieceTypes = k\n", name),
		Created: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
}

func testVariantDefineAndRead(t *testing.T, s bot.VariantStore) {
	ctx := t.Context()
	if _, err := s.DefinedVariant(ctx, "g1", "zed"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Fatalf("DefinedVariant of a fresh store: %v, want ENOTFOUND", err)
	}
	want := []bot.DefinedVariant{defined("g1", "alpha", "u1"), defined("g1", "zed", "u1")}
	if err := s.DefineVariants(ctx, []bot.DefinedVariant{want[1], want[0]}); err != nil {
		t.Fatal(err)
	}
	got, err := s.DefinedVariant(ctx, "g1", "zed")
	if err != nil {
		t.Fatal(err)
	}
	if got != want[1] {
		t.Errorf("read %+v, want %+v", got, want[1])
	}
	list, err := s.DefinedVariants(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0] != want[0] || list[1] != want[1] {
		t.Errorf("DefinedVariants = %+v, want %+v by name", list, want)
	}
}

func testVariantNameTaken(t *testing.T, s bot.VariantStore) {
	ctx := t.Context()
	if err := s.DefineVariants(ctx, []bot.DefinedVariant{defined("g1", "b", "u1")}); err != nil {
		t.Fatal(err)
	}
	again := defined("g1", "b", "u2")
	again.Text = "[b:chess]\n"
	err := s.DefineVariants(ctx, []bot.DefinedVariant{defined("g1", "a", "u2"), again})
	if bot.ErrorCode(err) != bot.ECONFLICT {
		t.Fatalf("defining a taken name: %v, want ECONFLICT", err)
	}
	list, err := s.DefinedVariants(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0] != defined("g1", "b", "u1") {
		t.Errorf("after a refused definition: %+v, want only the first b", list)
	}
}

func testVariantServersApart(t *testing.T, s bot.VariantStore) {
	ctx := t.Context()
	// "g1" is a prefix of "g10": the servers must not mix.
	for _, v := range []bot.DefinedVariant{defined("g1", "x", "u1"), defined("g10", "x", "u2"), defined("g10", "y", "u2")} {
		if err := s.DefineVariants(ctx, []bot.DefinedVariant{v}); err != nil {
			t.Fatal(err)
		}
	}
	one, err := s.DefinedVariants(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 1 || one[0].Author != "u1" {
		t.Errorf("g1's variants: %+v, want its x only", one)
	}
	if err := s.RemoveVariant(ctx, "g1", "y"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("removing another server's variant: %v, want ENOTFOUND", err)
	}
	all, err := s.DefinedVariants(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || all[0].Server != "g1" || all[2].Name != "y" {
		t.Errorf("every variant: %+v, want 3 by server then name", all)
	}
}

func testVariantLock(t *testing.T, s bot.VariantStore) {
	ctx := t.Context()
	if err := s.LockVariant(ctx, "g1", "v"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("locking a missing variant: %v, want ENOTFOUND", err)
	}
	if err := s.DefineVariants(ctx, []bot.DefinedVariant{defined("g1", "v", "u1"), defined("g1", "w", "u1")}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.LockVariant(ctx, "g1", "v"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RemoveVariant(ctx, "g1", "v"); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Errorf("removing a locked variant: %v, want ECONFLICT", err)
	}
	got, err := s.DefinedVariant(ctx, "g1", "v")
	if err != nil || !got.Locked {
		t.Errorf("after lock: %+v, %v; want it there, locked", got, err)
	}
	if err := s.RemoveVariant(ctx, "g1", "w"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DefinedVariant(ctx, "g1", "w"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("after remove: %v, want ENOTFOUND", err)
	}
	if err := s.RemoveVariant(ctx, "g1", "w"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("removing twice: %v, want ENOTFOUND", err)
	}
}

func testVariantRemoveConcurrently(t *testing.T, s bot.VariantStore) {
	ctx := t.Context()
	if err := s.DefineVariants(ctx, []bot.DefinedVariant{defined("g1", "v", "u1")}); err != nil {
		t.Fatal(err)
	}
	const n = 6
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.RemoveVariant(ctx, "g1", "v")
		}()
	}
	wg.Wait()
	removed := 0
	for _, err := range errs {
		switch {
		case err == nil:
			removed++
		case bot.ErrorCode(err) == bot.ENOTFOUND:
		default:
			t.Errorf("concurrent remove: %v", err)
		}
	}
	if removed != 1 {
		t.Errorf("%d of %d concurrent removes succeeded, want 1", removed, n)
	}
}

func testVariantInvalid(t *testing.T, s bot.VariantStore) {
	ctx := t.Context()
	for _, v := range []bot.DefinedVariant{defined("", "a", "u"), defined("g", "", "u"), defined("g", "a\x00b", "u"), {Server: "g", Name: "a"}} {
		if err := s.DefineVariants(ctx, []bot.DefinedVariant{defined("g", "ok", "u"), v}); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("defining %+v: %v, want EINVALID", v, err)
		}
	}
	if list, err := s.DefinedVariants(ctx, ""); err != nil || len(list) != 0 {
		t.Errorf("after invalid definitions: %+v, %v; want nothing stored", list, err)
	}
}
