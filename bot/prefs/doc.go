// Package prefs keeps what players choose for themselves, on top of the
// game's life (package bot): their settings (where notifications go,
// when a turn's reminder comes, a daily digest and their time zone, and
// whether their direct messages are found blocked) and their vacations.
// Its record and store (bot.Preferences, bot.UserStore) are at the root,
// in package bot, where the core reads the reminder settings and running
// vacations it schedules turns with; it depends on bot and on no other
// feature package, and registers nothing with the core.
//
// What a setting changes in running games goes through the core: a new
// reminder setting moves the reminders of the turns already running
// (gameplay.Service.RescheduleReminders), a vacation that starts or ends
// moves the clocks of the player's games (gameplay.Service.UpdatePlayerGames,
// Game.SetAway, Game.ShiftClock), each game one update through the
// game's write path. The pause by consent of one game is the game's own
// action and stays in package bot.
package prefs
