package mldsa

import "encoding/binary"

func leUint64(b []byte) uint64       { return binary.LittleEndian.Uint64(b) }
func putLEUint64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }

// ctNeqBytes returns 1 if a and b, of the same length, differ, and 0
// otherwise, in time that depends only on their length: eight bytes at a
// time, where subtle.ConstantTimeCompare takes one.
func ctNeqBytes(a, b []byte) uint32 {
	b = b[:len(a)]
	var x uint64
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x |= leUint64(a[i:]) ^ leUint64(b[i:])
	}
	for ; i < len(a); i++ {
		x |= uint64(a[i] ^ b[i])
	}
	return uint32((x | -x) >> 63)
}
