package etcdtest

import (
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
	"testing"
	"time"
)

// Certs are the PEM files of a test's own certificate authority and of
// the certificates it signed: one for a member serving 127.0.0.1 (also
// good as a client's), one for a client.
type Certs struct {
	CA                    string // the authority's certificate
	ServerCert, ServerKey string
	ClientCert, ClientKey string
}

// IssueCerts makes a certificate authority and a server and a client
// certificate signed by it, valid for an hour, in a temporary folder of
// tb. Start serves TLS with Options{CertFile: ServerCert, KeyFile:
// ServerKey, ClientCAFile: CA}.
func IssueCerts(tb testing.TB) Certs {
	tb.Helper()
	dir := tb.TempDir()
	ca, caKey, caFile, _ := issue(tb, dir, "ca", nil, nil, false)
	_, _, serverCert, serverKey := issue(tb, dir, "server", ca, caKey, true)
	_, _, clientCert, clientKey := issue(tb, dir, "client", ca, caKey, false)
	return Certs{CA: caFile, ServerCert: serverCert, ServerKey: serverKey, ClientCert: clientCert, ClientKey: clientKey}
}

// issue writes a certificate for name signed by ca (self-signed, an
// authority, when ca is nil) and its key into dir, returning the
// certificate, the key and both files' paths.
func issue(tb testing.TB, dir, name string, ca *x509.Certificate, caKey *ecdsa.PrivateKey, server bool) (*x509.Certificate, *ecdsa.PrivateKey, string, string) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: name},
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
		tb.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		tb.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		tb.Fatal(err)
	}
	return cert, key, certFile, keyFile
}
