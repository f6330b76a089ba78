package guildkittest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// limitsFixture is a guild with the bot as owner, a member, a channel and
// a webhook.
type limitsFixture struct {
	srv    *guildkittest.Server
	g      guildkit.Guild
	ch     guildkit.Channel
	hook   guildkit.Webhook
	member guildkit.Member
}

func newLimits(t *testing.T, opts ...guildkittest.Option) *limitsFixture {
	t.Helper()
	srv := guildkittest.NewServer(t, opts...)
	g := srv.AddGuild(guildkit.Guild{Name: "limits"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	return &limitsFixture{
		srv: srv, g: g, ch: ch, hook: srv.AddWebhook(ch.ID, "hook"),
		member: srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}}),
	}
}

func (f *limitsFixture) bot() string { return "Bot " + f.srv.Token() }

func (f *limitsFixture) url(path string) string { return f.srv.BaseURL() + path }

func (f *limitsFixture) hookURL() string {
	return f.url("/webhooks/" + f.hook.ID.String() + "/" + f.hook.Token)
}

// errorCode decodes the interface's error body.
func errorCode(t *testing.T, body []byte) guildkit.ErrorCode {
	t.Helper()
	var e struct {
		Code guildkit.ErrorCode `json:"code"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	return e.Code
}

// multipartBody builds an Execute Webhook body with payload and n files of
// size bytes each.
func multipartBody(t *testing.T, payload string, n, size int) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if payload != "" {
		require.NoError(t, mw.WriteField("payload_json", payload))
	}
	for i := range n {
		w, err := mw.CreateFormFile(fmt.Sprintf("files[%d]", i), fmt.Sprintf("f%d.txt", i))
		require.NoError(t, err)
		_, err = w.Write(bytes.Repeat([]byte("x"), size))
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), buf.Bytes()
}

// TestBodyLimits: a body over its route's limit is answered 413 with the
// platform's code 40005, whatever its content type; image routes and uploads
// have larger limits than plain JSON.
func TestBodyLimits(t *testing.T) {
	t.Parallel()
	f := newLimits(t)
	member := f.url("/guilds/" + f.g.ID.String() + "/members/" + f.member.User.ID.String())
	bio := func(n int) string { return `{"bio": "` + strings.Repeat("b", n) + `"}` }

	// A plain JSON route: 1 MiB, whatever the content type says.
	for _, ct := range []string{"application/json", "text/plain", ""} {
		status, body := rawDo(t, "PATCH", member, f.bot(), ct, bio(guildkittest.MaxJSONBody))
		assert.Equal(t, http.StatusRequestEntityTooLarge, status, "content type %q", ct)
		assert.Equal(t, guildkit.ErrorCode(40005), errorCode(t, body))
	}
	status, body := rawDo(t, "PATCH", member, f.bot(), "application/json", `{"nick": "`+strings.Repeat(" ", guildkittest.MaxJSONBody-100)+`"}`)
	assert.Equal(t, http.StatusBadRequest, status, "just under the limit, read and judged: %.200s", body)
	// Modify Current Member carries images: 14 MiB.
	me := f.url("/guilds/" + f.g.ID.String() + "/members/@me")
	status, body = rawDo(t, "PATCH", me, f.bot(), "application/json", bio(2<<20))
	assert.Equal(t, http.StatusOK, status, "%.200s", body)
	status, _ = rawDo(t, "PATCH", me, f.bot(), "text/plain", bio(guildkittest.MaxImageBody))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
	// A reading route with a body.
	status, _ = rawDo(t, "GET", f.url("/guilds/"+f.g.ID.String()), f.bot(), "application/json", bio(guildkittest.MaxJSONBody))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
	// An image route takes a 10 MiB image, as a data URI.
	img := `{"icon": "data:image/png;base64,` + strings.Repeat("A", 10<<20) + `"}`
	status, body = rawDo(t, "PATCH", f.url("/guilds/"+f.g.ID.String()), f.bot(), "application/json", img)
	assert.Equal(t, http.StatusOK, status, "%.200s", body)

	// Execute Webhook: JSON at 1 MiB, uploads at 25 MiB in all.
	status, _ = rawDo(t, "POST", f.hookURL(), "", "application/json", `{"content": "`+strings.Repeat("c", guildkittest.MaxJSONBody)+`"}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
	ct, mp := multipartBody(t, `{"content": "files"}`, 2, 12<<20)
	status, body = rawDo(t, "POST", f.hookURL()+"?wait=true", "", ct, string(mp))
	require.Equal(t, http.StatusOK, status, "%.200s", body)
	ct, mp = multipartBody(t, `{"content": "files"}`, 3, 9<<20)
	status, body = rawDo(t, "POST", f.hookURL(), "", ct, string(mp))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
	assert.Equal(t, guildkit.ErrorCode(40005), errorCode(t, body))
	ct, mp = multipartBody(t, `{"content": "`+strings.Repeat("c", guildkittest.MaxJSONBody)+`"}`, 0, 0)
	status, _ = rawDo(t, "POST", f.hookURL(), "", ct, string(mp))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status, "payload_json over 1 MiB")
	assert.Len(t, f.srv.WebhookMessages(f.hook.ID), 1)

	// Every refusal is in the request log, with its status.
	n := 0
	for _, r := range f.srv.Requests() {
		if r.Status == http.StatusRequestEntityTooLarge {
			n++
			assert.Empty(t, r.Body, "an oversized body is not kept")
		}
	}
	assert.Equal(t, 8, n)
}

// TestMessageFilesCap: at most 10 files[n] parts and 10 attachments
// entries per message, as on the reference platform; the 11th part is
// refused without reading the rest.
func TestMessageFilesCap(t *testing.T) {
	t.Parallel()
	f := newLimits(t)
	ct, mp := multipartBody(t, `{"content": "ten"}`, 10, 10)
	status, body := rawDo(t, "POST", f.hookURL()+"?wait=true", "", ct, string(mp))
	require.Equal(t, http.StatusOK, status, "%s", body)
	var m guildkit.Message
	require.NoError(t, json.Unmarshal(body, &m))
	assert.Len(t, m.Attachments, 10)

	ct, mp = multipartBody(t, `{"content": "eleven"}`, 11, 10)
	status, body = rawDo(t, "POST", f.hookURL(), "", ct, string(mp))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, string(body), `"files"`)

	entries := make([]map[string]any, 11)
	for i := range entries {
		entries[i] = map[string]any{"id": i, "description": "d"}
	}
	payload, _ := json.Marshal(map[string]any{"content": "x", "attachments": entries})
	status, body = rawDo(t, "POST", f.hookURL(), "", "application/json", string(payload))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, string(body), `"attachments"`)
	status, body = rawDo(t, "PATCH", f.hookURL()+"/messages/"+m.ID.String(), "", "application/json", string(payload))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, string(body), `"attachments"`)

	// The hostile body of 200,000 file parts: refused at the 11th.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	wrote := make(chan int, 1)
	go func() {
		n := 0
		defer func() { wrote <- n }()
		for ; n < 200_000; n++ {
			w, err := mw.CreateFormFile(fmt.Sprintf("files[%d]", n), "f")
			if err != nil {
				return
			}
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
		}
		_ = mw.Close()
		_ = pw.Close()
	}()
	req, err := http.NewRequestWithContext(t.Context(), "POST", f.hookURL(), pr)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		resp.Body.Close()
	}
	pr.CloseWithError(io.ErrClosedPipe)
	t.Logf("the client wrote %d of 200000 parts before the server's answer", <-wrote)
	assert.Len(t, f.srv.WebhookMessages(f.hook.ID), 1)
}

// TestStrictJSONBodies: trailing data after the value, and a null body,
// are refused with 400, as the platform does; white space after the value
// and an empty optional body are not.
func TestStrictJSONBodies(t *testing.T) {
	t.Parallel()
	f := newLimits(t)
	me := f.url("/guilds/" + f.g.ID.String() + "/members/@me")
	for body, want := range map[string]int{
		`{"nick": "a"}`:          200,
		"{\"nick\": \"a\"}\n\t ": 200,
		`{"nick": "a"} {}`:       400,
		`{"nick": "a"}x`:         400,
		`{"nick": "a"}]`:         400,
		`null`:                   400,
		` null `:                 400,
		`[]`:                     400,
	} {
		status, b := rawDo(t, "PATCH", me, f.bot(), "application/json", body)
		assert.Equal(t, want, status, "%q: %s", body, b)
	}
	positions := f.url("/guilds/" + f.g.ID.String() + "/roles")
	for body, want := range map[string]int{`[]`: 200, `null`: 400, `[] []`: 400} {
		status, b := rawDo(t, "PATCH", positions, f.bot(), "application/json", body)
		assert.Equal(t, want, status, "%q: %s", body, b)
	}
	ban := f.url("/guilds/" + f.g.ID.String() + "/bans/" + f.member.User.ID.String())
	status, _ := rawDo(t, "PUT", ban, f.bot(), "application/json", `null`)
	assert.Equal(t, 400, status, "an optional body may be empty, not null")
	status, _ = rawDo(t, "PUT", ban, f.bot(), "application/json", `{} 1`)
	assert.Equal(t, 400, status)
	_, banned := f.srv.Ban(f.g.ID, f.member.User.ID)
	assert.False(t, banned)
	status, _ = rawDo(t, "PUT", ban, f.bot(), "", "")
	assert.Equal(t, 204, status)
	status, _ = rawDo(t, "POST", f.hookURL(), "", "application/json", `{"content": "x"} {"content": "y"}`)
	assert.Equal(t, 400, status)
	ct, mp := multipartBody(t, `{"content": "x"} trailing`, 0, 0)
	status, _ = rawDo(t, "POST", f.hookURL(), "", ct, string(mp))
	assert.Equal(t, 400, status)
	assert.Empty(t, f.srv.WebhookMessages(f.hook.ID))
}

// TestWrongMethodIs405: a known route's path with a method it does not
// serve is 405 with Allow and the interface's error body, at the root and
// under APIPrefix; an unknown path stays 404.
func TestWrongMethodIs405(t *testing.T) {
	t.Parallel()
	f := newLimits(t)
	for _, base := range []string{f.srv.URL, f.srv.BaseURL()} {
		status, body := rawDo(t, "POST", base+"/guilds/"+f.g.ID.String(), f.bot(), "", "")
		assert.Equal(t, http.StatusMethodNotAllowed, status)
		assert.JSONEq(t, `{"code": 0, "message": "405: Method Not Allowed"}`, string(body))
	}
	req, err := http.NewRequestWithContext(t.Context(), "PUT", f.url("/guilds/"+f.g.ID.String()+"/roles"), nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "GET, PATCH, POST", resp.Header.Get("Allow"))
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	last, ok := f.srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, http.StatusMethodNotAllowed, last.Status)

	status, _ := rawDo(t, "GET", f.url("/nothing/here"), "", "", "")
	assert.Equal(t, http.StatusNotFound, status)
}

// TestRequestLogIsABoundedRing: the log keeps the most recent requests, at
// most n and n × 4 KiB, and never an Authorization value; the control API
// serves it.
func TestRequestLogIsABoundedRing(t *testing.T) {
	t.Parallel()
	f := newLimits(t, guildkittest.WithRequestLogSize(5), guildkittest.WithEventLogSize(3))
	c := f.srv.Client()
	for i := range 20 {
		_, err := c.Members.ModifyCurrent(t.Context(), f.g.ID, &guildkit.MemberModifyCurrentParams{Nick: guildkit.Some(fmt.Sprintf("n%d", i))})
		require.NoError(t, err)
	}
	reqs := f.srv.Requests()
	require.Len(t, reqs, 5)
	assert.JSONEq(t, `{"nick": "n19"}`, string(reqs[4].Body), "the newest last")
	assert.JSONEq(t, `{"nick": "n15"}`, string(reqs[0].Body))
	for _, r := range reqs {
		assert.Equal(t, "Bot [redacted]", r.Header.Get("Authorization"))
	}
	events := f.srv.Events()
	require.Len(t, events, 3)
	assert.Equal(t, "n19", *events[2].Data.(guildkit.Member).Nick)

	// The byte budget: 5 × 4 KiB, so requests with 8 KiB bodies crowd
	// each other out.
	for range 4 {
		body := `{"bio": "` + strings.Repeat("b", 8<<10) + `"}`
		status, _ := rawDo(t, "PATCH", f.url("/guilds/"+f.g.ID.String()+"/members/@me"), f.bot(), "application/json", body)
		require.Equal(t, 200, status)
	}
	reqs = f.srv.Requests()
	assert.Len(t, reqs, 2, "two of 8 KiB fit in 20 KiB")
	for _, r := range reqs {
		assert.Greater(t, len(r.Body), 8<<10)
	}

	// A credential sent to an unknown route, or with a bad body, is not
	// kept either.
	rawDo(t, "GET", f.url("/nothing"), "Bearer sekrit-token-value", "", "")
	rawDo(t, "PATCH", f.url("/guilds/"+f.g.ID.String()+"/members/@me"), "Bot "+f.srv.Token(), "application/json", strings.Repeat("x", 2<<20))
	for _, r := range f.srv.Requests() {
		for _, v := range r.Header.Values("Authorization") {
			assert.NotContains(t, v, "sekrit")
			assert.NotContains(t, v, f.srv.Token())
		}
	}
	status, body := controlDo(t, f.srv, http.MethodGet, "api/requests", "")
	require.Equal(t, http.StatusOK, status)
	assert.NotContains(t, string(body), f.srv.Token())
	assert.NotContains(t, string(body), "sekrit")
	var listed []map[string]any
	require.NoError(t, json.Unmarshal(body, &listed))
	assert.Len(t, listed, len(f.srv.Requests()))
}

// TestNicknameAndNameRules: nicknames are 1-32 characters and not white
// space only ("" removes one); channel, role, guild and webhook names of
// white space only are refused.
func TestNicknameAndNameRules(t *testing.T) {
	t.Parallel()
	f := newLimits(t)
	gid := f.g.ID.String()
	member := f.url("/guilds/" + gid + "/members/" + f.member.User.ID.String())
	for _, route := range []struct{ method, url string }{
		{"PATCH", member},
		{"PATCH", f.url("/guilds/" + gid + "/members/@me")},
		{"PATCH", f.url("/guilds/" + gid + "/members/@me/nick")},
	} {
		for nick, want := range map[string]int{
			strings.Repeat("n", 32): 200, strings.Repeat("é", 32): 200, strings.Repeat("n", 33): 400,
			"   ": 400, "\t\n": 400, "": 200, " a ": 200,
		} {
			b, _ := json.Marshal(map[string]string{"nick": nick})
			status, body := rawDo(t, route.method, route.url, f.bot(), "application/json", string(b))
			assert.Equal(t, want, status, "%s %q: %s", route.url, nick, body)
		}
	}
	for _, tc := range []struct{ method, path, body string }{
		{"POST", "/guilds/" + gid + "/channels", `{"name": "   "}`},
		{"POST", "/guilds/" + gid + "/roles", `{"name": " \t "}`},
		{"PATCH", "/guilds/" + gid, `{"name": "    "}`},
		{"POST", "/channels/" + f.ch.ID.String() + "/webhooks", `{"name": "   "}`},
	} {
		status, body := rawDo(t, tc.method, f.url(tc.path), f.bot(), "application/json", tc.body)
		assert.Equal(t, 400, status, "%s %s: %s", tc.method, tc.path, body)
	}
}

// TestHTTPTimeouts: a client that never finishes its headers, or leaves a
// kept-alive connection idle, is disconnected (here after 50 ms; the
// defaults are DefaultReadHeaderTimeout and DefaultIdleTimeout).
func TestHTTPTimeouts(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithHTTPTimeouts(50*time.Millisecond, 50*time.Millisecond, 0))
	addr := strings.TrimPrefix(srv.URL, "http://")

	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /guilds/1 HTTP/1.1\r\nHost: x\r\n") // no blank line: the headers never end
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second))) // a safety net, not the assertion
	got, err := io.ReadAll(conn)
	require.NoError(t, err, "the server closes the connection")
	if len(got) > 0 {
		assert.Contains(t, string(got), "408", "or answers 408 first")
	}

	idle, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer idle.Close()
	_, err = io.WriteString(idle, "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, idle.SetReadDeadline(time.Now().Add(30*time.Second)))
	br := bufio.NewReader(idle)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode)
	_, err = br.ReadByte()
	assert.ErrorIs(t, err, io.EOF, "the idle kept-alive connection is closed")
}
