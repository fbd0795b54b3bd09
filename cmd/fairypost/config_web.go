package main

import (
	"net"
	"net/url"
	"strings"
)

// WebConfig is about the game pages (package bot/web).
type WebConfig struct {
	// Listen is the address (host:port) the game pages are served on;
	// "" serves none (another process may serve them).
	Listen string `toml:"listen"`
	// BaseURL is the public address of the pages, such as a reverse
	// proxy in front of Listen ("https://games.example.org"): the links
	// the bot gives start with it. Needed with Listen.
	BaseURL string `toml:"base_url"`
}

// validate checks web.listen and web.base_url.
func (w *WebConfig) validate() error {
	if w.BaseURL != "" {
		if err := checkBaseURL(w.BaseURL); err != "" {
			return badValue("web.base_url", "%s: %s", quote(w.BaseURL), err)
		}
	}
	if w.Listen == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(w.Listen)
	if err != nil || port == "" || strings.ContainsAny(host, "/ ") {
		return badValue("web.listen", "%s: want host:port, such as \"127.0.0.1:8081\" or \":8081\"", quote(w.Listen))
	}
	if w.BaseURL == "" {
		return badValue("web.base_url", "is empty, but web.listen is set: give the public address of the pages (\"https://games.example.org\"), which the links start with")
	}
	return nil
}

// checkBaseURL says what is wrong with the public address of the pages,
// "" when nothing: an http:// or https:// URL with a host and no query or
// fragment.
func checkBaseURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "want an http:// or https:// URL"
	case u.Host == "":
		return "the URL has no host"
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "the URL must not have a query, a fragment or a user"
	}
	return ""
}
