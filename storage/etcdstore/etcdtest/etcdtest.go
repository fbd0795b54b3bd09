// Package etcdtest runs etcd members inside a test's process (etcd's
// embed package), so that tests of the etcd store need no running
// service. It is imported by tests only: the bot's binary does not link
// the etcd server.
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Options configures Start.
type Options struct {
	// Fsync makes the members sync their write-ahead log to disk on
	// every commit, as a production cluster does (for benchmarks); tests
	// run faster without it.
	Fsync bool
	// CertFile and KeyFile, when set, make the members serve clients
	// over TLS (https:// endpoints) with this certificate; with
	// ClientCAFile too, they accept only clients whose certificate that
	// authority signed.
	CertFile, KeyFile, ClientCAFile string
	// Relay puts a relay of this process between each member and its
	// clients (Endpoints are the relays'), so that Kill can close every
	// client connection of a member at once, as the death of its process
	// does. Without it, a killed member's connections stay open while
	// they drain, as if its machine hung.
	Relay bool
}

// Cluster is a running in-process cluster.
type Cluster struct {
	// Endpoints are the members' client URLs.
	Endpoints []string
	members   []*embed.Etcd
	configs   []*embed.Config // each member's, for Restart
	relays    []*relay        // with Options.Relay, each member's
	closing   []chan struct{} // members killed, until their Close returns
}

// Start starts an n-member cluster on loopback ports chosen free, with
// short ticks (10 ms heartbeat, 100 ms election), its data in temporary
// folders, and stops it when tb's test ends. It fails tb if the cluster
// does not come up within 20 seconds.
func Start(tb testing.TB, n int, opts Options) *Cluster {
	tb.Helper()
	var err error
	for try := 0; try < 3; try++ { // a port picked free may be taken meanwhile
		var c *Cluster
		if c, err = start(tb, n, opts); err == nil {
			tb.Cleanup(c.Close)
			return c
		}
	}
	tb.Fatalf("etcdtest: %v", err)
	return nil
}

func start(tb testing.TB, n int, opts Options) (*Cluster, error) {
	ports, err := freePorts(3 * n) // client, peer, relay
	if err != nil {
		return nil, err
	}
	var initial []string
	for i := 0; i < n; i++ {
		initial = append(initial, fmt.Sprintf("m%d=http://127.0.0.1:%d", i, ports[2*i+1]))
	}
	c := &Cluster{}
	for i := 0; i < n; i++ {
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = tb.TempDir()
		cfg.TickMs, cfg.ElectionMs = 10, 100
		cfg.UnsafeNoFsync = !opts.Fsync
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		client := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", ports[2*i])}
		if opts.CertFile != "" {
			client.Scheme = "https"
			cfg.ClientTLSInfo = transport.TLSInfo{CertFile: opts.CertFile, KeyFile: opts.KeyFile,
				TrustedCAFile: opts.ClientCAFile, ClientCertAuth: opts.ClientCAFile != ""}
		}
		peer := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", ports[2*i+1])}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
		cfg.InitialCluster = strings.Join(initial, ",")
		cfg.InitialClusterToken = "etcdtest"
		e, err := embed.StartEtcd(cfg)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.members = append(c.members, e)
		c.configs = append(c.configs, cfg)
		if opts.Relay {
			r, err := startRelay(fmt.Sprintf("127.0.0.1:%d", ports[2*n+i]), client.Host)
			if err != nil {
				c.Close()
				return nil, err
			}
			c.relays = append(c.relays, r)
			client.Host = r.ln.Addr().String()
		}
		c.Endpoints = append(c.Endpoints, client.String())
	}
	for _, e := range c.members {
		select {
		case <-e.Server.ReadyNotify():
		case err := <-e.Err():
			c.Close()
			return nil, err
		case <-time.After(20 * time.Second):
			c.Close()
			return nil, fmt.Errorf("etcd member %s not ready after 20s", e.Config().Name)
		}
	}
	return c, nil
}

// Stop stops member i (its client URL stays in Endpoints): the others
// go on, as after the loss of a machine.
func (c *Cluster) Stop(i int) {
	if i < len(c.members) && c.members[i] != nil {
		c.members[i].Close()
		c.members[i] = nil
	}
}

// Restart starts member i again after Stop or Kill, on its data and its
// ports, and returns once the member is ready (it has rejoined: the
// cluster needs a quorum with it). It fails tb if the member is not
// ready within 20 seconds. (A member closed before it was ready would
// not finish closing: etcd's Close waits for its client servers.)
func (c *Cluster) Restart(tb testing.TB, i int) {
	tb.Helper()
	if i >= len(c.configs) || c.members[i] != nil {
		tb.Fatalf("etcdtest: member %d is not stopped", i)
	}
	for _, done := range c.closing { // a killed member's shutdown frees its ports
		<-done
	}
	e, err := embed.StartEtcd(c.configs[i])
	if err != nil {
		tb.Fatalf("etcdtest: restart member %d: %v", i, err)
	}
	c.members[i] = e
	if i < len(c.relays) {
		if err := c.relays[i].resume(); err != nil {
			tb.Fatalf("etcdtest: restart member %d's relay: %v", i, err)
		}
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		tb.Fatalf("etcdtest: restart member %d: %v", i, err)
	case <-time.After(20 * time.Second):
		tb.Fatalf("etcdtest: member %d not ready 20s after its restart", i)
	}
}

// Kill stops member i at once, as a crash would: with Options.Relay
// every client connection to it is closed first (clients see the
// connection drop, as when its process dies); then its raft stops without
// handing over leadership and it answers no more requests. Its own
// shutdown ends in the background (it takes up to the request timeout,
// seconds, while requests on connections still open drain); Close waits
// for it. Stop, by contrast, hands leadership over and lets requests in
// flight finish before it returns.
func (c *Cluster) Kill(i int) {
	if i < len(c.members) && c.members[i] != nil {
		if i < len(c.relays) {
			c.relays[i].cut()
		}
		e := c.members[i]
		e.Server.HardStop()
		done := make(chan struct{})
		go func() { e.Close(); close(done) }()
		c.closing = append(c.closing, done)
		c.members[i] = nil
	}
}

// Close stops every member still running.
func (c *Cluster) Close() {
	for _, e := range c.members {
		if e != nil {
			e.Close()
		}
	}
	c.members = nil
	for _, r := range c.relays {
		r.cut()
	}
	for _, done := range c.closing {
		<-done
	}
}

// freePorts returns n distinct loopback TCP ports that were free a
// moment ago.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}

// Leader returns the index of the member that leads the cluster's raft
// now, as every running member sees it, or -1 while they do not agree or
// know of none (an election runs).
func (c *Cluster) Leader() int {
	found := -1
	for _, e := range c.members {
		if e == nil {
			continue
		}
		lead, idx := e.Server.Leader(), -1
		for j, o := range c.members {
			if o != nil && o.Server.MemberID() == lead {
				idx = j
			}
		}
		if idx < 0 || found >= 0 && idx != found {
			return -1
		}
		found = idx
	}
	return found
}

// Running reports whether member i runs (not stopped).
func (c *Cluster) Running(i int) bool { return i < len(c.members) && c.members[i] != nil }
