package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/seed012df1e9/guildkit"
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
