package prefs_test

import (
	"strings"
	"testing"

	"github.com/fairypost/fairypost/bot"
)

func TestPreferences(t *testing.T) {
	e := newEnv(t)
	p, err := e.prefs.Preferences(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if *p != *bot.DefaultPreferences("alice") {
		t.Errorf("defaults %+v, want %+v", p, bot.DefaultPreferences("alice"))
	}

	for _, pc := range []int{0, 1, 50, 99} {
		p, err := e.prefs.SetReminder(ctx, "alice", pc)
		if err != nil || p.ReminderPercent != pc {
			t.Fatalf("SetReminder(%d): %+v, %v", pc, p, err)
		}
	}
	for _, pc := range []int{-1, 100, 1000} {
		if _, err := e.prefs.SetReminder(ctx, "alice", pc); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("SetReminder(%d): %v, want EINVALID", pc, err)
		}
	}
	if p, _ := e.prefs.Preferences(ctx, "alice"); p.ReminderPercent != 99 {
		t.Errorf("after refused changes the reminder is %d, want 99", p.ReminderPercent)
	}

	if p, err := e.prefs.SetDelivery(ctx, "alice", bot.DeliverChannel); err != nil || p.Delivery != bot.DeliverChannel || p.ReminderPercent != 99 {
		t.Errorf("SetDelivery(channel): %+v, %v", p, err)
	}
	for _, d := range []bot.Delivery{0, 4, 255} {
		if _, err := e.prefs.SetDelivery(ctx, "alice", d); bot.ErrorCode(err) != bot.EINVALID {
			t.Errorf("SetDelivery(%d): %v, want EINVALID", d, err)
		}
	}

	before, _ := e.prefs.Preferences(ctx, "alice")
	if err := e.prefs.SetDMBlocked(ctx, "alice", true); err != nil {
		t.Fatal(err)
	}
	after, _ := e.prefs.Preferences(ctx, "alice")
	if !after.DMBlocked || after.Version != before.Version+1 || after.Delivery != bot.DeliverChannel {
		t.Errorf("SetDMBlocked(true): %+v (before %+v)", after, before)
	}
	if err := e.prefs.SetDMBlocked(ctx, "alice", true); err != nil {
		t.Fatal(err)
	}
	if again, _ := e.prefs.Preferences(ctx, "alice"); again.Version != after.Version {
		t.Errorf("setting the same flag again wrote version %d, want %d kept", again.Version, after.Version)
	}
	if err := e.prefs.SetDMBlocked(ctx, "alice", false); err != nil {
		t.Fatal(err)
	}
	if p, _ := e.prefs.Preferences(ctx, "alice"); p.DMBlocked {
		t.Errorf("SetDMBlocked(false) left %+v", p)
	}

	// Another user keeps the defaults; an empty user is refused.
	if p, _ := e.prefs.Preferences(ctx, "bob"); *p != *bot.DefaultPreferences("bob") {
		t.Errorf("bob %+v", p)
	}
	if _, err := e.prefs.Preferences(ctx, ""); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("Preferences(\"\"): %v", err)
	}
	if _, err := e.prefs.SetReminder(ctx, "", 20); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("SetReminder(\"\"): %v", err)
	}
	if _, err := e.prefs.SetDelivery(ctx, "", bot.DeliverDM); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("SetDelivery(\"\"): %v", err)
	}
	if err := e.prefs.SetDMBlocked(ctx, "", true); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("SetDMBlocked(\"\"): %v", err)
	}
}

// TestSetDeliveryDMClearsBlocked: a user whose DMs were found blocked is
// reached in the channel until they ask for DMs again.
func TestSetDeliveryDMClearsBlocked(t *testing.T) {
	e := newEnv(t)
	if err := e.prefs.SetDMBlocked(ctx, "alice", true); err != nil {
		t.Fatal(err)
	}
	p, err := e.prefs.SetDelivery(ctx, "alice", bot.DeliverChannel)
	if err != nil || !p.DMBlocked {
		t.Fatalf("choosing the channel: %+v, %v; want DMBlocked kept", p, err)
	}
	p, err = e.prefs.SetDelivery(ctx, "alice", bot.DeliverDM)
	if err != nil || p.DMBlocked || p.Delivery != bot.DeliverDM {
		t.Fatalf("choosing DMs again: %+v, %v; want DMBlocked cleared", p, err)
	}
}

// TestSetDigest: a digest is set at an hour of the day (0 to 23), and
// only for a user whose notifications are direct messages. (What a
// digest then holds and sends is tested in package bot/notify.)
func TestSetDigest(t *testing.T) {
	e := newEnv(t)
	if _, err := e.prefs.SetDigest(ctx, "bob", true, 8, 120); err != nil { // 08:00 at UTC+2: 06:00 UTC
		t.Fatal(err)
	}
	if _, err := e.prefs.SetDigest(ctx, "bob", true, 24, 0); bot.ErrorCode(err) != bot.EINVALID {
		t.Errorf("hour 24: %v", err)
	}
	if _, err := e.prefs.SetDelivery(ctx, "carol", bot.DeliverChannel); err != nil {
		t.Fatal(err)
	}
	if _, err := e.prefs.SetDigest(ctx, "carol", true, 8, 0); err == nil || !strings.Contains(bot.ErrorMessage(err), "notify:dm") {
		t.Errorf("a digest without DMs: %v", err)
	}
}
