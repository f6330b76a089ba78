package interactions

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers the platform signs a delivery with.
const (
	HeaderSignature = "X-Signature-Ed25519"
	HeaderTimestamp = "X-Signature-Timestamp"
)

// ParsePublicKey parses an application's public key as the developer
// portal shows it: 64 hexadecimal digits (32 bytes).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	s = strings.TrimSpace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("interactions: the public key is not hexadecimal: %w", err)
	}
	if len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("interactions: the public key has %d bytes, want %d (64 hexadecimal digits)", len(b), ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// Errors of [Verify]; each is answered 401.
var (
	ErrMissingSignature = errors.New("interactions: missing X-Signature-Ed25519 or X-Signature-Timestamp")
	ErrBadSignature     = errors.New("interactions: invalid request signature")
	ErrStaleTimestamp   = errors.New("interactions: request timestamp outside the replay window")
)

// Verify checks a delivery's signature: the hex Ed25519 signature in
// X-Signature-Ed25519 over the bytes of X-Signature-Timestamp followed by
// body, against key. With window > 0 it also refuses a timestamp (unix
// seconds) more than window before or after now, so a captured request
// cannot be replayed later. A signature that is not hexadecimal, or not 64
// bytes, is a bad signature.
//
// ed25519.Verify takes the same time whatever the signature's bytes are, so
// a forger learns nothing from how long a refusal takes.
func Verify(key ed25519.PublicKey, h http.Header, body []byte, now time.Time, window time.Duration) error {
	sigHex, ts := h.Get(HeaderSignature), h.Get(HeaderTimestamp)
	if sigHex == "" || ts == "" {
		return ErrMissingSignature
	}
	if len(sigHex) != 2*ed25519.SignatureSize {
		return ErrBadSignature
	}
	var sig [ed25519.SignatureSize]byte
	if _, err := hex.Decode(sig[:], []byte(sigHex)); err != nil {
		return ErrBadSignature
	}
	if len(key) != ed25519.PublicKeySize {
		return ErrBadSignature
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(key, msg, sig[:]) {
		return ErrBadSignature
	}
	if window > 0 {
		sec, err := strconv.ParseInt(ts, 10, 64)
		if err != nil {
			return ErrStaleTimestamp
		}
		d := now.Sub(time.Unix(sec, 0))
		if d > window || d < -window {
			return ErrStaleTimestamp
		}
	}
	return nil
}

// Sign returns the headers' values a delivery of body signed with key at
// timestamp carries: what the platform sends, for tests and emulators.
func Sign(key ed25519.PrivateKey, timestamp time.Time, body []byte) (signature, ts string) {
	ts = strconv.FormatInt(timestamp.Unix(), 10)
	msg := append([]byte(ts), body...)
	return hex.EncodeToString(ed25519.Sign(key, msg)), ts
}
