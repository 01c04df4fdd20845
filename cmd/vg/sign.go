package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/vg-crypto/vg/go/mldsa"
)

// preHashes lists HashML-DSA's pre-hash functions (FIPS 204 §5.4).
var preHashes = []mldsa.PreHash{
	mldsa.SHA224, mldsa.SHA256, mldsa.SHA384, mldsa.SHA512, mldsa.SHA512_224, mldsa.SHA512_256,
	mldsa.SHA3_224, mldsa.SHA3_256, mldsa.SHA3_384, mldsa.SHA3_512, mldsa.SHAKE128, mldsa.SHAKE256,
}

func preHashNames() string {
	names := make([]string, len(preHashes))
	for i, ph := range preHashes {
		names[i] = ph.String()
	}
	return strings.Join(names, ", ")
}

// messageFlags are the flags sign and verify share.
type messageFlags struct {
	key, in, params     string
	context, contextHex string
	prehash             string
}

func (m *messageFlags) register(fs *flag.FlagSet, keyFlag, keyHelp string) {
	fs.StringVar(&m.key, keyFlag, "", keyHelp)
	fs.StringVar(&m.in, "in", "", "message file (required; - for standard input)")
	fs.StringVar(&m.params, "params", "", "parameter set of a raw key: ML-DSA-44, ML-DSA-65 or ML-DSA-87 (checked against the OID otherwise)")
	fs.StringVar(&m.context, "context", "", "context string ctx, at most 255 bytes (FIPS 204 Algorithms 2 to 5)")
	fs.StringVar(&m.contextHex, "context-hex", "", "context string in hexadecimal, instead of -context")
	fs.StringVar(&m.prehash, "prehash", "", "HashML-DSA with this pre-hash (FIPS 204 Algorithms 4 and 5): "+preHashNames())
}

// resolved is the validated content of messageFlags.
type resolved struct {
	ps      *paramSet // nil: from the key's encoding
	opts    *mldsa.Options
	hashed  bool
	preHash mldsa.PreHash
}

func (m *messageFlags) resolve(keyFlag string) (*resolved, error) {
	if m.key == "" {
		return nil, usagef("-%s is required", keyFlag)
	}
	if m.in == "" {
		return nil, usagef("-in is required")
	}
	r := &resolved{}
	var err error
	if r.ps, err = parseParamsFlag(m.params); err != nil {
		return nil, err
	}
	ctx := m.context
	if m.contextHex != "" {
		if m.context != "" {
			return nil, usagef("give -context or -context-hex, not both")
		}
		b, err := hex.DecodeString(m.contextHex)
		if err != nil {
			return nil, usagef("-context-hex: %v", err)
		}
		ctx = string(b)
	}
	if len(ctx) > 255 {
		return nil, usagef("context is %d bytes; FIPS 204 allows at most 255", len(ctx))
	}
	r.opts = &mldsa.Options{Context: ctx}
	if m.prehash != "" {
		found := false
		for _, ph := range preHashes {
			if strings.EqualFold(ph.String(), m.prehash) {
				r.preHash, r.hashed, found = ph, true, true
			}
		}
		if !found {
			return nil, usagef("unknown -prehash %q (want one of %s)", m.prehash, preHashNames())
		}
	}
	return r, nil
}

func runSign(args []string, s *stdio) error {
	fs := newFlagSet(s, "sign", "-key key.pem -in msg [-out sig] [-context str | -context-hex hex] [-prehash name] [-deterministic] [-format raw|base64|hex] [-params p]", `
Signs a message with ML-DSA (FIPS 204 Algorithm 2), or with HashML-DSA
(Algorithm 4) when -prehash is given. Signing is hedged (fresh randomness
from crypto/rand) unless -deterministic is given.

The key is PKCS#8 (PEM or DER) holding the RFC 9881 seed, expanded key,
or both (which must agree); or, with -params, a raw 32-byte seed or raw
FIPS 204 expanded private key. The parameter set comes from the key's OID.`)
	var m messageFlags
	m.register(fs, "key", "private key file (required)")
	out := fs.String("out", "-", "signature file (replaced if it exists; - for standard output)")
	deterministic := fs.Bool("deterministic", false, "deterministic signing (no fresh randomness)")
	format := fs.String("format", "raw", "signature encoding: raw, base64 or hex")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := m.resolve("key")
	if err != nil {
		return err
	}
	switch *format {
	case "raw", "base64", "hex":
	default:
		return usagef("unknown -format %q (want raw, base64 or hex)", *format)
	}
	if err := atMostOneStdin(map[string]string{"-key": m.key, "-in": m.in}); err != nil {
		return err
	}

	keyData, err := readInput(s, m.key, "private key", maxSmallFile)
	if err != nil {
		return err
	}
	sk, err := parsePrivateKey(keyData, r.ps)
	if err != nil {
		return fmt.Errorf("private key %s: %w", m.key, err)
	}
	msg, err := readInput(s, m.in, "message", 0)
	if err != nil {
		return err
	}
	var sig []byte
	switch {
	case r.hashed && *deterministic:
		sig, err = sk.HashSignDeterministic(msg, r.preHash, r.opts)
	case r.hashed:
		sig, err = sk.HashSign(msg, r.preHash, r.opts)
	case *deterministic:
		sig, err = sk.SignDeterministic(msg, r.opts)
	default:
		sig, err = sk.Sign(rand.Reader, msg, r.opts)
	}
	if err != nil {
		return fmt.Errorf("signing: %w", err)
	}
	switch *format {
	case "base64":
		sig = []byte(base64.StdEncoding.EncodeToString(sig) + "\n")
	case "hex":
		sig = []byte(hex.EncodeToString(sig) + "\n")
	}
	return writeOutput(s, *out, sig, 0o644, true, "signature file")
}

func runVerify(args []string, s *stdio) error {
	fs := newFlagSet(s, "verify", "-pub pub.pem -in msg -sig sig [-context str | -context-hex hex] [-prehash name] [-format auto|raw|base64|hex] [-params p]", `
Verifies an ML-DSA signature (FIPS 204 Algorithm 3), or a HashML-DSA one
(Algorithm 5) when -prehash is given. Prints "OK" and exits 0 if the
signature is valid; prints "signature invalid" and exits 1 if not.

The public key is SubjectPublicKeyInfo (PEM or DER), whose OID gives the
parameter set, or, with -params, the raw public key.`)
	var m messageFlags
	m.register(fs, "pub", "public key file (required)")
	sigPath := fs.String("sig", "", "signature file (required)")
	format := fs.String("format", "auto", "signature encoding: auto (raw if the size fits, else hex or base64), raw, base64 or hex")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := m.resolve("pub")
	if err != nil {
		return err
	}
	if *sigPath == "" {
		return usagef("-sig is required")
	}
	switch *format {
	case "auto", "raw", "base64", "hex":
	default:
		return usagef("unknown -format %q (want auto, raw, base64 or hex)", *format)
	}
	if err := atMostOneStdin(map[string]string{"-pub": m.key, "-in": m.in, "-sig": *sigPath}); err != nil {
		return err
	}

	keyData, err := readInput(s, m.key, "public key", maxSmallFile)
	if err != nil {
		return err
	}
	pk, err := parsePublicKey(keyData, r.ps)
	if err != nil {
		return fmt.Errorf("public key %s: %w", m.key, err)
	}
	sigData, err := readInput(s, *sigPath, "signature", maxSmallFile)
	if err != nil {
		return err
	}
	sig, err := decodeSignature(sigData, *format, pk.Parameters().SignatureSize())
	if err != nil {
		return fmt.Errorf("signature %s: %w", *sigPath, err)
	}
	msg, err := readInput(s, m.in, "message", 0)
	if err != nil {
		return err
	}
	if len(sig) != pk.Parameters().SignatureSize() {
		return fmt.Errorf("%w: %d bytes, but %s signatures are %d bytes",
			errSignatureInvalid, len(sig), pk.Parameters(), pk.Parameters().SignatureSize())
	}
	if r.hashed {
		err = mldsa.HashVerify(pk, msg, sig, r.preHash, r.opts)
	} else {
		err = mldsa.Verify(pk, msg, sig, r.opts)
	}
	if err != nil {
		return errSignatureInvalid
	}
	_, err = fmt.Fprintln(s.out, "OK")
	return err
}

// atMostOneStdin checks that at most one of the named input flags is "-".
func atMostOneStdin(paths map[string]string) error {
	var names []string
	for name, p := range paths {
		if p == "-" {
			names = append(names, name)
		}
	}
	if len(names) > 1 {
		sort.Strings(names)
		return usagef("%s cannot all be standard input", strings.Join(names, " and "))
	}
	return nil
}

// decodeSignature undoes sign's -format. In auto mode a file of exactly
// size bytes is raw (hex and base64 encodings of it are longer); otherwise
// hex, then base64, is tried, and the first to give size bytes wins.
func decodeSignature(data []byte, format string, size int) ([]byte, error) {
	text := strings.TrimSpace(string(data))
	switch format {
	case "raw":
		return data, nil
	case "hex":
		b, err := hex.DecodeString(text)
		if err != nil {
			return nil, fmt.Errorf("not hexadecimal: %v", err)
		}
		return b, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return nil, fmt.Errorf("not base64: %v", err)
		}
		return b, nil
	}
	if len(data) == size {
		return data, nil
	}
	if b, err := hex.DecodeString(text); err == nil && len(b) == size {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(text); err == nil && len(b) == size {
		return b, nil
	}
	return data, nil
}
