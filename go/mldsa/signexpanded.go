package mldsa

import (
	"crypto"
	"sync"
)

// SignExpanded signs message with the private key whose expanded encoding
// (FIPS 204, Algorithm 24) is sk. The signature, the checks of sk and the
// errors are those of NewPrivateKeyFromExpanded followed by Sign, and opts
// means what it means there; but no key is made. The key is decoded into
// memory the package reuses, and its secret parts are zeroed before
// SignExpanded returns, so a signer that keeps only the encoding does not
// allocate, zero and collect a key (35–93 KiB) for each signature. A
// signer that signs more than once with a key does better to parse it
// once with NewPrivateKeyFromExpanded.
func SignExpanded(params Parameters, sk, message []byte, opts crypto.SignerOpts) ([]byte, error) {
	return signExpanded(params, sk, message, opts, false)
}

// SignExpandedDeterministic works like SignExpanded, but the signature is
// deterministic.
func SignExpandedDeterministic(params Parameters, sk, message []byte, opts crypto.SignerOpts) ([]byte, error) {
	return signExpanded(params, sk, message, opts, true)
}

func signExpanded(params Parameters, sk, message []byte, opts crypto.SignerOpts, deterministic bool) ([]byte, error) {
	p := params.p
	if p == nil {
		return nil, errInvalidParameters
	}
	if len(sk) != p.skSize() {
		return nil, errInvalidPrivateKeyLength
	}
	t := transientKeys.Get().(*transientKey)
	defer t.put(p)
	return t.sign(p, sk, message, opts, deterministic)
}

// transientKey is the room of one key of any parameter set, laid out by
// keyPair.layOut with Â and followed by ŝ2 and t̂0: SignExpanded's key.
type transientKey struct {
	kp    keyPair
	block []ringElement
}

var transientKeys = sync.Pool{New: func() any {
	n := 0
	for _, p := range []*params{&params44, &params65, &params87} {
		n = max(n, keyBlockPolys(p, true, true))
	}
	return &transientKey{block: make([]ringElement, n)}
}}

// sign decodes sk (of p's size) into t and signs message with it.
func (t *transientKey) sign(p *params, sk, message []byte, opts crypto.SignerOpts, deterministic bool) ([]byte, error) {
	kp := &t.kp
	kp.layOut(p, true, t.block)
	if err := kp.parseExpanded(sk); err != nil {
		return nil, err
	}
	key := &kp.sk
	n := keyBlockPolys(p, true, false)
	key.formsOnce.Do(func() { key.makeForms(t.block[n : n+2*p.k]) })
	return key.signMessage(message, opts, deterministic)
}

// put wipes t and returns it to the pool.
func (t *transientKey) put(p *params) {
	t.wipe(p)
	transientKeys.Put(t)
}

// wipe zeroes what t holds of a key of p after Â, which is public (ŝ1,
// the encodings, ŝ2, t̂0, and K in the key itself): pooled memory
// outlives the call.
func (t *transientKey) wipe(p *params) {
	clear(t.block[p.k*p.l : keyBlockPolys(p, true, true)])
	t.kp = keyPair{}
}
