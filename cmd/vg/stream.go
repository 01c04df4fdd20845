package main

// Messages are never held in memory: sign and verify read them once,
// through SHAKE256 for μ (FIPS 204, Algorithm 7, line 6) or through the
// pre-hash of HashML-DSA, and hand μ to SignMu or VerifyMu.

import (
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"fmt"
	"hash"
	"io"
	"strings"

	"github.com/vg-crypto/vg/go/mldsa"
)

// preHashes lists HashML-DSA's pre-hash functions (FIPS 204, §5.4.1) with
// what streaming needs: a constructor, the output length (SHAKE128 gives
// 256 bits and SHAKE256 512, Algorithm 4, lines 19 and 22); go/mldsa's
// HashMu adds the OID.
var preHashes = []preHashInfo{
	{mldsa.SHA224, func() io.Writer { return sha256.New224() }, 28},
	{mldsa.SHA256, func() io.Writer { return sha256.New() }, 32},
	{mldsa.SHA384, func() io.Writer { return sha512.New384() }, 48},
	{mldsa.SHA512, func() io.Writer { return sha512.New() }, 64},
	{mldsa.SHA512_224, func() io.Writer { return sha512.New512_224() }, 28},
	{mldsa.SHA512_256, func() io.Writer { return sha512.New512_256() }, 32},
	{mldsa.SHA3_224, func() io.Writer { return sha3.New224() }, 28},
	{mldsa.SHA3_256, func() io.Writer { return sha3.New256() }, 32},
	{mldsa.SHA3_384, func() io.Writer { return sha3.New384() }, 48},
	{mldsa.SHA3_512, func() io.Writer { return sha3.New512() }, 64},
	{mldsa.SHAKE128, func() io.Writer { return sha3.NewSHAKE128() }, 32},
	{mldsa.SHAKE256, func() io.Writer { return sha3.NewSHAKE256() }, 64},
}

type preHashInfo struct {
	ph    mldsa.PreHash
	newFn func() io.Writer // a hash.Hash, or a *sha3.SHAKE
	size  int
}

// sum returns the digest of h, a writer made by newFn.
func (p *preHashInfo) sum(h io.Writer) []byte {
	if x, ok := h.(*sha3.SHAKE); ok {
		out := make([]byte, p.size)
		x.Read(out)
		return out
	}
	return h.(hash.Hash).Sum(nil)
}

func preHashNames() string {
	names := make([]string, len(preHashes))
	for i, ph := range preHashes {
		names[i] = ph.ph.String()
	}
	return strings.Join(names, ", ")
}

// normalizeHashName drops case and separators: "SHA-512/256", "sha512_256"
// and "SHA512-256" all become "SHA512256".
func normalizeHashName(s string) string {
	return strings.ToUpper(strings.NewReplacer("-", "", "_", "", "/", "", " ", "").Replace(s))
}

// preHashByName accepts the ACVP names (SHA2-256, SHA3-256, SHAKE-128),
// those of crypto.Hash and OpenSSL (SHA-256, SHA-512/256, sha256,
// shake128), in any case and with or without separators.
func preHashByName(name string) (*preHashInfo, error) {
	n := normalizeHashName(name)
	for i := range preHashes {
		p := &preHashes[i]
		acvp := normalizeHashName(p.ph.String()) // e.g. SHA2256, SHA3256, SHAKE128
		if n == acvp || (strings.HasPrefix(acvp, "SHA2") && n == "SHA"+acvp[len("SHA2"):]) {
			return p, nil
		}
	}
	return nil, fmt.Errorf("unknown pre-hash %q (want one of %s; SHA-256, sha256 and the like are accepted too)", name, preHashNames())
}

// streamBuffer is the read size: large enough that system calls cost
// little next to hashing, small enough to stay far below the memory bound.
const streamBuffer = 1 << 20

// messageMu reads the message from r once and returns μ = H(tr ‖ M′, 64)
// (Algorithm 7, line 6), with tr = H(pk, 64) (Algorithm 6, line 9) and
// M′ = 0 ‖ |ctx| ‖ ctx ‖ M for ML-DSA (Algorithm 2, line 10) or
// M′ = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) for HashML-DSA (Algorithm 4, line 23).
func messageMu(r io.Reader, pk *mldsa.PublicKey, ctx string, ph *preHashInfo) ([64]byte, error) {
	var μ [64]byte
	if len(ctx) > 255 {
		return μ, fmt.Errorf("context is %d bytes; FIPS 204 allows at most 255", len(ctx))
	}
	if ph != nil {
		d := ph.newFn()
		if err := copyAll(d, r); err != nil {
			return μ, err
		}
		return mldsa.HashMu(pk, ph.sum(d), ph.ph, ctx)
	}
	// go/mldsa absorbs tr ‖ M′ through its proven SHAKE256 block routine.
	h, err := mldsa.NewMuHasher(pk, ctx)
	if err != nil {
		return μ, err
	}
	if err := copyAll(h, r); err != nil {
		return μ, err
	}
	return h.Mu()
}

// copyAll writes all of r to w, a hash that takes any write. A second
// goroutine reads while this one hashes, so that reading costs almost no
// time next to hashing; the buffers in flight stay a few MiB.
func copyAll(w io.Writer, r io.Reader) error {
	type chunk struct {
		buf []byte
		n   int
		err error
	}
	const inFlight = 3
	free := make(chan []byte, inFlight)
	for i := 0; i < inFlight; i++ {
		free <- make([]byte, streamBuffer)
	}
	full := make(chan chunk, inFlight)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			var buf []byte
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			n, err := io.ReadFull(r, buf)
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			select {
			case full <- chunk{buf, n, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range full {
		w.Write(c.buf[:c.n])
		if c.err == io.EOF {
			return nil
		}
		if c.err != nil {
			return c.err
		}
		free <- c.buf
	}
	return nil
}
