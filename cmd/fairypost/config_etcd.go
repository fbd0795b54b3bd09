package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/fairypost/fairypost/storage/etcdstore"
)

// Storage backends (storage.backend).
const (
	backendBolt = "bolt" // a bbolt file: one process
	backendEtcd = "etcd" // an etcd cluster: any number of processes
)

// EtcdConfig is the etcd cluster of storage.backend = "etcd" (the table
// [storage.etcd]).
type EtcdConfig struct {
	// Endpoints are the client URLs of the members (http:// or https://;
	// host:port means http://host:port, as etcdctl takes it).
	Endpoints []string `toml:"endpoints"`
	// Prefix starts every key the bot writes: bots with different
	// prefixes can share a cluster.
	Prefix string `toml:"prefix"`
	// DialTimeout bounds the first contact with the cluster.
	DialTimeout Duration `toml:"dial_timeout"`
	// CertFile and KeyFile are the client certificate and its key (PEM),
	// for members that require one; CAFile is the authority that signed
	// the members' certificates ("" for the system's). Any of them, or an
	// https:// endpoint, turns TLS on.
	CertFile string `toml:"cert_file"`
	KeyFile  string `toml:"key_file"`
	CAFile   string `toml:"ca_file"`
	// Username and Password log in to a cluster with authentication on.
	Username string `toml:"username"`
	Password string `toml:"password"`
	// LeaderTTL is the lease of the election that picks the one process
	// running the scheduler and the notification deliverer: when that
	// process dies, another takes over within about this time.
	LeaderTTL Duration `toml:"leader_ttl"`
	// ElectionTimeout is the members' --election-timeout (etcd's
	// default 1s): an etcd election lasts up to twice as long, and
	// leader_ttl must outlast one (minLeaderTTL).
	ElectionTimeout Duration `toml:"election_timeout"`
	// StartupWait is how long a process starting goes on trying while
	// the cluster does not answer (no quorum yet, a raft leader being
	// elected) before it gives up.
	StartupWait Duration `toml:"startup_wait"`
}

// minLeaderTTL is the shortest leader_ttl that outlasts an etcd election
// with the members' election timeout et: an election lasts up to 2×et,
// and the leader's lease, renewed every sixth of its TTL, must still be
// renewable after it; 3×et, in whole seconds.
func minLeaderTTL(et time.Duration) time.Duration {
	return max(time.Second, (3*et+time.Second-1)/time.Second*time.Second)
}

// defaultEtcdConfig returns the defaults documented in
// config.example.toml.
func defaultEtcdConfig() EtcdConfig {
	return EtcdConfig{Endpoints: []string{"http://127.0.0.1:2379"}, Prefix: "fairypost/",
		DialTimeout: Duration(5 * time.Second), LeaderTTL: Duration(5 * time.Second),
		ElectionTimeout: Duration(time.Second), StartupWait: Duration(time.Minute)}
}

// validateBackend checks storage.backend and, for etcd, its table.
func (s *StorageConfig) validateBackend() error {
	switch s.Backend {
	case backendBolt:
		return nil
	case backendEtcd:
	default:
		return fmt.Errorf("storage.backend %q: choose bolt (one file, one process) or etcd", s.Backend)
	}
	e := &s.Etcd
	if len(e.Endpoints) == 0 {
		return fmt.Errorf("storage.etcd.endpoints is empty: list the client URLs of the cluster's members, such as \"http://127.0.0.1:2379\"")
	}
	for i, ep := range e.Endpoints {
		u, err := etcdstore.ParseEndpoint(ep)
		if err != nil {
			return fmt.Errorf("storage.etcd.endpoints: %v", err)
		}
		e.Endpoints[i] = u // host:port reads as http://host:port, as etcdctl takes it
	}
	if e.Prefix == "" {
		return fmt.Errorf("storage.etcd.prefix must not be empty (the default is \"fairypost/\")")
	}
	if (e.CertFile == "") != (e.KeyFile == "") {
		return fmt.Errorf("storage.etcd.cert_file and storage.etcd.key_file go together: give both or neither")
	}
	if d := e.DialTimeout.D(); d < 100*time.Millisecond {
		return fmt.Errorf("storage.etcd.dial_timeout %s: choose at least 100ms", d)
	}
	if d := e.LeaderTTL.D(); d < time.Second || d > time.Hour || d%time.Second != 0 {
		return fmt.Errorf("storage.etcd.leader_ttl %s: choose whole seconds from 1s to 1h (an etcd lease counts seconds)", d)
	}
	if d := e.ElectionTimeout.D(); d < 10*time.Millisecond || d > 50*time.Second {
		return fmt.Errorf("storage.etcd.election_timeout %s: give the members' --election-timeout, from 10ms to 50s (etcd's default is 1s)", d)
	}
	if d, least := e.LeaderTTL.D(), minLeaderTTL(e.ElectionTimeout.D()); d < least {
		return fmt.Errorf("storage.etcd.leader_ttl %s is shorter than an etcd election can last: choose at least %s (3 × storage.etcd.election_timeout %s), or leadership passes between the processes at every etcd leader change",
			d, least, e.ElectionTimeout.D())
	}
	if d := e.StartupWait.D(); d < 0 || d > 24*time.Hour {
		return fmt.Errorf("storage.etcd.startup_wait %s: choose from 0 (one try) to 24h", d)
	}
	return nil
}

// tlsOn reports whether the configuration asks for TLS.
func (e *EtcdConfig) tlsOn() bool {
	if e.CertFile != "" || e.KeyFile != "" || e.CAFile != "" {
		return true
	}
	for _, ep := range e.Endpoints {
		if strings.HasPrefix(ep, "https://") {
			return true
		}
	}
	return false
}
