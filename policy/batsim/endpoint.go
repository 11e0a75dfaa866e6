package batsim

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// SocketPlaceholder, in an argument of the scheduler's command, is
// replaced by the endpoint; without one the command gets
// "--socket-endpoint=ENDPOINT" appended, pybatsim's option.
const SocketPlaceholder = "{socket}"

// dirPattern names a simulation's private directory; the pid lets a
// later run remove the directories of a simulator killed with -9.
const dirPattern = "sweep-batsim-"

// maxSocketPath is the room for a Unix socket path (sun_path holds 108
// bytes with its terminating NUL).
const maxSocketPath = 107

// endpoint is where one simulation's scheduler binds.
type endpoint struct {
	dir     string // private directory, 0700, removed by remove
	address string // ipc://... or tcp://127.0.0.1:port
	socket  string // the ipc socket file, "" for tcp
}

// newEndpoint makes a private directory and chooses the endpoint in it:
// an ipc socket, which only this user can reach, or a loopback TCP port
// when tcp is set or the socket path would be too long for ipc.
func newEndpoint(tcp bool) (*endpoint, error) {
	removeStaleDirs(os.TempDir())
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", dirPattern, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("making the scheduler's private directory: %w", err)
	}
	e := &endpoint{dir: dir}
	sock := filepath.Join(dir, "sched.sock")
	if !tcp && len(sock) <= maxSocketPath {
		e.socket = sock
		e.address = "ipc://" + sock
		return e, nil
	}
	// A port free now; the scheduler binds it a moment later. Another
	// process could take it in between: the dial would then fail the
	// simulation with a clear error, never reach a stranger silently,
	// since the reply must speak this protocol.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("choosing a loopback port for the scheduler: %w", err)
	}
	e.address = "tcp://" + l.Addr().String()
	l.Close()
	return e, nil
}

// unlinkSocket removes the socket file once connected: the connection
// lives on, and nothing is left to outlive a kill -9 of the simulator.
func (e *endpoint) unlinkSocket() {
	if e.socket != "" {
		os.Remove(e.socket)
	}
}

func (e *endpoint) remove() error {
	if err := os.RemoveAll(e.dir); err != nil {
		return fmt.Errorf("removing the scheduler's private directory: %w", err)
	}
	return nil
}

// removeStaleDirs removes the private directories, owned by this user,
// of simulators that no longer run.
func removeStaleDirs(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, ent := range entries {
		rest, ok := strings.CutPrefix(ent.Name(), dirPattern)
		if !ok || !ent.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || !processGone(pid) {
			continue
		}
		info, err := ent.Info()
		if err != nil {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
			continue
		}
		os.RemoveAll(filepath.Join(tmp, ent.Name()))
	}
}

func processGone(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return errors.Is(err, fs.ErrNotExist)
}

// commandWith returns the scheduler's command for the endpoint.
func commandWith(command []string, address string) []string {
	out := make([]string, 0, len(command)+1)
	replaced := false
	for _, arg := range command {
		if strings.Contains(arg, SocketPlaceholder) {
			arg = strings.ReplaceAll(arg, SocketPlaceholder, address)
			replaced = true
		}
		out = append(out, arg)
	}
	if !replaced {
		out = append(out, "--socket-endpoint="+address)
	}
	return out
}
