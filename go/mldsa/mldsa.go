// Package mldsa implements ML-DSA, the Module-Lattice-Based Digital
// Signature Algorithm of FIPS 204 (August 2024),
// https://doi.org/10.6028/NIST.FIPS.204.
//
// Its API is that of Go 1.27's crypto/mldsa, plus what that package lacks:
// expanded private keys (NewPrivateKeyFromExpanded, ExpandedBytes), signing
// and verifying an external message representative μ (SignMu,
// SignMuDeterministic, VerifyMu), HashML-DSA with the twelve pre-hash
// functions of FIPS 204 (HashSign, HashSignDeterministic, HashVerify;
// HashSign refuses a pre-hash weaker than the parameter set, see
// PreHash.CheckStrength), the PKCS#8 and SubjectPublicKeyInfo encodings of
// RFC 9881 (MarshalPKCS8PrivateKey, ParsePKCS8PrivateKey,
// MarshalPKIXPublicKey, ParsePKIXPublicKey) and error values for errors.Is
// (ErrInvalidSignature, ErrInvalidPrivateKey, ...). Built with Go 1.27 or later, Options is crypto/mldsa's Options, and
// StdSigner and the conversions StdPrivateKey, StdPublicKey,
// FromStdPrivateKey and FromStdPublicKey let crypto/x509, and anything else
// that knows only the standard library's key types, sign with this package.
//
// Secret data never chooses a branch or a memory address, except where
// FIPS 204's rejection sampling makes the outcome public or independent of
// the secret. What timing and addresses may reveal:
//   - signing: the number of attempts, and for each rejected attempt which
//     check rejected it (‖z‖∞, ‖r0‖∞, or those of Algorithm 7, line 28);
//   - SampleInBall: which bytes of H(c̃) were rejected (c̃ is public in the
//     signature; for a rejected attempt this concerns a discarded c̃);
//   - key generation (RejBoundedPoly): where the rejected half-bytes fall,
//     which is independent of the coefficients of s1 and s2;
//   - ExpandA (RejNTTPoly): its public seed ρ;
//   - NewPrivateKeyFromExpanded: whether, and why, the key is invalid.
//
// Every rejection loop stops, with an error, at the bound of FIPS 204,
// Appendix C.
package mldsa

import (
	"crypto"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"unsafe"
)

const (
	// PrivateKeySize is the size of a private key seed ξ, in bytes.
	PrivateKeySize = 32

	MLDSA44PublicKeySize = 1312
	MLDSA65PublicKeySize = 1952
	MLDSA87PublicKeySize = 2592

	MLDSA44SignatureSize = 2420
	MLDSA65SignatureSize = 3309
	MLDSA87SignatureSize = 4627
)

// Largest k and ℓ of the three parameter sets.
const (
	maxK = 8
	maxL = 7
)

// params holds one row of FIPS 204, Table 1, and sizes derived from it.
type params struct {
	name   string
	k, l   int
	η      int
	τ      int
	λ      int // collision strength in bits; c̃ has λ/4 bytes
	γ1Bits int // γ1 = 2^γ1Bits
	γ2     uint32
	ω      int
	ηBits  int // bitlen(2η)
	w1Bits int // bitlen((q−1)/(2γ2) − 1)
}

func (p *params) β() uint32       { return uint32(p.τ * p.η) }
func (p *params) γ1() uint32      { return 1 << p.γ1Bits }
func (p *params) cTildeSize() int { return p.λ / 4 }
func (p *params) zSize() int      { return 32 * (p.γ1Bits + 1) }

// pkSize, sigSize and skSize follow Algorithms 22, 26 and 24.
func (p *params) pkSize() int  { return 32 + 32*p.k*(23-d) }
func (p *params) sigSize() int { return p.cTildeSize() + p.l*p.zSize() + p.ω + p.k }
func (p *params) skSize() int  { return 128 + 32*(p.k+p.l)*p.ηBits + 32*p.k*d }

var (
	params44 = params{name: "ML-DSA-44", k: 4, l: 4, η: 2, τ: 39, λ: 128, γ1Bits: 17, γ2: (q - 1) / 88, ω: 80, ηBits: 3, w1Bits: 6}
	params65 = params{name: "ML-DSA-65", k: 6, l: 5, η: 4, τ: 49, λ: 192, γ1Bits: 19, γ2: (q - 1) / 32, ω: 55, ηBits: 4, w1Bits: 4}
	params87 = params{name: "ML-DSA-87", k: 8, l: 7, η: 2, τ: 60, λ: 256, γ1Bits: 19, γ2: (q - 1) / 32, ω: 75, ηBits: 3, w1Bits: 4}
)

// Parameters represents one of the fixed parameter sets defined in FIPS 204.
//
// Most applications should use MLDSA44.
//
// Multiple invocations of MLDSA44, MLDSA65, or MLDSA87 return the same
// respective value, which can be used for equality checks and switch
// statements. The zero value is not a valid parameter set.
type Parameters struct {
	p *params
}

// MLDSA44 returns the ML-DSA-44 parameter set defined in FIPS 204.
func MLDSA44() Parameters { return Parameters{&params44} }

// MLDSA65 returns the ML-DSA-65 parameter set defined in FIPS 204.
func MLDSA65() Parameters { return Parameters{&params65} }

// MLDSA87 returns the ML-DSA-87 parameter set defined in FIPS 204.
func MLDSA87() Parameters { return Parameters{&params87} }

// PublicKeySize returns the size of public keys for this parameter set, in
// bytes.
func (params Parameters) PublicKeySize() int {
	if params.p == nil {
		return 0
	}
	return params.p.pkSize()
}

// SignatureSize returns the size of signatures for this parameter set, in
// bytes.
func (params Parameters) SignatureSize() int {
	if params.p == nil {
		return 0
	}
	return params.p.sigSize()
}

// ExpandedPrivateKeySize returns the size of expanded private keys (the
// encoding of FIPS 204, Algorithm 24) for this parameter set, in bytes.
func (params Parameters) ExpandedPrivateKeySize() int {
	if params.p == nil {
		return 0
	}
	return params.p.skSize()
}

// String returns the name of the parameter set, e.g. "ML-DSA-44".
func (params Parameters) String() string {
	if params.p == nil {
		return "invalid ML-DSA parameters"
	}
	return params.p.name
}

// PublicKey is an ML-DSA public key. It keeps Â and NTT(t1·2ᵈ), so that
// verifying does not sample Â again, from its second use on (a key parsed
// by NewPublicKey, or made with a private key from its seed, samples Â for
// its first verification or signature into memory it does not keep: a key
// used once, or only made and stored, then allocates no room for it). A
// PublicKey is safe for concurrent use.
type PublicKey struct {
	p     *params
	enc   []byte
	ρ     [32]byte
	tr    [64]byte      // H(pk, 64)
	aHat  []ringElement // Â, k·ℓ entries row-major, plain (as sampled)
	t1Hat []ringElement // NTT(t1·2ᵈ), Montgomery form, made by verifyForms
	// t1Once computes t1Hat at the first Verify: only verifying needs it.
	t1Once sync.Once
	// For a key that does not keep Â from its making (lazyA), aHat is nil
	// until aOnce samples it, at the second verification or signature:
	// firstUse records that the first has begun.
	lazyA    bool
	firstUse atomic.Bool
	aOnce    sync.Once
	aErr     error
}

// PrivateKey is an in-memory ML-DSA private key. It implements
// crypto.Signer and the informal extended crypto.PrivateKey interface. It
// keeps s1, s2 and t0 as their expanded encoding packs them (a quarter of
// the memory of polynomials, and ExpandedBytes copies them), ŝ1 in the NTT
// domain, ŝ2 and t̂0 from its first signature on, and Â (in its public key)
// from its making if it was parsed from the expanded encoding, else from
// its second signature on. A PrivateKey is safe for concurrent use.
type PrivateKey struct {
	p       *params
	seed    [32]byte
	hasSeed bool
	key     [32]byte // K
	// packed is s1 ‖ s2 ‖ t0 as skEncode (Algorithm 24) writes them after
	// ρ ‖ K ‖ tr.
	packed []byte
	s1Hat  []ringElement // Montgomery form, as are s2Hat and t0Hat
	s2Hat  []ringElement // set by signForms, as is t0Hat
	t0Hat  []ringElement
	pub    *PublicKey
	// formsOnce computes s2Hat and t0Hat at the first signature: only
	// signing needs them, so making or parsing a key does what FIPS 204's
	// KeyGen does and no more, and allocates no room for them.
	formsOnce sync.Once
}

// GenerateKey generates a new random ML-DSA private key.
func GenerateKey(params Parameters) (*PrivateKey, error) {
	if params.p == nil {
		return nil, errInvalidParameters
	}
	var ξ [32]byte
	if _, err := io.ReadFull(rand.Reader, ξ[:]); err != nil {
		return nil, err
	}
	// The library draws ξ itself: no caller can mark it.
	secret(unsafe.Pointer(&ξ), 32)
	return newPrivateKeyFromSeed(params.p, &ξ)
}

// NewPrivateKey decodes an ML-DSA private key from the given seed.
//
// The seed must be exactly PrivateKeySize bytes long.
func NewPrivateKey(params Parameters, seed []byte) (*PrivateKey, error) {
	if params.p == nil {
		return nil, errInvalidParameters
	}
	if len(seed) != PrivateKeySize {
		return nil, errInvalidSeedLength
	}
	return newPrivateKeyFromSeed(params.p, (*[32]byte)(seed))
}

// newPrivateKeyFromSeed is ML-DSA.KeyGen_internal (Algorithm 6), by
// keyGen, which keeps Â and ŝ1 and packs s1, s2 and t0 as skEncode
// (Algorithm 24) writes them after ρ ‖ K ‖ tr.
func newPrivateKeyFromSeed(p *params, ξ *[32]byte) (*PrivateKey, error) {
	kp := newKeyPair(p, false)
	sk, pk := &kp.sk, &kp.pk
	sk.seed, sk.hasSeed = *ξ, true
	// The whole encoding sk is written; the key keeps its s1 ‖ s2 ‖ t0 as
	// sk.packed, and ρ, K and tr apart.
	enc := kp.enc[:p.skSize()]
	// s2, t and t0 are the routine's to fill; the key keeps none of them.
	// Nor Â, sampled into pooled memory: a key made from its seed is often
	// made only to give its public key or to be stored, and a fresh block
	// for Â (16–56 KiB) cost about a tenth of KeyGen, in zeroing and the
	// collector's work. Its public key samples Â again at its first use.
	k := p.k
	work := getKeyScratch()
	defer putKeyScratch(work, k)
	a := getAScratch()
	defer putAScratch(a)
	n := k * p.l
	if !keyGen(p, pk.enc, enc, a.polys[:n:n], sk.s1Hat, work[:k:k], work[k:2*k:2*k], work[2*k:3*k:3*k], &sk.seed) {
		return nil, errSamplerExhausted
	}
	pk.lazyA = true
	copy(pk.ρ[:], pk.enc[:32])
	copy(pk.tr[:], enc[64:128])
	copy(sk.key[:], enc[32:64])
	sk.packed = enc[128:]
	return sk, nil
}

// keyPair is a private key and its public key, allocated together.
type keyPair struct {
	sk  PrivateKey
	pk  PublicKey
	enc []byte // room for the private key's encoding (or its packed part)
}

// newKeyPair makes a key pair of p with two allocations: the two keys,
// and one block that holds Â if withA, ŝ1, and the public key's encoding
// with room after it for the private key's (kp.enc, skSize bytes). One
// block rather than three: each allocation of a few KiB or more costs a
// span refill and its share of the collector's work, about 1 µs per key
// (ML-DSA-65); the block's size class wastes less than 8 KiB, which the
// key holds anyway.
func newKeyPair(p *params, withA bool) *keyPair {
	kp := new(keyPair)
	kp.layOut(p, withA, make([]ringElement, keyBlockPolys(p, withA, false)))
	return kp
}

// keyBlockPolys is the size in polynomials of the block kp.layOut lays out:
// Â if withA, ŝ1, the two encodings, and ŝ2 and t̂0 if withForms.
func keyBlockPolys(p *params, withA, withForms bool) int {
	n := p.l + (p.pkSize()+p.skSize()+polyBytes-1)/polyBytes
	if withA {
		n += p.k * p.l
	}
	if withForms {
		n += 2 * p.k
	}
	return n
}

const polyBytes = int(unsafe.Sizeof(ringElement{}))

// layOut makes kp a key pair of p whose Â (if withA), ŝ1 and encodings are
// in block, laid out as keyBlockPolys counts them; what follows them is
// block[keyBlockPolys(p, withA, false):].
func (kp *keyPair) layOut(p *params, withA bool, block []ringElement) {
	*kp = keyPair{sk: PrivateKey{p: p}, pk: PublicKey{p: p}}
	kp.sk.pub = &kp.pk
	n, l := 0, p.l
	if withA {
		n = p.k * p.l
		kp.pk.aHat = block[:n:n]
	}
	kp.sk.s1Hat = block[n : n+l : n+l]
	// The encodings are bytes in the polynomials after ŝ1 (no pointers,
	// so the collector sees the same block).
	size := p.pkSize() + p.skSize()
	b := unsafe.Slice((*byte)(unsafe.Pointer(&block[n+l])), size)
	kp.pk.enc, kp.enc = b[:p.pkSize():p.pkSize()], b[p.pkSize():]
}

// keyScratch holds the temporaries of making a key: s2, t and t0 (k
// polynomials each). They go to the KeyGen routines, whose callees may
// move the stack, so they live on the heap; keyScratchPool reuses them,
// rather than allocating, zeroing and collecting up to 24 KiB per key.
// Every use writes what it reads.
type keyScratch [3 * maxK]ringElement

var keyScratchPool = sync.Pool{New: func() any { return new(keyScratch) }}

func getKeyScratch() *keyScratch { return keyScratchPool.Get().(*keyScratch) }

// putKeyScratch returns work to the pool zeroed: s2 and t0 are secret,
// and pooled memory outlives the call. A key of k rows uses only the first
// 3k polynomials, and the rest are zero already.
func putKeyScratch(work *keyScratch, k int) {
	clear(work[:3*k])
	keyScratchPool.Put(work)
}

// t0Packed is the part of sk.packed that holds t0.
func (sk *PrivateKey) t0Packed() []byte {
	return sk.packed[32*(sk.p.k+sk.p.l)*sk.p.ηBits:]
}

// complete computes, from ρ (in sk.pub.ρ), s1 (in sk.s1Hat, which it
// turns into ŝ1) and s2, the rest of the key (Algorithm 6, lines 3 and 5
// to 9): the public key, and t0 packed into sk.t0Packed(). t and t0 are
// its scratch.
func (sk *PrivateKey) complete(s2, t, t0 []ringElement) error {
	p := sk.p
	k, l := p.k, p.l
	pk := sk.pub
	// Line 3: Â ← ExpandA(ρ).
	if err := expandA(pk.aHat, &pk.ρ, k, l); err != nil {
		return err
	}
	// Line 5: t ← NTT⁻¹(Â ∘ NTT(s1)) + s2, with ŝ1 kept in Montgomery form
	// for signing.
	keyGenT(t[:k], sk.s1Hat[:l], s2[:k], pk.aHat[:k*l])
	// Lines 6 and 8: (t1, t0) ← Power2Round(t), pk ← pkEncode(ρ, t1);
	// line 9, tr ← H(pk, 64), is pk.finish's. t0 is packed as skEncode
	// (Algorithm 24) writes it.
	keyGenPk(pk.enc, t0[:k], t[:k], &pk.ρ)
	packed := sk.t0Packed()
	for i := 0; i < k; i++ {
		bitPackSigned(packed[32*d*i:], &t0[i], d, 1<<(d-1))
	}
	pk.finish()
	return nil
}

// signForms computes, once, the NTT forms of s2 and t0 that signing uses
// (Algorithm 7, lines 3 and 4), in Montgomery form.
func (sk *PrivateKey) signForms() {
	sk.formsOnce.Do(func() { sk.makeForms(make([]ringElement, 2*sk.p.k)) })
}

// makeForms computes ŝ2 and t̂0 into buf (2k polynomials).
func (sk *PrivateKey) makeForms(buf []ringElement) {
	p := sk.p
	s2Hat, t0Hat := buf[:p.k:p.k], buf[p.k:2*p.k]
	s2 := sk.packed[32*p.l*p.ηBits:]
	t0 := sk.t0Packed()
	for i := range s2Hat {
		// The checked unpacking has assembly; the key's s2 is in range.
		bitUnpackSignedChecked(&s2Hat[i], s2[32*p.ηBits*i:], p.ηBits, fieldElement(p.η), uint32(2*p.η))
		ntt(&s2Hat[i])
		bitUnpackSigned(&t0Hat[i], t0[32*d*i:], d, 1<<(d-1))
		ntt(&t0Hat[i])
	}
	toMontgomeryVec(s2Hat)
	toMontgomeryVec(t0Hat)
	sk.s2Hat, sk.t0Hat = s2Hat, t0Hat
}

// toMontgomeryVec puts each polynomial of v in Montgomery form.
func toMontgomeryVec(v []ringElement) {
	for i := range v {
		toMontgomeryPoly(&v[i])
	}
}

// allocate makes room for Â and, if forVerify, for t̂1 after it (a key
// parsed from its encoding is there to verify; one made with a private
// key may never be).
func (pk *PublicKey) allocate(forVerify bool) {
	n := pk.p.k * pk.p.l
	if forVerify {
		pk.aHat = make([]ringElement, n, n+pk.p.k)
	} else {
		pk.aHat = make([]ringElement, n)
	}
}

// finish computes tr once pk.enc is set.
func (pk *PublicKey) finish() {
	trHash(&pk.tr, pk.enc)
}

// verifyForms computes, once, NTT(t1·2ᵈ) in Montgomery form from the
// encoding's t1 (Algorithm 8, lines 1 and 9).
func (pk *PublicKey) verifyForms() {
	pk.t1Once.Do(func() {
		t1Hat := pk.aHat[len(pk.aHat):cap(pk.aHat)]
		if len(t1Hat) != pk.p.k {
			t1Hat = make([]ringElement, pk.p.k)
		}
		for i := range t1Hat {
			// NTT(t1·2ᵈ) = NTT(t1)·2ᵈ: the NTT is linear.
			simpleBitUnpack(&t1Hat[i], pk.enc[32+320*i:], 10)
			ntt(&t1Hat[i])
			toMontgomeryT1Poly(&t1Hat[i])
		}
		pk.t1Hat = t1Hat
	})
}

// NewPublicKey creates a new ML-DSA public key from the given encoding
// (pkDecode, Algorithm 23). Â is sampled at the first Verify, and kept from
// the second on.
func NewPublicKey(params Parameters, encoding []byte) (*PublicKey, error) {
	p := params.p
	if p == nil {
		return nil, errInvalidParameters
	}
	if len(encoding) != p.pkSize() {
		return nil, errInvalidPublicKeyLength
	}
	pk := &PublicKey{p: p, enc: append([]byte(nil), encoding...), lazyA: true}
	copy(pk.ρ[:], encoding)
	pk.finish()
	return pk, nil
}

// aScratch is where Â is sampled for a key that does not keep it: by
// KeyGen, and by the first verification or signature of a key that does
// not keep Â (a verification computes NTT(t1·2ᵈ) after Â, in view, a
// PublicKey that shares the key's encoding). Pooled: a fresh 20–64 KiB per
// parsed key cost 10–20% of a one-shot Verify, in zeroing, cache misses
// and garbage collection. Â and t1 are public.
type aScratch struct {
	view  PublicKey
	polys [maxK*maxL + maxK]ringElement
}

var aScratchPool = sync.Pool{New: func() any { return new(aScratch) }}

func getAScratch() *aScratch { return aScratchPool.Get().(*aScratch) }

// putAScratch returns s to the pool, which keeps no key's encoding.
func putAScratch(s *aScratch) {
	s.view = PublicKey{}
	aScratchPool.Put(s)
}

// useA gives Â for one verification (forVerify) or signature with pk: the
// key's own, which a key that does not keep Â from its making samples at
// its second use (with room for t̂1 after it if forVerify), or, for the
// first use of such a key, Â sampled into s, which the caller returns with
// putAScratch (Algorithm 7, line 5, and Algorithm 8, line 5: Â ←
// ExpandA(ρ)). An error is ExpandA's.
func (pk *PublicKey) useA(forVerify bool) (aHat []ringElement, s *aScratch, err error) {
	n := pk.p.k * pk.p.l
	if !pk.lazyA {
		return pk.aHat[:n], nil, nil
	}
	// The load first: once the first use is taken, every later use only
	// reads the key, and goroutines sharing it do not write its cache line.
	if !pk.firstUse.Load() && pk.firstUse.CompareAndSwap(false, true) {
		s = getAScratch()
		// Room for t̂1 after Â, as allocate(true) makes it.
		aHat = s.polys[: n : n+pk.p.k]
		if err := expandA(aHat, &pk.ρ, pk.p.k, pk.p.l); err != nil {
			putAScratch(s)
			return nil, nil, err
		}
		return aHat, s, nil
	}
	pk.aOnce.Do(func() {
		pk.allocate(forVerify)
		pk.aErr = expandA(pk.aHat, &pk.ρ, pk.p.k, pk.p.l)
	})
	if pk.aErr != nil {
		return nil, nil, pk.aErr
	}
	return pk.aHat[:n], nil, nil
}

// verify is verifyInternal with Â as useA gives it.
func (pk *PublicKey) verify(μ *[64]byte, sig []byte) error {
	if len(sig) != pk.p.sigSize() {
		// Before sampling Â: a signature of the wrong length costs nothing.
		return errInvalidSignatureLength
	}
	aHat, s, err := pk.useA(true)
	if err != nil {
		return verifyExpandAError(err)
	}
	if s == nil {
		return verifyInternal(pk, μ, sig)
	}
	defer putAScratch(s)
	s.view = PublicKey{p: pk.p, enc: pk.enc, aHat: aHat}
	return verifyInternal(&s.view, μ, sig)
}

// verifyExpandAError is the error Verify returns when ExpandA fails.
func verifyExpandAError(err error) error {
	if err == errSamplerExhausted {
		return errVerifyExpandA
	}
	return err
}

// NewPrivateKeyFromExpanded decodes an expanded ML-DSA private key, the
// encoding of FIPS 204, Algorithm 24 (skDecode, Algorithm 25). Since the
// encoding carries no seed, the key checks it: the coefficients of s1 and
// s2 must lie in [−η, η], t0 must equal the one that ρ, s1 and s2 give, and
// tr must be the hash of the public key they give.
//
// A key made this way has no seed: its Bytes method returns nil.
func NewPrivateKeyFromExpanded(params Parameters, sk []byte) (*PrivateKey, error) {
	p := params.p
	if p == nil {
		return nil, errInvalidParameters
	}
	if len(sk) != p.skSize() {
		return nil, errInvalidPrivateKeyLength
	}
	// Parsing samples Â to check t0, and an expanded key is parsed to
	// sign: the key keeps it.
	kp := newKeyPair(p, true)
	if err := kp.parseExpanded(sk); err != nil {
		return nil, err
	}
	return &kp.sk, nil
}

// parseExpanded decodes and checks sk, an expanded private key of the
// right size, into kp, a key pair laid out with Â.
func (kp *keyPair) parseExpanded(sk []byte) error {
	p := kp.sk.p
	key, pk := &kp.sk, &kp.pk
	// ρ is kept in the public key, on the heap: ExpandA's routines let
	// their seed escape.
	copy(pk.ρ[:], sk[:32])
	declassify(publicRho, unsafe.Pointer(&pk.ρ), 32)
	copy(key.key[:], sk[32:64])
	tr := sk[64:128]
	key.packed = kp.enc[128:]
	// s1 goes into ŝ1's room, which complete turns into ŝ1; s2, t and t0
	// are scratch.
	k := p.k
	work := getKeyScratch()
	defer putKeyScratch(work, k)
	s2, t, t0 := work[:k:k], work[k:2*k:2*k], work[2*k:3*k:3*k]
	off := 128
	η := fieldElement(p.η)
	var bad uint32
	for _, s := range [][]ringElement{key.s1Hat, s2} {
		for i := range s {
			bad |= bitUnpackSignedChecked(&s[i], sk[off:], p.ηBits, η, uint32(2*p.η))
			off += 32 * p.ηBits
		}
	}
	// Whether a key is valid is not secret; its coefficients are.
	declassify(publicKeyCheck, unsafe.Pointer(&bad), 4)
	if bad != 0 {
		return errPrivateKeyRange
	}
	// Every coefficient in range has one encoding: s1 and s2 are kept as
	// given.
	copy(key.packed, sk[128:off])
	if err := key.complete(s2, t, t0); err != nil {
		return err
	}
	// BitUnpack of 13-bit fields is one to one, so t0 equals the one ρ,
	// s1 and s2 give exactly when the encodings are equal.
	differ := ctNeqBytes(sk[off:], key.t0Packed())
	declassify(publicKeyCheck, unsafe.Pointer(&differ), 4)
	if differ != 0 {
		return errPrivateKeyT0
	}
	trEqual := subtle.ConstantTimeCompare(tr, key.pub.tr[:])
	declassify(publicKeyCheck, unsafe.Pointer(&trEqual), unsafe.Sizeof(trEqual))
	if trEqual != 1 {
		return errPrivateKeyTr
	}
	return nil
}

// ExpandedBytes returns the expanded private key encoding (skEncode,
// FIPS 204, Algorithm 24).
func (sk *PrivateKey) ExpandedBytes() []byte {
	if sk == nil || sk.p == nil {
		return nil
	}
	p := sk.p
	out := make([]byte, p.skSize())
	copy(out, sk.pub.ρ[:])
	copy(out[32:], sk.key[:])
	copy(out[64:], sk.pub.tr[:])
	copy(out[128:], sk.packed)
	return out
}

// Bytes returns the private key seed, or nil for a key made by
// NewPrivateKeyFromExpanded, which has none.
func (sk *PrivateKey) Bytes() []byte {
	if sk == nil || !sk.hasSeed {
		return nil
	}
	return append([]byte(nil), sk.seed[:]...)
}

// Equal reports whether sk and x are the same key: the same seed, or, if
// either has no seed, the same expanded encoding.
//
// If x is not a *PrivateKey, Equal returns false.
func (sk *PrivateKey) Equal(x crypto.PrivateKey) bool {
	other, ok := x.(*PrivateKey)
	if !ok || other == nil || sk == nil || sk.p != other.p || sk.p == nil {
		return false
	}
	if sk.hasSeed && other.hasSeed {
		return subtle.ConstantTimeCompare(sk.seed[:], other.seed[:]) == 1
	}
	return subtle.ConstantTimeCompare(sk.ExpandedBytes(), other.ExpandedBytes()) == 1
}

// Public returns the corresponding PublicKey for this private key.
//
// It implements the crypto.Signer interface.
func (sk *PrivateKey) Public() crypto.PublicKey {
	return sk.PublicKey()
}

// PublicKey returns the corresponding PublicKey for this private key.
func (sk *PrivateKey) PublicKey() *PublicKey {
	if sk == nil {
		return nil
	}
	return sk.pub
}

// Bytes returns the public key encoding.
func (pk *PublicKey) Bytes() []byte {
	if pk == nil {
		return nil
	}
	return append([]byte(nil), pk.enc...)
}

// Equal reports whether pk and x are the same key (i.e. they have the same
// encoding).
//
// If x is not a *PublicKey, Equal returns false.
func (pk *PublicKey) Equal(x crypto.PublicKey) bool {
	other, ok := x.(*PublicKey)
	if !ok || other == nil || pk == nil || pk.p != other.p {
		return false
	}
	return subtle.ConstantTimeCompare(pk.enc, other.enc) == 1
}

// Parameters returns the parameters associated with this public key.
func (pk *PublicKey) Parameters() Parameters {
	if pk == nil {
		return Parameters{}
	}
	return Parameters{pk.p}
}

// Sign returns a signature of the given message using this private key
// (ML-DSA.Sign, FIPS 204, Algorithm 2, hedged with fresh randomness).
//
// opts may be nil or crypto.Hash(0) (the message is signed directly with
// an empty context), *Options (with its context; under Go 1.27 and later
// Options is crypto/mldsa's Options), or crypto.MLDSAMu (the message is a
// 64-byte μ message representative, signed as SignMu does; RFC 9881,
// "externalMu"). Any other SignerOpts is an error, rather than a
// signature with a context the caller did not ask for; HashSign signs
// with HashML-DSA. The io.Reader argument is ignored: the randomness comes
// from crypto/rand.Read, which stops the program rather than fail.
func (sk *PrivateKey) Sign(_ io.Reader, message []byte, opts crypto.SignerOpts) (signature []byte, err error) {
	return sk.signMessage(message, opts, false)
}

// SignDeterministic works like PrivateKey.Sign, but the signature is
// deterministic.
func (sk *PrivateKey) SignDeterministic(message []byte, opts crypto.SignerOpts) (signature []byte, err error) {
	return sk.signMessage(message, opts, true)
}

// hashMLDSAMu is crypto.MLDSAMu, which Go 1.27 adds after BLAKE2b_512; it
// is written as a number so that the package builds with Go 1.26 (a Go
// 1.27 test checks that the two agree).
const hashMLDSAMu = crypto.BLAKE2b_512 + 1

// signerOpts returns the context that opts asks for, or whether the
// message is μ itself. Only the types listed in Sign's documentation are
// accepted: an unknown type may carry a context this package cannot see.
func signerOpts(opts crypto.SignerOpts) (context string, isMu bool, err error) {
	switch o := opts.(type) {
	case nil:
		return "", false, nil
	case *Options:
		if o == nil {
			return "", false, nil
		}
		return o.Context, false, nil
	case crypto.Hash:
		switch o {
		case 0:
			return "", false, nil
		case hashMLDSAMu:
			return "", true, nil
		}
		return "", false, fmt.Errorf("%w crypto.Hash %v: ML-DSA signs the message itself (HashSign signs with HashML-DSA)", ErrUnsupportedSignerOpts, o)
	}
	return "", false, fmt.Errorf("%w type %T (want nil, crypto.Hash(0), crypto.MLDSAMu or *mldsa.Options)", ErrUnsupportedSignerOpts, opts)
}

func (sk *PrivateKey) signMessage(message []byte, opts crypto.SignerOpts, deterministic bool) ([]byte, error) {
	if sk == nil || sk.p == nil {
		return nil, errZeroPrivateKey
	}
	context, isMu, err := signerOpts(opts)
	if err != nil {
		return nil, err
	}
	if isMu {
		return sk.signMu(message, deterministic)
	}
	if len(context) > 255 {
		return nil, errContextTooLong
	}
	μ := computeMu(&sk.pub.tr, 0, context, nil, message)
	return sk.signWithMode(&μ, deterministic)
}

// SignMu signs the 64-byte message representative μ directly
// (ML-DSA.Sign_internal, FIPS 204, Algorithm 7, from line 7, hedged). μ must
// be H(tr ‖ M′, 64) for this key's tr, computed by the caller (RFC 9881,
// "externalMu").
func (sk *PrivateKey) SignMu(mu []byte) ([]byte, error) {
	return sk.signMu(mu, false)
}

// SignMuDeterministic works like SignMu, but the signature is
// deterministic.
func (sk *PrivateKey) SignMuDeterministic(mu []byte) ([]byte, error) {
	return sk.signMu(mu, true)
}

func (sk *PrivateKey) signMu(mu []byte, deterministic bool) ([]byte, error) {
	if sk == nil || sk.p == nil {
		return nil, errZeroPrivateKey
	}
	if len(mu) != 64 {
		return nil, errMuLength
	}
	return sk.signWithMode((*[64]byte)(mu), deterministic)
}

func (sk *PrivateKey) signWithMode(μ *[64]byte, deterministic bool) ([]byte, error) {
	var rnd [32]byte
	if !deterministic {
		var err error
		if rnd, err = randomBytes(); err != nil {
			return nil, err
		}
		// The library draws rnd itself: no caller can mark it.
		secret(unsafe.Pointer(&rnd), 32)
	}
	return sk.signInternal(μ, &rnd)
}

// randomBytes returns 32 bytes from crypto/rand. rand.Read, unlike
// io.ReadFull(rand.Reader, ...), does not let the buffer escape when
// rand.Reader is the default, so hedged signing allocates only the
// signature. It never returns an error (crypto/rand stops the program
// instead, as crypto/mldsa's own randomness does).
func randomBytes() ([32]byte, error) {
	var b [32]byte
	_, err := rand.Read(b[:])
	return b, err
}

// computeMu returns μ = H(tr ‖ M′, 64) (Algorithm 7, line 6) with
// M′ = IntegerToBytes(domain, 1) ‖ IntegerToBytes(|ctx|, 1) ‖ ctx ‖ oid ‖ msg
// (Algorithm 2, line 10; Algorithm 4, line 23), absorbed without building M′.
func computeMu(tr *[64]byte, domain byte, ctx string, oid []byte, msg []byte) [64]byte {
	h := newShake256()
	h.write(tr[:])
	h.writeByte(domain)
	h.writeByte(byte(len(ctx)))
	for i := 0; i < len(ctx); i++ {
		h.writeByte(ctx[i])
	}
	h.write(oid)
	h.write(msg)
	var μ [64]byte
	h.read(μ[:])
	return μ
}

// signInternal is ML-DSA.Sign_internal (Algorithm 7) from μ, with rnd the
// 32 bytes of randomness (zero for deterministic signing). On every
// assembly path it is one proven routine (sign); the pure-Go path runs
// the same loop in Go (signGeneric).
func (sk *PrivateKey) signInternal(μ *[64]byte, rnd *[32]byte) ([]byte, error) {
	p := sk.p
	sk.signForms()

	// The attempts' buffers come from a pool: the routines' declarations
	// let them escape, and as variables Go would zero them at every
	// signature, whatever the parameter set.
	aHat, a, err := sk.pub.useA(false)
	if err != nil {
		return nil, err
	}
	if a != nil {
		defer putAScratch(a)
	}
	scratch := signScratchPool.Get().(*signScratch)
	defer putSignScratch(scratch)
	sig := make([]byte, p.sigSize())
	ok := sign(p, sig, &sk.key, rnd, μ, aHat, sk.s1Hat, sk.s2Hat, sk.t0Hat, scratch)
	// True exactly when an attempt passed line 28's checks, after the
	// line 23 ones: their outcomes, which each attempt makes public.
	declassify(publicRejectHint, unsafe.Pointer(&ok), 1)
	if !ok {
		return nil, errSigningAttempts
	}
	return sig, nil
}

// Verify reports whether signature is a valid signature of message by pk
// (ML-DSA.Verify, FIPS 204, Algorithm 3). If opts is nil, it's equivalent
// to the zero value of Options.
func Verify(pk *PublicKey, message []byte, signature []byte, opts *Options) error {
	if pk == nil || pk.p == nil {
		return errZeroPublicKey
	}
	var context string
	if opts != nil {
		context = opts.Context
	}
	if len(context) > 255 {
		return errContextTooLong
	}
	if len(signature) != pk.p.sigSize() {
		return errInvalidSignatureLength
	}
	μ := computeMu(&pk.tr, 0, context, nil, message)
	return pk.verify(&μ, signature)
}

// VerifyMu reports whether signature is a valid signature of the 64-byte
// message representative μ by pk (ML-DSA.Verify_internal, FIPS 204,
// Algorithm 8, from line 7).
func VerifyMu(pk *PublicKey, mu []byte, signature []byte) error {
	if pk == nil || pk.p == nil {
		return errZeroPublicKey
	}
	if len(mu) != 64 {
		return errMuLength
	}
	return pk.verify((*[64]byte)(mu), signature)
}

// verifyInternal is ML-DSA.Verify_internal (Algorithm 8) from μ. Everything
// it handles is public. The verdict is verify's; a rejection's error says
// why (verifyError).
func verifyInternal(pk *PublicKey, μ *[64]byte, sig []byte) error {
	if len(sig) != pk.p.sigSize() {
		return errInvalidSignatureLength
	}
	pk.verifyForms()
	if verify(pk.p, sig, μ, pk.aHat[:pk.p.k*pk.p.l], pk.t1Hat) {
		return nil
	}
	return verifyError(pk.p, sig)
}
