package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// The test binary runs the emulator's main when this variable is set, so the
// tests start the emulator as a real process and signal it.
const runMainEnv = "GUILDKIT_EMULATOR_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// emulator is a running emulator process.
type emulator struct {
	cmd     *exec.Cmd
	vars    map[string]string // GUILDKIT_BASE_URL, ... as printed
	out     *bytes.Buffer     // the rest of its output, after the start lines
	stderr  *bytes.Buffer
	done    chan error
	control string     // root URL + "/_guildkit/api/"
	mu      sync.Mutex // guards out while the process runs
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// start runs the emulator with args and waits for it to print its variables.
func start(t *testing.T, args ...string) *emulator {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	e := &emulator{cmd: cmd, vars: map[string]string{}, out: &bytes.Buffer{}, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	cmd.Stderr = e.stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-e.done
		}
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		if k, v, ok := strings.Cut(line, "="); ok && strings.HasPrefix(k, "GUILDKIT_") {
			e.vars[k] = v
		}
		if strings.HasPrefix(line, "# inspector:") {
			break
		}
	}
	go func() {
		// The scanner may hold lines read ahead: the rest comes through it.
		w := lockedWriter{&e.mu, e.out}
		for lines.Scan() {
			_, _ = w.Write(append(lines.Bytes(), '\n'))
		}
		_, _ = io.Copy(w, stdout)
		e.done <- cmd.Wait()
	}()
	require.NotEmpty(t, e.vars["GUILDKIT_BASE_URL"], "stderr: %s", e.stderr)
	e.control = strings.TrimSuffix(e.vars["GUILDKIT_BASE_URL"], "/api/v10") + "/_guildkit/api/"
	return e
}

// stop sends SIGTERM and waits for a clean exit.
func (e *emulator) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, e.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-e.done:
		require.NoError(t, err, "stderr: %s", e.stderr)
	case <-time.After(30 * time.Second):
		t.Fatal("the emulator did not stop within 30s of SIGTERM")
	}
}

func (e *emulator) client(t *testing.T) *guildkit.Client {
	c, err := guildkit.New(guildkit.BotToken(e.vars["GUILDKIT_TOKEN"]), guildkit.WithBaseURL(e.vars["GUILDKIT_BASE_URL"]))
	require.NoError(t, err)
	return c
}

// registerCommands registers the bot's global commands (a JSON array) as
// a bot does on the platform, by Bulk Overwrite Global Application
// Commands with its token: a command that is not registered cannot be run.
func (e *emulator) registerCommands(t *testing.T, commands string) {
	t.Helper()
	put, err := http.NewRequest("PUT", e.vars["GUILDKIT_BASE_URL"]+"/applications/"+e.vars["GUILDKIT_APPLICATION_ID"]+"/commands",
		strings.NewReader(commands))
	require.NoError(t, err)
	put.Header.Set("Authorization", "Bot "+e.vars["GUILDKIT_TOKEN"])
	put.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(put)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
}

func getJSON(t *testing.T, url string, hdr map[string]string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	require.NoError(t, err)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

// TestSeedThenGetGuild is the README's path: start with the example seed and
// fetch the seeded guild with the printed token, as curl would.
func TestSeedThenGetGuild(t *testing.T) {
	e := start(t, "-seed", filepath.Join("..", "..", "examples", "emulator-seed.json"))
	for _, k := range []string{"GUILDKIT_BASE_URL", "GUILDKIT_TOKEN", "GUILDKIT_WEBHOOK_URL"} {
		assert.NotEmpty(t, e.vars[k], k)
	}
	assert.Empty(t, e.vars["GUILDKIT_ADMIN_TOKEN"], "a loopback emulator needs no admin token")

	status, body := getJSON(t, e.vars["GUILDKIT_BASE_URL"]+"/guilds/200000000000000001", map[string]string{"Authorization": "Bot " + e.vars["GUILDKIT_TOKEN"]})
	require.Equal(t, http.StatusOK, status, "%s", body)
	var g struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	require.NoError(t, json.Unmarshal(body, &g))
	assert.Equal(t, "Emulator guild", g.Name)

	status, _ = getJSON(t, e.vars["GUILDKIT_BASE_URL"]+"/guilds/200000000000000001", map[string]string{"Authorization": "Bot wrong"})
	assert.Equal(t, http.StatusUnauthorized, status)

	// The printed webhook URL works with guildkit's webhook client.
	wh, err := guildkit.NewWebhookClient(e.vars["GUILDKIT_WEBHOOK_URL"])
	require.NoError(t, err)
	msg, err := wh.Execute(t.Context(), &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("hello from a test")})
	require.NoError(t, err)
	assert.Equal(t, "hello from a test", msg.Content)
	e.stop(t)
}

// TestRateLimitFlags: a route limit from the command line is enforced with
// the platform's headers and a 429 past it.
func TestRateLimitFlags(t *testing.T) {
	e := start(t, "-seed", filepath.Join("..", "..", "examples", "emulator-seed.json"), "-route-limit", "GET /guilds/{guild.id}=2/1h")
	url := e.vars["GUILDKIT_BASE_URL"] + "/guilds/200000000000000001"
	auth := map[string]string{"Authorization": "Bot " + e.vars["GUILDKIT_TOKEN"]}
	var got []int
	for range 3 {
		status, _ := getJSON(t, url, auth)
		got = append(got, status)
	}
	assert.Equal(t, []int{200, 200, 429}, got)
	e.stop(t)
}

// TestRequestLogFlag: -request-log bounds the request log the control API
// serves, which shows no token.
func TestRequestLogFlag(t *testing.T) {
	e := start(t, "-request-log", "3")
	auth := map[string]string{"Authorization": "Bot " + e.vars["GUILDKIT_TOKEN"]}
	for range 5 {
		getJSON(t, e.vars["GUILDKIT_BASE_URL"]+"/guilds/1", auth)
	}
	status, body := getJSON(t, e.control+"requests", nil)
	require.Equal(t, http.StatusOK, status, "%s", body)
	var reqs []map[string]any
	require.NoError(t, json.Unmarshal(body, &reqs))
	assert.Len(t, reqs, 3)
	assert.NotContains(t, string(body), e.vars["GUILDKIT_TOKEN"])
	e.stop(t)
}

// TestStateSurvivesRestart changes the state, stops the emulator with
// SIGTERM, starts it again on the same state file and compares the whole
// state, as the control API shows it, before and after.
func TestStateSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	e := start(t, "-seed", filepath.Join("..", "..", "examples", "emulator-seed.json"), "-state", state)
	c := e.client(t)
	ctx := t.Context()
	guildID := guildkit.Snowflake(200000000000000001)

	role, err := c.Roles.Create(ctx, guildID, &guildkit.RoleCreateParams{Name: guildkit.Some("Saved role")})
	require.NoError(t, err)
	_, err = c.Guilds.Modify(ctx, guildID, &guildkit.GuildModifyParams{Name: guildkit.Some("Renamed guild")})
	require.NoError(t, err)
	require.NoError(t, c.Bans.Create(ctx, guildID, 100000000000000003, nil, guildkit.WithReason("saved ban")))
	wh, err := guildkit.NewWebhookClient(e.vars["GUILDKIT_WEBHOOK_URL"])
	require.NoError(t, err)
	_, err = wh.Execute(ctx, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("kept across restarts")})
	require.NoError(t, err)

	_, before := getJSON(t, e.control+"state", nil)
	e.stop(t)
	assert.Contains(t, e.out.String(), "# state saved to "+state)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the state file is left: no temporary file")
	info, err := os.Stat(state)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the state holds tokens")

	e2 := start(t, "-state", state)
	assert.Equal(t, e.vars["GUILDKIT_TOKEN"], e2.vars["GUILDKIT_TOKEN"], "the bot token is part of the state")
	assert.Equal(t, e.vars["GUILDKIT_WEBHOOK_URL"][len(e.vars["GUILDKIT_BASE_URL"]):], e2.vars["GUILDKIT_WEBHOOK_URL"][len(e2.vars["GUILDKIT_BASE_URL"]):])
	_, after := getJSON(t, e2.control+"state", nil)
	assert.JSONEq(t, string(before), string(after), "the state after a restart is the state before it")

	// And it is served: the renamed guild, the role, the ban.
	c2 := e2.client(t)
	g, err := c2.Guilds.Get(ctx, guildID, nil)
	require.NoError(t, err)
	assert.Equal(t, "Renamed guild", g.Name)
	assert.True(t, hasRole(g.Roles, role.ID))
	ban, err := c2.Bans.Get(ctx, guildID, 100000000000000003)
	require.NoError(t, err)
	require.NotNil(t, ban.Reason)
	assert.Equal(t, "saved ban", *ban.Reason)
	e2.stop(t)
}

func hasRole(roles []guildkit.Role, id guildkit.Snowflake) bool {
	for _, r := range roles {
		if r.ID == id {
			return true
		}
	}
	return false
}

// TestBadSeedSaysWhere runs the emulator on broken seeds: each fails to
// start with exit status 1 and a message naming the line or the field.
func TestBadSeedSaysWhere(t *testing.T) {
	cases := []struct {
		name, seed, want string
	}{
		{"syntax", "{\n  \"users\": [\n    {\"id\": \"1\",, }\n  ]\n}", "line 3, column 17"},
		{"type", "{\n  \"guilds\": [{\"name\": 5}]\n}", "seed.json: seed: line 2, column 24: guilds.name: a JSON number cannot be a string"},
		{"unknown field", "{\n  \"guild\": []\n}", `unknown field "guild"`},
		{"reference", `{"users": [{"id": "1", "username": "a"}], "guilds": [{"name": "g", "channels": [{"id": "5", "name": "x"}], "members": [{"user_id": "2"}]}]}`,
			"guilds[0].members[0].user_id: no user 2 in users"},
		{"webhook channel", `{"guilds": [{"name": "g", "webhooks": [{"channel_id": "9", "name": "CI"}]}]}`,
			"guilds[0].webhooks[0].channel_id: no channel 9 in this guild"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "seed.json")
			require.NoError(t, os.WriteFile(path, []byte(tc.seed), 0o600))
			cmd := exec.Command(os.Args[0], "-addr", "127.0.0.1:0", "-seed", path)
			cmd.Env = append(os.Environ(), runMainEnv+"=1")
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "%s", out)
			assert.Equal(t, 1, exit.ExitCode())
			assert.Contains(t, string(out), tc.want)
			assert.NotContains(t, string(out), "panic")
		})
	}
}

// TestBadFlags: a usage error exits 2.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-addr", "no-port"}, {"extra"}, {"-global-limit", "-1"},
		{"-global-window", "daily"}, {"-route-limit", "GET /x"}, {"-route-limit", "GET /x=0/1s"}, {"-route-limit", "GET /x=1/soon"}, {"-latency", "-1s"}, {"-request-log", "-1"},
		{"-application-key", "zz"}, {"-application-key", "abcd"}, {"-interactions-url", "ftp://example.com"},
		{"-addr", "127.0.0.1:8099", "-interactions-url", "http://127.0.0.1:8099/interactions"},
		{"-interactions-url", "http://user:secret@127.0.0.1:8098/interactions"},
		{"-heartbeat-interval", "0s"}, {"-heartbeat-interval", "soon"}, {"-resume-window", "-1m"}, {"-max-concurrency", "0"},
		{"-guilds-per-shard", "-1"}, {"-send-limit", "0"}, {"-session-start-total", "x"}} {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v: %s", args, out)
		assert.Equal(t, 2, exit.ExitCode(), "%v: %s", args, out)
	}
}

// TestAdminTokenOffLoopback: listening on every address makes the control
// API require the admin token.
func TestAdminTokenOffLoopback(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-addr", "0.0.0.0:0", "-admin-token", "s3cret-admin")
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	vars := map[string]string{}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok {
			vars[k] = v
		}
		if strings.HasPrefix(lines.Text(), "# inspector:") {
			break
		}
	}
	assert.Equal(t, "s3cret-admin", vars["GUILDKIT_ADMIN_TOKEN"])
	// The printed address is one a client can use: loopback, not 0.0.0.0
	// or [::].
	base := strings.TrimSuffix(vars["GUILDKIT_BASE_URL"], "/api/v10")
	require.True(t, strings.HasPrefix(base, "http://127.0.0.1:"), base)
	status, _ := getJSON(t, base+"/_guildkit/api/state", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = getJSON(t, base+"/_guildkit/api/state", map[string]string{"Authorization": "Bearer wrong"})
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = getJSON(t, base+"/_guildkit/api/state", map[string]string{"Authorization": "Bearer s3cret-admin"})
	assert.Equal(t, http.StatusOK, status)
	status, _ = getJSON(t, base+"/_guildkit/api/events?token=s3cret-admin", nil)
	assert.Equal(t, http.StatusOK, status)
}

// TestDemoPrintsIDs: with no seed the demo guild's ids and both webhook
// URLs are printed, and they name what they say.
func TestDemoPrintsIDs(t *testing.T) {
	e := start(t)
	c := e.client(t)
	id, err := guildkit.ParseSnowflake(e.vars["GUILDKIT_GUILD_ID"])
	require.NoError(t, err)
	g, err := c.Guilds.Get(t.Context(), id, nil)
	require.NoError(t, err)
	assert.Equal(t, "Emulator guild", g.Name)
	chs, err := c.Channels.List(t.Context(), g.ID)
	require.NoError(t, err)
	require.NotEmpty(t, chs)
	assert.Equal(t, chs[0].ID.String(), e.vars["GUILDKIT_CHANNEL_ID"])
	for k, owned := range map[string]bool{"GUILDKIT_WEBHOOK_URL": false, "GUILDKIT_APP_WEBHOOK_URL": true} {
		status, body := getJSON(t, e.vars[k], nil)
		require.Equal(t, http.StatusOK, status, k)
		var hook map[string]any
		require.NoError(t, json.Unmarshal(body, &hook))
		assert.Equal(t, owned, hook["application_id"] != nil, "%s: %s", k, body)
		if owned {
			assert.Equal(t, e.vars["GUILDKIT_BOT_ID"], hook["application_id"])
		}
	}
	e.stop(t)
}

// TestInteractionsURL is the emulator with a bot in any language: the bot
// (net/http, crypto/ed25519 and encoding/json) verifies the deliveries
// with the key the emulator prints (here given with -application-key),
// the emulator checks the endpoint at start and prints its verdict, and a
// script runs a command and clicks the answer's button through the
// control API: one answer in the HTTP response, one through the callback
// route. The key is kept in the state file: after a restart without the
// flag the printed public key is the same.
func TestInteractionsURL(t *testing.T) {
	seed := bytes.Repeat([]byte{7}, ed25519.SeedSize)
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	var restURL atomic.Value // the emulator's base URL, once printed
	var callbacks sync.WaitGroup
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if err != nil || !ed25519.Verify(pub, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var it struct {
			Type  int    `json:"type"`
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		_ = json.Unmarshal(body, &it)
		w.Header().Set("Content-Type", "application/json")
		switch it.Type {
		case 1:
			_, _ = io.WriteString(w, `{"type":1}`)
		case 2:
			_, _ = io.WriteString(w, `{"type":4,"data":{"content":"Hello","components":[{"type":1,"components":[{"type":2,"style":1,"label":"Wave","custom_id":"wave"}]}]}}`)
		default:
			w.WriteHeader(http.StatusAccepted)
			callbacks.Add(1)
			go func() {
				defer callbacks.Done()
				resp, err := http.Post(restURL.Load().(string)+"/interactions/"+it.ID+"/"+it.Token+"/callback", "application/json",
					strings.NewReader(`{"type":7,"data":{"content":"Waved","components":[]}}`))
				if err == nil {
					resp.Body.Close()
				}
			}()
		}
	}))
	t.Cleanup(func() { callbacks.Wait(); bot.Close() })

	state := filepath.Join(t.TempDir(), "state.json")
	e := start(t, "-interactions-url", bot.URL+"/interactions", "-application-key", hex.EncodeToString(seed), "-state", state)
	restURL.Store(e.vars["GUILDKIT_BASE_URL"])
	assert.Equal(t, hex.EncodeToString(pub), e.vars["GUILDKIT_PUBLIC_KEY"])
	assert.Equal(t, e.vars["GUILDKIT_BOT_ID"], e.vars["GUILDKIT_APPLICATION_ID"])
	require.Eventually(t, func() bool { return strings.Contains(e.output(), "# interactions endpoint") }, 10*time.Second, 20*time.Millisecond)
	assert.Contains(t, e.output(), "# interactions endpoint "+bot.URL+"/interactions: ok: ready")

	var app struct {
		PublicKey string `json:"public_key"`
		Check     struct {
			OK bool `json:"ok"`
		} `json:"endpoint_check"`
	}
	code, b := getJSON(t, e.control+"application", nil)
	require.Equal(t, http.StatusOK, code)
	require.NoError(t, json.Unmarshal(b, &app))
	assert.Equal(t, hex.EncodeToString(pub), app.PublicKey)
	assert.True(t, app.Check.OK)

	// The demo's member, as a script finds it.
	code, b = getJSON(t, e.control+"state", nil)
	require.Equal(t, http.StatusOK, code)
	alice := gjson(t, b, "alice")
	post := func(body string) map[string]any {
		resp, err := http.Post(e.control+"interactions", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", out)
		return out
	}
	// The bot registers /hello as it would on the platform: a command
	// that is not registered cannot be run.
	e.registerCommands(t, `[{"name": "hello", "description": "Say hello"}]`)
	hello := post(`{"kind": "command", "user_id": "` + alice + `", "channel_id": "` + e.vars["GUILDKIT_CHANNEL_ID"] + `", "name": "hello"}`)
	require.Equal(t, "message", hello["kind"], "%v", hello)
	msg := hello["message"].(map[string]any)
	assert.Equal(t, "Hello", msg["content"])
	waved := post(`{"kind": "click", "user_id": "` + alice + `", "message_id": "` + msg["id"].(string) + `", "custom_id": "wave"}`)
	require.Equal(t, "updated", waved["kind"], "%v", waved)
	assert.Equal(t, "Waved", waved["message"].(map[string]any)["content"])
	assert.Equal(t, true, waved["delivery"].(map[string]any)["callback"])
	e.stop(t)

	e2 := start(t, "-state", state)
	assert.Equal(t, hex.EncodeToString(pub), e2.vars["GUILDKIT_PUBLIC_KEY"], "the application's key is kept in the state file")
	require.Eventually(t, func() bool { return strings.Contains(e2.output(), "no -interactions-url") }, 10*time.Second, 20*time.Millisecond)
	e2.stop(t)
}

// output is what the emulator printed after its start lines, so far.
func (e *emulator) output() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.out.String()
}

// gjson finds the id of the user named username in a state.
func gjson(t *testing.T, state []byte, username string) string {
	var st struct {
		Users []guildkit.User `json:"users"`
	}
	require.NoError(t, json.Unmarshal(state, &st))
	for _, u := range st.Users {
		if u.Username == username {
			return u.ID.String()
		}
	}
	t.Fatalf("no user %s in the state", username)
	return ""
}

// TestGatewayFlags: the emulator prints GUILDKIT_GATEWAY_URL, where a bot
// connects and finds the gateway's settings as the flags set them: HELLO's
// heartbeat_interval, GET /gateway/bot's max_concurrency and shard count
// (one guild per shard), and the control API's settings.
func TestGatewayFlags(t *testing.T) {
	e := start(t, "-heartbeat-interval", "2.5s", "-max-concurrency", "4", "-guilds-per-shard", "1", "-resume-window", "30s",
		"-send-limit", "60", "-session-start-total", "50")
	defer e.stop(t)
	gwURL := e.vars["GUILDKIT_GATEWAY_URL"]
	require.True(t, strings.HasPrefix(gwURL, "ws://127.0.0.1:"), "printed: %q", gwURL)
	assert.Equal(t, strings.TrimPrefix(e.vars["GUILDKIT_BASE_URL"], "http://"), strings.TrimPrefix(gwURL, "ws://")+"/api/v10", "the same address")

	status, body := getJSON(t, e.vars["GUILDKIT_BASE_URL"]+"/gateway", nil)
	require.Equal(t, http.StatusOK, status)
	var gw struct {
		URL string `json:"url"`
	}
	require.NoError(t, json.Unmarshal(body, &gw))
	assert.Equal(t, gwURL, gw.URL, "GET /gateway answers the printed URL")

	// The demo's guild and a second one: two shards of one guild each.
	resp, err := http.Post(e.control+"seed", "application/json", strings.NewReader(`{"guilds": [{"name": "second"}]}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	status, body = getJSON(t, e.vars["GUILDKIT_BASE_URL"]+"/gateway/bot", map[string]string{"Authorization": "Bot " + e.vars["GUILDKIT_TOKEN"]})
	require.Equal(t, http.StatusOK, status, "%s", body)
	var bot struct {
		Shards int `json:"shards"`
		Limit  struct {
			Total          int `json:"total"`
			MaxConcurrency int `json:"max_concurrency"`
		} `json:"session_start_limit"`
	}
	require.NoError(t, json.Unmarshal(body, &bot))
	assert.Equal(t, 4, bot.Limit.MaxConcurrency)
	assert.Equal(t, 50, bot.Limit.Total)
	assert.Equal(t, 2, bot.Shards, "one guild per shard")

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, gwURL+"/?v=10&encoding=json", nil)
	require.NoError(t, err)
	defer ws.CloseNow()
	_, hello, err := ws.Read(ctx)
	require.NoError(t, err)
	assert.JSONEq(t, `{"op": 10, "d": {"heartbeat_interval": 2500}, "s": null, "t": null}`, string(hello))

	status, body = getJSON(t, e.control+"gateway", nil)
	require.Equal(t, http.StatusOK, status, "%s", body)
	var view struct {
		URL      string `json:"url"`
		Settings struct {
			HeartbeatIntervalMS int    `json:"heartbeat_interval_ms"`
			MaxConcurrency      int    `json:"max_concurrency"`
			GuildsPerShard      int    `json:"guilds_per_shard"`
			ResumeWindow        string `json:"resume_window"`
			SendLimit           int    `json:"send_limit"`
		} `json:"settings"`
	}
	require.NoError(t, json.Unmarshal(body, &view))
	assert.Equal(t, gwURL, view.URL)
	assert.Equal(t, 2500, view.Settings.HeartbeatIntervalMS)
	assert.Equal(t, 4, view.Settings.MaxConcurrency)
	assert.Equal(t, 1, view.Settings.GuildsPerShard)
	assert.Equal(t, "30s", view.Settings.ResumeWindow)
	assert.Equal(t, 60, view.Settings.SendLimit)
}

// TestGatewayInteractions is the emulator with a gateway bot in any
// language (coder/websocket and encoding/json here): with no
// -interactions-url, a command run through the control API reaches the
// bot's session as INTERACTION_CREATE, the bot answers through the
// callback route, and the control API answers what the member saw.
func TestGatewayInteractions(t *testing.T) {
	e := start(t)
	defer e.stop(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, e.vars["GUILDKIT_GATEWAY_URL"]+"/?v=10&encoding=json", nil)
	require.NoError(t, err)
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	identify, _ := json.Marshal(map[string]any{"op": 2, "d": map[string]any{"token": e.vars["GUILDKIT_TOKEN"], "intents": 1,
		"properties": map[string]string{"os": "linux", "browser": "test", "device": "test"}}})
	require.NoError(t, ws.Write(ctx, websocket.MessageText, identify))

	// The bot: every INTERACTION_CREATE answered through the callback route.
	botDone := make(chan error, 1)
	go func() {
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				botDone <- err
				return
			}
			var f struct {
				Op int    `json:"op"`
				T  string `json:"t"`
				D  struct {
					ID    string `json:"id"`
					Token string `json:"token"`
				} `json:"d"`
			}
			if json.Unmarshal(b, &f) != nil || f.Op != 0 || f.T != "INTERACTION_CREATE" {
				continue
			}
			resp, err := http.Post(e.vars["GUILDKIT_BASE_URL"]+"/interactions/"+f.D.ID+"/"+f.D.Token+"/callback", "application/json",
				strings.NewReader(`{"type": 4, "data": {"content": "pong over the gateway"}}`))
			if err == nil {
				resp.Body.Close()
			}
			botDone <- err
			return
		}
	}()

	// Alice, the demo's member, runs /ping once the bot's session is there.
	var state struct {
		Guilds []struct {
			Members []struct {
				Member struct {
					User struct {
						ID       string `json:"id"`
						Username string `json:"username"`
					} `json:"user"`
				} `json:"member"`
			} `json:"members"`
		} `json:"guilds"`
	}
	_, body := getJSON(t, e.control+"state", nil)
	require.NoError(t, json.Unmarshal(body, &state))
	alice := ""
	for _, m := range state.Guilds[0].Members {
		if m.Member.User.Username == "alice" {
			alice = m.Member.User.ID
		}
	}
	require.NotEmpty(t, alice, "%s", body)
	require.Eventually(t, func() bool {
		_, b := getJSON(t, e.control+"gateway", nil)
		return strings.Contains(string(b), `"connected":true`)
	}, 10*time.Second, 20*time.Millisecond)
	// The bot registers /ping, as it would on the platform.
	e.registerCommands(t, `[{"name": "ping", "description": "Ping"}]`)
	resp, err := http.Post(e.control+"interactions", "application/json", strings.NewReader(
		`{"kind": "command", "user_id": "`+alice+`", "channel_id": "`+e.vars["GUILDKIT_CHANNEL_ID"]+`", "name": "ping"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var seen struct {
		Kind     string `json:"kind"`
		Summary  string `json:"summary"`
		Delivery struct {
			Via string `json:"via"`
		} `json:"delivery"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&seen))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "message: pong over the gateway", seen.Summary)
	assert.Equal(t, "gateway", seen.Delivery.Via)
	require.NoError(t, <-botDone)
}

// TestCreateMessageBudget: Create Message gets the messages document's
// emulator default, 5 per 5 s per channel, with the platform's headers,
// each channel its own budget; -route-limit replaces it.
func TestCreateMessageBudget(t *testing.T) {
	send := func(e *emulator, channel string) (int, http.Header) {
		req, err := http.NewRequest(http.MethodPost, e.vars["GUILDKIT_BASE_URL"]+"/channels/"+channel+"/messages", strings.NewReader(`{"content":"hi"}`))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bot "+e.vars["GUILDKIT_TOKEN"])
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	e := start(t, "-seed", filepath.Join("..", "..", "examples", "emulator-seed.json"))
	var got []int
	for range 6 {
		status, h := send(e, e.vars["GUILDKIT_CHANNEL_ID"])
		got = append(got, status)
		assert.Equal(t, "5", h.Get("X-RateLimit-Limit"))
	}
	assert.Equal(t, []int{200, 200, 200, 200, 200, 429}, got)
	e.stop(t)

	e = start(t, "-seed", filepath.Join("..", "..", "examples", "emulator-seed.json"), "-route-limit", "POST /channels/{channel.id}/messages=50/1s")
	status, h := send(e, e.vars["GUILDKIT_CHANNEL_ID"])
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "50", h.Get("X-RateLimit-Limit"))
	e.stop(t)
}

// TestRunsABotCommand: a command after "--" runs with the printed
// assignments in its environment, and the emulator stops when it exits,
// failing when it failed.
func TestRunsABotCommand(t *testing.T) {
	for _, tc := range []struct {
		exit string
		ok   bool
	}{{"0", true}, {"3", false}} {
		e := start(t, "--", "sh", "-c", `echo "bot: $GUILDKIT_BASE_URL token=${GUILDKIT_TOKEN:+set}"; exit `+tc.exit)
		select {
		case err := <-e.done:
			if tc.ok {
				require.NoError(t, err, "stderr: %s", e.stderr)
			} else {
				require.Error(t, err)
				assert.Contains(t, e.stderr.String(), "sh: exit status 3")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the emulator did not stop with its command")
		}
		e.mu.Lock()
		assert.Contains(t, e.out.String(), "bot: "+e.vars["GUILDKIT_BASE_URL"]+" token=set")
		e.mu.Unlock()
	}
}
