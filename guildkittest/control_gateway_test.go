package guildkittest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// gatewayList is GET /_guildkit/api/gateway as a caller reads it.
type gatewayList struct {
	URL       string `json:"url"`
	ResumeURL string `json:"resume_url"`
	Settings  struct {
		HeartbeatIntervalMS int64 `json:"heartbeat_interval_ms"`
		MaxConcurrency      int   `json:"max_concurrency"`
		SendLimit           int   `json:"send_limit"`
	} `json:"settings"`
	Identify struct {
		Total   int `json:"total"`
		Refused int `json:"refused"`
	} `json:"identify"`
	Sessions []struct {
		ID           string            `json:"id"`
		Shard        [2]int            `json:"shard"`
		Intents      []string          `json:"intents"`
		IntentsValue uint64            `json:"intents_value"`
		Library      string            `json:"library"`
		Properties   map[string]string `json:"properties"`
		Compression  string            `json:"compression"`
		Sequence     int64             `json:"sequence"`
		Connected    bool              `json:"connected"`
		URL          string            `json:"url"`
		ResumedTo    []string          `json:"resumed_to"`
		Identifies   int               `json:"identifies"`
		Heartbeat    struct {
			IntervalMS int64      `json:"interval_ms"`
			Count      int        `json:"count"`
			Last       *time.Time `json:"last"`
			SinceMS    *int64     `json:"since_last_ms"`
			Late       bool       `json:"late"`
		} `json:"heartbeat"`
		Notes []string `json:"notes"`
	} `json:"sessions"`
	Notes []string `json:"notes"`
}

func listGateway(t *testing.T, srv *guildkittest.Server) gatewayList {
	t.Helper()
	var v gatewayList
	resp := plain(t, "GET", srv.URL+guildkittest.ControlPrefix+"api/gateway", "", "", &v)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return v
}

// postFault posts a fault body and returns the status and the decoded
// answer.
func postFault(t *testing.T, srv *guildkittest.Server, body string) (int, map[string]any) {
	t.Helper()
	var out map[string]any
	resp := plain(t, "POST", srv.URL+guildkittest.ControlPrefix+"api/gateway/faults", "", body, &out)
	return resp.StatusCode, out
}

// shardedServer is a server whose identify concurrency lets one session
// per shard of 16 identify at once.
func shardedServer(t *testing.T, settings guildkittest.GatewaySettings) *guildkittest.Server {
	if settings.MaxConcurrency == 0 {
		settings.MaxConcurrency = 16
	}
	return guildkittest.NewServer(t, guildkittest.WithGateway(settings))
}

// TestControlGatewayLists: the sessions with their shard, intents by name,
// library, compression, sequence, heartbeat timing and identifies; the
// frame log of one, tokens redacted.
func TestControlGatewayLists(t *testing.T) {
	t.Parallel()
	srv := shardedServer(t, guildkittest.GatewaySettings{})
	empty := listGateway(t, srv)
	assert.Equal(t, srv.GatewayURL(), empty.URL)
	assert.NotEqual(t, empty.URL, empty.ResumeURL, "the resume URL is another")
	assert.Equal(t, int64(41250), empty.Settings.HeartbeatIntervalMS)
	assert.Empty(t, empty.Sessions)
	assert.NotNil(t, empty.Sessions, "an empty list, not null")

	srv.AddGuild(guildkit.Guild{Name: "listed"})
	c := dial(t, srv.GatewayURL(), "/?v=10&encoding=json&compress=zlib-stream")
	c.hello()
	c.identify(srv.Token(), 1|1<<9, map[string]any{"shard": []int{3, 16}, "properties": map[string]string{"os": "linux", "browser": "disgo", "device": "disgo"}})
	f := c.until("READY")
	var rd ready
	require.NoError(t, json.Unmarshal(f.D, &rd))
	srv.AdvanceClock(2 * time.Second)
	c.send(1, 1)
	for c.read().Op != 11 {
	}

	v := listGateway(t, srv)
	require.Len(t, v.Sessions, 1)
	s := v.Sessions[0]
	assert.Equal(t, rd.SessionID, s.ID)
	assert.Equal(t, [2]int{3, 16}, s.Shard)
	assert.Equal(t, []string{"GUILDS", "GUILD_MESSAGES"}, s.Intents)
	assert.Equal(t, uint64(1|1<<9), s.IntentsValue)
	assert.Equal(t, "disgo", s.Library)
	assert.Equal(t, "linux", s.Properties["os"])
	assert.Equal(t, "zlib-stream", s.Compression)
	assert.True(t, s.Connected)
	assert.Positive(t, s.Sequence, "READY at least")
	assert.Equal(t, 1, s.Identifies)
	assert.Equal(t, "gateway", s.URL)
	assert.Equal(t, int64(41250), s.Heartbeat.IntervalMS)
	assert.Equal(t, 1, s.Heartbeat.Count)
	require.NotNil(t, s.Heartbeat.Last)
	require.NotNil(t, s.Heartbeat.SinceMS)
	assert.GreaterOrEqual(t, *s.Heartbeat.SinceMS, int64(0))
	assert.Empty(t, s.Notes)

	var whole json.RawMessage
	plain(t, "GET", srv.URL+guildkittest.ControlPrefix+"api/gateway", "", "", &whole)
	assert.NotContains(t, string(whole), srv.Token(), "no token in the list")

	var frames []map[string]any
	resp := plain(t, "GET", srv.URL+guildkittest.ControlPrefix+"api/gateway/sessions/"+s.ID+"/frames", "", "", &frames)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	raw, _ := json.Marshal(frames)
	assert.Contains(t, string(raw), `"t":"READY"`)
	assert.Contains(t, string(raw), `"heartbeat_interval"`, "HELLO, decompressed")
	assert.NotContains(t, string(raw), srv.Token(), "the token is redacted")
	assert.Contains(t, string(raw), "[redacted]")

	var problem map[string]any
	resp = plain(t, "GET", srv.URL+guildkittest.ControlPrefix+"api/gateway/sessions/nope/frames", "", "", &problem)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, problem["error"], `no gateway session "nope"`)
}

// TestControlGatewayFaults: every fault kind through the control API,
// answered once applied, as the bot sees it.
func TestControlGatewayFaults(t *testing.T) {
	t.Parallel()
	srv := shardedServer(t, guildkittest.GatewaySettings{})
	shard := 0
	session := func() (*rawClient, string) {
		t.Helper()
		shard++
		c, rd, _ := connect(t, srv, 1, map[string]any{"shard": []int{shard, 16}})
		return c, rd.SessionID
	}
	apply := func(id, body string) {
		t.Helper()
		status, out := postFault(t, srv, `{"session": "`+id+`", `+body+`}`)
		require.Equal(t, http.StatusOK, status, "%s: %v", body, out)
		assert.Equal(t, 1.0, out["applied"], body)
	}

	t.Run("reconnect", func(t *testing.T) {
		c, id := session()
		apply(id, `"kind": "reconnect"`)
		f := c.read()
		assert.Equal(t, 7, f.Op)
	})
	for _, resumable := range []bool{true, false} {
		t.Run("invalid_session "+map[bool]string{true: "resumable", false: "not resumable"}[resumable], func(t *testing.T) {
			c, id := session()
			apply(id, `"kind": "invalid_session", "resumable": `+map[bool]string{true: "true", false: "false"}[resumable])
			f := c.read()
			assert.Equal(t, 9, f.Op)
			assert.JSONEq(t, map[bool]string{true: "true", false: "false"}[resumable], string(f.D))
		})
	}
	t.Run("close", func(t *testing.T) {
		c, id := session()
		code := make(chan websocket.StatusCode, 1)
		go func() { code <- c.closed() }() // a client reading, as the close handshake needs
		apply(id, `"kind": "close", "code": 4009`)
		assert.Equal(t, websocket.StatusCode(4009), <-code)
	})
	t.Run("drop", func(t *testing.T) {
		c, id := session()
		apply(id, `"kind": "drop"`)
		assert.Equal(t, websocket.StatusCode(-1), c.closed(), "no close frame")
	})
	t.Run("request_heartbeat", func(t *testing.T) {
		c, id := session()
		apply(id, `"kind": "request_heartbeat"`)
		f := c.read()
		assert.Equal(t, 1, f.Op)
		assert.Equal(t, "null", string(f.D))
	})
	t.Run("withhold_acks", func(t *testing.T) {
		c, id := session()
		apply(id, `"kind": "withhold_acks"`)
		c.send(1, nil)
		apply(id, `"kind": "request_heartbeat"`)
		f := c.read()
		assert.Equal(t, 1, f.Op, "the beat got no ack: the next frame is the request")
	})
	t.Run("silence", func(t *testing.T) {
		_, id := session()
		// A guild on the session's shard: (id >> 22) % 16.
		mine := srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(shard+16) << 22), Name: "silenced"})
		apply(id, `"kind": "silence"`)
		before := sessionByID(t, srv, id)
		_, err := srv.Client().Roles.Create(t.Context(), mine.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("unheard")})
		require.NoError(t, err)
		after := sessionByID(t, srv, id)
		assert.Greater(t, after.Sequence, before.Sequence, "the event is the session's")
		assert.Equal(t, before.Written, after.Written, "but nothing is written")
	})
	t.Run("every connected session", func(t *testing.T) {
		a, _ := session()
		b, _ := session()
		status, out := postFault(t, srv, `{"kind": "request_heartbeat"}`)
		require.Equal(t, http.StatusOK, status, "%v", out)
		assert.GreaterOrEqual(t, out["applied"], 2.0)
		for _, c := range []*rawClient{a, b} {
			f := c.read()
			for f.Op == 0 { // a dispatch written before
				f = c.read()
			}
			assert.Equal(t, 1, f.Op)
		}
	})
}

func sessionByID(t *testing.T, srv *guildkittest.Server, id string) guildkittest.GatewaySession {
	t.Helper()
	for _, s := range srv.GatewaySessions() {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no session %s", id)
	return guildkittest.GatewaySession{}
}

// TestControlGatewayFaultRefusals: anything malformed or unknown gets a
// 4xx saying what is wrong, never a 5xx.
func TestControlGatewayFaultRefusals(t *testing.T) {
	t.Parallel()
	srv := shardedServer(t, guildkittest.GatewaySettings{})
	status, out := postFault(t, srv, `{"kind": "reconnect"}`)
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, out["error"], "no gateway session is connected")

	_, rd, _ := connect(t, srv, 1, nil)
	for name, tc := range map[string]struct {
		body   string
		status int
		says   string
	}{
		"not JSON":           {`{"kind": `, http.StatusBadRequest, ""},
		"no kind":            {`{}`, http.StatusBadRequest, "kind: give one of"},
		"unknown kind":       {`{"kind": "explode"}`, http.StatusBadRequest, `"explode" is not reconnect`},
		"kind not a string":  {`{"kind": 7}`, http.StatusBadRequest, "kind"},
		"unknown field":      {`{"kind": "drop", "force": true}`, http.StatusBadRequest, "force"},
		"resumable misplace": {`{"kind": "reconnect", "resumable": true}`, http.StatusBadRequest, "only an invalid_session"},
		"code misplaced":     {`{"kind": "drop", "code": 4000}`, http.StatusBadRequest, "only a close"},
		"code unsendable":    {`{"kind": "close", "code": 1005}`, http.StatusBadRequest, "1005"},
		"code out of range":  {`{"kind": "close", "code": 70000}`, http.StatusBadRequest, "70000"},
		"code zero":          {`{"kind": "close", "code": 0}`, http.StatusBadRequest, "code"},
		"unknown session":    {`{"session": "nope", "kind": "drop"}`, http.StatusNotFound, `no gateway session "nope"`},
		"data after":         {`{"kind": "drop"} {}`, http.StatusBadRequest, "after"},
	} {
		status, out := postFault(t, srv, tc.body)
		assert.Equal(t, tc.status, status, "%s: %v", name, out)
		assert.Contains(t, out["error"], tc.says, name)
	}

	// Whatever the body, a 4xx: never a 5xx.
	for _, body := range []string{"", "null", "[]", `"drop"`, `{"session": 5, "kind": "drop"}`, `{"kind": "close", "code": "4000"}`,
		`{"kind": "close", "code": 4000.5}`, `{"kind": "invalid_session", "resumable": "yes"}`, `{"kind": null}`,
		`{"session": "` + strings.Repeat("x", 1<<16) + `", "kind": "drop"}`, "{\"kind\": \"\xff\"}"} {
		status, out := postFault(t, srv, body)
		assert.True(t, status >= 400 && status < 500, "%.60q: %d %v", body, status, out)
		assert.NotEmpty(t, out["error"], "%.60q", body)
	}

	// A session waiting for a resume has no connection to fault.
	status, out = postFault(t, srv, `{"session": "`+rd.SessionID+`", "kind": "drop"}`)
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Eventually(t, func() bool { return !sessionByID(t, srv, rd.SessionID).Connected }, 5*time.Second, 10*time.Millisecond)
	status, out = postFault(t, srv, `{"session": "`+rd.SessionID+`", "kind": "reconnect"}`)
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, out["error"], "is not connected")
}

// TestControlGatewayNotes: what a bot did that the platform would punish
// or that breaks resuming is noted: identifies beyond max_concurrency,
// sends near the limit, a resume on the ordinary URL, and an IDENTIFY
// where a resume was possible.
func TestControlGatewayNotes(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{SendLimit: 10}))
	c, rd, readyFrame := connect(t, srv, 1, nil)
	// 8 sends of 10 allowed (IDENTIFY was the first).
	for range 7 {
		c.send(1, readyFrame.seq())
		for c.read().Op != 11 {
		}
	}
	// A second bot identifies at once: beyond max_concurrency 1.
	other := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
	other.hello()
	other.identify(srv.Token(), 1, nil)
	for other.read().Op != 9 {
	}

	// The first drops, and resumes on the ordinary URL.
	_ = c.ws.CloseNow()
	require.Eventually(t, func() bool { return !sessionByID(t, srv, rd.SessionID).Connected }, 5*time.Second, 10*time.Millisecond)
	r := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
	r.hello()
	r.send(6, map[string]any{"token": srv.Token(), "session_id": rd.SessionID, "seq": readyFrame.seq()})
	r.until("RESUMED")

	// It drops again and, though it could resume, identifies anew.
	_ = r.ws.CloseNow()
	require.Eventually(t, func() bool { return !sessionByID(t, srv, rd.SessionID).Connected }, 5*time.Second, 10*time.Millisecond)
	srv.AdvanceClock(5 * time.Second) // past the identify window
	_, fresh, _ := connect(t, srv, 1, nil)

	v := listGateway(t, srv)
	notes := map[string][]string{}
	for _, s := range v.Sessions {
		notes[s.ID] = s.Notes
	}
	joined := strings.Join(v.Notes, "\n")
	assert.Contains(t, joined, "beyond max_concurrency", "global notes: %v", v.Notes)
	first := strings.Join(notes[rd.SessionID], "\n")
	assert.Contains(t, first, "payloads within 60 s", "%v", notes[rd.SessionID])
	assert.Contains(t, first, "limit of 10")
	assert.Contains(t, first, "ordinary gateway URL")
	second := strings.Join(notes[fresh.SessionID], "\n")
	assert.Contains(t, second, "identified anew while session "+rd.SessionID, "%v", notes[fresh.SessionID])

	// The same notes for Go tests, by kind.
	kinds := map[guildkittest.GatewayNoteKind][]string{}
	for _, n := range srv.GatewayNotes() {
		kinds[n.Kind] = append(kinds[n.Kind], n.Session)
	}
	assert.Equal(t, map[guildkittest.GatewayNoteKind][]string{
		guildkittest.NoteIdentifyConcurrency: {""},
		guildkittest.NoteSendRate:            {rd.SessionID},
		guildkittest.NoteResumeURL:           {rd.SessionID},
		guildkittest.NoteReidentify:          {fresh.SessionID},
	}, kinds)

	// A session the server ended (4009: identify anew) or the client closed
	// with 1000 leaves nothing to resume: a new IDENTIFY then is right.
	for _, end := range []func(c *rawClient, id string){
		func(c *rawClient, id string) {
			code := make(chan websocket.StatusCode, 1)
			go func() { code <- c.closed() }()
			_, err := srv.InjectGatewayFault(t.Context(), id, guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 4009})
			require.NoError(t, err)
			<-code
		},
		func(c *rawClient, id string) { require.NoError(t, c.ws.Close(websocket.StatusNormalClosure, "bye")) },
	} {
		srv.AdvanceClock(5 * time.Second)
		c, r, _ := connect(t, srv, 1, nil)
		end(c, r.SessionID)
		require.Eventually(t, func() bool { return !sessionByID(t, srv, r.SessionID).Connected }, 5*time.Second, 10*time.Millisecond)
		srv.AdvanceClock(5 * time.Second)
		_, next, _ := connect(t, srv, 1, nil)
		for _, s := range listGateway(t, srv).Sessions {
			if s.ID == next.SessionID {
				assert.NotContains(t, strings.Join(s.Notes, "\n"), r.SessionID, "nothing to resume after %s ended", r.SessionID)
			}
		}
	}
}
