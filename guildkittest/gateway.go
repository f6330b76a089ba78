package guildkittest

import (
	"encoding/hex"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
)

// GatewaySettings are the gateway's limits and timings. The zero value of a
// field means its default ([DefaultGatewaySettings]).
type GatewaySettings struct {
	// HeartbeatInterval is HELLO's heartbeat_interval: 41,250 ms, what the
	// reference platform sends. A connection that sends no heartbeat for
	// 1.5 intervals of the server's clock is closed with 4000 (the session
	// stays resumable).
	HeartbeatInterval time.Duration
	// ResumeWindow is how long a session whose connection ended (by any
	// close code but 1000/1001, or a TCP drop) stays resumable, on the
	// server's clock: 3 minutes ("a few minutes" on the platform).
	ResumeWindow time.Duration
	// MaxConcurrency is session_start_limit.max_concurrency: IDENTIFYs
	// allowed per 5 s, one per rate-limit key (shard_id % MaxConcurrency).
	// Default 1.
	MaxConcurrency int
	// SessionStartTotal is session_start_limit.total, the IDENTIFYs of a
	// 24-hour window: 1000. Identifies beyond it are counted, never
	// punished.
	SessionStartTotal int
	// SendLimit is how many payloads a connection may send per 60 s before
	// it is closed with 4008: 120. The 60 s are fixed windows one after
	// another from the moment the connection opened, as client libraries
	// count them and as the platform lets them through in production.
	SendLimit int
	// StrictSendWindow counts SendLimit over any 60 s (a sliding window)
	// instead: the strictest reading of the limit, for testing that a
	// client keeps a margin. discord.js does not survive it: it counts
	// fixed windows, and a burst at the end of one of its windows and
	// another at the start of the next closes it with 4008.
	StrictSendWindow bool
	// GuildsPerShard is how many guilds one session may carry before
	// IDENTIFY is refused with 4011 (sharding required): 2500. GET
	// /gateway/bot recommends ceil(guilds / GuildsPerShard) shards.
	GuildsPerShard int
	// QueueLimit bounds each session's outbound queue, in dispatches not
	// yet written: a connection that falls further behind (it does not read
	// its socket) is closed with 4000, resumable. A session without a
	// connection keeps twice as many for its resume; past that it is
	// invalidated (its RESUME gets INVALID_SESSION false). READY and the
	// GUILD_CREATEs of a new session count too, so keep it above the
	// guilds a shard carries. Default 10,000.
	QueueLimit int
	// FrameLogSize is how many frames each session's log keeps: 256.
	FrameLogSize int
	// FrameLogBytes bounds each session's log in bytes (each frame's
	// record and payload), the oldest frames dropped first: 64 KiB. A
	// burst of big dispatches then costs a session no more than this.
	FrameLogBytes int
	// FrameLogTotalBytes bounds the logs of all sessions together: each
	// session's log keeps at most this divided by the sessions open (and
	// at most FrameLogBytes), and a payload bigger than an eighth of that
	// share is logged by its size only: 2 MiB. A few sessions keep long
	// logs, READY and GUILD_CREATE included; a thousand keep their last
	// 2 KiB each (payloads of at most 256 bytes shown); and the logs of a
	// server that many bots use stay within a few megabytes, bursts or not.
	FrameLogTotalBytes int
	// ReplayBytes bounds what each session keeps for a RESUME, in bytes
	// (each dispatch's record and payload): the dispatches written and
	// not yet acknowledged by a heartbeat. Past it, the oldest written
	// are dropped, and a RESUME from before them gets INVALID_SESSION
	// false, as one from beyond the platform's replay window does. 1 MiB.
	ReplayBytes int
}

// DefaultGatewaySettings are the settings a server starts with.
var DefaultGatewaySettings = GatewaySettings{
	HeartbeatInterval:  41250 * time.Millisecond,
	ResumeWindow:       3 * time.Minute,
	MaxConcurrency:     1,
	SessionStartTotal:  1000,
	SendLimit:          120,
	GuildsPerShard:     2500,
	QueueLimit:         10000,
	FrameLogSize:       256,
	FrameLogBytes:      64 << 10,
	FrameLogTotalBytes: 2 << 20,
	ReplayBytes:        1 << 20,
}

// withDefaults fills the zero (or negative) fields of g from
// DefaultGatewaySettings.
func (g GatewaySettings) withDefaults() GatewaySettings {
	d := DefaultGatewaySettings
	positiveOr(&g.HeartbeatInterval, d.HeartbeatInterval)
	positiveOr(&g.ResumeWindow, d.ResumeWindow)
	positiveOr(&g.MaxConcurrency, d.MaxConcurrency)
	positiveOr(&g.SessionStartTotal, d.SessionStartTotal)
	positiveOr(&g.SendLimit, d.SendLimit)
	positiveOr(&g.GuildsPerShard, d.GuildsPerShard)
	positiveOr(&g.QueueLimit, d.QueueLimit)
	positiveOr(&g.FrameLogSize, d.FrameLogSize)
	positiveOr(&g.FrameLogBytes, d.FrameLogBytes)
	positiveOr(&g.FrameLogTotalBytes, d.FrameLogTotalBytes)
	positiveOr(&g.ReplayBytes, d.ReplayBytes)
	return g
}

// positiveOr sets *v to def unless it is positive.
func positiveOr[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// WithGateway sets the gateway's settings; zero fields keep their defaults.
func WithGateway(g GatewaySettings) Option {
	return func(s *Server) {
		s.gw.settings = g.withDefaults()
		s.gw.setLogShareLocked()
	}
}

// GatewaySettings returns the gateway's settings.
func (s *Server) GatewaySettings() GatewaySettings {
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	return s.gw.settings
}

// SetGatewaySettings changes the gateway's settings; zero fields take
// their defaults. Sessions already open keep their heartbeat interval;
// every other setting applies at once: a session whose shard now carries
// more than GuildsPerShard guilds is closed with 4011 (sharding required),
// so that a bot's resharding can be tested.
func (s *Server) SetGatewaySettings(g GatewaySettings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	s.gw.settings = g.withDefaults()
	s.gw.setLogShareLocked()
	s.enforceShardLimitLocked()
}

// The privileged intents' bits, and the application flags that say the
// application may use them (READY's application.flags,
// /oauth2/applications/@me's flags).
const (
	intentGuildMembers   = 1 << 1
	intentGuildPresences = 1 << 8
	intentMessageContent = 1 << 15
	// PrivilegedIntents is GUILD_MEMBERS | GUILD_PRESENCES |
	// MESSAGE_CONTENT: the intents an application must be approved for.
	PrivilegedIntents = intentGuildMembers | intentGuildPresences | intentMessageContent
	// validIntents is every documented intent bit (0x331FFFF); IDENTIFY
	// with another bit closes 4013.
	validIntents = 0x331FFFF

	appFlagGatewayPresence       = 1 << 12
	appFlagGatewayGuildMembers   = 1 << 14
	appFlagGatewayMessageContent = 1 << 18
)

// SetPrivilegedIntents sets which privileged intents (bits of
// [PrivilegedIntents]: GUILD_MEMBERS 1<<1, GUILD_PRESENCES 1<<8,
// MESSAGE_CONTENT 1<<15) the application is approved for. All are approved
// by default, so bots work out of the box; an IDENTIFY asking for one that
// is not closes with 4014. Other bits are ignored.
func (s *Server) SetPrivilegedIntents(intents uint64) {
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	s.gw.approved = intents & PrivilegedIntents
	s.gw.approvedSet = true
}

// PrivilegedIntentsApproved returns the privileged intents the application
// is approved for.
func (s *Server) PrivilegedIntentsApproved() uint64 {
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	return s.gw.approvedLocked()
}

// applicationFlags are the application's flags for its approved
// privileged intents.
func applicationFlags(approved uint64) int {
	f := 0
	if approved&intentGuildPresences != 0 {
		f |= appFlagGatewayPresence
	}
	if approved&intentGuildMembers != 0 {
		f |= appFlagGatewayGuildMembers
	}
	if approved&intentMessageContent != 0 {
		f |= appFlagGatewayMessageContent
	}
	return f
}

// gatewayHub is the gateway's shared state: sessions, the identify
// budget, the resume listener. Its mu may be taken while holding s.mu,
// never the other way round, and is never held across network I/O.
type gatewayHub struct {
	mu           sync.Mutex
	settings     GatewaySettings
	approved     uint64
	approvedSet  bool
	sessions     map[string]*gwSession
	logShare     int // each session's share of FrameLogTotalBytes
	logTrimmedAt int // logShare when the logs were last trimmed to it
	conns        map[*gwConn]struct{}
	idents       identifyLedger
	wholeList    map[guildkit.Snowflake]time.Time // last whole-list op 8 per guild
	closed       bool

	invalidSessions int                   // INVALID_SESSIONs sent
	ended           map[string]*gwSession // recently ended sessions, still listed
	endedOrder      []string

	wg sync.WaitGroup // connection goroutines

	takeMu sync.Mutex // orders the takeovers of two connections resuming each other's sessions

	resumeOnce sync.Once
	resumeURL  string // "ws://127.0.0.1:port"; "" when it could not listen
	resumeSrv  *http.Server
	resumeLn   net.Listener
}

func (h *gatewayHub) approvedLocked() uint64 {
	if !h.approvedSet {
		return PrivilegedIntents
	}
	return h.approved
}

// initGateway readies the hub; newServer calls it before the options run.
func (s *Server) initGateway() {
	s.gw.settings = DefaultGatewaySettings
	s.gw.sessions = make(map[string]*gwSession)
	s.gw.setLogShareLocked()
	s.gw.conns = make(map[*gwConn]struct{})
	s.gw.wholeList = make(map[guildkit.Snowflake]time.Time)
}

// gatewayRoutes: where bots find the gateway, and the application they
// are.
func (s *Server) gatewayRoutes(reg registrar) {
	reg("GET /gateway", authNone, s.getGateway)
	reg("GET /gateway/bot", authRequired, s.getGatewayBot)
	reg("GET /oauth2/applications/@me", authRequired, s.getCurrentApplication)
}

// gatewayURL is the URL GET /gateway answers: the server's address as
// ws://host:port, with no path and no query, so that every library can
// append its own.
func (s *Server) gatewayURL() string {
	return "ws" + strings.TrimPrefix(s.URL, "http")
}

// GatewayURL returns the gateway's URL, "ws://127.0.0.1:port", as GET
// /gateway answers it.
func (s *Server) GatewayURL() string { return s.gatewayURL() }

// getGateway: Get Gateway. {"url": "ws://host:port"}.
func (s *Server) getGateway(c *call) {
	c.json(http.StatusOK, map[string]string{"url": s.gatewayURL()})
}

// getGatewayBot: Get Gateway Bot. The URL, the recommended shard count
// (the bot's guilds over GuildsPerShard, at least 1) and the session start
// limit.
func (s *Server) getGatewayBot(c *call) {
	guilds := 0
	for _, gs := range s.guilds {
		if _, ok := gs.members[s.bot]; ok {
			guilds++
		}
	}
	s.gw.mu.Lock()
	cfg := s.gw.settings
	total, remaining, resetAfter := s.gw.idents.budget(s.Now(), cfg.SessionStartTotal)
	s.gw.mu.Unlock()
	shards := max(1, (guilds+cfg.GuildsPerShard-1)/cfg.GuildsPerShard)
	c.json(http.StatusOK, map[string]any{
		"url":    s.gatewayURL(),
		"shards": shards,
		"session_start_limit": map[string]any{
			"total":           total,
			"remaining":       remaining,
			"reset_after":     resetAfter.Milliseconds(),
			"max_concurrency": cfg.MaxConcurrency,
		},
	})
}

// getCurrentApplication: Get Current Bot Application, with the fields
// discord.py's parser requires (id, name, description, icon, bot_public,
// bot_require_code_grant, owner, verify_key) and flags for the approved
// privileged intents. interactions_endpoint_url only when one is set.
func (s *Server) getCurrentApplication(c *call) {
	bot := s.users[s.bot]
	app := s.Application()
	s.gw.mu.Lock()
	flags := applicationFlags(s.gw.approvedLocked())
	s.gw.mu.Unlock()
	ownerID := s.bot
	owner := map[string]any{"id": ownerID, "username": bot.Username, "discriminator": "0", "avatar": nil, "global_name": nil, "public_flags": 0}
	out := map[string]any{
		"id":                     app.ID,
		"name":                   bot.Username,
		"description":            "",
		"icon":                   nil,
		"bot_public":             true,
		"bot_require_code_grant": false,
		"owner":                  owner,
		"verify_key":             hex.EncodeToString(app.PublicKey),
		"flags":                  flags,
		"summary":                "",
		"team":                   nil,
		"bot": map[string]any{
			"id": bot.ID, "username": bot.Username, "discriminator": "0", "avatar": nil, "bot": true,
		},
	}
	s.endpoint.mu.Lock()
	if s.endpoint.url != "" {
		out["interactions_endpoint_url"] = s.endpoint.url
	}
	s.endpoint.mu.Unlock()
	c.json(http.StatusOK, out)
}

// isGatewayUpgrade reports whether r asks for the gateway: a WebSocket
// upgrade at "/" (or ""), with any query.
func isGatewayUpgrade(r *http.Request) bool {
	if r.URL.Path != "/" && r.URL.Path != "" {
		return false
	}
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// ensureResumeListener starts, once, the second loopback listener that
// READY's resume_gateway_url names: the same gateway on its own port, so
// that a resume to it can be told from one to the ordinary URL.
func (s *Server) ensureResumeListener() string {
	h := &s.gw
	h.resumeOnce.Do(func() {
		host := "127.0.0.1"
		if u := strings.TrimPrefix(s.URL, "http://"); u != "" {
			if hh, _, err := net.SplitHostPort(u); err == nil {
				host = hh
			}
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return
		}
		srv := &http.Server{
			Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !isGatewayUpgrade(r) {
					http.Error(w, "404: Not Found: this address serves the gateway's resume URL only", http.StatusNotFound)
					return
				}
				s.serveGateway(w, r, true)
			}),
			ReadHeaderTimeout: 10 * time.Second,
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			_ = ln.Close()
			return
		}
		h.resumeSrv, h.resumeLn = srv, ln
		h.resumeURL = "ws://" + net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
		h.wg.Add(1)
		h.mu.Unlock()
		go func() {
			defer h.wg.Done()
			_ = srv.Serve(ln)
		}()
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.resumeURL == "" {
		return s.gatewayURL()
	}
	return h.resumeURL
}

// ResumeGatewayURL returns READY's resume_gateway_url: the gateway on a
// second loopback port of its own.
func (s *Server) ResumeGatewayURL() string { return s.ensureResumeListener() }

// serveGateway upgrades r and runs the connection until it ends.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request, resumeURL bool) {
	q := r.URL.Query()
	version, encoding, compress := q.Get("v"), q.Get("encoding"), q.Get("compress")
	h := &s.gw
	h.mu.Lock()
	closed := h.closed
	if !closed {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	if closed {
		http.Error(w, "503: the server is closing", http.StatusServiceUnavailable)
		return
	}
	defer h.wg.Done()
	if !resumeURL {
		s.ensureResumeListener()
	}
	cw := &corkingWriter{ResponseWriter: w}
	ws, err := websocket.Accept(cw, r, &websocket.AcceptOptions{
		// The platform's compression is its own (zlib-stream,
		// zstd-stream); the WebSocket extension is declined.
		CompressionMode:    websocket.CompressionDisabled,
		InsecureSkipVerify: true,
	})
	if err != nil {
		return
	}
	ws.SetReadLimit(gatewayReadLimit)
	// The connection's version, encoding and compression are checked
	// once the upgrade is done, so that a refusal is a close code.
	switch {
	case version != "9" && version != "10":
		_ = ws.Close(closeInvalidAPIVersion, "Invalid API version: v must be 9 or 10.")
		return
	case encoding == "etf":
		_ = ws.Close(closeDecodeError, "Unsupported encoding: this gateway serves encoding=json only (etf is not available).")
		return
	case encoding != "" && encoding != "json":
		_ = ws.Close(closeDecodeError, "Unsupported encoding: use encoding=json.")
		return
	case compress != "" && compress != compressZlibStream && compress != compressZstdStream:
		_ = ws.Close(closeDecodeError, "Unsupported compress: use zlib-stream or zstd-stream.")
		return
	}
	url := "gateway"
	if resumeURL {
		url = "resume"
	}
	c := newGatewayConn(s, ws, cw.conn, version, compress, url, r.RemoteAddr)
	// The handler returns at once: the connection, hijacked, is the
	// gateway's, and the HTTP server's request, buffers and grown stack
	// are let go instead of being kept for the connection's life.
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		c.run()
	}()
}

// closeGateway ends every connection and the resume listener; Close calls
// it.
func (s *Server) closeGateway() {
	h := &s.gw
	h.mu.Lock()
	h.closed = true
	conns := make([]*gwConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	srv := h.resumeSrv
	h.mu.Unlock()
	for _, c := range conns {
		c.shutdown()
	}
	if srv != nil {
		_ = srv.Close()
	}
	h.wg.Wait()
}
