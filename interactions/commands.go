package interactions

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// Declaring commands: [Handler.Command] routes a command to its function
// and remembers its declaration, so one declaration gives both the route
// and the registration; [Handler.Sync] makes the platform's registered
// commands exactly the declared ones, writing only when they differ.

// Command declares the command def and registers fn for it (as
// [Handler.HandleCommand] does for def.Name): [Handler.Sync] registers the
// declared commands with the platform. def is checked when Sync runs (a
// [*guildkit.ValidationError] before anything is sent). Commands are routed
// by name whatever their type, so a USER or MESSAGE command needs a name
// of its own. Command panics on a nil fn or a name declared or handled
// twice, as http.ServeMux does.
func (h *Handler) Command(def guildkit.CommandCreateParams, fn HandlerFunc) {
	h.commands.add("command", def.Name, fn)
	h.declaredMu.Lock()
	defer h.declaredMu.Unlock()
	h.declared = append(h.declared, cloneParams(def))
}

// Commands returns the declared commands, in the order declared.
func (h *Handler) Commands() []guildkit.CommandCreateParams {
	h.declaredMu.Lock()
	defer h.declaredMu.Unlock()
	out := make([]guildkit.CommandCreateParams, len(h.declared))
	for i, d := range h.declared {
		out[i] = cloneParams(d)
	}
	return out
}

// cloneParams copies a declaration through JSON, so the caller's slices
// and maps are never shared.
func cloneParams(p guildkit.CommandCreateParams) guildkit.CommandCreateParams {
	b, err := json.Marshal(p)
	if err != nil {
		return p
	}
	var out guildkit.CommandCreateParams
	if json.Unmarshal(b, &out) != nil {
		return p
	}
	return out
}

// SyncResult says what [Handler.Sync] found and did. Names are the
// commands' names, with the type for context-menu commands ("USER High
// Five").
type SyncResult struct {
	Added     []string // declared, not registered
	Changed   []string // registered, but different from the declaration
	Removed   []string // registered, not declared
	Unchanged []string
	// Wrote reports whether Sync sent the bulk overwrite (only when
	// something was added, changed or removed).
	Wrote bool
	// Commands are the registered commands after the sync.
	Commands []guildkit.Command
}

// String sums the result up: "added 1, changed 0, removed 2" or
// "unchanged".
func (r *SyncResult) String() string {
	if !r.Wrote {
		return "unchanged"
	}
	return fmt.Sprintf("added %d, changed %d, removed %d", len(r.Added), len(r.Changed), len(r.Removed))
}

// Sync makes the application's registered commands exactly the declared
// ones, for the application applicationID (0: the client's own, read
// first from GET /oauth2/applications/@me): globally when guildID is 0,
// else in that guild (guild commands
// take effect at once; global ones reach clients as they refresh). It
// checks the declarations ([guildkit.ValidateCommands]: nothing is sent
// when one is invalid), lists what is registered (with localizations),
// compares each command by type and name semantically — ignoring what the
// platform fills (id, version, application, and the defaults of fields the
// declaration leaves out: integration types, contexts, dm_permission,
// default_permission, the entry point handler) — and sends one bulk
// overwrite only when something was added, changed or removed. An
// unchanged deploy costs one read and no write. The Handler's client must
// hold the bot's token.
func (h *Handler) Sync(ctx context.Context, applicationID, guildID guildkit.Snowflake) (*SyncResult, error) {
	decl := h.Commands()
	scope := guildkit.CommandScopeGlobal
	if guildID != 0 {
		scope = guildkit.CommandScopeGuild
	}
	if err := guildkit.ValidateCommands(scope, decl); err != nil {
		return nil, err
	}
	if applicationID == 0 {
		app, err := h.client.Applications.GetCurrent(ctx)
		if err != nil {
			return nil, fmt.Errorf("interactions: sync: reading the application's id: %w", err)
		}
		applicationID = app.ID
	}
	c := h.client.Commands
	params := &guildkit.CommandListParams{WithLocalizations: guildkit.Some(true)}
	var registered []guildkit.Command
	var err error
	if guildID == 0 {
		registered, err = c.List(ctx, applicationID, params)
	} else {
		registered, err = c.ListGuild(ctx, applicationID, guildID, params)
	}
	if err != nil {
		return nil, fmt.Errorf("interactions: sync: listing the registered commands: %w", err)
	}
	res := diffCommands(scope, decl, registered)
	if len(res.Added)+len(res.Changed)+len(res.Removed) == 0 {
		res.Commands = registered
		return res, nil
	}
	if guildID == 0 {
		res.Commands, err = c.BulkOverwrite(ctx, applicationID, decl)
	} else {
		res.Commands, err = c.BulkOverwriteGuild(ctx, applicationID, guildID, decl)
	}
	if err != nil {
		return nil, fmt.Errorf("interactions: sync: %w", err)
	}
	res.Wrote = true
	return res, nil
}

// commandKey names a command by type and name.
func commandKey(t guildkit.CommandType, name string) string {
	if t == guildkit.CommandTypeChatInput || t == 0 {
		return name
	}
	return t.String() + " " + name
}

// diffCommands compares the declared commands with the registered ones.
func diffCommands(scope guildkit.CommandScope, decl []guildkit.CommandCreateParams, registered []guildkit.Command) *SyncResult {
	res := &SyncResult{}
	byKey := map[string]*guildkit.Command{}
	for i := range registered {
		byKey[commandKey(registered[i].Type, registered[i].Name)] = &registered[i]
	}
	seen := map[string]bool{}
	for _, d := range decl {
		k := commandKey(d.Type.Or(guildkit.CommandTypeChatInput), d.Name)
		seen[k] = true
		r, ok := byKey[k]
		switch {
		case !ok:
			res.Added = append(res.Added, k)
		case !SameCommand(scope, d, r):
			res.Changed = append(res.Changed, k)
		default:
			res.Unchanged = append(res.Unchanged, k)
		}
	}
	for _, r := range registered {
		if k := commandKey(r.Type, r.Name); !seen[k] {
			res.Removed = append(res.Removed, k)
		}
	}
	slices.Sort(res.Removed)
	return res
}

// SameCommand reports whether the registered command r is what the
// declaration d asks for in scope: equal in every field the declaration
// controls, ignoring what the platform fills (id, version, application,
// guild) and, where d leaves them out, the platform's defaults of
// integration types, contexts, dm_permission, default_permission and the
// entry point handler. Absent and false are the same for nsfw, required
// and autocomplete; absent and null the same for default member
// permissions and localizations; file types compare case-insensitively.
func SameCommand(scope guildkit.CommandScope, d guildkit.CommandCreateParams, r *guildkit.Command) bool {
	want := canonical(scope, d)
	have := canonical(scope, r.Params())
	// Fields the platform fills when the declaration leaves them out.
	if d.IntegrationTypes == nil {
		have.IntegrationTypes = nil
	}
	if d.Contexts == nil {
		have.Contexts = nil
	}
	if !d.DMPermission.IsSet() || d.DMPermission.IsNull() {
		have.DMPermission = guildkit.Opt[bool]{}
	}
	if !d.DefaultPermission.IsSet() || d.DefaultPermission.IsNull() {
		have.DefaultPermission = guildkit.Opt[bool]{}
	}
	if !d.Handler.IsSet() {
		have.Handler = guildkit.Opt[guildkit.EntryPointHandler]{}
	}
	a, errA := json.Marshal(want)
	b, errB := json.Marshal(have)
	return errA == nil && errB == nil && string(a) == string(b)
}

// canonical is a declaration in one spelling of each meaning.
func canonical(scope guildkit.CommandScope, p guildkit.CommandCreateParams) guildkit.CommandCreateParams {
	p.Options = copyOptions(p.Options) // the rest is replaced, never written into
	p.ID = guildkit.Opt[guildkit.Snowflake]{}
	p.Type = guildkit.Some(p.Type.Or(guildkit.CommandTypeChatInput))
	if p.NSFW.Or(false) {
		p.NSFW = guildkit.Some(true)
	} else {
		p.NSFW = guildkit.Opt[bool]{}
	}
	if perms, ok := p.DefaultMemberPermissions.Get(); ok {
		p.DefaultMemberPermissions = guildkit.Some(perms)
	} else {
		p.DefaultMemberPermissions = guildkit.Opt[guildkit.Permissions]{}
	}
	if len(p.NameLocalizations) == 0 {
		p.NameLocalizations = nil
	}
	if len(p.DescriptionLocalizations) == 0 {
		p.DescriptionLocalizations = nil
	}
	if p.DMPermission.IsNull() {
		p.DMPermission = guildkit.Opt[bool]{}
	}
	if p.DefaultPermission.IsNull() {
		p.DefaultPermission = guildkit.Opt[bool]{}
	}
	if scope == guildkit.CommandScopeGuild {
		// A guild command keeps none of these (spec/commands.md §8).
		p.IntegrationTypes, p.Contexts, p.DMPermission = nil, nil, guildkit.Opt[bool]{}
	}
	p.Options = canonicalOptions(p.Options)
	return p
}

// copyOptions copies an option tree deeply enough for canonicalOptions to
// change it: the slices it writes into.
func copyOptions(opts []guildkit.CommandOptionDefinition) []guildkit.CommandOptionDefinition {
	if opts == nil {
		return nil
	}
	out := slices.Clone(opts)
	for i := range out {
		out[i].FileTypes = slices.Clone(out[i].FileTypes)
		out[i].Choices = slices.Clone(out[i].Choices)
		out[i].Options = copyOptions(out[i].Options)
	}
	return out
}

func canonicalOptions(opts []guildkit.CommandOptionDefinition) []guildkit.CommandOptionDefinition {
	if len(opts) == 0 {
		return nil
	}
	for i := range opts {
		o := &opts[i]
		if len(o.NameLocalizations) == 0 {
			o.NameLocalizations = nil
		}
		if len(o.DescriptionLocalizations) == 0 {
			o.DescriptionLocalizations = nil
		}
		for j, ft := range o.FileTypes {
			o.FileTypes[j] = strings.ToLower(ft)
		}
		if len(o.Choices) == 0 {
			o.Choices = nil
		}
		for j := range o.Choices {
			if len(o.Choices[j].NameLocalizations) == 0 {
				o.Choices[j].NameLocalizations = nil
			}
		}
		if len(o.ChannelTypes) == 0 {
			o.ChannelTypes = nil
		}
		o.Options = canonicalOptions(o.Options)
	}
	return opts
}

// Options returns the options the user gave the command, typed and by
// name, with the chosen subcommand resolved ([guildkit.CommandOptions]).
func (r *Request) Options() guildkit.CommandOptions { return r.Interaction.CommandOptions() }

// Suggest answers an autocomplete with choices (at most 25), each checked
// against the focused option's type before anything is sent (a
// [*guildkit.ValidationError]): strings for a STRING option, whole numbers
// for an INTEGER, numbers for a NUMBER.
func (r *Request) Suggest(ctx context.Context, choices ...guildkit.CommandOptionChoice) error {
	if _, t, _, ok := r.Options().Focused(); ok {
		if err := guildkit.CheckChoices(t, choices); err != nil {
			return err
		}
	}
	return r.Respond(ctx, guildkit.AutocompleteResponse(choices...))
}
