package rules_test

import (
	"testing"

	"github.com/fairypost/fairypost/rules"
)

// TestEndReasons: the reasons a variant declares are its own (no
// standard reason, none twice for one outcome), each worded, and
// EndPhrase words them for that outcome only.
func TestEndReasons(t *testing.T) {
	standard := map[rules.Reason]bool{rules.ReasonCheckmate: true, rules.ReasonStalemate: true, rules.ReasonKingCaptured: true,
		rules.ReasonBothKingsCaptured: true, rules.ReasonRepetition: true, rules.ReasonMoveCount: true, rules.ReasonInsufficientMaterial: true}
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, k := range reg.Keys() {
		v := reg.Default(k)
		seen := map[rules.EndReason]bool{}
		for _, e := range v.EndReasons {
			declared++
			if standard[e.Reason] || e.Reason == "" || e.Phrase == "" {
				t.Errorf("%s declares %+v: a standard reason, or no reason or words", k, e)
			}
			key := rules.EndReason{Reason: e.Reason, Draw: e.Draw}
			if seen[key] {
				t.Errorf("%s declares %q twice", k, e.Reason)
			}
			seen[key] = true
		}
		for key := range seen {
			phrase, ok := v.EndPhrase(key.Reason, key.Draw)
			if !ok || phrase == "" {
				t.Errorf("%s: EndPhrase(%q, %v) = %q, %v", k, key.Reason, key.Draw, phrase, ok)
			}
			if _, ok := v.EndPhrase(key.Reason, !key.Draw); ok != seen[rules.EndReason{Reason: key.Reason, Draw: !key.Draw}] {
				t.Errorf("%s: EndPhrase(%q, %v) words an outcome the variant does not declare", k, key.Reason, !key.Draw)
			}
		}
		if _, ok := v.EndPhrase(rules.ReasonCheckmate, false); ok {
			t.Errorf("%s words checkmate itself", k)
		}
	}
	if declared == 0 {
		t.Error("no variant declares a reason of its own")
	}
}
