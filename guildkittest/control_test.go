package guildkittest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func controlDo(t *testing.T, srv *guildkittest.Server, method, path, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+guildkittest.ControlPrefix+path, rd)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

func statuses(srv *guildkittest.Server, route string) []int {
	var out []int
	for _, r := range srv.Requests() {
		if r.Method+" "+r.Route == route {
			out = append(out, r.Status)
		}
	}
	return out
}

func TestInjectFaultStatusThenRecovers(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Faulty"})
	require.NoError(t, srv.InjectFault("GET /guilds/{guild.id}", 2, guildkittest.Fault{Status: http.StatusServiceUnavailable}))
	client := srv.Client(guildkit.WithRetry(3, time.Millisecond, 5*time.Millisecond))

	got, err := client.Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err, "a GET is retried through two 503s")
	assert.Equal(t, "Faulty", got.Name)
	assert.Equal(t, []int{503, 503, 200}, statuses(srv, "GET /guilds/{guild.id}"))
	assert.Empty(t, srv.Faults(), "the fault is used up")

	// A POST is not retried after a 5xx: the fault's body reaches the caller.
	require.NoError(t, srv.InjectFault("POST /guilds/{guild.id}/roles", 1, guildkittest.Fault{
		Status: http.StatusBadGateway, Body: json.RawMessage(`{"code": 0, "message": "upstream down"}`),
	}))
	_, err = client.Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("r")})
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadGateway, apiErr.Status)
	assert.Contains(t, apiErr.Message, "upstream down")
	assert.Equal(t, []int{502}, statuses(srv, "POST /guilds/{guild.id}/roles"))
}

func TestInjectFault429(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	require.NoError(t, srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{
		Status: http.StatusTooManyRequests, RetryAfter: guildkittest.Duration(1500 * time.Millisecond), Scope: "global",
	}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.BaseURL()+"/guilds/"+g.ID.String(), nil)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "global", resp.Header.Get("X-RateLimit-Scope"))
	assert.Equal(t, "true", resp.Header.Get("X-RateLimit-Global"))
	assert.Equal(t, "2", resp.Header.Get("Retry-After"))
	assert.Equal(t, "1.500", resp.Header.Get("X-RateLimit-Reset-After"))
	var body struct {
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	assert.Equal(t, 1.5, body.RetryAfter)
	assert.True(t, body.Global)

	// The client waits the 429 out and succeeds.
	require.NoError(t, srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{Status: 429, RetryAfter: guildkittest.Duration(10 * time.Millisecond)}))
	_, err = srv.Client().Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err)
}

func TestInjectFaultDropAndDelay(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	require.NoError(t, srv.InjectFault("*", 1, guildkittest.Fault{Drop: true}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.BaseURL()+"/guilds/"+g.ID.String(), nil)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	_, err := http.DefaultTransport.RoundTrip(req)
	require.Error(t, err, "a dropped connection has no answer")

	// A delay longer than the caller's deadline: the call fails with the
	// context's error and the handler never runs.
	require.NoError(t, srv.InjectFault("PATCH /guilds/{guild.id}", 1, guildkittest.Fault{Delay: guildkittest.Duration(time.Minute)}))
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = srv.Client().Guilds.Modify(ctx, g.ID, &guildkit.GuildModifyParams{Name: guildkit.Some("never")})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	got, _ := srv.Guild(g.ID)
	assert.Equal(t, "g", got.Name)
}

func TestInjectFaultRefusesBadInput(t *testing.T) {
	srv := guildkittest.NewServer(t)
	for _, tc := range []struct {
		route string
		n     int
		f     guildkittest.Fault
		want  string
	}{
		{"GET /nowhere", 1, guildkittest.Fault{Status: 500}, "no route"},
		{"GET /guilds/{guild.id}", 0, guildkittest.Fault{Status: 500}, "at least 1"},
		{"*", 1, guildkittest.Fault{Status: 42}, "not an HTTP status"},
		{"*", 1, guildkittest.Fault{Status: 500, Drop: true}, "exclude"},
		{"*", 1, guildkittest.Fault{Status: 500, Scope: "user"}, "go with status 429"},
		{"*", 1, guildkittest.Fault{Status: 429, Scope: "planet"}, "not user, global or shared"},
		{"*", 1, guildkittest.Fault{}, "needs a status"},
		{"*", 1, guildkittest.Fault{Status: 500, Body: json.RawMessage("{")}, "not valid JSON"},
	} {
		err := srv.InjectFault(tc.route, tc.n, tc.f)
		require.Error(t, err, tc.want)
		assert.Contains(t, err.Error(), tc.want)
	}
	assert.Empty(t, srv.Faults())
}

func TestControlAPI(t *testing.T) {
	srv := guildkittest.NewServer(t)

	status, body := controlDo(t, srv, http.MethodPost, "api/seed", `{"users": [{"id": "11", "username": "ann"}],
		"guilds": [{"id": "21", "name": "Seeded", "channels": [{"id": "22", "name": "general"}],
		"members": [{"user_id": "11"}], "webhooks": [{"channel_id": "22", "name": "CI"}]}]}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	var res guildkittest.SeedResult
	require.NoError(t, json.Unmarshal(body, &res))
	require.Len(t, res.Webhooks, 1)
	assert.NotEmpty(t, res.Webhooks[0].Token)
	m, ok := srv.Member(21, 11)
	require.True(t, ok)
	assert.Equal(t, "ann", m.User.Username)

	status, body = controlDo(t, srv, http.MethodPost, "api/seed", `{"guilds": [{"id": "21", "name": "again"}]}`)
	assert.Equal(t, http.StatusConflict, status, "%s", body)
	assert.Contains(t, string(body), "guilds[0].id: 21 is taken")

	status, body = controlDo(t, srv, http.MethodPost, "api/seed", "{\n \"users\": 5\n}")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, string(body), "line 2")

	// Faults over HTTP, then listed, then cleared.
	status, body = controlDo(t, srv, http.MethodPost, "api/faults", `{"route": "GET /guilds/{guild.id}", "count": 3, "status": 500}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	assert.Len(t, srv.Faults(), 1)
	assert.Equal(t, 3, srv.Faults()[0].Remaining)
	status, body = controlDo(t, srv, http.MethodPost, "api/faults", `{"route": "GET /guilds/{guild.id}", "delay": "soon"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, string(body), "not a duration")
	status, _ = controlDo(t, srv, http.MethodDelete, "api/faults", "")
	assert.Equal(t, http.StatusNoContent, status)
	assert.Empty(t, srv.Faults())

	// The clock moves forward only.
	before := srv.Now()
	status, body = controlDo(t, srv, http.MethodPost, "api/clock", `{"advance": "48h"}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	assert.WithinDuration(t, before.Add(48*time.Hour), srv.Now(), time.Minute)
	status, _ = controlDo(t, srv, http.MethodPost, "api/clock", `{"advance": "-1h"}`)
	assert.Equal(t, http.StatusBadRequest, status)

	// The logs, with no Authorization value in the request log.
	_, err := srv.Client().Guilds.Get(t.Context(), 21, nil)
	require.NoError(t, err)
	status, body = controlDo(t, srv, http.MethodGet, "api/requests", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(body), `"route":"/guilds/{guild.id}"`)
	assert.NotContains(t, string(body), srv.Token())
	status, body = controlDo(t, srv, http.MethodGet, "api/state", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(body), `"Seeded"`)

	// Reset keeps the bot working and empties the rest.
	status, _ = controlDo(t, srv, http.MethodPost, "api/reset", "")
	require.Equal(t, http.StatusOK, status)
	_, ok = srv.Guild(21)
	assert.False(t, ok)
	_, err = srv.Client().Guilds.Get(t.Context(), 21, nil)
	assert.ErrorIs(t, err, guildkit.ErrNotFound, "the bot's token still works after a reset")

	status, _ = controlDo(t, srv, http.MethodGet, "api/nothing", "")
	assert.Equal(t, http.StatusNotFound, status)
	status, body = controlDo(t, srv, http.MethodGet, "", "")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(body), "<title>guildkit emulator</title>")
	status, body = controlDo(t, srv, http.MethodGet, "static/app.js", "")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(body), "EventSource")
}

// TestControlAPIBadInputNever5xx sends malformed bodies to every control
// route that reads one: each gets a 4xx.
func TestControlAPIBadInputNever5xx(t *testing.T) {
	srv := guildkittest.NewServer(t)
	bodies := []string{"", "null", "[]", "{", `{"x": 1}`, `"str"`, "{} {}", `{"advance": {}}`, `{"route": 5}`,
		`{"guilds": [{"channels": [{"id": "x"}]}]}`, `{"users": [{"id": "-1"}]}`, `{"count": -5, "route": "*", "status": 500}`,
		strings.Repeat("[", 10000), `{"route": "*", "status": 429, "retry_after": 1e300}`}
	for _, path := range []string{"api/seed", "api/faults", "api/clock"} {
		for _, b := range bodies {
			status, body := controlDo(t, srv, http.MethodPost, path, b)
			assert.True(t, status >= 400 && status < 500, "%s %q: %d %s", path, b, status, body)
		}
	}
}

func TestAdminToken(t *testing.T) {
	srv := guildkittest.NewServer(t, guildkittest.WithAdminToken("adm"))
	status, _ := controlDo(t, srv, http.MethodGet, "api/state", "")
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = controlDo(t, srv, http.MethodGet, "api/state?token=adm", "")
	assert.Equal(t, http.StatusOK, status)
	status, _ = controlDo(t, srv, http.MethodGet, "", "")
	assert.Equal(t, http.StatusOK, status, "the page itself holds no data")
	// The interface's own routes do not take the admin token.
	_, err := guildkit.New(guildkit.BotToken("adm"), guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
}

// TestEventStream reads the live feed while an operation runs: the event
// and the request arrive without polling.
func TestEventStream(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+guildkittest.ControlPrefix+"api/events/stream", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	rd := bufio.NewReader(resp.Body)
	_, err = rd.ReadString('\n') // the stream's opening comment: subscribed from here on
	require.NoError(t, err)

	_, err = srv.Client().Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("streamed")})
	require.NoError(t, err)
	var event, data string
	for event == "" || data == "" {
		line, err := rd.ReadString('\n')
		require.NoError(t, err)
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			event = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "data: "); ok {
			data = v
		}
	}
	assert.Equal(t, "event", event)
	assert.Contains(t, data, `"name":"GUILD_ROLE_CREATE"`)
	assert.Contains(t, data, `"streamed"`)
}

func TestSaveLoadStateRoundTrip(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Saved"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	u := srv.AddUser(guildkit.User{Username: "ann"})
	srv.AddMember(g.ID, guildkit.Member{User: &u})
	hook := srv.AddWebhook(ch.ID, "CI")
	srv.AddInvite(g.ID, ch.ID, guildkit.Invite{Code: "abc"})
	c := srv.Client()
	_, err := c.Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("kept")})
	require.NoError(t, err)
	_, err = c.Webhooks.Execute(t.Context(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
	require.NoError(t, err)
	srv.AdvanceClock(time.Hour)

	var first bytes.Buffer
	require.NoError(t, srv.SaveState(&first))
	other := guildkittest.NewServer(t)
	require.NoError(t, other.LoadState(bytes.NewReader(first.Bytes())))
	var second bytes.Buffer
	require.NoError(t, other.SaveState(&second))
	assert.JSONEq(t, first.String(), second.String())
	assert.Equal(t, srv.Token(), other.Token())

	// The loaded server serves what it loaded, with the loaded tokens.
	oc, err := guildkit.New(guildkit.BotToken(other.Token()), guildkit.WithBaseURL(other.BaseURL()))
	require.NoError(t, err)
	inv, err := oc.Invites.Get(t.Context(), "abc", nil)
	require.NoError(t, err)
	assert.Equal(t, ch.ID, inv.Channel.ID)
	msgs := other.WebhookMessages(hook.ID)
	require.Len(t, msgs, 1)
	assert.Equal(t, "hi", msgs[0].Content)

	for _, bad := range []string{"", "{}", `{"version": 99}`, `{"version": 1, "bot_id": "1", "bot_token": "t", "tokens": {}}`, `{"version": 1, "nope": 1}`} {
		err := other.LoadState(strings.NewReader(bad))
		assert.Error(t, err, bad)
	}
	_, err = oc.Invites.Get(t.Context(), "abc", nil)
	require.NoError(t, err, "a refused state changes nothing")
	assert.False(t, errors.Is(err, guildkit.ErrNotFound))
}

// The index lists each route once.
func TestControlRoutesListedOnce(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, r := range guildkittest.ControlRoutes {
		key := r.Method + " " + r.Path
		assert.False(t, seen[key], "%s is listed twice", key)
		seen[key] = true
	}
}

// TestControlRuntime reads the process's memory and goroutines over HTTP:
// with the admin token only, after a collection with ?gc=1, and a clear
// 400 for a gc value that is not a boolean.
func TestControlRuntime(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithAdminToken("adm"))
	url := srv.URL + guildkittest.ControlPrefix + "api/runtime"
	resp := plain(t, http.MethodGet, url, "", "", nil)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the admin token is needed")
	resp = plain(t, http.MethodGet, url+"?gc=1", "Bearer wrong", "", nil)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	type stats struct {
		Goroutines   int     `json:"goroutines"`
		HeapAlloc    uint64  `json:"heap_alloc"`
		HeapInuse    uint64  `json:"heap_inuse"`
		StackInuse   uint64  `json:"stack_inuse"`
		Sys          uint64  `json:"sys"`
		HeapReleased *uint64 `json:"heap_released"`
		GCCycles     uint32  `json:"gc_cycles"`
		RSS          *uint64 `json:"rss"`
	}
	var plainRead, collected stats
	resp = plain(t, http.MethodGet, url, "Bearer adm", "", &plainRead)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	resp = plain(t, http.MethodGet, url+"?gc=1&token=adm", "", "", &collected)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Greater(t, collected.GCCycles, plainRead.GCCycles, "?gc=1 runs a collection first")
	for _, s := range []stats{plainRead, collected} {
		assert.Positive(t, s.Goroutines)
		assert.Positive(t, s.HeapAlloc)
		assert.GreaterOrEqual(t, s.HeapInuse, s.HeapAlloc/2)
		assert.Positive(t, s.StackInuse)
		assert.Greater(t, s.Sys, s.HeapInuse)
		assert.NotNil(t, s.HeapReleased)
		if runtime.GOOS == "linux" {
			require.NotNil(t, s.RSS, "VmRSS of /proc/self/status")
			assert.Greater(t, *s.RSS, uint64(1<<20))
		}
	}

	var problem struct {
		Error string `json:"error"`
	}
	resp = plain(t, http.MethodGet, url+"?gc=often", "Bearer adm", "", &problem)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, problem.Error, `gc: "often"`)
}
