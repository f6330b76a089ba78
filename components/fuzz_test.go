package components_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed012df1e9/guildkit/components"
)

// addGoldens seeds f with the golden files of testdata (the committed
// corpus in testdata/fuzz/<FuzzName>/ adds smaller and odd inputs).
func addGoldens(f *testing.F, names ...string) {
	f.Helper()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzDecodeComponents decodes arbitrary bytes as a component list. It
// checks that nothing panics (decoding, Validate, AssignIDs) and that
// decode → encode → decode → encode is stable: the second encoding equals the
// first.
func FuzzDecodeComponents(f *testing.F) {
	addGoldens(f, "v2_message.json", "modal.json", "unknown.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		var l1 components.List
		if err := json.Unmarshal(data, &l1); err != nil {
			return
		}
		b1, err := json.Marshal(l1)
		if err != nil {
			t.Fatalf("encode after decode: %v", err)
		}
		var l2 components.List
		if err := json.Unmarshal(b1, &l2); err != nil {
			t.Fatalf("decode of our own encoding %s: %v", b1, err)
		}
		b2, err := json.Marshal(l2)
		if err != nil {
			t.Fatalf("second encode: %v", err)
		}
		if !bytes.Equal(b1, b2) {
			t.Fatalf("unstable round trip:\n%s\n%s", b1, b2)
		}
		for _, target := range []components.Target{components.LegacyMessage, components.V2Message, components.Modal, components.V2Message | components.NonInteractive} {
			_ = components.Validate(target, l2...)
		}
		components.AssignIDs(l2...)
		if _, err := json.Marshal(l2); err != nil {
			t.Fatalf("encode after AssignIDs: %v", err)
		}
	})
}

// FuzzDecodeModalSubmit decodes arbitrary bytes as modal submission data,
// checks decode → encode → decode → encode is stable, and runs every look-up
// on every custom_id found, which must not panic.
func FuzzDecodeModalSubmit(f *testing.F) {
	addGoldens(f, "modal_submit.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		var d1 components.ModalSubmitData
		if err := json.Unmarshal(data, &d1); err != nil {
			return
		}
		b1, err := json.Marshal(d1)
		if err != nil {
			t.Fatalf("encode after decode: %v", err)
		}
		var d2 components.ModalSubmitData
		if err := json.Unmarshal(b1, &d2); err != nil {
			t.Fatalf("decode of our own encoding %s: %v", b1, err)
		}
		b2, err := json.Marshal(d2)
		if err != nil {
			t.Fatalf("second encode: %v", err)
		}
		if !bytes.Equal(b1, b2) {
			t.Fatalf("unstable round trip:\n%s\n%s", b1, b2)
		}
		var ids []string
		var collect func(rs []components.ResponseData)
		collect = func(rs []components.ResponseData) {
			for _, r := range rs {
				ids = append(ids, r.CustomID)
				if r.Component != nil {
					collect([]components.ResponseData{*r.Component})
				}
				collect(r.Components)
			}
		}
		collect(d2.Components)
		for _, id := range append(ids, "missing") {
			_, _ = d2.Text(id)
			_, _ = d2.Values(id)
			_, _ = d2.Snowflakes(id)
			_, _ = d2.Files(id)
			_, _, _ = d2.Selected(id)
			_, _ = d2.Checked(id)
			if r, err := d2.Field(id); err == nil && r.CustomID != id {
				t.Fatalf("Field(%q) returned %q", id, r.CustomID)
			}
		}
	})
}

// FuzzRejectedStaysRejected: decoding a tree and encoding it again never
// turns a tree Validate refuses into one it accepts (a field dropped or a
// zero collapsed at decode time would).
func FuzzRejectedStaysRejected(f *testing.F) {
	for _, s := range []string{
		`[{"type":18,"label":"Agree","component":{"type":23,"custom_id":"ok","required":true}}]`,
		`[{"type":14,"spacing":0}]`,
		`[{"type":14,"divider":null}]`,
		`[{"type":1,"components":[{"type":2,"style":0,"label":"x","custom_id":"a"}]}]`,
		`[{"type":17,"accent_color":-1,"components":[{"type":10,"content":"x"}]}]`,
		`[{"type":10,"content":""}]`,
	} {
		f.Add(s, uint8(2))
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, doc string, target uint8) {
		tg := components.Target(target%3 + 1)
		var list components.List
		if json.Unmarshal([]byte(doc), &list) != nil {
			return
		}
		if components.Validate(tg, list...) == nil {
			return
		}
		again, err := json.Marshal(list)
		if err != nil {
			return
		}
		var back components.List
		if err := json.Unmarshal(again, &back); err != nil {
			t.Fatalf("re-encoded tree does not decode: %v\n%s", err, again)
		}
		if components.Validate(tg, back...) == nil {
			t.Fatalf("refused before the round trip, accepted after:\n in: %s\nout: %s", doc, again)
		}
	})
}
