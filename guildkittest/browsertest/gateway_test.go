package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// gatewayBot is a bot written against the raw gateway, with coder/websocket
// and encoding/json only: it identifies, beats, resumes on
// resume_gateway_url after RECONNECT, and answers every INTERACTION_CREATE
// through the callback route with "pong from the gateway".
type gatewayBot struct {
	t         *testing.T
	srv       *guildkittest.Server
	sessionID string
	resumeURL string
	seq       int64

	answers sync.WaitGroup // the callbacks in flight
	mu      sync.Mutex
	resumed int // RESUMED dispatches seen
	clicks  []string
	ready   chan struct{}
}

type gwFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

// startGatewayBot runs the bot until the test ends.
func startGatewayBot(t *testing.T, srv *guildkittest.Server) *gatewayBot {
	b := &gatewayBot{t: t, srv: srv, ready: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		b.answers.Wait()
	})
	return b
}

func (b *gatewayBot) run(ctx context.Context) {
	url := b.srv.GatewayURL() + "/?v=10&encoding=json"
	resume := false
	for ctx.Err() == nil {
		again, err := b.connection(ctx, url, resume)
		if ctx.Err() != nil {
			return
		}
		if err != nil && !again {
			b.t.Errorf("the bot's connection: %v", err)
			return
		}
		url, resume = b.resumeURL+"/?v=10&encoding=json", true
	}
}

// connection runs one connection: true when the bot should resume.
func (b *gatewayBot) connection(ctx context.Context, url string, resume bool) (bool, error) {
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return false, err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	send := func(op int, d any) error {
		p, _ := json.Marshal(map[string]any{"op": op, "d": d})
		return ws.Write(ctx, websocket.MessageText, p)
	}
	for {
		_, p, err := ws.Read(ctx)
		if err != nil {
			return true, err
		}
		var f gwFrame
		if err := json.Unmarshal(p, &f); err != nil {
			return false, err
		}
		if f.S != nil {
			b.seq = *f.S
		}
		switch f.Op {
		case 10: // HELLO
			if err := send(1, nil); err != nil {
				return true, err
			}
			if resume {
				err = send(6, map[string]any{"token": b.srv.Token(), "session_id": b.sessionID, "seq": b.seq})
			} else {
				err = send(2, map[string]any{"token": b.srv.Token(), "intents": 1,
					"properties": map[string]string{"os": "linux", "browser": "rawbot", "device": "rawbot"}})
			}
			if err != nil {
				return true, err
			}
		case 7: // RECONNECT: close with a code that keeps the session, resume
			_ = ws.Close(4200, "reconnecting")
			return true, nil
		case 0:
			switch *f.T {
			case "READY":
				var rd struct {
					SessionID string `json:"session_id"`
					ResumeURL string `json:"resume_gateway_url"`
				}
				_ = json.Unmarshal(f.D, &rd)
				b.sessionID, b.resumeURL = rd.SessionID, rd.ResumeURL
				close(b.ready)
			case "RESUMED":
				b.mu.Lock()
				b.resumed++
				b.mu.Unlock()
			case "INTERACTION_CREATE":
				var it struct {
					ID    string `json:"id"`
					Token string `json:"token"`
					Data  struct {
						CustomID string `json:"custom_id"`
					} `json:"data"`
				}
				_ = json.Unmarshal(f.D, &it)
				b.mu.Lock()
				b.clicks = append(b.clicks, it.Data.CustomID)
				b.mu.Unlock()
				b.answers.Add(1)
				go func() {
					defer b.answers.Done()
					b.answer(it.ID, it.Token)
				}()
			}
		}
	}
}

func (b *gatewayBot) answer(id, token string) {
	resp, err := http.Post(b.srv.BaseURL()+"/interactions/"+id+"/"+token+"/callback", "application/json",
		strings.NewReader(`{"type": 4, "data": {"content": "pong from the gateway"}}`))
	if err != nil {
		b.t.Errorf("callback: %v", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		b.t.Errorf("callback: %d", resp.StatusCode)
	}
}

func (b *gatewayBot) resumes() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.resumed
}

// TestInspectorGatewaySessions: the inspector shows a connected bot's
// session and its frames; the page's Reconnect button makes the bot resume
// (on the resume URL, the page showing it); a button clicked on the page
// reaches the bot over the gateway as INTERACTION_CREATE and the page shows
// the bot's answer.
func TestInspectorGatewaySessions(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Gateway guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Ping the bot", Components: components.List{
		components.NewActionRow(components.PrimaryButton("ping", "Ping")),
	}})
	bot := startGatewayBot(t, srv)
	select {
	case <-bot.ready:
	case <-time.After(20 * time.Second):
		t.Fatal("the bot got no READY")
	}
	session := fmt.Sprintf(`//article[@data-session=%q]`, bot.sessionID)

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitVisible(session+`[@data-connected="true"]//span[contains(@class, "gw-library") and contains(text(), "rawbot")]`),
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-t="READY"]`),
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-dir="in" and @data-op="2"]`),
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-t="GUILD_CREATE"]`),
	))
	// The IDENTIFY's payload, opened on the page, has its token redacted.
	identify, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const li = document.querySelector('#gateway-frames li[data-op="2"]'); li.click(); return li.textContent; })()`))
	require.NoError(t, err)
	assert.Contains(t, identify, "[redacted]")
	assert.NotContains(t, identify, srv.Token())

	// The opened payload stays open when new frames arrive.
	if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("while open")}); err != nil {
		t.Fatal(err)
	}
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-t="GUILD_ROLE_CREATE"]`),
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-op="2" and contains(@class, "open")]/pre[contains(@class, "payload")]`),
	))
	// A server frame opens in the same {op, d, s, t} shape as a client's.
	ready, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const li = document.querySelector('#gateway-frames li[data-t="READY"]'); li.click(); return li.querySelector("pre.payload").textContent; })()`))
	require.NoError(t, err)
	assert.Contains(t, ready, `"op": 0`)
	assert.Contains(t, ready, `"t": "READY"`)
	assert.Contains(t, ready, `"d": {`)
	// Heartbeats can be hidden: a requested beat shows op 1 both ways and
	// op 11, and the filter hides them.
	require.NoError(t, clickPage(ctx, `(() => { const b = document.querySelector('article[data-session=`+
		fmt.Sprintf("%q", bot.sessionID)+`] button[data-fault="request_heartbeat"]'); if (b) b.click(); return !!b; })()`))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-op="11"]`)))
	require.NoError(t, clickPage(ctx, `(() => { const b = document.getElementById("gateway-hide-heartbeats"); if (b) b.click(); return !!b; })()`))
	beats, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#gateway-frames li[data-op="1"], #gateway-frames li[data-op="11"]').length`))
	require.NoError(t, err)
	assert.Zero(t, beats, "heartbeats hidden")
	require.NoError(t, clickPage(ctx, `(() => { const b = document.getElementById("gateway-hide-heartbeats"); if (b) b.click(); return !!b; })()`))
	// The two rows of fault buttons are labelled apart; the resume URL's
	// port is explained; the browser's own favicon request is not the bot's.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@data-scope="all"]/span[contains(text(), "every connected session")]`),
		chromedp.WaitVisible(session+`//div[@data-scope="session"]/span[contains(text(), "this session")]`),
		chromedp.WaitVisible(`//div[contains(@class, "gw-resume-note") and contains(text(), "port of its own")]`),
	))
	for _, r := range srv.Requests() {
		assert.NotContains(t, r.Path, "favicon", "the browser's favicon request in the bot's Requests")
	}

	// Reconnect from the page: the bot resumes, and the page shows it.
	require.NoError(t, clickPage(ctx, `(() => { const b = document.querySelector('article[data-session=`+
		fmt.Sprintf("%q", bot.sessionID)+`] button[data-fault="reconnect"]'); if (b) b.click(); return !!b; })()`))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@id="gateway-fault-status" and contains(text(), "reconnect applied to 1 connection")]`),
		chromedp.WaitVisible(session+`[@data-resumes="1" and @data-connected="true"]`),
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-t="RESUMED"]`),
	))
	assert.Equal(t, 1, bot.resumes(), "the bot resumed")
	// 1.25 intervals later on the server's clock the resumed session is not
	// LATE: the server allows 1.5 from its connection's HELLO.
	srv.AdvanceClock(guildkittest.DefaultGatewaySettings.HeartbeatInterval * 5 / 4)
	if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("after the resume")}); err != nil {
		t.Fatal(err)
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-t="GUILD_ROLE_CREATE"][2]`)))
	lateCards, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('article.gw-session.connected .gw-meta.late').length`))
	require.NoError(t, err)
	assert.Zero(t, lateCards, "a correct bot is not LATE after a resume")
	s := srv.GatewaySessions()
	require.NotEmpty(t, s)
	assert.Equal(t, []string{"resume"}, s[0].ResumedTo, "on the resume URL")

	// A click on the page reaches the bot over the gateway.
	require.NoError(t, actAs(ctx, alice.User.ID))
	require.NoError(t, pressButton(ctx, "Ping"))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@id="outcome" and @data-kind="message"]//*[contains(text(), "pong from the gateway")]`),
		chromedp.WaitVisible(`//ol[@id="interactions"]/li[contains(text(), "MESSAGE_COMPONENT ping") and contains(text(), "gateway")]`),
		chromedp.WaitVisible(`//ol[@id="gateway-frames"]/li[@data-t="INTERACTION_CREATE"]`),
	))
	bot.mu.Lock()
	assert.Equal(t, []string{"ping"}, bot.clicks)
	bot.mu.Unlock()

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	path := filepath.Join(artifactDir(t), "inspector-gateway.png")
	require.NoError(t, os.WriteFile(path, shot, 0o644))
	t.Logf("screenshot: %s", path)
}
