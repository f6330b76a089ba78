package guildkittest_test

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/internal/cputime"
)

// fanOutSessions is how many sessions BenchmarkGatewayFanOut feeds.
const fanOutSessions = 1000

// fanOutClient is a minimal gateway client: one connection, identified as
// shard [0, 1], whose reader counts the BENCH dispatches it receives.
type fanOutClient struct {
	ws   *websocket.Conn
	got  atomic.Int64
	done chan struct{}
}

func dialFanOut(tb testing.TB, srv *guildkittest.Server, onEvent func()) *fanOutClient {
	ctx := context.Background()
	ws, _, err := websocket.Dial(ctx, srv.GatewayURL()+"/?v=10&encoding=json", nil)
	if err != nil {
		tb.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	read := func(want int) map[string]json.RawMessage {
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				tb.Fatal(err)
			}
			var f map[string]json.RawMessage
			if err := json.Unmarshal(b, &f); err != nil {
				tb.Fatal(err)
			}
			var op int
			_ = json.Unmarshal(f["op"], &op)
			if op == want {
				return f
			}
		}
	}
	read(10) // HELLO
	id, _ := json.Marshal(map[string]any{"op": 2, "d": map[string]any{
		"token": srv.Token(), "intents": 1, "shard": []int{0, 1},
		"properties": map[string]string{"os": "linux", "browser": "bench", "device": "bench"}}})
	if err := ws.Write(ctx, websocket.MessageText, id); err != nil {
		tb.Fatal(err)
	}
	read(0) // READY
	c := &fanOutClient{ws: ws, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var f struct {
				T string `json:"t"`
			}
			if json.Unmarshal(b, &f) == nil && f.T == "BENCH" {
				c.got.Add(1)
				onEvent()
			}
		}
	}()
	return c
}

// BenchmarkGatewayFanOut: the emulator's gateway delivering dispatches to
// 1,000 sessions of one shard (minimal clients in the same process, on
// loopback). An op is one dispatch: deliveries/s counts the frames
// written to the sessions and read by their clients. B/session is the
// heap a connected, idle session costs, the emulator's side and a minimal
// client's together (a WebSocket and a reading goroutine on each side).
//
//	go test -run '^$' -bench GatewayFanOut -benchtime 200x ./guildkittest/
func BenchmarkGatewayFanOut(b *testing.B) {
	srv := guildkittest.NewServer(b, guildkittest.WithGateway(guildkittest.GatewaySettings{
		// The sessions identify one after another on the server's clock,
		// 5 s apart (one rate-limit key): heartbeats must not be due.
		HeartbeatInterval: 4 * time.Hour, ResumeWindow: 4 * time.Hour, QueueLimit: 1 << 20,
	}))
	g := srv.AddGuild(guildkit.Guild{})
	var delivered sync.WaitGroup
	onEvent := func() { delivered.Done() }

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	clients := make([]*fanOutClient, fanOutSessions)
	for i := range clients {
		clients[i] = dialFanOut(b, srv, onEvent)
		srv.AdvanceClock(5 * time.Second)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	perSession := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / fanOutSessions
	b.Cleanup(func() {
		for _, c := range clients {
			_ = c.ws.CloseNow()
			<-c.done
		}
	})

	data := json.RawMessage(`{"guild_id":"` + g.ID.String() + `","n":1}`)
	b.ResetTimer()
	delivered.Add(b.N * fanOutSessions)
	start, cpu := time.Now(), cputime.Process()
	for range b.N {
		srv.DispatchGatewayEvent("BENCH", g.ID, 0, data)
	}
	delivered.Wait()
	elapsed, cpu := time.Since(start), cputime.Process()-cpu
	b.StopTimer()
	b.ReportMetric(float64(b.N*fanOutSessions)/elapsed.Seconds(), "deliveries/s")
	if cpu > 0 {
		// CPU time, the emulator's and the clients' together: on a shared
		// machine it moves less than deliveries/s, which counts waiting.
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*fanOutSessions), "cpu-ns/delivery")
	}
	b.ReportMetric(perSession, "B/session")
}
