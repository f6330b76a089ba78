package guildkittest_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestLoad is the server's load run: 32 clients for GUILDKIT_LOAD (a
// duration, "20s"), each sending a mix of reads, writes that undo
// themselves (so the state stays the same size), webhook messages with
// and without files, requests the server must refuse (bad JSON, a body
// over the limit, a wrong method, a bad token, a hierarchy refusal), and
// interactions through the control API: clicks, choices and modal
// submissions delivered, signed, to a bot on a loopback server, whose
// answers edit one message (so the state stays the same size), a click the
// bot never answers (the interaction fails after 3 seconds; goleak, run
// after every test of the package, finds no goroutine left behind), and a
// click on a component that is not there (400). It
// requires no 5xx, no failed request, no data race (run it with -race) and
// a heap, measured after a collection each second, that stays flat once
// the logs' rings are full: its mean over the last third of the run no more
// than 25% (or 16 MiB) above its mean over the middle third. It is skipped
// unless GUILDKIT_LOAD is set:
//
//	GUILDKIT_LOAD=20s go test -race -run '^TestLoad$' -v ./guildkittest
func TestLoad(t *testing.T) {
	runLoad(t, loadDuration(t), nil, nil)
}

// loadDuration is GUILDKIT_LOAD; the test is skipped without it.
func loadDuration(t *testing.T) time.Duration {
	d, err := time.ParseDuration(os.Getenv("GUILDKIT_LOAD"))
	if err != nil || d <= 0 {
		t.Skip("the load run: set GUILDKIT_LOAD to a duration, such as 20s")
	}
	return d
}

// runLoad is the REST load run of TestLoad, for d, on a server made with
// opts. during, when not nil, is called once the server is set up and
// before the clients start, and the function it returns once they have
// stopped (before the last heap sample): other loads run alongside.
func runLoad(t *testing.T, d time.Duration, opts []guildkittest.Option, during func(srv *guildkittest.Server) (finish func())) {
	const clients = 32
	srv := guildkittest.NewServer(t, opts...)
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{Name: "load", OwnerID: owner.ID})
	botRole := srv.AddRole(g.ID, guildkit.Role{Name: "bot", Position: 50, Permissions: guildkit.PermissionAdministrator})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{botRole.ID}})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "hook")
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	low := srv.AddRole(g.ID, guildkit.Role{Name: "low", Position: 2})
	for range 200 {
		srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{}})
	}
	type worker struct {
		member   guildkit.Member
		auth     string // the member's own token
		stranger guildkit.User
	}
	workers := make([]worker, clients)
	for i := range workers {
		m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: fmt.Sprintf("w%d", i)}})
		workers[i] = worker{member: m, auth: "Bot " + srv.NewToken(m.User.ID), stranger: srv.AddUser(guildkit.User{Username: fmt.Sprintf("s%d", i)})}
	}
	gid := g.ID.String()
	base := srv.BaseURL()
	hookURL := base + "/webhooks/" + hook.ID.String() + "/" + hook.Token
	bot := "Bot " + srv.Token()
	botEndpoint := loadBot(t, srv)
	srv.SetInteractionsURL(botEndpoint)
	require.NoError(t, srv.CheckInteractionsEndpoint(t.Context()))
	panel := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "panel", Components: components.List{
		components.NewActionRow(components.PrimaryButton("update", "Update"), components.PrimaryButton("form", "Form"), components.SecondaryButton("hang", "Hang")),
		components.NewActionRow(components.NewStringSelect("pick", components.NewOption("A", "a"), components.NewOption("B", "b"))),
	}})
	control := srv.URL + guildkittest.ControlPrefix + "api/interactions"
	var acted atomic.Int64 // the users' actions sent to the control API
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2}, Timeout: 30 * time.Second}

	var (
		total, fiveXX, failed atomic.Int64
		mu                    sync.Mutex
		byStatus              = map[int]int{}
		firstProblem          string
	)
	do := func(method, url, auth, ct string, body []byte, want ...int) []byte {
		req, err := http.NewRequest(method, url, bytes.NewReader(body))
		if err != nil {
			panic(err)
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		total.Add(1)
		resp, err := hc.Do(req)
		if err != nil {
			failed.Add(1)
			mu.Lock()
			if firstProblem == "" {
				firstProblem = fmt.Sprintf("%s %s: %v", method, url, err)
			}
			mu.Unlock()
			return nil
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		mu.Lock()
		byStatus[resp.StatusCode]++
		if resp.StatusCode >= 500 {
			fiveXX.Add(1)
		}
		if !slices.Contains(want, resp.StatusCode) && firstProblem == "" {
			firstProblem = fmt.Sprintf("%s %s: %d, want %v: %.300s", method, url, resp.StatusCode, want, out)
		}
		mu.Unlock()
		return out
	}
	noteProblem := func(p string) {
		mu.Lock()
		defer mu.Unlock()
		if firstProblem == "" {
			firstProblem = p
		}
	}
	jsonBody := func(v any) []byte {
		b, _ := json.Marshal(v)
		return b
	}
	ct, files := func() (string, []byte) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		_ = mw.WriteField("payload_json", `{"content": "with files", "attachments": [{"id": 0, "description": "a"}]}`)
		for i := range 2 {
			w, _ := mw.CreateFormFile(fmt.Sprintf("files[%d]", i), "f.txt")
			_, _ = w.Write(bytes.Repeat([]byte("f"), 4096))
		}
		_ = mw.Close()
		return mw.FormDataContentType(), buf.Bytes()
	}()
	tooBig := []byte(`{"nick": "` + strings.Repeat("x", guildkittest.MaxJSONBody) + `"}`)

	ops := []func(w worker, r *rand.Rand){
		func(w worker, r *rand.Rand) { do("GET", base+"/guilds/"+gid, bot, "", nil, 200) },
		func(w worker, r *rand.Rand) { do("GET", base+"/guilds/"+gid+"?with_counts=true", w.auth, "", nil, 200) },
		func(w worker, r *rand.Rand) { do("GET", base+"/guilds/"+gid+"/members?limit=100", bot, "", nil, 200) },
		func(w worker, r *rand.Rand) { do("GET", base+"/guilds/"+gid+"/channels", w.auth, "", nil, 200) },
		func(w worker, r *rand.Rand) { do("GET", base+"/guilds/"+gid+"/roles", bot, "", nil, 200) },
		func(w worker, r *rand.Rand) { do("GET", base+"/invites/"+inv.Code, w.auth, "", nil, 200) },
		func(w worker, r *rand.Rand) {
			url := base + "/guilds/" + gid + "/members/" + w.member.User.ID.String()
			do("PATCH", url, bot, "application/json", jsonBody(map[string]any{"nick": fmt.Sprintf("n%d", r.IntN(1000))}), 200)
		},
		func(w worker, r *rand.Rand) {
			do("PATCH", base+"/guilds/"+gid+"/members/@me", w.auth, "application/json", jsonBody(map[string]any{"nick": fmt.Sprintf("me%d", r.IntN(1000))}), 200)
		},
		func(w worker, r *rand.Rand) {
			url := base + "/guilds/" + gid + "/members/" + w.member.User.ID.String() + "/roles/" + low.ID.String()
			do("PUT", url, bot, "", nil, 204)
			do("DELETE", url, bot, "", nil, 204)
		},
		func(w worker, r *rand.Rand) {
			out := do("POST", base+"/guilds/"+gid+"/roles", bot, "application/json", []byte(`{"name": "temp"}`), 200)
			var role guildkit.Role
			if json.Unmarshal(out, &role) == nil && role.ID != 0 {
				do("PATCH", base+"/guilds/"+gid+"/roles/"+role.ID.String(), bot, "application/json", []byte(`{"hoist": true}`), 200)
				do("DELETE", base+"/guilds/"+gid+"/roles/"+role.ID.String(), bot, "", nil, 204)
			}
		},
		func(w worker, r *rand.Rand) {
			url := base + "/guilds/" + gid + "/bans/" + w.stranger.ID.String()
			do("PUT", url, bot, "application/json", []byte(`{}`), 204)
			do("DELETE", url, bot, "", nil, 204)
		},
		func(w worker, r *rand.Rand) {
			body := jsonBody(map[string]any{"content": fmt.Sprintf("hello <@%s>", w.member.User.ID)})
			if r.IntN(2) == 0 {
				out := do("POST", hookURL+"?wait=true", "", "application/json", body, 200)
				var m guildkit.Message
				if json.Unmarshal(out, &m) == nil && m.ID != 0 {
					do("PATCH", hookURL+"/messages/"+m.ID.String(), "", "application/json", []byte(`{"content": "edited"}`), 200)
					do("DELETE", hookURL+"/messages/"+m.ID.String(), "", "", nil, 204)
				}
				return
			}
			out := do("POST", hookURL+"?wait=true", "", ct, files, 200)
			var m guildkit.Message
			if json.Unmarshal(out, &m) == nil && m.ID != 0 {
				do("DELETE", hookURL+"/messages/"+m.ID.String(), "", "", nil, 204)
			}
		},
		// Interactions, through the control API.
		func(w worker, r *rand.Rand) {
			act := fmt.Sprintf(`{"kind": "click", "user_id": "%s", "message_id": "%s", "custom_id": "update"}`, w.member.User.ID, panel.ID)
			if r.IntN(2) == 0 {
				act = fmt.Sprintf(`{"kind": "select", "user_id": "%s", "message_id": "%s", "custom_id": "pick", "values": ["b"]}`, w.member.User.ID, panel.ID)
			}
			acted.Add(1)
			out := do("POST", control, "", "application/json", []byte(act), 200)
			if !bytes.Contains(out, []byte(`"kind":"updated"`)) && !bytes.Contains(out, []byte(`"kind":"deferred"`)) {
				noteProblem(fmt.Sprintf("%s: %.300s", act, out))
			}
		},
		func(w worker, r *rand.Rand) {
			acted.Add(1)
			out := do("POST", control, "", "application/json", []byte(fmt.Sprintf(`{"kind": "click", "user_id": "%s", "message_id": "%s", "custom_id": "form"}`, w.member.User.ID, panel.ID)), 200)
			var opened struct {
				Modal struct {
					ID string `json:"id"`
				} `json:"modal"`
			}
			if json.Unmarshal(out, &opened) != nil || opened.Modal.ID == "" {
				noteProblem(fmt.Sprintf("no modal: %.300s", out))
				return
			}
			acted.Add(1)
			do("POST", control, "", "application/json", []byte(fmt.Sprintf(`{"kind": "modal_submit", "user_id": "%s", "modal_id": "%s", "values": {"name": ""}}`, w.member.User.ID, opened.Modal.ID)), 400)
			acted.Add(1)
			out = do("POST", control, "", "application/json", []byte(fmt.Sprintf(`{"kind": "modal_submit", "user_id": "%s", "modal_id": "%s", "values": {"name": "n%d"}}`, w.member.User.ID, opened.Modal.ID, r.IntN(100))), 200)
			if !bytes.Contains(out, []byte(`"kind":"deferred"`)) {
				noteProblem(fmt.Sprintf("modal submit: %.300s", out))
			}
		},
		func(w worker, r *rand.Rand) {
			if r.IntN(10) != 0 { // it holds the worker for 3 seconds
				acted.Add(1)
				do("POST", control, "", "application/json", []byte(fmt.Sprintf(`{"kind": "click", "user_id": "%s", "message_id": "%s", "custom_id": "nope"}`, w.member.User.ID, panel.ID)), 400)
				return
			}
			acted.Add(1)
			out := do("POST", control, "", "application/json", []byte(fmt.Sprintf(`{"kind": "click", "user_id": "%s", "message_id": "%s", "custom_id": "hang"}`, w.member.User.ID, panel.ID)), 200)
			if !bytes.Contains(out, []byte(`did not answer within 3 seconds`)) {
				noteProblem(fmt.Sprintf("hang: %.300s", out))
			}
		},
		// Refusals.
		func(w worker, r *rand.Rand) {
			do("PATCH", base+"/guilds/"+gid+"/members/@me", w.auth, "application/json", []byte(`{"nick": `), 400)
		},
		func(w worker, r *rand.Rand) {
			do("PATCH", base+"/guilds/"+gid+"/members/"+w.member.User.ID.String(), bot, "application/json", tooBig, 413)
		},
		func(w worker, r *rand.Rand) { do("POST", base+"/guilds/"+gid, bot, "", nil, 405) },
		func(w worker, r *rand.Rand) { do("GET", base+"/guilds/"+gid, "Bot nope", "", nil, 401) },
		func(w worker, r *rand.Rand) {
			do("DELETE", base+"/guilds/"+gid+"/members/"+owner.ID.String(), w.auth, "", nil, 403)
		},
	}

	var heap []uint64
	sample := func() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heap = append(heap, ms.HeapAlloc)
	}
	var finish func()
	if during != nil {
		finish = during(srv)
	}
	sample()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 1))
			for {
				select {
				case <-stop:
					return
				default:
				}
				ops[r.IntN(len(ops))](workers[i], r)
			}
		}()
	}
	start := time.Now()
	tick := time.NewTicker(time.Second)
	for time.Since(start) < d {
		<-tick.C
		sample()
	}
	tick.Stop()
	close(stop)
	wg.Wait()
	elapsed := time.Since(start)
	if finish != nil {
		finish()
	}
	sample()

	var keys []int
	for k := range byStatus {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d×%d", k, byStatus[k]))
	}
	t.Logf("%d clients, %v: %d requests (%.0f/s), statuses %s; %d transport failures",
		clients, elapsed.Round(time.Millisecond), total.Load(), float64(total.Load())/elapsed.Seconds(), strings.Join(parts, " "), failed.Load())
	// Flat: the mean of the last third no higher than the mean of the
	// middle third by more than a quarter, or 16 MiB (bodies in flight when
	// a sample is taken count: up to 32 of 1 MiB).
	third := len(heap) / 3
	middle, last := mean(heap[third:2*third]), mean(heap[2*third:])
	var series []string
	for _, h := range heap {
		series = append(series, fmt.Sprintf("%.1f", float64(h)/(1<<20)))
	}
	t.Logf("heap after GC, MiB, once a second: %s", strings.Join(series, " "))
	t.Logf("heap: mean %s in the middle third, %s in the last, %s at most", mib(middle), mib(last), mib(slices.Max(heap)))
	hc.CloseIdleConnections()
	deliveries := srv.Deliveries()
	failedDeliveries := 0
	for _, d := range deliveries {
		if d.Failure != "" {
			failedDeliveries++
		}
	}
	t.Logf("interactions: %d actions sent; the last %d deliveries kept, %d of them failed (the bot hung)", acted.Load(), len(deliveries), failedDeliveries)
	t.Logf("goroutines at the end: %d", runtime.NumGoroutine())

	assert.Zero(t, fiveXX.Load(), "no 5xx")
	assert.Zero(t, failed.Load(), "no failed request")
	assert.Empty(t, firstProblem, "every answer as expected")
	assert.LessOrEqual(t, last, max(middle+middle/4, middle+16<<20), "the heap is flat after the warm-up")
	require.Greater(t, total.Load(), int64(clients))
}

func mean(xs []uint64) uint64 {
	var sum uint64
	for _, x := range xs {
		sum += x
	}
	return sum / uint64(max(len(xs), 1))
}

// loadBot starts the load run's bot on a loopback server and returns its
// endpoint URL. It verifies each delivery's signature and answers: "update"
// edits the message, "pick" and a modal submission acknowledge (nothing
// new is stored), "form" opens a modal, "hang" is never answered (the
// handler waits until the server gives up and closes the connection).
func loadBot(t *testing.T, srv *guildkittest.Server) string {
	pub := srv.Application().PublicKey
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if err != nil || !ed25519.Verify(pub, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var it struct {
			Type int `json:"type"`
			Data struct {
				CustomID string `json:"custom_id"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &it)
		answer := `{"type":6}`
		switch {
		case it.Type == 5: // the modal's submission
		case it.Type == 1:
			answer = `{"type":1}`
		case it.Data.CustomID == "update":
			answer = `{"type":7,"data":{"content":"updated"}}`
		case it.Data.CustomID == "form":
			answer = `{"type":9,"data":{"custom_id":"form","title":"Form","components":[{"type":18,"label":"Name","component":{"type":4,"custom_id":"name","style":1}}]}}`
		case it.Data.CustomID == "hang":
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(bot.Close)
	return bot.URL + "/interactions"
}
