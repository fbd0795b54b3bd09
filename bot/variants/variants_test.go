package variants_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/variants"
	"github.com/fairypost/fairypost/internal/testkit"
	"github.com/fairypost/fairypost/rules"
	"github.com/fairypost/fairypost/storage"
)

var ctx = context.Background()

// twoSections defines two variants at once, the second extending the
// first: a king that may be captured (extinction), and the same on a
// board with knights for bishops.
const twoSections = `[kingless:chess]
king = -
commoner = k
extinctionValue = loss
extinctionPieceTypes = k

[kingless2:kingless]
startFen = rnnqknnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKNNR w KQkq - 0 1
`

// env is the game's Service over a real bbolt file, with a registry of
// its own (defined variants must not leak into other tests), and the
// variants feature over the same file.
type env struct {
	db   *storage.DB
	svc  *gameplay.Service
	vars *variants.Service
}

func newEnvAt(t *testing.T, path string) *env {
	t.Helper()
	db := testkit.OpenDBAt(t, path)
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	c := testkit.NewClock(testkit.T0)
	svc := gameplay.NewService(testkit.Stores(db), reg, gameplay.Clock(c.Now), gameplay.Coin(func() bool { return true }))
	return &env{db: db, svc: svc, vars: variants.New(db, svc)}
}

// TestDefineChallengePlayLock: a variant defined on a server is
// challenged by name there (casual), a move is played, it is locked and
// its removal refused; another server sees nothing of it.
func TestDefineChallengePlayLock(t *testing.T) {
	e := newEnvAt(t, filepath.Join(t.TempDir(), "db"))
	made, err := e.vars.Define(ctx, "g1", "alice", twoSections)
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 2 || made[0].Name != "kingless" || made[1].Name != "kingless2" || made[0].Author != "alice" {
		t.Fatalf("defined %+v, want kingless and kingless2 by alice", made)
	}
	if got := e.vars.Names(ctx, "g1"); strings.Join(got, ",") != "kingless,kingless2" {
		t.Errorf("names on g1: %v", got)
	}
	if got := e.vars.Names(ctx, "g2"); len(got) != 0 {
		t.Errorf("another server sees %v", got)
	}
	if key, found, err := e.vars.Find(ctx, "g2", "kingless"); found || err != nil || key != "" {
		t.Errorf("challenging kingless on g2: %q %v %v, want not found", key, found, err)
	}
	if _, _, err := e.vars.Variant(ctx, "g2", "kingless"); bot.ErrorCode(err) != bot.ENOTFOUND {
		t.Errorf("showing kingless on g2: %v, want ENOTFOUND", err)
	}
	if slicesHas(e.svc.Rules().Keys(), variants.Key("g1", "kingless")) {
		t.Error("a server's variant is listed among fairypost's")
	}

	key, found, err := e.vars.Find(ctx, "g1", "kingless2")
	if err != nil || !found {
		t.Fatalf("Find: %v %v", found, err)
	}
	if d, _, _ := e.vars.Variant(ctx, "g1", "kingless2"); d.Locked {
		t.Fatal("kingless2 is locked before any challenge")
	}
	if err := e.vars.Lock(ctx, "g1", "kingless2"); err != nil {
		t.Fatal(err)
	}
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob",
		GuildID: "g1", ChannelID: "chan", Variant: key, DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{GuildID: "g1", ChannelID: "chan"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Rated {
		t.Error("a game of a defined variant is rated")
	}
	res, err := e.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e4", Version: bot.AnyVersion})
	if err != nil {
		t.Fatal(err)
	}
	if res.Game.Variant != key || len(res.Game.Moves) != 1 {
		t.Errorf("after e4: variant %q, %d moves", res.Game.Variant, len(res.Game.Moves))
	}
	d, _, err := e.vars.Variant(ctx, "g1", "kingless2")
	if err != nil || !d.Locked {
		t.Fatalf("kingless2 after its game: %+v %v, want locked", d, err)
	}
	if err := e.vars.Remove(ctx, "g1", "alice", "kingless2"); bot.ErrorCode(err) != bot.ECONFLICT || !strings.Contains(err.Error(), "new name") {
		t.Errorf("removing a locked variant: %v, want ECONFLICT telling to define it under a new name", err)
	}
	if err := e.vars.Remove(ctx, "g1", "bob", "kingless"); bot.ErrorCode(err) != bot.EFORBIDDEN {
		t.Errorf("bob removing alice's variant: %v, want EFORBIDDEN", err)
	}
	if err := e.vars.Remove(ctx, "g1", "alice", "kingless"); err != nil {
		t.Fatal(err)
	}
	if e.svc.Rules().Default(variants.Key("g1", "kingless")) != nil {
		t.Error("a removed variant is still registered")
	}
	if _, err := e.vars.Define(ctx, "g1", "bob", "[kingless2:chess]\n"); bot.ErrorCode(err) != bot.ECONFLICT {
		t.Errorf("defining a taken name: %v, want ECONFLICT", err)
	}
	// Another server may use the same name for its own variant.
	if _, err := e.vars.Define(ctx, "g2", "carol", "[kingless2:chess]\nstartFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\n"); err != nil {
		t.Fatalf("g2 defining its own kingless2: %v", err)
	}
	_, v1, _ := e.vars.Variant(ctx, "g1", "kingless2")
	_, v2, _ := e.vars.Variant(ctx, "g2", "kingless2")
	if v1 == nil || v2 == nil || v1.StartFEN == v2.StartFEN {
		t.Errorf("the two servers' kingless2 are not their own")
	}
}

// TestBadDefinitionChangesNothing: a definition with problems is refused
// with each problem's line, and nothing of it is stored or registered,
// not even its good sections; Check reports the same, changing nothing.
func TestBadDefinitionChangesNothing(t *testing.T) {
	e := newEnvAt(t, filepath.Join(t.TempDir(), "db"))
	const bad = "[good:chess]\n\n[broken:chess]\ncustomPiece1 = a:QQ!x\n\n[orphan:nosuchparent]\n"
	before := e.svc.Rules().Keys()
	_, err := e.vars.Define(ctx, "g1", "alice", bad)
	if bot.ErrorCode(err) != bot.EINVALID || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "line 6") {
		t.Fatalf("bad definition: %v, want EINVALID naming lines 4 and 6", err)
	}
	if vs, err := e.db.DefinedVariants(ctx, ""); err != nil || len(vs) != 0 {
		t.Errorf("stored after a refused definition: %+v %v", vs, err)
	}
	if e.svc.Rules().Default(variants.Key("g1", "good")) != nil || len(e.svc.Rules().Keys()) != len(before) {
		t.Error("a refused definition registered something")
	}
	c, err := e.vars.Check(ctx, "g1", bad)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Good) != 1 || c.Good[0] != "good" || len(c.Problems) < 2 || !strings.HasPrefix(c.Problems[0], "line 4") {
		t.Errorf("Check = %+v, want good compiling and problems from line 4", c)
	}
	if _, err := e.vars.Define(ctx, "", "alice", "[x:chess]\n"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("defining outside a server: %v", err)
	}
	if _, err := e.vars.Define(ctx, "g1", "alice", "just words\n"); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("defining no section: %v", err)
	}
	if vs, _ := e.db.DefinedVariants(ctx, ""); len(vs) != 0 {
		t.Errorf("stored: %+v", vs)
	}
}

// TestLoadAfterRestart: the definitions stored are registered again by a
// restarted bot (a new registry over the same file), and the game of one
// replays.
func TestLoadAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	e := newEnvAt(t, path)
	if _, err := e.vars.Define(ctx, "g1", "alice", twoSections); err != nil {
		t.Fatal(err)
	}
	key, _, err := e.vars.Find(ctx, "g1", "kingless2")
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob",
		GuildID: "g1", ChannelID: "chan", Variant: key, DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.svc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{GuildID: "g1", ChannelID: "chan"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	r := newEnvAt(t, path)
	if r.svc.Rules().Default(key) != nil {
		t.Fatal("a fresh registry knows the variant before Load")
	}
	if err := r.vars.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if r.svc.Rules().Default(key) == nil || r.svc.Rules().Default(variants.Key("g1", "kingless")) == nil {
		t.Fatal("Load did not register the stored definitions")
	}
	if _, err := r.svc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e4", Version: bot.AnyVersion}); err != nil {
		t.Fatalf("a move in the game after the restart: %v", err)
	}
}

func slicesHas(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// TestAnotherProcess: a variant defined by one process is played in
// another sharing the store (a second Service and registry over the same
// database), which never loaded it: the registry asks the store.
func TestAnotherProcess(t *testing.T) {
	a := newEnvAt(t, filepath.Join(t.TempDir(), "db"))
	reg, err := rules.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	bsvc := gameplay.NewService(testkit.Stores(a.db), reg, gameplay.Clock(testkit.NewClock(testkit.T0).Now))
	variants.New(a.db, bsvc)
	if _, err := a.vars.Define(ctx, "g1", "alice", twoSections); err != nil {
		t.Fatal(err)
	}
	key, _, err := a.vars.Find(ctx, "g1", "kingless")
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.svc.Challenges().Challenge(ctx, gameplay.ChallengeRequest{Challenger: "alice", Challenged: "bob",
		GuildID: "g1", ChannelID: "chan", Variant: key, DaysPerMove: 3, Color: bot.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := bsvc.Challenges().Accept(ctx, c.ID, c.Version, "bob", bot.Where{GuildID: "g1", ChannelID: "chan"})
	if err != nil {
		t.Fatalf("accepting in the other process: %v", err)
	}
	if _, err := bsvc.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: "alice", Move: "e4", Version: bot.AnyVersion}); err != nil {
		t.Fatalf("a move in the other process: %v", err)
	}
	if _, err := reg.Variant(variants.Key("g2", "kingless"), ""); err == nil {
		t.Error("another server's key resolved")
	}
}

// TestDefineConcurrently: of several members defining the same name at
// once on a server, exactly one does; the others are told it is taken.
func TestDefineConcurrently(t *testing.T) {
	e := newEnvAt(t, filepath.Join(t.TempDir(), "db"))
	const n = 6
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := e.vars.Define(ctx, "g1", fmt.Sprint("u", i), "[same:chess]\n")
			errs <- err
		}()
	}
	ok := 0
	for range n {
		switch err := <-errs; {
		case err == nil:
			ok++
		case bot.ErrorCode(err) != bot.ECONFLICT:
			t.Errorf("a concurrent define: %v, want ECONFLICT", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d concurrent defines succeeded, want 1", ok, n)
	}
	if vs, err := e.db.DefinedVariants(ctx, "g1"); err != nil || len(vs) != 1 {
		t.Errorf("stored %+v, %v; want one", vs, err)
	}
}
