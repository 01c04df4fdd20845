package mldsa

// The registry of variants: every implementation of every routine that this
// build contains, so that tests can run each one against its generic
// implementation. The generic entries are below; a file that adds variants
// (e.g. routines_amd64.go) registers them from an init function with
// registerVariant, naming the routine as here, and marks a variant usable
// only when the CPU has the features it needs.

// variant is one implementation of a routine. fn has the routine's Go
// signature (see routines.go and routines_noasm.go).
type variant struct {
	routine string // e.g. "ntt", "rejNTTPolyx4"
	name    string // "Generic", "AMD64", "AVX2", or "Dispatch" (what this build calls)
	fn      any
	usable  bool // false if this CPU lacks a feature the variant needs
}

var variants = []variant{
	{"keccakF1600", "Generic", keccakF1600Generic, true},
	{"keccakF1600x4", "Generic", keccakF1600x4Generic, true},
	{"rejNTTPoly", "Generic", rejNTTPolyGeneric, true},
	{"rejNTTPolyx4", "Generic", rejNTTPolyx4Generic, true},
	{"ntt", "Generic", nttGeneric, true},
	{"nttInverse", "Generic", nttInverseGeneric, true},
	{"multiplyNTT", "Generic", multiplyNTTGeneric, true},
	{"multiplyAccNTT", "Generic", multiplyAccNTTGeneric, true},
	{"normExceeds", "Generic", normExceedsGeneric, true},
	{"lowBitsExceed", "Generic", lowBitsExceedGeneric, true},
	{"power2RoundPoly", "Generic", power2RoundPolyGeneric, true},
	{"highBitsPoly", "Generic", highBitsPolyGeneric, true},
	{"makeHintPoly", "Generic", makeHintPolyGeneric, true},
	{"useHintPoly", "Generic", useHintPolyGeneric, true},
	{"rejBoundedPoly", "Generic", rejBoundedPolyGeneric, true},
	{"rejBoundedPolyx4", "Generic", rejBoundedPolyx4Generic, true},
	{"expandMask", "Generic", expandMaskGeneric, true},
	{"sampleInBall", "Generic", sampleInBallGeneric, true},
	{"simpleBitPack", "Generic", simpleBitPackGeneric, true},
	{"simpleBitUnpack", "Generic", simpleBitUnpackGeneric, true},
}

// The routines as this build dispatches them, registered as variant
// "Dispatch", so that the choice made at start-up is tested too.
func init() {
	registerVariant("keccakF1600", "Dispatch", keccakF1600, true)
	registerVariant("keccakF1600x4", "Dispatch", keccakF1600x4, true)
	registerVariant("rejNTTPoly", "Dispatch", rejNTTPoly, true)
	registerVariant("rejNTTPolyx4", "Dispatch", rejNTTPolyx4, true)
	registerVariant("ntt", "Dispatch", ntt, true)
	registerVariant("nttInverse", "Dispatch", nttInverse, true)
	registerVariant("multiplyNTT", "Dispatch", multiplyNTT, true)
	registerVariant("multiplyAccNTT", "Dispatch", multiplyAccNTT, true)
	registerVariant("normExceeds", "Dispatch", normExceeds, true)
	registerVariant("lowBitsExceed", "Dispatch", lowBitsExceed, true)
	registerVariant("power2RoundPoly", "Dispatch", power2RoundPoly, true)
	registerVariant("highBitsPoly", "Dispatch", highBitsPoly, true)
	registerVariant("makeHintPoly", "Dispatch", makeHintPoly, true)
	registerVariant("useHintPoly", "Dispatch", useHintPoly, true)
	registerVariant("rejBoundedPoly", "Dispatch", rejBoundedPoly, true)
	registerVariant("rejBoundedPolyx4", "Dispatch", rejBoundedPolyx4, true)
	registerVariant("expandMask", "Dispatch", expandMask, true)
	registerVariant("sampleInBall", "Dispatch", sampleInBall, true)
	registerVariant("simpleBitPack", "Dispatch", simpleBitPack, true)
	registerVariant("simpleBitUnpack", "Dispatch", simpleBitUnpack, true)
}

// registerVariant adds a variant to the registry. Call it from init.
func registerVariant(routine, name string, fn any, usable bool) {
	variants = append(variants, variant{routine, name, fn, usable})
}
