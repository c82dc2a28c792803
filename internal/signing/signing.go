// Package signing makes and checks the HMAC-SHA256 signatures of Koda's bearer URLs:
// file downloads (internal/storage) and live previews (internal/live). It is the one
// place those URLs are signed, so they share one secret (KODA_SIGNING_SECRET) and one
// way of comparing in constant time. Each use signs under its own purpose, so a
// signature made for one kind of URL never verifies as another's.
package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Sign returns the hex HMAC-SHA256 under secret of the parts joined by newlines.
func Sign(secret []byte, parts ...string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strings.Join(parts, "\n")))
	return hex.EncodeToString(m.Sum(nil))
}

// Valid reports whether sig is Sign(secret, parts...); an empty secret never verifies.
func Valid(secret []byte, sig string, parts ...string) bool {
	return len(secret) > 0 && hmac.Equal([]byte(strings.ToLower(sig)), []byte(Sign(secret, parts...)))
}

// For derives the secret of one purpose ("live", …) from the deployment's secret.
func For(secret []byte, purpose string) []byte {
	if len(secret) == 0 {
		return nil
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("koda signing purpose\x00" + purpose))
	return m.Sum(nil)
}
