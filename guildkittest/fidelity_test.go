package guildkittest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// fidelity is a guild with a text channel, a webhook in it and the bot's
// raw credential, for the detail tests, which speak plain HTTP.
type fidelity struct {
	srv  *guildkittest.Server
	g    guildkit.Guild
	ch   guildkit.Channel
	hook guildkit.Webhook
}

func newFidelity(t *testing.T) *fidelity {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "fidelity"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	return &fidelity{srv: srv, g: g, ch: ch, hook: srv.AddWebhook(ch.ID, "fidelity", guildkittest.WebhookApplication(srv.BotID()))}
}

func (f *fidelity) do(t *testing.T, method, path, contentType, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.BaseURL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+f.srv.Token())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (f *fidelity) hookPath() string {
	return "/webhooks/" + f.hook.ID.String() + "/" + f.hook.Token + "?wait=true&with_components=true"
}

// TestFileComponentAnswerCarriesTheAttachment: a File component (13) in an
// answer has the response-only name and size, and its media item the
// uploaded attachment's id, content type and proxy URL, with width and
// height for an image.
func TestFileComponentAnswerCarriesTheAttachment(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 3, 2))))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("payload_json", `{"flags":32768,"components":[{"type":13,"file":{"url":"attachment://dot.png"}}],
		"attachments":[{"id":0,"filename":"dot.png"}]}`))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="files[0]"; filename="dot.png"`)
	h.Set("Content-Type", "image/png")
	p, err := mw.CreatePart(h)
	require.NoError(t, err)
	_, _ = p.Write(img.Bytes())
	require.NoError(t, mw.Close())

	status, msg := f.do(t, "POST", f.hookPath(), mw.FormDataContentType(), body.String())
	require.Equal(t, http.StatusOK, status, "%v", msg)
	att := msg["attachments"].([]any)[0].(map[string]any)
	file := msg["components"].([]any)[0].(map[string]any)
	media := file["file"].(map[string]any)
	assert.Equal(t, "dot.png", file["name"])
	assert.EqualValues(t, img.Len(), file["size"])
	assert.Equal(t, att["id"], media["attachment_id"])
	assert.Equal(t, "image/png", media["content_type"])
	assert.Equal(t, att["proxy_url"], media["proxy_url"])
	assert.EqualValues(t, 3, media["width"])
	assert.EqualValues(t, 2, media["height"])
	assert.EqualValues(t, 3, att["width"], "the attachment of an image has its size too")
	assert.Equal(t, "attachment://dot.png", media["url"], "the url stays the reference it was sent as")

	// Read back, the message answers the same.
	status, got := f.do(t, "GET", "/webhooks/"+f.hook.ID.String()+"/"+f.hook.Token+"/messages/"+msg["id"].(string), "", "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, msg["components"], got["components"])
}

// TestSeededRoleColorFillsColors: a role seeded with only color answers
// colors.primary_color the same, and one seeded with only colors answers
// color the same, as they stay through the interface.
func TestSeededRoleColorFillsColors(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	red := f.srv.AddRole(f.g.ID, guildkit.Role{Name: "red", Color: 0xFF0000})
	blue := f.srv.AddRole(f.g.ID, guildkit.Role{Name: "blue", Colors: guildkit.RoleColors{PrimaryColor: 0x0000FF}})
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{"guilds":[{"id":"7001","name":"seeded","roles":[{"id":"7002","name":"green","color":65280}]}]}`))
	require.NoError(t, err)
	f.srv.ApplySeed(seed)

	for _, tc := range []struct {
		path  string
		color float64
	}{
		{"/guilds/" + f.g.ID.String() + "/roles/" + red.ID.String(), 0xFF0000},
		{"/guilds/" + f.g.ID.String() + "/roles/" + blue.ID.String(), 0x0000FF},
		{"/guilds/7001/roles/7002", 0x00FF00},
	} {
		status, role := f.do(t, "GET", tc.path, "", "")
		require.Equal(t, http.StatusOK, status, "%s: %v", tc.path, role)
		assert.Equal(t, tc.color, role["color"], tc.path)
		assert.Equal(t, tc.color, role["colors"].(map[string]any)["primary_color"], tc.path)
	}
}

// TestMalformedJSONIs50109: a body that is not JSON is answered 400 with
// code 50109, as the reference platform does; JSON of the wrong shape or
// null stays 50035 Invalid Form Body.
func TestMalformedJSONIs50109(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	g := "/guilds/" + f.g.ID.String()
	for _, tc := range []struct {
		path, ct, body string
		code           float64
	}{
		{g, "application/json", `{"name": "x"`, 50109},
		{g + "/roles", "application/json", `not json`, 50109},
		{f.hookPath(), "application/json", `{"content":`, 50109},
		{g, "application/json", `null`, 50035},
	} {
		status, body := f.do(t, http.MethodPatch, tc.path, tc.ct, tc.body)
		if tc.path != g {
			status, body = f.do(t, http.MethodPost, tc.path, tc.ct, tc.body)
		}
		assert.Equal(t, http.StatusBadRequest, status, "%s %q", tc.path, tc.body)
		assert.Equal(t, tc.code, body["code"], "%s %q: %v", tc.path, tc.body, body)
	}
	// A multipart body's payload_json that is not JSON is the same.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("payload_json", `{"content":`))
	require.NoError(t, mw.Close())
	status, out := f.do(t, http.MethodPost, f.hookPath(), mw.FormDataContentType(), body.String())
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, float64(50109), out["code"], "%v", out)
}

// TestOnboardingPromptIDZero: a prompt sent with id "0" is a new prompt
// and gets a fresh id, as component id 0 does; a prompt with no id at all
// is still refused.
func TestOnboardingPromptIDZero(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	path := "/guilds/" + f.g.ID.String() + "/onboarding"
	prompt := func(id string) string {
		idField := ""
		if id != "" {
			idField = `"id": "` + id + `", `
		}
		return `{"prompts": [{` + idField + `"type": 0, "title": "Why here?", "options": [{"id": "0", "title": "chat"}]}]}`
	}
	status, out := f.do(t, http.MethodPut, path, "application/json", prompt("0"))
	require.Equal(t, http.StatusOK, status, "%v", out)
	pr := out["prompts"].([]any)[0].(map[string]any)
	id, err := guildkit.ParseSnowflake(pr["id"].(string))
	require.NoError(t, err)
	assert.NotZero(t, id, "the prompt got a fresh id")
	assert.NotEqual(t, "0", pr["options"].([]any)[0].(map[string]any)["id"])

	status, out = f.do(t, http.MethodPut, path, "application/json", prompt(""))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, fmt.Sprint(out["errors"]), "This field is required")
}

// TestPreviewOfAnotherGuild: a user outside a guild that is not
// DISCOVERABLE asking for its preview gets 403 Missing Access; an unknown
// guild is still 404.
func TestPreviewOfAnotherGuild(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	outsider := f.srv.AddUser(guildkit.User{Username: "outsider"})
	_, err := f.srv.ClientAs(outsider.ID).Guilds.GetPreview(t.Context(), f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeMissingAccess, apiErr.Code)
	_, err = f.srv.ClientAs(outsider.ID).Guilds.GetPreview(t.Context(), 12345678901234567)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
}

// TestEmbedKeepsOnlyModelledMembers: members of an embed the server does
// not model are not echoed back, at the top or inside its objects.
func TestEmbedKeepsOnlyModelledMembers(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	status, msg := f.do(t, http.MethodPost, f.hookPath(), "application/json",
		`{"embeds":[{"title":"t","sparkles":true,"footer":{"text":"f","glitter":1},"fields":[{"name":"n","value":"v","extra":"x"}]}]}`)
	require.Equal(t, http.StatusOK, status, "%v", msg)
	e := msg["embeds"].([]any)[0].(map[string]any)
	assert.Equal(t, "t", e["title"])
	assert.NotContains(t, e, "sparkles")
	assert.Equal(t, map[string]any{"text": "f"}, e["footer"])
	assert.Equal(t, []any{map[string]any{"name": "n", "value": "v"}}, e["fields"])
}

// TestAuditLogReasonTruncated: the reference platform keeps at most 512
// characters of X-Audit-Log-Reason.
func TestAuditLogReasonTruncated(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	u := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{Username: "spammer"}})
	reason := strings.Repeat("é", 600)
	path := "/guilds/" + f.g.ID.String() + "/bans/" + u.User.ID.String()
	status, out := f.do(t, http.MethodPut, path, "application/json", `{}`, "X-Audit-Log-Reason", url.PathEscape(reason))
	require.Equal(t, http.StatusNoContent, status, "%v", out)
	status, ban := f.do(t, http.MethodGet, path, "", "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, strings.Repeat("é", 512), ban["reason"])
}

// TestLegacyComponentIDs: the reference platform numbers the components
// of a legacy (non-V2) message from 1, as it does a Components V2
// message's; ids a message sets are kept.
func TestLegacyComponentIDs(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	status, msg := f.do(t, http.MethodPost, f.hookPath(), "application/json",
		`{"content":"pick","components":[{"type":1,"components":[{"type":2,"style":1,"label":"a","custom_id":"a"},{"type":2,"style":1,"label":"b","custom_id":"b","id":7}]}]}`)
	require.Equal(t, http.StatusOK, status, "%v", msg)
	row := msg["components"].([]any)[0].(map[string]any)
	buttons := row["components"].([]any)
	assert.EqualValues(t, 1, row["id"])
	assert.EqualValues(t, 2, buttons[0].(map[string]any)["id"])
	assert.EqualValues(t, 7, buttons[1].(map[string]any)["id"])
}
