package guildkit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"time"

	"github.com/seed012df1e9/guildkit/internal/jsondec"
	"github.com/seed012df1e9/guildkit/wire"
)

// InviteService handles the operations on invites and their target users.
// Reach it through [Client].Invites.
type InviteService service

// Invite is an invitation to a guild, a group DM or a friendship. The fields
// of the invite metadata (Uses, MaxUses, MaxAge, Temporary, CreatedAt) are
// present only where the interface includes the metadata (Get Guild Invites
// with MANAGE_GUILD); see [Invite.HasMetadata].
type Invite struct {
	Type InviteType `json:"type"`
	Code string     `json:"code"`
	// GuildID is the invite's guild, for a guild invite (the reference
	// platform's field). Nil when absent.
	GuildID *Snowflake      `json:"guild_id,omitempty"`
	Guild   *PartialGuild   `json:"guild,omitempty"`   // nil when absent
	Channel *PartialChannel `json:"channel,omitempty"` // nil when absent
	Inviter *User           `json:"inviter,omitempty"` // nil when absent
	// TargetType says what a voice-channel invite points at.
	TargetType        InviteTargetType    `json:"target_type,omitempty"`
	TargetUser        *User               `json:"target_user,omitempty"`        // the stream's user; nil when absent
	TargetApplication *PartialApplication `json:"target_application,omitempty"` // nil when absent
	// ApproximatePresenceCount and ApproximateMemberCount come with
	// InviteGetParams.WithCounts. Nil when absent.
	ApproximatePresenceCount *int `json:"approximate_presence_count,omitempty"`
	ApproximateMemberCount   *int `json:"approximate_member_count,omitempty"` // nil when absent
	// ExpiresAt is when the invite expires; Null for an invite that never does; the zero Opt when absent.
	ExpiresAt Opt[time.Time] `json:"expires_at,omitzero"`
	// GuildScheduledEvent is present when the request named a valid event. Nil when absent.
	GuildScheduledEvent *GuildScheduledEvent `json:"guild_scheduled_event,omitempty"`
	Flags               InviteFlags          `json:"flags,omitempty"`
	// Roles are the roles given on acceptance.
	Roles []InviteRole `json:"roles,omitzero"`
	// StageInstance is deprecated by the interface. Nil when absent.
	StageInstance *InviteStageInstance `json:"stage_instance,omitempty"`

	// Metadata. Nil when absent.
	Uses      *int       `json:"uses,omitempty"`
	MaxUses   *int       `json:"max_uses,omitempty"`   // nil when absent
	MaxAge    *int       `json:"max_age,omitempty"`    // seconds; 0 means never; nil when absent
	Temporary *bool      `json:"temporary,omitempty"`  // nil when absent
	CreatedAt *time.Time `json:"created_at,omitempty"` // nil when absent
}

// HasMetadata reports whether the invite carries its metadata.
func (i *Invite) HasMetadata() bool { return i.Uses != nil || i.CreatedAt != nil }

// InviteType is the kind of an invite.
type InviteType int

// Invite types.
const (
	InviteTypeGuild   InviteType = 0
	InviteTypeGroupDM InviteType = 1
	InviteTypeFriend  InviteType = 2
)

func (t InviteType) String() string {
	return enumString("InviteType", []string{"GUILD", "GROUP_DM", "FRIEND"}, int(t))
}

// InviteTargetType says what a voice-channel invite points at.
type InviteTargetType int

// Invite target types. 0 means none.
const (
	InviteTargetStream              InviteTargetType = 1
	InviteTargetEmbeddedApplication InviteTargetType = 2
)

func (t InviteTargetType) String() string {
	return enumString("InviteTargetType", []string{"NONE", "STREAM", "EMBEDDED_APPLICATION"}, int(t))
}

// InviteFlags is the bit set of a guild invite's flags.
type InviteFlags int

// Invite flags.
const (
	// InviteFlagIsGuestInvite marks a guest invite to a voice channel.
	InviteFlagIsGuestInvite InviteFlags = 1 << 0
)

// Has reports whether f holds every flag in g.
func (f InviteFlags) Has(g InviteFlags) bool { return f&g == g }

func (f InviteFlags) String() string { return flagString([]string{"IS_GUEST_INVITE"}, uint64(f)) }

// InviteRole is a role given on accepting an invite: a partial role.
type InviteRole struct {
	ID           Snowflake  `json:"id"`
	Name         string     `json:"name"`
	Position     int        `json:"position"`
	Color        int        `json:"color"`
	Colors       RoleColors `json:"colors"`
	Icon         *string    `json:"icon"`          // nil when null
	UnicodeEmoji *string    `json:"unicode_emoji"` // nil when null
}

// InviteStageInstance is the deprecated stage instance of an invite.
type InviteStageInstance struct {
	Members          []Member `json:"members"`
	ParticipantCount int      `json:"participant_count"`
	SpeakerCount     int      `json:"speaker_count"`
	Topic            string   `json:"topic"` // 1-120 characters
}

// PartialGuild is the part of a guild an invite or a webhook shows.
type PartialGuild struct {
	ID   Snowflake `json:"id"`
	Name string    `json:"name"`
	// Icon is the guild's icon hash. An invite's guild has all of the fields
	// below (null where unset); a follower webhook's source guild has only
	// id, name and icon. Zero Opt when absent, Null when null.
	Icon                     Opt[string]        `json:"icon,omitzero"`
	Splash                   Opt[string]        `json:"splash,omitzero"`      // zero Opt when absent, Null when null
	Banner                   Opt[string]        `json:"banner,omitzero"`      // zero Opt when absent, Null when null
	Description              Opt[string]        `json:"description,omitzero"` // zero Opt when absent, Null when null
	Features                 []GuildFeature     `json:"features,omitzero"`
	VerificationLevel        *VerificationLevel `json:"verification_level,omitempty"`         // nil when absent
	VanityURLCode            Opt[string]        `json:"vanity_url_code,omitzero"`             // zero Opt when absent, Null when null
	NSFWLevel                *NSFWLevel         `json:"nsfw_level,omitempty"`                 // nil when absent
	PremiumSubscriptionCount *int               `json:"premium_subscription_count,omitempty"` // nil when absent
	WelcomeScreen            *WelcomeScreen     `json:"welcome_screen,omitempty"`             // nil when absent
	// NSFW says whether the guild is age-restricted (the reference
	// platform's field, sent in an invite's guild). Zero Opt when absent,
	// Null when null.
	NSFW Opt[bool] `json:"nsfw,omitzero"`
}

// PartialChannel is the part of a channel an invite or a webhook shows.
type PartialChannel struct {
	ID   Snowflake   `json:"id"`
	Name string      `json:"name"`
	Type ChannelType `json:"type"`
}

// PartialApplication is the part of an application an invite or an
// integration shows.
type PartialApplication struct {
	ID          Snowflake `json:"id"`
	Name        string    `json:"name"`
	Icon        *string   `json:"icon"` // nil when null
	Description string    `json:"description"`
	Bot         *User     `json:"bot,omitempty"` // nil when absent
	// Type is the application's type, null for most (the reference
	// platform's field); zero Opt when absent, Null when null.
	Type Opt[int] `json:"type,omitzero"`
	// Flags are the application's public flags (the reference platform's
	// field); nil when absent.
	Flags *int `json:"flags,omitempty"`
	// FlagsNew are the same flags as a decimal string, which holds flags
	// past 2^53 (the reference platform sends both); nil when absent.
	FlagsNew *string `json:"flags_new,omitempty"`
}

// GuildScheduledEvent is a scheduled event of a guild. The interface uses
// the object without listing its fields; these are the reference platform's.
type GuildScheduledEvent struct {
	ID                 Snowflake  `json:"id"`
	GuildID            Snowflake  `json:"guild_id"`
	ChannelID          *Snowflake `json:"channel_id"`           // nil when null
	CreatorID          *Snowflake `json:"creator_id,omitempty"` // nil when absent
	Name               string     `json:"name"`
	Description        *string    `json:"description,omitempty"` // nil when absent
	ScheduledStartTime time.Time  `json:"scheduled_start_time"`
	ScheduledEndTime   *time.Time `json:"scheduled_end_time"` // nil when null
	PrivacyLevel       int        `json:"privacy_level"`
	Status             int        `json:"status"`
	EntityType         int        `json:"entity_type"`
	EntityID           *Snowflake `json:"entity_id"`            // nil when null
	UserCount          *int       `json:"user_count,omitempty"` // nil when absent
	Image              *string    `json:"image,omitempty"`      // nil when absent
}

// InviteDeleteEvent is the payload of the INVITE_DELETE event that Delete
// Invite emits. The interface does not show event payloads; these are the
// reference platform's fields.
type InviteDeleteEvent struct {
	ChannelID Snowflake `json:"channel_id"`
	GuildID   Snowflake `json:"guild_id,omitempty"`
	Code      string    `json:"code"`
}

// TargetUsersJobState is the state of the asynchronous job that processes an
// uploaded target-users file.
type TargetUsersJobState int

// Target-users job states. The interface does not show the transitions; a
// job starts PROCESSING when a file is accepted and ends COMPLETED or FAILED.
const (
	TargetUsersJobUnspecified TargetUsersJobState = 0 // the default: no job known
	TargetUsersJobProcessing  TargetUsersJobState = 1
	TargetUsersJobCompleted   TargetUsersJobState = 2
	TargetUsersJobFailed      TargetUsersJobState = 3 // see TargetUsersJobStatus.ErrorMessage
)

func (s TargetUsersJobState) String() string {
	return enumString("TargetUsersJobState", []string{"UNSPECIFIED", "PROCESSING", "COMPLETED", "FAILED"}, int(s))
}

// Done reports whether the job has ended, COMPLETED or FAILED.
func (s TargetUsersJobState) Done() bool {
	return s == TargetUsersJobCompleted || s == TargetUsersJobFailed
}

// TargetUsersJobStatus is the status of an invite's target-users job, from
// [InviteService.TargetUsersJobStatus].
type TargetUsersJobStatus struct {
	Status         TargetUsersJobState `json:"status"`
	TotalUsers     int                 `json:"total_users"`
	ProcessedUsers int                 `json:"processed_users"`
	CreatedAt      time.Time           `json:"created_at"`
	CompletedAt    *time.Time          `json:"completed_at"` // nil when null
	// ErrorMessage says why the job failed; meaningful only when Status is
	// TargetUsersJobFailed.
	ErrorMessage string `json:"error_message"`
}

// TargetUsersJobError is what [InviteService.WaitTargetUsersJob] returns when
// the job ends FAILED. Message is the job's error_message.
type TargetUsersJobError struct {
	Code    string // the invite code
	Message string
	Job     TargetUsersJobStatus
}

func (e *TargetUsersJobError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "no error message"
	}
	return "guildkit: target-users job of invite " + e.Code + " failed: " + msg
}

// TargetUsersParseError reports a line of a target-users CSV file that is not
// what the interface describes (a header "user_id", then one user id per
// line). Line counts from 1.
type TargetUsersParseError struct {
	Line int
	Text string // the offending line, cut to 64 bytes
	Err  error
}

func (e *TargetUsersParseError) Error() string {
	return fmt.Sprintf("guildkit: target users CSV line %d: %v", e.Line, e.Err)
}

func (e *TargetUsersParseError) Unwrap() error { return e.Err }

// InviteGetParams are the query parameters of [InviteService.Get].
type InviteGetParams struct {
	// WithCounts asks for ApproximateMemberCount and
	// ApproximatePresenceCount. Default false; Null is not allowed.
	WithCounts Opt[bool] `url:"with_counts,omitempty"`
	// GuildScheduledEventID asks for the guild's scheduled event with this
	// id to be included as Invite.GuildScheduledEvent (it is left out when
	// the id names no event of the invite's guild). Default none; Null and
	// zero are not allowed.
	GuildScheduledEventID Opt[Snowflake] `url:"guild_scheduled_event_id,omitempty"`
}

func (p *InviteGetParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	notNull(&v, "with_counts", p.WithCounts)
	notNull(&v, "guild_scheduled_event_id", p.GuildScheduledEventID)
	if id, ok := p.GuildScheduledEventID.Get(); ok && id == 0 {
		v.Add("guild_scheduled_event_id", wire.CodeInvalid, "must be a non-zero snowflake")
	}
	return v.Err()
}

// Get returns the invite with this code. No permission is needed, only a
// valid token. With params.WithCounts true the answer carries the
// approximate member and presence counts of the invite's guild; with
// params.GuildScheduledEventID naming an event of that guild it carries the
// event. An unknown or expired code is a 404 with [CodeUnknownInvite].
// params may be nil.
//
// Spec: "Get Invite" — GET /invites/{invite.code}
func (s *InviteService) Get(ctx context.Context, code string, params *InviteGetParams, opts ...RequestOption) (*Invite, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var inv Invite
	_, err := s.c.do(ctx, &request{
		method: "GET", route: "/invites/{invite.code}", path: []any{code},
		query: params, opts: opts,
	}, &inv)
	if err != nil {
		return nil, err
	}
	return &inv, nil
}

// Delete deletes the invite and returns it. Requires MANAGE_CHANNELS on the
// invite's channel, or MANAGE_GUILD for any invite of the guild. Emits
// INVITE_DELETE. Supports WithReason.
//
// Spec: "Delete Invite" — DELETE /invites/{invite.code}
func (s *InviteService) Delete(ctx context.Context, code string, opts ...RequestOption) (*Invite, error) {
	var inv Invite
	_, err := s.c.do(ctx, &request{
		method: "DELETE", route: "/invites/{invite.code}", path: []any{code},
		auditLog: true, opts: opts,
	}, &inv)
	if err != nil {
		return nil, err
	}
	return &inv, nil
}

// TargetUsers returns the user ids the invite is restricted to, read from
// the CSV file the interface answers with (header "user_id", then one id per
// line). The caller must be the inviter or hold MANAGE_GUILD or
// VIEW_AUDIT_LOG.
//
// The file is parsed as it arrives: the iterator holds one line at a time,
// never the whole file, so a list of millions of ids costs no more memory
// than the caller keeps. No request is made until the iterator is ranged;
// breaking out of the loop closes the response. A failure (the request, or a
// line that is not an id: a [*TargetUsersParseError] naming the line) is
// yielded once as (0, err), and the iteration stops. Blank lines are skipped.
// Use [InviteService.TargetUsersFile] for the file itself.
//
// Spec: "Get Target Users" — GET /invites/{invite.code}/target-users
func (s *InviteService) TargetUsers(ctx context.Context, code string, opts ...RequestOption) iter.Seq2[Snowflake, error] {
	return func(yield func(Snowflake, error) bool) {
		body, err := s.TargetUsersFile(ctx, code, opts...)
		if err != nil {
			yield(0, err)
			return
		}
		defer body.Close()
		for id, err := range ParseTargetUsersCSV(body) {
			if !yield(id, err) || err != nil {
				return
			}
		}
	}
}

// TargetUsersFile returns the invite's target-users CSV file as the service
// sends it, for callers who want to store or forward it; the caller must
// close it. Permissions are those of [InviteService.TargetUsers] (operation
// "Get Target Users", GET /invites/{invite.code}/target-users).
func (s *InviteService) TargetUsersFile(ctx context.Context, code string, opts ...RequestOption) (io.ReadCloser, error) {
	resp, err := s.c.send(ctx, &request{
		method: "GET", route: "/invites/{invite.code}/target-users", path: []any{code}, opts: opts,
	})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// targetUserIDs are the ids [InviteService.UpdateTargetUsers] uploads.
type targetUserIDs []Snowflake

func (ids targetUserIDs) validate(validation) error {
	var v ValidationError
	for i, id := range ids {
		if id == 0 {
			v.Add("ids"+indexPath(i, ""), wire.CodeInvalid, "must be a non-zero snowflake")
		}
	}
	return v.Err()
}

// UpdateTargetUsers restricts the invite to the users in ids, replacing the
// previous list. The caller must be the inviter or hold MANAGE_GUILD. The
// service answers at once and processes the list asynchronously: follow it
// with [InviteService.TargetUsersJobStatus] or
// [InviteService.WaitTargetUsersJob].
//
// The ids are sent as the CSV file the interface asks for (multipart field
// target_users_file, "target_users.csv", text/csv), generated as the request
// body is read: no copy of the file is built in memory, and the body can be
// generated again from the start when a rate-limited request is retried.
// A zero id is a [ValidationError] (path "ids[i]"). A file the service
// rejects comes back as an [*APIError] with status 400 whose Errors hold one
// [FieldError] per bad line (path "target_users_file").
//
// Spec: "Update Target Users" — PUT /invites/{invite.code}/target-users
func (s *InviteService) UpdateTargetUsers(ctx context.Context, code string, ids []Snowflake, opts ...RequestOption) error {
	if err := targetUserIDs(ids).validate(s.c.validation()); err != nil {
		return err
	}
	return s.uploadTargetUsers(ctx, code, NewTargetUsersCSV(ids), opts)
}

// UpdateTargetUsersCSV is [InviteService.UpdateTargetUsers] for a CSV file
// the caller already has (header "user_id", then one user id per line),
// such as an *os.File. The file is streamed, not buffered; an
// io.ReadSeeker is rewound to where it was if a rate-limited request is
// retried, while a plain io.Reader can be sent only once, so a 429 is then
// returned as a [*RateLimitError]. The file is not checked before sending:
// the service reports bad lines (see UpdateTargetUsers).
func (s *InviteService) UpdateTargetUsersCSV(ctx context.Context, code string, csv io.Reader, opts ...RequestOption) error {
	if csv == nil {
		return problem("target_users_file", wire.CodeRequired, "a CSV reader is required")
	}
	return s.uploadTargetUsers(ctx, code, csv, opts)
}

func (s *InviteService) uploadTargetUsers(ctx context.Context, code string, csv io.Reader, opts []RequestOption) error {
	_, err := s.c.do(ctx, &request{
		method: "PUT", route: "/invites/{invite.code}/target-users", path: []any{code},
		parts: []formPart{filePart("target_users_file", File{Name: "target_users.csv", ContentType: "text/csv", Reader: csv})},
		opts:  opts,
	}, nil)
	return err
}

// TargetUsersJobStatus returns the status of the job processing the
// invite's last target-users upload. The caller must be the inviter or hold
// MANAGE_GUILD or VIEW_AUDIT_LOG.
//
// Spec: "Get Target Users Job Status" — GET /invites/{invite.code}/target-users/job-status
func (s *InviteService) TargetUsersJobStatus(ctx context.Context, code string, opts ...RequestOption) (*TargetUsersJobStatus, error) {
	var st TargetUsersJobStatus
	_, err := s.c.do(ctx, &request{
		method: "GET", route: "/invites/{invite.code}/target-users/job-status", path: []any{code}, opts: opts,
	}, &st)
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// DefaultTargetUsersJobInterval is the polling interval
// [InviteService.WaitTargetUsersJob] uses when given none.
const DefaultTargetUsersJobInterval = time.Second

// WaitTargetUsersJob polls [InviteService.TargetUsersJobStatus] every
// interval (DefaultTargetUsersJobInterval when interval <= 0) until the job
// is COMPLETED, and returns its final status. A FAILED job returns its
// status and a [*TargetUsersJobError] carrying the job's error_message.
// UNSPECIFIED and PROCESSING keep it waiting, so give ctx a deadline: when
// ctx ends first, the last status read (nil if none) is returned with
// ctx's error. A failed status request ends the wait with its error.
func (s *InviteService) WaitTargetUsersJob(ctx context.Context, code string, interval time.Duration, opts ...RequestOption) (*TargetUsersJobStatus, error) {
	if interval <= 0 {
		interval = DefaultTargetUsersJobInterval
	}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	var last *TargetUsersJobStatus
	for {
		st, err := s.TargetUsersJobStatus(ctx, code, opts...)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = st
		switch st.Status {
		case TargetUsersJobCompleted:
			return st, nil
		case TargetUsersJobFailed:
			return st, &TargetUsersJobError{Code: code, Message: st.ErrorMessage, Job: *st}
		}
		if timer == nil {
			timer = time.NewTimer(interval)
		} else {
			timer.Reset(interval)
		}
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-timer.C:
		}
	}
}

// targetUsersHeader is the header line of a target-users CSV file.
const targetUsersHeader = "user_id"

// TargetUsersCSV is a target-users CSV file (header "user_id", then one id
// per line, each ending in "\n") generated from a list of ids as it is read.
// It holds only the ids and a few bytes of state, never the text, and it is
// an io.ReadSeeker: seeking back to the start regenerates the file, so a
// request carrying it can be retried. Make one with [NewTargetUsersCSV].
type TargetUsersCSV struct {
	ids     []Snowflake
	size    int64
	pos     int64    // offset of the next byte
	line    int      // the next line to render: 0 is the header, i is ids[i-1]
	pending []byte   // the rest of the line being read, inside buf
	buf     [21]byte // one rendered line: at most 20 digits and "\n"
}

// NewTargetUsersCSV returns the CSV file listing ids. It keeps ids (not a
// copy): do not change the slice while the file is read.
func NewTargetUsersCSV(ids []Snowflake) *TargetUsersCSV {
	f := &TargetUsersCSV{ids: ids, size: int64(len(targetUsersHeader) + 1)}
	for _, id := range ids {
		f.size += int64(decimalLen(uint64(id)) + 1)
	}
	return f
}

// Size returns the length of the file in bytes.
func (f *TargetUsersCSV) Size() int64 { return f.size }

// render puts line i into buf and returns it.
func (f *TargetUsersCSV) render(i int) []byte {
	if i == 0 {
		n := copy(f.buf[:], targetUsersHeader)
		f.buf[n] = '\n'
		return f.buf[:n+1]
	}
	b := strconv.AppendUint(f.buf[:0], uint64(f.ids[i-1]), 10)
	return append(b, '\n')
}

// Read implements io.Reader.
func (f *TargetUsersCSV) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(f.pending) == 0 {
			if f.line > len(f.ids) {
				break
			}
			f.pending = f.render(f.line)
			f.line++
		}
		c := copy(p[n:], f.pending)
		f.pending = f.pending[c:]
		n += c
	}
	f.pos += int64(n)
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Seek implements io.Seeker. Seeking to the start or the end is immediate;
// another offset regenerates the file up to it.
func (f *TargetUsersCSV) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = f.pos + offset
	case io.SeekEnd:
		abs = f.size + offset
	default:
		return f.pos, errors.New("guildkit: TargetUsersCSV.Seek: invalid whence")
	}
	if abs < 0 {
		return f.pos, errors.New("guildkit: TargetUsersCSV.Seek: negative position")
	}
	if abs == f.pos {
		return abs, nil
	}
	f.pos, f.line, f.pending = abs, 0, nil
	if abs >= f.size {
		f.line = len(f.ids) + 1
		return abs, nil
	}
	for at := int64(0); ; {
		b := f.render(f.line)
		f.line++
		if at+int64(len(b)) > abs {
			f.pending = b[abs-at:]
			return abs, nil
		}
		at += int64(len(b))
	}
}

func decimalLen(v uint64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}

// errMissingHeader and errBadUserID are the reasons a TargetUsersParseError
// gives.
var (
	errMissingHeader = errors.New(`the first line must be the header "user_id"`)
	errBadUserID     = errors.New("not a user id")
	errLineTooLong   = errors.New("line too long")
)

// ParseTargetUsersCSV reads a target-users CSV file as a stream: the header
// "user_id", then one user id per line. It yields the ids in file order,
// holding one line at a time. Blank lines, surrounding spaces, "\r\n" line
// ends, a UTF-8 byte-order mark and double quotes around a value are
// accepted; an empty file has no ids. Anything else (a first line that is
// not the header, a value that is not a non-zero decimal snowflake) is
// yielded as (0, *TargetUsersParseError) naming the line, and the iteration
// stops; a read error is yielded the same way.
func ParseTargetUsersCSV(r io.Reader) iter.Seq2[Snowflake, error] {
	return func(yield func(Snowflake, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), 64<<10)
		line, header := 0, false
		for sc.Scan() {
			line++
			b := sc.Bytes()
			if line == 1 {
				b = bytes.TrimPrefix(b, []byte("\ufeff"))
			}
			b = unquote(bytes.TrimSpace(b))
			if len(b) == 0 {
				continue
			}
			if !header {
				if string(b) != targetUsersHeader {
					yield(0, &TargetUsersParseError{Line: line, Text: clip(b), Err: errMissingHeader})
					return
				}
				header = true
				continue
			}
			id, ok := jsondec.ParseDecimal(b)
			if !ok || id == 0 {
				yield(0, &TargetUsersParseError{Line: line, Text: clip(b), Err: fmt.Errorf("%w: %q", errBadUserID, clip(b))})
				return
			}
			if !yield(Snowflake(id), nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = errLineTooLong
			}
			yield(0, &TargetUsersParseError{Line: line + 1, Err: err})
		}
	}
}

// unquote drops one pair of double quotes around b.
func unquote(b []byte) []byte {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		return bytes.TrimSpace(b[1 : len(b)-1])
	}
	return b
}

func clip(b []byte) string {
	if len(b) > 64 {
		b = b[:64]
	}
	return string(b)
}
