package gameplay_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
)

// TestEndPhraseAsksTheVariant: a reason of a variant's own rules is
// worded by the variant's definition, and only for that variant and
// outcome; without it the reason reads as unknown. Standard reasons read
// the same in every variant.
func TestEndPhraseAsksTheVariant(t *testing.T) {
	reg := testkit.Registry(t)
	ann, chess := reg.Default("annihilation"), reg.Default("chess")
	for _, c := range []struct {
		v      *rules.Variant
		r      bot.Result
		reason rules.Reason
		want   string
	}{
		{ann, bot.WhiteWins, "annihilation", ": the opponent has no pieces left"},
		{ann, bot.Draw, "consecutive passes", ": both players passed in a row"},
		{ann, bot.Draw, "annihilation", " (annihilation)"},
		{chess, bot.WhiteWins, "annihilation", " (annihilation)"},
		{nil, bot.WhiteWins, "annihilation", " (annihilation)"},
		{ann, bot.WhiteWins, rules.ReasonCheckmate, " by checkmate"},
		{nil, bot.BlackWins, gameplay.ReasonTimeout, " on time"},
		{chess, bot.Draw, rules.ReasonRepetition, " by repetition of the position"},
		{chess, bot.Draw, "", ""},
	} {
		if got := gameplay.EndPhrase(c.v, c.r, c.reason); got != c.want {
			t.Errorf("EndPhrase(%v, %s, %q) = %q, want %q", c.v != nil, c.r, c.reason, got, c.want)
		}
	}
}

// TestNoVariantReasonsInBotWording: no code of package bot names a
// reason a variant's definition declares (rules.Variant.EndReasons):
// those are worded by the variant, never by a case here.
func TestNoVariantReasonsInBotWording(t *testing.T) {
	reg := testkit.Registry(t)
	own := map[string]string{} // reason -> variant key
	for _, k := range reg.Keys() {
		for _, e := range reg.Default(k).EndReasons {
			own[string(e.Reason)] = k
		}
	}
	if len(own) == 0 {
		t.Fatal("no variant declares reasons of its own: the registry is not the one the bot plays")
	}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && own[s] != "" {
					t.Errorf("%s: %q is a reason of %s's own rules: word it in its definition (rules.Variant.EndReasons)", fset.Position(lit.Pos()), s, own[s])
				}
				return true
			})
		}
	}
}
