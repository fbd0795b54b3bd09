package etcdstore

import (
	"slices"
	"strings"
	"testing"
)

// TestParseEndpoints reads endpoints as etcdctl does: host:port is an
// http URL, http:// and https:// URLs are kept, several are separated by
// commas; anything else is refused with what is wrong.
func TestParseEndpoints(t *testing.T) {
	for in, want := range map[string][]string{
		"127.0.0.1:2379":                 {"http://127.0.0.1:2379"},
		"etcd-1.example:2379":            {"http://etcd-1.example:2379"},
		"[::1]:2379":                     {"http://[::1]:2379"},
		"http://10.0.0.1:2379":           {"http://10.0.0.1:2379"},
		"https://etcd.example:2379/":     {"https://etcd.example:2379"},
		" a:1 , https://b:2379,c:65535 ": {"http://a:1", "https://b:2379", "http://c:65535"},
	} {
		got, err := ParseEndpoints(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseEndpoints(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                      "an empty endpoint",
		"a:2379,":               "an empty endpoint",
		"127.0.0.1":             "want host:port",
		":2379":                 "want host:port",
		"a:http":                `the port "http" is not a number`,
		"a:0":                   `the port "0" is not a number`,
		"a:70000":               `the port "70000" is not a number`,
		"unix://a:2379":         "not unix://",
		"grpc://a:2379":         "not grpc://",
		"http://user:pw@a:2379": "want host:port or an http",
		"http://a:2379/v3/kv":   "want host:port or an http",
		"http://a:2379?x=1":     "want host:port or an http",
		"http://":               "want host:port",
	} {
		got, err := ParseEndpoints(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEndpoints(%q) = %q, %v; want an error containing %q", in, got, err, want)
		}
	}
}
