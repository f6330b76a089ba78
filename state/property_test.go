package state_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The property: after any sequence of REST operations that change guild
// state, interleaved with gateway faults (a drop, op 7, op 9 resumable or
// not, close 4009), the cache equals the server's view of every guild,
// field by field (guild, roles, channels, members), and the permissions it
// computes equal the server's. A failure is shrunk to a short sequence,
// printed as Go to paste into propertyRegressions.
//
// CI runs propertySeeds with a few hundred operations; GUILDKIT_STATE_PROPERTY=N
// runs N more seeds of 2,000 operations each.

// propOp is one step: Kind picks the operation, the numbers its targets
// (taken modulo what exists when it runs) and P its permission bits.
type propOp struct {
	Kind    opKind
	G, A, B int
	P       uint64
}

type opKind uint8

const (
	opRoleCreate opKind = iota
	opRoleModify
	opRoleDelete
	opRolePosition
	opChannelCreate
	opChannelPosition
	opMemberAdd
	opMemberRoles
	opMemberAddRole
	opMemberRemoveRole
	opMemberNick
	opMemberRemove
	opMemberBan
	opMemberTimeout
	opGuildModify
	opFault
	opKinds
)

var opNames = [...]string{"RoleCreate", "RoleModify", "RoleDelete", "RolePosition", "ChannelCreate", "ChannelPosition",
	"MemberAdd", "MemberRoles", "MemberAddRole", "MemberRemoveRole", "MemberNick", "MemberRemove", "MemberBan",
	"MemberTimeout", "GuildModify", "Fault"}

func (o propOp) String() string {
	return fmt.Sprintf("{Kind: %d /* %s */, G: %d, A: %d, B: %d, P: %d}", o.Kind, opNames[o.Kind], o.G, o.A, o.B, o.P)
}

// permPool are the bits random roles and overwrites are made of.
var permPool = []guildkit.Permissions{
	guildkit.PermissionViewChannel, guildkit.PermissionSendMessages, guildkit.PermissionAttachFiles,
	guildkit.PermissionEmbedLinks, guildkit.PermissionConnect, guildkit.PermissionSpeak, guildkit.PermissionManageRoles,
	guildkit.PermissionKickMembers, guildkit.PermissionMentionEveryone, guildkit.PermissionReadMessageHistory,
	guildkit.PermissionSendMessagesInThreads, guildkit.PermissionAdministrator,
}

func randPerms(rng *rand.Rand) uint64 {
	var p guildkit.Permissions
	for _, b := range permPool {
		if rng.IntN(4) == 0 && (b != guildkit.PermissionAdministrator || rng.IntN(8) == 0) {
			p |= b
		}
	}
	return uint64(p)
}

func genOps(seed uint64, n int) []propOp {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	ops := make([]propOp, n)
	for i := range ops {
		k := opKind(rng.IntN(int(opKinds)))
		if k == opFault && rng.IntN(2) == 0 { // faults a little rarer
			k = opMemberRoles
		}
		ops[i] = propOp{Kind: k, G: rng.IntN(2), A: rng.IntN(1 << 20), B: rng.IntN(1 << 20), P: randPerms(rng)}
	}
	return ops
}

// propertyRegressions are shrunk failures, kept.
var propertyRegressions = [][]propOp{}

// propertySeeds run in CI.
var propertySeeds = []uint64{1, 2}

func TestPropertyCacheEqualsServer(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for i, ops := range propertyRegressions {
		t.Run("regression"+strconv.Itoa(i), func(t *testing.T) { checkProperty(t, ops) })
	}
	n := 150
	seeds := slices.Clone(propertySeeds)
	if v := os.Getenv("GUILDKIT_STATE_PROPERTY"); v != "" {
		more, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("GUILDKIT_STATE_PROPERTY=%q: a number of seeds", v)
		}
		n = 2000
		base := uint64(time.Now().UnixNano())
		for i := range more {
			seeds = append(seeds, base+uint64(i))
		}
	}
	for _, seed := range seeds {
		t.Run("seed"+strconv.FormatUint(seed, 10), func(t *testing.T) { checkProperty(t, genOps(seed, n)) })
	}
}

// checkProperty runs ops; on a failure it shrinks them and reports the
// shortest failing sequence found.
func checkProperty(t *testing.T, ops []propOp) {
	fail := runScenario(t, ops)
	if fail == "" {
		return
	}
	t.Logf("%d operations fail, shrinking:\n%s", len(ops), fail)
	small := shrink(t, ops, fail)
	var b strings.Builder
	for _, o := range small {
		b.WriteString("\t" + o.String() + ",\n")
	}
	t.Fatalf("%s\nshrunk to %d operations (add to propertyRegressions):\n{\n%s}", runScenario(t, small), len(small), b.String())
}

// shrink removes chunks of ops while the run still fails, halving the
// chunk size down to one operation.
func shrink(t *testing.T, ops []propOp, _ string) []propOp {
	budget := 80
	deadline := time.Now().Add(2 * time.Minute) // shrinking's own bound
	for size := len(ops) / 2; size >= 1 && budget > 0; size /= 2 {
		for start := 0; start < len(ops) && budget > 0 && time.Now().Before(deadline); {
			cand := slices.Concat(ops[:start], ops[min(start+size, len(ops)):])
			budget--
			if runScenario(t, cand) != "" {
				ops = cand
				continue
			}
			start += size
		}
	}
	return ops
}

// recorder is a testing.TB that records failures instead of failing the
// test, so that a scenario can run many times while shrinking.
type recorder struct {
	testing.TB
	failed   []string
	cleanups []func()
}

type stopScenario struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, args ...any) {
	r.failed = append(r.failed, fmt.Sprintf(f, args...))
}
func (r *recorder) Error(args ...any)            { r.failed = append(r.failed, fmt.Sprint(args...)) }
func (r *recorder) Fatalf(f string, args ...any) { r.Errorf(f, args...); panic(stopScenario{}) }
func (r *recorder) Fatal(args ...any)            { r.Error(args...); panic(stopScenario{}) }
func (r *recorder) FailNow()                     { r.Error("FailNow"); panic(stopScenario{}) }
func (r *recorder) Fail()                        { r.Error("Fail") }
func (r *recorder) Failed() bool                 { return len(r.failed) > 0 }
func (r *recorder) Cleanup(f func())             { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Logf(string, ...any)          {}
func (r *recorder) Log(...any)                   {}

// runScenario runs ops against a fresh server and cache and returns what
// differed ("" when nothing did).
func runScenario(t *testing.T, ops []propOp) (fail string) {
	r := &recorder{TB: t}
	defer func() {
		for i := len(r.cleanups) - 1; i >= 0; i-- {
			r.cleanups[i]()
		}
	}()
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(stopScenario); !ok {
				panic(p)
			}
		}
		if len(r.failed) > 0 {
			fail = strings.Join(r.failed, "\n")
		}
	}()
	var guilds []guildkit.Guild
	var pool []guildkit.User
	h := newHarness(r, allPolicies(), 0, func(srv *guildkittest.Server) {
		for range 2 {
			guilds = append(guilds, seedGuild(srv, 4))
		}
		for i := range 6 {
			pool = append(pool, srv.AddUser(guildkit.User{Username: "pool" + strconv.Itoa(i)}))
		}
	})
	for _, op := range ops {
		runOp(h, guilds[op.G%len(guilds)].ID, pool, op)
	}
	for _, g := range guilds {
		h.settle(g.ID)
	}
	for _, g := range guilds {
		matchServer(r, h.cache, h.srv, g.ID, true)
	}
	return ""
}

// runOp applies one operation; the server may refuse it (a hierarchy, a
// limit), which is part of the game.
func runOp(h *harness, gid guildkit.Snowflake, pool []guildkit.User, op propOp) {
	ctx := context.Background()
	rc := h.srv.Client()
	perms := guildkit.Permissions(op.P)
	roles, _ := rc.Roles.List(ctx, gid)
	pickRole := func(n int, everyone bool) (guildkit.Snowflake, bool) {
		var ids []guildkit.Snowflake
		for _, r := range roles {
			if everyone || r.ID != gid {
				ids = append(ids, r.ID)
			}
		}
		if len(ids) == 0 {
			return 0, false
		}
		slices.Sort(ids)
		return ids[n%len(ids)], true
	}
	members, _ := rc.Members.List(ctx, gid, &guildkit.MemberListParams{Limit: guildkit.Some(1000)})
	pickMember := func(n int) (guildkit.Snowflake, bool) {
		var ids []guildkit.Snowflake
		for _, m := range members {
			if m.User.ID != h.srv.BotID() {
				ids = append(ids, m.User.ID)
			}
		}
		if len(ids) == 0 {
			return 0, false
		}
		slices.Sort(ids)
		return ids[n%len(ids)], true
	}
	switch op.Kind {
	case opRoleCreate:
		_, _ = rc.Roles.Create(ctx, gid, &guildkit.RoleCreateParams{Name: guildkit.Some("r" + strconv.Itoa(op.A%100)),
			Permissions: guildkit.Some(perms), Hoist: guildkit.Some(op.B%2 == 0)})
	case opRoleModify:
		if id, ok := pickRole(op.A, true); ok {
			_, _ = rc.Roles.Modify(ctx, gid, id, &guildkit.RoleModifyParams{Permissions: guildkit.Some(perms),
				Mentionable: guildkit.Some(op.B%2 == 0)})
		}
	case opRoleDelete:
		if id, ok := pickRole(op.A, false); ok {
			_ = rc.Roles.Delete(ctx, gid, id)
		}
	case opRolePosition:
		if id, ok := pickRole(op.A, false); ok {
			_, _ = rc.Roles.ModifyPositions(ctx, gid, []guildkit.RolePositionParams{{ID: id, Position: guildkit.Some(1 + op.B%len(roles))}})
		}
	case opChannelCreate:
		var ows []guildkit.PermissionOverwriteParams
		if id, ok := pickRole(op.A, true); ok {
			ows = append(ows, guildkit.PermissionOverwriteParams{ID: id, Type: guildkit.OverwriteTypeRole,
				Allow: guildkit.Some(perms &^ guildkit.PermissionAdministrator), Deny: guildkit.Some(guildkit.Permissions(op.B) & 0xFFFF &^ perms)})
		}
		if id, ok := pickMember(op.B); ok && op.A%3 == 0 {
			ows = append(ows, guildkit.PermissionOverwriteParams{ID: id, Type: guildkit.OverwriteTypeMember,
				Deny: guildkit.Some(perms &^ guildkit.PermissionAdministrator)})
		}
		typ := guildkit.ChannelTypeGuildText
		if op.B%3 == 0 {
			typ = guildkit.ChannelTypeGuildVoice
		}
		_, _ = rc.Channels.Create(ctx, gid, &guildkit.ChannelCreateParams{Name: "c" + strconv.Itoa(op.A%100), Type: guildkit.Some(typ),
			PermissionOverwrites: guildkit.Some(ows)})
	case opChannelPosition:
		chans, _ := rc.Channels.List(ctx, gid)
		if len(chans) > 0 {
			ch := chans[op.A%len(chans)]
			_ = rc.Channels.ModifyPositions(ctx, gid, []guildkit.ChannelPositionParams{{ID: ch.ID, Position: guildkit.Some(op.B % 10)}})
		}
	case opMemberAdd:
		u := pool[op.A%len(pool)]
		params := &guildkit.MemberAddParams{AccessToken: h.srv.NewAccessToken(u.ID), Nick: guildkit.Some("n" + strconv.Itoa(op.B%50))}
		if id, ok := pickRole(op.B, false); ok {
			params.Roles = guildkit.Some([]guildkit.Snowflake{id})
		}
		_, _ = rc.Members.Add(ctx, gid, u.ID, params)
	case opMemberRoles:
		if uid, ok := pickMember(op.A); ok {
			var ids []guildkit.Snowflake
			for i := range 3 {
				if id, ok := pickRole(op.B>>i, false); ok && (op.B>>(8+i))&1 == 1 {
					ids = append(ids, id)
				}
			}
			_, _ = rc.Members.Modify(ctx, gid, uid, &guildkit.MemberModifyParams{Roles: guildkit.Some(ids)})
		}
	case opMemberAddRole, opMemberRemoveRole:
		uid, ok1 := pickMember(op.A)
		rid, ok2 := pickRole(op.B, false)
		if ok1 && ok2 {
			if op.Kind == opMemberAddRole {
				_ = rc.Members.AddRole(ctx, gid, uid, rid)
			} else {
				_ = rc.Members.RemoveRole(ctx, gid, uid, rid)
			}
		}
	case opMemberNick:
		if uid, ok := pickMember(op.A); ok {
			nick := guildkit.Some("nick" + strconv.Itoa(op.B%20))
			if op.B%4 == 0 {
				nick = guildkit.Null[string]()
			}
			_, _ = rc.Members.Modify(ctx, gid, uid, &guildkit.MemberModifyParams{Nick: nick})
		}
	case opMemberRemove:
		if uid, ok := pickMember(op.A); ok {
			_ = rc.Members.Remove(ctx, gid, uid)
		}
	case opMemberBan:
		if uid, ok := pickMember(op.A); ok {
			_ = rc.Bans.Create(ctx, gid, uid, nil)
		}
	case opMemberTimeout:
		if uid, ok := pickMember(op.A); ok {
			until := guildkit.Some(h.srv.Now().Add(time.Duration(1+op.B%100) * time.Minute))
			if op.B%3 == 0 {
				until = guildkit.Null[time.Time]()
			}
			_, _ = rc.Members.Modify(ctx, gid, uid, &guildkit.MemberModifyParams{CommunicationDisabledUntil: until})
		}
	case opGuildModify:
		_, _ = rc.Guilds.Modify(ctx, gid, &guildkit.GuildModifyParams{Name: guildkit.Some("g" + strconv.Itoa(op.A%1000))})
	case opFault:
		runFault(h, op.A%5)
	}
}

// runFault injects a gateway fault and waits until the shard is back:
// resumed, or rebuilt with its member lists.
func runFault(h *harness, which int) {
	switch which {
	case 0, 1, 2:
		f := []guildkittest.GatewayFault{{Kind: guildkittest.FaultDrop}, {Kind: guildkittest.FaultReconnect},
			{Kind: guildkittest.FaultInvalidSession, Resumable: true}}[which]
		h.fault(f)
		select {
		case <-h.resumed:
		case <-time.After(patience):
			h.t.Fatalf("no RESUMED after %s", f.Kind)
		}
	default:
		f := guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession}
		if which == 4 {
			f = guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 4009}
		}
		h.srv.AdvanceClock(31 * time.Second) // the identify window and the member-list limit
		h.fault(f)
		h.waitRebuild()
		h.waitLoaded()
	}
}
