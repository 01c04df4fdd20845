package mldsa

import (
	"bytes"
	"testing"
)

// The fuzz targets assert that decoding and verifying arbitrary bytes
// returns (an error or not) without panicking. A panic fails the target.
// Inputs are kilobytes long, so minimizing each new interesting input takes
// long: run with a cap, e.g.
//
//	go test -run XXX -fuzz FuzzNewPublicKeyVerify -fuzztime 30s -fuzzminimizetime 50x

func FuzzNewPublicKeyVerify(f *testing.F) {
	for _, ps := range allParams {
		sk, _ := NewPrivateKey(ps.p, make([]byte, 32))
		sig, _ := sk.SignDeterministic([]byte("m"), nil)
		f.Add(uint8(0), sk.PublicKey().Bytes(), []byte("m"), sig, "")
	}
	f.Add(uint8(1), []byte{1, 2, 3}, []byte{}, []byte{4, 5}, "ctx")
	f.Fuzz(func(t *testing.T, set uint8, pkBytes, msg, sig []byte, ctx string) {
		ps := allParams[int(set)%len(allParams)]
		// Short inputs are padded to the right sizes so that decoding and
		// verification are reached.
		if len(pkBytes) < ps.p.PublicKeySize() && set&0x80 == 0 {
			pkBytes = append(pkBytes, make([]byte, ps.p.PublicKeySize()-len(pkBytes))...)
		}
		if len(sig) < ps.p.SignatureSize() && set&0x40 == 0 {
			sig = append(sig, make([]byte, ps.p.SignatureSize()-len(sig))...)
		}
		pk, err := NewPublicKey(ps.p, pkBytes)
		if err != nil {
			return
		}
		_ = Verify(pk, msg, sig, &Options{Context: ctx})
		_ = VerifyMu(pk, msg, sig)
		_ = HashVerify(pk, msg, sig, PreHash(set%14), nil)
	})
}

func FuzzNewPrivateKeyFromExpanded(f *testing.F) {
	for _, ps := range allParams {
		sk, _ := NewPrivateKey(ps.p, make([]byte, 32))
		f.Add(uint8(0), sk.ExpandedBytes())
	}
	f.Add(uint8(2), []byte{0xFF})
	f.Fuzz(func(t *testing.T, set uint8, skBytes []byte) {
		ps := allParams[int(set)%len(allParams)]
		if len(skBytes) < ps.p.ExpandedPrivateKeySize() && set&0x80 == 0 {
			skBytes = append(skBytes, make([]byte, ps.p.ExpandedPrivateKeySize()-len(skBytes))...)
		}
		sk, err := NewPrivateKeyFromExpanded(ps.p, skBytes)
		// SignExpanded decodes as NewPrivateKeyFromExpanded does.
		one, oneErr := SignExpandedDeterministic(ps.p, skBytes, []byte("m"), nil)
		if err != nil {
			if oneErr == nil || oneErr.Error() != err.Error() {
				t.Fatalf("NewPrivateKeyFromExpanded: %v; SignExpandedDeterministic: %v", err, oneErr)
			}
			return
		}
		// A key that decodes must sign verifiable signatures.
		sig, err := sk.SignDeterministic([]byte("m"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if oneErr != nil || !bytes.Equal(one, sig) {
			t.Fatalf("SignExpandedDeterministic differs from the decoded key's signature (%v)", oneErr)
		}
		if err := Verify(sk.PublicKey(), []byte("m"), sig, nil); err != nil {
			t.Fatal("signature of a decoded expanded key does not verify:", err)
		}
	})
}
