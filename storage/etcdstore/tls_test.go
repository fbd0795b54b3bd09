package etcdstore_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/storage/etcdstore"
	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
)

// issue writes a certificate for name signed by ca (self-signed when ca
// is nil) and its key to dir, returning the certificate, the key and
// both files' paths.
func issue(t *testing.T, dir, name string, ca *x509.Certificate, caKey *ecdsa.PrivateKey, server bool) (*x509.Certificate, *ecdsa.PrivateKey, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign}
	switch {
	case ca == nil:
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		ca, caKey = tmpl, key
	case server:
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	default:
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key, certFile, keyFile
}

// TestTLS: a cluster that serves clients over TLS and asks for a client
// certificate is reached with TLSConfig's configuration, and refused
// without the client certificate.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, caKey, caFile, _ := issue(t, dir, "ca", nil, nil, false)
	_, _, serverCert, serverKey := issue(t, dir, "server", ca, caKey, true)
	_, _, clientCert, clientKey := issue(t, dir, "client", ca, caKey, false)
	c := etcdtest.Start(t, 1, etcdtest.Options{CertFile: serverCert, KeyFile: serverKey, ClientCAFile: caFile})
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
