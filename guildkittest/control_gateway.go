package guildkittest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

// The control API's gateway routes:
//
//	GET  /_guildkit/api/gateway                        the sessions, the settings, the identify counters and notes
//	GET  /_guildkit/api/gateway/sessions/{id}/frames   a session's frame log (decompressed, tokens redacted)
//	POST /_guildkit/api/gateway/faults                 {"session": "...", "kind": "reconnect"}: inject a fault
func (s *Server) controlGatewayRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("GET gateway", func(w http.ResponseWriter, r *http.Request) { controlJSON(w, http.StatusOK, s.gatewayView()) })
	api("GET gateway/sessions/{id}/frames", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if !s.gatewaySessionKnown(id) {
			controlError(w, http.StatusNotFound, "no gateway session "+quoteID(id)+" (GET "+ControlPrefix+"api/gateway lists them)")
			return
		}
		frames := s.GatewayFrames(id)
		if frames == nil {
			frames = []GatewayFrame{}
		}
		controlJSON(w, http.StatusOK, frames)
	})
	api("POST gateway/faults", s.controlGatewayFault)
}

// gatewayFaultTimeout bounds the wait for a fault to be applied: the
// owner of a connection whose client does not read may be in a write for
// up to its write timeout.
const gatewayFaultTimeout = 15 * time.Second

// controlGatewayFault: POST /_guildkit/api/gateway/faults.
func (s *Server) controlGatewayFault(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Session   string    `json:"session"`
		Kind      FaultKind `json:"kind"`
		Resumable *bool     `json:"resumable"`
		Code      *int      `json:"code"`
	}
	if !controlDecode(w, r, &body) {
		return
	}
	kinds := faultKindList(" or ")
	f := GatewayFault{Kind: body.Kind}
	switch {
	case body.Kind == "":
		controlError(w, http.StatusBadRequest, "kind: give one of "+kinds)
		return
	case !body.Kind.known():
		controlError(w, http.StatusBadRequest, "kind: "+quoteID(string(body.Kind))+" is not "+kinds)
		return
	case body.Resumable != nil && body.Kind != FaultInvalidSession:
		controlError(w, http.StatusBadRequest, "resumable: only an invalid_session fault takes it")
		return
	case body.Code != nil && body.Kind != FaultClose:
		controlError(w, http.StatusBadRequest, "code: only a close fault takes it")
		return
	}
	if body.Resumable != nil {
		f.Resumable = *body.Resumable
	}
	if body.Code != nil {
		if *body.Code <= 0 {
			controlError(w, http.StatusBadRequest, "code: give a close code such as 4000 (1000-4999, one a close frame can carry)")
			return
		}
		f.Code = *body.Code
	}
	if body.Session != "" {
		if !s.gatewaySessionKnown(body.Session) {
			controlError(w, http.StatusNotFound, "session: no gateway session "+quoteID(body.Session)+" (GET "+ControlPrefix+"api/gateway lists them)")
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), gatewayFaultTimeout)
	defer cancel()
	n, err := s.InjectGatewayFault(ctx, body.Session, f)
	switch {
	case errors.Is(err, ErrNoGatewaySession):
		controlError(w, http.StatusConflict, "session: "+quoteID(body.Session)+" is not connected (it waits for a resume, or has ended); a fault needs a connection")
		return
	case errors.Is(err, context.DeadlineExceeded):
		controlError(w, http.StatusConflict, "the fault was not applied within 15 s: the connection is busy writing to a client that does not read")
		return
	case r.Context().Err() != nil:
		return // the caller went away
	case err != nil:
		controlError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "guildkittest: "))
		return
	case n == 0 && body.Session == "":
		controlError(w, http.StatusConflict, "no gateway session is connected: connect a bot to "+s.GatewayURL()+" first")
		return
	}
	out := map[string]any{"kind": f.Kind, "applied": n}
	if body.Session != "" {
		out["session"] = body.Session
	}
	controlJSON(w, http.StatusOK, out)
}

// quoteID quotes a caller's id for a message, cut to a readable length.
func quoteID(id string) string {
	if len(id) > 64 {
		id = id[:64] + "…"
	}
	return `"` + strings.ToValidUTF8(id, "?") + `"`
}

// gatewaySessionKnown reports whether id names a session the server lists
// (live or recently ended), as GatewaySessions and GatewayFrames find it.
func (s *Server) gatewaySessionKnown(id string) bool {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	_, live := h.sessions[id]
	_, ended := h.ended[id]
	return live || ended
}
