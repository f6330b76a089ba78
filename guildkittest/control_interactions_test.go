package guildkittest_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// plainBot is a bot as one is written in any language: net/http,
// crypto/ed25519 and encoding/json, no guildkit code. It verifies every
// delivery's signature and answers /menu with two buttons: "now" is
// answered in the HTTP response as multipart (an updated message with a
// file), "later" with 202 and then through the callback route (an
// ephemeral message).
type plainBot struct {
	t       *testing.T
	key     ed25519.PublicKey
	restURL string // the interface's base URL, for the callback route

	mu       sync.Mutex
	refused  int      // deliveries refused for their signature
	tokens   []string // the interaction tokens received
	wg       sync.WaitGroup
	callback chan int // the callback route's status
}

func (b *plainBot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	msg := append([]byte(r.Header.Get("X-Signature-Timestamp")), body...)
	if err != nil || !ed25519.Verify(b.key, msg, sig) {
		b.mu.Lock()
		b.refused++
		b.mu.Unlock()
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var it struct {
		Type  int    `json:"type"`
		ID    string `json:"id"`
		Token string `json:"token"`
		Data  struct {
			Name     string `json:"name"`
			CustomID string `json:"custom_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &it); err != nil {
		http.Error(w, "bad JSON", http.StatusBadRequest)
		return
	}
	b.mu.Lock()
	b.tokens = append(b.tokens, it.Token)
	b.mu.Unlock()
	answer := func(v string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, v)
	}
	switch {
	case it.Type == 1:
		answer(`{"type":1}`)
	case it.Type == 2 && it.Data.Name == "menu":
		answer(`{"type":4,"data":{"content":"Menu","components":[{"type":1,"components":[` +
			`{"type":2,"style":1,"label":"Now","custom_id":"now"},{"type":2,"style":2,"label":"Later","custom_id":"later"}]}]}}`)
	case it.Type == 3 && it.Data.CustomID == "now":
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		_ = mw.WriteField("payload_json", `{"type":7,"data":{"content":"Updated now","components":[],"attachments":[{"id":0,"filename":"note.txt"}]}}`)
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="files[0]"; filename="note.txt"`)
		h.Set("Content-Type", "text/plain")
		part, _ := mw.CreatePart(h)
		_, _ = io.WriteString(part, "written by a bot with no SDK")
		_ = mw.Close()
		w.Header().Set("Content-Type", mw.FormDataContentType())
		_, _ = w.Write(buf.Bytes())
	case it.Type == 3 && it.Data.CustomID == "later":
		w.WriteHeader(http.StatusAccepted)
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			resp, err := http.Post(b.restURL+"/interactions/"+it.ID+"/"+it.Token+"/callback", "application/json",
				strings.NewReader(`{"type":4,"data":{"content":"Answered through the callback","flags":64}}`))
			if err != nil {
				b.callback <- 0
				return
			}
			resp.Body.Close()
			b.callback <- resp.StatusCode
		}()
	default:
		answer(`{"type":4,"data":{"content":"unknown","flags":64}}`)
	}
}

// loopGuild makes a guild with a member, alice, in #general.
func loopGuild(t *testing.T, opts ...guildkittest.Option) (*guildkittest.Server, guildkit.Snowflake, guildkit.Snowflake) {
	srv := guildkittest.NewServer(t, opts...)
	g := srv.AddGuild(guildkit.Guild{Name: "Loop"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	// The commands the tests run, registered as the platform requires.
	for _, name := range []string{"menu", "wait", "x"} {
		srv.AddCommand(0, guildkit.CommandCreateParams{Name: name, Description: "The " + name + " command"})
	}
	return srv, alice.User.ID, ch.ID
}

type outcomeJSON struct {
	Kind      string            `json:"kind"`
	Ephemeral bool              `json:"ephemeral"`
	Failure   string            `json:"failure"`
	Message   *guildkit.Message `json:"message"`
	Modal     *struct {
		ID       guildkit.Snowflake `json:"id"`
		CustomID string             `json:"custom_id"`
		Title    string             `json:"title"`
	} `json:"modal"`
	Interaction map[string]any `json:"interaction"`
	Delivery    map[string]any `json:"delivery"`
	Error       string         `json:"error"`
}

// TestInteractionsFromAnyLanguage: a bot with no guildkit code receives
// signed deliveries and answers them in the HTTP response (JSON, and
// multipart with a file) and through the callback route; the control API,
// driven as a script drives it, sets the endpoint, checks it, acts as a
// member and lists the deliveries with their answers, never a token.
func TestInteractionsFromAnyLanguage(t *testing.T) {
	t.Parallel()
	srv, alice, channel := loopGuild(t)
	bot := &plainBot{t: t, key: srv.Application().PublicKey, restURL: srv.BaseURL(), callback: make(chan int, 1)}
	hs := httptest.NewServer(bot)
	t.Cleanup(func() { bot.wg.Wait(); hs.Close() })
	api := srv.URL + guildkittest.ControlPrefix + "api/"

	var app struct {
		ID              guildkit.Snowflake          `json:"id"`
		PublicKey       string                      `json:"public_key"`
		InteractionsURL string                      `json:"interactions_url"`
		Check           *guildkittest.EndpointCheck `json:"endpoint_check"`
	}
	resp := plain(t, "POST", api+"application", "", `{"interactions_url": "`+hs.URL+`/interactions"}`, &app)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, srv.Application().PublicKeyHex(), app.PublicKey)
	assert.Equal(t, srv.Application().ID, app.ID)
	require.NotNil(t, app.Check)
	assert.True(t, app.Check.OK, app.Check.Verdict)
	assert.Equal(t, 1, bot.refused, "the check sent one PING with a bad signature, and the bot refused it")

	var menu outcomeJSON
	resp = plain(t, "POST", api+"interactions", "", `{"kind": "command", "user_id": "`+alice.String()+`", "channel_id": "`+channel.String()+`", "name": "menu"}`, &menu)
	require.Equal(t, http.StatusOK, resp.StatusCode, menu.Error)
	require.Equal(t, "message", menu.Kind)
	assert.Equal(t, "Menu", menu.Message.Content)
	assert.Equal(t, "[redacted]", menu.Interaction["token"])
	assert.Equal(t, "CHANNEL_MESSAGE_WITH_SOURCE", menu.Delivery["answer_name"])
	assert.Equal(t, false, menu.Delivery["callback"])

	var now outcomeJSON
	resp = plain(t, "POST", api+"interactions", "", `{"kind": "click", "user_id": "`+alice.String()+`", "message_id": "`+menu.Message.ID.String()+`", "custom_id": "now"}`, &now)
	require.Equal(t, http.StatusOK, resp.StatusCode, now.Error)
	require.Equal(t, "updated", now.Kind, now.Failure)
	assert.Equal(t, "Updated now", now.Message.Content)
	require.Len(t, now.Message.Attachments, 1)
	assert.Equal(t, "note.txt", now.Message.Attachments[0].Filename)
	assert.Equal(t, menu.Message.ID, now.Message.ID, "the message the button is on is the one updated")

	var later outcomeJSON
	resp = plain(t, "POST", api+"interactions", "", `{"kind": "click", "user_id": "`+alice.String()+`", "message_id": "`+menu.Message.ID.String()+`", "custom_id": "later"}`, &later)
	// The button is gone: the message was updated with no components.
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, later.Error, `has no component with custom_id "later"`)

	// A fresh menu: "later" is answered through the callback route.
	resp = plain(t, "POST", api+"interactions", "", `{"kind": "command", "user_id": "`+alice.String()+`", "channel_id": "`+channel.String()+`", "name": "menu"}`, &menu)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp = plain(t, "POST", api+"interactions", "", `{"kind": "click", "user_id": "`+alice.String()+`", "message_id": "`+menu.Message.ID.String()+`", "custom_id": "later"}`, &later)
	require.Equal(t, http.StatusOK, resp.StatusCode, later.Error)
	require.Equal(t, "message", later.Kind, later.Failure)
	assert.True(t, later.Ephemeral)
	assert.Equal(t, "Answered through the callback", later.Message.Content)
	assert.Equal(t, true, later.Delivery["callback"])
	assert.Equal(t, http.StatusNoContent, <-bot.callback)

	// The deliveries, with their answers and timing, and no token.
	req, err := http.NewRequestWithContext(t.Context(), "GET", api+"interactions", nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var deliveries []map[string]any
	require.NoError(t, json.Unmarshal(raw, &deliveries))
	require.Len(t, deliveries, 4)
	kinds := []string{}
	for _, d := range deliveries {
		kinds = append(kinds, d["type_name"].(string)+" "+d["custom_id"].(string)+" "+d["answer_name"].(string))
		assert.Contains(t, d, "duration_ms")
		assert.Contains(t, d, "answer")
	}
	assert.Equal(t, []string{"APPLICATION_COMMAND menu CHANNEL_MESSAGE_WITH_SOURCE", "MESSAGE_COMPONENT now UPDATE_MESSAGE",
		"APPLICATION_COMMAND menu CHANNEL_MESSAGE_WITH_SOURCE", "MESSAGE_COMPONENT later CHANNEL_MESSAGE_WITH_SOURCE"}, kinds)
	bot.mu.Lock()
	for _, tok := range bot.tokens {
		assert.NotContains(t, string(raw), tok, "an interaction token in the deliveries")
	}
	bot.mu.Unlock()
}

// TestEndpointCheckVerdict: an endpoint that answers PING but does not
// verify signatures is reported, with the sentence its developer needs; one
// that refuses valid signatures too, and one that is not there.
func TestEndpointCheckVerdict(t *testing.T) {
	t.Parallel()
	srv, _, _ := loopGuild(t)
	careless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":1}`)
	}))
	t.Cleanup(careless.Close)
	api := srv.URL + guildkittest.ControlPrefix + "api/"
	var app struct {
		Check *guildkittest.EndpointCheck `json:"endpoint_check"`
	}
	resp := plain(t, "POST", api+"application", "", `{"interactions_url": "`+careless.URL+`"}`, &app)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NotNil(t, app.Check)
	assert.False(t, app.Check.OK)
	assert.Equal(t, careless.URL, app.Check.URL)
	assert.Equal(t, "a PING with a bad signature was answered 200, want 401: your endpoint accepted an invalid signature — it must verify X-Signature-Ed25519", app.Check.Verdict)
	check, ok := srv.EndpointCheck()
	require.True(t, ok)
	assert.Equal(t, *app.Check, check)

	// Setting another URL forgets the verdict until it is checked.
	srv.SetInteractionsURL(careless.URL + "/other")
	_, ok = srv.EndpointCheck()
	assert.False(t, ok)

	wrongKey := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
	}))
	t.Cleanup(wrongKey.Close)
	resp = plain(t, "POST", api+"application", "", `{"interactions_url": "`+wrongKey.URL+`"}`, &app)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, app.Check.Verdict, "your endpoint refused a valid signature — check the public key")

	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	resp = plain(t, "POST", api+"application", "", `{"interactions_url": "`+gone.URL+`"}`, &app)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, app.Check.Verdict, "a signed PING got no answer")
	assert.Contains(t, app.Check.Verdict, "is the bot running and listening there?")

	var problem map[string]any
	resp = plain(t, "POST", api+"application", "", `{"interactions_url": "ftp://example.com"}`, &problem)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, problem["error"], "is not an http or https URL")
	resp = plain(t, "POST", api+"application", "", `{"interactions_url": "http://user:secret@127.0.0.1:1/"}`, &problem)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
}

// TestControlModalSubmit: a modal opened by a click is submitted through
// the control API with every kind of field, in JSON, and reaches the bot
// in the platform's shape; what the platform's client would not send is
// refused with a 400 saying why, and nothing is delivered.
func TestControlModalSubmit(t *testing.T) {
	t.Parallel()
	srv, alice, channel := loopGuild(t)
	msg := srv.AddApplicationMessage(channel, guildkit.Message{Content: "Apply", Components: components.List{
		components.NewActionRow(components.PrimaryButton("open", "Open")),
	}})
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client())
	require.NoError(t, err)
	var got *components.ModalSubmitData
	var gotResolved []guildkit.Attachment
	h.HandleComponent("open", func(ctx context.Context, r *interactions.Request) error {
		return r.ShowModal(ctx, "form", "Form",
			components.NewLabel("Name", components.NewTextInput("name", components.TextInputShort).WithLength(2, 10)),
			components.NewLabel("Days", components.NewCheckboxGroup("days", components.NewChoice("Mon", "mon"), components.NewChoice("Tue", "tue")).WithValues(1, 2)),
			components.NewLabel("Shift", components.NewRadioGroup("shift", components.NewChoice("Early", "early"), components.NewChoice("Late", "late"))),
			components.NewLabel("Agree", components.NewCheckbox("agree")),
			components.NewLabel("CV", components.NewFileUpload("cv")),
		)
	})
	h.HandleModal("form", func(ctx context.Context, r *interactions.Request) error {
		got = r.Interaction.ModalSubmit
		for _, a := range r.Interaction.Resolved.Attachments {
			gotResolved = append(gotResolved, a)
		}
		return r.ReplyEphemeral(ctx, "Thanks")
	})
	srv.SetInteractionsHandler(h)
	api := srv.URL + guildkittest.ControlPrefix + "api/"

	var opened outcomeJSON
	resp := plain(t, "POST", api+"interactions", "", `{"kind": "click", "user_id": "`+alice.String()+`", "message_id": "`+msg.ID.String()+`", "custom_id": "open"}`, &opened)
	require.Equal(t, http.StatusOK, resp.StatusCode, opened.Error)
	require.Equal(t, "modal", opened.Kind)
	require.NotNil(t, opened.Modal)
	assert.Equal(t, "Form", opened.Modal.Title)

	submit := func(values string, out any) *http.Response {
		return plain(t, "POST", api+"interactions", "", `{"kind": "modal_submit", "user_id": "`+alice.String()+`", "modal_id": "`+opened.Modal.ID.String()+`", "values": `+values+`}`, out)
	}
	cv := base64.StdEncoding.EncodeToString([]byte("my cv"))
	good := `{"name": "Alice", "days": ["mon", "tue"], "shift": "late", "agree": true, "cv": [{"filename": "cv.txt", "content_type": "text/plain", "data": "` + cv + `"}]}`
	for name, values := range map[string]string{
		"name too short":      strings.Replace(good, `"Alice"`, `"A"`, 1),
		"day not an option":   strings.Replace(good, `["mon", "tue"]`, `["sun"]`, 1),
		"days not an array":   strings.Replace(good, `["mon", "tue"]`, `"mon"`, 1),
		"no shift":            strings.Replace(good, `"shift": "late", `, ``, 1),
		"name not a string":   strings.Replace(good, `"Alice"`, `3`, 1),
		"not in the modal":    strings.Replace(good, `"agree": true`, `"agree": true, "extra": "x"`, 1),
		"files not in base64": strings.Replace(good, cv, "%%%", 1),
	} {
		var problem map[string]any
		resp := submit(values, &problem)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, name)
		assert.NotEmpty(t, problem["error"], name)
	}
	assert.Len(t, srv.Deliveries(), 1, "nothing refused was delivered")

	var thanks outcomeJSON
	resp = submit(good, &thanks)
	require.Equal(t, http.StatusOK, resp.StatusCode, thanks.Error)
	assert.Equal(t, "message", thanks.Kind)
	assert.True(t, thanks.Ephemeral)
	require.NotNil(t, got)
	name, _ := got.Text("name")
	days, _ := got.Values("days")
	shift, _, _ := got.Selected("shift")
	agree, _ := got.Checked("agree")
	files, _ := got.Files("cv")
	assert.Equal(t, "Alice", name)
	assert.Equal(t, []string{"mon", "tue"}, days)
	assert.Equal(t, "late", shift)
	assert.True(t, agree)
	require.Len(t, files, 1)
	require.Len(t, gotResolved, 1)
	assert.Equal(t, "cv.txt", gotResolved[0].Filename)
	assert.EqualValues(t, len("my cv"), gotResolved[0].Size)

	// Submitted and answered: the modal closed.
	var problem map[string]any
	resp = submit(good, &problem)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, problem["error"], "already submitted")
}

// TestControlInteractionRefusals: what the control API refuses, and why.
func TestControlInteractionRefusals(t *testing.T) {
	t.Parallel()
	srv, alice, channel := loopGuild(t)
	api := srv.URL + guildkittest.ControlPrefix + "api/"
	// Before any endpoint is set, with no gateway session: the user sees
	// the interaction fail, and why.
	var seen map[string]any
	resp := plain(t, "POST", api+"interactions", "",
		`{"kind": "command", "user_id": "`+alice.String()+`", "channel_id": "`+channel.String()+`", "name": "x"}`, &seen)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "no endpoint")
	assert.Equal(t, "failed", seen["kind"], "no endpoint: %v", seen)
	assert.Contains(t, seen["failure"], "no gateway session", "no endpoint")

	for name, tc := range map[string]struct {
		body   string
		status int
		says   string
	}{
		"no user":      {`{"kind": "click"}`, http.StatusBadRequest, "user_id"},
		"unknown kind": {`{"kind": "poke", "user_id": "1"}`, http.StatusBadRequest, "not click, select, modal_submit, command or autocomplete"},
		"no modal":     {`{"kind": "modal_submit", "user_id": "1", "modal_id": "5"}`, http.StatusNotFound, "no open modal"},
		"bad values":   {`{"kind": "select", "user_id": "1", "values": {"a": 1}}`, http.StatusBadRequest, "array of strings"},
		"unknown key":  {`{"kind": "click", "user_id": "1", "nope": 1}`, http.StatusBadRequest, "nope"},
		"bad command":  {`{"kind": "command", "user_id": "` + alice.String() + `", "channel_id": "` + channel.String() + `", "name": "Not A Name"}`, http.StatusBadRequest, `no CHAT_INPUT command "Not A Name" registered`},
	} {
		if name == "bad command" {
			srv.SetInteractionsURL("http://127.0.0.1:1/")
		}
		var problem map[string]any
		resp := plain(t, "POST", api+"interactions", "", tc.body, &problem)
		assert.Equal(t, tc.status, resp.StatusCode, name)
		assert.Contains(t, problem["error"], tc.says, name)
	}
}

// TestInteractionFeed: each delivery appears on the live feed, named
// interaction, once answered; and a bot that never answers fails the
// interaction after 3 seconds, its handler's goroutine gone when the
// server closes (goleak checks every test of the package).
func TestInteractionFeed(t *testing.T) {
	t.Parallel()
	srv, alice, channel := loopGuild(t)
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the connection's end is noticed once the body is read
		<-r.Context().Done()
	}))
	t.Cleanup(hung.Close)
	srv.SetInteractionsURL(hung.URL)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+guildkittest.ControlPrefix+"api/feed", nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()

	out, err := srv.RunCommand(t.Context(), alice, channel, "wait")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Equal(t, "the application did not answer within 3 seconds", out.Failure)

	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if sc.Text() != "event: interaction" {
			continue
		}
		require.True(t, sc.Scan())
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		require.True(t, ok)
		var d map[string]any
		require.NoError(t, json.Unmarshal([]byte(data), &d))
		assert.Equal(t, "APPLICATION_COMMAND", d["type_name"])
		assert.Equal(t, "wait", d["custom_id"])
		assert.Equal(t, "the application did not answer within 3 seconds", d["failure"])
		assert.NotContains(t, data, string(out.Interaction.Token))
		return
	}
	t.Fatal("no interaction on the feed")
}

// TestSeededBotsApplication: a seed that names the bot moves the
// application with it: its id is the seeded bot's, and a message sent
// through a seeded application-owned webhook has components a member can
// use.
func TestSeededBotsApplication(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{
		"bot": {"id": "4000", "username": "seeded-bot"},
		"users": [{"id": "4001", "username": "alice"}],
		"guilds": [{"id": "4100", "name": "g", "channels": [{"id": "4200", "name": "general", "type": 0}],
			"members": [{"user_id": "4001"}],
			"webhooks": [{"channel_id": "4200", "name": "App", "application_owned": true}]}]}`))
	require.NoError(t, err)
	res := srv.ApplySeed(seed)
	assert.Equal(t, guildkit.Snowflake(4000), srv.Application().ID)
	require.Len(t, res.Webhooks, 1)
	hook := res.Webhooks[0]
	var msg guildkit.Message
	resp := plain(t, "POST", srv.BaseURL()+"/webhooks/"+hook.ID.String()+"/"+hook.Token+"?wait=true&with_components=true", "",
		`{"content": "hi", "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]}`, &msg)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	srv.SetInteractionsHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":4,"data":{"content":"went"}}`)
	}))
	out, err := srv.Click(t.Context(), 4001, msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message: went", out.String())
	assert.Equal(t, guildkit.Snowflake(4000), out.Interaction.ApplicationID)
}
