package mldsa

// The registry of variants: every implementation of every routine that this
// build contains, so that tests can run each one against its generic
// implementation. Each routine is declared below with its generic
// implementation and its dispatch (registered as variant "Dispatch", so
// that the choice made at start-up is tested too); a file that adds
// variants (e.g. ntt_amd64.go) registers them from an init function
// with registerVariant, and marks a variant usable only when the CPU has
// the features it needs. A routine's variants share its Go type F, so the
// compiler checks every registration.

// routineVariants is one routine and its implementations.
type routineVariants[F any] struct {
	name     string // e.g. "ntt", "rejNTTPolyx4"
	variants []variant[F]
}

// variant is one implementation of a routine.
type variant[F any] struct {
	name   string // "Generic", "AMD64", "AVX2", or "Dispatch" (what this build calls)
	fn     F
	usable bool // false if this CPU lacks a feature the variant needs
}

// registeredRoutine is a routineVariants of any type, as the registry
// lists them.
type registeredRoutine interface {
	routineName() string
	// variantNames lists the variants with whether each is usable here.
	variantNames() []variantName
}

type variantName struct {
	name   string
	usable bool
}

func (r *routineVariants[F]) routineName() string { return r.name }

func (r *routineVariants[F]) variantNames() []variantName {
	var out []variantName
	for _, v := range r.variants {
		out = append(out, variantName{v.name, v.usable})
	}
	return out
}

// registry lists every routine, in declaration order.
var registry []registeredRoutine

// newRoutine declares a routine with its generic implementation and its
// dispatch.
func newRoutine[F any](name string, generic, dispatch F) *routineVariants[F] {
	r := &routineVariants[F]{name: name}
	registerVariant(r, "Generic", generic, true)
	registerVariant(r, "Dispatch", dispatch, true)
	registry = append(registry, r)
	return r
}

// registerVariant adds a variant to a routine. Call it from init.
func registerVariant[F any](r *routineVariants[F], name string, fn F, usable bool) {
	r.variants = append(r.variants, variant[F]{name, fn, usable})
}

var (
	keccakF1600Routine            = newRoutine("keccakF1600", keccakF1600Generic, keccakF1600)
	keccakF1600x4Routine          = newRoutine("keccakF1600x4", keccakF1600x4Generic, keccakF1600x4)
	keccakF1600x8Routine          = newRoutine("keccakF1600x8", keccakF1600x8Generic, keccakF1600x8)
	shake256AbsorbBlockRoutine    = newRoutine("shake256AbsorbBlock", shake256AbsorbBlockGeneric, shake256AbsorbBlock)
	shake256AbsorbRoutine         = newRoutine("shake256Absorb", shake256AbsorbGeneric, shake256Absorb)
	shake256FinishRoutine         = newRoutine("shake256Finish", shake256FinishGeneric, shake256Finish)
	rejNTTPolyRoutine             = newRoutine("rejNTTPoly", rejNTTPolyGeneric, rejNTTPoly)
	rejNTTPolyx4Routine           = newRoutine("rejNTTPolyx4", rejNTTPolyx4Generic, rejNTTPolyx4)
	rejNTTPolyx8Routine           = newRoutine("rejNTTPolyx8", rejNTTPolyx8Generic, rejNTTPolyx8)
	expandARoutine                = newRoutine("expandA", expandAGeneric, expandA)
	nttRoutine                    = newRoutine("ntt", nttGeneric, ntt)
	nttInverseRoutine             = newRoutine("nttInverse", nttInverseGeneric, nttInverse)
	nttInverseMontRoutine         = newRoutine("nttInverseMont", nttInverseMontGeneric, nttInverseMont)
	multiplyNTTRoutine            = newRoutine("multiplyNTT", multiplyNTTGeneric, multiplyNTT)
	multiplyAccNTTRoutine         = newRoutine("multiplyAccNTT", multiplyAccNTTGeneric, multiplyAccNTT)
	polyAddRoutine                = newRoutine("polyAdd", polyAddGeneric, polyAdd)
	polySubRoutine                = newRoutine("polySub", polySubGeneric, polySub)
	toMontgomeryPolyRoutine       = newRoutine("toMontgomeryPoly", toMontgomeryPolyGeneric, toMontgomeryPoly)
	toMontgomeryT1PolyRoutine     = newRoutine("toMontgomeryT1Poly", toMontgomeryT1PolyGeneric, toMontgomeryT1Poly)
	fromMontgomeryPolyRoutine     = newRoutine("fromMontgomeryPoly", fromMontgomeryPolyGeneric, fromMontgomeryPoly)
	normExceedsRoutine            = newRoutine("normExceeds", normExceedsGeneric, normExceeds)
	lowBitsExceedRoutine          = newRoutine("lowBitsExceed", lowBitsExceedGeneric, lowBitsExceed)
	power2RoundPolyRoutine        = newRoutine("power2RoundPoly", power2RoundPolyGeneric, power2RoundPoly)
	highBitsPolyRoutine           = newRoutine("highBitsPoly", highBitsPolyGeneric, highBitsPoly)
	makeHintPolyRoutine           = newRoutine("makeHintPoly", makeHintPolyGeneric, makeHintPoly)
	useHintPolyRoutine            = newRoutine("useHintPoly", useHintPolyGeneric, useHintPoly)
	rejBoundedPolyRoutine         = newRoutine("rejBoundedPoly", rejBoundedPolyGeneric, rejBoundedPoly)
	rejBoundedPolyx4Routine       = newRoutine("rejBoundedPolyx4", rejBoundedPolyx4Generic, rejBoundedPolyx4)
	expandMaskRoutine             = newRoutine("expandMask", expandMaskGeneric, expandMask)
	sampleInBallRoutine           = newRoutine("sampleInBall", sampleInBallGeneric, sampleInBall)
	hintBitPackRoutine            = newRoutine("hintBitPack", hintBitPackGeneric, hintBitPack)
	hintBitUnpackRoutine          = newRoutine("hintBitUnpack", hintBitUnpackGeneric, hintBitUnpack)
	simpleBitPackRoutine          = newRoutine("simpleBitPack", simpleBitPackGeneric, simpleBitPack)
	simpleBitUnpackRoutine        = newRoutine("simpleBitUnpack", simpleBitUnpackGeneric, simpleBitUnpack)
	bitPackSignedRoutine          = newRoutine("bitPackSigned", bitPackSignedGeneric, bitPackSigned)
	bitUnpackSignedRoutine        = newRoutine("bitUnpackSigned", bitUnpackSignedGeneric, bitUnpackSigned)
	bitUnpackSignedCheckedRoutine = newRoutine("bitUnpackSignedChecked", bitUnpackSignedCheckedGeneric, bitUnpackSignedChecked)
	trHashRoutine                 = newRoutine("trHash", trHashGeneric, trHash)
	keyGenSeedRoutine             = newRoutine("keyGenSeed", keyGenSeedGeneric, keyGenSeed)
	keyGenPkRoutine               = newRoutine("keyGenPk", keyGenPkGeneric, keyGenPk)
	keyGenTRoutine                = newRoutine("keyGenT", keyGenTGeneric, keyGenT)
	keyGenRoutine                 = newRoutine("keyGen", keyGenGeneric, keyGen)
	verifyRoutine                 = newRoutine("verify", verifyGeneric, verify)
	signZRoutine                  = newRoutine("signZ", signZGeneric, signZ)
	signR0Routine                 = newRoutine("signR0", signR0Generic, signR0)
	signHintRoutine               = newRoutine("signHint", signHintGeneric, signHint)
	sigEncodeRoutine              = newRoutine("sigEncode", sigEncodeGeneric, sigEncode)
	signRoutine                   = newRoutine("sign", signGeneric, sign)
)
