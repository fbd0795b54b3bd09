package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnnotateJSON checks the shape of "annotate -format json" on the
// fool's mate: one line, every field, g4 a blunder with a better move,
// Black's mate ending the game, White less accurate than Black.
func TestAnnotateJSON(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	r := runIn(t, "", "annotate", "-db", db, "-game", "1", "-level", "3", "-format", "json")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("want one line of JSON, got %q", r.stdout)
	}
	var got annotationJSON
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if got.ID != 1 || got.Variant != "chess" || got.Level != 3 || got.Scale <= 0 || len(got.Plies) != 4 {
		t.Fatalf("id %d variant %q level %d scale %g, %d plies: want 1, chess, 3, a scale, 4 plies", got.ID, got.Variant, got.Level, got.Scale, len(got.Plies))
	}
	for i, want := range []string{"f3", "e5", "g4", "Qh4#"} {
		if p := got.Plies[i]; p.Ply != i+1 || p.Move != want {
			t.Errorf("ply %d: %d %q, want %d %q", i, p.Ply, p.Move, i+1, want)
		}
	}
	if g4 := got.Plies[2]; g4.Judgement != "blunder" || g4.Best == "" || g4.Eval != nil || g4.Mate != -1 || g4.WhiteWin > 5 {
		t.Errorf("g4: %+v: want a blunder with a better move, Black mating in 1, White's chances near 0", g4)
	}
	if qh4 := got.Plies[3]; qh4.Result != "0-1" || qh4.Judgement != "" || qh4.Best != "" || qh4.Eval != nil {
		t.Errorf("Qh4#: %+v: want the result 0-1, unjudged", qh4)
	}
	if e5 := got.Plies[1]; e5.Eval == nil || e5.Judgement != "" || e5.Best != "" {
		t.Errorf("e5: %+v: want an evaluation, unjudged", e5)
	}
	if got.Accuracy.White == nil || got.Accuracy.Black == nil || *got.Accuracy.White >= *got.Accuracy.Black {
		t.Errorf("accuracy %v %v: want both, White's below Black's", got.Accuracy.White, got.Accuracy.Black)
	}
	// Every field is there, even when empty (a stable shape).
	var raw map[string]any
	json.Unmarshal([]byte(r.stdout), &raw)
	for _, k := range []string{"id", "variant", "options", "level", "scale", "accuracy", "plies"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("field %q missing: %s", k, r.stdout)
		}
	}
	ply := raw["plies"].([]any)[0].(map[string]any)
	for _, k := range []string{"ply", "move", "eval", "white_win", "judgement", "best"} {
		if _, ok := ply[k]; !ok {
			t.Errorf("ply field %q missing: %v", k, ply)
		}
	}
}

// TestAnnotatePGN checks the annotated PGN of the fool's mate: the tags,
// an [%eval] after every move, g4's glyph, lichess's comment and the
// engine's line as a variation.
func TestAnnotatePGN(t *testing.T) {
	t.Parallel()
	db, _ := playedDB(t)
	r := runIn(t, "", "annotate", "-db", db, "-game", "1", "-level", "3")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{`[White "alice"]`, `[Result "0-1"]`, `[Annotator "fairypost analysis, level 3 (3000 positions a search)`,
		`[WhiteAccuracy "`, `[BlackAccuracy "`, "2. g4?? {[%eval #-1] (", "→ #-1) Checkmate is now unavoidable.", "was best.} (2. ",
		"Qh4# {[%eval 0-1]} 0-1"} {
		// Movetext lines wrap anywhere between words.
		if !strings.Contains(strings.ReplaceAll(r.stdout, "\n", " "), want) {
			t.Errorf("PGN lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "[%eval "); n != 4 {
		t.Errorf("%d [%%eval] comments, want 4 (one a move):\n%s", n, r.stdout)
	}
	_, movetext, _ := strings.Cut(r.stdout, "\n\n")
	for _, line := range strings.Split(movetext, "\n") {
		if len(line) > 80 {
			t.Errorf("line longer than 80: %q", line)
		}
	}
}

// TestAnnotateRefusals checks the refusals, exit status 2 with a
// message: a game still being played, an unknown game, a bad level or
// format.
func TestAnnotateRefusals(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "fp.db")
	r := runIn(t, "as alice /challenge @bob variant:chess color:white\nas bob /accept\nas alice /move e4\n", "console", "-db", db, "-images", filepath.Join(t.TempDir(), "b"))
	if r.code != 0 {
		t.Fatalf("console: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "1"}, "game 1 is still being played"},
		{[]string{"-game", "9"}, "9"},
		{[]string{"-game", "1", "-level", "9"}, "-level 9: want 1..8"},
		{[]string{"-game", "1", "-format", "txt"}, "want pgn or json"},
		{[]string{}, "-game ID is required"},
	} {
		r := runIn(t, "", append([]string{"annotate", "-db", db}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("annotate %v: exit %d, stderr %q, stdout %q: want 2 and %q", c.args, r.code, r.stderr, r.stdout, c.want)
		}
	}
}
