package gateway_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

var quiet = gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// waiter records that Run waited for it, with a context that is not done.
type waiter struct{ calls, live atomic.Int32 }

func (w *waiter) Wait(ctx context.Context) error {
	w.calls.Add(1)
	if ctx.Err() == nil {
		w.live.Add(1)
	}
	return nil
}

// addRole creates a role through REST: the server sends GUILD_ROLE_CREATE.
func addRole(t *testing.T, srv *guildkittest.Server, guildID guildkit.Snowflake, name string) {
	t.Helper()
	_, err := srv.Client().Roles.Create(context.Background(), guildID, &guildkit.RoleCreateParams{Name: guildkit.Some(name)})
	require.NoError(t, err)
}

// runShard starts shard.Run in a goroutine and returns once the shard is
// ready, with the function that cancels Run's context and returns Run's
// error.
func runShard(t *testing.T, run func(context.Context, *gateway.RunOptions) error, opts *gateway.RunOptions) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	opts.Ready = func() { close(ready) }
	go func() { done <- run(ctx, opts) }()
	select {
	case <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("Run returned before the shard was ready: %v", err)
	}
	t.Cleanup(cancel)
	return func() error { cancel(); return <-done }
}

func TestShardRunStopsOnCancel(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	require.NoError(t, err)
	var roles atomic.Int32
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildRoleCreate) { roles.Add(1) })
	var w waiter
	var saved []gateway.Session
	stop := runShard(t, shard.Run, &gateway.RunOptions{Wait: []gateway.Waiter{&w}, Save: func(s []gateway.Session) error {
		saved = s
		return nil
	}})
	addRole(t, srv, g.ID, "a")
	addRole(t, srv, g.ID, "b")
	require.NoError(t, srv.Settle(context.Background(), shard))
	assert.EqualValues(t, 2, roles.Load())

	require.NoError(t, stop())
	assert.Equal(t, gateway.StatusClosed, shard.Status())
	assert.EqualValues(t, 1, w.live.Load(), "Wait is called once, within the grace")
	require.Len(t, saved, 1)
	sessions := srv.GatewaySessions()
	require.NotEmpty(t, sessions)
	assert.Equal(t, sessions[0].ID, saved[0].ID)
	assert.Equal(t, sessions[0].Sequence, saved[0].Sequence, "the session as far as the handlers got: every event")
	assert.False(t, sessions[0].Ended, "a resumable close keeps the session")
}

func TestShardRunReturnsTheFatalClose(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	require.NoError(t, err)
	var w waiter
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	ready := make(chan struct{})
	go func() {
		done <- shard.Run(ctx, &gateway.RunOptions{Wait: []gateway.Waiter{&w}, Ready: func() { close(ready) }})
	}()
	<-ready
	sessions := srv.GatewaySessions()
	require.Len(t, sessions, 1)
	_, err = srv.InjectGatewayFault(ctx, sessions[0].ID, guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 4004})
	require.NoError(t, err)
	err = <-done
	var ce *gateway.CloseError
	require.ErrorAs(t, err, &ce)
	assert.EqualValues(t, 4004, ce.Code)
	assert.EqualValues(t, 1, w.live.Load(), "the handlers are waited for when the shard stops by itself too")
}

func TestShardRunCancelledWhileOpening(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	saves := 0
	err = shard.Run(ctx, &gateway.RunOptions{Save: func([]gateway.Session) error { saves++; return nil }})
	require.NoError(t, err, "a signal while connecting is an ordinary stop")
	assert.Zero(t, saves, "no session to save")
	assert.Equal(t, gateway.StatusClosed, shard.Status())
	require.Error(t, shard.Run(context.Background(), nil), "a shard runs once")
}

// Run on a shard (or manager) opened already fails and leaves it running.
func TestRunOnAnOpenShardLeavesItRunning(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, shard.Open(ctx))
	require.ErrorContains(t, shard.Run(ctx, nil), "opened already")
	assert.Equal(t, gateway.StatusReady, shard.Status())
	require.NoError(t, shard.End(ctx))

	m, err := gateway.NewManager(srv.Token(), gateway.WithShardCount(1), gateway.WithShardOptions(gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet))
	require.NoError(t, err)
	require.NoError(t, m.Open(ctx))
	require.ErrorContains(t, m.Run(ctx, nil), "opened already")
	assert.Equal(t, gateway.StatusReady, m.States()[0].Status)
	require.NoError(t, m.End(ctx))
}

func TestShardRunSaveError(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	require.NoError(t, err)
	boom := errors.New("disk full")
	stop := runShard(t, shard.Run, &gateway.RunOptions{Save: func([]gateway.Session) error { return boom }})
	err = stop()
	require.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), "saving the sessions")
}

func TestManagerRun(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 2}))
	g0 := srv.AddGuild(guildkit.Guild{ID: guildOn(0, 2, 0), Name: "zero"})
	g1 := srv.AddGuild(guildkit.Guild{ID: guildOn(1, 2, 0), Name: "one"})
	m, err := gateway.NewManager(srv.Token(), gateway.WithShardCount(2),
		gateway.WithShardOptions(gateway.WithURL(srv.GatewayURL()), gateway.WithMaxConcurrency(2), gateway.WithIntents(gateway.IntentGuilds), quiet))
	require.NoError(t, err)
	var roles atomic.Int32
	gateway.On(m, func(ctx context.Context, e *gateway.GuildRoleCreate) { roles.Add(1) })
	var saved []gateway.Session
	var w waiter
	stop := runShard(t, m.Run, &gateway.RunOptions{Wait: []gateway.Waiter{&w}, Save: func(s []gateway.Session) error {
		saved = s
		return nil
	}})
	addRole(t, srv, g0.ID, "a")
	addRole(t, srv, g1.ID, "b")
	require.NoError(t, srv.Settle(context.Background(), m))
	assert.EqualValues(t, 2, roles.Load(), "each shard's event handled before Settle returned")
	require.NoError(t, stop())
	assert.Len(t, saved, 2)
	assert.EqualValues(t, 1, w.live.Load())
}

func TestManagerRunEndsWhenEveryShardFailed(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 2}))
	m, err := gateway.NewManager(srv.Token(), gateway.WithShardCount(2), gateway.WithShardIDs(0, 1),
		gateway.WithShardOptions(gateway.WithURL(srv.GatewayURL()), gateway.WithMaxConcurrency(2), gateway.WithIntents(gateway.IntentGuilds), quiet))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- m.Run(ctx, &gateway.RunOptions{Ready: func() { close(ready) }}) }()
	<-ready
	for _, s := range srv.GatewaySessions() {
		_, err := srv.InjectGatewayFault(ctx, s.ID, guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 4004})
		require.NoError(t, err)
	}
	err = <-done
	var ce *gateway.CloseError
	require.ErrorAs(t, err, &ce)
	assert.EqualValues(t, 4004, ce.Code)
}

// Settle waits for what the handlers caused too: a handler of one event
// that makes a REST call the server answers with another event.
func TestSettleWaitsForEventsHandlersCause(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	rest := srv.Client()
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), quiet)
	require.NoError(t, err)
	var created atomic.Int32
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberAdd) {
		_, err := rest.Roles.Create(ctx, e.GuildID, &guildkit.RoleCreateParams{Name: guildkit.Some("welcome " + e.User.Username)})
		assert.NoError(t, err)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildRoleCreate) { created.Add(1) })
	ctx := context.Background()
	require.NoError(t, shard.Open(ctx))
	defer shard.End(ctx)
	srv.JoinMember(g.ID, guildkit.User{Username: "ada"})
	require.NoError(t, srv.Settle(ctx, shard))
	assert.EqualValues(t, 1, created.Load())
}

// A session that is not the shard's is not waited for, and a closed
// shard's unhandled events are an error, not a hang.
func TestWaitHandledOtherSessionsAndClosedShards(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, shard.WaitHandled(ctx, "not-its-own", 10))
	require.NoError(t, shard.Open(ctx))
	_, err = shard.Close(ctx)
	require.NoError(t, err)
	addRole(t, srv, g.ID, "while closed")
	err = srv.Settle(ctx, shard)
	require.ErrorIs(t, err, gateway.ErrClosed)
}

// A bot that asks for a privileged intent on purpose is not told so at
// Info on every start: the line is Debug.
func TestPrivilegedIntentsAreNotAnInfoLine(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	var logs bytes.Buffer // the handler serializes writes; read after End
	shard, err := gateway.NewShard(srv.Token(), gateway.WithURL(srv.GatewayURL()), gateway.WithIntents(gateway.IntentGuildMembers),
		gateway.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	require.NoError(t, err)
	require.NoError(t, shard.Open(context.Background()))
	require.NoError(t, shard.End(context.Background()))
	assert.NotContains(t, logs.String(), "privileged")
}
