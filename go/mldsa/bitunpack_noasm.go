//go:build !amd64 || purego

package mldsa

// Without assembly the unpackings are their generic Go implementations.
func simpleBitUnpack(w *ringElement, in []byte, width int) { simpleBitUnpackGeneric(w, in, width) }
func bitUnpackSigned(w *ringElement, in []byte, width int, b fieldElement) {
	bitUnpackSignedGeneric(w, in, width, b)
}
func bitUnpackSignedChecked(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	return bitUnpackSignedCheckedGeneric(w, in, width, b, max)
}
