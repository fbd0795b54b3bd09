package rules

import (
	"fmt"
	"slices"
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
