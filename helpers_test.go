package guildkit_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// basePath is where setup mounts the fake API, so that a method that builds
// an absolute path instead of one relative to the base URL is caught.
const basePath = "/api/v10"

// testToken is the bot token setup's client sends.
const testToken = "test-bot-token.XyZ"

// setup starts an httptest server and returns a client pointed at it and the
// mux to register handlers on, in go-github's style. Requests outside
// basePath fail the test.
func setup(t *testing.T, opts ...guildkit.Option) (*guildkit.Client, *http.ServeMux) {
	t.Helper()
	mux := http.NewServeMux()
	root := http.NewServeMux()
	root.Handle(basePath+"/", http.StripPrefix(basePath, mux))
	root.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request outside the base path: %s %s", r.Method, r.URL.Path)
		http.Error(w, "outside base path", http.StatusBadGateway)
	})
	srv := httptest.NewServer(root)
	t.Cleanup(srv.Close)
	base := []guildkit.Option{
		guildkit.WithBaseURL(srv.URL + basePath),
		guildkit.WithRetry(3, time.Millisecond, 20*time.Millisecond),
	}
	c, err := guildkit.New(guildkit.BotToken(testToken), append(base, opts...)...)
	require.NoError(t, err)
	return c, mux
}

func testMethod(t *testing.T, r *http.Request, want string) {
	t.Helper()
	assert.Equal(t, want, r.Method, "method")
}

func testQuery(t *testing.T, r *http.Request, want url.Values) {
	t.Helper()
	got := r.URL.Query()
	if len(want) == 0 {
		assert.Empty(t, got, "query")
		return
	}
	assert.Equal(t, want, got, "query")
}

func testHeader(t *testing.T, r *http.Request, key, want string) {
	t.Helper()
	assert.Equal(t, want, r.Header.Get(key), "header %s", key)
}

// testJSONBody asserts the request body equals want as JSON: keys absent from
// want must be absent from the body, and null must be null.
func testJSONBody(t *testing.T, r *http.Request, want string) {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	assert.JSONEq(t, want, string(b), "body")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// newServer serves mux under basePath and returns the base URL.
func newServer(t *testing.T, mux *http.ServeMux) string {
	t.Helper()
	root := http.NewServeMux()
	root.Handle(basePath+"/", http.StripPrefix(basePath, mux))
	srv := httptest.NewServer(root)
	t.Cleanup(srv.Close)
	return srv.URL + basePath
}

// ptr returns a pointer to v, for response fields that are pointers.
func ptr[T any](v T) *T { return &v }

// fixture is a guild owned by someone else in which the bot is a member
// holding perms through the role BotRole, and @everyone holds everyone.
type fixture struct {
	srv     *guildkittest.Server
	c       *guildkit.Client
	guild   guildkit.Guild
	owner   guildkit.User
	botRole guildkit.Role
}

// fixtureGuildID is the fixture guild's id, fixed so that its @everyone role
// can be seeded; each fixture has a server of its own.
const fixtureGuildID guildkit.Snowflake = 4242

// newFixture starts a server with a guild owned by another user, where the
// bot's permissions are perms (plus everyone's, on @everyone).
func newFixture(t *testing.T, perms, everyone guildkit.Permissions, features ...guildkit.GuildFeature) *fixture {
	t.Helper()
	return fixtureOn(guildkittest.NewServer(t), perms, everyone, features...)
}

func fixtureOn(srv *guildkittest.Server, perms, everyone guildkit.Permissions, features ...guildkit.GuildFeature) *fixture {
	id := fixtureGuildID
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{
		ID: id, OwnerID: owner.ID, Features: features,
		Roles: []guildkit.Role{
			{ID: id, Name: "@everyone", Permissions: everyone},
			// High, as a bot's role usually is: the role hierarchy lets
			// it manage only members and roles below it.
			{Name: "bot", Permissions: perms, Position: 10},
		},
	})
	var botRole guildkit.Role
	for _, r := range g.Roles {
		if r.Name == "bot" {
			botRole = r
		}
	}
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{botRole.ID}})
	return &fixture{srv: srv, c: srv.Client(), guild: g, owner: owner, botRole: botRole}
}

func (f *fixture) addMember(t *testing.T, name string, roles ...guildkit.Snowflake) guildkit.Member {
	t.Helper()
	return f.srv.AddMember(f.guild.ID, guildkit.Member{User: &guildkit.User{Username: name}, Roles: roles})
}

// apiCode returns the error code of err, which must be an [*guildkit.APIError].
func apiCode(t *testing.T, err error) guildkit.ErrorCode {
	t.Helper()
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr.Code
}

// problems returns the problems of err, which must be a
// [*guildkit.ValidationError].
func problems(t *testing.T, err error) []guildkit.FieldError {
	t.Helper()
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	return ve.Problems
}

// problemPaths returns the paths of err's problems, in order.
func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	var paths []string
	for _, p := range problems(t, err) {
		paths = append(paths, p.Path)
	}
	return paths
}

// requireValidation asserts err is a ValidationError holding exactly the
// given paths, in any order.
func requireValidation(t *testing.T, err error, paths ...string) {
	t.Helper()
	assert.ElementsMatch(t, paths, problemPaths(t, err), "problems: %v", err)
}

// requireFormError asserts err is a 400 Invalid Form Body naming path.
func requireFormError(t *testing.T, err error, path string) {
	t.Helper()
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.Status)
	assert.Equal(t, guildkit.CodeInvalidFormBody, apiErr.Code)
	var paths []string
	for _, fe := range apiErr.Errors {
		paths = append(paths, fe.Path)
	}
	assert.Contains(t, paths, path, "field errors: %v", apiErr.Errors)
}

// problemPathsWithPrefix returns "path (code)" for each of err's problems
// whose path starts with prefix.
func problemPathsWithPrefix(t *testing.T, err error, prefix string) []string {
	t.Helper()
	var out []string
	for _, p := range problems(t, err) {
		if strings.HasPrefix(p.Path, prefix) {
			out = append(out, p.Path+" ("+p.Code+")")
		}
	}
	return out
}

// requireWebhookProblem asserts err is a ValidationError with a problem of
// that path and code.
func requireWebhookProblem(t *testing.T, err error, path, code string) {
	t.Helper()
	ps := problems(t, err)
	for _, p := range ps {
		if p.Path == path && p.Code == code {
			return
		}
	}
	t.Errorf("no problem %s (%s) in %v", path, code, ps)
}

// requireWebhookAPIError asserts err is an APIError of that status and code.
func requireWebhookAPIError(t *testing.T, err error, status int, code guildkit.ErrorCode) *guildkit.APIError {
	t.Helper()
	var ae *guildkit.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, status, ae.Status, "status")
	assert.Equal(t, code, ae.Code, "code: %v", ae)
	return ae
}

// runConcurrent runs n calls of f on workers goroutines and returns the
// errors, one per call.
func runConcurrent(workers, n int, f func(i int) error) []error {
	errs := make([]error, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				errs[i] = f(i)
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return errs
}

func requireNoErrors(t *testing.T, errs []error) {
	t.Helper()
	for i, err := range errs {
		require.NoError(t, err, "request %d", i)
	}
}
