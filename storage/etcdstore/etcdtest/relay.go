package etcdtest

import (
	"io"
	"net"
	"sync"
)

// relay forwards the TCP connections it accepts to a target address,
// each both ways, until cut.
type relay struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	conns  map[net.Conn]bool
	cutOff bool
}

// startRelay listens on addr and forwards to target.
func startRelay(addr, target string) (*relay, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	r := &relay{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go r.serve(ln)
	return r, nil
}

func (r *relay) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go r.pipe(c)
	}
}

// track records c as open, or closes it and reports false once cut.
func (r *relay) track(c net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cutOff {
		c.Close()
		return false
	}
	r.conns[c] = true
	return true
}

// pipe joins c to a new connection to the target.
func (r *relay) pipe(c net.Conn) {
	if !r.track(c) {
		return
	}
	up, err := net.Dial("tcp", r.target)
	if err != nil {
		c.Close()
		return
	}
	if !r.track(up) {
		c.Close()
		return
	}
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	r.mu.Lock()
	delete(r.conns, c)
	delete(r.conns, up)
	r.mu.Unlock()
}

// cut stops accepting and closes every connection, both sides.
func (r *relay) cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cutOff {
		return
	}
	r.cutOff = true
	r.ln.Close()
	for c := range r.conns {
		c.Close()
	}
}

// resume listens again on the address cut closed and forwards again.
func (r *relay) resume() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cutOff {
		return nil
	}
	ln, err := net.Listen("tcp", r.ln.Addr().String())
	if err != nil {
		return err
	}
	r.ln, r.cutOff = ln, false
	go r.serve(ln)
	return nil
}
