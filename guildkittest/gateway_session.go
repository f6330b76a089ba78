package guildkittest

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
)

// gwSession is a gateway session: what IDENTIFY started and RESUME
// continues. It outlives its connections (ResumeWindow after one ends).
// Guarded by the hub's mu.
type gwSession struct {
	id             string
	shardID        int
	numShards      int
	shardSent      bool
	intents        uint64
	properties     map[string]string
	compression    string // the current connection's: zlib-stream, zstd-stream, payload or ""
	largeThreshold int
	version        string

	seq      int64     // the last sequence number given
	written  int64     // the last handed to a connection
	buf      []gwEntry // dispatches kept for writing and resuming; seq contiguous
	bufBytes int       // buf's entries' sizes (gwEntry.size)
	conn     *gwConn   // nil while disconnected

	gen        int         // counts detaches, so that an old expiry does nothing
	stopExpire func() bool // the resume window's timer while disconnected

	hub        *gatewayHub
	log        ring[frameRecord]
	created    time.Time
	url        string // "gateway" or "resume": where its current (or last) connection came
	lastBeat   time.Time
	helloAt    time.Time // its current (or last) connection's HELLO
	beats      int
	resumes    int
	resumedTo  []string // URL of each resume
	identifies int      // IDENTIFYs this session took (1)
	ended      bool
	interval   time.Duration
}

// gwEntry is one dispatch of a session: its sequence number, name and d,
// shared between sessions when their payloads are the same.
type gwEntry struct {
	seq  int64
	name string
	d    []byte
}

// size is what the entry costs its session: its record and its payload
// (shared with other sessions, but kept alive by each).
func (e gwEntry) size() int { return int(unsafe.Sizeof(e)) + len(e.d) }

// trimReplayLocked drops the oldest dispatches already written while the
// session keeps more than budget bytes of them, down to three quarters of
// it: a RESUME from before them gets INVALID_SESSION false, as one from
// beyond the platform's replay window does. Dispatches not yet written are
// never dropped (QueueLimit bounds those).
func (sess *gwSession) trimReplayLocked(budget int) {
	if sess.bufBytes <= budget {
		return
	}
	k, left := 0, sess.bufBytes
	for k < len(sess.buf) && sess.buf[k].seq <= sess.written && left > budget*3/4 {
		left -= sess.buf[k].size()
		k++
	}
	sess.trimLocked(k)
}

// ackLocked trims the dispatches the client says it has (a heartbeat's
// d), keeping those a RESUME may still ask for.
func (sess *gwSession) ackLocked(seq int64) {
	seq = min(seq, sess.written)
	k := 0
	for k < len(sess.buf) && sess.buf[k].seq <= seq {
		k++
	}
	sess.trimLocked(k)
}

// trimLocked drops the first k entries. A buffer left mostly empty (a
// burst acknowledged) gets a smaller array, so that the session's memory
// returns to what it was before the burst.
func (sess *gwSession) trimLocked(k int) {
	if k <= 0 {
		return
	}
	for _, e := range sess.buf[:k] {
		sess.bufBytes -= e.size()
	}
	rest := sess.buf[k:]
	if c := cap(sess.buf); c > 32 && len(rest) <= c/4 {
		sess.buf = append(make([]gwEntry, 0, max(2*len(rest), 8)), rest...)
		return
	}
	n := copy(sess.buf, rest)
	clear(sess.buf[n:])
	sess.buf = sess.buf[:n]
}

// appendLocked gives a dispatch the session's next sequence number and
// queues it: its connection is woken, or kicked (4000) when more than
// QueueLimit dispatches wait; a session without a connection that keeps
// more than twice QueueLimit is ended.
func (s *Server) appendLocked(sess *gwSession, name string, d []byte) {
	h := &s.gw
	sess.seq++
	e := gwEntry{seq: sess.seq, name: name, d: d}
	sess.buf = append(sess.buf, e)
	sess.bufBytes += e.size()
	sess.trimReplayLocked(h.settings.ReplayBytes)
	limit := h.settings.QueueLimit
	if c := sess.conn; c != nil {
		if sess.seq-sess.written > int64(limit) {
			c.kick(h)
		} else {
			c.signal(&c.wakeSet)
		}
		if len(sess.buf) > 2*limit {
			k := 0
			for k < len(sess.buf)-2*limit && sess.buf[k].seq <= sess.written {
				k++
			}
			sess.trimLocked(k)
		}
		return
	}
	if len(sess.buf) > 2*limit {
		s.endSessionLocked(sess)
	}
}

// logLocked appends a frame to the session's log, which keeps at most
// FrameLogSize frames and the session's share of the log budget in bytes
// (each frame's record and payload; see FrameLogTotalBytes).
func (sess *gwSession) logLocked(f GatewayFrame) {
	r := frameRecord{at: f.At.UnixNano(), seq: f.Seq, name: f.Name, note: f.Note, data: f.data, op: int8(f.Op), dir: frameDir(f.Direction)}
	if h := sess.hub; h != nil {
		sess.log.budget = h.logShare
	}
	if len(f.data) > maxFrameData || (sess.log.budget > 0 && len(f.data) > sess.log.budget/8) {
		// GatewayFrames shows only its size: the log keeps no more. A
		// payload bigger than an eighth of the session's share would push
		// out most of its log (and keep a READY, a GUILD_CREATE alive).
		r.size, r.data = int32(min(len(f.data), math.MaxInt32)), nil
	}
	sess.log.push(r, int(unsafe.Sizeof(r))+len(r.data)+len(r.note))
}

// frameRecord is a frame as a session's log keeps it: half a GatewayFrame's
// size, since a log holds hundreds.
type frameRecord struct {
	at   int64 // the server's clock, Unix nanoseconds
	seq  int64
	name string
	note string
	data []byte // shared with the session's queue
	size int32  // the payload's size when data, too big to show, is not kept
	op   int8
	dir  uint8 // an index of frameDirections
}

// frameDirections are GatewayFrame's directions, by frameRecord.dir.
var frameDirections = [...]string{FrameIn, FrameOut, FrameNotSent}

// frameDir is direction's index in frameDirections. A switch, not a map:
// every dispatch written is logged.
func frameDir(direction string) uint8 {
	switch direction {
	case FrameIn:
		return 0
	case FrameOut:
		return 1
	}
	return 2
}

// frame returns the record as GatewayFrames shows it (Data not yet made).
func (r frameRecord) frame() GatewayFrame {
	return GatewayFrame{At: time.Unix(0, r.at), Direction: frameDirections[r.dir], Op: int(r.op), Seq: r.seq,
		Name: r.name, Note: r.note, data: r.data, size: int(r.size)}
}

// setLogShareLocked gives each session its share of FrameLogTotalBytes
// (at most FrameLogBytes), as sessions come and go. A log is held to the
// share at its next frame; when the share has halved since the logs were
// last trimmed, every log is trimmed at once (amortized over the sessions
// that came meanwhile), so that the logs of the first sessions of many do
// not keep what only a few sessions could. The caller holds mu.
func (h *gatewayHub) setLogShareLocked() {
	h.logShare = min(h.settings.FrameLogBytes, h.settings.FrameLogTotalBytes/max(1, len(h.sessions)))
	if h.logTrimmedAt == 0 || h.logShare > h.logTrimmedAt/2 {
		if h.logShare > h.logTrimmedAt {
			h.logTrimmedAt = h.logShare
		}
		return
	}
	h.logTrimmedAt = h.logShare
	for _, sess := range h.sessions {
		sess.trimLogLocked(h.logShare)
	}
}

// trimLogLocked holds the session's log to budget bytes, its payloads
// bigger than an eighth of it kept by size only.
func (sess *gwSession) trimLogLocked(budget int) {
	r := &sess.log
	for i := range r.n {
		j := (r.head + i) % len(r.buf)
		if rec := &r.buf[j]; len(rec.data) > budget/8 {
			r.bytes -= len(rec.data)
			r.sizes[j] -= int32(len(rec.data))
			rec.size, rec.data = int32(min(len(rec.data), math.MaxInt32)), nil
		}
	}
	r.budget = budget
	for r.n > 1 && r.bytes > budget {
		r.dropOldest()
	}
}

// log records a frame of the connection: in its session's log, or kept
// until it has one.
func (c *gwConn) log(f GatewayFrame) {
	f.At = c.s.Now()
	h := &c.s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	if sess := c.sess; sess != nil && sess.conn == c {
		sess.logLocked(f)
		return
	}
	if len(c.prelog) < 32 {
		c.prelog = append(c.prelog, f)
	}
}

// attachLocked makes c the session's connection.
func (c *gwConn) attachLocked(sess *gwSession) {
	if sess.stopExpire != nil {
		sess.stopExpire()
		sess.stopExpire = nil
	}
	sess.conn = c
	sess.helloAt = c.helloAt
	sess.url = c.url
	sess.version = c.version
	sess.compression = c.transport
	if c.payload {
		sess.compression = compressPayload
	}
	c.sess = sess
	for _, f := range c.prelog {
		sess.logLocked(f)
	}
	c.prelog = nil
}

// detachLocked leaves a session without its connection, resumable for
// ResumeWindow of the server's clock.
func (s *Server) detachLocked(sess *gwSession) {
	sess.conn = nil
	sess.gen++
	gen := sess.gen
	if sess.stopExpire != nil {
		sess.stopExpire()
	}
	sess.stopExpire = s.AfterFunc(s.gw.settings.ResumeWindow, func() {
		s.gw.mu.Lock()
		defer s.gw.mu.Unlock()
		if sess.gen == gen && sess.conn == nil && !sess.ended {
			s.endSessionLocked(sess)
		}
	})
}

// endSessionLocked ends a session: a RESUME of it gets INVALID_SESSION
// false.
func (s *Server) endSessionLocked(sess *gwSession) {
	if sess.ended {
		return
	}
	sess.ended = true
	sess.conn = nil
	sess.buf, sess.bufBytes = nil, 0
	if sess.stopExpire != nil {
		sess.stopExpire()
		sess.stopExpire = nil
	}
	delete(s.gw.sessions, sess.id)
	s.gw.setLogShareLocked()
	if s.gw.ended == nil {
		s.gw.ended = make(map[string]*gwSession)
	}
	// Ended sessions stay listed (connected false) until the list holds
	// too many.
	s.gw.ended[sess.id] = sess
	s.gw.endedOrder = append(s.gw.endedOrder, sess.id)
	for len(s.gw.endedOrder) > maxEndedSessions {
		delete(s.gw.ended, s.gw.endedOrder[0])
		s.gw.endedOrder = s.gw.endedOrder[1:]
	}
}

// maxEndedSessions bounds how many ended sessions Sessions still lists.
const maxEndedSessions = 64

// identifyPayload is op 2's d.
type identifyPayload struct {
	Token          *string         `json:"token"`
	Properties     map[string]any  `json:"properties"`
	Compress       bool            `json:"compress"`
	LargeThreshold *int            `json:"large_threshold"`
	Shard          json.RawMessage `json:"shard"`
	Presence       json.RawMessage `json:"presence"`
	Intents        *json.Number    `json:"intents"`
}

// identify checks op 2 and starts a session: 4005 on a connection that
// already carries one, 4004 for a bad token, 4013 for unknown intent bits,
// 4014 for privileged intents not approved, 4010 for a bad shard, 4011
// when the shard would carry more than GuildsPerShard guilds, INVALID_SESSION
// false beyond the identify concurrency; else READY and a GUILD_CREATE per
// guild of the shard.
func (c *gwConn) identify(d json.RawMessage) (websocket.StatusCode, string) {
	if c.sess != nil {
		return closeAlreadyAuthenticated, "Already authenticated."
	}
	var p identifyPayload
	if err := json.Unmarshal(d, &p); err != nil || string(d) == "null" || p.Token == nil || p.Properties == nil || p.Intents == nil {
		return closeUnknownOpcode, "Invalid IDENTIFY: token, properties and intents are required."
	}
	s := c.s
	s.mu.Lock()
	user, ok := s.tokens[gatewayToken(*p.Token)]
	isBot := ok && user == s.bot
	s.mu.Unlock()
	if !isBot {
		return closeAuthenticationFailed, "Authentication failed."
	}
	intents, err := strconv.ParseUint(p.Intents.String(), 10, 64)
	if err != nil || intents&^validIntents != 0 {
		return closeInvalidIntents, "Invalid intent(s): a bit outside the documented intents."
	}
	h := &s.gw
	h.mu.Lock()
	approved := h.approvedLocked()
	h.mu.Unlock()
	if intents&PrivilegedIntents&^approved != 0 {
		return closeDisallowedIntents, "Disallowed intent(s): a privileged intent the application is not approved for."
	}
	shardID, numShards, shardSent := 0, 1, p.Shard != nil && string(p.Shard) != "null"
	if shardSent {
		var sh []int
		if err := json.Unmarshal(p.Shard, &sh); err != nil || len(sh) != 2 || sh[1] < 1 || sh[0] < 0 || sh[0] >= sh[1] {
			return closeInvalidShard, "Invalid shard: [shard_id, num_shards] with 0 <= shard_id < num_shards."
		}
		shardID, numShards = sh[0], sh[1]
	}
	large := 50
	if p.LargeThreshold != nil {
		// 50-250; a value outside is brought within, not refused.
		large = min(max(*p.LargeThreshold, 50), 250)
	}
	props := map[string]string{}
	for k, v := range p.Properties {
		if sv, ok := v.(string); ok {
			if len(k) > 1 && k[0] == '$' {
				k = k[1:]
			}
			props[k] = sv
		}
	}
	c.payload = p.Compress && c.transport == ""
	resumeURL := s.ensureResumeListener()

	// The session is made, READY and the GUILD_CREATEs queued, under s.mu:
	// no event emitted meanwhile is lost or put before them.
	code, reason, refused := func() (websocket.StatusCode, string, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		guilds := s.shardGuildsLocked(shardID, numShards)
		h.mu.Lock()
		defer h.mu.Unlock()
		now := s.Now()
		if !h.idents.admit(now, shardID, h.settings.MaxConcurrency, h.settings.SessionStartTotal) {
			return 0, "", true
		}
		if len(guilds) > h.settings.GuildsPerShard {
			return closeShardingRequired, "Sharding required: this shard would carry " + strconv.Itoa(len(guilds)) +
				" guilds, more than " + strconv.Itoa(h.settings.GuildsPerShard) + ".", false
		}
		sess := &gwSession{
			id: randomSessionID(), shardID: shardID, numShards: numShards, shardSent: shardSent,
			intents: intents, properties: props, largeThreshold: large, created: now, identifies: 1,
			interval: c.interval,
		}
		sess.hub, sess.log.max = h, h.settings.FrameLogSize
		h.sessions[sess.id] = sess
		h.setLogShareLocked()
		c.attachLocked(sess)
		s.appendLocked(sess, "READY", s.readyLocked(sess, guilds, resumeURL, applicationFlags(h.approvedLocked())))
		for _, gs := range guilds {
			s.appendLocked(sess, "GUILD_CREATE", s.guildCreateLocked(gs, sess))
		}
		return 0, "", false
	}()
	if refused {
		c.payload = false
		c.invalidSession(false)
	}
	return code, reason
}

// gatewayToken is the token of an IDENTIFY or RESUME: the platform takes
// it with or without the "Bot " prefix (discordgo sends the prefix).
func gatewayToken(t string) string {
	return strings.TrimPrefix(t, "Bot ")
}

// randomSessionID is a session id: 128 random bits in hex, as long as the
// platform's.
func randomSessionID() string {
	t := randomToken()
	return t[:32]
}

// shardGuildsLocked returns the guilds the bot is in that shard carries,
// by id. The caller holds s.mu.
func (s *Server) shardGuildsLocked(shardID, numShards int) []*guildState {
	var out []*guildState
	for _, gs := range sortedByID(s.guilds) {
		if _, member := gs.members[s.bot]; !member {
			continue
		}
		if shardOf(gs.guild.ID, numShards) == shardID {
			out = append(out, gs)
		}
	}
	return out
}

// shardOf is the platform's routing: (guild_id >> 22) % num_shards; an
// event without a guild goes to shard 0.
func shardOf(guildID guildkit.Snowflake, numShards int) int {
	if guildID == 0 || numShards <= 1 {
		return 0
	}
	return int((uint64(guildID) >> 22) % uint64(numShards))
}

// resumePayload is op 6's d.
type resumePayload struct {
	Token     *string `json:"token"`
	SessionID *string `json:"session_id"`
	Seq       *int64  `json:"seq"`
}

// resume continues a session on this connection: the dispatches after seq
// again, with their sequence numbers, then RESUMED. A seq the session
// never reached closes 4007 (and ends the session); an unknown, ended or
// expired session, a wrong token, or a seq older than what is kept gets
// INVALID_SESSION false. The session's old connection, if still open, is
// closed with 4000 first. Accepted on a connection that already carries a
// session (discord.js sends RESUME on the same socket after INVALID_SESSION
// true).
func (c *gwConn) resume(d json.RawMessage) (websocket.StatusCode, string) {
	var p resumePayload
	if err := json.Unmarshal(d, &p); err != nil || string(d) == "null" || p.Token == nil || p.SessionID == nil || p.Seq == nil {
		return closeUnknownOpcode, "Invalid RESUME: token, session_id and seq are required."
	}
	s := c.s
	h := &s.gw
	s.mu.Lock()
	user, ok := s.tokens[gatewayToken(*p.Token)]
	s.mu.Unlock()
	h.mu.Lock()
	sess, found := h.sessions[*p.SessionID]
	if !ok || user != s.bot || !found || sess.ended || (len(sess.buf) > 0 && *p.Seq < sess.buf[0].seq-1) ||
		(len(sess.buf) == 0 && *p.Seq < sess.written) {
		h.mu.Unlock()
		c.invalidSession(false)
		return 0, ""
	}
	if *p.Seq > sess.written || *p.Seq < 0 {
		s.endSessionLocked(sess)
		h.mu.Unlock()
		return closeInvalidSeq, "Invalid seq: the session never sent " + strconv.FormatInt(*p.Seq, 10) + "."
	}
	old := sess.conn
	h.mu.Unlock()
	if old != nil && old != c && !c.takeOver(old) {
		return 0, ""
	}
	ok = func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		h.mu.Lock()
		defer h.mu.Unlock()
		if sess.ended || (sess.conn != nil && sess.conn != c) {
			return false
		}
		if cur := c.sess; cur != nil && cur != sess && cur.conn == c {
			s.detachLocked(cur)
		}
		if sess.compression == compressPayload && c.transport == "" {
			c.payload = true
		}
		c.attachLocked(sess)
		sess.written = *p.Seq
		sess.resumes++
		sess.resumedTo = append(sess.resumedTo, c.url)
		if len(sess.resumedTo) > 16 {
			sess.resumedTo = sess.resumedTo[1:]
		}
		s.appendLocked(sess, "RESUMED", []byte(`{"_trace":["guildkittest"]}`))
		return true
	}()
	if !ok {
		c.invalidSession(false)
	}
	return 0, ""
}

// takeOver has old, the connection of the session c resumes, closed with
// 4000 by its owner before the replay; old's release then finds the
// session no longer its own. Meanwhile c's own requests are served: old
// may be resuming c's session at the same moment, and each waiting on the
// other would hang both. false when c itself was closed meanwhile (its
// context is then cancelled, and run returns).
func (c *gwConn) takeOver(old *gwConn) bool {
	done := make(chan struct{})
	h := &c.s.gw
	// Queued under takeMu: when old is taking this connection's session
	// over at the same moment, exactly one of the two goes first.
	h.takeMu.Lock()
	yield := c.hasTakeoverFrom(old)
	queued := false
	if !yield {
		queued = old.request(gwCtl{fault: GatewayFault{Kind: FaultClose, Code: int(closeUnknownError), takeover: true}, done: done, from: c})
	}
	h.takeMu.Unlock()
	if yield {
		// old asked first: this connection is closed, old resumes.
		c.applyRequests()
		c.cancel()
		return false
	}
	if !queued {
		return true // it ended already and handed the session back
	}
	for {
		select {
		case <-done: // closed before old's close handshake
			return true
		case <-old.released: // it ended meanwhile and handed the session back
			return true
		case <-c.ctlSig:
			if c.applyRequests() {
				c.cancel()
				return false
			}
		case <-c.ctx.Done():
			return false
		}
	}
}

// botJoinedLocked sends GUILD_CREATE for a guild the bot joined to the
// sessions whose shard carries it (intent GUILDS); a session that would
// then carry more than GuildsPerShard guilds is closed with 4011 instead
// (sharding required), as the platform does. The caller holds s.mu.
func (s *Server) botJoinedLocked(gs *guildState) {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, sess := range h.sessions {
		if shardOf(gs.guild.ID, sess.numShards) != sess.shardID {
			continue
		}
		if s.overShardLimitLocked(sess) {
			continue
		}
		if sess.intents&intentGuilds == 0 {
			sess.logLocked(GatewayFrame{At: s.Now(), Direction: FrameNotSent, Op: opDispatch, Name: "GUILD_CREATE", Note: "intents: needs GUILDS"})
			continue
		}
		s.appendLocked(sess, "GUILD_CREATE", s.guildCreateLocked(gs, sess))
	}
}

// overShardLimitLocked ends sess and closes its connection with 4011 when
// its shard carries more than GuildsPerShard guilds. The caller holds s.mu
// and the hub's mu.
func (s *Server) overShardLimitLocked(sess *gwSession) bool {
	n := len(s.shardGuildsLocked(sess.shardID, sess.numShards))
	limit := s.gw.settings.GuildsPerShard
	if n <= limit {
		return false
	}
	c := sess.conn
	s.endSessionLocked(sess)
	if c != nil {
		c.closeAsync(&s.gw, closeShardingRequired, "Sharding required: this shard carries "+strconv.Itoa(n)+
			" guilds, more than "+strconv.Itoa(limit)+".")
	}
	return true
}

// enforceShardLimitLocked closes with 4011 every session whose shard
// carries more guilds than GuildsPerShard. The caller holds s.mu and the
// hub's mu.
func (s *Server) enforceShardLimitLocked() {
	// overShardLimitLocked deletes from the map: iterate over a copy.
	for _, sess := range slices.Collect(maps.Values(s.gw.sessions)) {
		s.overShardLimitLocked(sess)
	}
}
