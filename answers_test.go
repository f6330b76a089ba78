package guildkit_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

var updateAnswers = flag.Bool("update-answers", false, "rewrite testdata/answers/*.json from the in-memory server's answers")

// answer is one recorded answer of the in-memory server: the golden file
// of an operation holds one.
type answer struct {
	Operation string          `json:"operation"`
	Status    int             `json:"status"`
	Body      json.RawMessage `json:"body,omitempty"`
}

// TestAnswersMatchGolden calls every operation of the interface on the
// in-memory server, in one scenario, and compares each answer with its
// golden file in testdata/answers: the status, and the answer's shape —
// every field name at every depth and its JSON type (string, number, bool,
// null, object, array). A field the reference platform always sends that
// goes missing, or changes type, fails the test. Values that change from run
// to run (ids, tokens, times) are not compared.
//
// Run with -update-answers to rewrite the files after a deliberate change
// (only the files whose status or shape changed are rewritten), and read
// the diff: the files are the reference platform's shapes.
func TestAnswersMatchGolden(t *testing.T) {
	t.Parallel()
	got := recordAnswers(t)

	ops := append(operations(t), "Execute Webhook with components", "Execute Webhook creating a forum thread",
		"Execute Webhook with a file component", "Get Current User", "List Current User Guilds")
	for _, op := range ops {
		if _, ok := got[op]; !ok {
			t.Errorf("the scenario does not call %q", op)
		}
	}
	dir := filepath.Join("testdata", "answers")
	if *updateAnswers {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		old, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range old {
			if !slices.ContainsFunc(ops, func(op string) bool { return answerFile(op) == filepath.Base(f) }) {
				require.NoError(t, os.Remove(f)) // an operation no longer called
			}
		}
	}
	for _, op := range ops {
		a, ok := got[op]
		if !ok {
			continue
		}
		file := filepath.Join(dir, answerFile(op))
		if *updateAnswers {
			if raw, err := os.ReadFile(file); err == nil {
				var want answer
				if json.Unmarshal(raw, &want) == nil && want.Status == a.Status && slices.Equal(shapeLines(want.Body), shapeLines(a.Body)) {
					continue // same shape: keep the file, and its values, unchanged
				}
			}
			var pretty bytes.Buffer
			b, err := json.Marshal(a)
			require.NoError(t, err)
			require.NoError(t, json.Indent(&pretty, b, "", "  "))
			pretty.WriteByte('\n')
			require.NoError(t, os.WriteFile(file, pretty.Bytes(), 0o644))
			continue
		}
		t.Run(op, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			require.NoError(t, err, "no golden answer for %q: run go test -run TestAnswersMatchGolden -update-answers", op)
			var want answer
			require.NoError(t, json.Unmarshal(raw, &want))
			assert.Equal(t, want.Status, a.Status, "status")
			assert.Equal(t, shapeLines(want.Body), shapeLines(a.Body), "the answer's fields and their JSON types")
		})
	}
}

// TestAnswersHaveReferenceFields checks the server's answers against the
// reference platform's objects kept in testdata (written from its
// published shapes, not from this server): every field of the reference
// object is in the server's answer, with the same JSON type or null.
func TestAnswersHaveReferenceFields(t *testing.T) {
	t.Parallel()
	got := recordAnswers(t)
	for _, tc := range []struct {
		op, ref, path string
		// contextual are the reference's fields the platform sends only in
		// some answers or for some objects (said in their doc comments).
		contextual []string
	}{
		{"Get Guild", "guild.json", "", []string{"owner", "permissions", "icon_hash", "welcome_screen"}},
		{"Get Guild Preview", "guild_preview.json", "", nil},
		{"Get Guild Widget", "guild_widget.json", "", nil},
		{"Get Guild Widget Settings", "guild_widget_settings.json", "", nil},
		// The flat emoji fields echo what a request sent; the emoji object
		// is always there.
		{"Get Guild Onboarding", "onboarding.json", "", []string{"prompts.[].options.[].emoji_id", "prompts.[].options.[].emoji_name",
			"prompts.[].options.[].emoji_animated"}},
		// Fields of integrations other than the bot kind the scenario adds.
		{"Get Guild Integrations", "integration.json", "[0]", []string{"enable_emoticons", "expire_behavior", "expire_grace_period",
			"revoked", "role_id", "subscriber_count", "synced_at", "syncing", "user", "scopes", "application.bot"}},
		// Metadata comes with a guild's invite list, target fields with a
		// targeted invite, the event and stage with an invite to them.
		{"Get Invite", "invite.json", "", []string{"created_at", "max_age", "max_uses", "temporary", "uses", "roles", "flags",
			"guild_scheduled_event", "stage_instance", "target_application", "target_type", "target_user"}},
		{"Get Guild Member", "user.json", "user", []string{"bot"}},
		{"Get Guild Channels", "channel_text.json", "[0]", nil},
		// A thread a webhook just made has no thread member for the caller
		// and has never been pinned to; invitable is a private thread's.
		{"Execute Webhook creating a forum thread", "channel_thread.json", "thread", []string{"member", "last_pin_timestamp", "position", "thread_metadata.invitable"}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			ref, err := os.ReadFile(filepath.Join("testdata", tc.ref))
			require.NoError(t, err)
			var live any
			require.NoError(t, json.Unmarshal(got[tc.op].Body, &live))
			switch {
			case tc.path == "[0]":
				arr, _ := live.([]any)
				require.NotEmpty(t, arr)
				live = arr[0]
			case tc.path != "":
				live = live.(map[string]any)[tc.path]
			}
			b, _ := json.Marshal(live)
			have := map[string]string{}
			for _, l := range shapeLines(b) {
				k, v, _ := strings.Cut(l, " ")
				have[k] = v
			}
			for _, l := range shapeLines(ref) {
				k, v, _ := strings.Cut(l, " ")
				if slices.Contains(tc.contextual, strings.TrimPrefix(k, ".")) || slices.ContainsFunc(tc.contextual, func(c string) bool {
					return strings.HasPrefix(k, "."+c+".")
				}) {
					continue
				}
				if !ancestorsPresent(have, k) {
					continue // inside an object the answer has as null, or an empty array
				}
				h, ok := have[k]
				if !assert.True(t, ok, "%s: the reference has %s (%s), the server's answer does not", tc.op, k, v) {
					continue
				}
				if h != v && h != "null" && v != "null" {
					t.Errorf("%s: %s is %s in the reference, %s in the server's answer", tc.op, k, v, h)
				}
			}
		})
	}
}

// shapeLines describes a JSON document as sorted lines "path type", where
// array elements are all ".[]" and a path's types seen are joined with "|".
func shapeLines(raw []byte) []string {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return []string{"invalid JSON: " + err.Error()}
	}
	types := map[string]map[string]bool{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		add := func(t string) {
			if types[path] == nil {
				types[path] = map[string]bool{}
			}
			types[path][t] = true
		}
		switch x := v.(type) {
		case map[string]any:
			add("object")
			for k, e := range x {
				if isSnowflakeKey(k) {
					k = "<id>" // a map keyed by ids (role member counts)
				}
				walk(path+"."+k, e)
			}
		case []any:
			add("array")
			for _, e := range x {
				walk(path+".[]", e)
			}
		case string:
			add("string")
		case float64:
			add("number")
		case bool:
			add("bool")
		case nil:
			add("null")
		}
	}
	walk("", v)
	var out []string
	for p, ts := range types {
		var names []string
		for t := range ts {
			names = append(names, t)
		}
		sort.Strings(names)
		out = append(out, p+" "+strings.Join(names, "|"))
	}
	sort.Strings(out)
	return out
}

// ancestorsPresent reports whether every object or array enclosing path k
// is in the live answer's shape with a value to look inside: not only null,
// and for an array's elements, not empty.
func ancestorsPresent(have map[string]string, k string) bool {
	for i := len(k) - 1; i > 0; i-- {
		if k[i] != '.' {
			continue
		}
		p := k[:i]
		t, ok := have[p]
		if !ok || t == "null" {
			return false
		}
	}
	if strings.HasSuffix(k, ".[]") {
		_, ok := have[k]
		return ok
	}
	return true
}

func isSnowflakeKey(k string) bool {
	if len(k) < 15 {
		return false
	}
	for _, r := range k {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func answerFile(op string) string {
	return strings.ToLower(strings.NewReplacer(" ", "-", "/", "-").Replace(op)) + ".json"
}

// operations returns the operation names of testdata/operations.txt.
func operations(t *testing.T) []string {
	var names []string
	for _, op := range readOperations(t) {
		names = append(names, op.name)
	}
	return names
}

// recordAnswers runs one scenario through every operation, as raw HTTP, and
// returns the answer of each, by operation name.
func recordAnswers(t *testing.T) map[string]answer {
	t.Helper()
	srv := guildkittest.NewServer(t)
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	guild := srv.AddGuild(guildkit.Guild{Name: "Answers", OwnerID: owner.ID,
		Features: []guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureVanityURL}})
	bot := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
	admin := srv.AddRole(guild.ID, guildkit.Role{Name: "bot", Permissions: guildkit.PermissionAdministrator, Position: 10})
	srv.AddMember(guild.ID, guildkit.Member{User: bot.User, Roles: []guildkit.Snowflake{admin.ID}})
	helper := srv.AddRole(guild.ID, guildkit.Role{Name: "helper", Position: 1})
	ada := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	ken := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "ken"}})
	srv.SetLastActive(guild.ID, ken.User.ID, time.Now().AddDate(0, 0, -30))
	text := srv.AddChannel(guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	rules := srv.AddChannel(guild.ID, guildkit.Channel{Name: "rules", Type: guildkit.ChannelTypeGuildText})
	srv.AddThread(guild.ID, text.ID, guildkit.Channel{Name: "a thread", Type: guildkit.ChannelTypePublicThread})
	srv.AddBan(guild.ID, guildkit.Ban{User: guildkit.User{Username: "banned"}})
	srv.SetVanityURL(guild.ID, "answers", 3)
	integ := srv.AddIntegration(guild.ID, guildkit.Integration{Name: "a bot", Type: "discord",
		Application: &guildkit.PartialApplication{ID: srv.AddUser(guildkit.User{Username: "app"}).ID, Name: "app", Description: "an app"}})
	srv.AddIntegration(guild.ID, guildkit.Integration{Name: "a channel", Type: guildkit.IntegrationTypeTwitch, Enabled: true})
	event := srv.AddScheduledEvent(guild.ID, guildkit.GuildScheduledEvent{Name: "launch"})
	inv := srv.AddInvite(guild.ID, text.ID, guildkit.Invite{})
	other := srv.AddInvite(guild.ID, text.ID, guildkit.Invite{})
	joiner := srv.AddUser(guildkit.User{Username: "joiner"})
	raid := []guildkit.Snowflake{srv.AddUser(guildkit.User{Username: "r1"}).ID, srv.AddUser(guildkit.User{Username: "r2"}).ID}

	got := map[string]answer{}
	g := "/guilds/" + guild.ID.String()
	call := func(op, method, path string, body any, header ...string) map[string]any {
		t.Helper()
		var rd io.Reader
		ct := ""
		switch b := body.(type) {
		case nil:
		case *multipartBody:
			rd, ct = bytes.NewReader(b.data), b.contentType
		case string:
			rd, ct = strings.NewReader(b), "text/csv"
		default:
			j, err := json.Marshal(b)
			require.NoError(t, err)
			rd, ct = bytes.NewReader(j), "application/json"
		}
		req, err := http.NewRequestWithContext(t.Context(), method, srv.BaseURL()+path, rd)
		require.NoError(t, err)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		if !strings.HasPrefix(path, "/webhooks/") || strings.Count(path, "/") == 2 {
			req.Header.Set("Authorization", "Bot "+srv.Token())
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Less(t, resp.StatusCode, 300, "%s: %s %s: %s", op, method, path, raw)
		a := answer{Operation: op, Status: resp.StatusCode}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && len(raw) > 0 {
			a.Body = json.RawMessage(bytes.TrimSpace(raw))
		}
		got[op] = a
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return out
	}

	call("Get Guild", "GET", g+"?with_counts=true", nil)
	// The reference platform's routes a bot uses to learn who and where it
	// is, beside the interface's.
	call("Get Current User", "GET", "/users/@me", nil)
	call("List Current User Guilds", "GET", "/users/@me/guilds", nil)
	call("Get Guild Preview", "GET", g+"/preview", nil)
	call("Modify Guild", "PATCH", g, map[string]any{"name": "Answers 2", "rules_channel_id": rules.ID, "public_updates_channel_id": rules.ID})
	call("Get Guild Channels", "GET", g+"/channels", nil)
	created := call("Create Guild Channel", "POST", g+"/channels", map[string]any{"name": "new", "type": 0})
	call("Modify Guild Channel Positions", "PATCH", g+"/channels", []map[string]any{{"id": created["id"], "position": 0}})
	call("List Active Guild Threads", "GET", g+"/threads/active", nil)
	call("Get Guild Member", "GET", g+"/members/"+ada.User.ID.String(), nil)
	call("List Guild Members", "GET", g+"/members?limit=10", nil)
	call("Search Guild Members", "GET", g+"/members/search?query=ad", nil)
	call("Add Guild Member", "PUT", g+"/members/"+joiner.ID.String(), map[string]any{"access_token": srv.NewAccessToken(joiner.ID)})
	call("Modify Guild Member", "PATCH", g+"/members/"+ada.User.ID.String(), map[string]any{"nick": "Ada"})
	call("Modify Current Member", "PATCH", g+"/members/@me", map[string]any{"nick": "Bot"})
	call("Modify Current User Nick", "PATCH", g+"/members/@me/nick", map[string]any{"nick": "Bot 2"})
	call("Add Guild Member Role", "PUT", g+"/members/"+ada.User.ID.String()+"/roles/"+helper.ID.String(), nil)
	call("Remove Guild Member Role", "DELETE", g+"/members/"+ada.User.ID.String()+"/roles/"+helper.ID.String(), nil)
	call("Remove Guild Member", "DELETE", g+"/members/"+joiner.ID.String(), nil)
	call("Get Guild Bans", "GET", g+"/bans", nil)
	call("Create Guild Ban", "PUT", g+"/bans/"+ken.User.ID.String(), map[string]any{"delete_message_seconds": 0})
	call("Get Guild Ban", "GET", g+"/bans/"+ken.User.ID.String(), nil)
	call("Remove Guild Ban", "DELETE", g+"/bans/"+ken.User.ID.String(), nil)
	call("Bulk Guild Ban", "POST", g+"/bulk-ban", map[string]any{"user_ids": raid})
	call("Get Guild Roles", "GET", g+"/roles", nil)
	call("Get Guild Role", "GET", g+"/roles/"+admin.ID.String(), nil)
	call("Get Guild Role Member Counts", "GET", g+"/roles/member-counts", nil)
	role := call("Create Guild Role", "POST", g+"/roles", map[string]any{"name": "mods"})
	call("Modify Guild Role Positions", "PATCH", g+"/roles", []map[string]any{{"id": role["id"], "position": 2}})
	call("Modify Guild Role", "PATCH", g+"/roles/"+fmt.Sprint(role["id"]), map[string]any{"hoist": true})
	call("Delete Guild Role", "DELETE", g+"/roles/"+fmt.Sprint(role["id"]), nil)
	call("Get Guild Prune Count", "GET", g+"/prune?days=7", nil)
	call("Begin Guild Prune", "POST", g+"/prune", map[string]any{"days": 7})
	call("Get Guild Voice Regions", "GET", g+"/regions", nil)
	call("Get Guild Invites", "GET", g+"/invites", nil)
	call("Get Guild Integrations", "GET", g+"/integrations", nil)
	call("Delete Guild Integration", "DELETE", g+"/integrations/"+integ.ID.String(), nil)
	call("Get Guild Widget Settings", "GET", g+"/widget", nil)
	call("Modify Guild Widget", "PATCH", g+"/widget", map[string]any{"enabled": true, "channel_id": text.ID})
	call("Get Guild Widget", "GET", g+"/widget.json", nil)
	call("Get Guild Widget Image", "GET", g+"/widget.png?style=shield", nil)
	call("Get Guild Vanity URL", "GET", g+"/vanity-url", nil)
	call("Modify Guild Welcome Screen", "PATCH", g+"/welcome-screen", map[string]any{"enabled": true, "description": "hi",
		"welcome_channels": []map[string]any{{"channel_id": text.ID, "description": "chat", "emoji_name": "👋"}}})
	call("Get Guild Welcome Screen", "GET", g+"/welcome-screen", nil)
	call("Modify Guild Onboarding", "PUT", g+"/onboarding", map[string]any{"enabled": false, "mode": 0, "default_channel_ids": []guildkit.Snowflake{text.ID},
		"prompts": []map[string]any{{"id": "1", "type": 0, "title": "Why here?", "single_select": true, "required": false, "in_onboarding": true,
			"options": []map[string]any{{"id": "2", "title": "To chat", "channel_ids": []guildkit.Snowflake{text.ID}, "emoji_name": "💬"}}}}})
	call("Get Guild Onboarding", "GET", g+"/onboarding", nil)
	call("Modify Guild Incident Actions", "PUT", g+"/incident-actions", map[string]any{"invites_disabled_until": nil})
	call("Get Invite", "GET", "/invites/"+inv.Code+"?with_counts=true&guild_scheduled_event_id="+event.ID.String(), nil)
	call("Delete Invite", "DELETE", "/invites/"+other.Code, nil)
	call("Update Target Users", "PUT", "/invites/"+inv.Code+"/target-users", newFilePart(t, "target_users_file", "users.csv", "user_id\n"+ada.User.ID.String()+"\n"))
	call("Get Target Users Job Status", "GET", "/invites/"+inv.Code+"/target-users/job-status", nil)
	call("Get Target Users", "GET", "/invites/"+inv.Code+"/target-users", nil)

	hook := call("Create Webhook", "POST", "/channels/"+text.ID.String()+"/webhooks", map[string]any{"name": "Answers"})
	hid, token := fmt.Sprint(hook["id"]), fmt.Sprint(hook["token"])
	wp := "/webhooks/" + hid
	call("Get Channel Webhooks", "GET", "/channels/"+text.ID.String()+"/webhooks", nil)
	call("Get Guild Webhooks", "GET", g+"/webhooks", nil)
	call("Get Webhook", "GET", wp, nil)
	call("Get Webhook with Token", "GET", wp+"/"+token, nil)
	call("Modify Webhook", "PATCH", wp, map[string]any{"name": "Answers 2"})
	call("Modify Webhook with Token", "PATCH", wp+"/"+token, map[string]any{"name": "Answers 3"})
	msg := call("Execute Webhook", "POST", wp+"/"+token+"?wait=true", newMultipart(t, `{"content":"hello","attachments":[{"id":0,"filename":"log.txt"}]}`, "log.txt", "a log line\n"))
	mid := fmt.Sprint(msg["id"])
	// A Components V2 message, whose answer shows the components with the
	// ids the service fills in.
	call("Execute Webhook with components", "POST", wp+"/"+token+"?wait=true&with_components=true", map[string]any{"flags": 1 << 15,
		"components": []any{map[string]any{"type": 17, "components": []any{map[string]any{"type": 10, "content": "build passed"},
			map[string]any{"type": 9, "components": []any{map[string]any{"type": 10, "content": "42 tests"}},
				"accessory": map[string]any{"type": 11, "media": map[string]any{"url": "https://example.com/badge.png"}}},
			map[string]any{"type": 12, "items": []any{map[string]any{"media": map[string]any{"url": "https://example.com/graph.png"}}}},
			map[string]any{"type": 14}, map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "style": 5, "label": "log", "url": "https://example.com/log"}}}}}}})
	// A Components V2 message with an uploaded file shown by a File
	// component, whose answer carries the file's response-only fields.
	call("Execute Webhook with a file component", "POST", wp+"/"+token+"?wait=true&with_components=true", newMultipart(t,
		`{"flags":32768,"components":[{"type":13,"file":{"url":"attachment://log.txt"}}],"attachments":[{"id":0,"filename":"log.txt"}]}`,
		"log.txt", "a log line\n"))
	// A post in a forum channel, whose answer carries the thread it made.
	forum := srv.AddChannel(guild.ID, guildkit.Channel{Name: "help", Type: guildkit.ChannelTypeGuildForum})
	forumHook := srv.AddWebhook(forum.ID, "Forum")
	call("Execute Webhook creating a forum thread", "POST", "/webhooks/"+forumHook.ID.String()+"/"+forumHook.Token+"?wait=true",
		map[string]any{"content": "first post", "thread_name": "A question"})
	call("Get Webhook Message", "GET", wp+"/"+token+"/messages/"+mid, nil)
	call("Edit Webhook Message", "PATCH", wp+"/"+token+"/messages/"+mid, map[string]any{"content": "hello again"})
	call("Delete Webhook Message", "DELETE", wp+"/"+token+"/messages/"+mid, nil)
	call("Execute chat-service-compatible Webhook", "POST", wp+"/"+token+"/chatcompat?wait=true", map[string]any{"text": "from chat"})
	call("Execute repository-compatible Webhook", "POST", wp+"/"+token+"/repocompat?wait=true",
		map[string]any{"ref": "refs/heads/main", "commits": []any{}, "repository": map[string]any{"full_name": "a/b"}},
		guildkit.RepoEventHeader, "push")
	call("Delete Webhook with Token", "DELETE", wp+"/"+token, nil)
	hook2 := call("Create Webhook", "POST", "/channels/"+text.ID.String()+"/webhooks", map[string]any{"name": "Second"})
	call("Delete Webhook", "DELETE", "/webhooks/"+fmt.Sprint(hook2["id"]), nil)
	return got
}

type multipartBody struct {
	data        []byte
	contentType string
}

// newMultipart builds a multipart body with payload_json and one file, as
// files[0].
func newMultipart(t *testing.T, payload, name, content string) *multipartBody {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	p, err := w.CreatePart(h)
	require.NoError(t, err)
	_, _ = p.Write([]byte(payload))
	h = textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[0]"; filename=%q`, name))
	h.Set("Content-Type", "text/plain")
	p, err = w.CreatePart(h)
	require.NoError(t, err)
	_, _ = p.Write([]byte(content))
	require.NoError(t, w.Close())
	return &multipartBody{data: b.Bytes(), contentType: w.FormDataContentType()}
}

// newFilePart builds a multipart body of one file part.
func newFilePart(t *testing.T, field, name, content string) *multipartBody {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	p, err := w.CreateFormFile(field, name)
	require.NoError(t, err)
	_, _ = p.Write([]byte(content))
	require.NoError(t, w.Close())
	return &multipartBody{data: b.Bytes(), contentType: w.FormDataContentType()}
}
