// Package hotcopy lets another process copy a database that is in use.
//
// bbolt takes an exclusive lock on its file: while the bot or the console
// has a database open, no other process can open it, not even to read.
// The process holding the database therefore serves copies of it: Serve
// listens on a unix socket beside the file (SocketPath), and every
// connection receives the whole database as storage.DB.Backup writes it,
// in one bbolt read transaction, so the copy is consistent while the bot
// keeps committing. Fetch is the other end ("fairypost backup").
//
// # Who may connect
//
// The socket is made readable and writable by its owner only (0600), and
// on Linux both ends also check the other's user ID (SO_PEERCRED): a copy
// goes only to a process of the same OS user, and Fetch accepts one only
// from a process of its own user. Elsewhere the file permissions alone
// guard the socket.
//
// # Protocol
//
// On each connection the server writes, and then closes:
//
//	"fairypost-hotcopy 1\n"
//	frames: a 4-byte big-endian length N (1 to 1 MiB) and N bytes of the copy
//	then either the end: length 0 and the copy's size in 8 big-endian bytes,
//	or a failure: length 0xFFFFFFFF, a 2-byte length and that many bytes of
//	text saying what went wrong.
//
// The client sends nothing. A stream cut before the end, a size that does
// not match the bytes received, or anything else is an error for Fetch.
package hotcopy

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/fairypost/fairypost/storage"
)

// SocketSuffix is what SocketPath appends to a database's path.
const SocketSuffix = ".backup.sock"

// MaxSocketPath is the longest socket path Serve accepts, in bytes: a
// unix socket's address holds at most 108 bytes on Linux, the last a NUL
// (104 on the BSDs and macOS, where a longer path fails to bind).
const MaxSocketPath = 107

// ErrPathTooLong is wrapped by the errors of Serve and Fetch for a
// socket path longer than MaxSocketPath.
var ErrPathTooLong = errors.New("too long for a unix socket")

// IdleTimeout is how long either end waits for the other to take or give
// the next byte of a copy before giving up: a client that stops reading
// must not hold the server's read transaction (and with it the commits
// that need to grow the file) for long. A client that keeps reading,
// however slowly, is served to the end (or until Close).
const IdleTimeout = 30 * time.Second

// Protocol constants.
const (
	magic        = "fairypost-hotcopy 1\n"
	maxFrame     = 1 << 20
	frameEnd     = 0
	frameFailure = 0xFFFFFFFF
	maxFailure   = 1 << 10 // bytes of failure text sent
	bufferSize   = 64 << 10
)

// SocketPath returns the socket Serve listens on for the database at
// dbPath: dbPath + ".backup.sock", in the database's folder. Both ends
// derive it from the path they were given, so they must name the
// database the same way (a symbolic link to the file is another name). A
// path longer than MaxSocketPath bytes cannot be served: Serve fails,
// and such a database can only be copied once its process has stopped.
func SocketPath(dbPath string) string { return dbPath + SocketSuffix }

// Server serves copies of one database on a unix socket. Stop it with
// Close before closing the database.
type Server struct {
	path   string
	ln     *net.UnixListener
	log    *slog.Logger
	idle   time.Duration
	source func(io.Writer) (int64, error) // writes the copy: db.Backup
	ctx    context.Context                // done: stop and abort copies
	cancel context.CancelFunc             // ends ctx: Close
	stop   func() bool                    // unregisters the abort on ctx

	wg        sync.WaitGroup // the accept loop and the copies in flight
	closeOnce sync.Once
	closeErr  error
}

// Serve listens on the unix socket at socketPath (normally
// SocketPath(db.Path())) and sends a copy of db to each connection, each
// in its own goroutine, until Close or until ctx is done. The socket file
// is created with mode 0600. A file already at socketPath is removed if
// it is a socket nobody answers on (left by a process that crashed);
// Serve fails if another process answers on it, if it is not a socket, or
// if socketPath is longer than MaxSocketPath. Failed copies are logged
// at warning level to log (nil: discarded), copies made at info level.
//
// When ctx is done the server stops listening, removes the socket file
// and ends the copies in flight; Close must still be called to wait for
// their goroutines.
func Serve(ctx context.Context, db *storage.DB, socketPath string, log *slog.Logger) (*Server, error) {
	return serve(ctx, socketPath, db.Backup, IdleTimeout, log)
}

// serve is Serve with the copy's source and the idle timeout given.
func serve(ctx context.Context, socketPath string, source func(io.Writer) (int64, error), idle time.Duration, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if socketPath == "" {
		return nil, errors.New("hotcopy: no socket path")
	}
	if err := checkLength(socketPath); err != nil {
		return nil, err
	}
	if err := removeStale(ctx, socketPath); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: socketPath, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("hotcopy: listen on %s: %w", socketPath, err)
	}
	ln.SetUnlinkOnClose(true)
	// Until this chmod the socket has the umask's permissions; the peer
	// check (on Linux) covers a connection made in between.
	if err := os.Chmod(socketPath, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("hotcopy: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Server{path: socketPath, ln: ln, log: log, idle: idle, source: source, ctx: ctx, cancel: cancel}
	s.stop = context.AfterFunc(ctx, func() { s.ln.Close() })
	s.wg.Go(s.acceptLoop)
	return s, nil
}

// checkLength returns an error wrapping ErrPathTooLong for a path longer
// than MaxSocketPath.
func checkLength(path string) error {
	if len(path) > MaxSocketPath {
		return fmt.Errorf("hotcopy: socket path %s is %d bytes, %w (at most %d): a shorter path to the database is needed for live copies", path, len(path), ErrPathTooLong, MaxSocketPath)
	}
	return nil
}

// removeStale removes a socket file at path that nobody listens on (a
// connection to it is refused).
func removeStale(ctx context.Context, path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("hotcopy: %w", err)
	}
	if st.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("hotcopy: %s exists and is not a socket: left alone", path)
	}
	d := net.Dialer{Timeout: time.Second}
	c, err := d.DialContext(ctx, "unix", path)
	if err == nil {
		c.Close()
		return fmt.Errorf("hotcopy: another process already serves copies on %s", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		// Not refused (another user's socket, a timeout): leave it.
		return fmt.Errorf("hotcopy: %s exists and cannot be checked: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("hotcopy: removing the stale socket: %w", err)
	}
	return nil
}

// Path returns the socket's path.
func (s *Server) Path() string { return s.path }

// Close stops listening, removes the socket file, ends the copies in
// flight (their clients see the stream cut; each is logged at warning
// level with the bytes it had taken) and waits for their goroutines,
// which return at once: the process holding the database does not wait
// for its backup clients to stop. It may be called more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.stop()
		s.cancel()
		if err := s.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			s.closeErr = fmt.Errorf("hotcopy: %w", err)
		}
		s.wg.Wait()
	})
	return s.closeErr
}

// acceptLoop accepts connections until the listener is closed.
func (s *Server) acceptLoop() {
	for {
		c, err := s.ln.AcceptUnix()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			// Out of file descriptors and the like: wait a little.
			s.log.Warn("hotcopy: accept failed", "socket", s.path, "err", err)
			select {
			case <-time.After(100 * time.Millisecond):
			case <-s.ctx.Done():
			}
			continue
		}
		s.wg.Go(func() { s.handle(c) })
	}
}

// handle sends one copy to c and closes it.
func (s *Server) handle(c *net.UnixConn) {
	defer c.Close()
	if err := checkPeer(c); err != nil {
		s.log.Warn("hotcopy: connection refused", "socket", s.path, "err", err)
		return
	}
	abort := context.AfterFunc(s.ctx, func() { c.Close() })
	defer abort()
	start := time.Now()
	dw := &deadlineWriter{c: c, idle: s.idle, ctx: s.ctx}
	bw := bufio.NewWriterSize(dw, bufferSize)
	n, err := s.send(bw)
	if err == nil {
		s.log.Info("hotcopy: database copied", "socket", s.path, "bytes", n, "took", time.Since(start))
		return
	}
	if s.ctx.Err() != nil {
		s.log.Warn("hotcopy: copy cut short: the database is closing", "socket", s.path,
			"sent", dw.sent, "took", time.Since(start).Round(time.Millisecond))
		return
	}
	s.log.Warn("hotcopy: copy failed", "socket", s.path, "sent", dw.sent, "err", err)
	if dw.err == nil {
		// The database failed, not the connection: tell the client.
		msg := err.Error()
		if len(msg) > maxFailure {
			msg = msg[:maxFailure]
		}
		var hdr [6]byte
		binary.BigEndian.PutUint32(hdr[:4], frameFailure)
		binary.BigEndian.PutUint16(hdr[4:], uint16(len(msg)))
		bw.Write(hdr[:])
		bw.WriteString(msg)
		bw.Flush()
	}
}

// send writes the header, the copy in frames and the end to bw.
func (s *Server) send(bw *bufio.Writer) (int64, error) {
	if _, err := bw.WriteString(magic); err != nil {
		return 0, err
	}
	fw := &frameWriter{w: bw}
	n, err := s.source(fw)
	if err != nil {
		return n, err
	}
	if n != fw.n {
		return n, fmt.Errorf("the copy reports %d bytes, %d were written", n, fw.n)
	}
	var end [12]byte
	binary.BigEndian.PutUint32(end[:4], frameEnd)
	binary.BigEndian.PutUint64(end[4:], uint64(n))
	if _, err := bw.Write(end[:]); err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// frameWriter writes each Write as frames of at most maxFrame bytes.
type frameWriter struct {
	w *bufio.Writer
	n int64 // bytes of the copy written
}

func (f *frameWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), maxFrame)]
		var hdr [4]byte
		binary.BigEndian.PutUint32(hdr[:], uint32(len(chunk)))
		if _, err := f.w.Write(hdr[:]); err != nil {
			return written, err
		}
		m, err := f.w.Write(chunk)
		written += m
		f.n += int64(m)
		if err != nil {
			return written, err
		}
		p = p[len(chunk):]
	}
	return written, nil
}

// deadlineWriter writes to c, giving up when the client takes nothing
// for idle, counts the bytes the client took, and remembers the first
// error (the connection's failure).
type deadlineWriter struct {
	c    net.Conn
	idle time.Duration
	ctx  context.Context
	sent int64 // bytes written to c
	err  error
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	written := 0
	for {
		if err := d.ctx.Err(); err != nil {
			d.err = fmt.Errorf("stopped: %w", err)
			return written, d.err
		}
		d.c.SetWriteDeadline(time.Now().Add(d.idle))
		n, err := d.c.Write(p[written:])
		written += n
		d.sent += int64(n)
		switch {
		case err == nil:
			return written, nil
		case errors.Is(err, os.ErrDeadlineExceeded) && n > 0:
			// The client took part of it within idle: slow, not stalled.
			continue
		case errors.Is(err, os.ErrDeadlineExceeded) && d.ctx.Err() == nil:
			err = fmt.Errorf("the client stopped reading: it took nothing for %v, after %d bytes: %w", d.idle, d.sent, err)
		}
		d.err = err
		return written, err
	}
}

// Fetch connects to the server at socketPath, checks its header and
// copies the database it sends to w. It returns the number of bytes of
// the copy written to w, and an error unless the whole copy arrived: then
// w holds a consistent copy of the database. It gives up when ctx is
// done or when the server sends nothing for IdleTimeout. A socket file
// nobody answers on (the database is not served, or its process died)
// gives an error wrapping the dial's (syscall.ECONNREFUSED or
// os.ErrNotExist, typically); a path longer than MaxSocketPath, one
// wrapping ErrPathTooLong.
func Fetch(ctx context.Context, socketPath string, w io.Writer) (int64, error) {
	return fetch(ctx, socketPath, w, IdleTimeout)
}

// fetch is Fetch with the idle timeout given.
func fetch(ctx context.Context, socketPath string, w io.Writer, idle time.Duration) (int64, error) {
	if err := checkLength(socketPath); err != nil {
		return 0, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socketPath)
	if err != nil {
		return 0, fmt.Errorf("hotcopy: %w", err)
	}
	defer conn.Close()
	c := conn.(*net.UnixConn)
	if err := checkPeer(c); err != nil {
		return 0, fmt.Errorf("hotcopy: %s: %w", socketPath, err)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	r := bufio.NewReaderSize(&deadlineReader{c: c, idle: idle}, bufferSize)
	n, err := receive(r, w)
	if err != nil {
		if ctx.Err() != nil {
			return n, fmt.Errorf("hotcopy: %w", ctx.Err())
		}
		return n, fmt.Errorf("hotcopy: %s: %w", socketPath, err)
	}
	return n, nil
}

// writeError marks a failure to write to Fetch's writer.
type writeError struct{ err error }

func (e writeError) Error() string { return "writing the copy: " + e.err.Error() }
func (e writeError) Unwrap() error { return e.err }

// receive reads the header and the frames from r and writes the copy to w.
func receive(r *bufio.Reader, w io.Writer) (int64, error) {
	var hdr [len(magic)]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, fmt.Errorf("no hot-copy header: %w", noEOF(err))
	}
	if string(hdr[:]) != magic {
		return 0, fmt.Errorf("not a fairypost hot-copy server (it sent %q)", hdr[:])
	}
	ew := &errWriter{w: w}
	var n int64
	for {
		var lb [4]byte
		if _, err := io.ReadFull(r, lb[:]); err != nil {
			return n, fmt.Errorf("the copy stopped after %d bytes: %w", n, noEOF(err))
		}
		switch size := binary.BigEndian.Uint32(lb[:]); {
		case size == frameEnd:
			var tb [8]byte
			if _, err := io.ReadFull(r, tb[:]); err != nil {
				return n, fmt.Errorf("the copy's end is cut: %w", noEOF(err))
			}
			if total := binary.BigEndian.Uint64(tb[:]); total != uint64(n) {
				return n, fmt.Errorf("the server sent %d bytes but says the copy has %d", n, total)
			}
			return n, nil
		case size == frameFailure:
			var mb [2]byte
			if _, err := io.ReadFull(r, mb[:]); err != nil {
				return n, fmt.Errorf("the server failed after %d bytes", n)
			}
			msg := make([]byte, min(int(binary.BigEndian.Uint16(mb[:])), maxFailure))
			m, _ := io.ReadFull(r, msg)
			return n, fmt.Errorf("the server failed after %d bytes: %s", n, msg[:m])
		case size > maxFrame:
			return n, fmt.Errorf("bad frame of %d bytes after %d bytes of the copy", size, n)
		default:
			m, err := io.CopyN(ew, r, int64(size))
			n += m
			if ew.err != nil {
				return n, writeError{ew.err}
			}
			if err != nil {
				return n, fmt.Errorf("the copy stopped after %d bytes: %w", n, noEOF(err))
			}
		}
	}
}

// errWriter passes writes to w and remembers the first error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// noEOF turns io.EOF into io.ErrUnexpectedEOF: the stream ended early.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// deadlineReader reads from c, each read allowed idle to make progress.
type deadlineReader struct {
	c    net.Conn
	idle time.Duration
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	d.c.SetReadDeadline(time.Now().Add(d.idle))
	n, err := d.c.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = fmt.Errorf("the server sent nothing for %v: %w", d.idle, err)
	}
	return n, err
}
