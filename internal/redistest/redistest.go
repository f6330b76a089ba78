// Package redistest starts real redis-servers for the tests of the modules
// that keep state on Redis (ratelimit/redisstore, state/redisstate): one
// node, or a three-master Cluster joined with redis-cli, on free loopback
// ports with persistence off, stopped when the test ends.
//
// It uses os/exec and a few lines of the Redis protocol only, so that the
// core module does not depend on a Redis client.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a redis-server a test started.
type Server struct {
	bin   string
	port  int
	dir   string
	extra []string // more arguments for redis-server
	cmd   *exec.Cmd
}

// need returns the paths of the programs, or skips t when one is missing,
// unless CI=true, where it fails t: CI installs them.
func need(t testing.TB, progs ...string) []string {
	t.Helper()
	var paths []string
	for _, p := range progs {
		path, err := exec.LookPath(p)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; .ci/run installs it", p)
			}
			t.Skipf("%s is not installed (apt-get install redis-server redis-tools); these tests need a real one", p)
		}
		paths = append(paths, path)
	}
	return paths
}

// Start starts a redis-server for t on a free loopback port and waits
// until it answers; it stops when t ends. Without the program it skips
// the test, unless the environment has CI=true, where it fails. extra
// arguments go to redis-server.
func Start(t testing.TB, extra ...string) *Server {
	t.Helper()
	bin := need(t, "redis-server")[0]
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	s := &Server{bin: bin, port: port, dir: t.TempDir(), extra: extra}
	s.Start(t)
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Addr returns the server's address, host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Port returns the server's port.
func (s *Server) Port() int { return s.port }

// Start starts the server again after [Server.Stop], on the same port,
// and waits until it answers. Its data is gone: persistence is off.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--protected-mode", "no", "--loglevel", "warning"}
	s.cmd = exec.Command(s.bin, append(args, s.extra...)...)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		reply, err := Do(s.Addr(), "PING")
		if err == nil && reply == "PONG" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not answer: %q %v", reply, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops the server and waits for it to exit.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	err := s.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Errorf("redis-server: %v", err)
	}
	s.cmd = nil
}

// Cluster is a Redis Cluster of masters a test started.
type Cluster struct {
	Nodes []*Server
}

// Addrs returns the addresses of the cluster's nodes.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Nodes))
	for i, s := range c.Nodes {
		out[i] = s.Addr()
	}
	return out
}

// freeClusterPort returns a free loopback port whose cluster bus port (the
// port plus 10000) is free too.
func freeClusterPort(t testing.TB) int {
	t.Helper()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if port+10000 > 65535 {
			l.Close()
			continue
		}
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		l.Close()
		if err != nil {
			continue
		}
		bus.Close()
		return port
	}
	t.Fatal("no free port pair for a cluster node")
	return 0
}

// StartCluster starts a three-master Redis Cluster for t (redis-servers
// with --cluster-enabled yes, joined by redis-cli --cluster create) and
// waits until every node sees every slot served; it stops when t ends.
// Without redis-server or redis-cli it skips the test, unless CI=true.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	paths := need(t, "redis-server", "redis-cli")
	bin, cli := paths[0], paths[1]
	c := &Cluster{}
	for range 3 {
		s := &Server{bin: bin, port: freeClusterPort(t), dir: t.TempDir()}
		s.extra = []string{"--cluster-enabled", "yes", "--cluster-node-timeout", "2000",
			"--cluster-config-file", filepath.Join(s.dir, "nodes.conf")}
		s.Start(t)
		t.Cleanup(func() { s.Stop(t) })
		c.Nodes = append(c.Nodes, s)
	}
	args := append([]string{"--cluster", "create"}, c.Addrs()...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, s := range c.Nodes {
		for {
			info, err := Do(s.Addr(), "CLUSTER", "INFO")
			if err == nil && strings.Contains(info, "cluster_state:ok") && strings.Contains(info, "cluster_slots_ok:16384") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("cluster not ready: %v %s", err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c
}

// Do sends one command to the server at addr on a new connection and
// returns its reply: a simple string, a bulk string or an integer as
// text. An error reply is an error.
func Do(addr string, args ...string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(conn, b.String()); err != nil {
		return "", err
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return "", errors.New("redistest: empty reply")
	}
	switch line[0] {
	case '+', ':':
		return line[1:], nil
	case '-':
		return "", errors.New(line[1:])
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("redistest: bulk reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("redistest: reply %q not understood", line)
}
