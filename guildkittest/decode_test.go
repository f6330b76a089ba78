package guildkittest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// errorsAt returns the _errors list at path ("options.1.type") in an
// Invalid Form Body's errors object, or nil.
func errorsAt(body map[string]any, path string) []any {
	node, _ := body["errors"].(map[string]any)
	if path != "" {
		for _, p := range strings.Split(path, ".") {
			node, _ = node[p].(map[string]any)
		}
	}
	errs, _ := node["_errors"].([]any)
	return errs
}

// TestWrongTypeIs50035: valid JSON with a field of the wrong type is
// answered 400 Invalid Form Body (50035) naming the field by its path, on
// every route, as the reference platform answers; JSON that does not
// parse stays 50109.
func TestWrongTypeIs50035(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	app := "/applications/" + f.srv.Application().ID.String()
	g := "/guilds/" + f.g.ID.String()
	for _, tc := range []struct {
		method, path, body string
		field              string // the path named in errors
	}{
		{http.MethodPost, app + "/commands", `{"name":"x","description":"y","default_member_permissions":"abc"}`, "default_member_permissions"},
		{http.MethodPost, app + "/commands", `{"name":"x","description":"y","type":"x"}`, "type"},
		{http.MethodPost, app + "/commands", `{"name":"x","description":"y","options":[{"type":3,"name":"a","description":"b"},{"type":"z","name":"c","description":"d"}]}`, "options.1.type"},
		{http.MethodPost, app + g + "/commands", `{"name":"x","description":"y","contexts":["a"]}`, "contexts.0"},
		{http.MethodPatch, g, `{"name":5}`, "name"},
		{http.MethodPost, g + "/roles", `{"name":"r","hoist":"yes"}`, "hoist"},
		{http.MethodPost, f.hookPath(), `{"content":5}`, "content"},
		{http.MethodPost, f.hookPath(), `{"embeds":[{"title":"a"},{"title":7}]}`, "embeds.1.title"},
	} {
		status, body := f.do(t, tc.method, tc.path, "application/json", tc.body)
		assert.Equal(t, http.StatusBadRequest, status, "%s %s %s", tc.method, tc.path, tc.body)
		assert.Equal(t, float64(guildkit.CodeInvalidFormBody), body["code"], "%s %s: %v", tc.method, tc.body, body)
		assert.NotEmpty(t, errorsAt(body, tc.field), "%s %s: errors at %q in %v", tc.method, tc.body, tc.field, body)
	}
	// Not JSON at all stays 50109.
	_, body := f.do(t, http.MethodPost, app+"/commands", "application/json", `{"name":`)
	assert.Equal(t, float64(guildkit.CodeInvalidRequest), body["code"], "%v", body)
}

// postJSON posts body to the server's path without a credential, as an
// application answers an interaction, and returns the status and the
// decoded answer.
func postJSON(t *testing.T, r *http.Request, srv *guildkittest.Server, method, path, body string) (int, map[string]any) {
	req, err := http.NewRequestWithContext(r.Context(), method, srv.BaseURL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return res.StatusCode, out
}

// TestWrongTypeInAnswerIs50035: the callback route answers a wrongly typed
// field in an answer 50035 with its path (under data for the message).
func TestWrongTypeInAnswerIs50035(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, field string }{
		{`{"type":"x"}`, "type"},
		{`{"type":4,"data":{"embeds":[{"title":5}]}}`, "data.embeds.0.title"},
		{`{"type":4,"data":{"content":"a","flags":"x"}}`, "data.flags"},
		{`{"type":4,"data":{"content":"a","allowed_mentions":{"parse":"users"}}}`, "data.allowed_mentions.parse"},
	} {
		var status int
		var body map[string]any
		var f *fixture
		f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
			status, body = postJSON(t, r, f.srv, http.MethodPost, "/interactions/"+it.ID.String()+"/"+string(it.Token)+"/callback", tc.body)
			w.WriteHeader(http.StatusAccepted)
			go f.srv.AdvanceClock(4 * time.Second)
		})
		_, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
		require.NoError(t, err)
		assert.Equal(t, http.StatusBadRequest, status, tc.body)
		assert.Equal(t, float64(guildkit.CodeInvalidFormBody), body["code"], "%s: %v", tc.body, body)
		assert.NotEmpty(t, errorsAt(body, tc.field), "%s: errors at %q in %v", tc.body, tc.field, body)
	}
}

// TestNullsInAnswers: content, embeds, components and allowed_mentions
// null are accepted where the platform accepts them (discord.py sends
// "content": null with every embed-only reply): in an answer on the
// callback route and in the HTTP answer, in a follow-up, and in an edit
// (where content null clears the content).
func TestNullsInAnswers(t *testing.T) {
	t.Parallel()
	const nulls = `"content":null,"components":null,"allowed_mentions":null`
	embedOnly := `{"type":4,"data":{` + nulls + `,"embeds":[{"title":"only an embed"}]}}`

	t.Run("http answer", func(t *testing.T) {
		f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, embedOnly)
		})
		out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
		require.NoError(t, err)
		require.Equal(t, guildkittest.OutcomeMessage, out.Kind, "%v", out)
		require.Len(t, out.Message.Embeds, 1)
		assert.Equal(t, "only an embed", out.Message.Embeds[0].Title)
		assert.Empty(t, out.Message.Content)
	})

	t.Run("callback, follow-up, edits", func(t *testing.T) {
		var f *fixture
		var results []string
		f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
			hook := "/webhooks/" + f.srv.Application().ID.String() + "/" + string(it.Token)
			for _, c := range []struct{ method, path, body string }{
				{http.MethodPost, "/interactions/" + it.ID.String() + "/" + string(it.Token) + "/callback", embedOnly},
				{http.MethodPost, hook, `{` + nulls + `,"embeds":[{"title":"follow-up"}]}`},
				{http.MethodPost, hook, `{"content":"text","embeds":null}`},
				{http.MethodPatch, hook + "/messages/@original", `{` + nulls + `,"embeds":[{"title":"edited"}]}`},
			} {
				status, body := postJSON(t, r, f.srv, c.method, c.path, c.body)
				if status >= 300 {
					results = append(results, fmt.Sprintf("%s %s: %d %v", c.method, c.body, status, body))
				}
			}
			w.WriteHeader(http.StatusAccepted)
		})
		out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
		require.NoError(t, err)
		assert.Empty(t, results, "refused")
		require.Equal(t, guildkittest.OutcomeMessage, out.Kind, "%v", out)
		msgs := f.srv.ChannelMessages(f.ch.ID, f.alice)
		var titles []string
		for _, m := range msgs {
			for _, e := range m.Embeds {
				titles = append(titles, e.Title)
			}
		}
		assert.Contains(t, titles, "edited")
		assert.Contains(t, titles, "follow-up")
	})
}
