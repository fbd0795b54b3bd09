package storage_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestSetAsideNotification: a notification set aside is no longer
// pending, whatever the time, is not brought back by a retry, survives a
// reopening, and is listed with its reason; setting aside one that is
// gone is not an error.
func TestSetAsideNotification(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fairypost.db")
	db := mustOpenDB(t, path)
	for i := range 3 {
		mustAddGame(t, db, "alice", fmt.Sprint("user", i), "c1")
	}
	all, err := db.PendingNotifications(ctx, t0, 0)
	if err != nil || len(all) != 3 {
		t.Fatalf("pending: %+v %v", all, err)
	}
	if err := db.SetAsideNotification(ctx, all[1].ID, "delivery crashed 3 times: boom"); err != nil {
		t.Fatal(err)
	}
	if err := db.RetryNotification(ctx, all[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAsideNotification(ctx, 999, "gone"); err != nil {
		t.Errorf("setting aside a notification that is not there: %v", err)
	}
	db.Close()
	db = mustOpenDB(t, path)
	ns, err := db.PendingNotifications(ctx, t0.Add(1000*time.Hour), 0)
	if err != nil || len(ns) != 2 || ns[0].ID != all[0].ID || ns[1].ID != all[2].ID {
		t.Errorf("pending after setting one aside: %+v, %v", ns, err)
	}
	aside, reasons, err := db.SetAsideNotifications(ctx)
	if err != nil || !reflect.DeepEqual(aside, all[1:2]) || !reflect.DeepEqual(reasons, []string{"delivery crashed 3 times: boom"}) {
		t.Errorf("set aside: %+v %q, %v; want %+v", aside, reasons, err, all[1])
	}
}
