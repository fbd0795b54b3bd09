package etcdstore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// TestTLS: a cluster that serves clients over TLS and asks for a client
// certificate is reached with TLSConfig's configuration, and refused
// without the client certificate.
func TestTLS(t *testing.T) {
	certs := etcdtest.IssueCerts(t)
	caFile, clientCert, clientKey := certs.CA, certs.ClientCert, certs.ClientKey
	c := etcdtest.Start(t, 1, etcdtest.Options{CertFile: certs.ServerCert, KeyFile: certs.ServerKey, ClientCAFile: caFile})
	if !strings.HasPrefix(c.Endpoints[0], "https://") {
		t.Fatalf("endpoint %s is not https", c.Endpoints[0])
	}
	tc, err := etcdstore.TLSConfig(clientCert, clientKey, caFile)
	if err != nil {
		t.Fatal(err)
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, TLS: tc})
	if err != nil {
		t.Fatalf("Open over TLS: %v", err)
	}
	addGame(t, s, "alice", "bob", "c1")
	s.Close()
	noCert, err := etcdstore.TLSConfig("", "", caFile)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints, TLS: noCert, DialTimeout: time.Second}); err == nil {
		s.Close()
		t.Error("Open without a client certificate succeeded")
	}
}

func TestTLSConfigErrors(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	os.WriteFile(notPEM, []byte("hello"), 0o600)
	for _, c := range []struct{ cert, key, ca, want string }{
		{"c.pem", "", "", "both"},
		{"", "k.pem", "", "both"},
		{filepath.Join(dir, "missing.pem"), filepath.Join(dir, "missing-key.pem"), "", "client certificate"},
		{"", "", filepath.Join(dir, "missing-ca.pem"), "certificate authority"},
		{"", "", notPEM, "no PEM certificate"},
	} {
		if _, err := etcdstore.TLSConfig(c.cert, c.key, c.ca); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("TLSConfig(%q, %q, %q): %v, want an error containing %q", c.cert, c.key, c.ca, err, c.want)
		}
	}
}
