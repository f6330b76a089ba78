package interactions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// writes counts the bulk overwrites the server received.
func writes(srv *guildkittest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == "PUT" && strings.HasSuffix(r.Route, "/commands") {
			n++
		}
	}
	return n
}

func requests(srv *guildkittest.Server) int { return len(srv.Requests()) }

// TestSync: the first sync writes, an unchanged one writes nothing, a
// changed option writes once, a command no longer declared is removed.
func TestSync(t *testing.T) {
	t.Parallel()
	for _, guild := range []bool{false, true} {
		t.Run(fmt.Sprint("guild=", guild), func(t *testing.T) {
			t.Parallel()
			l := newLoop(t)
			ctx := t.Context()
			app := l.srv.Application().ID
			var guildID guildkit.Snowflake
			if guild {
				gs := l.srv.AddGuild(guildkit.Guild{Name: "Synced"})
				l.srv.AddMember(gs.ID, guildkit.Member{User: &guildkit.User{ID: l.srv.BotID()}})
				guildID = gs.ID
			}
			declare := func(h *interactions.Handler, maxSides float64) {
				noop := func(context.Context, *interactions.Request) error { return nil }
				h.Command(guildkit.CommandCreateParams{Name: "roll", Description: "Roll a die",
					NameLocalizations: map[string]string{"fr": "lancer"},
					Options: []guildkit.CommandOptionDefinition{
						{Type: guildkit.CommandOptionInteger, Name: "sides", Description: "How many sides", Required: true,
							MinValue: guildkit.Some(2.0), MaxValue: guildkit.Some(maxSides)},
						{Type: guildkit.CommandOptionString, Name: "label", Description: "What for",
							Choices: []guildkit.CommandOptionChoice{{Name: "Attack", Value: "attack"}, {Name: "Luck", Value: "luck"}}},
					}}, noop)
				h.Command(guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five"}, noop)
			}
			newHandler := func() *interactions.Handler {
				h, err := interactions.NewHandler(l.srv.Application().PublicKeyHex(), l.srv.Client())
				require.NoError(t, err)
				return h
			}
			h1 := newHandler()
			declare(h1, 100)
			res, err := h1.Sync(ctx, app, guildID)
			require.NoError(t, err)
			assert.True(t, res.Wrote)
			assert.Equal(t, []string{"roll", "USER High Five"}, res.Added)
			assert.Len(t, res.Commands, 2)
			assert.Equal(t, 1, writes(l.srv), "the first sync writes")

			// The next start: same declarations, a new Handler.
			h2 := newHandler()
			declare(h2, 100)
			before := requests(l.srv)
			res, err = h2.Sync(ctx, app, guildID)
			require.NoError(t, err)
			assert.False(t, res.Wrote)
			assert.Equal(t, "unchanged", res.String())
			assert.Equal(t, []string{"roll", "USER High Five"}, res.Unchanged)
			assert.Equal(t, 1, writes(l.srv), "an unchanged sync writes nothing")
			assert.Equal(t, before+1, requests(l.srv), "one read")

			// A changed option: one write, then nothing.
			h3 := newHandler()
			declare(h3, 20)
			res, err = h3.Sync(ctx, app, guildID)
			require.NoError(t, err)
			assert.Equal(t, []string{"roll"}, res.Changed)
			assert.Equal(t, 2, writes(l.srv), "a changed option writes once")
			res, err = h3.Sync(ctx, app, guildID)
			require.NoError(t, err)
			assert.False(t, res.Wrote)
			assert.Equal(t, 2, writes(l.srv))
			registered := l.srv.Commands(guildID)
			require.Len(t, registered, 2)
			assert.Equal(t, guildkit.Some(20.0), registered[0].Options[0].MaxValue)

			// A command no longer declared is removed.
			h4 := newHandler()
			h4.Command(guildkit.CommandCreateParams{Name: "roll", Description: "Roll a die"}, func(context.Context, *interactions.Request) error { return nil })
			res, err = h4.Sync(ctx, app, guildID)
			require.NoError(t, err)
			assert.Equal(t, []string{"USER High Five"}, res.Removed)
			assert.Equal(t, []string{"roll"}, res.Changed)
			assert.Len(t, l.srv.Commands(guildID), 1)
		})
	}
}

// TestSyncRefusesInvalid: an invalid declaration fails before anything is
// sent, with its path.
func TestSyncRefusesInvalid(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	l.h.Command(guildkit.CommandCreateParams{Name: "ok", Description: "Fine"}, func(context.Context, *interactions.Request) error { return nil })
	l.h.Command(guildkit.CommandCreateParams{Name: "Bad", Description: "Upper-case"}, func(context.Context, *interactions.Request) error { return nil })
	before := requests(l.srv)
	_, err := l.h.Sync(t.Context(), l.srv.Application().ID, 0)
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "[1].name", ve.Problems[0].Path)
	assert.Equal(t, before, requests(l.srv), "nothing sent")
	assert.Panics(t, func() {
		l.h.Command(guildkit.CommandCreateParams{Name: "ok", Description: "Twice"}, func(context.Context, *interactions.Request) error { return nil })
	}, "a name declared twice")
}

// TestTypedOptions: a handler reads its options typed, by name, inside a
// group and a subcommand, with members, roles, channels and attachments
// from the resolved data.
func TestTypedOptions(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	ctx := t.Context()
	assert.Empty(t, l.srv.Commands(0), "none yet")
	g := l.guildID
	role := l.srv.AddRole(g, guildkit.Role{Name: "Artist"})
	voice := l.srv.AddChannel(g, guildkit.Channel{Name: "voice", Type: guildkit.ChannelTypeGuildVoice})
	decl := guildkit.CommandCreateParams{Name: "admin", Description: "Administration", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionSubCommandGroup, Name: "member", Description: "Members", Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionSubCommand, Name: "grant", Description: "Grant a role", Options: []guildkit.CommandOptionDefinition{
				{Type: guildkit.CommandOptionUser, Name: "who", Description: "Who", Required: true},
				{Type: guildkit.CommandOptionRole, Name: "role", Description: "Which role", Required: true},
				{Type: guildkit.CommandOptionInteger, Name: "days", Description: "For how long", MinValue: guildkit.Some(1.0), MaxValue: guildkit.Some(30.0)},
				{Type: guildkit.CommandOptionNumber, Name: "weight", Description: "Weight"},
				{Type: guildkit.CommandOptionBoolean, Name: "notify", Description: "Tell them"},
				{Type: guildkit.CommandOptionChannel, Name: "where", Description: "Where", ChannelTypes: []guildkit.ChannelType{guildkit.ChannelTypeGuildVoice}},
				{Type: guildkit.CommandOptionString, Name: "note", Description: "Why", MaxLength: guildkit.Some(20)},
				{Type: guildkit.CommandOptionAttachment, Name: "proof", Description: "Proof", FileTypes: []string{"image"}},
			}},
		}},
		{Type: guildkit.CommandOptionSubCommand, Name: "reset", Description: "Reset"},
	}}
	got := make(chan string, 1)
	l.h.Command(decl, func(ctx context.Context, r *interactions.Request) error {
		o := r.Options()
		if o.Subcommand() == "reset" {
			got <- "reset " + fmt.Sprint(o.Names())
			return r.ReplyEphemeral(ctx, "done")
		}
		who, _ := o.Member("who")
		user, _ := o.User("who")
		rl, _ := o.Role("role")
		days, _ := o.Int("days")
		weight, _ := o.Number("weight")
		notify, _ := o.Bool("notify")
		where, _ := o.Channel("where")
		note, _ := o.String("note")
		proof, _ := o.Attachment("proof")
		_, missing := o.String("missing")
		got <- fmt.Sprintf("%s|%s|%s|%s|%d|%v|%v|%s|%s|%s|%v|%v", o.Subcommand(), who.User.Username, user.Username, rl.Name, days, weight, notify,
			where.Name, note, proof.Filename, missing, o.Names())
		return r.ReplyEphemeral(ctx, "done")
	})
	_, err := l.h.Sync(ctx, l.srv.Application().ID, g)
	require.NoError(t, err)

	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	run := guildkittest.CommandRun{UserID: l.ada, ChannelID: l.ch, Name: "admin", Options: []guildkit.CommandOption{{Name: "member", Options: []guildkit.CommandOption{
		{Name: "grant", Options: []guildkit.CommandOption{
			{Name: "who", Value: raw(l.bob.String())}, {Name: "role", Value: raw(role.ID.String())},
			{Name: "days", Value: raw(7)}, {Name: "weight", Value: raw(1.5)}, {Name: "notify", Value: raw(true)},
			{Name: "where", Value: raw(voice.ID.String())}, {Name: "note", Value: raw("welcome")}, {Name: "proof"},
		}},
	}}}, Files: map[string]guildkit.File{"proof": {Name: "proof.png", Reader: strings.NewReader("png")}}}
	out, err := l.srv.Run(ctx, run)
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): done", out.String())
	assert.Equal(t, "member grant|bob|bob|Artist|7|1.5|true|voice|welcome|proof.png|false|[who role days weight notify where note proof]", <-got)

	// The client's checks: each refused before anything is delivered.
	delivered := len(l.srv.Deliveries())
	bad := func(name string, mutate func(opts []guildkit.CommandOption) []guildkit.CommandOption, says string) {
		t.Helper()
		r := run
		leaf := append([]guildkit.CommandOption(nil), run.Options[0].Options[0].Options...)
		r.Options = []guildkit.CommandOption{{Name: "member", Options: []guildkit.CommandOption{{Name: "grant", Options: mutate(leaf)}}}}
		_, err := l.srv.Run(ctx, r)
		require.ErrorIs(t, err, guildkittest.ErrRefused, name)
		assert.Contains(t, err.Error(), says, name)
	}
	set := func(name string, v json.RawMessage) func([]guildkit.CommandOption) []guildkit.CommandOption {
		return func(opts []guildkit.CommandOption) []guildkit.CommandOption {
			for i := range opts {
				if opts[i].Name == name {
					opts[i].Value = v
				}
			}
			return opts
		}
	}
	bad("required missing", func(opts []guildkit.CommandOption) []guildkit.CommandOption { return opts[1:] }, `option "who" is required`)
	bad("unknown option", func(opts []guildkit.CommandOption) []guildkit.CommandOption {
		return append(opts, guildkit.CommandOption{Name: "nope", Value: raw(1)})
	}, `no option "nope"`)
	bad("above the maximum", set("days", raw(31)), "above its maximum 30")
	bad("not a whole number", set("days", raw(1.5)), "whole number")
	bad("string for a number", set("weight", raw("1")), "takes a number")
	bad("too long", set("note", raw(strings.Repeat("x", 21))), "0 to 20 characters")
	bad("not a member", set("who", raw("123")), "not a member")
	bad("not a role", set("role", raw(l.bob.String())), "not a role")
	bad("wrong channel type", set("where", raw(l.ch.String())), "not among the option's channel types")
	bad("not a boolean", set("notify", raw("yes")), "true or false")
	bad("wrong type given", func(opts []guildkit.CommandOption) []guildkit.CommandOption {
		opts[0].Type = guildkit.CommandOptionString
		return opts
	}, "is a USER, not a STRING")
	r := run
	r.Files = map[string]guildkit.File{"proof": {Name: "proof.pdf", Reader: strings.NewReader("pdf")}}
	_, err = l.srv.Run(ctx, r)
	require.ErrorIs(t, err, guildkittest.ErrRefused)
	assert.Contains(t, err.Error(), "file types")
	_, err = l.srv.RunCommand(ctx, l.ada, l.ch, "admin")
	require.ErrorIs(t, err, guildkittest.ErrRefused, "the bare base command is never offered")
	_, err = l.srv.RunCommand(ctx, l.ada, l.ch, "admin", guildkit.CommandOption{Name: "member", Options: []guildkit.CommandOption{{Name: "revoke"}}})
	require.ErrorIs(t, err, guildkittest.ErrRefused)
	assert.Equal(t, delivered, len(l.srv.Deliveries()), "nothing refused was delivered")

	// A subcommand without parameters.
	out, err = l.srv.RunCommand(ctx, l.ada, l.ch, "admin", guildkit.CommandOption{Name: "reset"})
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): done", out.String())
	assert.Equal(t, "reset []", <-got)
}

// TestAutocompleteEndToEnd: the server sends the focused option's typed
// text (numbers as text), the handler suggests choices of the option's
// type, and the user sees them; a suggestion of the wrong type or more than
// 25 are refused before anything is sent.
func TestAutocompleteEndToEnd(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	ctx := t.Context()
	fruits := []string{"apple", "apricot", "banana", "blueberry", "cherry"}
	l.h.Command(guildkit.CommandCreateParams{Name: "fruit", Description: "Pick a fruit", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionString, Name: "name", Description: "Fruit", Required: true, Autocomplete: true},
		{Type: guildkit.CommandOptionInteger, Name: "count", Description: "How many", Autocomplete: true},
	}}, func(ctx context.Context, r *interactions.Request) error {
		name, _ := r.Options().String("name")
		return r.ReplyEphemeral(ctx, "you picked "+name)
	})
	suggestErr := make(chan error, 1)
	l.h.HandleAutocomplete("fruit", func(ctx context.Context, r *interactions.Request) error {
		name, typ, text, _ := r.Options().Focused()
		if name == "count" {
			if text == "99" {
				err := r.Suggest(ctx, guildkit.CommandOptionChoice{Name: "not a number", Value: "x"})
				suggestErr <- err
				return r.Suggest(ctx)
			}
			return r.Suggest(ctx, guildkit.CommandOptionChoice{Name: text + " (" + typ.String() + ")", Value: 3})
		}
		var out []guildkit.CommandOptionChoice
		for _, f := range fruits {
			if strings.HasPrefix(f, text) {
				out = append(out, guildkit.CommandOptionChoice{Name: f, Value: f})
			}
		}
		return r.Suggest(ctx, out...)
	})
	_, err := l.h.Sync(ctx, l.srv.Application().ID, 0)
	require.NoError(t, err)

	out, err := l.srv.Autocomplete(ctx, l.ada, l.ch, "fruit", guildkit.CommandOption{Name: "name", Value: json.RawMessage(`"ap"`), Focused: true})
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeAutocomplete, out.Kind)
	var names []string
	for _, c := range out.Response.Choices {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"apple", "apricot"}, names)

	out, err = l.srv.Autocomplete(ctx, l.ada, l.ch, "fruit", guildkit.CommandOption{Name: "name", Value: json.RawMessage(`"apple"`)},
		guildkit.CommandOption{Name: "count", Value: json.RawMessage(`12`), Focused: true})
	require.NoError(t, err)
	require.Len(t, out.Response.Choices, 1)
	assert.Equal(t, "12 (INTEGER)", out.Response.Choices[0].Name, "the focused number arrives as text")
	it := l.srv.Deliveries()
	require.NotEmpty(t, it)

	out, err = l.srv.Autocomplete(ctx, l.ada, l.ch, "fruit", guildkit.CommandOption{Name: "count", Value: json.RawMessage(`"99"`), Focused: true})
	require.NoError(t, err)
	assert.Empty(t, out.Response.Choices)
	var ve *guildkit.ValidationError
	require.ErrorAs(t, <-suggestErr, &ve)
	assert.Equal(t, "choices[0].value", ve.Problems[0].Path)

	// A suggestion does not bind: the user may run any value.
	out, err = l.srv.RunCommand(ctx, l.ada, l.ch, "fruit", guildkit.CommandOption{Name: "name", Value: json.RawMessage(`"durian"`)})
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): you picked durian", out.String())

	// The focused option must have autocomplete.
	_, err = l.srv.Autocomplete(ctx, l.ada, l.ch, "fruit", guildkit.CommandOption{Name: "nope", Value: json.RawMessage(`"x"`), Focused: true})
	require.ErrorIs(t, err, guildkittest.ErrRefused)

	many := make([]guildkit.CommandOptionChoice, 26)
	for i := range many {
		many[i] = guildkit.CommandOptionChoice{Name: "c", Value: "c"}
	}
	require.Error(t, guildkit.CheckChoices(guildkit.CommandOptionString, many))
}

// TestContextMenuCommands: USER and MESSAGE commands run on a member and
// a message, with the target resolved.
func TestContextMenuCommands(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	ctx := t.Context()
	l.h.Command(guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five"}, func(ctx context.Context, r *interactions.Request) error {
		id := r.Interaction.Command.TargetID.Or(0)
		u := r.Interaction.Resolved.Users[id]
		return r.ReplyEphemeral(ctx, "high five, "+u.Username)
	})
	l.h.Command(guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeMessage), Name: "Quote"}, func(ctx context.Context, r *interactions.Request) error {
		id := r.Interaction.Command.TargetID.Or(0)
		m := r.Interaction.Resolved.Messages[id]
		return r.ReplyEphemeral(ctx, "quoted: "+m.Content)
	})
	res, err := l.h.Sync(ctx, 0, 0) // 0: the client's own application, looked up
	require.NoError(t, err)
	require.Len(t, res.Commands, 2)
	assert.Equal(t, l.srv.Application().ID, res.Commands[0].ApplicationID)
	out, err := l.srv.RunUserCommand(ctx, l.ada, l.ch, "High Five", l.bob)
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): high five, bob", out.String())
	out, err = l.srv.RunMessageCommand(ctx, l.ada, "Quote", l.msg.ID)
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): quoted: Pick", out.String())
	_, err = l.srv.RunUserCommand(ctx, l.ada, l.ch, "Quote", l.bob)
	require.ErrorIs(t, err, guildkittest.ErrRefused, "Quote is a MESSAGE command")
	_, err = l.srv.RunUserCommand(ctx, l.ada, l.ch, "High Five", 12345)
	require.ErrorIs(t, err, guildkittest.ErrRefused, "not a member")
}

// ExampleHandler_Command declares a command beside its handler and syncs it
// at start: the first sync registers it, the next start finds nothing to
// write.
func ExampleHandler_Command() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Example"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	ctx := context.Background()

	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(),
		interactions.WithClock(srv), interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		fmt.Println(err)
		return
	}
	h.Command(guildkit.CommandCreateParams{
		Name:        "greet",
		Description: "Say hello",
		Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionString, Name: "name", Description: "Who to greet", Required: true, MaxLength: guildkit.Some(32)},
		},
	}, func(ctx context.Context, r *interactions.Request) error {
		name, _ := r.Options().String("name")
		return r.ReplyEphemeral(ctx, "Hello, "+name+"!")
	})
	srv.SetInteractionsHandler(h)

	for range 2 { // two starts of the bot
		res, err := h.Sync(ctx, srv.Application().ID, 0)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("sync:", res)
	}
	out, err := srv.RunCommand(ctx, ada.ID, ch.ID, "greet",
		guildkit.CommandOption{Name: "name", Value: json.RawMessage(`"Grace"`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// sync: added 1, changed 0, removed 0
	// sync: unchanged
	// message (ephemeral): Hello, Grace!
}
