package guildkit_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// opt is a STRING option named name.
func opt(name string) guildkit.CommandOptionDefinition {
	return guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionString, Name: name, Description: "d"}
}

func chat(opts ...guildkit.CommandOptionDefinition) guildkit.CommandCreateParams {
	return guildkit.CommandCreateParams{Name: "cmd", Description: "A command", Options: opts}
}

func manyOpts(n int) []guildkit.CommandOptionDefinition {
	var out []guildkit.CommandOptionDefinition
	for i := range n {
		out = append(out, opt("o"+strings.Repeat("x", i%5)+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	return out
}

func manyChoices(n int) []guildkit.CommandOptionChoice {
	var out []guildkit.CommandOptionChoice
	for i := range n {
		out = append(out, guildkit.CommandOptionChoice{Name: "c", Value: "v" + string(rune('a'+i))})
	}
	return out
}

// TestCommandValidation: every rule of spec/commands.md §3, each refused
// before anything is sent, with its path.
func TestCommandValidation(t *testing.T) {
	t.Parallel()
	sub := func(name string, opts ...guildkit.CommandOptionDefinition) guildkit.CommandOptionDefinition {
		return guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionSubCommand, Name: name, Description: "d", Options: opts}
	}
	group := func(name string, opts ...guildkit.CommandOptionDefinition) guildkit.CommandOptionDefinition {
		return guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionSubCommandGroup, Name: name, Description: "d", Options: opts}
	}
	with := func(o guildkit.CommandOptionDefinition, f func(*guildkit.CommandOptionDefinition)) guildkit.CommandOptionDefinition {
		f(&o)
		return o
	}
	intOpt := guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionInteger, Name: "n", Description: "d"}
	long := strings.Repeat("d", 100)
	var huge []guildkit.CommandOptionDefinition
	for i := range 25 {
		o := opt("o" + string(rune('a'+i)))
		o.Description = long
		o.Choices = nil
		for j := range 25 {
			o.Choices = append(o.Choices, guildkit.CommandOptionChoice{Name: strings.Repeat("n", 10), Value: "v" + string(rune('a'+j))})
		}
		huge = append(huge, o)
	}
	tests := []struct {
		name string
		cmd  guildkit.CommandCreateParams
		path string
		says string
	}{
		{"upper-case name", guildkit.CommandCreateParams{Name: "Blep", Description: "d"}, "name", "lower-case"},
		{"space in name", guildkit.CommandCreateParams{Name: "two words", Description: "d"}, "name", "no spaces"},
		{"name too long", guildkit.CommandCreateParams{Name: strings.Repeat("a", 33), Description: "d"}, "name", "1-32 characters"},
		{"empty name", guildkit.CommandCreateParams{Description: "d"}, "name", "required"},
		{"no description", guildkit.CommandCreateParams{Name: "x"}, "description", "required"},
		{"description too long", guildkit.CommandCreateParams{Name: "x", Description: long + "!"}, "description", "1-100"},
		{"user command with a description", guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five", Description: "x"}, "description", "no description"},
		{"user command with options", guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeMessage), Name: "Report", Options: []guildkit.CommandOptionDefinition{opt("a")}}, "options", "only a CHAT_INPUT"},
		{"user command name too long", guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: strings.Repeat("A", 33)}, "name", "1-32"},
		{"unknown type", guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandType(9)), Name: "x"}, "type", "not a command type"},
		{"null type", guildkit.CommandCreateParams{Type: guildkit.Null[guildkit.CommandType](), Name: "x", Description: "d"}, "type", ""},
		{"id on create", guildkit.CommandCreateParams{ID: guildkit.Some(guildkit.Snowflake(1)), Name: "x", Description: "d"}, "id", "bulk"},
		{"handler on chat input", guildkit.CommandCreateParams{Name: "x", Description: "d", Handler: guildkit.Some(guildkit.EntryPointAppHandler)}, "handler", "PRIMARY_ENTRY_POINT"},
		{"bad locale", guildkit.CommandCreateParams{Name: "x", Description: "d", NameLocalizations: map[string]string{"xx": "y"}}, "name_localizations.xx", "locales"},
		{"localized name upper-case", guildkit.CommandCreateParams{Name: "x", Description: "d", NameLocalizations: map[string]string{"fr": "Y"}}, "name_localizations.fr", "lower-case"},
		{"bad integration type", guildkit.CommandCreateParams{Name: "x", Description: "d", IntegrationTypes: []guildkit.InstallationContext{5}}, "integration_types[0]", "installation context"},
		{"bad context", guildkit.CommandCreateParams{Name: "x", Description: "d", Contexts: []guildkit.InteractionContextType{7}}, "contexts[0]", "interaction context"},
		{"empty contexts", guildkit.CommandCreateParams{Name: "x", Description: "d", Contexts: []guildkit.InteractionContextType{}}, "contexts", "at least 1"},
		{"26 options", chat(manyOpts(26)...), "options", "at most 25 options"},
		{"26 choices", chat(opt("a"), opt("b"), with(opt("c"), func(o *guildkit.CommandOptionDefinition) { o.Choices = manyChoices(26) })), "options[2].choices[25]", "at most 25 choices"},
		{"option name upper-case", chat(opt("Animal")), "options[0].name", "lower-case"},
		{"option description empty", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) { o.Description = "" })), "options[0].description", "required"},
		{"duplicate option", chat(opt("a"), opt("a")), "options[1].name", `"a" is the name of options[0] too`},
		{"required after optional", chat(opt("a"), with(opt("b"), func(o *guildkit.CommandOptionDefinition) { o.Required = true })), "options[1].required", "before optional"},
		{"choices with autocomplete", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) {
			o.Autocomplete, o.Choices = true, manyChoices(1)
		})), "options[0].autocomplete", "not both"},
		{"choice of the wrong type", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) {
			o.Choices = []guildkit.CommandOptionChoice{{Name: "one", Value: "1"}}
		})), "options[0].choices[0].value", "a number"},
		{"fractional integer choice", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) {
			o.Choices = []guildkit.CommandOptionChoice{{Name: "half", Value: 0.5}}
		})), "options[0].choices[0].value", "whole numbers"},
		{"string choice too long", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) {
			o.Choices = []guildkit.CommandOptionChoice{{Name: "x", Value: strings.Repeat("v", 101)}}
		})), "options[0].choices[0].value", "at most 100"},
		{"choice name empty", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) {
			o.Choices = []guildkit.CommandOptionChoice{{Value: "v"}}
		})), "options[0].choices[0].name", "required"},
		{"min_value on a string", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) { o.MinValue = guildkit.Some(1.0) })), "options[0].min_value", "INTEGER, NUMBER"},
		{"min_length on an integer", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) { o.MinLength = guildkit.Some(1) })), "options[0].min_length", "STRING"},
		{"choices on a boolean", chat(guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionBoolean, Name: "b", Description: "d", Choices: manyChoices(1)}), "options[0].choices", "STRING, INTEGER, NUMBER"},
		{"channel types on a role", chat(guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionRole, Name: "r", Description: "d", ChannelTypes: []guildkit.ChannelType{0}}), "options[0].channel_types", "CHANNEL"},
		{"unknown channel type", chat(guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionChannel, Name: "c", Description: "d", ChannelTypes: []guildkit.ChannelType{9}}), "options[0].channel_types[0]", "not a channel type"},
		{"file types on a string", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) { o.FileTypes = []string{"image"} })), "options[0].file_types", "ATTACHMENT"},
		{"bad file type", chat(guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionAttachment, Name: "f", Description: "d", FileTypes: []string{"pdf"}}), "options[0].file_types[0]", "extension"},
		{"11 file types", chat(guildkit.CommandOptionDefinition{Type: guildkit.CommandOptionAttachment, Name: "f", Description: "d",
			FileTypes: strings.Split(".a .b .c .d .e .f .g .h .i .j .k", " ")}), "options[0].file_types", "at most 10"},
		{"required on a subcommand", chat(with(sub("s"), func(o *guildkit.CommandOptionDefinition) { o.Required = true })), "options[0].required", "value options"},
		{"min above max", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) {
			o.MinValue, o.MaxValue = guildkit.Some(5.0), guildkit.Some(1.0)
		})), "options[0].max_value", "below min_value"},
		{"fractional integer bound", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) { o.MinValue = guildkit.Some(1.5) })), "options[0].min_value", "whole numbers"},
		{"integer bound out of range", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) { o.MaxValue = guildkit.Some(1e16) })), "options[0].max_value", "2^53-1"},
		{"max_length 0", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) { o.MaxLength = guildkit.Some(0) })), "options[0].max_length", "1-6000"},
		{"min_length 6001", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) { o.MinLength = guildkit.Some(6001) })), "options[0].min_length", "0-6000"},
		{"min_length above max_length", chat(with(opt("a"), func(o *guildkit.CommandOptionDefinition) {
			o.MinLength, o.MaxLength = guildkit.Some(5), guildkit.Some(2)
		})), "options[0].max_length", "below min_length"},
		{"choice outside the bounds", chat(with(intOpt, func(o *guildkit.CommandOptionDefinition) {
			o.MaxValue, o.Choices = guildkit.Some(3.0), []guildkit.CommandOptionChoice{{Name: "ten", Value: 10}}
		})), "options[0].choices[0].value", "above max_value"},
		{"subcommands and parameters mixed", chat(sub("s"), opt("a")), "options", "not both"},
		{"group in a group", chat(group("g", group("h"))), "options[0].options[0].type", "subcommands only"},
		{"group in a subcommand", chat(sub("s", group("g"))), "options[0].options[0].type", "parameters only"},
		{"subcommand in a subcommand", chat(sub("s", sub("t"))), "options[0].options[0].type", "parameters only"},
		{"parameter in a group", chat(group("g", opt("a"))), "options[0].options[0].type", "subcommands only"},
		{"26 parameters in a grouped subcommand", chat(group("g", sub("s", manyOpts(26)...))), "options[0].options[0].options", "at most 25"},
		{"localized option name clashes", chat(opt("a"), with(opt("b"), func(o *guildkit.CommandOptionDefinition) { o.NameLocalizations = map[string]string{"fr": "a"} })),
			"options[1].name_localizations.fr", "options[0]"},
		{"over 8000 characters", chat(huge...), "", "at most 8000"},
		{"entry point in a guild", guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypePrimaryEntryPoint), Name: "Launch"}, "type", "global only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int32
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write([]byte(`{}`))
			}))
			defer ts.Close()
			c, err := guildkit.New(guildkit.BotToken("t"), guildkit.WithBaseURL(ts.URL))
			require.NoError(t, err)
			cmd := tt.cmd
			create := c.Commands.Create
			if tt.name == "entry point in a guild" {
				create = func(ctx context.Context, app guildkit.Snowflake, p *guildkit.CommandCreateParams, opts ...guildkit.RequestOption) (*guildkit.Command, bool, error) {
					return c.Commands.CreateGuild(ctx, app, 2, p, opts...)
				}
			}
			_, _, err = create(t.Context(), 1, &cmd)
			var ve *guildkit.ValidationError
			require.ErrorAs(t, err, &ve)
			found := false
			for _, p := range ve.Problems {
				if p.Path == tt.path && strings.Contains(p.Message, tt.says) {
					found = true
				}
			}
			assert.True(t, found, "no problem at %q saying %q in %v", tt.path, tt.says, ve.Problems)
			assert.Zero(t, hits.Load(), "nothing is sent")
		})
	}
}

// TestCommandValidationAccepts: what the rules allow.
func TestCommandValidationAccepts(t *testing.T) {
	t.Parallel()
	for name, cmd := range map[string]guildkit.CommandCreateParams{
		"cjk":         {Name: "生日", Description: "d"},
		"greek":       {Name: "γενέθλια", Description: "d"},
		"apostrophe":  {Name: "don't", Description: "d"},
		"user":        {Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five"},
		"entry point": {Type: guildkit.Some(guildkit.CommandTypePrimaryEntryPoint), Name: "Launch", Handler: guildkit.Some(guildkit.EntryPointLaunchActivity)},
		"nesting": {Name: "permissions", Description: "d", Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionSubCommandGroup, Name: "user", Description: "d", Options: []guildkit.CommandOptionDefinition{
				{Type: guildkit.CommandOptionSubCommand, Name: "get", Description: "d", Options: []guildkit.CommandOptionDefinition{
					{Type: guildkit.CommandOptionUser, Name: "user", Description: "d", Required: true},
					{Type: guildkit.CommandOptionChannel, Name: "channel", Description: "d", ChannelTypes: []guildkit.ChannelType{0, 5}},
				}},
			}},
			{Type: guildkit.CommandOptionSubCommand, Name: "reset", Description: "d"},
		}},
		"bounds": {Name: "roll", Description: "d", Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionInteger, Name: "sides", Description: "d", Required: true, MinValue: guildkit.Some(2.0), MaxValue: guildkit.Some(100.0),
				Choices: []guildkit.CommandOptionChoice{{Name: "d6", Value: 6}, {Name: "d20", Value: int64(20)}}},
			{Type: guildkit.CommandOptionNumber, Name: "bonus", Description: "d", MinValue: guildkit.Some(-1.5)},
			{Type: guildkit.CommandOptionString, Name: "note", Description: "d", MinLength: guildkit.Some(0), MaxLength: guildkit.Some(6000), Autocomplete: true},
			{Type: guildkit.CommandOptionAttachment, Name: "file", Description: "d", FileTypes: []string{"image", ".PDF"}},
		}},
	} {
		assert.NoError(t, cmd.Validate(guildkit.CommandScopeGlobal), name)
	}
}

// TestCommandsBulkValidation: a bulk list's own rules.
func TestCommandsBulkValidation(t *testing.T) {
	t.Parallel()
	list := []guildkit.CommandCreateParams{
		{Name: "a", Description: "d"}, {Name: "a", Description: "d"},
		{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "a"}, // another type: allowed
	}
	err := guildkit.ValidateCommands(guildkit.CommandScopeGlobal, list)
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "[1].name", ve.Problems[0].Path)
	var users []guildkit.CommandCreateParams
	for i := range 16 {
		users = append(users, guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "U" + string(rune('a'+i))})
	}
	err = guildkit.ValidateCommands(guildkit.CommandScopeGuild, users)
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, ve.Error(), "at most 15 USER commands, got 16")
}

// TestCommandRoutes: every route against the in-memory server, with the
// platform's statuses.
func TestCommandRoutes(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c := srv.Client()
	ctx := t.Context()
	app := srv.Application().ID
	g := srv.AddGuild(guildkit.Guild{Name: "G"})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})

	blep := guildkit.CommandCreateParams{Name: "blep", Description: "Send a random adorable animal photo",
		NameLocalizations: map[string]string{"fr": "blep-fr"},
		Options: []guildkit.CommandOptionDefinition{{Type: guildkit.CommandOptionString, Name: "animal", Description: "The type of animal", Required: true,
			Choices: []guildkit.CommandOptionChoice{{Name: "Dog", Value: "animal_dog"}, {Name: "Cat", Value: "animal_cat"}}}}}
	cmd, created, err := c.Commands.Create(ctx, app, &blep)
	require.NoError(t, err)
	assert.True(t, created, "201 for a new command")
	assert.Equal(t, guildkit.CommandTypeChatInput, cmd.Type)
	assert.Equal(t, app, cmd.ApplicationID)
	assert.Equal(t, "animal_dog", cmd.Options[0].Choices[0].Value)
	again, created, err := c.Commands.Create(ctx, app, &blep)
	require.NoError(t, err)
	assert.False(t, created, "200 for a command of that name")
	assert.Equal(t, cmd.ID, again.ID)
	assert.Equal(t, cmd.Version, again.Version, "unchanged: same version")

	list, err := c.Commands.List(ctx, app, nil)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Nil(t, list[0].NameLocalizations, "the list leaves localizations out by default")
	list, err = c.Commands.List(ctx, app, nil, guildkit.WithHeader("X-Discord-Locale", "fr"))
	require.NoError(t, err)
	assert.Equal(t, guildkit.Some("blep-fr"), list[0].NameLocalized)
	list, err = c.Commands.List(ctx, app, &guildkit.CommandListParams{WithLocalizations: guildkit.Some(true)})
	require.NoError(t, err)
	assert.Equal(t, "blep-fr", list[0].NameLocalizations["fr"])

	got, err := c.Commands.Get(ctx, app, cmd.ID)
	require.NoError(t, err)
	assert.Equal(t, "blep", got.Name)
	edited, err := c.Commands.Edit(ctx, app, cmd.ID, &guildkit.CommandEditParams{Description: guildkit.Some("Animals")})
	require.NoError(t, err)
	assert.Equal(t, "Animals", edited.Description)
	assert.NotEqual(t, cmd.Version, edited.Version, "a change bumps the version")

	other, _, err := c.Commands.Create(ctx, app, &guildkit.CommandCreateParams{Name: "other", Description: "d"})
	require.NoError(t, err)
	_, err = c.Commands.Edit(ctx, app, other.ID, &guildkit.CommandEditParams{Name: guildkit.Some("blep")})
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeApplicationCommandExists, apiErr.Code)

	require.NoError(t, c.Commands.Delete(ctx, app, other.ID))
	_, err = c.Commands.Get(ctx, app, other.ID)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeUnknownApplicationCommand, apiErr.Code)

	// Guild commands: their own scope; a bulk overwrite replaces the list.
	gc, created, err := c.Commands.CreateGuild(ctx, app, g.ID, &guildkit.CommandCreateParams{Name: "blep", Description: "guild blep"})
	require.NoError(t, err)
	assert.True(t, created, "a guild command of a global one's name is another command")
	assert.Equal(t, guildkit.Some(g.ID), gc.GuildID)
	out, err := c.Commands.BulkOverwriteGuild(ctx, app, g.ID, []guildkit.CommandCreateParams{
		{Name: "blep", Description: "guild blep, again"},
		{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five"},
	})
	require.NoError(t, err)
	require.Len(t, out, 2)
	assert.Equal(t, gc.ID, out[0].ID, "matched by name and type: same id")
	assert.Equal(t, "", out[1].Description)
	_, err = c.Commands.GetGuild(ctx, app, g.ID, out[1].ID)
	require.NoError(t, err)
	_, err = c.Commands.EditGuild(ctx, app, g.ID, out[1].ID, &guildkit.CommandEditParams{Name: guildkit.Some("Wave")})
	require.NoError(t, err)
	require.NoError(t, c.Commands.DeleteGuild(ctx, app, g.ID, out[1].ID))
	listed, err := c.Commands.ListGuild(ctx, app, g.ID, nil)
	require.NoError(t, err)
	assert.Len(t, listed, 1)
	out, err = c.Commands.BulkOverwrite(ctx, app, nil)
	require.NoError(t, err)
	assert.Empty(t, out, "an empty list deletes every global command")

	// The application's id, as the bot finds it.
	me, err := c.Applications.GetCurrent(ctx)
	require.NoError(t, err)
	assert.Equal(t, app, me.ID)
	assert.Equal(t, srv.Application().PublicKeyHex(), me.VerifyKey)

	// Another application's commands are not the bot's to manage.
	_, err = c.Commands.List(ctx, app+1, nil)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
}

// TestCommandServerRules: what the server refuses, as the platform answers.
func TestCommandServerRules(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	app := srv.Application().ID
	post := func(path, body string) (int, string) {
		req, err := http.NewRequest("POST", srv.BaseURL()+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bot "+srv.Token())
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var b strings.Builder
		_, _ = ioCopy(&b, res)
		return res.StatusCode, b.String()
	}
	status, body := post("/applications/"+app.String()+"/commands", `{"name": "Bad", "description": "d", "options": [{"type": 3, "name": "a", "description": ""}]}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body, `"code":50035`)
	assert.Contains(t, body, `"name":{"_errors":[{"code":"APPLICATION_COMMAND_INVALID_NAME"`)
	assert.Contains(t, body, `"options":{"0":{"description":{"_errors"`)

	// A nil command is refused before anything is sent.
	_, _, err := srv.ClientAs(srv.BotID()).Commands.Create(t.Context(), app, nil)
	require.Error(t, err)
	var nilCommand *guildkit.ValidationError
	require.ErrorAs(t, err, &nilCommand, "a nil command is refused before anything is sent")

	// The SDK reads the nested errors back with their paths: an edit valid
	// alone (a context-menu name) but not on the CHAT_INPUT command it
	// changes, which only the server can tell.
	bot := srv.ClientAs(srv.BotID())
	edited, _, err := bot.Commands.Create(t.Context(), app, &guildkit.CommandCreateParams{Name: "edited", Description: "d"})
	require.NoError(t, err)
	_, err = bot.Commands.Edit(t.Context(), app, edited.ID, &guildkit.CommandEditParams{Name: guildkit.Some("Not Lower")})
	var formErr *guildkit.APIError
	require.ErrorAs(t, err, &formErr)
	assert.Equal(t, guildkit.CodeInvalidFormBody, formErr.Code)
	require.NotEmpty(t, formErr.Errors)
	assert.Equal(t, "name", formErr.Errors[0].Path)
	assert.Equal(t, "APPLICATION_COMMAND_INVALID_NAME", formErr.Errors[0].Code)

	// Limits: 15 USER commands, then 30032.
	c := srv.Client()
	for i := range 15 {
		_, _, err := c.Commands.Create(t.Context(), app, &guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "U" + string(rune('a'+i))})
		require.NoError(t, err)
	}
	_, _, err = c.Commands.Create(t.Context(), app, &guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "One more"})
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeMaxApplicationCommands, apiErr.Code)
	// A bulk list naming one command twice: 50035 on the second entry.
	status, body = post("/applications/"+app.String()+"/commands", `{}`)
	assert.Equal(t, http.StatusBadRequest, status)
	req, _ := http.NewRequest("PUT", srv.BaseURL()+"/applications/"+app.String()+"/commands", strings.NewReader(`[{"name":"a","description":"d"},{"name":"a","description":"d"}]`))
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var b strings.Builder
	_, _ = ioCopy(&b, res)
	res.Body.Close()
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Contains(t, b.String(), `"1":{"name":{"_errors":[{"code":"APPLICATION_COMMANDS_DUPLICATE_NAME"`)
	_ = body

	// 200 creates a day in a scope: a bulk overwrite counts its new
	// commands.
	g := srv.AddGuild(guildkit.Guild{Name: "Daily"})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
	batch := func(prefix string) []guildkit.CommandCreateParams {
		var out []guildkit.CommandCreateParams
		for i := range 100 {
			out = append(out, guildkit.CommandCreateParams{Name: prefix + strconv.Itoa(i), Description: "d"})
		}
		return out
	}
	_, err = c.Commands.BulkOverwriteGuild(t.Context(), app, g.ID, batch("a"))
	require.NoError(t, err)
	_, err = c.Commands.BulkOverwriteGuild(t.Context(), app, g.ID, batch("b"))
	require.NoError(t, err, "200 creates today")
	_, err = c.Commands.BulkOverwriteGuild(t.Context(), app, g.ID, batch("a")[:1])
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeMaxDailyCommandCreates, apiErr.Code, "the 201st create")
	_, err = c.Commands.BulkOverwriteGuild(t.Context(), app, g.ID, batch("b")[:1])
	require.NoError(t, err, "a command that exists is no create")
}

func ioCopy(b *strings.Builder, res *http.Response) (int, error) {
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	return b.Write(data)
}

// The ledger calls of the command routes: each reaches the in-memory
// server on its route (an unknown command id answers 404; the route is
// what is checked).
var (
	_ = registerLedger("Get Global Application Commands", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.List(ctx, srv.Application().ID, nil)
		return err
	})
	_ = registerLedger("Create Global Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, err := c.Commands.Create(ctx, srv.Application().ID, &guildkit.CommandCreateParams{Name: "x", Description: "d"})
		return err
	})
	_ = registerLedger("Get Global Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.Get(ctx, srv.Application().ID, 1)
		return err
	})
	_ = registerLedger("Edit Global Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.Edit(ctx, srv.Application().ID, 1, &guildkit.CommandEditParams{Description: guildkit.Some("d")})
		return err
	})
	_ = registerLedger("Delete Global Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		return c.Commands.Delete(ctx, srv.Application().ID, 1)
	})
	_ = registerLedger("Bulk Overwrite Global Application Commands", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.BulkOverwrite(ctx, srv.Application().ID, nil)
		return err
	})
	_ = registerLedger("Get Guild Application Commands", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.ListGuild(ctx, srv.Application().ID, 1, nil)
		return err
	})
	_ = registerLedger("Create Guild Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, err := c.Commands.CreateGuild(ctx, srv.Application().ID, 1, &guildkit.CommandCreateParams{Name: "x", Description: "d"})
		return err
	})
	_ = registerLedger("Get Guild Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.GetGuild(ctx, srv.Application().ID, 1, 1)
		return err
	})
	_ = registerLedger("Edit Guild Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.EditGuild(ctx, srv.Application().ID, 1, 1, &guildkit.CommandEditParams{Description: guildkit.Some("d")})
		return err
	})
	_ = registerLedger("Delete Guild Application Command", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		return c.Commands.DeleteGuild(ctx, srv.Application().ID, 1, 1)
	})
	_ = registerLedger("Get Current Bot Application Information", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Applications.GetCurrent(ctx)
		return err
	})
	_ = registerLedger("Bulk Overwrite Guild Application Commands", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.BulkOverwriteGuild(ctx, srv.Application().ID, 1, nil)
		return err
	})
)

// TestCommandEmptyContexts: an empty, non-nil contexts list is refused
// before anything is sent, on create, edit and bulk overwrite: omitted on
// the wire it would mean every context, the opposite of what was asked.
func TestCommandEmptyContexts(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("nothing may be sent: %s %s", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusTeapot)
	}))
	defer ts.Close()
	c, err := guildkit.New(guildkit.BotToken("t"), guildkit.WithBaseURL(ts.URL))
	require.NoError(t, err)
	refused := func(err error, path string) {
		t.Helper()
		var ve *guildkit.ValidationError
		require.ErrorAs(t, err, &ve)
		for _, p := range ve.Problems {
			if p.Path == path && strings.Contains(p.Message, "at least 1") {
				return
			}
		}
		t.Errorf("no problem at %q in %v", path, ve.Problems)
	}
	empty := []guildkit.InteractionContextType{}
	_, _, err = c.Commands.Create(t.Context(), 1, &guildkit.CommandCreateParams{Name: "x", Description: "d", Contexts: empty})
	refused(err, "contexts")
	_, err = c.Commands.Edit(t.Context(), 1, 2, &guildkit.CommandEditParams{Contexts: guildkit.Some(empty)})
	refused(err, "contexts")
	_, err = c.Commands.BulkOverwrite(t.Context(), 1, []guildkit.CommandCreateParams{{Name: "x", Description: "d", Contexts: empty}})
	refused(err, "[0].contexts")
	assert.NoError(t, (&guildkit.CommandCreateParams{Name: "x", Description: "d"}).Validate(guildkit.CommandScopeGlobal), "nil contexts: every context")
}
