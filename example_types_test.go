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

// An Opt has three states; Get, Or, IsSet, IsNull and IsZero tell them
// apart.
func ExampleOpt() {
	for _, o := range []guildkit.Opt[string]{
		guildkit.Some("bob"),    // send a value
		guildkit.Null[string](), // send null
		{},                      // the zero Opt: leave the field out
	} {
		v, ok := o.Get()
		fmt.Printf("%-9v IsSet=%-5v IsNull=%-5v IsZero=%-5v Get=(%q, %v) Or=%q\n",
			o, o.IsSet(), o.IsNull(), o.IsZero(), v, ok, o.Or("default"))
	}
	// Output:
	// bob       IsSet=true  IsNull=false IsZero=false Get=("bob", true) Or="bob"
	// null      IsSet=false IsNull=true  IsZero=false Get=("", false) Or="default"
	// <omitted> IsSet=false IsNull=false IsZero=true  Get=("", false) Or="default"
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

// A Snowflake carries its creation time; SnowflakeFromTime makes a cursor
// from a time.
func ExampleSnowflake() {
	id := guildkit.Snowflake(175928847299117063)
	fmt.Println(id, id.IsZero())
	fmt.Println(id.Time().Format(time.RFC3339Nano))

	after := guildkit.SnowflakeFromTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println(after.Time().Format(time.DateOnly), after > id)
	// Output:
	// 175928847299117063 false
	// 2016-04-30T11:18:25.796Z
	// 2024-01-01 true
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

// A request the client can tell is wrong is not sent: the error lists every
// problem, one a line, each with its path and a code from package wire.
func ExampleValidationError() {
	client, _ := guildkit.New(guildkit.BotToken("my-bot-token"), guildkit.WithBaseURL("https://chat.example.com/api/v10"))

	_, err := client.Roles.Create(context.Background(), 1, &guildkit.RoleCreateParams{
		Name:  guildkit.Some(""),
		Color: guildkit.Some(0x1000000),
	})
	fmt.Println(err)

	var ve *guildkit.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s %s\n", p.Path, p.Code)
		}
	}
	// errors.As reaches the first problem too; its Code is one of the
	// wire.Code... constants.
	var fe guildkit.FieldError
	fmt.Println(errors.As(err, &fe), fe.Path, fe.Code == wire.CodeRange)
	// Output:
	// guildkit: invalid request, 2 problems:
	// 	color: an RGB value 0-0xFFFFFF, got 16777216
	// 	name: an empty name: leave Name unset for the default "new role"
	// color range
	// name required
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
