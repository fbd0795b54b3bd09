package main

import (
	"context"
	"flag"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
)

// exportCommand is "fairypost export".
func exportCommand() command {
	return command{
		name:     "export",
		synopsis: "-db FILE -game ID [-format pgn|json]",
		summary:  "print one game's record",
		doc: `
Prints game ID of the database, finished or not.
  -format pgn   Portable Game Notation with a Variant tag, the friendly
                moves and, in comments, the canonical ones (and SetUp/FEN
                for games that did not start from the variant's start).
  -format json  one JSON object (one line) with these fields, stable:
                id, variant (registry key), options ("" for defaults),
                start_fen, fen (the position now), moves (canonical forms),
                san (friendly forms, same order), white, black (user IDs),
                to_act (user ID of the player to act, "" once over),
                status (setup, active, aborted, finished), result (*, 1-0,
                0-1, 1/2-1/2), reason ("" while it goes on), days_per_move
                (0 = unlimited), deadline (RFC 3339, omitted when none),
                guild_id, channel_id, created, updated (RFC 3339).
An unknown game is exit status 2. The database is opened like the bot's: a
database in use by a running bot cannot be opened (exit status 2 after one
second); export from a backup instead ('fairypost backup' while the bot is
stopped, or the bot's own backups).`,
		setup: func(fs *flag.FlagSet) runFunc {
			db := fs.String("db", "", "the database `FILE` (required)")
			id := fs.Uint64("game", 0, "the game `ID` (required)")
			format := fs.String("format", "pgn", "`pgn` or json")
			return func(ctx context.Context, a *app) error {
				if *format != "pgn" && *format != "json" {
					return badInput("-format %s: want pgn or json", quote(*format))
				}
				if *id == 0 {
					return badInput("-game ID is required (a game number, as /games shows)")
				}
				return a.export(ctx, *db, *id, *format)
			}
		},
	}
}

// gameJSON is the stable shape of "fairypost export -format json".
type gameJSON struct {
	ID          uint64   `json:"id"`
	Variant     string   `json:"variant"`
	Options     string   `json:"options"`
	StartFEN    string   `json:"start_fen"`
	FEN         string   `json:"fen"`
	Moves       []string `json:"moves"`
	SAN         []string `json:"san"`
	White       string   `json:"white"`
	Black       string   `json:"black"`
	ToAct       string   `json:"to_act"`
	Status      string   `json:"status"`
	Result      string   `json:"result"`
	Reason      string   `json:"reason"`
	DaysPerMove int      `json:"days_per_move"`
	Deadline    string   `json:"deadline,omitempty"`
	GuildID     string   `json:"guild_id"`
	ChannelID   string   `json:"channel_id"`
	Created     string   `json:"created"`
	Updated     string   `json:"updated"`
}

// export prints game id of the database at dbPath in format.
func (a *app) export(ctx context.Context, dbPath string, id uint64, format string) error {
	db, err := openStore(dbPath, storeOpen{flag: "-db", readOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	reg, err := a.registry()
	if err != nil {
		return err
	}
	svc := gameplay.NewService(db.Stores(), reg)
	if format == "pgn" {
		pgn, err := svc.Views().PGN(ctx, id)
		if err != nil {
			return serviceError(err)
		}
		_, err = a.stdout.Write([]byte(pgn))
		return err
	}
	g, rg, err := svc.Views().Replay(ctx, id)
	if err != nil {
		return serviceError(err)
	}
	hist, err := svc.Views().History(ctx, id)
	if err != nil {
		return serviceError(err)
	}
	p := rg.Position()
	out := gameJSON{
		ID: g.ID, Variant: g.Variant, Options: g.Options, StartFEN: g.StartFEN, FEN: p.FEN(),
		Moves: append([]string{}, g.Moves...), SAN: make([]string, 0, len(hist)),
		White: g.White, Black: g.Black, ToAct: g.ToAct,
		Status: g.Status.String(), Result: g.Result.String(), Reason: string(g.Reason),
		DaysPerMove: g.DaysPerMove, GuildID: g.GuildID, ChannelID: g.ChannelID,
		Created: stamp(g.Created), Updated: stamp(g.Updated),
	}
	if !g.Deadline.IsZero() {
		out.Deadline = stamp(g.Deadline)
	}
	if out.StartFEN == "" {
		v, err := reg.Variant(g.Variant, g.Options)
		if err != nil {
			return err
		}
		start := v.Start()
		out.StartFEN = start.FEN()
	}
	for _, h := range hist {
		out.SAN = append(out.SAN, h.SAN)
	}
	return a.writeJSON(out)
}

// stamp formats t in RFC 3339, UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// serviceError turns a service error into the command's: the user's
// message for unknown games and other refusals (exit status 2), the
// error itself for internal ones.
func serviceError(err error) error {
	switch bot.ErrorCode(err) {
	case bot.EINTERNAL, "":
		return err
	}
	return badInput("%s", bot.ErrorMessage(err))
}
