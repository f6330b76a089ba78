package gateway

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
)

// The benchmarks of issue 29: the gateway's read path (coder/websocket,
// zlib-stream, the frame and the event decoded by the SDK's decoder into
// the SDK's types) beside a twin (the same WebSocket library and
// encoding/json into plain structs), in the same run, on what the platform
// sends: a GUILD_CREATE of 1,000 members whose nullable fields are all set,
// and a stream of GUILD_MEMBER_ADD. Each reads messages replayed from
// memory by a fake connection, so that only the client's work is measured.
//
//	go test -run '^$' -bench '^BenchmarkGateway' -benchmem -cpu 1 ./gateway/
//	scripts/bench-gateway.sh   # the medians of 3 runs, as guildkit/twin ratios
//
// events/s is per core with -cpu 1.

// replay is the server side of a WebSocket connection that answers the
// handshake and then sends frames, already encoded, until they run out.
type replay struct {
	frames []byte
	off    int
}

func (r *replay) Read(p []byte) (int, error) {
	if r.off == len(r.frames) {
		return 0, io.EOF
	}
	n := copy(p, r.frames[r.off:])
	r.off += n
	return n, nil
}

func (r *replay) Write(p []byte) (int, error) { return len(p), nil } // the client's close frame
func (r *replay) Close() error                { return nil }

// RoundTrip answers the handshake with 101 and hands r over as the
// connection.
func (r *replay) RoundTrip(req *http.Request) (*http.Response, error) {
	h := sha1.Sum([]byte(req.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	resp := &http.Response{
		StatusCode: http.StatusSwitchingProtocols, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{
			"Connection":           {"Upgrade"},
			"Upgrade":              {"websocket"},
			"Sec-Websocket-Accept": {base64.StdEncoding.EncodeToString(h[:])},
		},
		Body:    r,
		Request: req,
	}
	return resp, nil
}

// wsFrame appends one unmasked server frame holding msg.
func wsFrame(dst []byte, binaryMsg bool, msg []byte) []byte {
	op := byte(0x1)
	if binaryMsg {
		op = 0x2
	}
	dst = append(dst, 0x80|op)
	switch n := len(msg); {
	case n < 126:
		dst = append(dst, byte(n))
	case n < 1<<16:
		dst = append(dst, 126)
		dst = binary.BigEndian.AppendUint16(dst, uint16(n))
	default:
		dst = append(dst, 127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	return append(dst, msg...)
}

// stream is what one connection carries: its messages framed, plain or as
// one zlib stream with a sync flush after each message.
type stream struct {
	frames []byte
	count  int  // messages
	bytes  int  // uncompressed bytes of the messages
	zlib   bool // frames are binary, compressed
}

func newStream(t testing.TB, msgs [][]byte, compress bool) stream {
	s := stream{count: len(msgs), zlib: compress}
	var zbuf bytes.Buffer
	zw := zlib.NewWriter(&zbuf)
	for _, m := range msgs {
		s.bytes += len(m)
		if !compress {
			s.frames = wsFrame(s.frames, false, m)
			continue
		}
		zbuf.Reset()
		_, err := zw.Write(m)
		require.NoError(t, err)
		require.NoError(t, zw.Flush()) // ends with 00 00 ff ff
		s.frames = wsFrame(s.frames, true, zbuf.Bytes())
	}
	return s
}

// dial opens a client connection that reads s.
func dial(b *testing.B, s stream) *websocket.Conn { return dialTB(b, s) }

func dialTB(b testing.TB, s stream) *websocket.Conn {
	r := &replay{frames: s.frames}
	ws, _, err := websocket.Dial(context.Background(), "ws://gateway.invalid/?v=10&encoding=json", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: r},
	})
	if err != nil {
		b.Fatal(err)
	}
	ws.SetReadLimit(DefaultReadLimit)
	return ws
}

// reader reads one event from a connection, the way a client does.
type reader interface {
	next(ctx context.Context) error
}

// runGatewayBench reads b.N × s.count events through readers made by
// newReader, one connection per s (a new connection, unmeasured, when the
// stream runs out), and reports events per second and per event costs.
func runGatewayBench(b *testing.B, s stream, newReader func(ws *websocket.Conn) reader) {
	ctx := context.Background()
	b.SetBytes(int64(s.bytes / s.count))
	b.ReportAllocs()
	var ws *websocket.Conn
	var r reader
	left := 0
	start := time.Now()
	var paused time.Duration
	for b.Loop() {
		if left == 0 {
			b.StopTimer()
			t0 := time.Now()
			if ws != nil {
				ws.CloseNow()
			}
			ws = dial(b, s)
			r = newReader(ws)
			left = s.count
			paused += time.Since(t0)
			b.StartTimer()
		}
		if err := r.next(ctx); err != nil {
			b.Fatal(err)
		}
		left--
	}
	elapsed := time.Since(start) - paused
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	if ws != nil {
		ws.CloseNow()
	}
}

// ourReader is the shard's read path: conn.read's receive, up to the
// event handed to the owner.
type ourReader struct {
	ws *websocket.Conn
	z  *zlibStream
	mr messageReader
}

func (r *ourReader) next(ctx context.Context) error {
	m := receive(ctx, r.ws, &r.mr, r.z)
	if m.err != nil || m.skip != nil || m.decodeErr != nil || m.ev == nil {
		return errors.Join(m.err, m.skip, m.decodeErr, errors.New("no event"))
	}
	benchSink = m.ev
	return nil
}

var benchSink any

// twinReader reads as a client built on coder/websocket and encoding/json
// would: the payload into {op, d, s, t} with d raw, then d into the plain
// struct of its event. With zlib-stream, one compress/zlib reader over the
// connection's stream and a json.Decoder reading the payloads from it.
type twinReader struct {
	ws  *websocket.Conn
	buf bytes.Buffer
	zr  io.ReadCloser
	dec *json.Decoder
}

type twinPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

// payload reads the next payload, d left raw.
func (r *twinReader) payload(ctx context.Context) (twinPayload, error) {
	var p twinPayload
	for {
		typ, data, err := r.ws.Read(ctx)
		if err != nil {
			return p, err
		}
		if typ == websocket.MessageText {
			return p, json.Unmarshal(data, &p)
		}
		r.buf.Write(data)
		if !bytes.HasSuffix(data, zlibSuffix) {
			continue
		}
		if r.zr == nil {
			if r.zr, err = zlib.NewReader(&r.buf); err != nil {
				return p, err
			}
			r.dec = json.NewDecoder(r.zr)
		}
		return p, r.dec.Decode(&p)
	}
}

func (r *twinReader) next(ctx context.Context) error {
	p, err := r.payload(ctx)
	if err != nil {
		return err
	}
	if p.T == nil {
		return errors.New("twin: no t")
	}
	var ev any
	switch *p.T {
	case "GUILD_CREATE":
		ev = new(twinGuildCreate)
	case "GUILD_MEMBER_ADD":
		ev = new(twinGuildMemberAdd)
	default:
		return errors.New("twin: unexpected " + *p.T)
	}
	if err := json.Unmarshal(p.D, ev); err != nil {
		return err
	}
	benchSink = ev
	return nil
}

// The twin's plain structs: the fields the SDK's types model, as a client
// without the SDK would write them (ids as strings, nullable fields as
// pointers).
type (
	twinUser struct {
		ID                   string          `json:"id"`
		Username             string          `json:"username"`
		Discriminator        string          `json:"discriminator"`
		GlobalName           *string         `json:"global_name"`
		Avatar               *string         `json:"avatar"`
		Bot                  bool            `json:"bot"`
		System               bool            `json:"system"`
		Banner               *string         `json:"banner"`
		AccentColor          *int            `json:"accent_color"`
		PublicFlags          int             `json:"public_flags"`
		Flags                int             `json:"flags"`
		AvatarDecorationData *twinDecoration `json:"avatar_decoration_data"`
		PrimaryGuild         *twinPrimary    `json:"primary_guild"`
	}
	twinDecoration struct {
		Asset string `json:"asset"`
		SKUID string `json:"sku_id"`
	}
	twinPrimary struct {
		IdentityGuildID *string `json:"identity_guild_id"`
		IdentityEnabled *bool   `json:"identity_enabled"`
		Tag             *string `json:"tag"`
		Badge           *string `json:"badge"`
	}
	twinMember struct {
		User                       *twinUser       `json:"user"`
		Nick                       *string         `json:"nick"`
		Avatar                     *string         `json:"avatar"`
		Banner                     *string         `json:"banner"`
		Roles                      []string        `json:"roles"`
		JoinedAt                   *time.Time      `json:"joined_at"`
		PremiumSince               *time.Time      `json:"premium_since"`
		Deaf                       bool            `json:"deaf"`
		Mute                       bool            `json:"mute"`
		Flags                      int             `json:"flags"`
		Pending                    *bool           `json:"pending"`
		Permissions                string          `json:"permissions"`
		CommunicationDisabledUntil *time.Time      `json:"communication_disabled_until"`
		AvatarDecorationData       *twinDecoration `json:"avatar_decoration_data"`
	}
	twinGuildMemberAdd struct {
		twinMember
		GuildID string `json:"guild_id"`
	}
	twinRole struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Color  int    `json:"color"`
		Colors struct {
			PrimaryColor   int  `json:"primary_color"`
			SecondaryColor *int `json:"secondary_color"`
			TertiaryColor  *int `json:"tertiary_color"`
		} `json:"colors"`
		Hoist        bool    `json:"hoist"`
		Icon         *string `json:"icon"`
		UnicodeEmoji *string `json:"unicode_emoji"`
		Position     int     `json:"position"`
		Permissions  string  `json:"permissions"`
		Managed      bool    `json:"managed"`
		Mentionable  bool    `json:"mentionable"`
		Tags         *struct {
			BotID                 *string `json:"bot_id"`
			IntegrationID         *string `json:"integration_id"`
			SubscriptionListingID *string `json:"subscription_listing_id"`
		} `json:"tags"`
		Flags int `json:"flags"`
	}
	twinOverwrite struct {
		ID    string `json:"id"`
		Type  int    `json:"type"`
		Allow string `json:"allow"`
		Deny  string `json:"deny"`
	}
	twinChannel struct {
		ID                   string          `json:"id"`
		Type                 int             `json:"type"`
		GuildID              string          `json:"guild_id"`
		Position             int             `json:"position"`
		PermissionOverwrites []twinOverwrite `json:"permission_overwrites"`
		Name                 string          `json:"name"`
		Topic                *string         `json:"topic"`
		NSFW                 bool            `json:"nsfw"`
		LastMessageID        *string         `json:"last_message_id"`
		Bitrate              int             `json:"bitrate"`
		UserLimit            int             `json:"user_limit"`
		RateLimitPerUser     int             `json:"rate_limit_per_user"`
		OwnerID              string          `json:"owner_id"`
		ParentID             *string         `json:"parent_id"`
		LastPinTimestamp     *time.Time      `json:"last_pin_timestamp"`
		RTCRegion            *string         `json:"rtc_region"`
		VideoQualityMode     int             `json:"video_quality_mode"`
		MessageCount         int             `json:"message_count"`
		MemberCount          int             `json:"member_count"`
		ThreadMetadata       *struct {
			Archived            bool       `json:"archived"`
			AutoArchiveDuration int        `json:"auto_archive_duration"`
			ArchiveTimestamp    time.Time  `json:"archive_timestamp"`
			Locked              bool       `json:"locked"`
			Invitable           *bool      `json:"invitable"`
			CreateTimestamp     *time.Time `json:"create_timestamp"`
		} `json:"thread_metadata"`
		DefaultAutoArchiveDuration int      `json:"default_auto_archive_duration"`
		Flags                      int      `json:"flags"`
		AppliedTags                []string `json:"applied_tags"`
	}
	twinVoiceState struct {
		ChannelID               *string     `json:"channel_id"`
		UserID                  string      `json:"user_id"`
		Member                  *twinMember `json:"member"`
		SessionID               string      `json:"session_id"`
		Deaf                    bool        `json:"deaf"`
		Mute                    bool        `json:"mute"`
		SelfDeaf                bool        `json:"self_deaf"`
		SelfMute                bool        `json:"self_mute"`
		SelfStream              bool        `json:"self_stream"`
		SelfVideo               bool        `json:"self_video"`
		Suppress                bool        `json:"suppress"`
		RequestToSpeakTimestamp *time.Time  `json:"request_to_speak_timestamp"`
	}
	twinPresence struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		Status     string `json:"status"`
		Activities []struct {
			Name    string  `json:"name"`
			Type    int     `json:"type"`
			URL     *string `json:"url"`
			State   *string `json:"state"`
			Details *string `json:"details"`
		} `json:"activities"`
		ClientStatus map[string]string `json:"client_status"`
	}
	twinGuildCreate struct {
		ID                          string           `json:"id"`
		Name                        string           `json:"name"`
		Icon                        *string          `json:"icon"`
		Splash                      *string          `json:"splash"`
		DiscoverySplash             *string          `json:"discovery_splash"`
		OwnerID                     string           `json:"owner_id"`
		AFKChannelID                *string          `json:"afk_channel_id"`
		AFKTimeout                  int              `json:"afk_timeout"`
		WidgetEnabled               bool             `json:"widget_enabled"`
		WidgetChannelID             *string          `json:"widget_channel_id"`
		VerificationLevel           int              `json:"verification_level"`
		DefaultMessageNotifications int              `json:"default_message_notifications"`
		ExplicitContentFilter       int              `json:"explicit_content_filter"`
		Roles                       []twinRole       `json:"roles"`
		Features                    []string         `json:"features"`
		MFALevel                    int              `json:"mfa_level"`
		ApplicationID               *string          `json:"application_id"`
		SystemChannelID             *string          `json:"system_channel_id"`
		SystemChannelFlags          int              `json:"system_channel_flags"`
		RulesChannelID              *string          `json:"rules_channel_id"`
		MaxMembers                  int              `json:"max_members"`
		VanityURLCode               *string          `json:"vanity_url_code"`
		Description                 *string          `json:"description"`
		Banner                      *string          `json:"banner"`
		PremiumTier                 int              `json:"premium_tier"`
		PremiumSubscriptionCount    int              `json:"premium_subscription_count"`
		PreferredLocale             string           `json:"preferred_locale"`
		PublicUpdatesChannelID      *string          `json:"public_updates_channel_id"`
		NSFWLevel                   int              `json:"nsfw_level"`
		PremiumProgressBarEnabled   bool             `json:"premium_progress_bar_enabled"`
		JoinedAt                    time.Time        `json:"joined_at"`
		Large                       bool             `json:"large"`
		Unavailable                 bool             `json:"unavailable"`
		MemberCount                 int              `json:"member_count"`
		VoiceStates                 []twinVoiceState `json:"voice_states"`
		Members                     []twinMember     `json:"members"`
		Channels                    []twinChannel    `json:"channels"`
		Threads                     []twinChannel    `json:"threads"`
		Presences                   []twinPresence   `json:"presences"`
	}
)

// frameOf wraps d as a dispatch payload.
func frameOf(name string, seq int, d []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"t":"` + name + `","s":` + itoa(seq) + `,"op":0,"d":`)
	b.Write(d)
	b.WriteString(`}`)
	return b.Bytes()
}

// guildCreateMessages returns n dispatches of the realistic GUILD_CREATE.
func guildCreateMessages(b testing.TB, n int) [][]byte {
	d := realisticGuildCreate(b, 1000)
	out := make([][]byte, n)
	for i := range out {
		out[i] = frameOf("GUILD_CREATE", i+1, d)
	}
	return out
}

// memberAddMessages returns n dispatches of GUILD_MEMBER_ADD, each its own
// member (every nullable field set).
func memberAddMessages(b testing.TB, n int) [][]byte {
	members := realisticMembers(b, n)
	out := make([][]byte, n)
	for i, m := range members {
		d := strings.Replace(string(m), `{`, `{"guild_id":"613425648685547541",`, 1)
		out[i] = frameOf("GUILD_MEMBER_ADD", i+1, []byte(d))
	}
	return out
}

// messageContent is the content of the MESSAGE_CREATE fixture: lines,
// quotes, a tab, backslashes and an emoji as a surrogate pair, escaped.
const messageContent = `Hello <@1100000000000000001> — see <#613425648685547550>\nThe \"build\" is green:\n\tok  \\guildkit\\ \ud83d\ude00`

// messageCreateMessages returns n dispatches of testdata's MESSAGE_CREATE
// (every nullable field set, content of several lines), each its own
// message id.
func messageCreateMessages(b testing.TB, n int) [][]byte {
	var d bytes.Buffer
	require.NoError(b, json.Compact(&d, fixtures(b)["message_create.json"].D))
	require.Contains(b, d.String(), messageContent)
	out := make([][]byte, n)
	for i := range out {
		m := strings.Replace(d.String(), "1177890123456788888", itoa(1177890123456788888+i), 1)
		out[i] = frameOf("MESSAGE_CREATE", i+1, []byte(m))
	}
	return out
}

func BenchmarkGatewayGuildCreate(b *testing.B) {
	benchReaders(b, guildCreateMessages(b, 16))
}

func BenchmarkGatewayMemberAdd(b *testing.B) {
	benchReaders(b, memberAddMessages(b, 4000))
}

// benchReaders runs guildkit's reader and the twin's over msgs, plain and
// through zlib-stream, as sub-benchmarks guildkit/plain, twin/plain,
// guildkit/zlib-stream and twin/zlib-stream.
func benchReaders(b *testing.B, msgs [][]byte) {
	for _, compress := range []bool{false, true} {
		s := newStream(b, msgs, compress)
		name := "plain"
		if compress {
			name = "zlib-stream"
		}
		b.Run("guildkit/"+name, func(b *testing.B) {
			runGatewayBench(b, s, func(ws *websocket.Conn) reader {
				r := &ourReader{ws: ws}
				if compress {
					r.z = newZlibStream(int(DefaultReadLimit))
				}
				return r
			})
		})
		b.Run("twin/"+name, func(b *testing.B) {
			runGatewayBench(b, s, func(ws *websocket.Conn) reader { return &twinReader{ws: ws} })
		})
	}
}

// TestBenchmarkReadersAgree reads the benchmarks' streams to their end with
// both readers and checks they decode the same events, so that the
// benchmarks compare equal work.
func TestBenchmarkReadersAgree(t *testing.T) {
	for _, compress := range []bool{false, true} {
		for _, msgs := range [][][]byte{guildCreateMessages(t, 2), memberAddMessages(t, 50)} {
			s := newStream(t, msgs, compress)
			var ours, twins []string
			for _, side := range []string{"guildkit", "twin"} {
				ws := dialTB(t, s)
				var r reader
				if side == "twin" {
					r = &twinReader{ws: ws}
				} else {
					or := &ourReader{ws: ws}
					if compress {
						or.z = newZlibStream(int(DefaultReadLimit))
					}
					r = or
				}
				for range s.count {
					require.NoError(t, r.next(context.Background()), "%s zlib=%v", side, compress)
					var id string
					switch e := benchSink.(type) {
					case *GuildCreate:
						id = e.Members[len(e.Members)-1].User.ID.String() + " " + itoa(len(e.Members))
					case *GuildMemberAdd:
						id = e.User.ID.String() + " " + e.GuildID.String()
					case *twinGuildCreate:
						id = e.Members[len(e.Members)-1].User.ID + " " + itoa(len(e.Members))
					case *twinGuildMemberAdd:
						id = e.User.ID + " " + e.GuildID
					default:
						t.Fatalf("%T", e)
					}
					if side == "twin" {
						twins = append(twins, id)
					} else {
						ours = append(ours, id)
					}
				}
				ws.CloseNow()
			}
			require.Equal(t, ours, twins)
		}
	}
}
