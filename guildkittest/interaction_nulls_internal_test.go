package guildkittest

import "testing"

// A body without a null is handed on as it is, without being decoded.
func TestNullsReadWithoutNullAllocatesNothing(t *testing.T) {
	body := []byte(`{"content":"hello","embeds":[{"title":"t"}]}`)
	answer := []byte(`{"type":4,"data":{"content":"hello"}}`)
	allocs := testing.AllocsPerRun(100, func() {
		if string(nullsRead(body, true)) != string(body) || string(answerNullsRead(answer)) != string(answer) {
			t.Fatal("a body without a null changed")
		}
	})
	if allocs != 0 {
		t.Errorf("allocs = %v, want 0", allocs)
	}
}
