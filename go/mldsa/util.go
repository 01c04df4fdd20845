package mldsa

import "encoding/binary"

func leUint64(b []byte) uint64       { return binary.LittleEndian.Uint64(b) }
func putLEUint64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
