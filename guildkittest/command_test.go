package guildkittest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestControlCommands: the palette's list (the guild's commands and the
// global ones, with why a member could not use each), and runs with
// options, a file and autocomplete through the control API, as curl would
// send them.
func TestControlCommands(t *testing.T) {
	t.Parallel()
	var last *guildkit.Interaction
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		last = it
		if it.Type == guildkit.InteractionTypeAutocomplete {
			_, _, text, _ := it.CommandOptions().Focused()
			reply(t, w, guildkit.AutocompleteResponse(guildkit.CommandOptionChoice{Name: text + "!", Value: text}))
			return
		}
		name, _ := it.CommandOptions().String("name")
		file, _ := it.CommandOptions().Attachment("photo")
		reply(t, w, guildkit.MessageResponse(text("hi "+name+" "+file.Filename)))
	})
	f.srv.AddCommand(f.guild.ID, guildkit.CommandCreateParams{Name: "greet", Description: "Greet", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionString, Name: "name", Description: "Who", Required: true, Autocomplete: true},
		{Type: guildkit.CommandOptionAttachment, Name: "photo", Description: "A photo", FileTypes: []string{"image"}},
	}})
	f.srv.AddCommand(0, guildkit.CommandCreateParams{Name: "admin", Description: "Admins only", DefaultMemberPermissions: guildkit.Some(guildkit.PermissionManageGuild)})
	f.srv.AddCommand(0, guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five"})
	api := f.srv.URL + guildkittest.ControlPrefix + "api/"

	var list []struct {
		Name     string `json:"name"`
		Type     int    `json:"type"`
		Scope    string `json:"scope"`
		Unusable string `json:"unusable"`
		Options  []any  `json:"options"`
	}
	resp := plain(t, "GET", api+"commands?user_id="+f.alice.String()+"&channel_id="+f.ch.ID.String(), "", "", &list)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, list, 3)
	assert.Equal(t, "High Five", list[0].Name)
	assert.Equal(t, "admin", list[1].Name)
	assert.Equal(t, "global", list[1].Scope)
	assert.Contains(t, list[1].Unusable, "default member permissions")
	assert.Equal(t, "greet", list[2].Name)
	assert.Equal(t, "guild", list[2].Scope)
	assert.Len(t, list[2].Options, 2)

	var out struct {
		Kind     string            `json:"kind"`
		Message  *guildkit.Message `json:"message"`
		Response struct {
			Data struct {
				Choices []guildkit.CommandOptionChoice `json:"choices"`
			} `json:"data"`
		} `json:"response"`
		Error string `json:"error"`
	}
	run := `{"kind": "command", "user_id": "` + f.alice.String() + `", "channel_id": "` + f.ch.ID.String() + `", "name": "greet",
		"options": [{"name": "name", "value": "Ada"}, {"name": "photo"}],
		"files": {"photo": {"filename": "ada.png", "content_type": "image/png", "data": "iVBORw0K"}}}`
	resp = plain(t, "POST", api+"interactions", "", run, &out)
	require.Equal(t, http.StatusOK, resp.StatusCode, out.Error)
	assert.Equal(t, "hi Ada ada.png", out.Message.Content)
	assert.Equal(t, guildkit.Some(f.guild.ID), last.Command.GuildID, "a guild command's data names its guild")

	resp = plain(t, "POST", api+"interactions", "", `{"kind": "autocomplete", "user_id": "`+f.alice.String()+`", "channel_id": "`+f.ch.ID.String()+`", "name": "greet",
		"options": [{"name": "name", "value": "Ad", "focused": true}]}`, &out)
	require.Equal(t, http.StatusOK, resp.StatusCode, out.Error)
	require.Len(t, out.Response.Data.Choices, 1)
	assert.Equal(t, "Ad!", out.Response.Data.Choices[0].Name)

	resp = plain(t, "POST", api+"interactions", "", `{"kind": "command", "user_id": "`+f.alice.String()+`", "channel_id": "`+f.ch.ID.String()+`", "command_type": 2,
		"name": "High Five", "target_id": "`+f.bob.String()+`"}`, &out)
	require.Equal(t, http.StatusOK, resp.StatusCode, out.Error)
	assert.Equal(t, guildkit.Some(f.bob), last.Command.TargetID)

	for name, tc := range map[string]struct{ body, says string }{
		"unregistered": {`"name": "nope"`, `no CHAT_INPUT command "nope"`},
		"required":     {`"name": "greet"`, `option "name" is required`},
		"wrong type":   {`"name": "greet", "options": [{"name": "name", "value": 5}]`, "takes a string"},
		"not allowed":  {`"name": "admin"`, "default member permissions"},
		"bad file":     {`"name": "greet", "options": [{"name": "name", "value": "x"}, {"name": "photo"}], "files": {"photo": {"filename": "a.pdf", "data": ""}}`, "file types"},
	} {
		var problem map[string]any
		resp := plain(t, "POST", api+"interactions", "", `{"kind": "command", "user_id": "`+f.alice.String()+`", "channel_id": "`+f.ch.ID.String()+`", `+tc.body+`}`, &problem)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, name)
		assert.Contains(t, problem["error"], tc.says, name)
	}
}

// TestCommandsKeptInState: the registered commands survive a save and a
// load, as the emulator's state file keeps them.
func TestCommandsKeptInState(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "G"})
	srv.AddCommand(0, guildkit.CommandCreateParams{Name: "one", Description: "d"})
	srv.AddCommand(g.ID, guildkit.CommandCreateParams{Name: "two", Description: "d"})
	var buf bytes.Buffer
	require.NoError(t, srv.SaveState(&buf))
	other := guildkittest.NewServer(t)
	require.NoError(t, other.LoadState(&buf))
	assert.Equal(t, srv.Commands(0), other.Commands(0))
	require.Len(t, other.Commands(g.ID), 1)
	assert.Equal(t, "two", other.Commands(g.ID)[0].Name)
	raw, _ := json.Marshal(other.Commands(g.ID)[0])
	assert.Contains(t, string(raw), `"guild_id":"`+g.ID.String()+`"`)
}

// TestCommandChoicesOfAnyNumberType: a choice whose value is any Go number
// the SDK's rules accept (an int32, a uint8) is one the user can pick.
func TestCommandChoicesOfAnyNumberType(t *testing.T) {
	t.Parallel()
	var got int64
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		got, _ = it.CommandOptions().Int("size")
		reply(t, w, guildkit.MessageResponse(text("ok")))
	})
	f.srv.AddCommand(f.guild.ID, guildkit.CommandCreateParams{Name: "pick", Description: "Pick", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionInteger, Name: "size", Description: "Size", Required: true,
			Choices: []guildkit.CommandOptionChoice{{Name: "small", Value: int32(1)}, {Name: "large", Value: uint8(3)}}},
	}})
	out, err := f.srv.RunCommand(t.Context(), f.alice, f.ch.ID, "pick",
		guildkit.CommandOption{Name: "size", Type: guildkit.CommandOptionInteger, Value: json.RawMessage(`3`)})
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.Failure)
	assert.EqualValues(t, 3, got)
	_, err = f.srv.RunCommand(t.Context(), f.alice, f.ch.ID, "pick",
		guildkit.CommandOption{Name: "size", Type: guildkit.CommandOptionInteger, Value: json.RawMessage(`2`)})
	require.ErrorIs(t, err, guildkittest.ErrRefused, "2 is not among the choices")
}

// TestCommandFileWithoutItsOption: a file given for no ATTACHMENT option
// of the run (the option left out, or a name the command does not have) is
// refused, not dropped from the interaction.
func TestCommandFileWithoutItsOption(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction) {
		reply(t, w, guildkit.MessageResponse(text("ok")))
	})
	f.srv.AddCommand(f.guild.ID, guildkit.CommandCreateParams{Name: "upload", Description: "Upload", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionAttachment, Name: "photo", Description: "A photo"},
	}})
	for _, tc := range []struct {
		name    string
		options []guildkit.CommandOption
		files   map[string]guildkit.File
	}{
		{"option left out", nil, map[string]guildkit.File{"photo": {Name: "a.png", Reader: strings.NewReader("png")}}},
		{"no such option", []guildkit.CommandOption{{Name: "photo"}}, map[string]guildkit.File{
			"photo": {Name: "a.png", Reader: strings.NewReader("png")}, "scan": {Name: "b.png", Reader: strings.NewReader("png")}}},
	} {
		before := len(f.srv.Deliveries())
		_, err := f.srv.Run(t.Context(), guildkittest.CommandRun{UserID: f.alice, ChannelID: f.ch.ID, Name: "upload", Options: tc.options, Files: tc.files})
		require.ErrorIs(t, err, guildkittest.ErrRefused, tc.name)
		assert.Equal(t, before, len(f.srv.Deliveries()), "%s: nothing delivered", tc.name)
	}
	out, err := f.srv.Run(t.Context(), guildkittest.CommandRun{UserID: f.alice, ChannelID: f.ch.ID, Name: "upload",
		Options: []guildkit.CommandOption{{Name: "photo"}}, Files: map[string]guildkit.File{"photo": {Name: "a.png", Reader: strings.NewReader("png")}}})
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.Failure)
}

// TestBulkOverwriteRenameAndReuse: a bulk list that renames a command by
// its id and gives its old name to a new one keeps two commands, each with
// its own id.
func TestBulkOverwriteRenameAndReuse(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c, app := srv.Client(), srv.Application().ID
	foo, _, err := c.Commands.Create(t.Context(), app, &guildkit.CommandCreateParams{Name: "foo", Description: "Foo"})
	require.NoError(t, err)
	out, err := c.Commands.BulkOverwrite(t.Context(), app, []guildkit.CommandCreateParams{
		{ID: guildkit.Some(foo.ID), Name: "bar", Description: "Renamed"},
		{Name: "foo", Description: "A new foo"},
	})
	require.NoError(t, err)
	require.Len(t, out, 2)
	assert.Equal(t, foo.ID, out[0].ID, "renamed by id")
	assert.Equal(t, "bar", out[0].Name)
	assert.NotEqual(t, foo.ID, out[1].ID, "the old name's new command has an id of its own")
	assert.Equal(t, "foo", out[1].Name)
	stored := srv.Commands(0)
	require.Len(t, stored, 2)
	assert.NotEqual(t, stored[0].ID, stored[1].ID)
}
