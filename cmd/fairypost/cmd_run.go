package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/fairypost/fairypost/bot"
	botcmd "github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/bot/discord"
)

// runCommand is "fairypost run [-config FILE]", also what "fairypost"
// alone does.
func runCommand() command {
	return command{
		name:     "run",
		synopsis: "[-config FILE]",
		summary:  "run the bot (Discord with a token, else the local console)",
		doc: `
Reads the configuration FILE (TOML; config.example.toml documents every key
with its default; without -config the defaults are used). With a Discord
token (discord.token, or the DISCORD_TOKEN environment variable) it
connects to Discord, registers the slash commands and serves until SIGINT
or SIGTERM, then finishes the commands in progress and closes the
connection and the database. Without a token it says so and starts the
local console (see 'fairypost help console') on storage.path.

A configuration error (an unknown key, a bad value) is one line naming the
file, the line and the key, with exit status 2.`,
		setup: func(fs *flag.FlagSet) runFunc {
			path := fs.String("config", "", "read the configuration from `FILE` (TOML)")
			return func(ctx context.Context, a *app) error {
				cfg, err := loadConfig(*path, os.Getenv)
				if err != nil {
					return err
				}
				if cfg.Discord.Token == "" && cfg.Storage.Backend == backendEtcd {
					return a.runConsoleEtcd(ctx, cfg)
				}
				if cfg.Discord.Token == "" {
					fmt.Fprintf(a.stderr, "fairypost: no Discord token configured (discord.token in the config, or DISCORD_TOKEN): starting the local console on %s instead.\n", cfg.Storage.Path)
					return a.runConsole(ctx, cfg.Storage.Path, cfg.Console.Images)
				}
				return a.runDiscord(ctx, cfg)
			}
		},
	}
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

	svc := bot.NewService(be.stores, reg)
	h := botcmd.New(svc, botcmd.Options{BoardSize: cfg.Render.BoardSize, Logger: log})
	sched := bot.NewScheduler(svc, log)
	var deliv *bot.Deliverer
	b, err := discord.New(svc, h, discord.Options{
		Token: cfg.Discord.Token, APIURL: cfg.Discord.APIURL,
		GuildID: cfg.Discord.GuildID, ApplicationID: cfg.Discord.ApplicationID,
		DeferAfter: cfg.Discord.DeferAfter.D(), ShutdownTimeout: cfg.Discord.ShutdownTimeout.D(),
		Poke:   func() { sched.Poke(); deliv.Poke() },
		Logger: log,
	})
	if err != nil {
		return err
	}
	deliv = bot.NewDeliverer(be.stores.Outbox, b.Send, time.Now, log)

	if err := b.Open(ctx); err != nil {
		b.Session().Close()
		if ctx.Err() != nil {
			log.Info("fairypost: stopped while connecting")
			return nil
		}
		return err
	}
	log.Info("fairypost: running", "database", be.where, "application", b.ApplicationID())

	// The scheduler and the deliverer run in this process alone on a
	// file, and in the one process elected among those sharing etcd.
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() {
		err := be.lead(bg, func(ctx context.Context) {
			watch := func(context.Context) {}
			if be.watch != nil { // changes from the other processes wake them too
				watch = func(ctx context.Context) { be.watch(ctx, sched.Poke, deliv.Poke) }
			}
			runAll(ctx, func(ctx context.Context) { sched.Run(ctx) },
				func(ctx context.Context) { deliv.Run(ctx, cfg.Discord.DeliverEvery.D()) }, watch)
		})
		if err != nil {
			log.Error("fairypost: the scheduler and the deliverer stopped", "err", err)
		}
	})

	<-ctx.Done()
	log.Info("fairypost: stopping")
	stop()
	wg.Wait()
	err = b.Close()
	log.Info("fairypost: stopped")
	return err // the database closes on return
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
	return a.consoleOn(ctx, be.stores, cfg.Console.Images, "", log)
}
