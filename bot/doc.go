// Package bot holds what correspondence play is made of, independent of
// any transport and of how a game is played: the records (Game,
// Challenge, Notification, Preferences, Tournament, ratings, notes and
// follows), the small per-aggregate store interfaces that package storage
// and package storage/etcdstore implement (GameStore, ChallengeStore,
// Outbox, UserStore, RatingStore, TournamentStore, NoteStore,
// FollowStore, ...), the events a game update carries to the features
// (GameUpdate, Finisher, GameEvent) and the errors every layer reports
// (Error and its codes). It never imports a database, Discord, or a
// package under bot/.
//
// # The packages built on it
//
// bot/gameplay is the life of a game: challenges, moves, the game's
// actions, the clock, and the one write path of a game update
// (gameplay.Service). The features each have a package that imports bot
// and bot/gameplay and never a sibling: bot/ratings (a finisher in the
// update's transaction), bot/tournaments (an event after commit),
// bot/computer (the computer player's runner), bot/notify (delivery and
// digests), bot/prefs (settings and vacations), bot/variants (the
// variants a server defines) and bot/analysis (post-game analyses). The
// adapters (bot/command, bot/discord, bot/console, bot/web) import all
// of them;
// cmd/fairypost wires them. bot/layout_test.go checks the arrows.
//
// # Every change is one transaction
//
// A store operation that changes something is "read, validate,
// compare-and-swap on a version": the store loads the record, hands a copy
// to a function that validates the change with the rules engine and
// edits the copy, and then, in the same transaction, checks that the
// record's version is still the one loaded, writes it with the version
// incremented and appends the notifications the function returned to the
// outbox. The function returns an error to change nothing. It is pure: it
// calls no store, so anything else it needs (the players' reminder
// settings, a game's followers) is read before the update and passed in.
// This maps onto a bbolt Update and equally onto an etcd transaction
// guarded by the key's mod revision. What changes without a version bump
// (Annotations: the thread, the reminder, conditional lines) changes
// through GameStore.AnnotateGame, whose function can edit only that
// sub-struct.
//
// # Games are their moves
//
// A Game stores its variant, options, start FEN and the canonical moves
// (rules.FormatMove); the position is rebuilt by replaying them with
// package rules whenever a move is checked, so nothing but the move list
// is trusted. The current FEN and the player to act are cached in the
// record for listings only.
package bot
