// Command fairypost is the fairypost binary: the Discord bot for
// correspondence chess variants and its command-line tools.
//
// Usage:
//
//	fairypost <command> [flags]
//
// Run "fairypost help" for the list of commands, and
// "fairypost help <command>" for one command's flags.
//
// Exit status: 0 on success, 2 for bad input (an unknown command or flag, an
// unknown variant, a broken FEN, an illegal move, a configuration or a
// database that cannot be used...), 1 for internal errors and a Discord
// that cannot be reached. Errors are one line on standard error.
package main

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx := context.Background()
	if servesUntilStopped(os.Args[1:]) {
		// SIGINT or SIGTERM cancels ctx: the bot (or the console) finishes
		// what is in progress and closes its database. A second signal
		// kills the process by the default action.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-ctx.Done()
			stop()
		}()
	}
	os.Exit(Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// servesUntilStopped reports whether args run a command that serves until
// stopped and shuts down on its context ("run", what "fairypost" alone or
// with flags first runs, and "console"). The one-shot commands keep the
// default action of signals, so Ctrl-C stops them at once.
func servesUntilStopped(args []string) bool {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelpFlag(args[0]) {
		return true
	}
	return args[0] == "run" || args[0] == "console"
}

func isHelpFlag(s string) bool { return s == "-h" || s == "-help" || s == "--help" }
