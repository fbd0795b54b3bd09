// Package bot is correspondence play, independent of any transport: what a
// challenge and a game are, who may do what in them, and what the players
// are told. It defines its records (Game, Challenge, Notification) and the
// small per-aggregate store interfaces (GameStore, ChallengeStore, Outbox)
// that package storage implements; it never imports a database or Discord.
//
// # Every change is one transaction
//
// A store operation that changes something is "read, validate,
// compare-and-swap on a version": the store loads the record, hands a copy
// to a function of the Service that validates the change with the rules
// engine and edits the copy, and then, in the same transaction, checks
// that the record's version is still the one loaded, writes it with the
// version incremented and appends the notifications the function returned
// to the outbox. The function returns an error to change nothing. It is
// pure: it calls no store, so anything else it needs (the players'
// reminder settings) is read before the update and passed in. This maps
// onto a bbolt Update and equally onto an etcd transaction guarded by the
// key's mod revision.
//
// What a game keeps besides play (its thread, the reminder bookkeeping,
// the players' conditional lines) is its Annotations: GameStore.
// AnnotateGame changes them, and only them, without a new version, so the
// buttons a player saw stay valid. The players' private notes and the
// spectators following a game are records of their own (NoteStore,
// FollowStore), keyed by game and user: writing one writes no game.
//
// # One write path, features around it
//
// Every change of a game in play goes through one method of the Service
// (updateGame, round.go), and what features add to it is registered when
// they are made: finishers run in the update's transaction (the rating
// of a game that ends, the computer player's posts), events after its
// commit (a tournament records the result, the computer's runner wakes),
// sweepers in Sweep. A feature that changes games of its own accord asks
// the Service: UpdatePlayerGames takes the same path (a vacation holds a
// player's clocks), RescheduleReminders annotates the running turns with
// their reminders anew (a new reminder setting). Package bot keeps
// every record, every store interface and the notifications' record and
// outbox; a feature with its own package imports bot and never another
// feature:
//
//   - bot/computer: the computer player's runner;
//   - bot/notify: delivering the outbox, and the daily digests;
//   - bot/prefs: players' settings and vacations;
//   - bot/ratings: rating games as they end, and reading ratings;
//   - bot/tournaments: tournaments.
//
// The game's own actions stay here: challenges, moves, draws, takebacks,
// aborts, pre-game choices, pause by consent, the clock (the turn of a
// player on vacation waits for its end; reminders follow the players'
// settings, read from the UserStore before each update) and the sweep.
//
// # Game actions
//
// Besides moves (Move), what a player does in a game is one Action taken
// by one entry point, Act: resigning, aborting, offering, answering or
// claiming a draw, asking or answering a takeback, pausing and resuming,
// the pre-game choice. Actions returns them all; bot/command keeps the one
// table that says, for each, which game a command means, what the bot
// answers and which button does it.
//
// # Why a game ended
//
// Game.Reason is a rules.Reason: the rules' standard reasons
// (rules.ReasonCheckmate, ...), the players' and the clock's
// (ReasonResignation, ReasonTimeout, ...), or a reason of a variant's own
// rules, which its definition words (rules.Variant.EndReasons); EndPhrase
// says them. Records store their values.
//
// # Games are their moves
//
// A Game stores its variant, options (in the canonical form
// rules.Registry.Resolve returns), start FEN and the canonical moves
// (rules.FormatMove); the position is rebuilt by replaying them with
// package rules whenever a move is checked, so nothing but the move list
// is trusted. The current FEN and the player to act are cached in the
// record for listings only.
//
// # Time
//
// The Service never reads the wall clock: Now is injected (Clock), so
// tests decide what time it is.
package bot
