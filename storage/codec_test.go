package storage_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/rating"
	"github.com/fairypost/fairypost/storage"
	"github.com/fairypost/fairypost/tournament"
)

// TestRecordsRoundTripEveryField: a record of every kind the stores
// keep, with every field set to a value other than its zero (checked by
// reflection over every field, into sub-structs, pointers and each
// element of slices: a field added to a record type fails here until
// the test sets it), comes back equal through the record codec that
// both backends use.
func TestRecordsRoundTripEveryField(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 3, 2, h, 30, 15, 123456789, time.UTC) }
	glicko := func(r float64) rating.Glicko { return rating.Glicko{Rating: r, Deviation: 80.5, Volatility: 0.061} }
	game := &bot.Game{
		ID:        12,
		Version:   7,
		Variant:   "annihilation",
		Options:   "seed=1",
		StartFEN:  "start-fen",
		Moves:     []string{"e2e4", "e7e5"},
		FEN:       "fen-after",
		ToAct:     "bob",
		White:     "alice",
		Black:     "bob",
		GuildID:   "g1",
		ChannelID: "c1",
		Status:    bot.GameFinished,
		Result:    bot.Draw,
		Reason:    "agreement",
		Annotations: bot.Annotations{
			ThreadID:  "thread-1",
			Reminded:  true,
			RemindAt:  at(1),
			Forecasts: []bot.Forecast{{Owner: "alice", Base: 2, Moves: []string{"g1f3", "b8c6"}}},
		},
		DaysPerMove:    3,
		BankDays:       2,
		WhiteBank:      47 * time.Hour,
		BlackBank:      5 * time.Minute,
		Deadline:       at(2),
		TurnStarted:    at(3),
		WhiteAway:      at(4),
		BlackAway:      at(5),
		PauseOffer:     "alice",
		PausedAt:       at(6),
		PausedDeadline: at(7),
		PausedRemindAt: at(8),
		DrawOffer:      "bob",
		Takeback:       "alice",
		Setup: &bot.Setup{Seed: 1<<64 - 3, Challenger: "alice", Challenged: "bob", Chooser: bot.ChooserChallenger,
			Army: "black", FirstMover: "white"},
		Rated:      true,
		Ratings:    []bot.RatingChange{{UserID: "alice", Pool: "g1/chess", Before: glicko(1500), After: glicko(1512.25)}},
		Level:      3,
		Tournament: 4,
		Created:    at(9),
		Updated:    at(10),
	}
	challenge := &bot.Challenge{
		ID:          5,
		Version:     2,
		Challenger:  "alice",
		Challenged:  "bob",
		GuildID:     "g1",
		ChannelID:   "c1",
		Variant:     "chess",
		Options:     "x=1",
		DaysPerMove: 3,
		BankDays:    1,
		Color:       bot.ColorBlack,
		Chooser:     bot.ChooserChallenger,
		Rated:       true,
		Level:       2,
		Status:      bot.ChallengeAccepted,
		Expires:     at(1),
		Created:     at(2),
		Updated:     at(3),
	}
	notification := &bot.Notification{
		ID:           9,
		Kind:         bot.NotifyGameOver,
		UserID:       "bob",
		GuildID:      "g1",
		ChannelID:    "c1",
		GameID:       12,
		ChallengeID:  5,
		Text:         "over",
		Created:      at(1),
		Attempts:     2,
		NotBefore:    at(2),
		TournamentID: 4,
	}
	prefs := &bot.Preferences{
		UserID:          "alice",
		Version:         3,
		Delivery:        bot.DeliverChannel,
		ReminderPercent: 35,
		DMBlocked:       true,
		VacationSince:   at(1),
		VacationUntil:   at(2),
		VacationYear:    2026,
		VacationUsed:    4,
		Digest:          true,
		DigestHour:      7,
		UTCOffset:       -330,
	}
	standing := bot.Standing{Pool: "g1/chess", UserID: "alice", Version: 6,
		Player: rating.Player{Glicko: glicko(1490.5), Games: 12, Last: at(1)}}
	event := bot.RatingEvent{GameID: 12, Entry: rating.HistoryEntry{At: at(1), Score: 0.5, After: glicko(1490.5)}}
	tour := &bot.Tournament{
		ID:          4,
		Version:     3,
		GuildID:     "g1",
		ChannelID:   "c1",
		Organizer:   "alice",
		Variant:     "chess",
		Options:     "x=1",
		DaysPerMove: 3,
		Rated:       true,
		StartAt:     at(1),
		Event: tournament.Event{Kind: tournament.SwissKind, Rounds: 3, Status: tournament.Running,
			Players: []string{"alice", "bob", "carol"}, Withdrawn: []string{"carol"},
			Schedule: []tournament.Round{{Games: []tournament.Game{{White: "alice", Black: "bob", Result: tournament.WhiteWins}}, Bye: "carol"}}},
		Games:   []bot.TournamentGame{{Round: 1, White: "alice", Black: "bob", GameID: 12}},
		Created: at(2),
		Updated: at(3),
	}
	deferred := bot.DeferredAnswer{
		InteractionID: "i1",
		ApplicationID: "a1",
		Token:         "tok",
		Owner:         "process-1",
		UserID:        "alice",
		ChannelID:     "c1",
		Request:       "move",
		GameID:        12,
		Move:          "e4",
		Before:        2,
		Deferred:      at(1),
		Expires:       at(2),
	}
	note := bot.Note{GameID: 12, UserID: "alice", Text: "castle long"}
	follow := bot.Follow{GameID: 12, UserID: "carol"}

	for _, c := range []struct {
		name string
		rec  any
		back func() (any, error)
	}{
		{"game", game, func() (any, error) { return roundTrip(game, storage.EncodeGame, storage.DecodeGame) }},
		{"challenge", challenge, func() (any, error) {
			return roundTrip(challenge, storage.EncodeChallenge, storage.DecodeChallenge)
		}},
		{"notification", *notification, func() (any, error) {
			return roundTrip(notification, storage.EncodeNotification, storage.DecodeNotification)
		}},
		{"preferences", prefs, func() (any, error) {
			return roundTrip(prefs, storage.EncodePreferences, storage.DecodePreferences)
		}},
		{"standing", standing, func() (any, error) { return roundTrip(standing, storage.EncodeStanding, storage.DecodeStanding) }},
		{"rating event", event, func() (any, error) {
			return roundTrip(event, storage.EncodeRatingEvent, storage.DecodeRatingEvent)
		}},
		{"tournament", tour, func() (any, error) { return roundTrip(tour, storage.EncodeTournament, storage.DecodeTournament) }},
		{"deferred answer", deferred, func() (any, error) {
			encode := func(a bot.DeferredAnswer) ([]byte, error) { return storage.EncodeDeferred(a, at(0)) }
			return roundTrip(deferred, encode, storage.DecodeDeferred)
		}},
		{"note", note, func() (any, error) { return roundTrip(note, storage.EncodeNote, storage.DecodeNote) }},
		{"follow", follow, func() (any, error) { return roundTrip(follow, storage.EncodeFollow, storage.DecodeFollow) }},
	} {
		if unset := unsetFields(reflect.ValueOf(c.rec), c.name); len(unset) > 0 {
			t.Errorf("the test leaves fields of the %s unset: %s", c.name, strings.Join(unset, ", "))
		}
		got, err := c.back()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(got, c.rec) {
			t.Errorf("%s read back\n got %+v\nwant %+v", c.name, got, c.rec)
		}
	}
}

// roundTrip encodes v and decodes the result.
func roundTrip[T, U any](v T, encode func(T) ([]byte, error), decode func([]byte) (U, error)) (any, error) {
	b, err := encode(v)
	if err != nil {
		return nil, err
	}
	u, err := decode(b)
	return u, err
}

// unsetFields returns the paths of the fields of v (named path) left at
// their zero value, looking into structs, through pointers and at every
// element of slices and maps; an empty slice or map, a nil pointer and
// a field the test cannot see (unexported) count as unset. A time.Time
// is one value.
func unsetFields(v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return []string{path}
		}
		return unsetFields(v.Elem(), path)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			break
		}
		var out []string
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				out = append(out, path+"."+f.Name+" (unexported)")
				continue
			}
			out = append(out, unsetFields(v.Field(i), path+"."+f.Name)...)
		}
		return out
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			return []string{path}
		}
		var out []string
		for i := range v.Len() {
			out = append(out, unsetFields(v.Index(i), fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return []string{path}
		}
		var out []string
		for _, k := range v.MapKeys() {
			out = append(out, unsetFields(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k))...)
		}
		return out
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}

// TestUnsetFieldsFindsEveryGap: the check of the round-trip test finds a
// zero field at any depth: a game without its reason, a forecast without
// its base, a setup without its army, an empty slice.
func TestUnsetFieldsFindsEveryGap(t *testing.T) {
	type inner struct {
		A int
		B []string
	}
	type outer struct {
		X    string
		In   inner
		P    *inner
		List []inner
		At   time.Time
	}
	full := outer{X: "x", In: inner{A: 1, B: []string{"b"}}, P: &inner{A: 2, B: []string{"c"}},
		List: []inner{{A: 3, B: []string{"d"}}}, At: time.Unix(1, 0)}
	if got := unsetFields(reflect.ValueOf(full), "o"); len(got) != 0 {
		t.Errorf("a full value: %v", got)
	}
	gaps := full
	gaps.In.A, gaps.P, gaps.List, gaps.At = 0, &inner{A: 2}, []inner{{B: []string{"e"}}}, time.Time{}
	want := []string{"o.In.A", "o.P.B", "o.List[0].A", "o.At"}
	if got := unsetFields(reflect.ValueOf(gaps), "o"); !reflect.DeepEqual(got, want) {
		t.Errorf("gaps found %v, want %v", got, want)
	}
}
