package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	botcmd "github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/computer"
	"github.com/fairypost/fairypost/bot/discord"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/notify"
	"github.com/fairypost/fairypost/bot/prefs"
	"github.com/fairypost/fairypost/bot/ratings"
	"github.com/fairypost/fairypost/bot/tournaments"
	"github.com/gorilla/websocket"
)

// runCommand is "fairypost run [-config FILE]", also what "fairypost"
// alone does.
func runCommand() command {
	return command{
		name:     "run",
		synopsis: "[-config FILE]",
		summary:  "run the Discord bot",
		doc: `
Reads the configuration FILE (TOML; config.example.toml documents every key
with its default; without -config the defaults are used), connects to
Discord with the token (discord.token, or the DISCORD_TOKEN environment
variable), registers the slash commands and serves until SIGINT or
SIGTERM, then finishes the commands in progress and closes the connection
and the database. A new database is created at storage.path when there is
none (the log says so); a damaged one is refused.

With discord.http_listen (and the application's discord.public_key) it
also serves Discord's interactions endpoint there: Discord then posts
every interaction to the Interactions Endpoint URL set in the developer
portal (a public HTTPS address, such as a reverse proxy in front of
http_listen) instead of sending it over the gateway; with
discord.gateway = false it never connects to the gateway (a worker that
serves interactions only, any number of them sharing an etcd store).

A configuration error is one line with exit status 2: an unknown key or a
bad value (naming the file, the line and the key), no token, a database in
use by another process, a folder or a file that is not a fairypost
database at storage.path, a damaged database, or a token Discord refuses.

"fairypost" with no arguments at all runs the bot as configured by
DISCORD_TOKEN, or, without it, says so and starts the local console (see
'fairypost help console') on ./fairypost.db.`,
		setup: func(fs *flag.FlagSet) runFunc {
			path := fs.String("config", "", "read the configuration from `FILE` (TOML)")
			return func(ctx context.Context, a *app) error {
				cfg, err := loadConfig(*path, a.getenv)
				if err != nil {
					return err
				}
				if cfg.Discord.Token == "" && cfg.Storage.Backend == backendEtcd {
					return a.runConsoleEtcd(ctx, cfg)
				}
				if cfg.Discord.Token == "" {
					if !a.bare {
						return noToken(*path)
					}
					fmt.Fprintf(a.stderr, "fairypost: no Discord token configured (DISCORD_TOKEN): starting the local console on %s instead.\n", cfg.Storage.Path)
					return a.console(ctx, cfg.Storage.Path, cfg.Console.Images, "", cfg.Web.BaseURL)
				}
				return a.runDiscord(ctx, cfg)
			}
		},
	}
}

// noToken is run's error when no token is configured: how to set one.
func noToken(configPath string) error {
	if configPath == "" {
		return badInput("no Discord token: set the DISCORD_TOKEN environment variable, or give -config FILE with token in its [discord] section (to play without Discord: fairypost console)")
	}
	return badInput("no Discord token: set token in the [discord] section of %s, or the DISCORD_TOKEN environment variable", configPath)
}

// runDiscord runs the Discord bot with cfg until ctx is done, then shuts
// down gracefully: the scheduler and the deliverer stop, the interactions
// in progress finish (up to discord.shutdown_timeout), the gateway closes,
// and the database last.
func (a *app) runDiscord(ctx context.Context, cfg Config) error {
	log := cfg.logger(a.stderr)
	reg, err := a.registry()
	if err != nil {
		return fmt.Errorf("variant registry: %w", err)
	}
	be, err := a.openBackend(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer be.close()

	svc := gameplay.NewService(be.stores, reg)
	// Images name players as Discord tells (b.Name); b is set before the
	// first interaction can arrive (b.Open below).
	var b *discord.Bot
	names := func(ctx context.Context, guildID, userID string) string {
		if b == nil {
			return ""
		}
		return b.Name(ctx, guildID, userID)
	}
	// The features register with svc before anything is served.
	ratings.Register(svc)
	tours := tournaments.New(svc, be.stores.Tournaments, be.stores.Ratings)
	settings := prefs.New(svc, be.stores.Users, prefs.VacationAllowance(cfg.Play.VacationDays))
	// The boards link to the game pages when web.base_url is set.
	link, err := pageLinks(ctx, cfg.Web.BaseURL, be.stores, be.where)
	if err != nil {
		return err
	}
	analyses, err := newAnalyses(svc, be.stores, cfg.Play, log)
	if err != nil {
		return err
	}
	if analyses != nil {
		defer analyses.Close()
	}
	h := botcmd.New(svc, settings, botcmd.Options{BoardSize: cfg.Render.BoardSize, Logger: log, Names: names,
		Tournaments: tours, Ratings: ratings.New(svc, be.stores.Ratings), Link: link, Analyses: analyses, Variants: serverVariants(ctx, svc, be.stores, log)})
	// The game pages, when web.listen is set (cmd_web.go).
	stopWeb, err := startRunWeb(ctx, cfg, svc, be, names, log)
	if err != nil {
		return err
	}
	defer stopWeb()
	sched := gameplay.NewScheduler(svc, log)
	var deliv *notify.Deliverer
	// The computer player's runner registers its wake-up with svc, so it
	// is made before anything is served (it learns its user below).
	runner := computer.NewRunner(svc, cfg.Play.ComputerWorkers, log)
	runner.ResignLost = cfg.Play.ComputerResigns
	runner.Poke = func() { sched.Poke(); deliv.Poke() } // its moves are posted at once
	// The interactions endpoint, when configured (config_http.go),
	// listens before connecting: an address in use stops the start.
	var endpoint *endpointServer
	publicKey, _ := discord.ParsePublicKey(cfg.Discord.PublicKey) // checked by the config
	if cfg.Discord.HTTPListen != "" {
		if endpoint, err = listenInteractions(cfg.Discord.HTTPListen, log); err != nil {
			return err
		}
		defer endpoint.shutdown(cfg.Discord.ShutdownTimeout.D())
	} else {
		publicKey = nil
	}
	b, err = discord.New(svc, settings, h, discord.Options{
		Token: cfg.Discord.Token, APIURL: cfg.Discord.APIURL,
		GuildID: cfg.Discord.GuildID, ApplicationID: cfg.Discord.ApplicationID,
		DeferAfter: cfg.Discord.DeferAfter.D(), ShutdownTimeout: cfg.Discord.ShutdownTimeout.D(),
		ShardID: cfg.Discord.ShardID, ShardCount: cfg.Discord.ShardCount,
		Poke:        func() { sched.Poke(); deliv.Poke() },
		Logger:      log,
		PublicKey:   publicKey,
		ReplayGuard: be.seen,
		Deferred:    be.deferred,
		ProcessID:   be.id,
	})
	if err != nil {
		return err
	}
	deliv = notify.NewDeliverer(be.stores.Outbox, b.Send, time.Now, log).Digests(settings)

	open := b.Open
	if !cfg.Discord.Gateway {
		open = b.OpenHTTP // an HTTP-only worker
	}
	if err := open(ctx); err != nil {
		b.Session().Close()
		if ctx.Err() != nil {
			log.Info("fairypost: stopped while connecting")
			return nil
		}
		return connectError(err, cfg.Discord.APIURL)
	}
	log.Info("fairypost: running", "database", be.where, "application", b.ApplicationID())

	// The computer player plays as the bot's own user: a challenge to
	// the bot is a game against it.
	svc.SetComputer(b.UserID())
	if endpoint != nil {
		handler, err := b.InteractionsHandler()
		if err != nil {
			return err
		}
		endpoint.serve(handler)
	}

	// The scheduler, the deliverer and the computer player run in this
	// process alone on a file, and in the one process elected among those
	// sharing etcd.
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() {
		err := be.lead(bg, func(ctx context.Context) {
			watch := func(context.Context) {}
			if be.watch != nil { // changes from the other processes wake them too
				watch = func(ctx context.Context) { be.watch(ctx, sched.Poke, deliv.Poke) }
			}
			runAll(ctx, func(ctx context.Context) { sched.Run(ctx) },
				func(ctx context.Context) { deliv.Run(ctx, cfg.Discord.DeliverEvery.D()) },
				func(ctx context.Context) { runner.Run(ctx) }, watch,
				// The answers left "thinking…" by a process gone.
				func(ctx context.Context) { b.RunFinishDeferred(ctx, finishDeferredEvery, be.alive) })
		})
		if err != nil {
			log.Error("fairypost: the scheduler, the deliverer and the computer player stopped", "err", err)
		}
	})

	<-ctx.Done()
	log.Info("fairypost: stopping")
	stop()
	wg.Wait()
	if endpoint != nil { // no new interactions; those answered go on in b
		endpoint.shutdown(cfg.Discord.ShutdownTimeout.D())
	}
	err = b.Close()
	log.Info("fairypost: stopped")
	return err // the database closes on return
}

// finishDeferredEvery is how often the leader looks for deferred answers
// left by a process gone (discord.Bot.FinishDeferred).
const finishDeferredEvery = time.Second

// refusedToken says what to do about a token Discord refuses.
const refusedToken = "Discord refused the token (authentication failed): check discord.token, or DISCORD_TOKEN, against the bot's token in the developer portal"

// closeCodeAdvice says what to do about a gateway close code that means
// the configuration is wrong (Discord's documentation lists them), and
// whether code is one.
func closeCodeAdvice(code int) (string, bool) {
	switch code {
	case 4004:
		return refusedToken, true
	case 4010:
		return "Discord refused the shard: check discord.shard_id and discord.shard_count (0 <= shard_id < shard_count)", true
	case 4011:
		return "Discord requires sharding for a bot in this many servers: run one process per shard with discord.shard_count and each its own discord.shard_id", true
	case 4013:
		return "Discord refused the gateway intents asked for (invalid intents)", true
	case 4014:
		return "Discord refused a privileged gateway intent: enable it for the bot in the developer portal", true
	}
	return "", false
}

// connectError explains a failure to connect to Discord (Bot.Open): a
// token (gateway close 4004, or HTTP 401 from the REST API) or intents
// Discord refuses is bad input (exit status 2); a server that cannot be
// reached is named by the address really dialled (discord.api_url when
// set, not discord.com, which is only how the REST requests are written
// before the rewrite), exit status 1, as for any other failure to
// connect.
func connectError(err error, apiURL string) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		if what, ok := closeCodeAdvice(ce.Code); ok {
			return badInput("%s (gateway close %d %s)", what, ce.Code, strings.TrimSpace(ce.Text))
		}
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized {
		return badInput("%s (HTTP 401 Unauthorized)", refusedToken)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		if apiURL != "" {
			return outsideError{fmt.Errorf("cannot reach Discord at discord.api_url %s: %w", apiURL, ue.Err)}
		}
		return outsideError{fmt.Errorf("cannot reach Discord (%s %s): %w", ue.Op, ue.URL, ue.Err)}
	}
	return outsideError{err}
}

// runConsoleEtcd is runConsole on the etcd cluster of cfg: the console
// plays on the records the bot processes share.
func (a *app) runConsoleEtcd(ctx context.Context, cfg Config) error {
	log := consoleLogger(a.stderr)
	be, err := openEtcd(ctx, cfg.Storage.Etcd, log)
	if err != nil {
		return err
	}
	defer be.close()
	fmt.Fprintf(a.stderr, "fairypost: no Discord token configured (discord.token in the config, or DISCORD_TOKEN): starting the local console on %s instead.\n", be.where)
	return a.consoleOn(ctx, be.stores, cfg.Console.Images, "", cfg.Web.BaseURL, be.where, log)
}
