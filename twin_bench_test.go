package guildkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// The twin benchmarks: every guildkit call beside a plain net/http +
// encoding/json client doing the same exchange with pre-built requests and
// minimal structs (the floor), against the same loopback handler in the same
// run. scripts/bench.sh prints the ratios:
//
//	go test -run '^$' -bench '^BenchmarkTwin' -benchmem -count 5 .

const twinToken = "twin-bot-token"

// twinServer answers the calls with fixed bodies, as the service would: a
// guild, 1000 members, a member, a message (webhooks and Create Message),
// 204 for a ban. With
// realistic set, the bodies are shaped like the reference platform's real
// answers: every nullable field set (nicknames, avatars, premium_since,
// timeout dates, global names, avatar decorations, role icons), timestamps
// with microseconds, members guildkit does not model, 20 roles in the
// guild; without it, every nullable field is null.
func twinServer(tb testing.TB, realistic bool) *httptest.Server {
	tb.Helper()
	guild, members, one, message := guildkit.TwinBodies(realistic)
	mux := http.NewServeMux()
	answer := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}
	}
	mux.HandleFunc("GET /api/v10/guilds/100000000000000001", answer(guild))
	mux.HandleFunc("GET /api/v10/guilds/100000000000000001/members", answer(members))
	mux.HandleFunc("PATCH /api/v10/guilds/100000000000000001/members/200000000000000007", answer(one))
	mux.HandleFunc("POST /api/v10/webhooks/300000000000000002/hook-token", answer(message))
	mux.HandleFunc("POST /api/v10/channels/400000000000000003/messages", answer(message))
	mux.HandleFunc("PUT /api/v10/guilds/100000000000000001/bans/200000000000000008", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

// Minimal structs for the floor: what a hand-written client would decode.
type floorGuild struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Roles []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"roles"`
}

type floorMember struct {
	User struct {
		ID       string `json:"id"`
		Username string `json:"username"`
	} `json:"user"`
	Nick  *string  `json:"nick"`
	Roles []string `json:"roles"`
}

type floorMessage struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

// BenchmarkClientTimeout is Get Guild through an http.Client with a
// Timeout, the shape net/http serves with a timer goroutine per request
// unless the client takes the timeout over.
func BenchmarkClientTimeout(b *testing.B) {
	srv := twinServer(b, true)
	hc := srv.Client()
	hc.Timeout = 30 * time.Second
	c, err := guildkit.New(guildkit.BotToken(twinToken), guildkit.WithBaseURL(srv.URL+"/api/v10"), guildkit.WithHTTPClient(hc),
		guildkit.WithGlobalRateLimit(0, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Guilds.Get(context.Background(), 100000000000000001, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTwin runs the five calls on realistic answers; BenchmarkTwinAllNull
// on answers whose nullable fields are all null.
func BenchmarkTwin(b *testing.B)        { benchmarkTwin(b, true) }
func BenchmarkTwinAllNull(b *testing.B) { benchmarkTwin(b, false) }

func benchmarkTwin(b *testing.B, realistic bool) {
	srv := twinServer(b, realistic)
	base := srv.URL + "/api/v10"
	hc := srv.Client()
	c, err := guildkit.New(guildkit.BotToken(twinToken), guildkit.WithBaseURL(base), guildkit.WithHTTPClient(hc),
		guildkit.WithGlobalRateLimit(0, 1))
	if err != nil {
		b.Fatal(err)
	}
	const gid, uid, ban, hook = guildkit.Snowflake(100000000000000001), guildkit.Snowflake(200000000000000007), guildkit.Snowflake(200000000000000008), guildkit.Snowflake(300000000000000002)
	const channel = guildkit.Snowflake(400000000000000003)
	// The floor's Create Message with an embed sends this body, written
	// once, as a hand-written client with a fixed message would.
	const embedBody = `{"content":"deploy finished","embeds":[{"title":"v1.2.0","description":"All checks passed.","color":3066993,` +
		`"footer":{"text":"ci"},"fields":[{"name":"Commit","value":"4f2a9c1","inline":true},{"name":"Duration","value":"3m12s","inline":true}]}]}`
	file := bytes.Repeat([]byte("log line\n"), 65536/9+1)[:65536]
	ctx := context.Background()
	auth := "Bot " + twinToken

	floor := func(method, url, contentType string, body func() io.Reader, out any) error {
		var rd io.Reader
		if body != nil {
			rd = body()
		}
		req, err := http.NewRequestWithContext(ctx, method, url, rd)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", auth)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		if out == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			return err
		}
		return json.NewDecoder(resp.Body).Decode(out)
	}
	// The floor's multipart body is built once and replayed, as a hand
	// written client that prepared its request would.
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	pj, _ := mw.CreateFormField("payload_json")
	_, _ = pj.Write([]byte(`{"content":"build log","attachments":[{"id":0,"filename":"log.txt"}]}`))
	fw, _ := mw.CreateFormFile("files[0]", "log.txt")
	_, _ = fw.Write(file)
	_ = mw.Close()
	mpType := mw.FormDataContentType()

	calls := []struct {
		name     string
		guildkit func() error
		floor    func() error
	}{
		{"GetGuild", func() error {
			_, err := c.Guilds.Get(ctx, gid, nil)
			return err
		}, func() error {
			var g floorGuild
			return floor("GET", base+"/guilds/100000000000000001", "", nil, &g)
		}},
		{"ListMembers1000", func() error {
			_, err := c.Members.List(ctx, gid, &guildkit.MemberListParams{Limit: guildkit.Some(1000)})
			return err
		}, func() error {
			var ms []floorMember
			return floor("GET", base+"/guilds/100000000000000001/members?limit=1000", "", nil, &ms)
		}},
		{"ModifyMemberNick", func() error {
			_, err := c.Members.Modify(ctx, gid, uid, &guildkit.MemberModifyParams{Nick: guildkit.Some("Ada")})
			return err
		}, func() error {
			var m floorMember
			return floor("PATCH", base+"/guilds/100000000000000001/members/200000000000000007", "application/json",
				func() io.Reader { return strings.NewReader(`{"nick":"Ada"}`) }, &m)
		}},
		{"ExecuteWebhook64KiB", func() error {
			_, err := c.Webhooks.Execute(ctx, hook, "hook-token", &guildkit.WebhookExecuteParams{
				Wait: guildkit.Some(true), Content: guildkit.Some("build log"),
				Files: []guildkit.File{{Name: "log.txt", ContentType: "text/plain", Reader: bytes.NewReader(file)}},
			})
			return err
		}, func() error {
			var m floorMessage
			return floor("POST", base+"/webhooks/300000000000000002/hook-token?wait=true", mpType,
				func() io.Reader { return bytes.NewReader(mp.Bytes()) }, &m)
		}},
		{"CreateMessageEmbed", func() error {
			_, err := c.Messages.Create(ctx, channel, &guildkit.MessageCreateParams{
				Content: guildkit.Some("deploy finished"),
				Embeds: []guildkit.Embed{*guildkit.NewEmbed("v1.2.0", "All checks passed.").WithColor(0x2ECC71).
					WithField("Commit", "4f2a9c1", true).WithField("Duration", "3m12s", true).
					WithFooter("ci", "")},
			})
			return err
		}, func() error {
			var m floorMessage
			return floor("POST", base+"/channels/400000000000000003/messages", "application/json",
				func() io.Reader { return strings.NewReader(embedBody) }, &m)
		}},
		{"CreateMessage64KiB", func() error {
			_, err := c.Messages.Create(ctx, channel, &guildkit.MessageCreateParams{
				Content: guildkit.Some("build log"),
				Files:   []guildkit.File{{Name: "log.txt", ContentType: "text/plain", Reader: bytes.NewReader(file)}},
			})
			return err
		}, func() error {
			var m floorMessage
			return floor("POST", base+"/channels/400000000000000003/messages", mpType,
				func() io.Reader { return bytes.NewReader(mp.Bytes()) }, &m)
		}},
		{"CreateBan", func() error {
			return c.Bans.Create(ctx, gid, ban, nil)
		}, func() error {
			return floor("PUT", base+"/guilds/100000000000000001/bans/200000000000000008", "", nil, nil)
		}},
	}
	for _, call := range calls {
		b.Run(call.name+"/guildkit", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := call.guildkit(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(call.name+"/floor", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := call.floor(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
