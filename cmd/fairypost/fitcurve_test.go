package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitcurve checks "fitcurve": two self-play games give pairs and a
// scale on the last line, the pairs written fit again to the same scale,
// and bad input is refused with exit status 2.
func TestFitcurve(t *testing.T) {
	t.Parallel()
	samples := filepath.Join(t.TempDir(), "pairs.txt")
	r := runIn(t, "", "fitcurve", "-variant", "chess", "-games", "2", "-level", "1", "-samples", samples)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "scale 0.") || !strings.Contains(lines[0], "chess: 2 games at level 1") {
		t.Fatalf("output %q: want the counts first and \"scale K\" last", r.stdout)
	}
	data, err := os.ReadFile(samples)
	if err != nil || len(data) == 0 {
		t.Fatalf("samples file: %v, %d bytes", err, len(data))
	}
	again := runIn(t, "", "fitcurve", "-games", "0", "-samples", samples)
	if again.code != 0 || !strings.HasSuffix(strings.TrimSpace(again.stdout), last) {
		t.Errorf("refit: exit %d, %q: want the same %q", again.code, again.stdout, last)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-games", "0"}, "give -samples"},
		{[]string{"-variant", "chess", "-level", "9"}, "-level must be 1..8"},
		{[]string{"-variant", "nope"}, "nope"},
		{[]string{"-games", "3"}, "-variant is required"},
		{[]string{"-games", "0", "-samples", filepath.Join(t.TempDir(), "missing")}, "-samples"},
	} {
		r := runIn(t, "", append([]string{"fitcurve"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("fitcurve %v: exit %d, stderr %q: want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
