package guildkittest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/wire"
)

// The application-command routes (spec/commands.md §4): the server stores
// each application's commands, globally and per guild, checks every one
// with the SDK's rules ([guildkit.CommandCreateParams.Validate]) and
// answers as the reference platform does: 201 for a new command and 200
// for one replaced by a create (an upsert), 204 for a delete, 50035 with
// the nested field errors, 30032 over the per-type limits, 30034 over 200
// creates a day in a scope, 40041 for an edit onto a taken name.

// maxDailyCreates is the platform's daily limit of creates in one scope.
const maxDailyCreates = 200

// commandStore holds every application's commands by application and
// scope (0 for global, else the guild's id); guarded by s.mu.
type commandStore struct {
	scopes map[commandScopeKey]*scopeCommands
}

type commandScopeKey struct{ app, guild guildkit.Snowflake }

// scopeCommands are one application's commands in one scope, in the order
// they were made, and the scope's creates today.
type scopeCommands struct {
	list       []*guildkit.Command
	createsDay string
	creates    int
	// perms are the overwrites in a guild scope, by command id (global
	// commands' too) or the application's id (command_permissions.go).
	perms map[guildkit.Snowflake][]guildkit.CommandPermission
}

// scopeLocked returns the scope's commands, made on first use; the caller
// holds s.mu.
func (s *Server) scopeLocked(app, guildID guildkit.Snowflake) *scopeCommands {
	if s.commands == nil {
		s.commands = &commandStore{scopes: map[commandScopeKey]*scopeCommands{}}
	}
	k := commandScopeKey{app, guildID}
	sc := s.commands.scopes[k]
	if sc == nil {
		sc = &scopeCommands{}
		s.commands.scopes[k] = sc
	}
	return sc
}

// Commands returns the application's global commands (guildID 0) or its
// commands in the guild guildID, as registered.
func (s *Server) Commands(guildID guildkit.Snowflake) []guildkit.Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []guildkit.Command{}
	for _, c := range s.scopeLocked(s.appID(), guildID).list {
		out = append(out, copyCommand(c))
	}
	return out
}

// AddCommand registers a command of the application, globally (guildID 0)
// or in a guild, as a create would, and returns it. It panics when the
// command breaks the platform's rules: it is for test set-up.
func (s *Server) AddCommand(guildID guildkit.Snowflake, p guildkit.CommandCreateParams) guildkit.Command {
	scope := guildkit.CommandScopeGlobal
	if guildID != 0 {
		scope = guildkit.CommandScopeGuild
	}
	if err := p.Validate(scope); err != nil {
		panic("guildkittest: AddCommand: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scopeLocked(s.appID(), guildID)
	c, _ := s.upsertLocked(sc, s.appID(), guildID, p, 0)
	return copyCommand(c)
}

// copyCommand copies a command deeply enough that the caller's changes do
// not reach the store.
func copyCommand(c *guildkit.Command) guildkit.Command {
	var out guildkit.Command
	b, _ := json.Marshal(c)
	_ = json.Unmarshal(b, &out)
	return out
}

// commandRoutes registers the command routes.
func (s *Server) commandRoutes(reg registrar) {
	for _, base := range []string{"/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"} {
		reg("GET "+base+"/commands", authRequired, s.listCommands)
		reg("POST "+base+"/commands", authRequired, s.createCommand)
		reg("PUT "+base+"/commands", authRequired, s.bulkCommands)
		reg("GET "+base+"/commands/{command_id}", authRequired, s.getCommand)
		reg("PATCH "+base+"/commands/{command_id}", authRequired, s.editCommand)
		reg("DELETE "+base+"/commands/{command_id}", authRequired, s.deleteCommand)
	}
	s.commandPermissionRoutes(reg)
}

// commandScope resolves the application and, on guild routes, the guild:
// the caller must be the application's bot (403 Missing Access), and the
// application must be in the guild (404 Unknown Guild, 403 Missing Access).
func (c *call) commandScope() (sc *scopeCommands, app, guildID guildkit.Snowflake, scope guildkit.CommandScope, ok bool) {
	app, err := guildkit.ParseSnowflake(c.r.PathValue("application_id"))
	if err != nil || app != c.user {
		// Only an application's own bot manages its commands.
		c.error(http.StatusForbidden, guildkit.CodeMissingAccess, "Missing Access")
		return nil, 0, 0, 0, false
	}
	if c.r.PathValue("guild_id") != "" {
		gs, ok := c.guild()
		if !ok {
			return nil, 0, 0, 0, false
		}
		guildID, scope = gs.guild.ID, guildkit.CommandScopeGuild
	}
	return c.s.scopeLocked(app, guildID), app, guildID, scope, true
}

// scopedCommand resolves the scope (commandScope) and {command_id} in it
// (commandByID), answering their errors.
func (c *call) scopedCommand() (*scopeCommands, int, bool) {
	sc, _, _, _, ok := c.commandScope()
	if !ok {
		return nil, 0, false
	}
	i, ok := c.commandByID(sc)
	return sc, i, ok
}

// commandByID finds {command_id} in the scope, answering 404 Unknown
// application command when it is not there.
func (c *call) commandByID(sc *scopeCommands) (int, bool) {
	id, ok := c.id("command_id", guildkit.CodeUnknownApplicationCommand, "application command")
	if !ok {
		return 0, false
	}
	i := slices.IndexFunc(sc.list, func(cmd *guildkit.Command) bool { return cmd.ID == id })
	if i < 0 {
		c.error(http.StatusNotFound, guildkit.CodeUnknownApplicationCommand, "Unknown application command")
		return 0, false
	}
	return i, true
}

func (s *Server) listCommands(c *call) {
	sc, _, _, _, ok := c.commandScope()
	if !ok {
		return
	}
	full := false
	switch v := c.r.URL.Query().Get("with_localizations"); v {
	case "", "false", "False", "0":
	case "true", "True", "1":
		full = true
	default:
		c.formError(map[string]string{"with_localizations": "Must be either true or false."})
		return
	}
	locale := c.r.Header.Get("X-Discord-Locale")
	if locale == "" {
		locale, _, _ = strings.Cut(c.r.Header.Get("Accept-Language"), ",")
		locale, _, _ = strings.Cut(strings.TrimSpace(locale), ";")
	}
	out := []any{}
	for _, cmd := range sc.list {
		if full {
			out = append(out, cmd)
			continue
		}
		out = append(out, localizedCommand(cmd, locale))
	}
	c.json(http.StatusOK, out)
}

// localizedCommand is a command as a list without with_localizations
// shows it: name_localized and description_localized in the requester's
// language (absent where it has none) instead of the maps, on the command,
// on each option at every depth, and on each choice (a choice has a name
// only), as the platform answers.
func localizedCommand(cmd *guildkit.Command, locale string) guildkit.Command {
	cp := copyCommand(cmd)
	cp.NameLocalized = localizedIn(cp.NameLocalizations, locale)
	cp.DescriptionLocalized = localizedIn(cp.DescriptionLocalizations, locale)
	cp.NameLocalizations, cp.DescriptionLocalizations = nil, nil
	cp.Options = localizedOptions(cp.Options, locale)
	return cp
}

// localizedOptions returns copies of opts localized as localizedCommand
// localizes the command.
func localizedOptions(opts []guildkit.CommandOptionDefinition, locale string) []guildkit.CommandOptionDefinition {
	if opts == nil {
		return nil
	}
	out := make([]guildkit.CommandOptionDefinition, len(opts))
	for i, o := range opts {
		o.NameLocalized = localizedIn(o.NameLocalizations, locale)
		o.DescriptionLocalized = localizedIn(o.DescriptionLocalizations, locale)
		o.NameLocalizations, o.DescriptionLocalizations = nil, nil
		if o.Choices != nil {
			o.Choices = slices.Clone(o.Choices)
			for j := range o.Choices {
				o.Choices[j].NameLocalized = localizedIn(o.Choices[j].NameLocalizations, locale)
				o.Choices[j].NameLocalizations = nil
			}
		}
		o.Options = localizedOptions(o.Options, locale)
		out[i] = o
	}
	return out
}

// localizedIn is the value of locs in locale, absent when it has none.
func localizedIn(locs map[string]string, locale string) guildkit.Opt[string] {
	if v, ok := locs[locale]; ok {
		return guildkit.Some(v)
	}
	return guildkit.Opt[string]{}
}

func (s *Server) getCommand(c *call) {
	if sc, i, ok := c.scopedCommand(); ok {
		c.json(http.StatusOK, sc.list[i])
	}
}

func (s *Server) createCommand(c *call) {
	sc, app, guildID, scope, ok := c.commandScope()
	if !ok {
		return
	}
	var p guildkit.CommandCreateParams
	if !c.decode(&p) {
		return
	}
	if err := p.Validate(scope); err != nil {
		c.commandFormError(err)
		return
	}
	t := p.Type.Or(guildkit.CommandTypeChatInput)
	exists := slices.ContainsFunc(sc.list, func(cmd *guildkit.Command) bool { return cmd.Type == t && cmd.Name == p.Name })
	if !exists {
		if n := countType(sc.list, t); n >= guildkit.MaxCommands(scope, t) {
			c.error(http.StatusBadRequest, guildkit.CodeMaxApplicationCommands, "Maximum number of application commands reached ("+strconv.Itoa(guildkit.MaxCommands(scope, t))+")")
			return
		}
		if !s.takeCreatesLocked(sc, 1) {
			c.error(http.StatusBadRequest, guildkit.CodeMaxDailyCommandCreates, "Max number of daily application command creates has been reached (200)")
			return
		}
	}
	cmd, created := s.upsertLocked(sc, app, guildID, p, 0)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	c.json(status, cmd)
}

// takeCreatesLocked counts n creates against the scope's daily budget,
// reporting false (and counting nothing) when they do not fit.
func (s *Server) takeCreatesLocked(sc *scopeCommands, n int) bool {
	day := s.now().UTC().Format("2006-01-02")
	if sc.createsDay != day {
		sc.createsDay, sc.creates = day, 0
	}
	if sc.creates+n > maxDailyCreates {
		return false
	}
	sc.creates += n
	return true
}

func countType(list []*guildkit.Command, t guildkit.CommandType) int {
	n := 0
	for _, c := range list {
		if c.Type == t {
			n++
		}
	}
	return n
}

// upsertLocked stores p in the scope: it replaces the command with id
// (when not 0) or with p's name and type, keeping its id (and its version
// when nothing changed), or adds a new one. It reports whether the
// command is new.
func (s *Server) upsertLocked(sc *scopeCommands, app, guildID guildkit.Snowflake, p guildkit.CommandCreateParams, id guildkit.Snowflake) (*guildkit.Command, bool) {
	cmd := storedCommand(app, guildID, p)
	i := -1
	if id != 0 {
		i = slices.IndexFunc(sc.list, func(c *guildkit.Command) bool { return c.ID == id })
	}
	if i < 0 {
		i = slices.IndexFunc(sc.list, func(c *guildkit.Command) bool { return c.Type == cmd.Type && c.Name == cmd.Name })
	}
	if i >= 0 {
		old := sc.list[i]
		cmd.ID, cmd.Version = old.ID, old.Version
		if !sameCommand(old, cmd) {
			cmd.Version = s.newID()
		}
		sc.list[i] = cmd
		return cmd, false
	}
	cmd.ID = s.newID()
	cmd.Version = s.newID()
	sc.list = append(sc.list, cmd)
	return cmd, true
}

// sameCommand compares two stored commands but for id and version.
func sameCommand(a, b *guildkit.Command) bool {
	x, y := *a, *b
	x.ID, y.ID, x.Version, y.Version = 0, 0, 0, 0
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return string(bx) == string(by)
}

// storedCommand is the command the platform stores for p: the type filled,
// file types lower-cased, and for a global command the defaults of the
// fields only global commands keep (integration_types [0], dm_permission
// true); a guild command keeps none of them (spec/commands.md §8).
func storedCommand(app, guildID guildkit.Snowflake, p guildkit.CommandCreateParams) *guildkit.Command {
	cmd := &guildkit.Command{
		Type: p.Type.Or(guildkit.CommandTypeChatInput), ApplicationID: app, Name: p.Name,
		NameLocalizations: p.NameLocalizations, Description: p.Description, DescriptionLocalizations: p.DescriptionLocalizations,
		Options: lowerFileTypes(p.Options), NSFW: p.NSFW.Or(false), DefaultPermission: guildkit.Some(p.DefaultPermission.Or(true)),
	}
	if perms, ok := p.DefaultMemberPermissions.Get(); ok {
		cmd.DefaultMemberPermissions = &perms
	}
	if guildID != 0 {
		cmd.GuildID = guildkit.Some(guildID)
	} else {
		cmd.IntegrationTypes = p.IntegrationTypes
		if cmd.IntegrationTypes == nil {
			cmd.IntegrationTypes = []guildkit.InstallationContext{guildkit.InstallationGuild}
		}
		cmd.Contexts = p.Contexts
		cmd.DMPermission = guildkit.Some(p.DMPermission.Or(true))
	}
	if cmd.Type == guildkit.CommandTypePrimaryEntryPoint {
		cmd.Handler = guildkit.Some(p.Handler.Or(guildkit.EntryPointLaunchActivity))
	}
	return cmd
}

// lowerFileTypes copies opts with their file types lower-cased, as the
// platform stores them.
func lowerFileTypes(opts []guildkit.CommandOptionDefinition) []guildkit.CommandOptionDefinition {
	if opts == nil {
		return nil
	}
	out := slices.Clone(opts)
	for i := range out {
		if out[i].FileTypes != nil {
			out[i].FileTypes = slices.Clone(out[i].FileTypes)
			for j, ft := range out[i].FileTypes {
				out[i].FileTypes[j] = strings.ToLower(ft)
			}
		}
		out[i].Options = lowerFileTypes(out[i].Options)
	}
	return out
}

func (s *Server) editCommand(c *call) {
	sc, app, guildID, scope, ok := c.commandScope()
	if !ok {
		return
	}
	i, ok := c.commandByID(sc)
	if !ok {
		return
	}
	var e guildkit.CommandEditParams
	if !c.decode(&e) {
		return
	}
	if err := e.Validate(scope); err != nil {
		c.commandFormError(err)
		return
	}
	old := sc.list[i]
	p := old.Params()
	p.DefaultMemberPermissions = guildkit.Opt[guildkit.Permissions]{}
	if old.DefaultMemberPermissions != nil {
		p.DefaultMemberPermissions = guildkit.Some(*old.DefaultMemberPermissions)
	}
	applyEdit(&p, &e)
	if err := p.Validate(scope); err != nil {
		c.commandFormError(err)
		return
	}
	if slices.ContainsFunc(sc.list, func(cmd *guildkit.Command) bool { return cmd != old && cmd.Type == old.Type && cmd.Name == p.Name }) {
		c.error(http.StatusBadRequest, guildkit.CodeApplicationCommandExists, "An application command with that name already exists")
		return
	}
	cmd, _ := s.upsertLocked(sc, app, guildID, p, old.ID)
	c.json(http.StatusOK, cmd)
}

// applyEdit replaces p's fields with those e sends.
func applyEdit(p *guildkit.CommandCreateParams, e *guildkit.CommandEditParams) {
	if v, ok := e.Name.Get(); ok {
		p.Name = v
	}
	if e.NameLocalizations.IsSet() {
		p.NameLocalizations, _ = e.NameLocalizations.Get()
	}
	if v, ok := e.Description.Get(); ok {
		p.Description = v
	}
	if e.DescriptionLocalizations.IsSet() {
		p.DescriptionLocalizations, _ = e.DescriptionLocalizations.Get()
	}
	if e.Options.IsSet() {
		p.Options, _ = e.Options.Get()
	}
	if e.DefaultMemberPermissions.IsSet() {
		p.DefaultMemberPermissions = e.DefaultMemberPermissions
	}
	if e.DMPermission.IsSet() {
		p.DMPermission = e.DMPermission
	}
	if e.DefaultPermission.IsSet() {
		p.DefaultPermission = e.DefaultPermission
	}
	if v, ok := e.NSFW.Get(); ok {
		p.NSFW = guildkit.Some(v)
	}
	if e.IntegrationTypes.IsSet() {
		p.IntegrationTypes, _ = e.IntegrationTypes.Get()
	}
	if e.Contexts.IsSet() {
		p.Contexts, _ = e.Contexts.Get()
	}
	if v, ok := e.Handler.Get(); ok {
		p.Handler = guildkit.Some(v)
	}
}

func (s *Server) deleteCommand(c *call) {
	if sc, i, ok := c.scopedCommand(); ok {
		s.dropCommandPermissionsLocked(sc.list[i].ApplicationID, sc.list[i].ID)
		sc.list = slices.Delete(sc.list, i, i+1)
		c.noContent()
	}
}

func (s *Server) bulkCommands(c *call) {
	sc, app, guildID, scope, ok := c.commandScope()
	if !ok {
		return
	}
	var list []guildkit.CommandCreateParams
	if !c.decode(&list) {
		return
	}
	counts := map[guildkit.CommandType]int{}
	for _, p := range list {
		counts[p.Type.Or(guildkit.CommandTypeChatInput)]++
	}
	for t, n := range counts {
		if limit := guildkit.MaxCommands(scope, t); n > limit && limit > 0 {
			c.error(http.StatusBadRequest, guildkit.CodeMaxApplicationCommands, "Maximum number of application commands reached ("+strconv.Itoa(limit)+")")
			return
		}
	}
	if err := guildkit.ValidateCommands(scope, list); err != nil {
		c.commandFormError(err)
		return
	}
	// Match each item with a stored command: by id, else by name and type
	// among those no id took (a command renamed by its id keeps it, and an
	// item given its old name is another command).
	old := sc.list
	matched := make([]*guildkit.Command, len(list))
	taken := map[*guildkit.Command]bool{}
	for i, p := range list {
		if id, ok := p.ID.Get(); ok {
			if j := slices.IndexFunc(old, func(cmd *guildkit.Command) bool { return cmd.ID == id }); j >= 0 {
				matched[i], taken[old[j]] = old[j], true
			}
		}
	}
	fresh := 0
	for i, p := range list {
		if matched[i] != nil {
			continue
		}
		t := p.Type.Or(guildkit.CommandTypeChatInput)
		if j := slices.IndexFunc(old, func(cmd *guildkit.Command) bool { return !taken[cmd] && cmd.Type == t && cmd.Name == p.Name }); j >= 0 {
			matched[i], taken[old[j]] = old[j], true
		} else {
			fresh++
		}
	}
	if fresh > 0 && !s.takeCreatesLocked(sc, fresh) {
		c.error(http.StatusBadRequest, guildkit.CodeMaxDailyCommandCreates, "Max number of daily application command creates has been reached (200)")
		return
	}
	next := &scopeCommands{createsDay: sc.createsDay, creates: sc.creates}
	for i, p := range list {
		if m := matched[i]; m != nil {
			next.list = append(next.list, m)
			s.upsertLocked(next, app, guildID, p, m.ID)
			continue
		}
		s.upsertLocked(next, app, guildID, p, 0)
	}
	for _, cmd := range old {
		if !taken[cmd] {
			s.dropCommandPermissionsLocked(app, cmd.ID)
		}
	}
	sc.list = next.list
	out := sc.list
	if out == nil {
		out = []*guildkit.Command{}
	}
	c.json(http.StatusOK, out)
}

// commandFormError answers 400 Invalid Form Body (50035) with each problem
// of err at its path in the platform's nested shape ("options.0.name":
// {"_errors": [{"code", "message"}]}): the combined size as
// APPLICATION_COMMAND_TOO_LARGE in the command's own _errors, a name taken
// twice in a bulk list as APPLICATION_COMMANDS_DUPLICATE_NAME.
func (c *call) commandFormError(err error) {
	nested := map[string]any{}
	ve, _ := err.(*guildkit.ValidationError)
	if ve == nil {
		ve = &guildkit.ValidationError{Problems: []guildkit.FieldError{{Message: err.Error()}}}
	}
	rep := strings.NewReplacer("[", ".", "]", "")
	for _, p := range ve.Problems {
		path := strings.TrimPrefix(rep.Replace(p.Path), ".")
		code := "BASE_TYPE_INVALID"
		msg := p.Message
		last := path[strings.LastIndexByte(path, '.')+1:]
		switch {
		case p.Code == wire.CodeLength && strings.Contains(p.Message, "characters together"):
			code, msg = "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)"
		case p.Code == wire.CodeDuplicate && last == "name":
			code, msg = "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"
		case p.Code == wire.CodeLength:
			code = "BASE_TYPE_BAD_LENGTH"
		case p.Code == wire.CodeRequired:
			code = "BASE_TYPE_REQUIRED"
		case p.Code == wire.CodeRange:
			code = "NUMBER_TYPE_OUT_OF_RANGE"
		case p.Code == wire.CodeInvalid && last == "name":
			code = "APPLICATION_COMMAND_INVALID_NAME"
		}
		node := nested
		if path != "" {
			for _, part := range strings.Split(path, ".") {
				next, ok := node[part].(map[string]any)
				if !ok {
					next = map[string]any{}
					node[part] = next
				}
				node = next
			}
		}
		errs, _ := node["_errors"].([]any)
		node["_errors"] = append(errs, map[string]string{"code": code, "message": msg})
	}
	c.json(http.StatusBadRequest, map[string]any{"code": guildkit.CodeInvalidFormBody, "message": "Invalid Form Body", "errors": nested})
}

// savedCommandsLocked lists every stored command for the state file,
// by application, then scope (global first), then in order.
func (s *Server) savedCommandsLocked() []guildkit.Command {
	if s.commands == nil {
		return nil
	}
	keys := make([]commandScopeKey, 0, len(s.commands.scopes))
	for k := range s.commands.scopes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b commandScopeKey) int {
		if a.app != b.app {
			return cmpSnowflake(a.app, b.app)
		}
		return cmpSnowflake(a.guild, b.guild)
	})
	var out []guildkit.Command
	for _, k := range keys {
		for _, c := range s.commands.scopes[k].list {
			out = append(out, copyCommand(c))
		}
	}
	return out
}

func cmpSnowflake(a, b guildkit.Snowflake) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// loadCommandsLocked stores the commands of a state file.
func (s *Server) loadCommandsLocked(cmds []guildkit.Command) {
	for i := range cmds {
		c := cmds[i]
		sc := s.scopeLocked(c.ApplicationID, c.GuildID.Or(0))
		sc.list = append(sc.list, &c)
	}
}
