package console_test

import "testing"

// TestTimeBankShown: a challenge with a time bank says so, and the board
// shows the time left with each player's bank; a move past its day
// spends from the bank.
func TestTimeBankShown(t *testing.T) {
	e := newEnv(t)
	out := e.run(t, `
as alice /challenge @bob variant:chess color:white days:1 bank:3
as bob /accept
wait 30h
as alice /move e4
as bob /board
`)
	wantIn(t, "challenge", section(t, out, "as alice /challenge @bob variant:chess color:white days:1 bank:3"),
		"Chess, 1 day per move plus a time bank of 3 days each, @alice plays white, rated.")
	wantIn(t, "board", section(t, out, "as bob /board"), "@bob to act, 4d 0h left.",
		"Time bank left: @alice 2d 18h, @bob 3d 0h.")
}
