package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage/etcdstore"
)

// backend is the open store that storage.backend names.
type backend struct {
	stores bot.Stores
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
	// close releases the store; call it once, last.
	close func() error
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
		stores: bot.Stores{Games: db, Challenges: db, Users: db, Outbox: db, Ratings: db, Tournaments: db},
		where:  cfg.Storage.Path,
		seen:   db,
		lead: func(ctx context.Context, fn func(context.Context)) error {
			fn(ctx)
			return nil
		},
		close: func() error { stopCopies(); return db.Close() },
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
	host, _ := os.Hostname()
	id := fmt.Sprintf("%s/%d", host, os.Getpid())
	return &backend{
		stores: bot.Stores{Games: s, Challenges: s, Users: s, Outbox: s},
		where:  where,
		seen:   s,
		lead: func(ctx context.Context, fn func(context.Context)) error {
			return s.Lead(ctx, etcdstore.LeaderOptions{Name: "scheduler", ID: id, TTL: e.LeaderTTL.D(), Logger: log}, fn)
		},
		watch: s.WatchChanges,
		close: s.Close,
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
