// Package notify delivers the notifications of the outbox, on top of the
// game's life (package bot), which writes them: the Deliverer hands each
// one to an adapter's send function and removes it once sent, retrying a
// failure later (RetryDelay) and setting aside one whose delivery keeps
// crashing; with Digests it holds the notifications of users who asked
// for a daily digest until their digest time and sends them as one
// NotifyDigest. The record and the store (bot.Notification, bot.Outbox)
// are at the root, in package bot, since every update writes
// notifications in its transaction; users' settings are read through
// Settings (a bot.UserStore, or the Service of package bot/prefs, which
// sets them). It depends on bot and on no other feature package, and
// registers nothing with the core.
package notify
