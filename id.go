package koda

import (
	"crypto/rand"
	"encoding/binary"
	"strings"
	"time"
)

// ID prefixes tell resources apart at a glance.
const (
	PrefixProject  = "prj"
	PrefixRender   = "rnd"
	PrefixBatch    = "bat"
	PrefixDelivery = "msg"
	PrefixSandbox  = "sbx"
)

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns prefix_ followed by 26 characters that sort by creation time
// (48 bits of milliseconds, 80 random bits, Crockford base32 like a ULID), so IDs
// double as pagination cursors.
func NewID(prefix string) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(time.Now().UnixMilli())<<16)
	_, _ = rand.Read(b[6:])
	var sb strings.Builder
	sb.WriteString(prefix)
	sb.WriteByte('_')
	// 128 bits → 26 base32 characters, most significant first.
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	for i := 25; i >= 0; i-- {
		shift := uint(i * 5)
		var v uint64
		switch {
		case shift >= 64:
			v = hi >> (shift - 64)
		case shift+5 > 64:
			v = lo>>shift | hi<<(64-shift)
		default:
			v = lo >> shift
		}
		sb.WriteByte(crockford[v&31])
	}
	return sb.String()
}
