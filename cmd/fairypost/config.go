package main

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	analyses "github.com/fairypost/fairypost/bot/analysis"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/render"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Config is the configuration of "fairypost run": a TOML file
// (config.example.toml documents every key with its default), read
// strictly — an unknown key is an error naming the key and its line.
type Config struct {
	Discord DiscordConfig `toml:"discord"`
	Storage StorageConfig `toml:"storage"`
	Render  RenderConfig  `toml:"render"`
	Console ConsoleConfig `toml:"console"`
	Log     LogConfig     `toml:"log"`
	Play    PlayConfig    `toml:"play"`
	Web     WebConfig     `toml:"web"`
}

// PlayConfig is about the rules of correspondence play every player
// shares.
type PlayConfig struct {
	// VacationDays is each player's yearly vacation allowance in days
	// (prefs.VacationAllowance), 0 to 366; 0 allows no vacation.
	VacationDays int `toml:"vacation_days"`
	// ComputerWorkers is how many games the computer player searches at
	// once (1 to 64).
	ComputerWorkers int `toml:"computer_workers"`
	// ComputerResigns lets the computer player resign a game its search
	// sees lost by force (computer.Runner.ResignLost).
	ComputerResigns bool `toml:"computer_resigns"`
	// AnalysisAtOnce is how many game analyses (/analysis) run at the
	// same time, 1 to 8; others wait their turn.
	AnalysisAtOnce int `toml:"analysis_at_once"`
	// AnalysisPerDay is how many analyses a player may ask for in 24
	// hours, 1 to 100.
	AnalysisPerDay int `toml:"analysis_per_day"`
}

// DiscordConfig says how to reach Discord.
type DiscordConfig struct {
	// Token is the bot token; DISCORD_TOKEN is used when it is empty.
	// Without either, "fairypost run" is an error.
	Token string `toml:"token"`
	// APIURL replaces https://discord.com for every REST request (the
	// gateway address comes from GET /api/v9/gateway); "" is Discord.
	APIURL string `toml:"api_url"`
	// GuildID registers the commands in that guild only (instant, for
	// development); "" registers them globally.
	GuildID string `toml:"guild_id"`
	// ApplicationID is the application whose commands are registered;
	// "" takes it from the gateway's READY.
	ApplicationID string `toml:"application_id"`
	// DeferAfter is how long an interaction may take before it is
	// acknowledged with a deferred response and edited when done.
	DeferAfter Duration `toml:"defer_after"`
	// DeliverEvery is how often the notification outbox is polled.
	DeliverEvery Duration `toml:"deliver_every"`
	// ShutdownTimeout bounds the wait for interactions in progress when
	// the bot stops.
	ShutdownTimeout Duration `toml:"shutdown_timeout"`
	// ShardID and ShardCount are the gateway shard of this process
	// (discord.Options.ShardID): 0 <= ShardID < ShardCount, every
	// process of the bot with the same ShardCount and its own ShardID.
	// More than one shard needs storage.backend "etcd", the records the
	// processes share.
	ShardID    int `toml:"shard_id"`
	ShardCount int `toml:"shard_count"`
	// HTTPListen is the address (host:port) of the interactions endpoint
	// Discord posts interactions to (config_http.go); "" serves none.
	HTTPListen string `toml:"http_listen"`
	// PublicKey is the application's public key (hex), which checks the
	// signature of every request to the endpoint; needed with HTTPListen.
	PublicKey string `toml:"public_key"`
	// Gateway connects to Discord's gateway (the default); false with
	// HTTPListen makes a worker that receives interactions over HTTP
	// only.
	Gateway bool `toml:"gateway"`
}

// StorageConfig is the database.
type StorageConfig struct {
	// Path is the bbolt database file, created when missing.
	Path string `toml:"path"`
	// Timeout is how long opening waits for another process holding
	// the file before giving up.
	Timeout Duration `toml:"timeout"`
	// Backend is "bolt" (the file at Path) or "etcd" (the cluster of
	// Etcd, see config_etcd.go).
	Backend string `toml:"backend"`
	// Etcd is the cluster used when Backend is "etcd".
	Etcd EtcdConfig `toml:"etcd"`
}

// RenderConfig is about board images.
type RenderConfig struct {
	// BoardSize is the width of board images in pixels
	// (render.MinSize..render.MaxSize, the limits of "fairypost render
	// -size" too).
	BoardSize int `toml:"board_size"`
}

// ConsoleConfig is kept so that files written for older versions load:
// "fairypost run" no longer starts the console, whose images folder is
// "fairypost console -images".
type ConsoleConfig struct {
	// Images is not used.
	Images string `toml:"images"`
}

// LogConfig is the structured log on stderr.
type LogConfig struct {
	// Level is debug, info, warn or error.
	Level string `toml:"level"`
	// Format is text or json.
	Format string `toml:"format"`
}

// defaultConfig returns the configuration used for keys a file leaves
// out: the defaults documented in config.example.toml.
func defaultConfig() Config {
	return Config{
		Discord: DiscordConfig{
			DeferAfter:      Duration(1500 * time.Millisecond),
			DeliverEvery:    Duration(time.Second),
			ShutdownTimeout: Duration(10 * time.Second),
			ShardCount:      1,
			Gateway:         true,
		},
		Storage: StorageConfig{Path: defaultDB, Timeout: Duration(time.Second),
			Backend: backendBolt, Etcd: defaultEtcdConfig()},
		Render:  RenderConfig{BoardSize: 800},
		Console: ConsoleConfig{Images: defaultImagesDir},
		Log:     LogConfig{Level: "info", Format: "text"},
		Play: PlayConfig{VacationDays: prefs.DefaultVacationDays, ComputerWorkers: 1, ComputerResigns: true,
			AnalysisAtOnce: analyses.DefaultAtOnce, AnalysisPerDay: analyses.DefaultPerDay},
	}
}

// Duration is a time.Duration written in TOML as a string such as "1.5s"
// or "250ms".
type Duration time.Duration

// UnmarshalText reads a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%s is not a duration (write it like \"1.5s\" or \"250ms\")", quote(string(b)))
	}
	if v < 0 {
		return fmt.Errorf("%s: a duration cannot be negative", quote(string(b)))
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes d as a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// loadConfig reads the configuration: the defaults, overridden by the
// file at path when path is not "", then the token from getenv
// ("DISCORD_TOKEN") when the file gives none. Every error is bad input
// (exit status 2) in one line naming the file, and the line and key
// where it can: a value of the wrong type or that makes no sense
// ("log.level", "render.board_size") is reported at the line that sets
// it.
func loadConfig(path string, getenv func(string) string) (Config, error) {
	cfg := defaultConfig()
	var lines map[string]int
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return Config{}, badInput("config: %v", err)
		}
		if err := decodeConfig(data, &cfg); err != nil {
			return Config{}, badInput("config %s: %v", path, err)
		}
		lines = keyLines(data)
	}
	if cfg.Discord.Token == "" && getenv != nil {
		cfg.Discord.Token = strings.TrimSpace(getenv("DISCORD_TOKEN"))
	}
	if err := cfg.validate(); err != nil {
		where := "config"
		if path != "" {
			where += " " + path
		}
		var ke keyError
		if errors.As(err, &ke) && lines[ke.key] > 0 {
			where += fmt.Sprintf(": line %d", lines[ke.key])
		}
		return Config{}, badInput("%s: %v", where, err)
	}
	return cfg, nil
}

// keyError is an error about the value of one key: its message starts
// with the key's dotted name.
type keyError struct {
	key string // "log.level"
	msg string
}

func (e keyError) Error() string { return e.msg }

// badValue returns a keyError for key, its message formatted as by
// fmt.Sprintf after the key's name.
func badValue(key, format string, args ...any) error {
	return keyError{key: key, msg: key + " " + fmt.Sprintf(format, args...)}
}

// keyLines returns the line of the TOML document data where each key is
// set, by its dotted name with its table's ("log.level"). data has been
// decoded already: a document the parser stops on gives the keys before
// that point.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, _ = keyOf(&p, e)
		case unstable.KeyValue:
			parts, line := keyOf(&p, e)
			lines[strings.Join(append(slices.Clone(table), parts...), ".")] = line
		}
	}
	return lines
}

// keyOf returns the parts of the key of the table header or key-value
// expression e and the line where it starts.
func keyOf(p *unstable.Parser, e *unstable.Node) ([]string, int) {
	var parts []string
	line := 0
	for it := e.Key(); it.Next(); {
		n := it.Node()
		if line == 0 && n.Raw.Length > 0 {
			line = p.Shape(n.Raw).Start.Line
		}
		parts = append(parts, string(n.Data))
	}
	return parts, line
}

// decodeConfig decodes the TOML document data over cfg, refusing unknown
// keys. The error is one line: "line N: ...".
func decodeConfig(data []byte, cfg *Config) error {
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(cfg)
	if err == nil {
		return nil
	}
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		var parts []string
		for i := range strict.Errors {
			e := &strict.Errors[i]
			row, _ := e.Position()
			parts = append(parts, fmt.Sprintf("line %d: unknown key %q", row, strings.Join(e.Key(), ".")))
		}
		return errors.New(strings.Join(parts, "; ") + " (config.example.toml lists every key)")
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := de.Key(); len(k) > 0 {
			return fmt.Errorf("line %d, column %d (key %q): %s", row, col, strings.Join(k, "."), msg)
		}
		return fmt.Errorf("line %d, column %d: %s", row, col, msg)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "toml: "))
}

// validate checks values that decode but make no sense.
func (c *Config) validate() error {
	if c.Storage.Path == "" {
		return badValue("storage.path", "must not be empty")
	}
	if err := c.Storage.validateBackend(); err != nil {
		return err
	}
	if c.Render.BoardSize < render.MinSize || c.Render.BoardSize > render.MaxSize {
		return badValue("render.board_size", "%d: choose %d to %d pixels", c.Render.BoardSize, render.MinSize, render.MaxSize)
	}
	if c.Play.VacationDays < 0 || c.Play.VacationDays > 366 {
		return badValue("play.vacation_days", "%d: choose 0 to 366 days", c.Play.VacationDays)
	}
	if c.Play.ComputerWorkers < 1 || c.Play.ComputerWorkers > 64 {
		return badValue("play.computer_workers", "%d: choose 1 to 64 games searched at once", c.Play.ComputerWorkers)
	}
	if c.Play.AnalysisAtOnce < 1 || c.Play.AnalysisAtOnce > 8 {
		return badValue("play.analysis_at_once", "%d: choose 1 to 8 analyses at once", c.Play.AnalysisAtOnce)
	}
	if c.Play.AnalysisPerDay < 1 || c.Play.AnalysisPerDay > 100 {
		return badValue("play.analysis_per_day", "%d: choose 1 to 100 analyses a player a day", c.Play.AnalysisPerDay)
	}
	if _, err := c.logLevel(); err != nil {
		return err
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return badValue("log.format", "%s: choose text or json", quote(c.Log.Format))
	}
	if c.Discord.APIURL != "" {
		if !strings.HasPrefix(c.Discord.APIURL, "http://") && !strings.HasPrefix(c.Discord.APIURL, "https://") {
			return badValue("discord.api_url", "%s: want an http:// or https:// URL", quote(c.Discord.APIURL))
		}
	}
	if d := c.Discord.DeferAfter.D(); d <= 0 || d > 2500*time.Millisecond {
		return badValue("discord.defer_after", "%s: choose more than 0 and at most 2.5s (Discord's deadline is 3s)", d)
	}
	if c.Discord.DeliverEvery.D() < 10*time.Millisecond {
		return badValue("discord.deliver_every", "%s: choose at least 10ms", c.Discord.DeliverEvery.D())
	}
	if err := c.Discord.validateShard(c.Storage.Backend); err != nil {
		return err
	}
	if err := c.Web.validate(); err != nil {
		return err
	}
	return c.Discord.validateHTTP()
}

// validateShard checks shard_id and shard_count: a count of at least 1
// (more only on etcd, the one backend several processes share) and an ID
// from 0 to the count less one.
func (d *DiscordConfig) validateShard(backend string) error {
	if d.ShardCount < 1 {
		return badValue("discord.shard_count", "%d: choose at least 1 (1: one process receives every server)", d.ShardCount)
	}
	if d.ShardCount > 1 && backend != backendEtcd {
		return badValue("discord.shard_count", "%d: each shard is a process of its own, and processes share the games only on storage.backend = %q", d.ShardCount, backendEtcd)
	}
	if d.ShardID < 0 || d.ShardID >= d.ShardCount {
		return badValue("discord.shard_id", "%d: choose 0 to %d (one less than discord.shard_count, %d)", d.ShardID, d.ShardCount-1, d.ShardCount)
	}
	return nil
}

// logLevel parses Log.Level.
func (c *Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.Log.Level)); err != nil {
		return 0, badValue("log.level", "%s: choose debug, info, warn or error", quote(c.Log.Level))
	}
	return l, nil
}

// logger returns the structured logger the configuration asks for,
// writing to w.
func (c *Config) logger(w interface{ Write([]byte) (int, error) }) *slog.Logger {
	level, _ := c.logLevel()
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
