package command

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot/prefs"

	"github.com/fairypost/fairypost/internal/testkit"
)

// TestCommandList: commandList names every command the package defines
// (each define<Command> function, in its command's file) and nothing
// else; every listed command has a handler and a name of its own; and
// every handler method (a *Handler method taking a context and a
// Request, returning a Reply and an error) is the handler of a defined
// command. So a command cannot be defined and forgotten, listed without
// a handler, nor a handler written and never reachable.
func TestCommandList(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]*ast.FuncDecl{} // define<Command> functions by name
	handlers := map[string]bool{}         // handler methods by name
	methods := map[string]*ast.FuncDecl{} // *Handler methods by name
	for _, f := range pkgs["command"].Files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fn.Recv == nil && returnsType(fn.Type, "commandDef") {
				defined[fn.Name.Name] = fn
			}
			if fn.Recv != nil && isHandlerMethod(fn) {
				handlers[fn.Name.Name] = true
			}
			if fn.Recv != nil {
				methods[fn.Name.Name] = fn
			}
		}
	}
	if len(defined) < 20 || len(handlers) < 10 {
		t.Fatalf("found %d command definitions and %d handlers: the parse is broken", len(defined), len(handlers))
	}
	listed := map[string]bool{}
	for _, define := range commandList() {
		name := runtime.FuncForPC(reflect.ValueOf(define).Pointer()).Name()
		name = name[strings.LastIndex(name, ".")+1:]
		if listed[name] {
			t.Errorf("commandList names %s twice", name)
		}
		listed[name] = true
		if defined[name] == nil {
			t.Errorf("commandList names %s, which is not a command definition of the package", name)
		}
	}
	for name := range defined {
		if !listed[name] {
			t.Errorf("%s defines a command that commandList does not name: it is neither registered nor helped", name)
		}
	}
	// reached: the methods the definitions call, and those they call.
	reached := map[string]bool{}
	var reach func(body *ast.BlockStmt)
	reach = func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && !reached[sel.Sel.Name] && methods[sel.Sel.Name] != nil {
				reached[sel.Sel.Name] = true
				reach(methods[sel.Sel.Name].Body)
			}
			return true
		})
	}
	for _, fn := range defined {
		reach(fn.Body)
	}
	for name := range handlers {
		// execute is what runs the handlers (Execute, by the command's name).
		if !reached[name] && name != "execute" {
			t.Errorf("the handler (*Handler).%s is the handler of no listed command", name)
		}
	}

	db := testkit.OpenDB(t)
	svc := testkit.Service(t, db, testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	h := New(svc, prefs.New(svc, db), Options{})
	names := map[string]bool{}
	for _, c := range h.commands {
		if c.Name == "" || names[c.Name] {
			t.Errorf("command %q: no name, or a name given twice", c.Name)
		}
		names[c.Name] = true
		if c.run == nil {
			t.Errorf("/%s has no handler", c.Name)
		}
	}
	if len(h.commands) != len(commandList()) || len(h.Specs()) != len(h.commands) {
		t.Errorf("%d commands built and %d specs from a list of %d", len(h.commands), len(h.Specs()), len(commandList()))
	}
}

// returnsType reports whether ft returns one result, of the type named
// name.
func returnsType(ft *ast.FuncType, name string) bool {
	if ft.Results == nil || len(ft.Results.List) != 1 {
		return false
	}
	id, ok := ft.Results.List[0].Type.(*ast.Ident)
	return ok && id.Name == name
}

// isHandlerMethod reports whether fn is a method of *Handler of the
// shape of a command's handler: (context.Context, Request) (Reply, error).
func isHandlerMethod(fn *ast.FuncDecl) bool {
	star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	if id, ok := star.X.(*ast.Ident); !ok || id.Name != "Handler" {
		return false
	}
	var params, results []string
	for _, f := range fn.Type.Params.List {
		for range max(1, len(f.Names)) {
			params = append(params, types(f.Type))
		}
	}
	if fn.Type.Results != nil {
		for _, f := range fn.Type.Results.List {
			for range max(1, len(f.Names)) {
				results = append(results, types(f.Type))
			}
		}
	}
	return reflect.DeepEqual(params, []string{"context.Context", "Request"}) && reflect.DeepEqual(results, []string{"Reply", "error"})
}

// types writes a parameter's type as the source spells it, for the
// shapes isHandlerMethod compares.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return "?"
}
