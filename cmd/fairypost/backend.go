package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/storage/etcdstore"
)

// backend is the open store that storage.backend names.
type backend struct {
	stores gameplay.Stores
	// where names it for logs and messages: the file, or the endpoints
	// and prefix.
	where string
	// lead runs fn for as long as this process is to run the scheduler
	// and the deliverer: at once and until ctx is done for a file (one
	// process), while elected for etcd (see etcdstore.Store.Lead).
	lead func(ctx context.Context, fn func(context.Context)) error
	// watch, when not nil, calls schedule and deliver on changes made
	// by other processes that the scheduler and the deliverer must not
	// sleep through (etcdstore.Store.WatchChanges), until ctx is done.
	watch func(ctx context.Context, schedule, deliver func())
	// seen refuses signed interactions replayed to any process of the
	// store (the interactions endpoint's Options.ReplayGuard).
	seen bot.ReplayGuard
	// deferred keeps the interactions deferred and not answered yet
	// (discord.Options.Deferred); id names this process there, and alive
	// lists the processes alive (this one alone on a file; on etcd the
	// candidates of the election), whose deferred answers are their own.
	deferred bot.DeferredStore
	id       string
	alive    func(ctx context.Context) ([]string, error)
	// close releases the store; call it once, last.
	close func() error
}

// processID names this process among those sharing a store: host and
// process ID.
func processID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}

// openBackend opens the store of cfg. For bolt it also serves live
// backups of the file (serveHotCopy), stopped by close before the file
// closes.
func (a *app) openBackend(ctx context.Context, cfg Config, log *slog.Logger) (*backend, error) {
	if cfg.Storage.Backend == backendEtcd {
		return openEtcd(ctx, cfg.Storage.Etcd, log)
	}
	db, err := openStore(cfg.Storage.Path, storeOpen{flag: "storage.path", timeout: cfg.Storage.Timeout.D(),
		created: func(path string) {
			// A warning: a mistyped storage.path must not go unseen.
			log.Warn("fairypost: there was no database at storage.path: a new one was created there", "database", path)
		}})
	if err != nil {
		return nil, err
	}
	stopCopies := a.serveHotCopy(ctx, db, cfg.Storage.Path, log)
	return &backend{
		stores: db.Stores(),
		where:  cfg.Storage.Path,
		seen:   db,
		lead: func(ctx context.Context, fn func(context.Context)) error {
			fn(ctx)
			return nil
		},
		deferred: db,
		id:       processID(),
		alive:    func(context.Context) ([]string, error) { return []string{processID()}, nil },
		close:    func() error { stopCopies(); return db.Close() },
	}, nil
}

// openEtcd connects to the cluster of e.
func openEtcd(ctx context.Context, e EtcdConfig, log *slog.Logger) (*backend, error) {
	where := fmt.Sprintf("etcd %s prefix %q", strings.Join(e.Endpoints, ","), e.Prefix)
	opts := etcdstore.Options{Endpoints: e.Endpoints, Prefix: e.Prefix, DialTimeout: e.DialTimeout.D(),
		StartupWait: e.StartupWait.D(), Logger: log, Username: e.Username, Password: e.Password}
	if e.tlsOn() {
		tc, err := etcdstore.TLSConfig(e.CertFile, e.KeyFile, e.CAFile)
		if err != nil {
			return nil, badInput("storage.etcd: %v", err)
		}
		opts.TLS = tc
	}
	s, err := etcdstore.Open(ctx, opts)
	if err != nil {
		return nil, outsideError{fmt.Errorf("storage.etcd: %w", err)} // the error names the endpoints; etcd unreachable is not our bug
	}
	id := processID()
	return &backend{
		stores: s.Stores(),
		where:  where,
		seen:   s,
		lead: func(ctx context.Context, fn func(context.Context)) error {
			return s.Lead(ctx, etcdstore.LeaderOptions{Name: "scheduler", ID: id, TTL: e.LeaderTTL.D(), Logger: log}, fn)
		},
		watch:    s.WatchChanges,
		deferred: s,
		id:       id,
		alive:    func(ctx context.Context) ([]string, error) { return s.Candidates(ctx, "scheduler") },
		close:    s.Close,
	}, nil
}

// runAll runs the functions until all return.
func runAll(ctx context.Context, fs ...func(context.Context)) {
	var wg sync.WaitGroup
	for _, f := range fs {
		wg.Go(func() { f(ctx) })
	}
	wg.Wait()
}
