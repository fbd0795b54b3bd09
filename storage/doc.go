// Package storage keeps fairypost's records in a bbolt file. DB implements
// every store of package bot (see DB.Stores); every
// change is one bbolt read-write transaction (load, let package bot
// validate and edit, check the version, save, maintain the indexes, append
// to the outbox).
//
// # Layout
//
// Buckets: "meta" (the schema version), "games" and "challenges" (ID as 8
// big-endian bytes -> JSON record), "games_by_user", "games_by_channel",
// "challenges_by_user", "challenges_by_channel" (key + 0x00 + ID -> empty,
// so a prefix scan lists one user's or channel's records in ID order),
// "games_by_deadline" (deadline in Unix nanoseconds, 8 big-endian bytes,
// + ID -> empty, for games with a deadline), "games_by_remind" (the same
// with RemindAt, for games with a reminder to come), "challenges_by_expiry"
// (the same with Expires, for pending challenges only), "users"
// (user ID -> JSON preferences) and "outbox" (sequence -> JSON
// notification). Challenge and game IDs come from one sequence, so a game
// can take the ID of its challenge. The time indexes let a scheduler
// read what is due and when the next thing is (the first key of each)
// without reading every record. Ratings (bot.RatingStore) are in
// "ratings", "ratings_by_user" and "rating_history"; see rating.go.
// Players' notes and spectators' follows (bot.NoteStore,
// bot.FollowStore) are in "notes" and "follows" (game ID, 8 big-endian
// bytes, + user ID -> JSON record); see note.go.
//
// # Records
//
// Values are JSON with a "schema" field and field names fixed by this
// package's record types, independent of the Go layout of package bot's
// structs; enums are stored as their explicit numbers. Open refuses a
// file written by a newer schema and runs the migrations from an older
// one. Changes that only add optional fields or buckets stay within a
// schema version: a field missing from an older record decodes as its
// zero value, and Open creates missing buckets (and fills
// challenges_by_expiry from the challenges when it creates it). Schema 2
// added a game's remind_at and games_by_remind: the migration from 1
// gives every game being played its RemindAt (bot.RemindTime with the
// player's stored setting) and indexes it. Schema 4 moved the notes and
// followers schema 3 kept inside game records into records of their own
// (migrateNotesAndFollows). Records keep the schema they
// were written with until rewritten; every schema up to the current one
// decodes, since each only added fields.
//
// # Caveats
//
// One process per file: Open waits at most Options.Timeout for the file
// lock. Bytes read inside a transaction are decoded before it ends. A
// long read transaction (DB.Backup to a slow writer) delays a commit that
// must grow the memory map until it ends.
package storage
