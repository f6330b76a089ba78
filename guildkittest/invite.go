package guildkittest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// inviteState is an invite and what the server tracks about it. Invites are
// kept per server by code; guildID and channelID say where they lead.
type inviteState struct {
	invite    guildkit.Invite // without guild, channel and counts: filled when served
	guildID   guildkit.Snowflake
	channelID guildkit.Snowflake
	inviterID guildkit.Snowflake

	targetUsers []guildkit.Snowflake // the list of the last completed job
	job         *targetUsersJob      // the last upload's job; nil before any
}

// targetUsersJob is the asynchronous processing of one target-users upload.
type targetUsersJob struct {
	status guildkit.TargetUsersJobStatus
	ids    []guildkit.Snowflake // applied to the invite when the job completes
	reads  int                  // status reads while PROCESSING
}

// AddInvite adds an invite to a channel of a guild and returns it with its
// metadata. An empty Code gets a fresh one; Inviter defaults to the bot;
// CreatedAt to now; MaxAge, MaxUses and Uses to 0. Only Code, Type,
// TargetType, TargetUser, Flags, ExpiresAt, Roles and the metadata fields of
// inv are used.
func (s *Server) AddInvite(guildID, channelID guildkit.Snowflake, inv guildkit.Invite) guildkit.Invite {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if _, ok := gs.channels[channelID]; !ok {
		panic("guildkittest: AddInvite: unknown channel " + channelID.String())
	}
	inviter := s.bot
	if inv.Inviter != nil {
		inviter = inv.Inviter.ID
	}
	return shaped(s.addInviteLocked(gs, channelID, inviter, inv))
}

// addInviteLocked stores a new invite; the caller holds s.mu.
func (s *Server) addInviteLocked(gs *guildState, channelID, inviterID guildkit.Snowflake, inv guildkit.Invite) guildkit.Invite {
	if s.invites == nil {
		s.invites = make(map[string]*inviteState)
	}
	if inv.Code == "" {
		inv.Code = fmt.Sprintf("inv%x", uint64(s.newID())&0xffffffffff)
	}
	zero := 0
	for _, p := range []**int{&inv.Uses, &inv.MaxUses, &inv.MaxAge} {
		if *p == nil {
			v := zero
			*p = &v
		}
	}
	if inv.Temporary == nil {
		f := false
		inv.Temporary = &f
	}
	if inv.CreatedAt == nil {
		now := s.now().UTC().Truncate(time.Millisecond)
		inv.CreatedAt = &now
	}
	if inv.ExpiresAt.IsZero() {
		inv.ExpiresAt = guildkit.Null[time.Time]()
	}
	inv.Guild, inv.Channel, inv.Inviter = nil, nil, nil
	inv.ApproximateMemberCount, inv.ApproximatePresenceCount = nil, nil
	s.invites[inv.Code] = &inviteState{invite: inv, guildID: gs.guild.ID, channelID: channelID, inviterID: inviterID}
	return s.inviteJSON(s.invites[inv.Code], true)
}

// inviteJSON returns the invite as the interface shows it, with its guild,
// channel and inviter, and with the metadata when withMetadata is true.
func (s *Server) inviteJSON(is *inviteState, withMetadata bool) guildkit.Invite {
	inv := is.invite
	if gs, ok := s.guilds[is.guildID]; ok {
		g := gs.guild
		id := g.ID
		inv.GuildID = &id
		vl, nl := g.VerificationLevel, g.NSFWLevel
		// An invite's guild has every field of the reference platform's
		// partial guild, null where unset.
		inv.Guild = &guildkit.PartialGuild{
			ID: g.ID, Name: g.Name, Icon: nullable(g.Icon), Splash: nullable(g.Splash), Banner: nullable(g.Banner),
			Description: nullable(g.Description), Features: append([]guildkit.GuildFeature{}, g.Features...),
			VerificationLevel: &vl, VanityURLCode: nullable(g.VanityURLCode), NSFWLevel: &nl,
			PremiumSubscriptionCount: g.PremiumSubscriptionCount, NSFW: guildkit.Some(g.NSFW),
		}
		if ch, ok := gs.channels[is.channelID]; ok {
			inv.Channel = &guildkit.PartialChannel{ID: ch.ID, Name: ch.Name, Type: ch.Type}
		}
	}
	if u, ok := s.users[is.inviterID]; ok {
		cp := *u
		inv.Inviter = &cp
	}
	if !withMetadata {
		inv.Uses, inv.MaxUses, inv.MaxAge, inv.Temporary, inv.CreatedAt = nil, nil, nil, nil, nil
	}
	return inv
}

// Invite returns an invite as the server holds it, with its metadata.
func (s *Server) Invite(code string) (guildkit.Invite, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is, ok := s.invites[code]
	if !ok {
		return guildkit.Invite{}, false
	}
	return shaped(s.inviteJSON(is, true)), true
}

// inviteServer is what the server keeps for invites beyond the invites
// themselves.
type inviteServer struct {
	jobPolls    int  // status reads a job stays PROCESSING for; < 0: until a hook ends it
	jobPollsSet bool // whether WithTargetUsersJobPolls was given (default 1)
	events      map[guildkit.Snowflake]*guildkit.GuildScheduledEvent
}

// WithTargetUsersJobPolls sets how a target-users job advances on its own:
// after an upload, the job answers PROCESSING to its first n status reads
// and is COMPLETED from read n+1 on (its ids become the invite's target
// users then). The default is 1: one PROCESSING answer, then COMPLETED. With
// n < 0 a job stays PROCESSING until [Server.CompleteTargetUsersJob] or
// [Server.FailTargetUsersJob] ends it, which makes tests of the waiting
// deterministic. The server starts no goroutine for jobs.
func WithTargetUsersJobPolls(n int) Option {
	return func(s *Server) { s.inv.jobPolls, s.inv.jobPollsSet = n, true }
}

// AddScheduledEvent adds a scheduled event to a guild, for Get Invite's
// guild_scheduled_event_id, and returns it. A zero ID gets a fresh one;
// GuildID is set; Name defaults to "event"; ScheduledStartTime to an hour
// from now; Status to 1 (scheduled), PrivacyLevel to 2 (guild only) and
// EntityType to 3 (external).
func (s *Server) AddScheduledEvent(guildID guildkit.Snowflake, ev guildkit.GuildScheduledEvent) guildkit.GuildScheduledEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustGuild(guildID)
	if ev.ID == 0 {
		ev.ID = s.newID()
	}
	ev.GuildID = guildID
	if ev.Name == "" {
		ev.Name = "event"
	}
	if ev.ScheduledStartTime.IsZero() {
		ev.ScheduledStartTime = s.now().UTC().Add(time.Hour).Truncate(time.Second)
	}
	if ev.Status == 0 {
		ev.Status = 1
	}
	if ev.PrivacyLevel == 0 {
		ev.PrivacyLevel = 2
	}
	if ev.EntityType == 0 {
		ev.EntityType = 3
	}
	if s.inv.events == nil {
		s.inv.events = make(map[guildkit.Snowflake]*guildkit.GuildScheduledEvent)
	}
	cp := ev
	s.inv.events[ev.ID] = &cp
	return ev
}

// SetTargetUsers sets the users an invite is restricted to, as a completed
// job would, for tests of Get Target Users. It panics on an unknown code.
func (s *Server) SetTargetUsers(code string, ids []guildkit.Snowflake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustInvite(code).targetUsers = slices.Clone(ids)
}

// TargetUsers returns the users an invite is restricted to: the list of its
// last completed target-users job. It panics on an unknown code.
func (s *Server) TargetUsers(code string) []guildkit.Snowflake {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.mustInvite(code).targetUsers)
}

// TargetUsersJob returns the status of an invite's last target-users job
// without counting as a status read, and false when no file was uploaded.
// It panics on an unknown code.
func (s *Server) TargetUsersJob(code string) (guildkit.TargetUsersJobStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.mustInvite(code)
	if is.job == nil {
		return guildkit.TargetUsersJobStatus{}, false
	}
	return is.job.status, true
}

// CompleteTargetUsersJob ends an invite's PROCESSING target-users job as
// COMPLETED: the uploaded ids become the invite's target users. It panics
// on an unknown code or when no job is PROCESSING.
func (s *Server) CompleteTargetUsersJob(code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.completeJob(s.processingJob("CompleteTargetUsersJob", code))
}

// FailTargetUsersJob ends an invite's PROCESSING target-users job as FAILED
// with msg as its error_message; the invite's target users stay as they
// were. It panics on an unknown code or when no job is PROCESSING.
func (s *Server) FailTargetUsersJob(code, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.processingJob("FailTargetUsersJob", code)
	is.job.status.Status = guildkit.TargetUsersJobFailed
	is.job.status.ErrorMessage = msg
	is.job.ids = nil
}

func (s *Server) processingJob(fn, code string) *inviteState {
	is := s.mustInvite(code)
	if is.job == nil || is.job.status.Status != guildkit.TargetUsersJobProcessing {
		panic("guildkittest: " + fn + ": invite " + code + " has no PROCESSING target-users job")
	}
	return is
}

// completeJob ends is's job as COMPLETED; the caller holds s.mu.
func (s *Server) completeJob(is *inviteState) {
	j := is.job
	now := s.now().UTC().Truncate(time.Millisecond)
	j.status.Status = guildkit.TargetUsersJobCompleted
	j.status.ProcessedUsers = j.status.TotalUsers
	j.status.CompletedAt = &now
	is.targetUsers, j.ids = j.ids, nil
}

func (s *Server) mustInvite(code string) *inviteState {
	is, ok := s.invites[code]
	if !ok {
		panic("guildkittest: unknown invite " + code)
	}
	return is
}

func (s *Server) inviteRoutes(reg registrar) {
	reg("GET /invites/{invite_code}", authRequired, s.getInvite)
	reg("DELETE /invites/{invite_code}", authRequired, s.deleteInvite)
	reg("GET /invites/{invite_code}/target-users", authRequired, s.getTargetUsers)
	reg("PUT /invites/{invite_code}/target-users", authRequired, s.updateTargetUsers, streamBody(MaxTargetUsersFile+1<<20, readTargetUsersUpload))
	reg("GET /invites/{invite_code}/target-users/job-status", authRequired, s.getTargetUsersJobStatus)
}

// inviteByCode resolves the {invite_code} wildcard: 404 Unknown Invite (10006)
// for an unknown code or an invite whose expires_at has passed.
func (c *call) inviteByCode() (*inviteState, bool) {
	is, ok := c.s.invites[c.r.PathValue("invite_code")]
	if ok {
		if t, set := is.invite.ExpiresAt.Get(); set && !t.After(c.s.now()) {
			ok = false
		}
	}
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownInvite, "Unknown Invite")
		return nil, false
	}
	return is, true
}

// getInvite: Get Invite. Any valid token may read an invite; with_counts adds
// the approximate member and presence counts of its guild, and
// guild_scheduled_event_id the event when it is one of that guild's.
func (s *Server) getInvite(c *call) {
	is, ok := c.inviteByCode()
	if !ok {
		return
	}
	q := c.r.URL.Query()
	problems := map[string]string{}
	withCounts := false
	switch v := q.Get("with_counts"); strings.ToLower(v) {
	case "true", "1":
		withCounts = true
	case "", "false", "0":
	default:
		problems["with_counts"] = fmt.Sprintf("Value %q is not a boolean.", v)
	}
	var eventID guildkit.Snowflake
	if v := q.Get("guild_scheduled_event_id"); v != "" {
		id, err := guildkit.ParseSnowflake(v)
		if err != nil {
			problems["guild_scheduled_event_id"] = fmt.Sprintf("Value %q is not snowflake.", v)
		}
		eventID = id
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	inv := s.inviteJSON(is, false)
	if gs, ok := s.guilds[is.guildID]; ok && withCounts {
		members, online := len(gs.members), 0
		for _, m := range gs.members {
			if m.online {
				online++
			}
		}
		inv.ApproximateMemberCount, inv.ApproximatePresenceCount = &members, &online
	}
	answer := inviteAnswer{Invite: inv}
	if ev, ok := s.inv.events[eventID]; ok && eventID != 0 && ev.GuildID == is.guildID {
		answer.GuildScheduledEvent = s.scheduledEventAnswerLocked(ev)
	}
	c.json(http.StatusOK, answer)
}

// inviteAnswer is Get Invite's answer: the invite, with the whole
// scheduled-event object in place of guildkit's (which leaves out what the
// SDK does not read).
type inviteAnswer struct {
	guildkit.Invite
	GuildScheduledEvent *scheduledEventAnswer `json:"guild_scheduled_event,omitempty"`
}

// scheduledEventAnswer is a scheduled event as the reference platform
// answers it, with every field its published schema requires: the
// nullable ones (description, creator_id, image, scheduled_end_time,
// entity_id, recurrence_rule) present as null when unset, and
// guild_scheduled_event_exceptions as a list.
type scheduledEventAnswer struct {
	ID                 guildkit.Snowflake  `json:"id"`
	GuildID            guildkit.Snowflake  `json:"guild_id"`
	ChannelID          *guildkit.Snowflake `json:"channel_id"`
	CreatorID          *guildkit.Snowflake `json:"creator_id"`
	Creator            *guildkit.User      `json:"creator,omitempty"`
	Name               string              `json:"name"`
	Description        *string             `json:"description"`
	Image              *string             `json:"image"`
	ScheduledStartTime time.Time           `json:"scheduled_start_time"`
	ScheduledEndTime   *time.Time          `json:"scheduled_end_time"`
	PrivacyLevel       int                 `json:"privacy_level"`
	Status             int                 `json:"status"`
	EntityType         int                 `json:"entity_type"`
	EntityID           *guildkit.Snowflake `json:"entity_id"`
	UserCount          int                 `json:"user_count"`
	RecurrenceRule     *struct{}           `json:"recurrence_rule"` // always null: the server keeps no recurring events
	Exceptions         []struct{}          `json:"guild_scheduled_event_exceptions"`
}

// scheduledEventAnswerLocked returns ev as the platform answers it.
func (s *Server) scheduledEventAnswerLocked(ev *guildkit.GuildScheduledEvent) *scheduledEventAnswer {
	a := &scheduledEventAnswer{ID: ev.ID, GuildID: ev.GuildID, ChannelID: ev.ChannelID, CreatorID: ev.CreatorID, Name: ev.Name,
		Description: ev.Description, Image: ev.Image, ScheduledStartTime: ev.ScheduledStartTime, ScheduledEndTime: ev.ScheduledEndTime,
		PrivacyLevel: ev.PrivacyLevel, Status: ev.Status, EntityType: ev.EntityType, EntityID: ev.EntityID, Exceptions: []struct{}{}}
	if ev.UserCount != nil {
		a.UserCount = *ev.UserCount
	}
	if ev.CreatorID != nil {
		a.Creator = s.userLocked(*ev.CreatorID)
	}
	return a
}

// deleteInvite: Delete Invite. MANAGE_CHANNELS on the invite's channel (with
// the channel's overwrites) or MANAGE_GUILD; emits INVITE_DELETE.
func (s *Server) deleteInvite(c *call) {
	is, ok := c.inviteByCode()
	if !ok {
		return
	}
	gs := s.guilds[is.guildID]
	allowed := false
	if gs != nil {
		allowed = gs.permissions(c.user).Has(guildkit.PermissionManageGuild)
		if ch, ok := gs.channels[is.channelID]; ok && !allowed {
			allowed = gs.inviteChannelPermissions(c.user, ch).Has(guildkit.PermissionManageChannels)
		}
	}
	if !allowed {
		c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
		return
	}
	inv := s.inviteJSON(is, false)
	delete(s.invites, is.invite.Code)
	s.emit(guildkit.EventInviteDelete, is.guildID, guildkit.InviteDeleteEvent{
		ChannelID: is.channelID, GuildID: is.guildID, Code: is.invite.Code,
	})
	c.json(http.StatusOK, inv)
}

// inviteChannelPermissions computes userID's permissions in ch the
// platform's way: the guild-level permissions (everything for the owner and
// ADMINISTRATOR holders), then the @everyone overwrite (deny, then allow),
// then the member's role overwrites together (all denies, then all allows),
// then the member's own overwrite (deny, then allow). A non-member has none.
func (gs *guildState) inviteChannelPermissions(userID guildkit.Snowflake, ch *guildkit.Channel) guildkit.Permissions {
	p := gs.permissions(userID)
	if p.Has(guildkit.PermissionAdministrator) {
		return p
	}
	ms, ok := gs.members[userID]
	if !ok {
		return 0
	}
	const roleType, memberType = 0, 1
	for _, o := range ch.PermissionOverwrites {
		if o.Type == roleType && o.ID == gs.guild.ID {
			p = p&^o.Deny | o.Allow
		}
	}
	var allow, deny guildkit.Permissions
	for _, o := range ch.PermissionOverwrites {
		if o.Type == roleType && o.ID != gs.guild.ID && slices.Contains(ms.member.Roles, o.ID) {
			allow |= o.Allow
			deny |= o.Deny
		}
	}
	p = p&^deny | allow
	for _, o := range ch.PermissionOverwrites {
		if o.Type == memberType && o.ID == userID {
			p = p&^o.Deny | o.Allow
		}
	}
	return p & platformPermissions
}

// inviterOr answers 403 Missing Permissions unless the caller made the
// invite or holds one of perms in its guild.
func (c *call) inviterOr(is *inviteState, perms guildkit.Permissions) bool {
	if c.user == is.inviterID {
		return true
	}
	if gs, ok := c.s.guilds[is.guildID]; ok && gs.permissions(c.user).HasAny(perms) {
		return true
	}
	c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
	return false
}

// getTargetUsers: Get Target Users. The inviter, MANAGE_GUILD or
// VIEW_AUDIT_LOG; answers the CSV file of the last completed job's ids
// (only the header before any).
func (s *Server) getTargetUsers(c *call) {
	is, ok := c.inviteByCode()
	if !ok || !c.inviterOr(is, guildkit.PermissionManageGuild|guildkit.PermissionViewAuditLog) {
		return
	}
	c.status = http.StatusOK
	h := c.w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="target_users.csv"`)
	c.w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(c.w, guildkit.NewTargetUsersCSV(is.targetUsers))
}

// MaxTargetUsersFile is the largest target-users file the server accepts,
// in bytes; a larger one is a 413. The interface states no limit.
const MaxTargetUsersFile = 64 << 20

// maxTargetUsersLineErrors bounds the line problems one 400 reports.
const maxTargetUsersLineErrors = 100

// targetUsersUpload is what [readTargetUsersUpload] made of an Update
// Target Users body, for the handler to answer under the lock.
type targetUsersUpload struct {
	ids      []guildkit.Snowflake
	problems []string // the file's line problems
	missing  bool     // no target_users_file part
	bad      bool     // not a multipart body, or a broken one
}

// readTargetUsersUpload reads an Update Target Users body before the
// server's lock: the multipart field target_users_file, checked line by line
// as it streams in, within [MaxTargetUsersFile]. A body over the limit is
// answered 413 at once; the rest waits in c.upload for the handler (which
// checks the caller first).
func readTargetUsersUpload(c *call) bool {
	up := &targetUsersUpload{}
	c.upload = up
	limitPartHeaders(c.r)
	mr, err := c.r.MultipartReader()
	if err != nil {
		up.missing = true
		return true
	}
	found := false
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err == nil && parts == maxMultipartParts {
			part.Close()
			up.bad = true // as many parts as that are no target users file
			return true
		}
		if err == nil && (part.FormName() != "target_users_file" || found) {
			_, err = io.Copy(io.Discard, part)
			part.Close()
		} else if err == nil {
			found = true
			up.ids, up.problems, err = readTargetUsersFile(part)
			part.Close()
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				c.bodyError(err)
				return false
			}
			up.bad = true
			return true
		}
	}
	up.missing = !found
	return true
}

// updateTargetUsers: Update Target Users. The inviter or MANAGE_GUILD; the
// multipart field target_users_file is read as a stream and checked line by
// line, before the server's lock (readTargetUsersUpload). A bad file is a
// 400 whose body is {"target_users_file": ["Line 3: ...", ...]}; a good one
// starts a PROCESSING job and is answered 202.
func (s *Server) updateTargetUsers(c *call) {
	is, ok := c.inviteByCode()
	if !ok || !c.inviterOr(is, guildkit.PermissionManageGuild) {
		return
	}
	up, _ := c.upload.(*targetUsersUpload)
	switch {
	case up == nil || up.bad:
		c.error(http.StatusBadRequest, guildkit.CodeInvalidFormBody, "Invalid multipart body.")
		return
	case up.missing:
		c.formError(map[string]string{"target_users_file": "This field is required (multipart/form-data)."})
		return
	case len(up.problems) > 0:
		c.json(http.StatusBadRequest, map[string][]string{"target_users_file": up.problems})
		return
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	is.job = &targetUsersJob{
		status: guildkit.TargetUsersJobStatus{Status: guildkit.TargetUsersJobProcessing, TotalUsers: len(up.ids), CreatedAt: now},
		ids:    up.ids,
	}
	c.status = http.StatusAccepted
	c.w.WriteHeader(http.StatusAccepted)
}

// readTargetUsersFile checks a target-users CSV file line by line and
// returns its ids (duplicates dropped, first occurrence kept) or the
// problems, each "Line N: <problem>" with N counted from 1:
//
//	Line 1: Expected the header "user_id", got "id".
//	Line 3: "abc" is not a valid user id.
//	Line 4: Expected one column, got 2.
//
// Blank lines and "\r\n" line ends are accepted. At most
// maxTargetUsersLineErrors problems are reported, the last one saying how
// many more lines are bad.
func readTargetUsersFile(r io.Reader) ([]guildkit.Snowflake, []string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	var (
		ids      []guildkit.Snowflake
		seen     = map[guildkit.Snowflake]bool{}
		problems []string
		more     int
		header   bool
	)
	bad := func(line int, format string, args ...any) {
		if len(problems) < maxTargetUsersLineErrors-1 {
			problems = append(problems, fmt.Sprintf("Line %d: ", line)+fmt.Sprintf(format, args...))
			return
		}
		more++
	}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text == "" {
			continue
		}
		if !header {
			header = true
			if text != "user_id" {
				bad(line, "Expected the header %q, got %q.", "user_id", clipText(text))
			}
			continue
		}
		if n := strings.Count(text, ",") + 1; n > 1 {
			bad(line, "Expected one column, got %d.", n)
			continue
		}
		id, err := guildkit.ParseSnowflake(strings.Trim(text, `"`))
		if err != nil || id == 0 {
			bad(line, "%q is not a valid user id.", clipText(text))
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if err := sc.Err(); err != nil {
		if !errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, err
		}
		bad(line+1, "Line is longer than 65536 bytes.")
	}
	if !header {
		problems = append(problems, `Line 1: Expected the header "user_id", got an empty file.`)
	}
	if more > 0 {
		problems = append(problems, fmt.Sprintf("And %d more bad lines.", more))
	}
	return ids, problems, nil
}

func clipText(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// getTargetUsersJobStatus: Get Target Users Job Status. The inviter,
// MANAGE_GUILD or VIEW_AUDIT_LOG. Each read of a PROCESSING job counts
// towards its completion (see WithTargetUsersJobPolls); before any upload the
// status is UNSPECIFIED with zero counts.
func (s *Server) getTargetUsersJobStatus(c *call) {
	is, ok := c.inviteByCode()
	if !ok || !c.inviterOr(is, guildkit.PermissionManageGuild|guildkit.PermissionViewAuditLog) {
		return
	}
	if is.job == nil {
		c.json(http.StatusOK, guildkit.TargetUsersJobStatus{})
		return
	}
	j := is.job
	if j.status.Status == guildkit.TargetUsersJobProcessing {
		polls := 1
		if s.inv.jobPollsSet {
			polls = s.inv.jobPolls
		}
		j.reads++
		if polls >= 0 && j.reads > polls {
			s.completeJob(is)
		} else {
			j.status.ProcessedUsers = j.status.TotalUsers / 2
		}
	}
	c.json(http.StatusOK, j.status)
}
