// Package secretbox seals secrets Koda must keep readable (tenants' webhook signing
// secrets) before they are stored, with AES-256-GCM under a key from the configuration
// (KODA_SECRET_KEY, or a file made once in the data dir, readable by the owner only).
// A sealed value is text, "sealed:v1:" + base64(nonce | ciphertext), so it fits the
// TEXT columns that held the plain values; the column name is bound in as associated
// data, so a sealed value moved to another column does not open.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

const prefix = "sealed:v1:"

// MinKeyLen is the shortest key material accepted.
const MinKeyLen = 32

// Box seals and opens values under one key. It is safe for concurrent use.
type Box struct{ aead cipher.AEAD }

// New returns a box for key material of at least MinKeyLen bytes; the AES key is its
// SHA-256, so any long random string (hex, base64) serves.
func New(material string) (*Box, error) {
	if len(material) < MinKeyLen {
		return nil, fmt.Errorf("secret key: at least %d characters needed, got %d", MinKeyLen, len(material))
	}
	k := sha256.Sum256([]byte("koda secretbox v1\x00" + material))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return &Box{aead: aead}, nil
}

// IsSealed reports whether v is a sealed value (not necessarily one this box opens).
func IsSealed(v string) bool { return strings.HasPrefix(v, prefix) }

// Seal returns v sealed for the column named label; "" stays "" (no secret).
func (b *Box) Seal(label, v string) string {
	if v == "" {
		return ""
	}
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("secretbox: no randomness: " + err.Error()) // crypto/rand does not fail on Linux
	}
	out := b.aead.Seal(nonce, nonce, []byte(v), []byte(label))
	return prefix + base64.RawStdEncoding.EncodeToString(out)
}

// ErrOpen says a sealed value did not open: another key, another column, or tampering.
var ErrOpen = errors.New("secretbox: sealed value does not open with this key")

// Open returns the plain value of a sealed one; a value that is not sealed (a row
// written before sealing, not yet migrated) is returned as it is.
func (b *Box) Open(label, v string) (string, error) {
	if !IsSealed(v) {
		return v, nil
	}
	raw, err := base64.RawStdEncoding.DecodeString(v[len(prefix):])
	if err != nil || len(raw) < b.aead.NonceSize() {
		return "", ErrOpen
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], []byte(label))
	if err != nil {
		return "", ErrOpen
	}
	return string(plain), nil
}
