package guildkittest

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

var webhookMentionRE = regexp.MustCompile(`<@(!|&)?(\d+)>|@everyone|@here`)

// buildMentions parses user, role and everyone mentions from text under the
// allowed mentions (nil: all allowed).
func (s *Server) buildMentions(gs *guildState, text string, am *guildkit.AllowedMentions) (users []guildkit.User, roles []guildkit.Snowflake, everyone bool) {
	users, roles = []guildkit.User{}, []guildkit.Snowflake{}
	allow := func(kind guildkit.AllowedMentionType, id guildkit.Snowflake) bool {
		if am == nil {
			return true
		}
		if slices.Contains(am.Parse, kind) {
			return true
		}
		switch kind {
		case guildkit.AllowedMentionUsers:
			return slices.Contains(am.Users, id)
		case guildkit.AllowedMentionRoles:
			return slices.Contains(am.Roles, id)
		}
		return false
	}
	for _, m := range webhookMentionRE.FindAllStringSubmatch(text, -1) {
		if m[2] == "" {
			everyone = everyone || allow(guildkit.AllowedMentionEveryone, 0)
			continue
		}
		id, err := guildkit.ParseSnowflake(m[2])
		if err != nil {
			continue
		}
		if m[1] == "&" {
			if _, ok := gs.roles[id]; ok && allow(guildkit.AllowedMentionRoles, id) && !slices.Contains(roles, id) {
				roles = append(roles, id)
			}
			continue
		}
		if u, ok := s.users[id]; ok && allow(guildkit.AllowedMentionUsers, id) &&
			!slices.ContainsFunc(users, func(x guildkit.User) bool { return x.ID == id }) {
			users = append(users, *u)
		}
	}
	return users, roles, everyone
}

// webhookComponentText gathers the content of every Text Display (type 10) in a
// component tree, for mentions of a Components V2 message.
func webhookComponentText(list components.List) string {
	raw, err := json.Marshal(list)
	if err != nil {
		return ""
	}
	var tree any
	if json.Unmarshal(raw, &tree) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(any)
	walk = func(n any) {
		switch x := n.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if t, _ := x["type"].(float64); t == 10 {
				if s, ok := x["content"].(string); ok {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(tree)
	return b.String()
}
