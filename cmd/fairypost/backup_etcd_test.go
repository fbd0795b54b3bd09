package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// dumpFile reads every record of the database file at path.
func dumpFile(t *testing.T, path string) *storage.Dump {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := db.Dump(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// verifyFile checks that the database file at path holds exactly d.
func verifyFile(t *testing.T, d *storage.Dump, path string) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := storage.Verify(context.Background(), d, db.Stores()); err != nil {
		t.Errorf("%s: %v", path, err)
	}
}

// TestBackupEtcd: "fairypost backup -from etcd:..." writes the records of
// a prefix into a database file that holds exactly what etcd held, also
// with -config naming an etcd backend; a copy made while another client
// writes is of one moment (every challenge written with its
// notification in one transaction has it in the copy, and no
// notification is without its challenge); the copy restores into another
// prefix with migrate.
func TestBackupEtcd(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	fixture := migrateFixture(t)
	want := dumpFile(t, fixture)
	eps := "etcd:" + strings.Join(c.Endpoints, ",")
	if r := run(t, "migrate", "-from", "bolt:"+fixture, "-to", eps, "-prefix", "live/"); r.code != exitOK {
		t.Fatalf("migrate: exit %d, stderr %q", r.code, r.stderr)
	}
	dir := t.TempDir()
	copy1 := filepath.Join(dir, "copy1.db")
	r := run(t, "backup", "-from", eps, "-prefix", "live/", "-o", copy1)
	if r.code != exitOK || !strings.HasPrefix(r.stdout, copy1+": ") || !strings.Contains(r.stdout, "22 games, 30 challenges") ||
		!strings.Contains(r.stdout, "7 ratings with 12 rated results, 2 tournaments") {
		t.Fatalf("backup: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	verifyFile(t, want, copy1)

	// The same through the bot's configuration file.
	cfg := filepath.Join(dir, "bot.toml")
	if err := os.WriteFile(cfg, []byte(etcdConfig(c, "live/")), 0o600); err != nil {
		t.Fatal(err)
	}
	copy2 := filepath.Join(dir, "copy2.db")
	if r := run(t, "backup", "-config", cfg, "-o", copy2); r.code != exitOK {
		t.Fatalf("backup -config: exit %d, stderr %q", r.code, r.stderr)
	}
	verifyFile(t, want, copy2)

	// While another client writes.
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "live/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var written atomic.Int64
	for range 8 {
		wg.Go(func() {
			for ctx.Err() == nil {
				to := fmt.Sprint("w", written.Add(1)+1)
				ch := &bot.Challenge{Challenger: "w1", Challenged: to, Variant: "chess", DaysPerMove: 3, Color: bot.ColorWhite,
					Status: bot.ChallengePending, Expires: time.Now().Add(time.Hour)}
				if err := s.CreateChallenge(ctx, ch, []bot.Notification{{Kind: bot.NotifyChallengeReceived, UserID: to,
					Text: "written with the challenge to " + to}}); err != nil {
					return
				}
			}
		})
	}
	copy3 := filepath.Join(dir, "copy3.db")
	// Let a few land first, so the copy is made in the middle of them.
	for n := 0; n < 5; time.Sleep(5 * time.Millisecond) {
		cs, err := s.ChallengesByUser(context.Background(), "w1")
		if err != nil {
			t.Fatal(err)
		}
		n = len(cs)
	}
	r = run(t, "backup", "-from", eps, "-prefix", "live/", "-o", copy3)
	stop()
	wg.Wait()
	if r.code != exitOK {
		t.Fatalf("backup while writing: exit %d, stderr %q", r.code, r.stderr)
	}
	got := dumpFile(t, copy3)
	challenges, notes := map[string]bool{}, map[string]bool{}
	for _, ch := range got.Challenges {
		if ch.Challenger == "w1" {
			challenges[ch.Challenged] = true
		}
	}
	for _, n := range got.Outbox {
		if to, ok := strings.CutPrefix(n.Text, "written with the challenge to "); ok {
			notes[to] = true
			if !challenges[to] {
				t.Errorf("the notification of the challenge to %s is in the copy without the challenge", to)
			}
		}
	}
	for to := range challenges {
		if !notes[to] {
			t.Errorf("the challenge to %s is in the copy without the notification written with it", to)
		}
	}
	if len(notes) != len(challenges) || len(challenges) == 0 || int64(len(challenges)) >= written.Load() {
		t.Errorf("the copy holds %d of the writer's challenges and %d of its notifications (%d written in all); want as many of each, some but not all",
			len(challenges), len(notes), written.Load())
	}

	// The copy restores into an empty prefix.
	if r := run(t, "migrate", "-from", "bolt:"+copy1, "-to", eps, "-prefix", "restored/"); r.code != exitOK {
		t.Fatalf("restore: exit %d, stderr %q", r.code, r.stderr)
	}
	back, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, Prefix: "restored/"})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if err := storage.Verify(context.Background(), want, back.Stores()); err != nil {
		t.Errorf("restored: %v", err)
	}
}

func TestBackupEtcdBadInput(t *testing.T) {
	dir := t.TempDir()
	db := migrateFixture(t)
	cfg := filepath.Join(dir, "c.toml")
	os.WriteFile(cfg, []byte("[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = [\"http://127.0.0.1:9\"]\ndial_timeout = \"200ms\"\n"), 0o600)
	out := filepath.Join(dir, "c.db")
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"-db", db, "-from", "etcd:http://a", "-o", out}, "-db and -from: give one source", exitBadInput},
		{[]string{"-from", "bolt:" + db, "-o", out}, "a file with -db FILE", exitBadInput},
		{[]string{"-from", "etcd:", "-o", out}, "-from etcd: names no member", exitBadInput},
		{[]string{"-from", "etcd:http://a", "-prefix=", "-o", out}, "-prefix must not be empty", exitBadInput},
		{[]string{"-from", "etcd:http://a", "-etcd-cert", "c.pem", "-o", out}, "-etcd-cert and -etcd-key go together", exitBadInput},
		{[]string{"-from", "etcd:http://a", "-etcd-user", "root", "-o", out}, "set the password in the environment variable " + etcdPasswordEnv, exitBadInput},
		{[]string{"-from", "etcd:http://a", "-o", dir}, "is a folder", exitBadInput},
		{[]string{"-config", cfg, "-o", out}, "etcd http://127.0.0.1:9", exitInternal},
	} {
		t.Setenv(etcdPasswordEnv, "")
		r := run(t, append([]string{"backup"}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("backup %q: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("backup %q left %s", c.args, out)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestMigrateTLSAuth: migrate and backup reach a cluster that serves TLS,
// requires a client certificate and has authentication on, with the
// -etcd-* flags (the password from the environment) or with the bot's
// configuration file; without the certificate or with a wrong password
// they are refused.
func TestMigrateTLSAuth(t *testing.T) {
	certs := etcdtest.IssueCerts(t)
	c := etcdtest.Start(t, 1, etcdtest.Options{CertFile: certs.ServerCert, KeyFile: certs.ServerKey, ClientCAFile: certs.CA})
	tc, err := etcdstore.TLSConfig(certs.ClientCert, certs.ClientKey, certs.CA)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints, TLS: tc, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	if _, err := admin.UserAdd(ctx, "root", "s3cret"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.UserGrantRole(ctx, "root", "root"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.AuthEnable(ctx); err != nil {
		t.Fatal(err)
	}
	fixture := migrateFixture(t)
	want := dumpFile(t, fixture)
	eps := "etcd:" + strings.Join(c.Endpoints, ",")
	tlsFlags := []string{"-etcd-cert", certs.ClientCert, "-etcd-key", certs.ClientKey, "-etcd-ca", certs.CA}

	t.Setenv(etcdPasswordEnv, "s3cret")
	r := run(t, "migrate", "-from", "bolt:"+fixture, "-to", eps, "-prefix", "tls/")
	if r.code == exitOK {
		t.Fatal("migrate without the client certificate succeeded")
	}
	r = run(t, append([]string{"migrate", "-from", "bolt:" + fixture, "-to", eps, "-prefix", "tls/", "-etcd-user", "root"}, tlsFlags...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, "verified") {
		t.Fatalf("migrate over TLS as root: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	t.Setenv(etcdPasswordEnv, "wrong")
	r = run(t, append([]string{"migrate", "-from", "bolt:" + fixture, "-to", eps, "-prefix", "tls2/", "-etcd-user", "root"}, tlsFlags...)...)
	if r.code == exitOK || !strings.Contains(r.stderr, "authentication failed") {
		t.Errorf("migrate with a wrong password: exit %d, stderr %q", r.code, r.stderr)
	}

	// The bot's configuration file gives it all; "etcd:" is its endpoints.
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bot.toml")
	text := fmt.Sprintf("[storage]\nbackend = \"etcd\"\n[storage.etcd]\nendpoints = [%q]\nprefix = \"tls/\"\ncert_file = %q\nkey_file = %q\nca_file = %q\nusername = \"root\"\npassword = \"s3cret\"\n",
		c.Endpoints[0], certs.ClientCert, certs.ClientKey, certs.CA)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	back := filepath.Join(dir, "back.db")
	if r := run(t, "migrate", "-config", cfg, "-from", "etcd:", "-to", "bolt:"+back); r.code != exitOK || !strings.Contains(r.stdout, `(prefix "tls/")`) {
		t.Fatalf("migrate -config: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	verifyFile(t, want, back)
	copyPath := filepath.Join(dir, "copy.db")
	if r := run(t, "backup", "-config", cfg, "-o", copyPath); r.code != exitOK {
		t.Fatalf("backup -config: exit %d, stderr %q", r.code, r.stderr)
	}
	verifyFile(t, want, copyPath)
}

// TestBackupConfigBolt: "fairypost backup -config FILE" copies the
// database file the configuration's storage.path names when its backend
// is bolt.
func TestBackupConfigBolt(t *testing.T) {
	fixture := migrateFixture(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bot.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[storage]\npath = %q\n", fixture)), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "copy.db")
	if r := run(t, "backup", "-config", cfg, "-o", out); r.code != exitOK || !strings.HasPrefix(r.stdout, out+": ") {
		t.Fatalf("backup -config: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	verifyFile(t, dumpFile(t, fixture), out)
}
