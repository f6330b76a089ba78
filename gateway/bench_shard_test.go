package gateway

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/internal/cputime"
)

// The whole shard, beside the twin: where BenchmarkGatewayMemberAdd times
// the read path alone, these time what a bot pays per event, from the
// connection to its handler: the shard's reader, its owner, the queue,
// dispatch and a handler (one that does nothing), against a twin that
// reads, decodes with encoding/json and calls its handler on one
// goroutine. The platform's HELLO and READY open each stream.
//
//	go test -run '^$' -bench '^BenchmarkShard' -benchmem -cpu 1 ./gateway/
//
// With -cpu 1 the time per event is CPU time; cpu-ns/event says the same
// from the process's own accounting at any -cpu.

func BenchmarkShardMemberAdd(b *testing.B) {
	benchShards(b, memberAddMessages(b, 4000))
}

func BenchmarkShardMessageCreate(b *testing.B) {
	benchShards(b, messageCreateMessages(b, 4000))
}

// shardStream is what one connection of the whole-shard benchmarks
// carries: HELLO, READY, then messages, framed; ends[k] is where the
// frames of the first k messages end, so that any prefix is a stream.
type shardStream struct {
	frames []byte
	ends   []int
	zlib   bool
}

func newShardStream(tb testing.TB, msgs [][]byte, compress bool) shardStream {
	hello := []byte(`{"op":10,"d":{"heartbeat_interval":3600000},"s":null,"t":null}`)
	ready := []byte(`{"op":0,"t":"READY","s":0,"d":{"v":10,"user":{"id":"1","username":"bench","discriminator":"0"},` +
		`"guilds":[],"session_id":"bench","resume_gateway_url":"ws://gateway.invalid","shard":[0,1],"application":{"id":"1","flags":0}}}`)
	s := shardStream{zlib: compress}
	var zbuf bytes.Buffer
	zw := zlib.NewWriter(&zbuf)
	for i, m := range append([][]byte{hello, ready}, msgs...) {
		if !compress {
			s.frames = wsFrame(s.frames, false, m)
		} else {
			zbuf.Reset()
			_, err := zw.Write(m)
			require.NoError(tb, err)
			require.NoError(tb, zw.Flush())
			s.frames = wsFrame(s.frames, true, zbuf.Bytes())
		}
		if i >= 1 {
			s.ends = append(s.ends, len(s.frames))
		}
	}
	return s
}

// benchShards runs the shard and the twin over msgs, plain and through
// zlib-stream: guildkit/plain, twin/plain, guildkit/zlib-stream and
// twin/zlib-stream.
func benchShards(b *testing.B, msgs [][]byte) {
	for _, compress := range []bool{false, true} {
		s := newShardStream(b, msgs, compress)
		name := "plain"
		if compress {
			name = "zlib-stream"
		}
		b.Run("guildkit/"+name, func(b *testing.B) { runShardBench(b, s, len(msgs), runShard) })
		b.Run("twin/"+name, func(b *testing.B) { runShardBench(b, s, len(msgs), runTwinShard) })
	}
}

// runShardBench hands b.N events to the handlers of connections made by
// run, up to per a connection, and reports events/s and CPU per event.
func runShardBench(b *testing.B, s shardStream, per int, run func(b *testing.B, s shardStream, n int)) {
	b.ReportAllocs()
	start, cpu := time.Now(), cputime.Process()
	for left := b.N; left > 0; left -= per {
		run(b, s, min(left, per))
	}
	elapsed, cpu := time.Since(start), cputime.Process()-cpu
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/event")
	}
}

// runShard opens a shard on the first n messages of s and returns once
// its handler has had them all.
func runShard(b *testing.B, s shardStream, n int) {
	r := &replay{frames: s.frames[:s.ends[n]]}
	mode := CompressionNone
	if s.zlib {
		mode = CompressionZlibStream
	}
	var got atomic.Int64
	all := make(chan struct{})
	mux := NewMux()
	OnAny(mux, func(_ context.Context, ev Event) {
		if _, ready := ev.(*Ready); ready {
			return
		}
		benchSink = ev
		if got.Add(1) == int64(n) {
			close(all)
		}
	})
	sh, err := NewShard("bench", WithURL("ws://gateway.invalid"), WithHTTPClient(&http.Client{Transport: r}),
		WithCompression(mode), WithMux(mux), WithLogger(slog.New(slog.DiscardHandler)), WithBackoff(time.Hour, time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := sh.Open(ctx); err != nil {
		b.Fatal(err)
	}
	<-all
	if _, err := sh.Close(ctx); err != nil && !errors.Is(err, ErrClosed) {
		b.Fatal(err)
	}
}

// runTwinShard reads the first n messages of s as the twin: read, decode,
// call the handler, on one goroutine.
func runTwinShard(b *testing.B, s shardStream, n int) {
	ctx := context.Background()
	ws := dialTB(b, stream{frames: s.frames[:s.ends[n]], zlib: s.zlib})
	defer ws.CloseNow()
	r := &twinShardReader{twinReader: twinReader{ws: ws}}
	handler := func(ev any) { benchSink = ev }
	for got := 0; got < n; {
		ev, err := r.next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if ev != nil {
			handler(ev)
			got++
		}
	}
}

// twinShardReader is the twin's reader with the payloads a whole stream
// has: HELLO and READY (read, no event), and MESSAGE_CREATE.
type twinShardReader struct {
	twinReader
}

func (r *twinShardReader) next(ctx context.Context) (any, error) {
	p, err := r.payload(ctx)
	if err != nil {
		return nil, err
	}
	if p.Op != 0 || p.T == nil {
		return nil, nil // HELLO
	}
	var ev any
	switch *p.T {
	case "READY":
		ev = new(struct {
			SessionID        string `json:"session_id"`
			ResumeGatewayURL string `json:"resume_gateway_url"`
		})
		if err := json.Unmarshal(p.D, ev); err != nil {
			return nil, err
		}
		return nil, nil
	case "GUILD_MEMBER_ADD":
		ev = new(twinGuildMemberAdd)
	case "MESSAGE_CREATE":
		ev = new(twinMessage)
	default:
		return nil, errors.New("twin: unexpected " + *p.T)
	}
	if err := json.Unmarshal(p.D, ev); err != nil {
		return nil, err
	}
	return ev, nil
}

// twinMessage is the twin's MESSAGE_CREATE: the fields the SDK's Message
// and MessageCreate model, as plain structs.
type twinMessage struct {
	ID              string      `json:"id"`
	ChannelID       string      `json:"channel_id"`
	GuildID         *string     `json:"guild_id"`
	Author          *twinUser   `json:"author"`
	Member          *twinMember `json:"member"`
	Content         string      `json:"content"`
	Timestamp       time.Time   `json:"timestamp"`
	EditedTimestamp *time.Time  `json:"edited_timestamp"`
	TTS             bool        `json:"tts"`
	MentionEveryone bool        `json:"mention_everyone"`
	Mentions        []struct {
		twinUser
		Member *twinMember `json:"member"`
	} `json:"mentions"`
	MentionRoles []string          `json:"mention_roles"`
	Attachments  []json.RawMessage `json:"attachments"`
	Embeds       []json.RawMessage `json:"embeds"`
	Reactions    []struct {
		Count int  `json:"count"`
		Me    bool `json:"me"`
		Emoji struct {
			ID   *string `json:"id"`
			Name *string `json:"name"`
		} `json:"emoji"`
	} `json:"reactions"`
	Nonce       any               `json:"nonce"`
	Pinned      bool              `json:"pinned"`
	Type        int               `json:"type"`
	Flags       int               `json:"flags"`
	Components  []json.RawMessage `json:"components"`
	ChannelType *int              `json:"channel_type"`
	Position    *int              `json:"position"`
}
