package guildkittest

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"sort"

	"github.com/seed012df1e9/guildkit"
)

// The control API's command routes: the palette's list of the commands a
// member sees in a channel, and the runs of commands (kind "command",
// "autocomplete") through POST interactions.

// controlCommandRoutes registers GET commands.
func (s *Server) controlCommandRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("GET commands", s.controlCommands)
}

// controlCommand is a command as the palette lists it: the registered
// command, its scope, and why the member cannot use it ("" when they can).
type controlCommand struct {
	guildkit.Command
	Scope    string `json:"scope"` // "global" or "guild"
	Unusable string `json:"unusable,omitempty"`
}

// controlCommands answers the application's commands in a guild
// (?guild_id=: the guild's and the global ones; without it, the global
// ones), and with ?user_id=&channel_id= whether that member may use each
// there (the palette offers only those).
func (s *Server) controlCommands(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var guildID, userID, channelID guildkit.Snowflake
	for _, f := range []struct {
		name string
		to   *guildkit.Snowflake
	}{{"guild_id", &guildID}, {"user_id", &userID}, {"channel_id", &channelID}} {
		if v := q.Get(f.name); v != "" {
			id, err := guildkit.ParseSnowflake(v)
			if err != nil {
				controlError(w, http.StatusBadRequest, f.name+": "+err.Error())
				return
			}
			*f.to = id
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var gs *guildState
	var ch *guildkit.Channel
	var perms guildkit.Permissions
	if channelID != 0 && userID != 0 {
		var err error
		gs, ch, perms, err = s.userChannelLocked(userID, channelID)
		if err != nil {
			controlError(w, http.StatusBadRequest, err.Error())
			return
		}
		guildID = gs.guild.ID
	}
	if guildID != 0 {
		if _, ok := s.guilds[guildID]; !ok {
			controlError(w, http.StatusNotFound, "guild_id: no guild "+guildID.String())
			return
		}
	}
	out := []controlCommand{}
	scopes := []guildkit.Snowflake{0}
	if guildID != 0 {
		scopes = []guildkit.Snowflake{guildID, 0}
	}
	for _, scope := range scopes {
		for _, c := range s.scopeLocked(s.appID(), scope).list {
			cc := controlCommand{Command: copyCommand(c), Scope: "global"}
			if scope != 0 {
				cc.Scope = "guild"
			}
			if gs != nil {
				cc.Unusable = s.unusableLocked(c, gs, ch, userID, perms)
			}
			out = append(out, cc)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	controlJSON(w, http.StatusOK, out)
}

// controlFile is a file in a control request: its name, type and base64
// bytes.
type controlFile struct {
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Data        string `json:"data"`
}

// controlRunCommand runs a command (kind "command") or sends an
// autocomplete (kind "autocomplete") for the control API.
func (s *Server) controlRunCommand(ctx context.Context, body *controlInteractionRequest) (*Outcome, string, error) {
	run := CommandRun{UserID: body.UserID, ChannelID: body.ChannelID, Name: body.Name, Options: body.Options,
		Type: body.CommandType, TargetID: body.TargetID}
	if len(body.Files) > 0 {
		run.Files = map[string]guildkit.File{}
		for name, f := range body.Files {
			data, err := base64.StdEncoding.DecodeString(f.Data)
			if err != nil {
				return nil, "files: the data of " + name + " is not base64", nil
			}
			run.Files[name] = guildkit.File{Name: f.Filename, ContentType: f.ContentType, Reader: bytes.NewReader(data)}
		}
	}
	if body.Kind == "autocomplete" {
		out, err := s.Autocomplete(ctx, run.UserID, run.ChannelID, run.Name, run.Options...)
		return out, "", err
	}
	out, err := s.Run(ctx, run)
	return out, "", err
}
