package rules

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// renamed returns a constructor of chess under key.
func renamed(key string) Constructor {
	return func(opts map[string]string) (*Variant, error) {
		v, err := newChess(opts)
		if err != nil {
			return nil, err
		}
		v.Key = key
		return v, nil
	}
}

// TestRegisterUnlisted: an unlisted variant resolves by its key but is
// not in Keys; Unregister forgets it, and the key may be registered
// again.
func TestRegisterUnlisted(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	before := r.Keys()
	if err := r.RegisterUnlisted("mine@g1", renamed("mine@g1")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Keys(), before) {
		t.Errorf("Keys after an unlisted register: %v, want %v", r.Keys(), before)
	}
	if v, err := r.Variant("mine@g1", ""); err != nil || v.Key != "mine@g1" {
		t.Fatalf("Variant(mine@g1) = %v, %v", v, err)
	}
	if err := r.RegisterUnlisted("mine@g1", renamed("mine@g1")); err == nil {
		t.Error("registering a key twice was accepted")
	}
	r.Unregister("mine@g1")
	if r.Default("mine@g1") != nil {
		t.Error("Default of an unregistered key is not nil")
	}
	if _, err := r.Variant("mine@g1", ""); err == nil {
		t.Error("an unregistered key still resolves")
	}
	if err := r.RegisterUnlisted("mine@g1", renamed("mine@g1")); err != nil {
		t.Errorf("registering again after Unregister: %v", err)
	}
	r.Unregister("chess")
	if slices.Contains(r.Keys(), "chess") {
		t.Error("an unregistered listed key is still listed")
	}
}

// TestRegisterWhileResolving registers and unregisters variants while
// others resolve (run under -race, package rules' race tests).
func TestRegisterWhileResolving(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			key := fmt.Sprintf("v%d@g", i)
			for range 5 {
				if err := r.RegisterUnlisted(key, renamed(key)); err != nil {
					t.Error(err)
					return
				}
				r.Unregister(key)
			}
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := r.Variant("chess", ""); err != nil {
					t.Error(err)
				}
				_ = r.Keys()
			}
		}()
	}
	wg.Wait()
}

// TestOnUnknown: a key the registry does not know is offered to the
// OnUnknown function, which may register it; the lookup then succeeds.
func TestOnUnknown(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	r.OnUnknown(func(key string) {
		asked = append(asked, key)
		if key == "late@g1" {
			if err := r.RegisterUnlisted(key, renamed(key)); err != nil {
				t.Error(err)
			}
		}
	})
	if v, err := r.Variant("late@g1", ""); err != nil || v.Key != "late@g1" {
		t.Fatalf("Variant(late@g1) = %v, %v", v, err)
	}
	if _, err := r.Variant("never", ""); err == nil {
		t.Error("a key OnUnknown does not register resolved")
	}
	if _, err := r.Variant("chess", ""); err != nil {
		t.Fatal(err)
	}
	if strings.Join(asked, ",") != "late@g1,never" {
		t.Errorf("asked for %v, want late@g1 then never", asked)
	}
}
