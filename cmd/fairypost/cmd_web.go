package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/web"
	"github.com/fairypost/fairypost/storage"
)

// secretStore is where the page secret is kept: both backends
// (storage.DB, etcdstore.Store) are one.
type secretStore interface {
	Secret(ctx context.Context, name string) (storage.Secret, error)
	EnsureSecret(ctx context.Context, name string) (storage.Secret, error)
	RotateSecret(ctx context.Context, name string) (storage.Secret, error)
}

// webCommand is "fairypost web".
func webCommand() command {
	return command{
		name:     "web",
		synopsis: "-db FILE -listen ADDR [-base URL]",
		summary:  "serve the game pages of a database no bot holds (read-only)",
		doc: `
Serves the page of every game of the database FILE, opened read-only, on
ADDR (host:port), until SIGINT or SIGTERM: the page a link of
'fairypost link' (or of the bot) leads to. URL is the public address of
the pages (a reverse proxy in front of ADDR), used in the pages' preview
tags (og:url, og:image); it defaults to http://ADDR. The links hold a
token made with a secret kept in the database: a database that has none
yet (no link was ever made) is refused; 'fairypost link' makes it. The
file stays readable by other read-only commands; a running bot holds it,
so that the pages of a running bot are served by the bot itself
(web.listen in its configuration).`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE` (required)")
			listen := fs.String("listen", "", "serve on `ADDR` (host:port, required)")
			base := fs.String("base", "", "the public address of the pages (`URL`; default http://ADDR)")
			return func(ctx context.Context, a *app) error {
				cfg := WebConfig{Listen: *listen, BaseURL: *base}
				if cfg.Listen == "" {
					return badInput("-listen ADDR is required (host:port, such as 127.0.0.1:8081)")
				}
				if cfg.BaseURL == "" {
					cfg.BaseURL = "http://" + defaultHost(cfg.Listen)
				}
				if err := cfg.validate(); err != nil {
					return badInput("%s", strings.Replace(strings.Replace(err.Error(), "web.listen", "-listen", 1), "web.base_url", "-base", 1))
				}
				return a.serveWeb(ctx, *db, cfg)
			}
		},
	}
}

// defaultHost is listen with "localhost" for a missing host.
func defaultHost(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// serveWeb runs "fairypost web".
func (a *app) serveWeb(ctx context.Context, dbPath string, cfg WebConfig) error {
	db, err := openStore(dbPath, storeOpen{flag: "-db", readOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Secret(ctx, storage.PageSecret); bot.ErrorCode(err) == bot.ENOTFOUND {
		return badInput("the database %s has no page secret yet: no link to its games was ever made ('fairypost link -db %s -game ID' makes it)", dbPath, dbPath)
	} else if err != nil {
		return err
	}
	reg, err := a.registry()
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	svc := gameplay.NewService(db.Stores(), reg)
	stop, err := startWeb(ctx, cfg, svc, db, db.Stores().Ratings, nil, log, false)
	if err != nil {
		return err
	}
	<-ctx.Done()
	stop()
	return nil
}

// startWeb serves the game pages of svc on cfg.Listen in the background
// (nothing when it is empty) and returns what stops them. The secret of
// the links comes from secrets: made when missing if ensure (a bot
// serving its own pages), read only otherwise (a read-only database). An
// address in use is an error at once.
func startWeb(ctx context.Context, cfg WebConfig, svc *gameplay.Service, secrets secretStore, standings interface {
	UserStandings(ctx context.Context, userID string) ([]bot.Standing, error)
}, names web.Names, log *slog.Logger, ensure bool) (stop func(), err error) {
	if cfg.Listen == "" {
		return func() {}, nil
	}
	if ensure {
		if _, err := secrets.EnsureSecret(ctx, storage.PageSecret); err != nil {
			return nil, fmt.Errorf("the game pages' secret: %w", err)
		}
	}
	opts := web.Options{BaseURL: cfg.BaseURL, Names: names, Logger: log,
		Key: func(ctx context.Context) ([]byte, error) {
			s, err := secrets.Secret(ctx, storage.PageSecret)
			return s.Key, err
		}}
	if standings != nil {
		opts.Standings = standings
	}
	srv, err := web.New(svc, opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, badInput("web.listen %s: %v", cfg.Listen, err)
	}
	log.Info("web: serving the game pages", "addr", ln.Addr().String(), "base_url", cfg.BaseURL)
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := srv.Serve(sctx, ln); err != nil && !errors.Is(err, net.ErrClosed) {
			log.Error("web: the game pages stopped", "err", err)
		}
	})
	return func() { cancel(); wg.Wait() }, nil
}

// linkCommand is "fairypost link".
func linkCommand() command {
	return command{
		name:     "link",
		synopsis: "-db FILE|-config FILE -game ID [-base URL] | -db FILE|-config FILE -rotate",
		summary:  "print a game's page address, or revoke every link",
		doc: `
Prints the address of game ID's page: URL (the public address of the
pages, web.base_url of the bot; without it, only the path) followed by
/g/ID/TOKEN, where TOKEN is an HMAC of the game's ID under a secret kept
in the database, made the first time a link is asked for. Anyone with the
address sees the game's page (never its conditional lines or notes);
without it, or with a token made up, the page does not exist (404).

-rotate replaces the secret: every link given so far stops working (the
pages served by a running process within a minute), and the links made
from now on work. With -game, the game's new address is printed.

The database FILE is opened for writing, like the bot's: a database in use
by a running bot cannot be opened (exit status 2 after one second). With
-config FILE instead, the store is the etcd cluster of its [storage]
section (storage.backend = "etcd"), shared with the running bots, and the
public address defaults to its web.base_url.`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE`")
			config := fs.String("config", "", "the configuration `FILE` of bots on etcd, instead of -db")
			id := fs.Uint64("game", 0, "the game `ID`")
			base := fs.String("base", "", "the public address of the pages (`URL`)")
			rotate := fs.Bool("rotate", false, "replace the secret: revoke every link given so far")
			return func(ctx context.Context, a *app) error {
				if *id == 0 && !*rotate {
					return badInput("-game ID is required (a game number, as /games shows), or -rotate")
				}
				if (*db == "") == (*config == "") {
					return badInput("give the database: -db FILE, or -config FILE for bots on etcd")
				}
				if *base != "" {
					if msg := checkBaseURL(*base); msg != "" {
						return badInput("-base %s: %s", quote(*base), msg)
					}
				}
				st, baseURL, done, err := a.linkStore(ctx, *db, *config)
				if err != nil {
					return err
				}
				defer done()
				if *base != "" {
					baseURL = *base
				}
				return a.link(ctx, st, *id, strings.TrimRight(baseURL, "/"), *rotate)
			}
		},
	}
}

// linkStore opens the store of "fairypost link": the file dbPath, or the
// etcd cluster the configuration file configPath names, whose
// web.base_url it returns too; done closes it.
func (a *app) linkStore(ctx context.Context, dbPath, configPath string) (st linkable, base string, done func(), err error) {
	if dbPath != "" {
		db, err := openStore(dbPath, storeOpen{flag: "-db", readOnly: false})
		if err != nil {
			return nil, "", nil, err
		}
		return db, "", func() { db.Close() }, nil
	}
	cfg, err := loadConfig(configPath, a.getenv)
	if err != nil {
		return nil, "", nil, err
	}
	if cfg.Storage.Backend != backendEtcd {
		return nil, "", nil, badInput("-config %s: its storage.backend is %q: give the database file with -db", configPath, cfg.Storage.Backend)
	}
	be, err := openEtcd(ctx, cfg.Storage.Etcd, consoleLogger(a.stderr))
	if err != nil {
		return nil, "", nil, err
	}
	l, ok := be.stores.Games.(linkable)
	if !ok {
		be.close()
		return nil, "", nil, fmt.Errorf("the store %s keeps no secrets", be.where)
	}
	return l, cfg.Web.BaseURL, func() { be.close() }, nil
}

// linkable is a store "fairypost link" works on: its games and secrets.
type linkable interface {
	secretStore
	Game(ctx context.Context, id uint64) (*bot.Game, error)
}

// link runs "fairypost link" on db.
func (a *app) link(ctx context.Context, db linkable, id uint64, base string, rotate bool) error {
	if id != 0 {
		if _, err := db.Game(ctx, id); err != nil {
			return serviceError(err)
		}
	}
	var err error
	var sec storage.Secret
	if rotate {
		sec, err = db.RotateSecret(ctx, storage.PageSecret)
	} else {
		sec, err = db.EnsureSecret(ctx, storage.PageSecret)
	}
	if err != nil {
		return err
	}
	if rotate {
		fmt.Fprintln(a.stderr, "fairypost link: the secret was replaced: every link given before no longer works.")
	}
	if id != 0 {
		fmt.Fprintln(a.stdout, web.Link(base, sec.Key, id))
	}
	return nil
}

// startRunWeb is startWeb for "fairypost run": the pages of the bot's own
// store, the secret made when missing; the stop func is called when the
// bot has stopped.
func startRunWeb(ctx context.Context, cfg Config, svc *gameplay.Service, be *backend, names web.Names, log *slog.Logger) (func(), error) {
	if cfg.Web.Listen == "" {
		return func() {}, nil
	}
	secrets, ok := be.stores.Games.(secretStore)
	if !ok {
		return nil, fmt.Errorf("the store %s keeps no secrets: it cannot serve game pages", be.where)
	}
	return startWeb(ctx, cfg.Web, svc, secrets, be.stores.Ratings, names, log, true)
}

// pageLinks returns what makes the addresses of the game pages on the
// bot's boards (command.Options.Link): nil when base (web.base_url) is
// "" (no links), else the addresses under base with the secret of st,
// made now when missing (the pages may be served by another process,
// which reads the same secret).
func pageLinks(ctx context.Context, base string, st gameplay.Stores, where string) (func(context.Context, uint64) (string, error), error) {
	if base == "" {
		return nil, nil
	}
	secrets, ok := st.Games.(secretStore)
	if !ok {
		return nil, fmt.Errorf("the store %s keeps no secrets: it cannot give links to game pages", where)
	}
	if _, err := secrets.EnsureSecret(ctx, storage.PageSecret); err != nil {
		return nil, fmt.Errorf("the game pages' secret: %w", err)
	}
	return web.NewLinker(base, func(ctx context.Context) ([]byte, error) {
		s, err := secrets.Secret(ctx, storage.PageSecret)
		return s.Key, err
	}).Link, nil
}
