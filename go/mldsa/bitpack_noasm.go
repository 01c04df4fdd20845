//go:build !amd64 || purego

package mldsa

// Without assembly the packings are their generic Go implementations.
func simpleBitPack(out []byte, w *ringElement, width int) { simpleBitPackGeneric(out, w, width) }
func bitPackSigned(out []byte, w *ringElement, width int, b fieldElement) {
	bitPackSignedGeneric(out, w, width, b)
}
