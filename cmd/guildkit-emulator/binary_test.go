package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildEmulator builds the emulator's binary, as a user installs it, into
// a temporary directory.
func buildEmulator(tb testing.TB) string {
	tb.Helper()
	// The go command that runs this test, found as a user's shell finds it.
	gobin, err := exec.LookPath("go")
	require.NoError(tb, err, "no go command on PATH")
	bin := filepath.Join(tb.TempDir(), "guildkit-emulator")
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(tb, err, "go build: %s", out)
	return bin
}

// call is one plain HTTP request, as any language's HTTP library makes
// it: it returns the answer, its body decoded into out when out is not nil.
func call(t *testing.T, method, url string, header map[string]string, body string, out any) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if out != nil && len(raw) > 0 {
		require.NoError(t, json.Unmarshal(raw, out), "%s %s: %s", method, url, raw)
	}
	return resp
}

// TestBinaryFromAnyLanguage builds the emulator's binary and drives it as a
// bot in another language would, from outside Go's packages: it reads the
// printed variables, listens on 0.0.0.0 (so the control API needs the
// printed admin token), mints an access token through the control API,
// adds a member with it (201, then 204), reads /users/@me, sees bucket
// headers on an ordinary answer, and sends an interactive button through
// the application-owned webhook (the other webhook may not).
func TestBinaryFromAnyLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildEmulator(t)
	cmd := exec.Command(bin, "-addr", "0.0.0.0:0", "-seed", filepath.Join("..", "..", "examples", "emulator-seed.json"))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	vars := map[string]string{}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok && strings.HasPrefix(k, "GUILDKIT_") {
			vars[k] = v
		}
		if strings.HasPrefix(lines.Text(), "# inspector:") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stdout); done <- cmd.Wait() }()

	base, root := vars["GUILDKIT_BASE_URL"], strings.TrimSuffix(vars["GUILDKIT_BASE_URL"], "/api/v10")
	require.True(t, strings.HasPrefix(base, "http://127.0.0.1:"), "a usable address for -addr 0.0.0.0:0: %q", base)
	assert.Equal(t, "100000000000000000", vars["GUILDKIT_BOT_ID"], "the seed's bot")
	assert.Equal(t, "200000000000000001", vars["GUILDKIT_GUILD_ID"], "the seed's first guild")
	assert.Equal(t, "200000000000000020", vars["GUILDKIT_CHANNEL_ID"], "its first text channel")
	require.NotEmpty(t, vars["GUILDKIT_WEBHOOK_URL"])
	require.NotEmpty(t, vars["GUILDKIT_APP_WEBHOOK_URL"])
	bot := map[string]string{"Authorization": "Bot " + vars["GUILDKIT_TOKEN"]}
	admin := map[string]string{"Authorization": "Bearer " + vars["GUILDKIT_ADMIN_TOKEN"]}

	// A new user, by the control API's seed; an access token for them.
	resp := call(t, "POST", root+"/_guildkit/api/seed", admin, `{"users": [{"id": "100000000000000009", "username": "zed"}]}`, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var minted struct {
		AccessToken string `json:"access_token"`
	}
	resp = call(t, "POST", root+"/_guildkit/api/access-tokens", admin, `{"user_id": "100000000000000009"}`, &minted)
	require.Equal(t, http.StatusCreated, resp.StatusCode)

	member := base + "/guilds/" + vars["GUILDKIT_GUILD_ID"] + "/members/100000000000000009"
	var added map[string]any
	resp = call(t, "PUT", member, bot, `{"access_token": "`+minted.AccessToken+`"}`, &added)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", added)
	resp = call(t, "PUT", member, bot, `{"access_token": "`+minted.AccessToken+`"}`, nil)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode, "already a member")
	// The seed's own token for dave works the same.
	resp = call(t, "PUT", base+"/guilds/"+vars["GUILDKIT_GUILD_ID"]+"/members/100000000000000004", bot, `{"access_token": "access.dave-joins-guilds"}`, nil)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)

	var me map[string]any
	resp = call(t, "GET", base+"/users/@me", bot, "", &me)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, vars["GUILDKIT_BOT_ID"], me["id"])
	var guilds []map[string]any
	resp = call(t, "GET", base+"/users/@me/guilds", bot, "", &guilds)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Len(t, guilds, 2)

	// Bucket headers on an ordinary answer, with no -route-limit.
	resp = call(t, "GET", base+"/guilds/"+vars["GUILDKIT_GUILD_ID"]+"/channels", bot, "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
		assert.NotEmpty(t, resp.Header.Get(h), h)
	}

	// An interactive button: the application's webhook may send it, the
	// other may not (with with_components=true; without, its components
	// are ignored).
	button := `{"content": "deploy?", "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]}`
	resp = call(t, "POST", vars["GUILDKIT_APP_WEBHOOK_URL"]+"?wait=true&with_components=true", nil, button, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the application-owned webhook")
	resp = call(t, "POST", vars["GUILDKIT_WEBHOOK_URL"]+"?wait=true&with_components=true", nil, button, nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "the webhook no application owns")

	// The permission refusal the seed sets up: in Alice's guild the bot
	// has MANAGE_ROLES below the admin role.
	resp = call(t, "PUT", base+"/guilds/300000000000000001/members/100000000000000002/roles/300000000000000010", bot, "", nil)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("the emulator did not stop within 30s of SIGTERM")
	}
}
