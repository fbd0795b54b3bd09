package discord

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// rewriteTransport sends requests meant for Discord's API host to another
// base URL (a proxy or the fake Discord of bot/discordtest), keeping the
// path and query. Other hosts pass through unchanged. discordgo's
// endpoint variables stay untouched: the rewrite is per session.
type rewriteTransport struct {
	base *url.URL // scheme, host and optional path prefix
	next http.RoundTripper
}

// isDiscordHost reports whether host is one discordgo builds its REST
// URLs with.
func isDiscordHost(host string) bool {
	switch host {
	case "discord.com", "discordapp.com", "cdn.discordapp.com":
		return true
	}
	return false
}

// newRewriteTransport returns a transport sending discord.com requests to
// apiURL through next (http.DefaultTransport when nil).
func newRewriteTransport(apiURL string, next http.RoundTripper) (*rewriteTransport, error) {
	u, err := url.Parse(apiURL)
	if err != nil {
		return nil, fmt.Errorf("api_url %q: %w", apiURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("api_url %q: want http:// or https:// and a host", apiURL)
	}
	if next == nil {
		next = http.DefaultTransport
	}
	return &rewriteTransport{base: u, next: next}, nil
}

// RoundTrip implements http.RoundTripper. It does not modify req.
func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isDiscordHost(strings.ToLower(req.URL.Hostname())) {
		return t.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	u := *req.URL
	u.Scheme, u.Host = t.base.Scheme, t.base.Host
	if p := strings.TrimSuffix(t.base.Path, "/"); p != "" {
		u.Path = p + u.Path
		if u.RawPath != "" {
			u.RawPath = p + u.RawPath
		}
	}
	r.URL, r.Host = &u, ""
	return t.next.RoundTrip(r)
}
