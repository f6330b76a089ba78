package guildkittest_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/klauspost/compress/zstd"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// wsFrame is a gateway payload as the test client reads it.
type wsFrame struct {
	Op  int             `json:"op"`
	D   json.RawMessage `json:"d"`
	S   *int64          `json:"s"`
	T   *string         `json:"t"`
	raw map[string]json.RawMessage
}

func (f wsFrame) name() string {
	if f.T == nil {
		return ""
	}
	return *f.T
}

func (f wsFrame) seq() int64 {
	if f.S == nil {
		return 0
	}
	return *f.S
}

// rawClient is a minimal gateway client: coder/websocket and
// encoding/json, nothing of guildkit's, so that the server is checked on
// its own.
type rawClient struct {
	t    testing.TB
	ws   *websocket.Conn
	mode string // "", zlib-stream, zstd-stream, payload
	dec  *json.Decoder
	ctx  context.Context
}

// msgReader reads the connection's binary messages as one stream.
type msgReader struct {
	c   *rawClient
	buf []byte
}

func (m *msgReader) Read(p []byte) (int, error) {
	for len(m.buf) == 0 {
		typ, b, err := m.c.ws.Read(m.c.ctx)
		if err != nil {
			return 0, err
		}
		if typ != websocket.MessageBinary {
			return 0, errors.New("text frame on a compressed stream")
		}
		m.buf = b
	}
	n := copy(p, m.buf)
	m.buf = m.buf[n:]
	return n, nil
}

// dial connects to url + query ("?v=10&encoding=json...").
func dial(t testing.TB, url, query string) *rawClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, url+query, nil)
	if err != nil {
		t.Fatalf("dial %s%s: %v", url, query, err)
	}
	ws.SetReadLimit(64 << 20)
	t.Cleanup(func() { _ = ws.CloseNow() })
	c := &rawClient{t: t, ws: ws, ctx: ctx}
	switch {
	case strings.Contains(query, "zlib-stream"):
		c.mode = "zlib-stream"
	case strings.Contains(query, "zstd-stream"):
		c.mode = "zstd-stream"
	}
	return c
}

func (c *rawClient) next() (wsFrame, error) {
	var f wsFrame
	switch c.mode {
	case "zlib-stream", "zstd-stream":
		if c.dec == nil {
			var r io.Reader
			if c.mode == "zlib-stream" {
				zr, err := zlib.NewReader(&msgReader{c: c})
				if err != nil {
					return f, err
				}
				r = zr
			} else {
				zr, err := zstd.NewReader(&msgReader{c: c}, zstd.WithDecoderConcurrency(1))
				if err != nil {
					return f, err
				}
				r = zr
			}
			c.dec = json.NewDecoder(r)
		}
		if err := c.dec.Decode(&f.raw); err != nil {
			return f, err
		}
	default:
		typ, b, err := c.ws.Read(c.ctx)
		if err != nil {
			return f, err
		}
		if typ == websocket.MessageBinary {
			zr, err := zlib.NewReader(bytes.NewReader(b))
			if err != nil {
				return f, err
			}
			if b, err = io.ReadAll(zr); err != nil {
				return f, err
			}
		}
		if err := json.Unmarshal(b, &f.raw); err != nil {
			return f, err
		}
	}
	b, _ := json.Marshal(f.raw)
	err := json.Unmarshal(b, &f)
	return f, err
}

// read returns the next frame, failing the test on an error.
func (c *rawClient) read() wsFrame {
	c.t.Helper()
	f, err := c.next()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	for _, k := range []string{"op", "d", "s", "t"} {
		if _, ok := f.raw[k]; !ok {
			c.t.Fatalf("frame %s lacks %q", mustMarshal(f.raw), k)
		}
	}
	return f
}

// until reads frames until one named name (a dispatch) arrives.
func (c *rawClient) until(name string) wsFrame {
	c.t.Helper()
	for {
		f := c.read()
		if f.Op == 0 && f.name() == name {
			return f
		}
	}
}

// closed reads until the connection ends and returns the close code (-1
// for none).
func (c *rawClient) closed() websocket.StatusCode {
	c.t.Helper()
	for {
		_, err := c.next()
		if err != nil {
			return websocket.CloseStatus(err)
		}
	}
}

func (c *rawClient) send(op int, d any) {
	c.t.Helper()
	b := mustMarshal(map[string]any{"op": op, "d": d})
	if err := c.ws.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *rawClient) sendRaw(b []byte) {
	c.t.Helper()
	if err := c.ws.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// hello reads HELLO and returns its interval in ms.
func (c *rawClient) hello() int64 {
	c.t.Helper()
	f := c.read()
	if f.Op != 10 {
		c.t.Fatalf("first frame op %d, want 10 (HELLO)", f.Op)
	}
	var d struct {
		HeartbeatInterval int64 `json:"heartbeat_interval"`
	}
	_ = json.Unmarshal(f.D, &d)
	return d.HeartbeatInterval
}

// identify sends IDENTIFY with the given extras.
func (c *rawClient) identify(token string, intents uint64, extra map[string]any) {
	c.t.Helper()
	d := map[string]any{
		"token": token, "intents": intents,
		"properties": map[string]string{"os": "linux", "browser": "rawclient", "device": "rawclient"},
	}
	for k, v := range extra {
		d[k] = v
	}
	c.send(2, d)
}

// ready is READY's d.
type ready struct {
	V                int    `json:"v"`
	SessionID        string `json:"session_id"`
	ResumeGatewayURL string `json:"resume_gateway_url"`
	Shard            []int  `json:"shard"`
	Guilds           []struct {
		ID          string `json:"id"`
		Unavailable bool   `json:"unavailable"`
	} `json:"guilds"`
	User        map[string]any `json:"user"`
	Application map[string]any `json:"application"`
}

// connect dials, reads HELLO, identifies and reads READY.
func connect(t testing.TB, srv *guildkittest.Server, intents uint64, extra map[string]any) (*rawClient, ready, wsFrame) {
	t.Helper()
	c := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
	c.hello()
	c.identify(srv.Token(), intents, extra)
	f := c.until("READY")
	var r ready
	if err := json.Unmarshal(f.D, &r); err != nil {
		t.Fatal(err)
	}
	return c, r, f
}
