package guildkittest

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// serveInviteLink serves an invite's link, URL + "/invite/" + code, which
// the widget's instant_invite points to: the reference platform's invite
// page. A browser (Accept: text/html) gets a small page naming the guild
// and channel; any other client the invite object, as Get Invite answers it
// without metadata. An unknown or expired code is 404 Unknown Invite.
func (s *Server) serveInviteLink(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	s.mu.Lock()
	is, ok := s.invites[code]
	if ok {
		if t, set := is.invite.ExpiresAt.Get(); set && !t.After(s.now()) {
			ok = false
		}
	}
	var inv guildkit.Invite
	if ok {
		inv = shaped(s.inviteJSON(is, false))
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, guildkit.CodeUnknownInvite, "Unknown Invite")
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		controlJSON(w, http.StatusOK, inv)
		return
	}
	page := struct {
		Code, Guild, Channel, API string
	}{Code: inv.Code, API: s.BaseURL() + "/invites/" + inv.Code}
	if inv.Guild != nil {
		page.Guild = inv.Guild.Name
	}
	if inv.Channel != nil {
		page.Channel = inv.Channel.Name
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = invitePage.Execute(w, page)
}

var invitePage = template.Must(template.New("invite").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invite to {{.Guild}}</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<p>You have been invited to join</p>
<h1 class="guild">{{.Guild}}</h1>
{{if .Channel}}<p class="channel">#{{.Channel}}</p>{{end}}
<p>Invite code <code class="code">{{.Code}}</code>. This is the guildkit emulator: a bot reads the
invite at <a href="{{.API}}">{{.API}}</a>.</p>
</body></html>
`))
