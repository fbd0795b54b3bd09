package etcdstore_test

import (
	"testing"

	"github.com/fairypost/fairypost/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// TestLandedTellsACommitWhoseAnswerWasLost: after a commit that returned
// an error, the store looks whether the transaction was applied all the
// same — every put of a value finds exactly that value — so a move whose
// answer was lost in an etcd leader change is reported played, not
// refused. A transaction not applied, one applied only in part, or one
// that writes no value is not taken for landed.
func TestLandedTellsACommitWhoseAnswerWasLost(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openStore(t, c)
	ctx := t.Context()
	p := s.Prefix()
	ops := []clientv3.Op{
		clientv3.OpPut(p+"game/1", "record v2"),
		clientv3.OpPut(p+"ix/games-by-user/alice/1", ""),
		clientv3.OpPut(p+"outbox/1", "your turn"),
	}
	if s.Landed(ctx, ops) {
		t.Error("a transaction never committed is taken for landed")
	}
	if _, err := s.Client().Txn(ctx).Then(ops...).Commit(); err != nil {
		t.Fatal(err)
	}
	if !s.Landed(ctx, ops) {
		t.Error("an applied transaction is not recognised")
	}
	other := []clientv3.Op{clientv3.OpPut(p+"game/1", "record v3"), clientv3.OpPut(p+"outbox/1", "your turn")}
	if s.Landed(ctx, other) {
		t.Error("a transaction whose record holds another value is taken for landed")
	}
	partial := []clientv3.Op{clientv3.OpPut(p+"game/1", "record v2"), clientv3.OpPut(p+"outbox/2", "draw offered")}
	if s.Landed(ctx, partial) {
		t.Error("a transaction whose notification is missing is taken for landed")
	}
	if s.Landed(ctx, []clientv3.Op{clientv3.OpPut(p+"ix/games-by-user/alice/1", "")}) {
		t.Error("a transaction of index entries alone (no value to recognise) is taken for landed")
	}
}
