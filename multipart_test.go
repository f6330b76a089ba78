package guildkit

import (
	"crypto/sha256"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// receivedPart is what the test server saw of one part.
type receivedPart struct {
	field, filename, contentType string
	size                         int64
	sum                          [32]byte
	small                        string // content when under 1 KiB
}

// readParts streams a multipart body, hashing each part instead of keeping it.
func readParts(t *testing.T, r *http.Request) []receivedPart {
	t.Helper()
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	require.NoError(t, err)
	mr := multipart.NewReader(r.Body, params["boundary"])
	var out []receivedPart
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		h := sha256.New()
		var small strings.Builder
		n, err := io.Copy(io.MultiWriter(h, limitWriter{&small, 1024}), p)
		require.NoError(t, err)
		rp := receivedPart{field: p.FormName(), filename: p.FileName(), contentType: p.Header.Get("Content-Type"), size: n}
		copy(rp.sum[:], h.Sum(nil))
		if n < 1024 {
			rp.small = small.String()
		}
		out = append(out, rp)
	}
}

type limitWriter struct {
	w *strings.Builder
	n int
}

func (l limitWriter) Write(p []byte) (int, error) {
	if l.w.Len() < l.n {
		l.w.Write(p[:min(len(p), l.n-l.w.Len())])
	}
	return len(p), nil
}

func newTestClient(t *testing.T, h http.Handler) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(BotToken("t"), WithBaseURL(srv.URL), WithRetry(3, time.Millisecond, 10*time.Millisecond))
	require.NoError(t, err)
	return c
}

// bigFile writes an n-byte file of a repeating pattern and returns it open.
func bigFile(t *testing.T, n int64) (*os.File, [32]byte) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "big.bin"))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	h := sha256.New()
	for written := int64(0); written < n; written += int64(len(chunk)) {
		_, err := f.Write(chunk)
		require.NoError(t, err)
		h.Write(chunk)
	}
	_, err = f.Seek(0, io.SeekStart)
	require.NoError(t, err)
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return f, sum
}

func TestMultipartStreamsPayloadAndFiles(t *testing.T) {
	t.Parallel()
	var got []receivedPart
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data; boundary="))
		got = readParts(t, r)
		w.WriteHeader(204)
	}))
	_, err := c.do(t.Context(), &request{
		method: "POST", route: "/up", body: map[string]any{"content": "hi"},
		parts: []formPart{
			filePart("files[0]", File{Name: "a.txt", Reader: strings.NewReader("hello")}),
			filePart("files[1]", File{Name: `we"ird.png`, ContentType: "image/png", Reader: strings.NewReader("png")}),
		},
	}, nil)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "payload_json", got[0].field)
	assert.Equal(t, "application/json", got[0].contentType)
	assert.JSONEq(t, `{"content":"hi"}`, got[0].small)
	assert.Equal(t, "files[0]", got[1].field)
	assert.Equal(t, "a.txt", got[1].filename)
	assert.Equal(t, "text/plain; charset=utf-8", got[1].contentType)
	assert.Equal(t, "hello", got[1].small)
	assert.Equal(t, `we"ird.png`, got[2].filename)
	assert.Equal(t, "image/png", got[2].contentType)
}

// TestMultipartSeekableRewoundOnRetry: a 429 is retried with the file sent
// whole again from where it started.
func TestMultipartSeekableRewoundOnRetry(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var sizes []int64
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := readParts(t, r)
		sizes = append(sizes, parts[0].size)
		assert.Equal(t, "0123456789"[3:], parts[0].small)
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(429)
			return
		}
		w.WriteHeader(204)
	}))
	src := strings.NewReader("0123456789")
	src.Seek(3, io.SeekStart) // sent from its current offset
	_, err := c.do(t.Context(), &request{method: "POST", route: "/up", parts: []formPart{filePart("f", File{Name: "n.csv", Reader: src})}}, nil)
	require.NoError(t, err)
	assert.Equal(t, int32(2), calls.Load())
	assert.Equal(t, []int64{7, 7}, sizes)
}

// onlyReader hides every method but Read.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func TestMultipartNonSeekableNotRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		readParts(t, r)
		calls.Add(1)
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(429)
	}))
	_, err := c.do(t.Context(), &request{method: "PUT", route: "/up", parts: []formPart{filePart("f", File{Name: "x", Reader: onlyReader{strings.NewReader("data")}})}}, nil)
	var rl *RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.Contains(t, rl.Reason, "cannot be sent again")
	assert.Equal(t, int32(1), calls.Load())
}

// TestMultipart64MiBFileAllocatesLittle sends a 64 MiB file from an *os.File
// and measures what the process allocates meanwhile (client and test server
// together, so the client's share is at most that).
func TestMultipart64MiBFileAllocatesLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	const size = 64 << 20
	f, sum := bigFile(t, size)
	var got []receivedPart
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = readParts(t, r)
		w.WriteHeader(204)
	}))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.do(t.Context(), &request{
		method: "POST", route: "/up", body: map[string]string{"content": "big"},
		parts: []formPart{filePart("files[0]", File{Name: "big.bin", Reader: f})},
	}, nil)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, int64(size), got[1].size)
	assert.Equal(t, sum, got[1].sum, "the file arrived whole")
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("64 MiB upload: %d bytes allocated (%.2f MiB), %d mallocs", alloc, float64(alloc)/(1<<20), after.Mallocs-before.Mallocs)
	assert.Less(t, alloc, uint64(4<<20), "streaming must not buffer the file")
}

// TestMultipartFraming: a body of at most 16 KiB is sent with a
// Content-Length; a longer one is sent chunked through its own WriteTo (so
// net/http allocates no copy buffer for it); either way a retry sends the
// same bytes, from every kind of source.
func TestMultipartFraming(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		size    int
		chunked bool
	}{{"small", 1000, false}, {"near the bound", 8<<10 - 400, false}, {"large", 64 << 10, true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			content := strings.Repeat("0123456789abcdef", tc.size/16+1)[:tc.size]
			f, err := os.Create(filepath.Join(t.TempDir(), "f.bin"))
			require.NoError(t, err)
			t.Cleanup(func() { f.Close() })
			_, err = f.WriteString(content)
			require.NoError(t, err)
			_, err = f.Seek(0, io.SeekStart)
			require.NoError(t, err)
			var calls atomic.Int32
			var bodies [][]byte
			c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.chunked {
					assert.Equal(t, int64(-1), r.ContentLength)
					assert.Equal(t, []string{"chunked"}, r.TransferEncoding)
				} else {
					assert.Positive(t, r.ContentLength)
					assert.Empty(t, r.TransferEncoding)
				}
				b, err := io.ReadAll(r.Body)
				assert.NoError(t, err)
				bodies = append(bodies, b)
				if calls.Add(1) == 1 {
					w.Header().Set("Retry-After", "0")
					w.WriteHeader(429)
					return
				}
				w.WriteHeader(204)
			}))
			parts := []formPart{
				filePart("files[0]", File{Name: "a.txt", Reader: strings.NewReader(content)}),
				filePart("files[1]", File{Name: "b.bin", Reader: f}),
			}
			if tc.chunked {
				// A seekable source without an in-memory WriteTo, copied
				// through the pooled buffer.
				parts = append(parts, filePart("files[2]", File{Name: "c.bin", Reader: seekOnly{strings.NewReader(content)}}))
			}
			_, err = c.do(t.Context(), &request{method: "POST", route: "/up", body: map[string]string{"content": "x"}, parts: parts}, nil)
			require.NoError(t, err)
			require.Equal(t, int32(2), calls.Load())
			assert.Equal(t, bodies[0], bodies[1], "the retry sends the same body")
			assert.Equal(t, len(parts)+1, strings.Count(string(bodies[1]), "Content-Disposition"))
			assert.Equal(t, len(parts), strings.Count(string(bodies[1]), content))
			// The file was read with ReadAt, each attempt on its own: its
			// offset is where the caller left it.
			off, err := f.Seek(0, io.SeekCurrent)
			require.NoError(t, err)
			assert.Zero(t, off, "the caller's file offset is left as it is")
		})
	}
}

// seekOnly hides every method but Read and Seek.
type seekOnly struct{ r io.ReadSeeker }

func (s seekOnly) Read(p []byte) (int, error)                { return s.r.Read(p) }
func (s seekOnly) Seek(off int64, whence int) (int64, error) { return s.r.Seek(off, whence) }
