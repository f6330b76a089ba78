package thirdparty

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// line is one line of the protocol the bots print (see the package doc).
type line struct {
	Kind     string   `json:"kind"`
	T        string   `json:"t,omitempty"`
	S        int64    `json:"s,omitempty"`
	GuildID  string   `json:"guild_id,omitempty"`
	UserID   string   `json:"user_id,omitempty"`
	RoleID   string   `json:"role_id,omitempty"`
	GuildIDs []string `json:"guild_ids,omitempty"`
	// AvailableGuildIDs are the guilds the library holds available when
	// it is ready (discord.js's guild.available, discord.py's
	// guild.unavailable); nil when the bot does not report them.
	AvailableGuildIDs []string `json:"available_guild_ids,omitempty"`
	Code              int      `json:"code,omitempty"` // a rest_error's
	ID                string   `json:"id,omitempty"`   // an interaction's, or a dispatch's subject
	CustomID          string   `json:"custom_id,omitempty"`
	Content           string   `json:"content,omitempty"`
	Message           string   `json:"message,omitempty"`
	// ChannelID is where a message the bot sent ("sent", "replied") or
	// read ("history", "deleted") is.
	ChannelID string `json:"channel_id,omitempty"`
}

func (l line) String() string {
	b, _ := json.Marshal(l)
	return string(b)
}

// bot is a bot running as a child process, and what it printed so far.
type bot struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex
	lines   []line
	other   []string      // stdout lines that were not protocol lines
	changed chan struct{} // closed and replaced when a line arrives or stdout ends
	exited  bool          // stdout ended: the process is gone or going
	stderr  tailBuffer
}

// startBot starts the bot: cmd with env added to a clean copy of the
// test's environment (no GUILDKIT_ variables of the caller's own). The
// bot is stopped when the test ends: its standard input is closed, which
// ends it, and after a grace period it is killed. If the test failed, the
// bot's standard error and its last lines are logged.
func startBot(t *testing.T, name string, cmd *exec.Cmd, env map[string]string) *bot {
	t.Helper()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GUILDKIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	// Its own process group, so that a kill reaches what it started too
	// (npm or a shell would; node and python do not, but it costs nothing).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	b := &bot{name: name, cmd: cmd, changed: make(chan struct{})}
	cmd.Stderr = &b.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// A pipe of our own rather than StdoutPipe: the reader runs until the
	// bot's end of it closes, independently of Wait.
	stdout, w, err := os.Pipe()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	cmd.Stdout = w
	b.stdin = stdin
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		t.Fatalf("%s: start %s: %v", name, cmd.Path, err)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer stdout.Close()
		b.read(stdout)
	}()
	t.Cleanup(func() {
		b.stop()
		<-read
		if t.Failed() {
			b.logTail(t)
		}
	})
	return b
}

// read collects the bot's standard output until it ends.
func (b *bot) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var l line
		text := sc.Text()
		err := json.Unmarshal(sc.Bytes(), &l)
		b.mu.Lock()
		if err != nil || l.Kind == "" {
			b.other = append(b.other, text)
		} else {
			b.lines = append(b.lines, l)
		}
		b.notifyLocked()
		b.mu.Unlock()
	}
	b.mu.Lock()
	b.exited = true
	b.notifyLocked()
	b.mu.Unlock()
}

func (b *bot) notifyLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// stop ends the bot: its standard input closes, which it takes as the
// signal to leave; after 5 seconds its process group is killed.
func (b *bot) stop() {
	_ = b.stdin.Close()
	done := make(chan struct{})
	go func() {
		_ = b.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// logTail logs what helps to see why a test failed: the bot's last
// protocol lines, anything else it printed, and the end of its standard
// error.
func (b *bot) logTail(t *testing.T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	from := max(0, len(b.lines)-40)
	var sb strings.Builder
	for _, l := range b.lines[from:] {
		sb.WriteString(l.String())
		sb.WriteByte('\n')
	}
	t.Logf("%s: last protocol lines:\n%s", b.name, sb.String())
	if len(b.other) > 0 {
		t.Logf("%s: other output:\n%s", b.name, strings.Join(b.other, "\n"))
	}
	t.Logf("%s: standard error (end):\n%s", b.name, b.stderr.String())
}

// await waits until cond holds for the lines printed so far, or fails the
// test when ctx ends or the bot exits first. what says what was awaited.
func (b *bot) await(ctx context.Context, t *testing.T, what string, cond func([]line) bool) {
	t.Helper()
	for {
		b.mu.Lock()
		ok, exited, changed := cond(b.lines), b.exited, b.changed
		b.mu.Unlock()
		if ok {
			return
		}
		if exited {
			t.Fatalf("%s exited while the test waited for %s", b.name, what)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("%s: no %s before the test's deadline", b.name, what)
		}
	}
}

// snapshot returns a copy of the lines printed so far.
func (b *bot) snapshot() []line {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]line(nil), b.lines...)
}

// count returns how many lines match.
func count(lines []line, match func(line) bool) int {
	n := 0
	for _, l := range lines {
		if match(l) {
			n++
		}
	}
	return n
}

// ofKind matches the lines of one kind.
func ofKind(kind string) func(line) bool {
	return func(l line) bool { return l.Kind == kind }
}

// tailBuffer keeps the last 64 KiB written to it; the bot's standard error
// goes there, written by exec's copying goroutine and read by the test.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

const tailSize = 64 << 10

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if over := w.buf.Len() - tailSize; over > 0 {
		w.buf.Next(over)
	}
	return len(p), nil
}

func (w *tailBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// need reports a missing runtime: in CI (CI=true) the test fails, since
// CI installs it; elsewhere it skips, saying what to install.
func need(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI is set: .ci/run installs it", msg)
	}
	t.Skip(msg + "; the test is skipped")
}
