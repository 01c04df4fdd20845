package mldsa

import (
	"testing"
)

func BenchmarkKeyGen(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			seed := make([]byte, 32)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				seed[0] = byte(i)
				if _, err := NewPrivateKey(ps.p, seed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSign(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			sk, err := NewPrivateKey(ps.p, make([]byte, 32))
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte("a message to sign, a message to sign")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := sk.Sign(nil, msg, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSignDeterministic signs 16 messages in turn, deterministically,
// so that the work of b.N signatures is the same on every run when b.N is
// a multiple of 16: instruction counts (valgrind's callgrind) then compare
// exactly across builds, which the hedged BenchmarkSign cannot.
func BenchmarkSignDeterministic(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			sk, err := NewPrivateKey(ps.p, make([]byte, 32))
			if err != nil {
				b.Fatal(err)
			}
			var msgs [16][]byte
			for i := range msgs {
				msgs[i] = []byte{byte(i), 'm', 's', 'g'}
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := sk.SignDeterministic(msgs[i%len(msgs)], nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSignExpanded signs from the expanded private key encoding,
// with the validation of t0 and tr, as a signer that keeps only the
// encoding would: "parsed" decodes it with NewPrivateKeyFromExpanded and
// signs with the key, "one-call" calls SignExpandedDeterministic, which
// decodes it into pooled room.
func BenchmarkSignExpanded(b *testing.B) {
	ways := []struct {
		name string
		sign func(p Parameters, enc, msg []byte) error
	}{
		{"parsed", func(p Parameters, enc, msg []byte) error {
			key, err := NewPrivateKeyFromExpanded(p, enc)
			if err == nil {
				_, err = key.SignDeterministic(msg, nil)
			}
			return err
		}},
		{"one-call", func(p Parameters, enc, msg []byte) error {
			_, err := SignExpandedDeterministic(p, enc, msg, nil)
			return err
		}},
	}
	for _, ps := range allParams {
		for _, way := range ways {
			b.Run(ps.p.String()+"/"+way.name, func(b *testing.B) {
				sk, err := NewPrivateKey(ps.p, make([]byte, 32))
				if err != nil {
					b.Fatal(err)
				}
				enc := sk.ExpandedBytes()
				msg := []byte("a message to sign, a message to sign")
				b.ReportAllocs()
				for b.Loop() {
					if err := way.sign(ps.p, enc, msg); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkVerify parses the public key and verifies, as a verifier that
// receives both would.
func BenchmarkVerify(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			sk, err := NewPrivateKey(ps.p, make([]byte, 32))
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte("a message to sign, a message to sign")
			sig, err := sk.Sign(nil, msg, nil)
			if err != nil {
				b.Fatal(err)
			}
			pkBytes := sk.PublicKey().Bytes()
			b.ReportAllocs()
			for b.Loop() {
				pk, err := NewPublicKey(ps.p, pkBytes)
				if err != nil {
					b.Fatal(err)
				}
				if err := Verify(pk, msg, sig, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerifyParsed verifies with a public key parsed once.
func BenchmarkVerifyParsed(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			sk, err := NewPrivateKey(ps.p, make([]byte, 32))
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte("a message to sign, a message to sign")
			sig, err := sk.Sign(nil, msg, nil)
			if err != nil {
				b.Fatal(err)
			}
			pk := sk.PublicKey()
			b.ReportAllocs()
			for b.Loop() {
				if err := Verify(pk, msg, sig, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkExpandA(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			p := ps.p.p
			a := make([]ringElement, p.k*p.l)
			var ρ [32]byte
			for b.Loop() {
				if err := expandA(a, &ρ, p.k, p.l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExpandS and BenchmarkExpandMask time the samplers of key
// generation and of each signing attempt, grouped as the code path groups
// them (fourWayMin).
func BenchmarkExpandS(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			p := ps.p.p
			s := make([]ringElement, p.l+p.k)
			var ρPrime [64]byte
			for i := 0; b.Loop(); i++ {
				ρPrime[0] = byte(i)
				if err := expandS(s[:p.l], s[p.l:], &ρPrime, p.η); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkExpandMask(b *testing.B) {
	for _, ps := range allParams {
		b.Run(ps.p.String(), func(b *testing.B) {
			p := ps.p.p
			y := make([]ringElement, p.l)
			var ρPrimePrime [64]byte
			for i := 0; b.Loop(); i++ {
				expandMask(y, &ρPrimePrime, (i%signAttempts)*p.l, p.γ1Bits)
			}
		})
	}
}

func BenchmarkNTT(b *testing.B) {
	var a ringElement
	for i := range a {
		a[i] = fieldElement(i * 7919 % q)
	}
	b.Run("Forward", func(b *testing.B) {
		for b.Loop() {
			ntt(&a)
		}
	})
	b.Run("Inverse", func(b *testing.B) {
		for b.Loop() {
			nttInverse(&a)
		}
	})
}
