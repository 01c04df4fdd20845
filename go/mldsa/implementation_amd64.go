//go:build amd64 && !purego

package mldsa

func implementation() string {
	if useAVX512 {
		return "AVX-512"
	}
	if useAVX2 {
		return "AVX2"
	}
	return "baseline x86-64 assembly"
}
