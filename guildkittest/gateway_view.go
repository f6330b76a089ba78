package guildkittest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// gatewayView is GET /_guildkit/api/gateway: where bots connect, the
// settings, the identify counters, every session, and notes on what the
// bots did that the platform would punish or that breaks resuming.
type gatewayView struct {
	URL       string               `json:"url"`
	ResumeURL string               `json:"resume_url"`
	Settings  gatewaySettingsView  `json:"settings"`
	Identify  gatewayIdentifyView  `json:"identify"`
	Sessions  []gatewaySessionView `json:"sessions"`
	Notes     []string             `json:"notes"`
}

type gatewaySettingsView struct {
	HeartbeatIntervalMS int64  `json:"heartbeat_interval_ms"`
	ResumeWindow        string `json:"resume_window"`
	MaxConcurrency      int    `json:"max_concurrency"`
	SessionStartTotal   int    `json:"session_start_total"`
	SendLimit           int    `json:"send_limit"`
	StrictSendWindow    bool   `json:"strict_send_window"`
	GuildsPerShard      int    `json:"guilds_per_shard"`
	QueueLimit          int    `json:"queue_limit"`
}

type gatewayIdentifyView struct {
	Total        int `json:"total"`
	MaxPerWindow int `json:"max_per_5s"`
	Refused      int `json:"refused"`
	Remaining    int `json:"remaining"`
	OverBudget   int `json:"over_budget"`
}

// gatewaySessionView is one session as the control API lists it.
type gatewaySessionView struct {
	ID      string   `json:"id"`
	Shard   [2]int   `json:"shard"`
	Intents []string `json:"intents"`
	// IntentsValue is IDENTIFY's intents, as sent.
	IntentsValue uint64 `json:"intents_value"`
	// Library is IDENTIFY's properties.browser: the library, as it names
	// itself ("discord.js", "disgo", ...).
	Library     string            `json:"library"`
	Properties  map[string]string `json:"properties"`
	Compression string            `json:"compression"` // zlib-stream, zstd-stream, payload or none
	Version     string            `json:"version"`
	Sequence    int64             `json:"sequence"`
	Connected   bool              `json:"connected"`
	Ended       bool              `json:"ended"`
	URL         string            `json:"url"` // gateway or resume: where its connection came
	Resumes     int               `json:"resumes"`
	ResumedTo   []string          `json:"resumed_to"`
	Heartbeat   heartbeatView     `json:"heartbeat"`
	Identifies  int               `json:"identifies"`
	Created     time.Time         `json:"created"`
	Notes       []string          `json:"notes"`
}

// heartbeatView is a session's heartbeat timing, on the server's clock.
type heartbeatView struct {
	IntervalMS int64      `json:"interval_ms"`
	Count      int        `json:"count"`
	Last       *time.Time `json:"last"`          // null before the first beat
	SinceMS    *int64     `json:"since_last_ms"` // null before the first beat
	// Late is true when a connected session's last beat (or its creation)
	// is more than an interval ago.
	Late bool `json:"late"`
}

// heartbeatLate reports whether sess's bot is late with a beat as the
// server judges it: more than 1.5 intervals since the later of its last
// beat and its current connection's HELLO (a resumed connection's clock
// starts at its own HELLO, not at the previous connection's last beat).
func heartbeatLate(sess GatewaySession, now time.Time) bool {
	if !sess.Connected || sess.HeartbeatInterval <= 0 {
		return false
	}
	since := sess.Created
	if sess.Hello.After(since) {
		since = sess.Hello
	}
	if sess.LastHeartbeat.After(since) {
		since = sess.LastHeartbeat
	}
	return now.Sub(since) > sess.HeartbeatInterval*3/2
}

func (s *Server) gatewayView() gatewayView {
	settings := s.GatewaySettings()
	stats := s.IdentifyStats()
	sessions := s.GatewaySessions()
	now := s.Now()
	v := gatewayView{
		URL: s.GatewayURL(), ResumeURL: s.ResumeGatewayURL(),
		Settings: gatewaySettingsView{
			HeartbeatIntervalMS: settings.HeartbeatInterval.Milliseconds(), ResumeWindow: settings.ResumeWindow.String(),
			MaxConcurrency: settings.MaxConcurrency, SessionStartTotal: settings.SessionStartTotal, SendLimit: settings.SendLimit,
			StrictSendWindow: settings.StrictSendWindow, GuildsPerShard: settings.GuildsPerShard, QueueLimit: settings.QueueLimit,
		},
		Identify: gatewayIdentifyView{Total: stats.Total, MaxPerWindow: stats.MaxPerWindow, Refused: stats.Refused,
			Remaining: stats.Remaining, OverBudget: stats.OverBudget},
		Sessions: []gatewaySessionView{},
		Notes:    []string{},
	}
	frames := make(map[string][]GatewayFrame, len(sessions))
	for _, sess := range sessions {
		frames[sess.ID] = s.GatewayFrames(sess.ID)
	}
	bySession := map[string][]string{}
	for _, n := range gatewayNotes(sessions, frames, settings, stats) {
		if n.Session == "" {
			v.Notes = append(v.Notes, n.Text)
		} else {
			bySession[n.Session] = append(bySession[n.Session], n.Text)
		}
	}
	for _, sess := range sessions {
		sv := gatewaySessionView{
			ID: sess.ID, Shard: sess.Shard, Intents: sess.IntentNames, IntentsValue: sess.Intents,
			Library: sess.Properties["browser"], Properties: sess.Properties, Compression: sess.Compression, Version: sess.Version,
			Sequence: sess.Sequence, Connected: sess.Connected, Ended: sess.Ended, URL: sess.URL, Resumes: sess.Resumes,
			ResumedTo: sess.ResumedTo, Identifies: sess.Identifies, Created: sess.Created.UTC(),
			Heartbeat: heartbeatView{IntervalMS: sess.HeartbeatInterval.Milliseconds(), Count: sess.Heartbeats},
		}
		if sv.Intents == nil {
			sv.Intents = []string{}
		}
		if sv.ResumedTo == nil {
			sv.ResumedTo = []string{}
		}
		if sv.Compression == "" {
			sv.Compression = "none"
		}
		if !sess.LastHeartbeat.IsZero() {
			last := sess.LastHeartbeat.UTC()
			ms := now.Sub(last).Milliseconds()
			sv.Heartbeat.Last, sv.Heartbeat.SinceMS = &last, &ms
		}
		sv.Heartbeat.Late = heartbeatLate(sess, now)
		sv.Notes = bySession[sess.ID]
		if sv.Notes == nil {
			sv.Notes = []string{}
		}
		v.Sessions = append(v.Sessions, sv)
	}
	return v
}

// GatewayNoteKind names what a [GatewayNote] is about.
type GatewayNoteKind string

// The notes the server makes.
const (
	// NoteIdentifyConcurrency: IDENTIFYs beyond max_concurrency per 5 s
	// were refused with INVALID_SESSION (the gateway as a whole).
	NoteIdentifyConcurrency GatewayNoteKind = "identify_concurrency"
	// NoteSessionStartBudget: IDENTIFYs beyond the daily
	// session_start_limit; the platform would reset the bot's token (the
	// gateway as a whole).
	NoteSessionStartBudget GatewayNoteKind = "session_start_budget"
	// NoteSendRate: a session sent 80% or more of SendLimit payloads
	// within 60 s, among the frames its log keeps.
	NoteSendRate GatewayNoteKind = "send_rate"
	// NoteResumeURL: a session was resumed on the ordinary gateway URL
	// instead of READY's resume_gateway_url.
	NoteResumeURL GatewayNoteKind = "resume_url"
	// NoteReidentify: a session was started by IDENTIFY while an older
	// session of the same shard could still have been resumed.
	NoteReidentify GatewayNoteKind = "reidentify"
)

// GatewayNote is something bots did on the gateway that the reference
// platform would punish, or that breaks resuming, as the inspector shows
// it.
type GatewayNote struct {
	Session string          `json:"session,omitempty"` // "" for the gateway as a whole
	Kind    GatewayNoteKind `json:"kind"`
	Text    string          `json:"text"` // a sentence for the bot's developer
}

// GatewayNotes returns what bots did on the gateway that the reference
// platform would punish or that breaks resuming: identifies beyond
// max_concurrency or the daily budget, sends near the 4008 limit, resumes
// on the ordinary URL instead of resume_gateway_url, and IDENTIFYs where a
// resume was possible. Sessions are judged by what their frame logs keep
// (the last FrameLogSize frames) and while the server still lists them.
func (s *Server) GatewayNotes() []GatewayNote {
	settings := s.GatewaySettings()
	stats := s.IdentifyStats()
	sessions := s.GatewaySessions()
	frames := make(map[string][]GatewayFrame, len(sessions))
	for _, sess := range sessions {
		frames[sess.ID] = s.GatewayFrames(sess.ID)
	}
	return gatewayNotes(sessions, frames, settings, stats)
}

// gatewayNotes makes the notes: the gateway's, then each session's.
func gatewayNotes(sessions []GatewaySession, frames map[string][]GatewayFrame, settings GatewaySettings, stats IdentifyStats) []GatewayNote {
	notes := []GatewayNote{}
	if stats.Refused > 0 {
		notes = append(notes, GatewayNote{Kind: NoteIdentifyConcurrency, Text: fmt.Sprintf("%d IDENTIFY(s) beyond max_concurrency (%d per 5 s) "+
			"were refused with INVALID_SESSION: start shards no faster than session_start_limit.max_concurrency allows", stats.Refused, settings.MaxConcurrency)})
	}
	if stats.OverBudget > 0 {
		notes = append(notes, GatewayNote{Kind: NoteSessionStartBudget, Text: fmt.Sprintf("%d IDENTIFY(s) beyond the daily session_start_limit (%d): "+
			"the platform would reset the bot's token", stats.OverBudget, settings.SessionStartTotal)})
	}
	for _, sess := range sessions {
		notes = append(notes, sessionNotes(sess, sessions, frames, settings)...)
	}
	return notes
}

// sessionNotes says what the bot did on a session that the platform would
// punish or that breaks resuming: sends near the limit, a resume on the
// ordinary URL, an IDENTIFY where an older session of the same shard could
// still have been resumed.
func sessionNotes(sess GatewaySession, all []GatewaySession, frames map[string][]GatewayFrame, settings GatewaySettings) []GatewayNote {
	var notes []GatewayNote
	note := func(kind GatewayNoteKind, text string) {
		notes = append(notes, GatewayNote{Session: sess.ID, Kind: kind, Text: text})
	}
	if n, at := busiestMinute(frames[sess.ID]); settings.SendLimit > 0 && n*10 >= settings.SendLimit*8 {
		verdict := "near"
		if n >= settings.SendLimit {
			verdict = "at"
		}
		note(NoteSendRate, fmt.Sprintf("sent %d payloads within 60 s (from %s), %s the limit of %d: one more closes the connection with 4008",
			n, at.UTC().Format(time.TimeOnly), verdict, settings.SendLimit))
	}
	if slices.Contains(sess.ResumedTo, "gateway") {
		note(NoteResumeURL, "resumed on the ordinary gateway URL instead of READY's resume_gateway_url: the platform disconnects such clients more often")
	}
	for _, old := range all {
		if old.ID == sess.ID || old.Shard != sess.Shard || !old.Created.Before(sess.Created) {
			continue
		}
		if resumableAt(frames[old.ID], sess.Created, settings.ResumeWindow) {
			note(NoteReidentify, fmt.Sprintf("identified anew while session %s of the same shard could still be resumed: "+
				"RESUME it instead (a new session loses the events in between, and counts against session_start_limit)", old.ID))
		}
	}
	return notes
}

// busiestMinute returns the most payloads the client sent within any 60 s
// of the frame log, and when that minute began.
func busiestMinute(frames []GatewayFrame) (int, time.Time) {
	var in []time.Time
	for _, f := range frames {
		if f.Direction == FrameIn && f.Op >= 0 {
			in = append(in, f.At)
		}
	}
	best, at, j := 0, time.Time{}, 0
	for i, t := range in {
		for t.Sub(in[j]) >= time.Minute {
			j++
		}
		if i-j+1 > best {
			best, at = i-j+1, in[j]
		}
	}
	return best, at
}

// resumableAt reports whether a session whose frame log is frames could
// still be resumed at t: its connection had ended (by the client with a
// code other than 1000/1001, by a drop, or by the server with a code that
// keeps the session) less than window before t, and it was not
// invalidated (INVALID_SESSION false) in between.
func resumableAt(frames []GatewayFrame, t time.Time, window time.Duration) bool {
	var ended time.Time
	keeps := false
	for _, f := range frames {
		if f.At.After(t) {
			break
		}
		switch {
		case f.Direction == FrameOut && f.Op == 9:
			var resumable bool
			if json.Unmarshal(f.Data, &resumable) == nil && !resumable {
				ended, keeps = f.At, false
			}
		case f.Op == -1 && strings.HasPrefix(f.Note, "connection ended: "):
			if !ended.IsZero() {
				break // the server closed it first, and said how
			}
			code, ok := noteCode(strings.TrimPrefix(f.Note, "connection ended: "))
			ended, keeps = f.At, !ok || (code != 1000 && code != 1001)
		case f.Op == -1 && f.Direction == FrameOut && strings.HasPrefix(f.Note, "close "):
			code, _ := noteCode(f.Note)
			ended, keeps = f.At, !endsSession(websocket.StatusCode(code))
		case f.Op >= 0 && f.Direction == FrameIn:
			ended = time.Time{} // live again (a RESUME on a new connection)
		}
	}
	return !ended.IsZero() && keeps && t.Sub(ended) < window
}

// noteCode reads the code of a "close 4000..." note; false for a drop.
func noteCode(note string) (int, bool) {
	rest, ok := strings.CutPrefix(note, "close ")
	if !ok {
		return 0, false
	}
	digits := rest
	if i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		digits = rest[:i]
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}
