package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/render"
	"github.com/pelletier/go-toml/v2"
)

// configKeys lists every TOML key of the Config struct as "table.key".
func configKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	ct := reflect.TypeOf(Config{})
	for i := range ct.NumField() {
		table := ct.Field(i)
		tname := table.Tag.Get("toml")
		if tname == "" || table.Type.Kind() != reflect.Struct {
			t.Fatalf("Config.%s: every top-level field must be a tagged table", table.Name)
		}
		for j := range table.Type.NumField() {
			f := table.Type.Field(j)
			k := f.Tag.Get("toml")
			if k == "" {
				t.Fatalf("Config.%s.%s has no toml tag", table.Name, f.Name)
			}
			keys = append(keys, tname+"."+k)
		}
	}
	return keys
}

// TestExampleDocumentsEveryKey checks that config.example.toml sets every
// key of Config, each to its default, with a comment above it, and that it
// loads.
func TestExampleDocumentsEveryKey(t *testing.T) {
	path := filepath.Join("..", "..", "config.example.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
	for _, k := range configKeys(t) {
		table, key, _ := strings.Cut(k, ".")
		if _, ok := doc[table][key]; !ok {
			t.Errorf("config.example.toml does not document %s", k)
		}
	}
	// Every key in the example has a comment line right above it.
	lines := strings.Split(string(data), "\n")
	for n, l := range lines {
		if strings.Contains(l, " = ") && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			if n == 0 || !strings.HasPrefix(strings.TrimSpace(lines[n-1]), "#") {
				t.Errorf("config.example.toml line %d %q has no comment above it", n+1, l)
			}
		}
	}
	// The values shown are the defaults.
	cfg, err := loadConfig(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("loading the example: %v", err)
	}
	if want := defaultConfig(); !reflect.DeepEqual(cfg, want) {
		t.Errorf("the example's values differ from the defaults:\n got %+v\nwant %+v", cfg, want)
	}
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fairypost.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfig(t *testing.T) {
	p := writeConfig(t, `
[discord]
token = "abc"
api_url = "http://127.0.0.1:9"
guild_id = "42"
defer_after = "200ms"

[storage]
path = "x.db"
timeout = "3s"

[render]
board_size = 400

[log]
level = "debug"
format = "json"
`)
	cfg, err := loadConfig(p, func(string) string { return "from-env" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Discord.Token != "abc" || cfg.Discord.APIURL != "http://127.0.0.1:9" || cfg.Discord.GuildID != "42" ||
		cfg.Discord.DeferAfter.D() != 200*time.Millisecond || cfg.Storage.Path != "x.db" ||
		cfg.Storage.Timeout.D() != 3*time.Second || cfg.Render.BoardSize != 400 ||
		cfg.Log.Level != "debug" || cfg.Log.Format != "json" {
		t.Errorf("loaded %+v", cfg)
	}
	// Keys left out keep their defaults.
	if cfg.Console.Images != defaultImagesDir || cfg.Discord.ShutdownTimeout.D() != 10*time.Second {
		t.Errorf("defaults lost: %+v", cfg)
	}
}

// TestShardConfig: shard_id and shard_count are read, one shard by
// default, and reach the bot's options as they are.
func TestShardConfig(t *testing.T) {
	cfg, err := loadConfig("", nil)
	if err != nil || cfg.Discord.ShardID != 0 || cfg.Discord.ShardCount != 1 {
		t.Fatalf("defaults: shard %d of %d, err %v", cfg.Discord.ShardID, cfg.Discord.ShardCount, err)
	}
	cfg, err = loadConfig(writeConfig(t, "[storage]\nbackend = \"etcd\"\n[discord]\nshard_id = 2\nshard_count = 3\n"), nil)
	if err != nil || cfg.Discord.ShardID != 2 || cfg.Discord.ShardCount != 3 {
		t.Fatalf("shard %d of %d, err %v; want 2 of 3", cfg.Discord.ShardID, cfg.Discord.ShardCount, err)
	}
}

func TestTokenFromEnvironment(t *testing.T) {
	env := func(k string) string {
		if k == "DISCORD_TOKEN" {
			return " secret\n"
		}
		return ""
	}
	cfg, err := loadConfig("", env)
	if err != nil || cfg.Discord.Token != "secret" {
		t.Fatalf("token %q, err %v", cfg.Discord.Token, err)
	}
	// The file's token wins over the environment.
	cfg, err = loadConfig(writeConfig(t, "[discord]\ntoken = \"file\"\n"), env)
	if err != nil || cfg.Discord.Token != "file" {
		t.Fatalf("token %q, err %v", cfg.Discord.Token, err)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // substrings of the one-line error
	}{
		{"unknown key", "[discord]\ntoken = \"x\"\ntokne = \"y\"\n", []string{"line 3", `unknown key "discord.tokne"`}},
		{"unknown table", "[storage]\npath = \"a.db\"\n\n[render2]\nsize = 3\n", []string{"line 4", "render2"}},
		{"wrong type", "[render]\nboard_size = \"big\"\n", []string{"line 2", "board_size"}},
		{"syntax", "[discord\ntoken = 1\n", []string{"line 1"}},
		{"bad duration", "[storage]\ntimeout = \"soon\"\n", []string{"line 2", "storage.timeout", "duration"}},
		{"bad level", "[log]\nformat = \"text\"\nlevel = \"loud\"\n", []string{"line 3: log.level", "loud"}},
		{"bad format", "[log]\nformat = \"xml\"\n", []string{"line 2: log.format", "xml"}},
		{"bad size", "# images\n[render]\n\nboard_size = 5\n", []string{"line 4: render.board_size", "choose 160 to 2400"}},
		{"bad vacation", "[play]\nvacation_days = 400\n", []string{"line 2: play.vacation_days", "choose 0 to 366"}},
		{"bad computer workers", "[play]\ncomputer_workers = 0\n", []string{"line 2: play.computer_workers", "choose 1 to 64"}},
		{"bad analyses at once", "[play]\nanalysis_at_once = 9\n", []string{"line 2: play.analysis_at_once", "choose 1 to 8"}},
		{"bad analyses per day", "[play]\nanalysis_per_day = 0\n", []string{"line 2: play.analysis_per_day", "choose 1 to 100"}},
		{"dotted key", "render.board_size = 9999\n", []string{"line 1: render.board_size"}},
		{"quoted key", "[log]\n\"level\" = \"x\"\n", []string{"line 2: log.level"}},
		{"empty path", "[storage]\npath = \"\"\n", []string{"line 2: storage.path"}},
		{"bad url", "[discord]\napi_url = \"localhost:80\"\n", []string{"line 2: discord.api_url"}},
		{"slow defer", "[discord]\ndefer_after = \"5s\"\n", []string{"line 2: discord.defer_after"}},
		{"shard id at the count", "[storage]\nbackend = \"etcd\"\n[discord]\nshard_count = 2\nshard_id = 2\n",
			[]string{"line 5: discord.shard_id", "2: choose 0 to 1"}},
		{"negative shard id", "[discord]\nshard_id = -1\n", []string{"line 2: discord.shard_id", "choose 0 to 0"}},
		{"no shards", "[discord]\nshard_count = 0\n", []string{"line 2: discord.shard_count", "at least 1"}},
		{"shards on a file", "[discord]\nshard_count = 2\nshard_id = 1\n",
			[]string{"line 2: discord.shard_count", `storage.backend = "etcd"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeConfig(t, c.text)
			_, err := loadConfig(p, nil)
			if err == nil {
				t.Fatal("no error")
			}
			var in inputError
			if !errors.As(err, &in) {
				t.Errorf("error %v is not bad input (exit 2)", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error has several lines: %q", msg)
			}
			for _, w := range append(c.want, p) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// TestRunConfigErrorExit2 runs "fairypost run -config FILE" with a broken
// file: one line on stderr, exit status 2.
func TestRunConfigErrorExit2(t *testing.T) {
	p := writeConfig(t, "[discord]\nbogus = 1\n")
	r := run(t, "run", "-config", p)
	if r.code != exitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, `unknown key "discord.bogus"`) {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "-config", filepath.Join(t.TempDir(), "missing.toml"))
	if r.code != exitBadInput || !strings.Contains(r.stderr, "missing.toml") {
		t.Errorf("missing file: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestBoardSizeLimitsAgree: the sizes render -size accepts are those
// render.board_size accepts.
func TestBoardSizeLimitsAgree(t *testing.T) {
	for _, size := range []int{render.MinSize - 1, render.MinSize, render.MaxSize, render.MaxSize + 1} {
		_, cfgErr := loadConfig(writeConfig(t, fmt.Sprintf("[render]\nboard_size = %d\n", size)), nil)
		r := run(t, "render", "-variant", "chess", "-size", fmt.Sprint(size), "-o", filepath.Join(t.TempDir(), "b.png"))
		if (cfgErr == nil) != (r.code == exitOK) {
			t.Errorf("size %d: config says %v, render -size exit %d %s", size, cfgErr, r.code, r.stderr)
		}
	}
}

func TestServesUntilStopped(t *testing.T) {
	for args, want := range map[string]bool{
		"": true, "run": true, "-config x": true, "console": true,
		"perft -variant chess": false, "help": false, "-h": false, "variants": false,
	} {
		if got := servesUntilStopped(strings.Fields(args)); got != want {
			t.Errorf("servesUntilStopped(%q) = %v", args, got)
		}
	}
}
