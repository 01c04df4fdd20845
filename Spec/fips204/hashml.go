package fips204

import (
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"fmt"
)

// PreHash names a pre-hash function PH of HashML-DSA (§5.4).
type PreHash int

// The pre-hash functions the ACVP HashML-DSA vectors use. §5.4 approves
// any hash or XOF of at least the parameter set's security strength; these
// are the NIST hash algorithms with OIDs under 2.16.840.1.101.3.4.2.
const (
	SHA224 PreHash = iota
	SHA256
	SHA384
	SHA512
	SHA512_224
	SHA512_256
	SHA3_224
	SHA3_256
	SHA3_384
	SHA3_512
	SHAKE128
	SHAKE256
)

// preHashes holds, per PH: the ACVP name, the last arc of its OID
// 2.16.840.1.101.3.4.2.x (NIST's Computer Security Objects Register, as
// §5.4.1 cites), and PH(M).
var preHashes = [...]struct {
	name string
	arc  byte
	sum  func(m []byte) []byte
}{
	SHA224:     {"SHA2-224", 4, func(m []byte) []byte { s := sha256.Sum224(m); return s[:] }},
	SHA256:     {"SHA2-256", 1, func(m []byte) []byte { s := sha256.Sum256(m); return s[:] }},
	SHA384:     {"SHA2-384", 2, func(m []byte) []byte { s := sha512.Sum384(m); return s[:] }},
	SHA512:     {"SHA2-512", 3, func(m []byte) []byte { s := sha512.Sum512(m); return s[:] }},
	SHA512_224: {"SHA2-512/224", 5, func(m []byte) []byte { s := sha512.Sum512_224(m); return s[:] }},
	SHA512_256: {"SHA2-512/256", 6, func(m []byte) []byte { s := sha512.Sum512_256(m); return s[:] }},
	SHA3_224:   {"SHA3-224", 7, func(m []byte) []byte { s := sha3.Sum224(m); return s[:] }},
	SHA3_256:   {"SHA3-256", 8, func(m []byte) []byte { s := sha3.Sum256(m); return s[:] }},
	SHA3_384:   {"SHA3-384", 9, func(m []byte) []byte { s := sha3.Sum384(m); return s[:] }},
	SHA3_512:   {"SHA3-512", 10, func(m []byte) []byte { s := sha3.Sum512(m); return s[:] }},
	// §5.4.1: SHAKE128 with 256-bit output, SHAKE256 with 512-bit output.
	SHAKE128: {"SHAKE-128", 11, func(m []byte) []byte { return sha3.SumSHAKE128(m, 32) }},
	SHAKE256: {"SHAKE-256", 12, func(m []byte) []byte { return sha3.SumSHAKE256(m, 64) }},
}

// String returns the ACVP name of ph, e.g. "SHA2-256" or "SHAKE-128".
func (ph PreHash) String() string {
	if ph < 0 || int(ph) >= len(preHashes) {
		return fmt.Sprintf("PreHash(%d)", int(ph))
	}
	return preHashes[ph].name
}

// PreHashByName returns the PreHash whose ACVP name is name.
func PreHashByName(name string) (PreHash, error) {
	for ph := range preHashes {
		if preHashes[ph].name == name {
			return PreHash(ph), nil
		}
	}
	return 0, fmt.Errorf("fips204: unknown pre-hash function %q", name)
}

// OID returns the DER encoding of ph's object identifier
// 2.16.840.1.101.3.4.2.x: tag 06, length 09, then the arcs (2.16 as 0x60,
// 840 as 86 48, 1, 101 as 65, 3, 4, 2, x).
func (ph PreHash) OID() []byte {
	return []byte{0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, preHashes[ph].arc}
}

// hashMessagePrefix builds M′ of Algorithms 4 and 5:
// IntegerToBytes(1, 1) ‖ IntegerToBytes(|ctx|, 1) ‖ ctx ‖ OID ‖ PH_M.
func hashMessage(M, ctx []byte, ph PreHash) ([]byte, error) {
	if ph < 0 || int(ph) >= len(preHashes) {
		return nil, fmt.Errorf("fips204: unknown pre-hash function %d", int(ph))
	}
	prefix, err := messagePrefix(1, ctx)
	if err != nil {
		return nil, err
	}
	phM := preHashes[ph].sum(M)
	return append(append(prefix, ph.OID()...), phM...), nil
}

// HashMLDSASign signs the pre-hash PH(M) with context ctx. rnd is as for
// Sign: nil draws 32 fresh bytes, 32 zero bytes give the deterministic
// variant.
//
// It implements HashML-DSA.Sign, according to FIPS 204, Algorithm 4.
func HashMLDSASign(p Params, sk, M, ctx []byte, ph PreHash, rnd []byte) ([]byte, error) {
	Mp, err := hashMessage(M, ctx, ph) // lines 1–3 (|ctx| ≤ 255), 10–22 (OID, PH_M) and 23 (M′)
	if err != nil {
		return nil, err
	}
	if rnd, err = randomness(rnd); err != nil { // lines 5–8
		return nil, err
	}
	return SignInternal(p, sk, Mp, rnd) // lines 24–25
}

// HashMLDSAVerify reports whether σ is a valid HashML-DSA signature of M
// with context ctx and pre-hash ph by pk.
//
// It implements HashML-DSA.Verify, according to FIPS 204, Algorithm 5.
func HashMLDSAVerify(p Params, pk, M, sigma, ctx []byte, ph PreHash) (bool, error) {
	Mp, err := hashMessage(M, ctx, ph) // lines 1–3, 5–17 and 18
	if err != nil {
		return false, err
	}
	return VerifyInternal(p, pk, Mp, sigma) // line 19
}
