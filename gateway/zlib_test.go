package gateway

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zlibWriter is the server's side: one stream, a sync flush per message.
type zlibWriter struct {
	buf bytes.Buffer
	w   *zlib.Writer
}

func newZlibWriter() *zlibWriter {
	z := &zlibWriter{}
	z.w = zlib.NewWriter(&z.buf)
	return z
}

func (z *zlibWriter) message(p []byte) []byte {
	z.buf.Reset()
	_, _ = z.w.Write(p)
	_ = z.w.Flush()
	return append([]byte(nil), z.buf.Bytes()...)
}

func TestZlibStream(t *testing.T) {
	t.Parallel()
	w := newZlibWriter()
	z := newZlibStream(1 << 20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		// Messages that repeat earlier ones reach back into the window,
		// some farther than one message.
		msg := []byte(fmt.Sprintf(`{"op":0,"s":%d,"t":"GUILD_MEMBER_ADD","d":{"n":%d,"pad":"%s"}}`, i, i, bytes.Repeat([]byte{byte('a' + i%26)}, rng.IntN(9000))))
		c := w.message(msg)
		require.True(t, bytes.HasSuffix(c, zlibSuffix))
		// Split over several WebSocket messages.
		cut := rng.IntN(len(c))
		got, err := z.write(c[:cut])
		require.NoError(t, err)
		if cut < len(c) && !bytes.HasSuffix(c[:cut], zlibSuffix) {
			require.Nil(t, got)
			got, err = z.write(c[cut:])
			require.NoError(t, err)
		}
		require.Equal(t, string(msg), string(got), "message %d", i)
	}
}

// TestZlibStreamAtTheWindowsEdge: a message whose output ends where the
// inflater's window does (its output handed out before the sync flush)
// and messages with no output at all leave the inflater asking past the
// message's end; the next messages inflate all the same, reaching back
// into the output before them.
func TestZlibStreamAtTheWindowsEdge(t *testing.T) {
	t.Parallel()
	w := newZlibWriter()
	z := newZlibStream(1 << 20)
	text := func(n int, seed uint64) []byte {
		rng := rand.New(rand.NewPCG(seed, seed))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return b
	}
	first := text(windowSize, 1)
	msgs := [][]byte{
		first, // ends at the window's edge
		[]byte("short, then a repeat of the first: " + string(first[100:400])),
		nil, // no output
		nil,
		text(windowSize-len("short, then a repeat of the first: ")-300, 2), // the edge again
		[]byte(`{"op":11}`),
		append([]byte(`{"op":0,"d":"`), append(first[:2000], `"}`...)...),
	}
	edges := 0
	for i, msg := range msgs {
		got, err := z.write(w.message(msg))
		require.NoError(t, err, "message %d", i)
		require.NotNil(t, got, "message %d is whole", i)
		require.Equal(t, string(msg), string(got), "message %d", i)
		if z.reset {
			edges++
		}
	}
	assert.GreaterOrEqual(t, edges, 3, "the inflater asked past a message's end")
}

func TestZlibStreamLimits(t *testing.T) {
	t.Parallel()
	w := newZlibWriter()
	z := newZlibStream(1000)
	_, err := z.write(w.message(bytes.Repeat([]byte("x"), 5000)))
	require.ErrorContains(t, err, "inflates to over 1000 bytes")

	_, err = newZlibStream(1000).write([]byte{0x00, 0x01, 0x00, 0x00, 0xff, 0xff})
	require.ErrorIs(t, err, errZlibHeader)

	_, err = newZlibStream(100).write(bytes.Repeat([]byte{1}, 200))
	assert.ErrorContains(t, err, "over 100 compressed bytes")
}

func FuzzZlibStream(f *testing.F) {
	w := newZlibWriter()
	f.Add(w.message([]byte(`{"op":10,"d":{"heartbeat_interval":41250}}`)), []byte(nil))
	f.Add(w.message([]byte(`{"op":11}`)), w.message([]byte(`{"op":11}`)))
	f.Add([]byte{0x78, 0x9c, 0x00, 0x00, 0xff, 0xff}, []byte{0x00, 0x00, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		const max = 1 << 16
		z := newZlibStream(max)
		for _, p := range [][]byte{a, b, a} {
			out, err := z.write(p)
			if err != nil {
				return // a broken stream ends the connection
			}
			if len(out) > max {
				t.Fatalf("inflated %d bytes, over the cap", len(out))
			}
		}
	})
}

// FuzzZlibStreamInflatesEveryMessage cuts data into messages (sizes gives
// their lengths, in units of 251 bytes plus the byte itself, so that they
// reach the window's edge), sends them through one zlib stream and checks
// each comes out whole.
func FuzzZlibStreamInflatesEveryMessage(f *testing.F) {
	f.Add(bytes.Repeat([]byte("abcdefgh"), 9000), []byte{130, 0, 0, 1, 255, 7})
	f.Add([]byte(`{"op":11}`), []byte{9})
	f.Fuzz(func(t *testing.T, data, sizes []byte) {
		w := newZlibWriter()
		z := newZlibStream(1 << 20)
		for _, size := range sizes {
			n := min(len(data), int(size)/2*251+int(size))
			msg := data[:n]
			data = data[n:]
			got, err := z.write(w.message(msg))
			require.NoError(t, err)
			require.Equal(t, msg, got[:len(got):len(got)], "%d bytes", n)
		}
	})
}

// BenchmarkZlibStream inflates a stream of GUILD_MEMBER_ADD-sized
// messages through one connection's inflater: the per-message cost of
// zlib-stream on the read path.
func BenchmarkZlibStream(b *testing.B) {
	w := newZlibWriter()
	var msgs [][]byte
	raw := 0
	for i := range 64 {
		m := []byte(fmt.Sprintf(`{"op":0,"s":%d,"t":"GUILD_MEMBER_ADD","d":{"guild_id":"1456074443980800001","user":{"id":"%d","username":"member%d","discriminator":"0","global_name":"Member %d","avatar":"a_1234567890abcdef1234567890abcdef"},"roles":["1456074443980800005","1456074443980800006"],"joined_at":"2026-01-01T00:00:00.000000+00:00","deaf":false,"mute":false,"flags":0,"pending":false}}`, i, 1456074443980800100+i, i, i))
		raw += len(m)
		msgs = append(msgs, w.message(m))
	}
	b.SetBytes(int64(raw / len(msgs)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; {
		z := newZlibStream(1 << 20)
		for _, m := range msgs {
			if _, err := z.write(m); err != nil {
				b.Fatal(err)
			}
			if i++; i == b.N {
				break
			}
		}
	}
}
