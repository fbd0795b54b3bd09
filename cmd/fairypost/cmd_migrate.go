package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/storage/etcdstore"
)

// migrateCommand is "fairypost migrate".
func migrateCommand() command {
	return command{
		name:     "migrate",
		synopsis: "-from bolt:FILE|etcd:URL[,URL...] -to etcd:URL[,URL...]|bolt:FILE [-prefix P] [-config FILE] [-etcd-cert FILE -etcd-key FILE] [-etcd-ca FILE] [-etcd-user NAME]",
		summary:  "copy the records between a database file and etcd, verified",
		doc: `
Copies every record from one store to the other: from the bbolt database
FILE into the etcd cluster whose members answer at the URLs, under the key
prefix P (default "fairypost/"), or back from etcd into a new FILE. Games
and challenges keep their IDs and versions, with every index entry; users'
preferences follow, and the notifications still waiting, in their order
(with new IDs). The source is read at one moment (one transaction, one
etcd revision); a file is waited for one second when a process holds it:
stop the bot first. The destination must be empty: an etcd prefix with no
records, or a file that does not exist yet. Then every record, listing and
time index is read back from the destination and compared with what was
read from the source; any difference is an error. Prints what was copied
and how long it took. Then point the bot at the copy (storage.backend).

A cluster that serves TLS or requires a login is reached with -etcd-cert,
-etcd-key, -etcd-ca and -etcd-user (the password in the environment
variable ` + etcdPasswordEnv + `), or with -config FILE, whose [storage.etcd]
table gives what those flags leave out (the bot's own configuration:
cert_file, key_file, ca_file, username, password, prefix, dial_timeout).
With -config, "etcd:" alone means the file's storage.etcd.endpoints.
Endpoints are written as etcdctl takes them: host:port (meaning
http://host:port) or an http:// or https:// URL, several separated by
commas: etcd:10.0.0.1:2379,10.0.0.2:2379.`,
		setup: func(fs *flag.FlagSet) runFunc {
			from := fs.String("from", "", "copy from `bolt:FILE or etcd:URL[,URL...]`")
			to := fs.String("to", "", "copy to `etcd:URL[,URL...] or bolt:FILE`")
			var ef etcdFlags
			ef.register(fs)
			return func(ctx context.Context, a *app) error {
				return a.migrate(ctx, *from, *to, &ef)
			}
		},
	}
}

// storeAddress is one end of a migration: a bolt file or etcd endpoints.
type storeAddress struct {
	path      string   // bolt:FILE
	endpoints []string // etcd:URL,...; nil for "etcd:" (those of -config)
}

// parseStoreAddress reads the value of flag name: bolt:FILE or
// etcd:URL[,URL...], each URL as etcdctl takes it (host:port means
// http://host:port; see etcdstore.ParseEndpoint).
func parseStoreAddress(name, v string) (storeAddress, error) {
	if path, ok := strings.CutPrefix(v, "bolt:"); ok && path != "" {
		return storeAddress{path: path}, nil
	}
	urls, ok := strings.CutPrefix(v, "etcd:")
	if !ok {
		return storeAddress{}, badInput("%s %q: want bolt:FILE or etcd:URL[,URL...], such as etcd:127.0.0.1:2379", name, v)
	}
	if urls == "" {
		return storeAddress{}, nil // the endpoints of -config
	}
	eps, err := etcdstore.ParseEndpoints(urls)
	if err != nil {
		return storeAddress{}, badInput("%s: %v", name, err)
	}
	return storeAddress{endpoints: eps}, nil
}

// migrate copies the records of from into to, one a bolt file and the
// other etcd, and verifies the copy.
func (a *app) migrate(ctx context.Context, from, to string, ef *etcdFlags) error {
	if err := ef.load(); err != nil {
		return err
	}
	src, err := parseStoreAddress("-from", from)
	if err != nil {
		return err
	}
	dst, err := parseStoreAddress("-to", to)
	if err != nil {
		return err
	}
	if (src.path == "") == (dst.path == "") {
		return badInput("-from %s -to %s: copy from a file to etcd or from etcd to a file", from, to)
	}
	if src.path != "" {
		if _, err := os.Stat(src.path); err != nil {
			return badInput("-from bolt:%s: no such database file", src.path)
		}
	} else if _, err := os.Stat(dst.path); err == nil {
		return badInput("-to bolt:%s exists: the copy makes a new file", dst.path)
	}
	etcdFlag := "-to"
	if src.path == "" {
		etcdFlag = "-from"
	}
	opts, err := ef.options(a, etcdFlag, append(src.endpoints, dst.endpoints...))
	if err != nil {
		return err
	}
	prefix := opts.Prefix
	s, err := etcdstore.Open(ctx, opts)
	if err != nil {
		return outsideError{err}
	}
	defer s.Close()
	start := time.Now()
	var d *storage.Dump
	var check gameplay.Stores
	if src.path != "" {
		db, err := openStore(src.path, storeOpen{flag: "-from bolt:", readOnly: true})
		if err != nil {
			return err
		}
		defer db.Close()
		if d, err = db.Dump(ctx); err != nil {
			return err
		}
		if err := s.Load(ctx, d); err != nil {
			return err
		}
		check = s.Stores()
	} else {
		if d, err = s.Dump(ctx); err != nil {
			return err
		}
		db, err := openStore(dst.path, storeOpen{flag: "-to bolt:"})
		if err != nil {
			return err
		}
		defer db.Close()
		if err := db.Load(ctx, d); err != nil {
			os.Remove(dst.path)
			return err
		}
		check = db.Stores()
	}
	copied := time.Since(start)
	if err := storage.Verify(ctx, d, check); err != nil {
		return fmt.Errorf("the copy in %s differs from %s: %w", to, from, err)
	}
	fmt.Fprintf(a.stdout, "%s -> %s (prefix %q): %d games, %d challenges, %d users' preferences, %d notifications, %d ratings with %d rated results, %d tournaments, %d notes, %d follows; copied in %v, verified in %v\n",
		from, to, prefix, len(d.Games), len(d.Challenges), len(d.Preferences), len(d.Outbox), len(d.Standings), len(d.RatingHistory), len(d.Tournaments),
		len(d.Notes), len(d.Follows),
		copied.Round(time.Millisecond), (time.Since(start) - copied).Round(time.Millisecond))
	return nil
}
