package hotcopy

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// checkPeer returns an error unless the process at the other end of c
// runs as the same user as this one (SO_PEERCRED).
func checkPeer(c *net.UnixConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("reading the other process's credentials: %w", credErr)
	}
	if uid := os.Getuid(); int(cred.Uid) != uid {
		return fmt.Errorf("the other process (pid %d) runs as user ID %d, not %d", cred.Pid, cred.Uid, uid)
	}
	return nil
}
