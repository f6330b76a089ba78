package guildkittest_test

import (
	"encoding/json"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// benchSessions connects n identified sessions on shard [0, 1] (the
// identify window moved on the server's clock between them).
func benchSessions(b *testing.B, srv *guildkittest.Server, n int) []*rawClient {
	b.Helper()
	clients := make([]*rawClient, n)
	for i := range clients {
		srv.AdvanceClock(5 * time.Second)
		c := dial(b, srv.GatewayURL(), "/?v=10&encoding=json")
		c.hello()
		c.identify(srv.Token(), 1, nil)
		c.until("READY")
		clients[i] = c
	}
	return clients
}

// BenchmarkGatewayFanOut: one event delivered to 1,000 sessions; the
// deliveries/s metric counts frames read by the clients (in the same
// process, so client work is included).
func BenchmarkGatewayFanOut(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(itoa(n)+"sessions", func(b *testing.B) {
			srv := guildkittest.NewServer(b, guildkittest.WithGateway(guildkittest.GatewaySettings{HeartbeatInterval: 24 * time.Hour}))
			clients := benchSessions(b, srv, n)
			g := srv.AddGuild(guildkit.Guild{})
			_ = g
			d := json.RawMessage(`{"guild_id":"1","user":{"id":"2","username":"u","discriminator":"0","avatar":null}}`)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for _, c := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range b.N {
						if _, err := c.next(); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			for range b.N {
				srv.DispatchGatewayEvent("GUILD_MEMBER_ADD", 0, 0, d)
			}
			wg.Wait()
			b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "deliveries/s")
		})
	}
}

// BenchmarkGatewayIdleSession: memory per idle identified session, server
// and client side together (both live in this process).
func BenchmarkGatewayIdleSession(b *testing.B) {
	const n = 200
	for range b.N {
		srv := guildkittest.New(guildkittest.WithGateway(guildkittest.GatewaySettings{HeartbeatInterval: 24 * time.Hour}))
		srv.AddGuild(guildkit.Guild{})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		clients := benchSessions(b, srv, n)
		for _, c := range clients {
			c.until("GUILD_CREATE")
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/n, "heapB/session")
		b.ReportMetric(float64(runtime.NumGoroutine())/n, "goroutines/session")
		for _, c := range clients {
			_ = c.ws.CloseNow()
		}
		srv.Close()
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
