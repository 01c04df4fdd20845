package main

import (
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/vg-crypto/vg/go/mldsa"
)

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
	fs.StringVar(&m.prehash, "prehash", "", "HashML-DSA with this pre-hash (FIPS 204 Algorithms 4 and 5): "+preHashNames()+" (SHA-256, sha256 and the like too)")
}

// resolved is the validated content of messageFlags.
type resolved struct {
	ps      *paramSet // nil: from the key's encoding
	context string
	preHash *preHashInfo // nil: ML-DSA, not HashML-DSA
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
	r.context = ctx
	if m.prehash != "" {
		if r.preHash, err = preHashByName(m.prehash); err != nil {
			return nil, usagef("-prehash: %v", err)
		}
	}
	return r, nil
}

func runSign(args []string, s *stdio) error {
	fs := newFlagSet(s, "sign", "-key key.pem -in msg [-out sig [-force]] [-context str | -context-hex hex] [-prehash name] [-deterministic] [-format raw|base64|hex] [-params p]", `
Signs a message with ML-DSA (FIPS 204 Algorithm 2), or with HashML-DSA
(Algorithm 4) when -prehash is given. A pre-hash must have at least the
collision strength of the parameter set (FIPS 204, section 5.4): any but
the 224-bit ones for ML-DSA-44; SHA2-384, SHA2-512, SHA3-384, SHA3-512
or SHAKE-256 for ML-DSA-65; SHA2-512, SHA3-512 or SHAKE-256 for
ML-DSA-87 (verify accepts every pre-hash). Signing is hedged (fresh
randomness from crypto/rand) unless -deterministic is given. The message is read
once, as a stream (μ, or the pre-hash, is computed as it arrives), so
its size does not matter.

The key is PKCS#8 (PEM or DER) holding the RFC 9881 seed, expanded key,
or both (which must agree); or, with -params, a raw 32-byte seed or raw
FIPS 204 expanded private key. The parameter set comes from the key's OID.

-out is written to a temporary file in the same directory and renamed
into place. An existing file is not replaced without -force, and the key
file or the message file never is, even with -force.`)
	var m messageFlags
	m.register(fs, "key", "private key file (required)")
	out := fs.String("out", "-", "signature file (- for standard output)")
	force := fs.Bool("force", false, "replace an existing -out file (never the key or the message)")
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
	if *out == "" {
		return usagef("-out is empty (give a file, or - for standard output)")
	}
	if err := atMostOneStdin(map[string]string{"-key": m.key, "-in": m.in}); err != nil {
		return err
	}
	if err := checkOutput(s, *out, "signature file", *force, map[string]string{"-key": m.key, "-in": m.in}); err != nil {
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
	// The library's HashSign policy (FIPS 204, §5.4), checked before the
	// message is read.
	if r.preHash != nil {
		if err := r.preHash.ph.CheckStrength(sk.PublicKey().Parameters()); err != nil {
			return fmt.Errorf("-prehash: %v", cliError(err))
		}
	}
	in, closeIn, err := openInput(s, m.in, "message")
	if err != nil {
		return err
	}
	μ, err := messageMu(in, sk.PublicKey(), r.context, r.preHash)
	closeIn()
	if err != nil {
		return fmt.Errorf("reading message %s: %w", m.in, err)
	}
	var sig []byte
	if *deterministic {
		sig, err = sk.SignMuDeterministic(μ[:])
	} else {
		sig, err = sk.SignMu(μ[:])
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
	return writeOutput(s, *out, sig, 0o644, *force, "signature file")
}

func runVerify(args []string, s *stdio) error {
	fs := newFlagSet(s, "verify", "-pub pub.pem -in msg -sig sig [-context str | -context-hex hex] [-prehash name] [-format auto|raw|base64|hex] [-params p]", `
Verifies an ML-DSA signature (FIPS 204 Algorithm 3), or a HashML-DSA one
(Algorithm 5) when -prehash is given. Prints "OK" and exits 0 if the
signature is valid; prints "signature invalid" and exits 1 if not. The
message is read once, as a stream.

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
	if len(sig) != pk.Parameters().SignatureSize() {
		return fmt.Errorf("%w: %s", errSignatureInvalid, signatureSizeProblem(len(sig), pk.Parameters()))
	}
	in, closeIn, err := openInput(s, m.in, "message")
	if err != nil {
		return err
	}
	μ, err := messageMu(in, pk, r.context, r.preHash)
	closeIn()
	if err != nil {
		return fmt.Errorf("reading message %s: %w", m.in, err)
	}
	if mldsa.VerifyMu(pk, μ[:], sig) != nil {
		return errSignatureInvalid
	}
	_, err = fmt.Fprintln(s.out, "OK")
	return err
}

// signatureSizeProblem says why a signature of n bytes cannot be one of
// params, naming the parameter set whose signatures have that size.
func signatureSizeProblem(n int, params mldsa.Parameters) string {
	msg := fmt.Sprintf("%d bytes, but %s signatures are %d bytes", n, params, params.SignatureSize())
	for _, ps := range paramSets {
		if ps.params != params && ps.params.SignatureSize() == n {
			msg += fmt.Sprintf(" (%d bytes is the size of %s signatures: was it made with another key?)", n, ps.name)
		}
	}
	return msg
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
