package etcdstore

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// ParseEndpoint reads one member's client address as etcdctl's
// --endpoints takes it: "host:port" means "http://host:port"; an
// "http://" or "https://" URL is kept as written. The host may be a
// name, an IPv4 address or a bracketed IPv6 address ("[::1]:2379"); a
// port, when given, is 1-65535, and host:port needs it (a bare host is
// refused: etcd's client port is not a URL scheme's default). Surrounding spaces are dropped. It returns the URL Open takes,
// or an error naming what is wrong with s.
func ParseEndpoint(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("an empty endpoint: want host:port or an http:// or https:// URL, such as 127.0.0.1:2379")
	}
	u := s
	scheme, rest, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		u = "http://" + s
		rest = s
	case scheme == "http" || scheme == "https":
	default:
		return "", fmt.Errorf("%q: want host:port or an http:// or https:// URL, not %s://", s, scheme)
	}
	if strings.ContainsAny(rest, "@?#") || strings.Contains(strings.TrimSuffix(rest, "/"), "/") {
		return "", fmt.Errorf("%q: want host:port or an http:// or https:// URL, such as 127.0.0.1:2379", s)
	}
	hostPort := strings.TrimSuffix(rest, "/")
	host, port, err := net.SplitHostPort(hostPort)
	switch {
	case err != nil && ok && hostPort != "" && !strings.Contains(strings.TrimPrefix(strings.TrimSuffix(hostPort, "]"), "["), ":"):
		// A URL may leave the port to its scheme's default.
	case err != nil || host == "":
		return "", fmt.Errorf("%q: want host:port (the client port, usually 2379), such as 127.0.0.1:2379", s)
	default:
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("%q: the port %q is not a number from 1 to 65535", s, port)
		}
	}
	parsed, err := url.Parse(u)
	if err != nil || parsed.User != nil || parsed.RawQuery != "" || parsed.Fragment != "" ||
		(parsed.Path != "" && parsed.Path != "/") {
		return "", fmt.Errorf("%q: want host:port or an http:// or https:// URL, such as 127.0.0.1:2379", s)
	}
	return strings.TrimSuffix(u, "/"), nil
}

// ParseEndpoints reads a comma-separated list of endpoints, each as
// ParseEndpoint takes it ("127.0.0.1:2379,https://b:2379"), and returns
// their URLs in order; an error names the first bad one.
func ParseEndpoints(list string) ([]string, error) {
	parts := strings.Split(list, ",")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		ep, err := ParseEndpoint(p)
		if err != nil {
			return nil, err
		}
		out = append(out, ep)
	}
	return out, nil
}
