package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/wire"
)

// The outbound limit of one connection (gateway.md §4): 120 payloads per
// 60 s, sliding, heartbeats included; over it the platform closes with
// 4008. Application payloads get sendBudget of them, so that heartbeats,
// IDENTIFY and RESUME always have room.
//
// The platform counts its 60 s between the payloads it receives, the shard
// between the moments it wrote them: a burst that was slow to arrive (a
// busy connection, a busy server) would let the next burst, sent 60 s
// after it, arrive less than 60 s after it and be counted in its window.
// So a payload keeps its place for sendWindow plus sendMargin (the share
// of its window the REST global limit keeps, ratelimit.DefaultMargin's
// 2%), as the identify limiter keeps ratelimit.DefaultIdentifyMargin.
// Heartbeats are counted in the same window, so the reserve holds over it.
const (
	sendWindow  = 60 * time.Second
	sendMargin  = sendWindow / 50 // 1.2 s
	sendLimit   = 120
	sendReserve = 5
	sendBudget  = sendLimit - sendReserve
)

// sendReq is an application payload waiting for the owner.
type sendReq struct {
	ctx context.Context
	b   []byte
	res chan error // buffered: the owner never waits on it
	col *chunkCollector
}

// send hands b to the owner and waits until it is written (after READY or
// RESUMED, within the limit), ctx ends, or the shard stops. A payload
// waiting belongs to the session, not to the connection: it goes out after
// a resume, and fails with [ErrSessionLost] when the session is lost.
func (s *Shard) send(ctx context.Context, b []byte, col *chunkCollector) error {
	if !s.started.Load() {
		return errors.New("gateway: the shard is not open")
	}
	r := &sendReq{ctx: ctx, b: b, res: make(chan error, 1), col: col}
	select {
	case s.sendc <- r:
		if s.sendQueued != nil {
			s.sendQueued()
		}
	case <-s.stopped:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.res:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flushSends writes the waiting payloads the limit allows, and sets a
// timer for the rest.
func (o *owner) flushSends() {
	if o.c == nil || !o.ready {
		return
	}
	now := o.s.cfg.clock.Now()
	i := 0
	for i < len(o.window) && now.Sub(o.window[i]) >= sendWindow+sendMargin {
		i++
	}
	o.window = append(o.window[:0], o.window[i:]...)
	for len(o.sends) > 0 && len(o.window) < sendBudget && !o.writeFailed {
		r := o.sends[0]
		if r.ctx.Err() != nil {
			o.sends = o.sends[1:]
			r.res <- r.ctx.Err()
			continue
		}
		if r.col != nil {
			if o.chunks == nil {
				o.chunks = make(map[string]*chunkCollector)
			}
			for n, c := range o.chunks {
				if c.ctx.Err() != nil {
					delete(o.chunks, n)
				}
			}
			o.chunks[r.col.nonce] = r.col
		}
		if err := o.write(r.b); err != nil {
			// The connection failed under it: the payload stays first in
			// line for the next connection of the session.
			if r.col != nil {
				delete(o.chunks, r.col.nonce)
			}
			return
		}
		o.sends = o.sends[1:]
		r.res <- nil
	}
	if len(o.sends) > 0 && o.stopSendTimer == nil && !o.writeFailed {
		o.stopSendTimer = o.post(o.window[0].Add(sendWindow+sendMargin).Sub(now), timerMsg{kind: timerSend})
	}
}

// writeBroke stops the writes of application payloads on a connection a
// write failed on, and drops it without a close frame: its reader then reports how it
// ended (the server's close frame, when one came first), and the table
// decides as for any other end.
func (o *owner) writeBroke(err error) {
	s := o.s
	o.writeFailed = true
	s.logger.Warn("gateway: a write failed; the payloads waiting go out on the next connection", slog.String("error", redactURL(err.Error())))
	ws := o.c.ws
	s.helpers.Add(1)
	go func() {
		defer s.helpers.Done()
		_ = ws.CloseNow()
	}()
}

// failSends fails the payloads waiting, and the member requests waiting
// for chunks, with err: the session they belong to is gone.
func (o *owner) failSends(err error) {
	for _, r := range o.sends {
		r.res <- err
	}
	o.sends = nil
	for n, col := range o.chunks {
		col.finish(err)
		delete(o.chunks, n)
	}
}

// Activity is one activity of a presence. Bots may set Name, State, Type
// and URL only.
type Activity struct {
	Name  string       `json:"name"`
	Type  ActivityType `json:"type"`
	State string       `json:"state,omitempty"`
	URL   string       `json:"url,omitempty"` // Streaming only: a stream URL
}

// ActivityType is what an activity is.
type ActivityType int

// Activity types.
const (
	ActivityPlaying   ActivityType = 0
	ActivityStreaming ActivityType = 1
	ActivityListening ActivityType = 2
	ActivityWatching  ActivityType = 3
	ActivityCustom    ActivityType = 4
	ActivityCompeting ActivityType = 5
)

// PresenceUpdateParams is the bot's presence (op 3, and IDENTIFY's
// presence).
type PresenceUpdateParams struct {
	// Since is when the bot went idle; nil when it is not idle.
	Since      *time.Time `json:"-"`
	Activities []Activity `json:"activities"`
	// Status is "online", "dnd", "idle", "invisible" or "offline".
	Status string `json:"status"`
	AFK    bool   `json:"afk"`
}

// MarshalJSON encodes the presence as the platform wants it: since in Unix
// milliseconds or null, activities as [] when none.
func (p PresenceUpdateParams) MarshalJSON() ([]byte, error) {
	type plain PresenceUpdateParams
	w := struct {
		Since *int64 `json:"since"`
		plain
	}{plain: plain(p)}
	if p.Since != nil {
		ms := p.Since.UnixMilli()
		w.Since = &ms
	}
	if w.Activities == nil {
		w.Activities = []Activity{}
	}
	return json.Marshal(w)
}

func (p *PresenceUpdateParams) validate() error {
	if p == nil {
		return nil
	}
	v := &guildkit.ValidationError{}
	switch p.Status {
	case "online", "dnd", "idle", "invisible", "offline":
	default:
		v.Add("status", wire.CodeInvalid, "must be online, dnd, idle, invisible or offline, got %q", p.Status)
	}
	for i, a := range p.Activities {
		if a.Name == "" {
			v.Add(fmt.Sprintf("activities[%d].name", i), wire.CodeRequired, "an activity needs a name")
		}
		if a.Type < ActivityPlaying || a.Type > ActivityCompeting {
			v.Add(fmt.Sprintf("activities[%d].type", i), wire.CodeInvalid, "unknown activity type %d", a.Type)
		}
		if a.URL != "" && a.Type != ActivityStreaming {
			v.Add(fmt.Sprintf("activities[%d].url", i), wire.CodeNotAllowed, "only a Streaming activity has a URL")
		}
	}
	if len(v.Problems) > 0 {
		return v
	}
	return nil
}

// UpdatePresence sets the bot's presence (op 3). Others see it as
// PRESENCE_UPDATE. It waits for READY and counts toward the connection's
// 120 payloads per 60 s; it returns when the payload was written, or ctx
// ended. There is no answer.
func (s *Shard) UpdatePresence(ctx context.Context, p *PresenceUpdateParams) error {
	if p == nil {
		return &guildkit.ValidationError{Problems: []guildkit.FieldError{{Path: "", Code: wire.CodeRequired, Message: "a presence is required"}}}
	}
	if err := p.validate(); err != nil {
		return err
	}
	b, err := encodePayload(OpPresenceUpdate, p)
	if err != nil {
		return err
	}
	return s.send(ctx, b, nil)
}

// MemberRequestParams asks for members of one guild (op 8). Either Query
// (with Limit) or UserIDs is required.
type MemberRequestParams struct {
	GuildID guildkit.Snowflake
	// Query is a username prefix; Some("") with Limit 0 asks for every
	// member (it needs GUILD_MEMBERS, and the platform allows it once per
	// guild per 30 s: over it a RATE_LIMITED event comes instead).
	Query guildkit.Opt[string]
	// Limit is the most members to send, required with Query: 0 with
	// Some("") means all; at most 100 with a prefix.
	Limit int
	// Presences asks for their presences too (needs GUILD_PRESENCES).
	Presences bool
	// UserIDs names up to 100 users.
	UserIDs []guildkit.Snowflake
	// Nonce is echoed in every chunk, up to 32 bytes; a random one when
	// empty.
	Nonce string
}

type memberRequest struct {
	GuildID   guildkit.Snowflake   `json:"guild_id"`
	Query     *string              `json:"query,omitempty"`
	Limit     int                  `json:"limit"`
	Presences bool                 `json:"presences,omitempty"`
	UserIDs   []guildkit.Snowflake `json:"user_ids,omitempty"`
	Nonce     string               `json:"nonce"`
}

func (p *MemberRequestParams) validate() error {
	v := &guildkit.ValidationError{}
	if p.GuildID == 0 {
		v.Add("guild_id", wire.CodeRequired, "a guild id is required")
	}
	q, hasQuery := p.Query.Get()
	switch {
	case hasQuery && len(p.UserIDs) > 0:
		v.Add("query", wire.CodeConflict, "query and user_ids cannot both be set")
	case !hasQuery && len(p.UserIDs) == 0:
		v.Add("query", wire.CodeRequired, "one of query or user_ids is required")
	}
	if p.Query.IsNull() {
		v.Add("query", wire.CodeNotNull, "query cannot be null")
	}
	if p.Limit < 0 || (hasQuery && q != "" && p.Limit > 100) || (hasQuery && q != "" && p.Limit == 0) {
		v.Add("limit", wire.CodeRange, "1-100 with a query prefix (0 only with an empty query), got %d", p.Limit)
	}
	if len(p.UserIDs) > 100 {
		v.Add("user_ids", wire.CodeLength, "at most 100, got %d", len(p.UserIDs))
	}
	if len(p.Nonce) > 32 {
		v.Add("nonce", wire.CodeLength, "at most 32 bytes, got %d", len(p.Nonce))
	}
	if len(v.Problems) > 0 {
		return v
	}
	return nil
}

// RequestGuildMembers asks for members of one guild (op 8) and collects
// the GUILD_MEMBERS_CHUNK events that answer it (each is also handed to
// the handlers, in order). It returns every chunk once the last came,
// or what came so far with ctx's error: bound it with a deadline, since
// an answer can be withheld (a RATE_LIMITED event instead, a reconnect in
// between). It counts toward the connection's 120 payloads per 60 s.
func (s *Shard) RequestGuildMembers(ctx context.Context, p *MemberRequestParams) ([]*GuildMembersChunk, error) {
	if p == nil {
		return nil, &guildkit.ValidationError{Problems: []guildkit.FieldError{{Path: "", Code: wire.CodeRequired, Message: "params are required"}}}
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	nonce := p.Nonce
	if nonce == "" {
		var b [12]byte
		_, _ = rand.Read(b[:])
		nonce = hex.EncodeToString(b[:])
	}
	req := memberRequest{GuildID: p.GuildID, Limit: p.Limit, Presences: p.Presences, UserIDs: p.UserIDs, Nonce: nonce}
	if q, ok := p.Query.Get(); ok {
		req.Query = &q
	}
	b, err := encodePayload(OpRequestGuildMembers, req)
	if err != nil {
		return nil, err
	}
	col := &chunkCollector{ctx: ctx, nonce: nonce, notify: make(chan struct{}, 1)}
	if err := s.send(ctx, b, col); err != nil {
		return nil, err
	}
	for {
		select {
		case <-col.notify:
			if chunks, done, err := col.result(); done {
				return chunks, err
			}
		case <-ctx.Done():
			chunks, _, _ := col.result()
			return chunks, ctx.Err()
		}
	}
}

// chunkCollector gathers one request's chunks; the owner adds, the caller
// reads.
type chunkCollector struct {
	ctx    context.Context
	nonce  string
	notify chan struct{}

	mu     sync.Mutex
	chunks []*GuildMembersChunk
	done   bool
	err    error
}

func (c *chunkCollector) add(ch *GuildMembersChunk) (complete bool) {
	c.mu.Lock()
	c.chunks = append(c.chunks, ch)
	complete = len(c.chunks) >= ch.ChunkCount
	if complete {
		c.done = true
	}
	c.mu.Unlock()
	c.ping()
	return complete
}

func (c *chunkCollector) finish(err error) {
	c.mu.Lock()
	c.done, c.err = true, err
	c.mu.Unlock()
	c.ping()
}

func (c *chunkCollector) ping() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

func (c *chunkCollector) result() ([]*GuildMembersChunk, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*GuildMembersChunk(nil), c.chunks...), c.done, c.err
}

// chunk routes a GUILD_MEMBERS_CHUNK to the request that asked for it.
func (o *owner) chunk(ch *GuildMembersChunk) {
	col := o.chunks[ch.Nonce]
	if col == nil {
		return
	}
	if col.add(ch) || col.ctx.Err() != nil {
		delete(o.chunks, ch.Nonce)
	}
}
