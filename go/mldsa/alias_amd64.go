//go:build amd64 && !purego

package mldsa

import "unsafe"

// The assembly routines' contracts (Spec/contract) take every buffer as a
// distinct object; the checker proves them under that assumption only.
// These checks keep it true at the call: an output that overlaps an input
// goes through a temporary, and a four-way call with repeated outputs runs
// as four single calls. Each check is a few pointer comparisons.

// overlaps reports whether [p, p+n) and [q, q+m) share a byte.
func overlaps(p unsafe.Pointer, n uintptr, q unsafe.Pointer, m uintptr) bool {
	a, b := uintptr(p), uintptr(q)
	return a < b+m && b < a+n
}

func elemsOverlap(out *ringElement, a []ringElement) bool {
	if len(a) == 0 {
		return false
	}
	return overlaps(unsafe.Pointer(out), unsafe.Sizeof(*out), unsafe.Pointer(&a[0]), uintptr(len(a))*unsafe.Sizeof(a[0]))
}

// distinctOutputs reports whether the four sampler outputs are four
// distinct, non-overlapping elements.
func distinctOutputs(a *[4]*ringElement) bool {
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if overlaps(unsafe.Pointer(a[i]), unsafe.Sizeof(*a[i]), unsafe.Pointer(a[j]), unsafe.Sizeof(*a[j])) {
				return false
			}
		}
	}
	return true
}
