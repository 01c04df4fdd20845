package mldsa

import "unsafe"

// The constant-time check (tools/checks/check_ct) runs the API under
// valgrind's memcheck with the caller's secrets (seeds, expanded keys)
// marked undefined by its driver as the API receives them, and the
// randomness the library draws itself marked here with secret: any branch
// or memory address computed from a secret is then reported.
// FIPS 204 makes some values computed from secrets public, and the library
// branches on them; each such place declares the value public
// (declassifies it) with one of the reasons below, and nothing else may.
// Outside a build with the tag valgrind, secret and declassify do nothing
// and cost nothing.

// publicValue is a reason for declassifying a value.
type publicValue int

const (
	// ρ is the first part of the public key (Algorithm 6, line 1;
	// Algorithm 22), and so is Â = ExpandA(ρ) (line 3) public.
	publicRho publicValue = iota
	// t1 is the rest of the public key (Algorithm 6, line 6; Algorithm 22).
	publicT1
	// tr = H(pk, 64) (Algorithm 6, line 9), a function of the public key,
	// computed inside the key generation routine.
	publicTr
	// Whether an attempt's z fails ‖z‖∞ < γ1 − β (Algorithm 7, line 23):
	// FIPS 204's analysis shows this outcome does not depend on the key.
	publicRejectZ
	// Whether an attempt's r0 fails ‖r0‖∞ < γ2 − β (Algorithm 7, line 23).
	publicRejectR0
	// Whether ‖ct0‖∞ ≥ γ2 or the hint has more than ω ones (Algorithm 7,
	// line 28).
	publicRejectHint
	// The signature (c̃, z, h) of the accepted attempt (Algorithm 7,
	// line 33) is the output.
	publicSignature
	// Whether SampleInBall rejects a byte j > i of H(c̃) (Algorithm 29,
	// line 7): c̃ is in the signature, or belongs to a rejected attempt that
	// reveals nothing more than that it was rejected.
	publicSampleInBall
	// Whether RejBoundedPoly rejects a half-byte (Algorithm 31, lines 9
	// to 14): where rejections fall is independent of the accepted
	// coefficients.
	publicRejBounded
	// Whether an expanded private key passes each check of
	// NewPrivateKeyFromExpanded (s1 and s2 in [−η, η], t0 and tr those
	// that ρ, s1 and s2 give): the caller learns it from the error.
	publicKeyCheck
	publicValues
)

// publicReasons names each reason, for the check's report.
var publicReasons = [publicValues]string{
	publicRho:          "ρ, part of the public key",
	publicT1:           "t1, part of the public key",
	publicTr:           "tr = H(pk, 64), a function of the public key",
	publicRejectZ:      "the ‖z‖∞ check of an attempt (Algorithm 7, line 23)",
	publicRejectR0:     "the ‖r0‖∞ check of an attempt (Algorithm 7, line 23)",
	publicRejectHint:   "the ‖ct0‖∞ and hint-count checks of an attempt (Algorithm 7, line 28)",
	publicSignature:    "the signature (c̃, z, h) of the accepted attempt",
	publicSampleInBall: "which bytes of H(c̃) SampleInBall rejects (Algorithm 29, line 7)",
	publicRejBounded:   "which half-bytes RejBoundedPoly rejects (Algorithm 31)",
	publicKeyCheck:     "whether, and why, an expanded private key is invalid",
}

// secret marks the n bytes at p as secret for the constant-time check.
func secret(p unsafe.Pointer, n uintptr) {
	if valgrindBuild {
		valgrindMakeMemUndefined(p, n)
	}
}

// declassify declares the n bytes at p public, for the reason v.
func declassify(v publicValue, p unsafe.Pointer, n uintptr) {
	_ = publicReasons[v]
	if valgrindBuild {
		valgrindMakeMemDefined(p, n)
	}
}
