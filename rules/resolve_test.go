package rules_test

import (
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// TestResolveCanonical: Registry.Resolve returns the variant Variant
// returns and the one canonical form of its options: keys sorted,
// spaces gone, options at their default left out; the same form however
// the options were written. Bad options are refused with no form.
func TestResolveCanonical(t *testing.T) {
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, options, want string }{
		{"chess", "", ""},
		{"winning", "ranks=8", ""},
		{"winning", " ranks = 10 ", "ranks=10"},
		{"easymate", "tigers=on,queencastle=both", "queencastle=both,tigers=on"},
		{"easymate", "penalty=off, tigers=on ,queencastle=both", "queencastle=both,tigers=on"},
		{"easymate", "queencastle=off,penalty=off,tigers=off", ""},
	} {
		v, canonical, err := reg.Resolve(c.key, c.options)
		if err != nil || canonical != c.want {
			t.Errorf("Resolve(%s, %q) = %q, %v; want %q", c.key, c.options, canonical, err, c.want)
			continue
		}
		same, err := reg.Variant(c.key, c.want)
		if err != nil || same != v {
			t.Errorf("Resolve(%s, %q) is not the variant of its canonical options %q: %v", c.key, c.options, c.want, err)
		}
		if again, canonicalAgain, _ := reg.Resolve(c.key, canonical); again != v || canonicalAgain != canonical {
			t.Errorf("Resolve(%s, %q) is not its own canonical form: %q", c.key, canonical, canonicalAgain)
		}
	}
	for _, c := range []struct{ key, options string }{
		{"nosuch", ""}, {"chess", "ranks=10"}, {"winning", "ranks=9"}, {"winning", "ranks=10,ranks=10"}, {"easymate", "tigers=on queencastle=both"},
	} {
		if v, canonical, err := reg.Resolve(c.key, c.options); err == nil || v != nil || canonical != "" {
			t.Errorf("Resolve(%s, %q) = %v, %q, %v; want an error and nothing else", c.key, c.options, v != nil, canonical, err)
		}
	}
}
