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
// unknown variant, a broken FEN, an illegal move...), 1 for internal errors.
// Errors are one line on standard error.
package main

import (
	"context"
	"os"
)

func main() {
	// No signal handling here: the analysis commands stop on Ctrl-C by the
	// default action. The bot installs its own handler when it exists.
	os.Exit(Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
