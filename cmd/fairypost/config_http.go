package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot/discord"
)

// validateHTTP checks the keys of the interactions endpoint:
// discord.http_listen, discord.public_key and discord.gateway.
func (d *DiscordConfig) validateHTTP() error {
	if d.HTTPListen == "" {
		if !d.Gateway {
			return badValue("discord.gateway", "is false, but discord.http_listen is empty: nothing would receive the interactions (set http_listen, or gateway = true)")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(d.HTTPListen)
	if err != nil || port == "" || strings.ContainsAny(host, "/ ") {
		return badValue("discord.http_listen", "%s: want host:port, such as \"127.0.0.1:8080\" or \":8080\"", quote(d.HTTPListen))
	}
	if d.PublicKey == "" {
		return badValue("discord.public_key", "is empty, but discord.http_listen is set: copy the application's Public Key from the developer portal (General Information)")
	}
	if _, err := discord.ParsePublicKey(d.PublicKey); err != nil {
		return badValue("discord.public_key", "%s: want the 64 hexadecimal digits of the application's Public Key (developer portal, General Information)", quote(d.PublicKey))
	}
	return nil
}

// endpointServer serves the interactions endpoint on discord.http_listen.
type endpointServer struct {
	ln   net.Listener
	srv  *http.Server
	log  *slog.Logger
	once sync.Once // shutdown
}

// listenInteractions opens the listening socket of the interactions
// endpoint (before connecting to Discord, so that an address in use stops
// the start at once); serve starts answering.
func listenInteractions(addr string, log *slog.Logger) (*endpointServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("discord.http_listen %s: %w", addr, err)
	}
	return &endpointServer{ln: ln, log: log}, nil
}

// serve answers the interactions endpoint with h, in the background.
func (e *endpointServer) serve(h http.Handler) {
	e.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(e.log.Handler(), slog.LevelWarn)}
	e.log.Info("discord: interactions endpoint listening", "addr", e.ln.Addr().String())
	go func() {
		if err := e.srv.Serve(e.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			e.log.Error("discord: the interactions endpoint stopped", "err", err)
		}
	}()
}

// shutdown stops taking requests and waits up to timeout for those being
// answered (their initial responses; the edits that follow are the
// bot's, which Bot.Close waits for).
// Calls after the first do nothing.
func (e *endpointServer) shutdown(timeout time.Duration) {
	e.once.Do(func() {
		if e.srv == nil {
			e.ln.Close()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if err := e.srv.Shutdown(ctx); err != nil {
			e.log.Warn("discord: the interactions endpoint did not stop in time", "err", err)
		}
	})
}
