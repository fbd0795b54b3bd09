package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
)

// migrateCommand is "fairypost migrate".
func migrateCommand() command {
	return command{
		name:     "migrate",
		synopsis: "-from bolt:FILE -to etcd:URL[,URL...] [-prefix P]",
		summary:  "copy a database file into etcd, verified",
		doc: `
Copies every record of the bbolt database FILE into the etcd cluster whose
members answer at the URLs, under the key prefix P (default "fairypost/"):
games and challenges with their IDs and versions and every index entry,
users' preferences, and the notifications still waiting, in their order.
The file is read in one transaction (waiting one second for a process
holding it: stop the bot first); the prefix must be empty, and no bot may
use it during the copy. Then every record, listing and time index is read
back from etcd and compared with the file's; any difference is an error.
Prints what was copied and how long it took. Point the bot at the cluster
afterwards (storage.backend = "etcd"). Copying from etcd back to a file is
not supported yet.`,
		setup: func(fs *flag.FlagSet) runFunc {
			from := fs.String("from", "", "copy from `bolt:FILE`")
			to := fs.String("to", "", "copy to `etcd:URL[,URL...]`")
			prefix := fs.String("prefix", etcdstore.DefaultPrefix, "the etcd key `PREFIX`")
			return func(ctx context.Context, a *app) error {
				return a.migrate(ctx, *from, *to, *prefix)
			}
		},
	}
}

// migrate copies the bolt file of from into the etcd cluster of to.
func (a *app) migrate(ctx context.Context, from, to, prefix string) error {
	path, ok := strings.CutPrefix(from, "bolt:")
	if !ok || path == "" {
		return badInput("-from %q: want bolt:FILE (copying from etcd is not supported yet)", from)
	}
	urls, ok := strings.CutPrefix(to, "etcd:")
	if !ok || urls == "" {
		return badInput("-to %q: want etcd:URL[,URL...], such as etcd:http://127.0.0.1:2379", to)
	}
	endpoints := strings.Split(urls, ",")
	for _, ep := range endpoints {
		if !strings.HasPrefix(ep, "http://") && !strings.HasPrefix(ep, "https://") {
			return badInput("-to: %q: want an http:// or https:// URL", ep)
		}
	}
	if prefix == "" {
		return badInput("-prefix must not be empty")
	}
	db, err := openStore(path, true)
	if err != nil {
		return err
	}
	defer db.Close()
	s, err := etcdstore.Open(ctx, etcdstore.Options{Endpoints: endpoints, Prefix: prefix})
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	d, err := db.Dump(ctx)
	if err != nil {
		return err
	}
	if err := s.Load(ctx, d); err != nil {
		return err
	}
	copied := time.Since(start)
	if err := storage.Verify(ctx, d, bot.Stores{Games: s, Challenges: s, Users: s, Outbox: s}); err != nil {
		return fmt.Errorf("the copy under %q differs from %s: %w", prefix, path, err)
	}
	fmt.Fprintf(a.stdout, "%s -> etcd %s prefix %q: %d games, %d challenges, %d users' preferences, %d notifications; copied in %v, verified in %v\n",
		path, urls, prefix, len(d.Games), len(d.Challenges), len(d.Preferences), len(d.Outbox),
		copied.Round(time.Millisecond), (time.Since(start) - copied).Round(time.Millisecond))
	return nil
}
