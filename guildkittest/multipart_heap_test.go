package guildkittest_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// manyEmptyParts builds a multipart body of a payload_json part and n empty
// file parts, named by name(i), written directly (a multipart.Writer takes
// seconds for 200,000 parts under the race detector).
func manyEmptyParts(t testing.TB, n int, name func(i int) string) ([]byte, string) {
	const boundary = "guildkit-many-parts"
	var b bytes.Buffer
	b.WriteString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"many parts\"}")
	for i := range n {
		b.WriteString("\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"")
		b.WriteString(name(i))
		b.WriteString("\"; filename=\"empty.txt\"\r\nContent-Type: application/octet-stream\r\n\r\n")
	}
	b.WriteString("\r\n--" + boundary + "--\r\n")
	return b.Bytes(), "multipart/form-data; boundary=" + boundary
}

// executeAllocated sends body to Execute Webhook and returns the answer's
// status and the bytes the process allocated while it was answered (an
// upper bound on the heap's growth: what is allocated and not yet
// collected is at most what was allocated).
func executeAllocated(t testing.TB, srv *guildkittest.Server, hook guildkit.Webhook, body []byte, contentType string) (int, uint64) {
	url := srv.BaseURL() + "/webhooks/" + hook.ID.String() + "/" + hook.Token + "?wait=true"
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	runtime.ReadMemStats(&after)
	return resp.StatusCode, after.TotalAlloc - before.TotalAlloc
}

// TestMultipartHeapBound sends Execute Webhook 200,000 empty file parts
// (about 34 MiB) under names the server reads and names it skips, and
// checks that answering it allocates less than twice the body: the server
// refuses it (400) without holding or churning memory in proportion to the
// number of parts.
func TestMultipartHeapBound(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "parts"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "parts")
	for _, tc := range []struct {
		name string
		part func(i int) string
	}{
		{"files[n]", func(i int) string { return "files[" + strconv.Itoa(i) + "]" }},
		{"file", func(int) string { return "file" }},
		{"no name", func(int) string { return "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := manyEmptyParts(t, 200_000, tc.part)
			status, allocated := executeAllocated(t, srv, hook, body, ct)
			t.Logf("body %.1f MiB, allocated while answering %.1f MiB (%.2f× the body)",
				float64(len(body))/(1<<20), float64(allocated)/(1<<20), float64(allocated)/float64(len(body)))
			assert.Equal(t, http.StatusBadRequest, status)
			assert.Less(t, allocated, uint64(2*len(body)), "heap growth must stay under twice the body")
		})
	}
	// Files the server keeps (up to 256 KiB each) and files it only counts,
	// and a part whose header is most of the body: answered, or refused,
	// within the same bound.
	for _, tc := range []struct {
		name   string
		size   int
		header int
		status int
	}{
		{"10 kept files", 256 << 10, 0, http.StatusOK},
		{"10 counted files", 2 << 20, 0, http.StatusOK},
		{"a 4 MiB part header", 1, 4 << 20, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := multipart.NewWriter(&b)
			p, err := w.CreateFormField("payload_json")
			require.NoError(t, err)
			_, _ = p.Write([]byte(`{"content":"files"}`))
			for i := range 10 {
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[%d]"; filename="f%d.bin"`, i, i))
				h.Set("Content-Type", "application/octet-stream")
				if tc.header > 0 && i == 0 {
					h.Set("X-Padding", strings.Repeat("a", tc.header))
				}
				p, err := w.CreatePart(h)
				require.NoError(t, err)
				_, _ = p.Write(bytes.Repeat([]byte{'x'}, tc.size))
			}
			require.NoError(t, w.Close())
			status, allocated := executeAllocated(t, srv, hook, b.Bytes(), w.FormDataContentType())
			t.Logf("body %.1f MiB, allocated while answering %.1f MiB (%.2f× the body)",
				float64(b.Len())/(1<<20), float64(allocated)/(1<<20), float64(allocated)/float64(b.Len()))
			assert.Equal(t, tc.status, status)
			assert.Less(t, allocated, uint64(2*b.Len()), "heap growth must stay under twice the body")
		})
	}
}
