package guildkittest_test

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// slowRequest is a request whose body the test writes piece by piece, so
// it knows the request is still in flight while it does something else.
type slowRequest struct {
	pw   *io.PipeWriter
	done chan slowResult
}

type slowResult struct {
	status int
	err    error
}

func startSlow(t *testing.T, method, url, auth, contentType string) *slowRequest {
	t.Helper()
	pr, pw := io.Pipe()
	req, err := http.NewRequestWithContext(t.Context(), method, url, pr)
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Content-Type", contentType)
	sr := &slowRequest{pw: pw, done: make(chan slowResult, 1)}
	go func() {
		resp, err := (&http.Client{}).Do(req)
		// Once the server has answered, writes fail rather than block.
		pr.CloseWithError(errors.New("answered"))
		var res slowResult
		if err != nil {
			res.err = err
		} else {
			res.status = resp.StatusCode
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		sr.done <- res
	}()
	return sr
}

// write sends p, reporting false once the server has stopped reading.
func (sr *slowRequest) write(p []byte) bool {
	_, err := sr.pw.Write(p)
	return err == nil
}

// finish ends the body and waits for the answer.
func (sr *slowRequest) finish() slowResult {
	_ = sr.pw.Close()
	return <-sr.done
}

// heapWatch samples the heap until stopped and reports the largest
// HeapAlloc seen.
type heapWatch struct {
	stop chan struct{}
	wg   sync.WaitGroup
	peak atomic.Uint64
}

func watchHeap() *heapWatch {
	h := &heapWatch{stop: make(chan struct{})}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > h.peak.Load() {
				h.peak.Store(ms.HeapAlloc)
			}
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

func (h *heapWatch) done() uint64 {
	close(h.stop)
	h.wg.Wait()
	return h.peak.Load()
}

// TestLargeAndSlowBodiesDoNotStall sends, in turn, a 100 MiB body to a
// JSON route, a 100 MiB upload to Execute Webhook, and bodies trickled over
// 2 s to Modify Current Member and Edit Webhook Message (the four stalls
// found: each held the server's lock while its body was read). While each
// body is still being sent, another client's Get Guild must be answered: a
// server that read the body under its lock would never answer it (the
// test's client gives up after 20 s). It logs that client's latencies and
// the heap's growth, and requires the growth to stay far below the body
// sizes. It does not call t.Parallel: the heap measurement needs the other
// tests paused.
func TestLargeAndSlowBodiesDoNotStall(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "stall"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "hook")
	m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "member"}})
	memberAuth := "Bot " + srv.NewToken(m.User.ID)
	msg, err := srv.Client().Webhooks.Execute(t.Context(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
	require.NoError(t, err)
	hookURL := srv.BaseURL() + "/webhooks/" + hook.ID.String() + "/" + hook.Token

	other := &http.Client{Timeout: 20 * time.Second}
	getGuild := func() time.Duration {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), "GET", srv.BaseURL()+"/guilds/"+g.ID.String(), nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bot "+srv.Token())
		start := time.Now()
		resp, err := other.Do(req)
		require.NoError(t, err, "Get Guild must be answered while the other body is in flight")
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		return time.Since(start)
	}
	for range 5 {
		getGuild() // warm up the connection
	}

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	heap := watchHeap()
	var lat []time.Duration
	chunk := []byte(strings.Repeat("x", 1<<20))

	// 1. 100 MiB of text to a JSON route (Modify Current Member, the
	// largest JSON limit): refused with 413 after 14 MiB.
	big := startSlow(t, "PATCH", srv.BaseURL()+"/guilds/"+g.ID.String()+"/members/@me", memberAuth, "text/plain")
	require.True(t, big.write([]byte(`{"bio": "`)))
	sent := 0
	for ; sent < 100 && big.write(chunk); sent++ {
		if sent == 4 {
			for range 20 {
				lat = append(lat, getGuild())
			}
		}
	}
	res := big.finish()
	t.Logf("100 MiB JSON body: %d MiB sent before the server stopped reading; answer %d %v", sent, res.status, res.err)
	assert.Less(t, sent, 100, "the server stops reading at the limit")
	if res.err == nil {
		assert.Equal(t, http.StatusRequestEntityTooLarge, res.status)
	}

	// 2. A 100 MiB file to Execute Webhook: streamed, refused with 413
	// after 25 MiB.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	up := startSlow(t, "POST", hookURL, "", mw.FormDataContentType())
	go func() {
		_ = mw.WriteField("payload_json", `{"content": "big"}`)
		if w, err := mw.CreateFormFile("files[0]", "big.bin"); err == nil {
			for range 100 {
				if _, err := w.Write(chunk); err != nil {
					break
				}
			}
		}
		_ = mw.Close()
		_ = pw.Close()
	}()
	buf := make([]byte, 1<<20)
	sent = 0
	for {
		n, rerr := io.ReadFull(pr, buf)
		if n > 0 && !up.write(buf[:n]) {
			break
		}
		if sent++; sent == 8 {
			for range 20 {
				lat = append(lat, getGuild())
			}
		}
		if rerr != nil {
			break
		}
	}
	pr.CloseWithError(io.ErrClosedPipe)
	res = up.finish()
	t.Logf("100 MiB upload: %d MiB sent before the server stopped reading; answer %d %v", sent, res.status, res.err)
	assert.Less(t, sent, 100)
	if res.err == nil {
		assert.Equal(t, http.StatusRequestEntityTooLarge, res.status)
	}

	// 3. Bodies trickled over 2 s, by a member and by a webhook-token
	// holder.
	for _, slow := range []struct {
		name, method, url, auth, body string
	}{
		{"Modify Current Member", "PATCH", srv.BaseURL() + "/guilds/" + g.ID.String() + "/members/@me", memberAuth, `{"nick": "slow coach"}`},
		{"Edit Webhook Message", "PATCH", hookURL + "/messages/" + msg.ID.String(), "", `{"content": "edited slowly"}`},
	} {
		sr := startSlow(t, slow.method, slow.url, slow.auth, "application/json")
		step := 2 * time.Second / time.Duration(len(slow.body))
		for i := range len(slow.body) {
			require.True(t, sr.write([]byte{slow.body[i]}), slow.name)
			if i%4 == 1 {
				lat = append(lat, getGuild()) // the slow request is still unfinished
			}
			time.Sleep(step)
		}
		res := sr.finish()
		require.NoError(t, res.err, slow.name)
		assert.Equal(t, http.StatusOK, res.status, "%s: the slow body is served in the end", slow.name)
	}
	got, _ := srv.Member(g.ID, m.User.ID)
	require.NotNil(t, got.Nick)
	assert.Equal(t, "slow coach", *got.Nick)
	edited, _ := srv.WebhookMessage(msg.ID)
	assert.Equal(t, "edited slowly", edited.Content)

	peak := heap.done()
	slices.Sort(lat)
	t.Logf("Get Guild while the bodies were in flight: %d calls, p50 %v, p90 %v, max %v",
		len(lat), lat[len(lat)/2], lat[len(lat)*9/10], lat[len(lat)-1])
	growth := int64(peak) - int64(base)
	t.Logf("heap: %s before, %s at most meanwhile (+%s)", mib(base), mib(peak), mib(uint64(max(growth, 0))))
	// Garbage not yet collected counts too (the race detector's runs
	// collect later); the reads under the lock added some 300 MiB.
	assert.Less(t, growth, int64(96<<20), "the heap grows by far less than the bodies' 200 MiB")
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
