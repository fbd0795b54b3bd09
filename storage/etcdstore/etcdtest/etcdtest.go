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
}

// Cluster is a running in-process cluster.
type Cluster struct {
	// Endpoints are the members' client URLs.
	Endpoints []string
	members   []*embed.Etcd
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
	ports, err := freePorts(2 * n)
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

// Kill stops member i at once, as a crash of its machine would: its raft
// stops without handing over leadership and it answers no more requests;
// its connections are closed in the background (which takes up to the
// request timeout, seconds), and Close waits for that. Stop, by
// contrast, hands leadership over and lets requests in flight finish
// before it returns.
func (c *Cluster) Kill(i int) {
	if i < len(c.members) && c.members[i] != nil {
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
// now, or -1 when no running member knows of a leader (elections run).
func (c *Cluster) Leader() int {
	for _, e := range c.members {
		if e == nil {
			continue
		}
		lead := e.Server.Leader()
		for j, o := range c.members {
			if o != nil && o.Server.MemberID() == lead {
				return j
			}
		}
	}
	return -1
}

// Running reports whether member i runs (not stopped).
func (c *Cluster) Running(i int) bool { return i < len(c.members) && c.members[i] != nil }
