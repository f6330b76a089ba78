package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/wire"
)

// Opt has three states: absent (the zero Opt), null, and a value.
func ExampleOpt() {
	nick := guildkit.Some("Ada")
	v, ok := nick.Get()
	fmt.Println(v, ok, nick.IsSet())

	var absent guildkit.Opt[string]
	fmt.Println(absent.IsZero(), absent.Or("(keep the current nickname)"))

	cleared := guildkit.Null[string]()
	fmt.Println(cleared.IsNull(), cleared)
	// Output:
	// Ada true true
	// true (keep the current nickname)
	// true null
}

// A Snowflake carries the moment it was made.
func ExampleSnowflake() {
	id, err := guildkit.ParseSnowflake("175928847299117063")
	if err != nil {
		panic(err)
	}
	fmt.Println(id, id.Time().UTC().Format(time.RFC3339))

	_, err = guildkit.ParseSnowflake("12a")
	fmt.Println(err)
	// Output:
	// 175928847299117063 2016-04-30T11:18:25Z
	// guildkit: ParseSnowflake("12a"): not a snowflake, a decimal id below 2^64: invalid syntax
}

// A ValidationError lists every problem the client found before sending,
// each with its path.
func ExampleValidationError() {
	c, err := guildkit.New(guildkit.BotToken("token"), guildkit.WithBaseURL("https://chat.example.com/api/v10"))
	if err != nil {
		panic(err)
	}
	_, err = c.Members.Modify(context.Background(), 1, 2, &guildkit.MemberModifyParams{
		Nick:  guildkit.Some("a nickname far longer than the thirty-two characters allowed"),
		Roles: guildkit.Some([]guildkit.Snowflake{0}),
	})
	var v *guildkit.ValidationError
	if errors.As(err, &v) {
		for _, p := range v.Problems {
			fmt.Printf("%s (%s)\n", p.Path, p.Code)
		}
	}
	// Output:
	// nick (length)
	// roles[0] (required)
}

// A response field of type Opt tells an absent field from a null one.
func ExampleOpt_response() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	r := srv.AddRole(g.ID, guildkit.Role{Name: "plain", Position: 1})

	role, err := srv.Client().Roles.Get(context.Background(), g.ID, r.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The role has no emoji icon: the answer says null.
	emoji, ok := role.UnicodeEmoji.Get()
	fmt.Printf("%q %v %v\n", emoji, ok, role.UnicodeEmoji.IsNull())
	// Output: "" false true
}

func ExampleParseSnowflake() {
	id, err := guildkit.ParseSnowflake("175928847299117063")
	fmt.Println(id, err)

	_, err = guildkit.ParseSnowflake("12a")
	fmt.Println(err)
	fmt.Println(errors.Is(err, strconv.ErrSyntax))
	// Output:
	// 175928847299117063 <nil>
	// guildkit: ParseSnowflake("12a"): not a snowflake, a decimal id below 2^64: invalid syntax
	// true
}

// A ValidationError with several problems reads one a line; each is a
// FieldError with its path and a code from package wire, and errors.As
// reaches the first.
func ExampleFieldError() {
	client, _ := guildkit.New(guildkit.BotToken("my-bot-token"), guildkit.WithBaseURL("https://chat.example.com/api/v10"))

	_, err := client.Roles.Create(context.Background(), 1, &guildkit.RoleCreateParams{
		Name:  guildkit.Some(""),
		Color: guildkit.Some(0x1000000),
	})
	fmt.Println(err)

	// Code is one of the wire.Code... constants.
	var fe guildkit.FieldError
	fmt.Println(errors.As(err, &fe), fe.Path, fe.Code == wire.CodeRange)
	// Output:
	// guildkit: invalid request, 2 problems:
	// 	color: an RGB value 0-0xFFFFFF, got 16777216
	// 	name: an empty name: leave Name unset for the default "new role"
	// true color true
}

func ExampleChannelType() {
	for _, t := range []guildkit.ChannelType{guildkit.ChannelTypeGuildForum, guildkit.ChannelTypePublicThread, 99} {
		fmt.Println(t, t.Known(), t.IsThread())
	}
	// Output:
	// GUILD_FORUM true false
	// PUBLIC_THREAD true true
	// ChannelType(99) false false
}
