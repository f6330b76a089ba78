package redisstore_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// BenchmarkShardsReady: 64 shards of one token at max_concurrency 16
// against the emulator's gateway on loopback, the identify limiter in a
// real redis-server, in one process and split over four. The platform's
// rule allows 16 IDENTIFYs per 5 s, so the last bucket may start 15 s
// after the first: all 64 ready in a little over 15 s (the issue's "about
// 20 s" counts four whole windows). It reports when the first and the
// last shard were ready, and logs the timeline (shards ready per second).
// Real time, about 16 s per run:
//
//	cd ratelimit/redisstore && go test -run '^$' -bench ShardsReady -benchtime 1x -v .
func BenchmarkShardsReady(b *testing.B) {
	for _, procs := range []int{1, 4} {
		b.Run(fmt.Sprintf("processes=%d", procs), func(b *testing.B) {
			for range b.N {
				shardsReady(b, procs)
			}
		})
	}
}

func shardsReady(b *testing.B, procs int) {
	const count, mc = 64, 16
	rs := startRedis(b)
	srv, err := guildkittest.Listen("127.0.0.1:0", guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: mc}))
	require.NoError(b, err)
	b.Cleanup(srv.Close)
	for k := range count {
		srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(1000*count+k) << 22)})
	}
	log := &sharedLog{events: make(map[string][]string)}
	var children []*gatewayChild
	start := time.Now()
	for p := range procs {
		o := gatewayOrders{Redis: rs.Addr(), GatewayURL: srv.GatewayURL(), Token: srv.Token(), Count: count,
			From: p * count / procs, To: (p + 1) * count / procs, MaxConcurrency: mc, Timeline: true,
			Sessions: b.TempDir() + "/none.json"}
		children = append(children, startGatewayChild(b, fmt.Sprintf("process %d", p), o, log))
	}
	var ups []time.Duration
	for _, ch := range children {
		for line := range ch.lines {
			if f := strings.Fields(line); len(f) == 3 && f[0] == "up" {
				ns, _ := strconv.ParseInt(f[2], 10, 64)
				ups = append(ups, time.Unix(0, ns).Sub(start))
				continue
			}
			if line == "ready" {
				ch.send("close")
				continue
			}
			if strings.HasPrefix(line, "take ") {
				continue
			}
			b.Fatalf("%s: %q", ch.name, line)
		}
	}
	require.Len(b, ups, count, "shards ready")
	slices.Sort(ups)
	st := srv.IdentifyStats()
	require.Zero(b, st.Refused)
	require.LessOrEqual(b, st.MaxPerWindow, mc)
	b.ReportMetric(ups[0].Seconds(), "s-first-ready")
	b.ReportMetric(ups[len(ups)-1].Seconds(), "s-all-ready")
	var line strings.Builder
	for sec, i := 0, 0; i < len(ups); sec++ {
		for i < len(ups) && ups[i] < time.Duration(sec+1)*time.Second {
			i++
		}
		fmt.Fprintf(&line, " %ds:%d", sec+1, i)
	}
	b.Logf("%d processes: shards ready by second:%s; %d IDENTIFYs, at most %d per 5 s, %d refused",
		len(children), line.String(), st.Total, st.MaxPerWindow, st.Refused)
}
