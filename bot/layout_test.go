package bot_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the import path of the repository's module.
const module = "github.com/fairypost/fairypost"

// adapters are the packages under bot/ that serve people (commands and
// transports) and may import every feature; core is the game's life,
// which features are built on; every other package under bot/ is a
// feature.
var adapters = []string{"command", "console", "discord", "discordtest", "web"}

// core is the package of the game's life (its Service and write path).
const core = "gameplay"

// botPackages returns the directories of the packages under bot/ (this
// directory), bot itself excluded, by their path below it ("ratings",
// "command", ...).
func botPackages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == "." {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(path, 0); err == nil {
			dirs = append(dirs, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestFeaturesDoNotImportEachOther: dependencies point one way. Package
// bot (records, store interfaces, events) imports no package under bot/;
// the game's life (bot/gameplay) imports bot only in its code (its tests
// may drive it with a feature, as a bot does); a feature package under
// bot/ imports bot and bot/gameplay but no other package under bot/
// (neither a sibling feature nor an adapter), in its code or its tests.
func TestFeaturesDoNotImportEachOther(t *testing.T) {
	for dir, what := range map[string]string{".": "the root", core: "the game's life"} {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"/bot/") {
				t.Errorf("package bot/%s imports %s: %s must not depend on what is built on it", dir, imp, what)
			}
		}
	}
	dirs := botPackages(t)
	features := 0
	for _, dir := range dirs {
		if slices.Contains(adapters, strings.Split(dir, "/")[0]) || dir == core {
			continue
		}
		features++
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			if strings.HasPrefix(imp, module+"/bot/") && imp != module+"/bot/"+dir && imp != module+"/bot/"+core {
				t.Errorf("feature package bot/%s imports %s: features depend on bot only, never on each other", dir, imp)
			}
		}
	}
	if features < 2 {
		t.Errorf("found %d feature packages under bot/ (in %v): the walk is broken", features, dirs)
	}
}

// maxMethods is the most exported methods a type in bot/... may have.
const maxMethods = 30

// ceilings are the types over maxMethods that remain, by directory
// under bot/ and name, with the most exported methods each may still
// have; lower them as methods move out, and drop them at maxMethods.
var ceilings = map[string]int{
	// The fake Discord of the tests answers each REST route it serves
	// and lets a test read what it was sent: one method each.
	"discordtest/Server": 54,
}

// TestExportedMethodCounts: no type in bot/... has more than maxMethods
// exported methods, but those in ceilings, which have at most that.
func TestExportedMethodCounts(t *testing.T) {
	for _, dir := range append([]string{"."}, botPackages(t)...) {
		counts := map[string]int{}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			for _, f := range pkg.Files {
				for _, d := range f.Decls {
					fn, ok := d.(*ast.FuncDecl)
					if !ok || fn.Recv == nil || !fn.Name.IsExported() {
						continue
					}
					typ := fn.Recv.List[0].Type
					if star, ok := typ.(*ast.StarExpr); ok {
						typ = star.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						counts[id.Name]++
					}
				}
			}
		}
		for typ, n := range counts {
			limit, ok := ceilings[dir+"/"+typ]
			if !ok {
				limit = maxMethods
			}
			if n > limit {
				t.Errorf("bot/%s: %s has %d exported methods, more than %d", dir, typ, n, limit)
			}
			if testing.Verbose() && n > 10 {
				t.Logf("bot/%s: %s has %d exported methods", dir, typ, n)
			}
		}
	}
}

// TestOneWritePath: every update of a game in play goes through
// Service.updateGame (gameplay/round.go), so that what a move does is what
// updateGame runs: no other code in bot/... calls the stores'
// UpdateGame or UpdateGameRated.
func TestOneWritePath(t *testing.T) {
	for _, dir := range append([]string{"."}, botPackages(t)...) {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			for name, f := range pkg.Files {
				if dir == core && filepath.Base(name) == "round.go" {
					continue
				}
				ast.Inspect(f, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "UpdateGame" || sel.Sel.Name == "UpdateGameRated") {
						t.Errorf("%s: calls %s: a game changes through Service.updateGame only", fset.Position(call.Pos()), sel.Sel.Name)
					}
					return true
				})
			}
		}
	}
}

// noteNames are the only names in bot/... that say "note": those of the
// players' private notes on a game (/note, Service.AddNote), the one
// thing the word means here. The plain words note and notes name
// something only in a note.go file.
var noteNames = map[string]bool{"Note": true, "Notes": true, "NoteOf": true, "AddNote": true, "ClearNote": true, "MaxNoteLen": true,
	"cmdNote": true, "NoteStore": true, "noteStore": true, "UpdateNote": true, "notePlayer": true, "defineNote": true, "maxNoteLine": true, "noteMessages": true, "note": true, "notes": true}

// TestNoteMeansOneThing: "note" means a player's private note: no name
// in the code of bot/... (tests aside) says note for anything else
// (a notification, a remark on a move, a caption), and no string outside
// a note.go file says note.
func TestNoteMeansOneThing(t *testing.T) {
	word := regexp.MustCompile(`(?i)\bnotes?\b`)
	checked := 0
	for _, dir := range append([]string{"."}, botPackages(t)...) {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			for name, f := range pkg.Files {
				noteFile := filepath.Base(name) == "note.go"
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.Ident:
						low := strings.ToLower(n.Name)
						if !strings.Contains(low, "note") || strings.Contains(low, "notexist") { // os.ErrNotExist: not-exist
							return true
						}
						checked++
						if !noteNames[n.Name] || (n.Name == "note" || n.Name == "notes") && !noteFile {
							t.Errorf("%s: the name %s says note for something else than a player's private note", fset.Position(n.Pos()), n.Name)
						}
					case *ast.BasicLit:
						if n.Kind == token.STRING && !noteFile && word.MatchString(n.Value) {
							t.Errorf("%s: %s says note outside the notes' own files", fset.Position(n.Pos()), n.Value)
						}
					}
					return true
				})
			}
		}
	}
	if checked == 0 {
		t.Error("no name says note at all: the walk is broken (the private notes are named so)")
	}
}
