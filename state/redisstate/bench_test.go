package redisstate_test

import (
	"context"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/state"
	"github.com/seed012df1e9/guildkit/state/redisstate"
)

// The cost per event applied and per read, on one local redis-server,
// beside the in-memory cache fed the same events:
//
//	go test -run '^$' -bench . -benchmem ./...   (in state/redisstate)

func benchStores(b *testing.B) map[string]state.Store {
	rs := redistest.Start(b)
	pol := state.Policies{Members: state.All(), Emojis: state.All(), Stickers: state.All()}
	return map[string]state.Store{
		"memory": state.NewCache(&state.Options{Policies: &pol}),
		"redis":  newStore(b, client(b, rs), &pol, redisstate.Options{}),
	}
}

func benchMember(gid state.Snowflake, i int) *state.Member {
	uid := state.Snowflake(1_000_000 + i%1000)
	return &state.Member{GuildID: gid, User: state.User{ID: uid, Username: "someone", GlobalName: "Some One", Discriminator: "0", AccentColor: -1},
		Nick: "nick", Roles: state.NewIDs(gid+1, gid+2)}
}

func BenchmarkApply(b *testing.B) {
	ctx := context.Background()
	for name, st := range benchStores(b) {
		if err := st.Apply(ctx, guildCreate(7, "bench")); err != nil {
			b.Fatal(err)
		}
		create := guildCreate(8, "big")
		for i := range 1000 {
			create = append(create, state.Update{Op: state.OpMemberPut, GuildID: 8, Member: benchMember(8, i), Source: state.SourceList})
		}
		b.Run(name+"/guild-create-1000-members", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := st.Apply(ctx, create); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/member-update", func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				ev := []state.Update{{Op: state.OpMemberPut, GuildID: 7, Member: benchMember(7, i), Source: state.SourceEvent}}
				if err := st.Apply(ctx, ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRead(b *testing.B) {
	ctx := context.Background()
	for name, st := range benchStores(b) {
		if err := st.Apply(ctx, guildCreate(7, "bench")); err != nil {
			b.Fatal(err)
		}
		for i := range 1000 {
			if err := st.Apply(ctx, []state.Update{{Op: state.OpMemberPut, GuildID: 7, Member: benchMember(7, i), Source: state.SourceList}}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(name+"/member", func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				if _, err := st.Member(7, benchMember(7, i).User.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/permissions", func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				if _, err := state.MemberPermissions(st, 7, benchMember(7, i).User.ID, benchTime); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var benchTime = time.Unix(1_700_000_000, 0)

// BenchmarkReadWhileWriting reads members from every goroutine while one
// goroutine applies member updates without pause.
func BenchmarkReadWhileWriting(b *testing.B) {
	ctx := context.Background()
	for name, st := range benchStores(b) {
		if err := st.Apply(ctx, guildCreate(7, "bench")); err != nil {
			b.Fatal(err)
		}
		for i := range 1000 {
			if err := st.Apply(ctx, []state.Update{{Op: state.OpMemberPut, GuildID: 7, Member: benchMember(7, i), Source: state.SourceList}}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(name, func(b *testing.B) {
			stop, done := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					_ = st.Apply(ctx, []state.Update{{Op: state.OpMemberPut, GuildID: 7, Member: benchMember(7, i), Source: state.SourceEvent}})
				}
			}()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					if _, err := st.Member(7, benchMember(7, i).User.ID); err != nil {
						b.Error(err)
						return
					}
					i++
				}
			})
			b.StopTimer()
			close(stop)
			<-done
		})
	}
}
