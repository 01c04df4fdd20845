package contract

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.Verify_internal (FIPS 204, Algorithm 8) as one routine per
// parameter set and path: from the forms of the public key go/mldsa keeps
// (Â as sampled, NTT(t1·2^d) in Montgomery form), μ and σ, whether σ is
// valid. It is made of CALLs of the proven routines only, with no branch:
// every check is computed and the results ANDed at the end. Its
// postcondition is fips204.VerifyOver itself, the steps
// fips204.VerifyInternal runs, run by the checker over the routine's
// symbolic values (Compose).
func init() { lazily(verifyContracts) }

func verifyContracts() {
	for _, ps := range paramSets {
		register(verifyContract(ps.name, ps.p, "AMD64"), verifyContract(ps.name, ps.p, "AVX2"), verifyContract(ps.name, ps.p, "AVX512"))
	}
}

// VerifyCallees is the routines Verify<set><variant> calls, in the order
// of Algorithm 8's lines: the z decoder, HintBitUnpack, the norm check,
// SampleInBall, NTT, ToMontgomeryPoly, a row of MatrixVectorNTT,
// MultiplyNTT, PolySub, NTT⁻¹, UseHint, the w1 packing and H's
// permutation (the AVX2 path's: the BMI2 permutation and SampleInBall,
// FromMontgomeryPoly on NTT(c) in ToMontgomeryPoly's place on NTT(z), and
// NTTInverseMont).
// The AVX-512 path calls the AVX-512 NTT, NTT⁻¹ and products, and the
// AVX2 path's routines for the rest, which have no AVX-512 variant.
func VerifyCallees(name string, p fips204.Params, variant string) []string {
	zBits, div, w1Bits := 20, 32, 4
	if p.Gamma1 == 1<<17 {
		zBits, div, w1Bits = 18, 88, 6
	}
	perm, ball := "KeccakF1600AMD64", "SampleInBall"+name+"AMD64"
	if variant != "AMD64" {
		perm, ball = "KeccakF1600BMI2", "SampleInBall"+name+"BMI2"
	}
	v := variant // the variant of the routines without an AVX-512 one
	if variant == "AVX512" {
		v = "AVX2"
	}
	scale, inv := "ToMontgomeryPoly"+v, "NTTInverse"+variant
	if variant == "AVX2" {
		// NTT(z) stays plain: NTT(c) is scaled by 2⁻³² instead, and the
		// NTT⁻¹ scales by 2³².
		scale, inv = "FromMontgomeryPolyAVX2", "NTTInverseMontAVX2"
	}
	return []string{fmt.Sprintf("BitUnpack%d%s", zBits, v), "HintBitUnpack" + name + "AMD64", "NormExceeds" + v, ball,
		"NTT" + variant, scale, fmt.Sprintf("MultiplyAccNTT%d%s", p.L, variant), "MultiplyNTT" + variant,
		"PolySub" + v, inv, fmt.Sprintf("UseHint%d%s", div, v), fmt.Sprintf("SimpleBitPack%d%s", w1Bits, v), perm}
}

// verifyContract is the contract of Verify<set><variant>.
func verifyContract(name string, p fips204.Params, variant string) *Contract {
	sym := "Verify" + name + variant
	k, l := p.K, p.L
	calls := VerifyCallees(name, p, variant)
	perm := calls[len(calls)-1]
	var features []string
	switch variant {
	case "AVX2":
		features = []string{"AVX", "AVX2", "BMI", "BMI2"}
	case "AVX512":
		features = []string{"AVX", "AVX2", "BMI", "BMI2", "AVX512F"}
	}
	rows := func(v []any) [][]any {
		m := make([][]any, k)
		for i := range m {
			m[i] = v[l*i : l*i+l]
		}
		return m
	}
	return &Contract{
		Symbol: sym, Routine: "Verify" + name, Variant: variant,
		Stem: "verify", GoName: "verify",
		GoSig: fmt.Sprintf("func %s(sig *[%d]byte, mu *[64]byte, aHat *[%d][256]uint32, t1Hat *[%d][256]uint32, work *[%d][256]uint32) bool",
			sym, p.SignatureSize, k*l, k, k+l+4),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's Verify_internal (FIPS 204, Algorithm 8)", sym, name),
			"from μ and the forms of the public key go/mldsa keeps: Â (as sampled,",
			"row-major) in aHat and NTT(t1·2^d) times 2³² mod q in t1Hat. It returns",
			"whether sig is valid, by calls of the proven routines of its path",
			fmt.Sprintf("(%s for H), every check computed and ANDed at the end: no", perm),
			"branch. It returns false too if SampleInBall ran out of its bound",
			"(Appendix C). work is its space for z, h, c and the rows of line 9,",
			"left as garbage.",
		},
		Level: provenExcept(), Budget: 120,
		Args: []Arg{
			{Name: "sig", Bytes: p.SignatureSize, Read: true},
			{Name: "mu", Bytes: 64, Read: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true},
			{Name: "t1Hat", Bytes: 1024 * k, Read: true},
			{Name: "work", Bytes: 1024 * (k + l + 4), Read: true, Write: true},
		},
		Result: "bool",
		Calls:  calls,
		Compose: &Compose{P: p, Permutation: perm, Polys: []string{"aHat", "t1Hat"}, NTTPolys: []string{"aHat", "t1Hat"}, MontIn: []string{"t1Hat"}, Scratch: []string{"work"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				ok := fips204.VerifyOver(o, p, rows(in["aHat"]), in["t1Hat"], in["mu"], in["sig"]) // Algorithm 8
				return map[string][]any{Result: {ok}}
			}},
		Pre: "every coefficient of aHat (Â, k×ℓ by rows) and t1Hat (NTT(t1·2^d) · 2³²) in [0, q); sig and mu any bytes",
		Post: "ok ⇔ fips204.VerifyOver(Â, NTT(t1·2^d), μ, σ) = 1 (Algorithm 8, lines 2 to 13) and SampleInBall stays within its bound " +
			"(Appendix C)",
		Leak: "nothing is secret: σ, μ and the public key are public; the routine's own code has no branch, SampleInBall's " +
			"control flow depends on where its rejections fall (its declared leak)",
		// MaxFrame: μ ‖ w1Encode, the SHAKE256 state, the callees'
		// arguments, the bound, the flag and the running result.
		Features: features, MaxFrame: 2048, NoAlias: true,
		Runs: 50,
		Gen: func(r *rand.Rand) Buffers {
			return genVerify(r, p)
		},
		Check: func(in, out Buffers, ret byte) error {
			want := verifySpec(p, in)
			if ret != b2b(want) {
				return fmt.Errorf("returned %d, Spec's Verify_internal gives %v", ret, want)
			}
			return nil
		},
	}
}

// verifyKeys is one key pair per parameter set, for genVerify.
var (
	verifyKeys   = map[string][2][]byte{}
	verifyKeysMu sync.Mutex
)

// genVerify draws an input: a key pair's forms, μ, and a signature of μ
// by it, left valid a third of the time, else changed at one byte (of c̃,
// z or h) or in μ.
func genVerify(r *rand.Rand, p fips204.Params) Buffers {
	verifyKeysMu.Lock()
	defer verifyKeysMu.Unlock()
	keys, ok := verifyKeys[p.Name]
	if !ok {
		xi := make([]byte, 32)
		for i := range xi {
			xi[i] = byte(i)
		}
		pk, sk := fips204.KeyGenInternal(p, xi)
		keys = [2][]byte{pk, sk}
		verifyKeys[p.Name] = keys
	}
	pk, sk := keys[0], keys[1]
	mu := randBytes(r, 64)
	sig, err := fips204.SignInternalMu(p, sk, mu, randBytes(r, 32))
	if err != nil {
		sig = randBytes(r, p.SignatureSize)
	}
	switch r.IntN(6) {
	case 0, 1:
	case 2:
		mu[r.IntN(64)] ^= byte(1 + r.IntN(255))
	default:
		sig[r.IntN(len(sig))] ^= byte(1 + r.IntN(255))
	}
	rho, t1, _ := fips204.PkDecode(p, pk)
	var aHat, t1Hat []byte
	for _, row := range fips204.ExpandA(p, rho) {
		for _, w := range row {
			aHat = append(aHat, polyBytes(w, 1)...)
		}
	}
	for _, w := range t1 {
		for i := range w {
			w[i] <<= fips204.D
		}
		t1Hat = append(t1Hat, polyBytes(fips204.NTT(w), 1<<32%fips204.Q)...)
	}
	return Buffers{"sig": sig, "mu": mu, "aHat": aHat, "t1Hat": t1Hat, "work": randBytes(r, 1024*(p.K+p.L+4))}
}

// polyBytes is w times m mod q, as 256 little-endian words.
func polyBytes(w fips204.Poly, m int64) []byte {
	b := make([]byte, 1024)
	for i, x := range w {
		v := modQ(x)
		v = uint32(int64(v) * m % fips204.Q)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	return b
}

// verifySpec is Spec's verdict on the input: VerifyOver on the forms the
// buffers hold, and SampleInBall within its bound.
func verifySpec(p fips204.Params, in Buffers) bool {
	var aHat [][]fips204.Poly
	for i := 0; i < p.K; i++ {
		var row []fips204.Poly
		for j := 0; j < p.L; j++ {
			row = append(row, Poly(in["aHat"][1024*(p.L*i+j):]))
		}
		aHat = append(aHat, row)
	}
	var t1Hat []fips204.Poly
	for i := 0; i < p.K; i++ {
		w := Poly(in["t1Hat"][1024*i:])
		for j, x := range w {
			w[j] = int32(int64(x) * rInv % fips204.Q)
		}
		t1Hat = append(t1Hat, w)
	}
	n := 0
	read := shake256(in["sig"][:p.Lambda/4])
	fips204.SampleInBallFrom(p, func(s []byte) { n += len(s); read(s) })
	return n <= maxBallBytes && fips204.VerifyOver[byte, fips204.Poly](fips204.Values{P: p}, p, aHat, t1Hat, in["mu"], in["sig"]) == 1
}
