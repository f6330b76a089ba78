// Command prune-report shows how many members a prune would remove, for
// several inactivity periods and with members of some roles included, and
// then prunes.
//
// With no GUILDKIT_TOKEN set it runs against the in-memory server from
// guildkittest, seeded with members inactive for different periods, some
// holding roles:
//
//	go run ./examples/prune-report
//
// Against a real deployment it prints the report for the guild's roles and
// prunes only when GUILDKIT_PRUNE_DAYS names the period (1-30); the roles
// whose members it may prune are those in the report's last column:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_GUILD_ID=123 go run ./examples/prune-report
//	GUILDKIT_BASE_URL=... GUILDKIT_TOKEN=... GUILDKIT_GUILD_ID=123 GUILDKIT_PRUNE_DAYS=30 go run ./examples/prune-report
package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// periods are the inactivity periods of the report, in days.
var periods = []int{1, 7, 14, 30}

// run does the work of the program, writing to out and reading its settings
// through getenv, so that a test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	client, guildID, pruneDays, cleanup, err := connect(out, getenv)
	if err != nil {
		return err
	}
	defer cleanup()

	// The roles a prune may include: every role but @everyone (whose id is
	// the guild's) and roles managed by an integration, in position order.
	all, err := client.Roles.List(ctx, guildID)
	if err != nil {
		return err
	}
	var roles []guildkit.Role
	for _, r := range all {
		if r.ID != guildID && !r.Managed {
			roles = append(roles, r)
		}
	}
	slices.SortFunc(roles, func(a, b guildkit.Role) int { return cmp.Compare(a.Position, b.Position) })

	// Columns: no role included, then one more role included per column.
	// A member is counted when inactive and all of its roles are included.
	columns := [][]guildkit.Role{nil}
	for i := range roles {
		columns = append(columns, roles[:i+1])
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "inactive for\troles included: none")
	for _, c := range columns[1:] {
		fmt.Fprintf(tw, "\t%s", names(c))
	}
	fmt.Fprintln(tw)
	for _, days := range periods {
		unit := "days"
		if days == 1 {
			unit = "day"
		}
		fmt.Fprintf(tw, "%d %s", days, unit)
		for _, c := range columns {
			n, err := client.Members.PruneCount(ctx, guildID, &guildkit.MemberPruneCountParams{
				Days: guildkit.Some(days), IncludeRoles: ids(c),
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "\t%d", n)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	if pruneDays == 0 {
		fmt.Fprintln(out, "not pruning: set GUILDKIT_PRUNE_DAYS to prune")
		return nil
	}
	include := columns[len(columns)-1]
	pruned, err := client.Members.Prune(ctx, guildID, &guildkit.MemberPruneParams{
		Days: guildkit.Some(pruneDays), IncludeRoles: guildkit.Some(ids(include)),
	}, guildkit.WithReason(fmt.Sprintf("inactive for %d days", pruneDays)))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "pruned %d member(s) inactive for %d days, roles included: %s\n", *pruned, pruneDays, names(include))
	left, err := client.Members.PruneCount(ctx, guildID, &guildkit.MemberPruneCountParams{
		Days: guildkit.Some(pruneDays), IncludeRoles: ids(include),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "a second prune would remove %d\n", left)
	return nil
}

func ids(roles []guildkit.Role) []guildkit.Snowflake {
	var out []guildkit.Snowflake
	for _, r := range roles {
		out = append(out, r.ID)
	}
	return out
}

func names(roles []guildkit.Role) string {
	if len(roles) == 0 {
		return "none"
	}
	var out []string
	for _, r := range roles {
		out = append(out, r.Name)
	}
	return strings.Join(out, ", ")
}

// connect returns a client, the guild, and the prune period (0: do not
// prune): the deployment named by the environment, or an in-memory server
// with a seeded guild, which it prunes at 14 days.
func connect(out io.Writer, getenv func(string) string) (*guildkit.Client, guildkit.Snowflake, int, func(), error) {
	token := getenv("GUILDKIT_TOKEN")
	if token == "" {
		fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server")
		srv := guildkittest.New()
		g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild", OwnerID: srv.BotID()})
		lurker := srv.AddRole(g.ID, guildkit.Role{Name: "Lurker", Position: 1})
		regular := srv.AddRole(g.ID, guildkit.Role{Name: "Regular", Position: 2})
		now := srv.Now()
		for _, m := range []struct {
			name  string
			idle  int // days since last active
			roles []guildkit.Snowflake
		}{
			{"ada", 0, nil},
			{"bob", 3, nil},
			{"cyd", 10, nil},
			{"dee", 20, []guildkit.Snowflake{lurker.ID}},
			{"eve", 40, nil},
			{"fay", 40, []guildkit.Snowflake{regular.ID}},
			{"gus", 40, []guildkit.Snowflake{lurker.ID, regular.ID}},
		} {
			mem := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: m.name}, Roles: m.roles})
			srv.SetLastActive(g.ID, mem.User.ID, now.AddDate(0, 0, -m.idle))
		}
		return srv.Client(), g.ID, 14, srv.Close, nil
	}
	guildID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_GUILD_ID"))
	if err != nil {
		return nil, 0, 0, nil, fmt.Errorf("GUILDKIT_GUILD_ID: %w", err)
	}
	days := 0
	if s := getenv("GUILDKIT_PRUNE_DAYS"); s != "" {
		if days, err = strconv.Atoi(s); err != nil || days < 1 || days > 30 {
			return nil, 0, 0, nil, fmt.Errorf("GUILDKIT_PRUNE_DAYS: want 1-30, got %q", s)
		}
	}
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
	if err != nil {
		return nil, 0, 0, nil, err
	}
	return client, guildID, days, func() {}, nil
}
