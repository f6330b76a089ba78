package redisstate_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/state"
	"github.com/seed012df1e9/guildkit/state/redisstate"
)

// childEnv carries the orders of a child process of the multi-process
// test (see runChild).
const childEnv = "GUILDKIT_REDISSTATE_CHILD"

type childOrders struct {
	Role       string // "writer" or "reader"
	Redis      string
	GatewayURL string
	Token      string
	Shard      int // a writer's shard, of 2
	Guilds     []state.Snowflake
}

// runChild is one process: a writer runs one shard of the bot with the
// Redis store attached; a reader reads the guilds over and over and checks
// what no half-applied event could break. A reader answers "report" with
// "report <reads> <violations>"; both end on "close".
func runChild(raw string) int {
	var o childOrders
	if err := json.Unmarshal([]byte(raw), &o); err != nil {
		fmt.Fprintln(os.Stderr, "bad orders:", err)
		return 2
	}
	rdb := newClient(o.Redis)
	defer rdb.Close()
	pol := state.DefaultPolicies()
	pol.Members = state.All()
	st := redisstate.New(rdb, redisstate.Options{Policies: &pol})
	defer st.Close()
	in := bufio.NewScanner(os.Stdin)
	if o.Role == "reader" {
		return runReader(st, o.Guilds, in)
	}
	sh, err := gateway.NewShard(o.Token, gateway.WithURL(o.GatewayURL), gateway.WithShard(o.Shard, 2),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	state.Attach(sh, st, &state.AttachOptions{OnError: func(ev string, err error) {
		fmt.Fprintln(os.Stderr, "apply:", ev, err)
	}})
	ctx := context.Background()
	if err := sh.Open(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	fmt.Println("open")
	for in.Scan() {
		if in.Text() == "close" {
			break
		}
	}
	if err := sh.End(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "end:", err)
		return 1
	}
	return 0
}

// runReader reads until "close". Its checks: roles are only ever added
// in this test, so the roles a guild is read with never shrink (a
// GUILD_CREATE replaces them all in one step, never seen empty); and every
// role a member holds is among the guild's roles read after it.
func runReader(st *redisstate.Store, guilds []state.Snowflake, in *bufio.Scanner) int {
	var (
		mu         sync.Mutex
		reads, bad int
		done       = make(chan struct{})
		finished   = make(chan struct{})
	)
	go func() {
		defer close(finished)
		most := make(map[state.Snowflake]int)
		for {
			select {
			case <-done:
				return
			default:
			}
			for _, g := range guilds {
				var held []state.Snowflake
				for m, err := range st.Members(g) {
					if err == nil {
						held = append(held, m.Roles.Slice()...)
					}
				}
				roles := make(map[state.Snowflake]bool)
				stale := false
				for r, err := range st.Roles(g) {
					if errors.Is(err, state.ErrStale) {
						stale = true
					}
					if err == nil {
						roles[r.ID] = true
					}
				}
				mu.Lock()
				reads++
				if len(roles) > 0 && len(roles) < most[g] {
					bad++
					fmt.Fprintf(os.Stderr, "guild %d: %d roles after %d (stale %v)\n", g, len(roles), most[g], stale)
				}
				most[g] = max(most[g], len(roles))
				for _, id := range held {
					if len(roles) > 0 && !roles[id] {
						bad++
						fmt.Fprintf(os.Stderr, "guild %d: a member holds role %d, not among its roles\n", g, id)
					}
				}
				mu.Unlock()
			}
		}
	}()
	defer func() { close(done); <-finished }()
	for in.Scan() {
		switch in.Text() {
		case "report":
			mu.Lock()
			fmt.Printf("report %d %d\n", reads, bad)
			mu.Unlock()
		case "close":
			return 0
		}
	}
	return 0
}

// child is a running child process.
type child struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr strings.Builder
	lines  chan string
	exited chan struct{}
}

func startChild(t *testing.T, name string, o childOrders) *child {
	t.Helper()
	raw, err := json.Marshal(o)
	require(t, err)
	ch := &child{name: name, cmd: exec.Command(os.Args[0], "-test.run=^$"), lines: make(chan string, 64), exited: make(chan struct{})}
	ch.cmd.Env = append(os.Environ(), childEnv+"="+string(raw))
	ch.cmd.Stderr = &ch.stderr
	ch.stdin, err = ch.cmd.StdinPipe()
	require(t, err)
	stdout, err := ch.cmd.StdoutPipe()
	require(t, err)
	require(t, ch.cmd.Start())
	t.Cleanup(func() {
		_ = ch.cmd.Process.Kill()
		<-ch.exited
	})
	go func() {
		defer close(ch.exited)
		defer close(ch.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			ch.lines <- sc.Text()
		}
		_ = ch.cmd.Wait()
	}()
	return ch
}

func (ch *child) send(line string) { _, _ = io.WriteString(ch.stdin, line+"\n") }

// next returns the child's next line.
func (ch *child) next(t *testing.T) string {
	t.Helper()
	select {
	case line, ok := <-ch.lines:
		if !ok {
			t.Fatalf("%s ended: %s", ch.name, ch.stderr.String())
		}
		return line
	case <-time.After(30 * time.Second):
		t.Fatalf("%s said nothing in 30s", ch.name)
	}
	return ""
}

// eventually polls cond until it holds, failing t after 30 s.
func eventually(t *testing.T, what string, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		why := cond()
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s", what, why)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMultiProcess: two writer processes run the two shards of one bot on
// the emulator's gateway, each writing its guilds to one redis-server; a
// third process reads all the guilds throughout. The test changes roles,
// members and names through REST; writer 0 is killed in the middle of a
// stream of changes and started again (a new session: its guilds are
// marked stale, then rebuilt from its GUILD_CREATEs). At the end Redis
// holds what the server holds, the permissions computed on Redis equal the
// server's, and the reader never saw half an event.
func TestMultiProcess(t *testing.T) {
	rs := redistest.Start(t)
	srv, err := guildkittest.Listen("127.0.0.1:0", guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 4}))
	require(t, err)
	t.Cleanup(srv.Close)
	var guilds []state.Snowflake
	for k := range 4 {
		g := srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(100+k) << 22), Name: "g" + strconv.Itoa(k)})
		srv.AddRole(g.ID, guildkit.Role{Name: "mod", Position: 1, Permissions: guildkit.PermissionKickMembers})
		srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText, PermissionOverwrites: []guildkit.PermissionOverwrite{
			{ID: g.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.PermissionSendMessages}}})
		for range 5 {
			srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "member"}})
		}
		guilds = append(guilds, g.ID)
	}
	orders := func(role string, shard int) childOrders {
		return childOrders{Role: role, Redis: rs.Addr(), GatewayURL: srv.GatewayURL(), Token: srv.Token(), Shard: shard, Guilds: guilds}
	}
	writers := []*child{startChild(t, "writer 0", orders("writer", 0)), startChild(t, "writer 1", orders("writer", 1))}
	for _, w := range writers {
		if line := w.next(t); line != "open" {
			t.Fatalf("%s: %q", w.name, line)
		}
	}
	rdb := client(t, rs)
	st := newStore(t, rdb, nil, redisstate.Options{})
	settle := func() {
		for _, g := range guilds {
			matchServer(t, st, srv, g)
		}
	}
	settle()
	reader := startChild(t, "reader", orders("reader", 0))

	ctx := context.Background()
	rc := srv.Client()
	change := func(g state.Snowflake, i int) {
		r, err := rc.Roles.Create(ctx, g, &guildkit.RoleCreateParams{Name: guildkit.Some("r" + strconv.Itoa(i)),
			Permissions: guildkit.Some(guildkit.PermissionSendMessages)})
		require(t, err)
		ms, err := rc.Members.List(ctx, g, &guildkit.MemberListParams{Limit: guildkit.Some(100)})
		require(t, err)
		m := ms[i%len(ms)]
		if m.User.ID == srv.BotID() {
			m = ms[(i+1)%len(ms)]
		}
		_, err = rc.Members.Modify(ctx, g, m.User.ID, &guildkit.MemberModifyParams{Roles: guildkit.Some(append(m.Roles, r.ID)),
			Nick: guildkit.Some("n" + strconv.Itoa(i))})
		require(t, err)
	}
	for i := range 3 {
		for _, g := range guilds {
			change(g, i)
		}
	}
	// Writer 0 dies in the middle of a stream of changes to all guilds,
	// and more come while it is dead.
	for i := 3; i < 9; i++ {
		for _, g := range guilds {
			change(g, i)
		}
		if i == 5 {
			require(t, writers[0].cmd.Process.Kill())
			<-writers[0].exited
		}
	}
	// The platform answers one whole member list per guild per 30 s: the
	// restarted writer's comes after that.
	srv.AdvanceClock(31 * time.Second)
	writers[0] = startChild(t, "writer 0 again", orders("writer", 0))
	if line := writers[0].next(t); line != "open" {
		t.Fatalf("%s: %q", writers[0].name, line)
	}
	for _, g := range guilds {
		_, err := rc.Guilds.Modify(ctx, g, &guildkit.GuildModifyParams{Name: guildkit.Some("last")})
		require(t, err)
	}
	settle()

	reader.send("report")
	var reads, bad int
	if _, err := fmt.Sscanf(reader.next(t), "report %d %d", &reads, &bad); err != nil {
		t.Fatal(err)
	}
	if bad != 0 || reads == 0 {
		t.Fatalf("the reader saw %d violations in %d reads: %s", bad, reads, reader.stderr.String())
	}
	for _, ch := range append(writers, reader) {
		ch.send("close")
	}
	for _, ch := range append(writers, reader) {
		select {
		case <-ch.exited:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not end", ch.name)
		}
		if !ch.cmd.ProcessState.Success() {
			t.Errorf("%s: %v: %s", ch.name, ch.cmd.ProcessState, ch.stderr.String())
		}
	}
	t.Logf("the reader read the four guilds %d times", reads)
}

// matchServer waits until r holds what the server holds of guild g (its
// name, roles, channels, members with their roles and nicknames, not
// stale), then checks the permissions computed on r against the server's.
func matchServer(t *testing.T, r state.Reader, srv *guildkittest.Server, g state.Snowflake) {
	t.Helper()
	ctx := context.Background()
	rc := srv.Client()
	want := func() (string, error) {
		sg, err := rc.Guilds.Get(ctx, g, nil)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "name %s\n", sg.Name)
		var lines []string
		for _, ro := range sg.Roles {
			lines = append(lines, fmt.Sprintf("role %d %s %d %d", ro.ID, ro.Name, ro.Position, ro.Permissions))
		}
		chans, err := rc.Channels.List(ctx, g)
		if err != nil {
			return "", err
		}
		for _, c := range chans {
			lines = append(lines, fmt.Sprintf("channel %d %s %d", c.ID, c.Name, len(c.PermissionOverwrites)))
		}
		ms, err := rc.Members.List(ctx, g, &guildkit.MemberListParams{Limit: guildkit.Some(1000)})
		if err != nil {
			return "", err
		}
		for _, m := range ms {
			ids := slices.Clone(m.Roles)
			slices.Sort(ids)
			lines = append(lines, fmt.Sprintf("member %d %s %v", m.User.ID, str(m.Nick), ids))
		}
		slices.Sort(lines)
		b.WriteString(strings.Join(lines, "\n"))
		return b.String(), nil
	}
	got := func() (string, error) {
		sg, err := r.Guild(g)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "name %s\n", sg.Name)
		var lines []string
		for ro, err := range r.Roles(g) {
			if err != nil {
				return "", err
			}
			lines = append(lines, fmt.Sprintf("role %d %s %d %d", ro.ID, ro.Name, ro.Position, ro.Permissions))
		}
		for c, err := range r.Channels(g) {
			if err != nil {
				return "", err
			}
			lines = append(lines, fmt.Sprintf("channel %d %s %d", c.ID, c.Name, c.Overwrites.Len()))
		}
		for m, err := range r.Members(g) {
			if err != nil {
				return "", err
			}
			lines = append(lines, fmt.Sprintf("member %d %s %v", m.User.ID, m.Nick, m.Roles.Slice()))
		}
		slices.Sort(lines)
		b.WriteString(strings.Join(lines, "\n"))
		return b.String(), nil
	}
	eventually(t, fmt.Sprintf("guild %d in Redis", g), func() string {
		w, err := want()
		if err != nil {
			return err.Error()
		}
		h, err := got()
		if err != nil {
			return err.Error()
		}
		if w != h {
			return fmt.Sprintf("\nserver:\n%s\nredis:\n%s", w, h)
		}
		return ""
	})
	chans, err := rc.Channels.List(ctx, g)
	require(t, err)
	ms, err := rc.Members.List(ctx, g, &guildkit.MemberListParams{Limit: guildkit.Some(1000)})
	require(t, err)
	for _, c := range chans {
		for _, m := range ms {
			p, err := state.RawPermissionsIn(r, c.ID, m.User.ID)
			require(t, err)
			if want := srv.ChannelPermissions(c.ID, m.User.ID); p != want {
				t.Errorf("channel %d, member %d: %v on Redis, %v on the server", c.ID, m.User.ID, p, want)
			}
		}
	}
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
