package main

import (
	"os"
	"path/filepath"

	"github.com/vg-crypto/vg/go/mldsa"
)

func runKeygen(args []string, s *stdio) error {
	fs := newFlagSet(s, "keygen", "-params ML-DSA-44|65|87 -out key.pem [-pub pub.pem] [-format pem|der|raw] [-sk-form seed|expanded|both] [-force]", `
Generates an ML-DSA key pair from a fresh random seed (crypto/rand).

The private key is written as PKCS#8 with the RFC 9881 private key
(by default the 32-byte seed form), with mode 0600; the public key as
SubjectPublicKeyInfo. -format raw writes the 32-byte seed (or, with
-sk-form expanded, the FIPS 204 expanded key) and the raw public key.
Existing files are not replaced unless -force is given.`)
	paramsName := fs.String("params", "", "parameter set: ML-DSA-44, ML-DSA-65 or ML-DSA-87 (required)")
	out := fs.String("out", "", "private key file (required; - for standard output)")
	pub := fs.String("pub", "", "public key file (optional; - for standard output)")
	format := fs.String("format", "pem", "encoding of both files: pem, der or raw")
	skForm := fs.String("sk-form", "seed", "private key form: seed, expanded or both (RFC 9881 CHOICE; raw: seed or expanded)")
	force := fs.Bool("force", false, "replace existing files")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *paramsName == "" {
		return usagef("-params is required")
	}
	ps, err := paramSetByName(*paramsName)
	if err != nil {
		return usagef("%v", err)
	}
	if *out == "" {
		return usagef("-out is required")
	}
	if *pub != "" && *pub != "-" && filepath.Clean(*pub) == filepath.Clean(*out) {
		return usagef("-out and -pub name the same file")
	}
	if *pub == "-" && *out == "-" {
		return usagef("-out and -pub cannot both be standard output")
	}
	form, err := parsePrivateKeyForm(*skForm)
	if err != nil {
		return usagef("%v", err)
	}
	switch *format {
	case "pem", "der":
	case "raw":
		if form == formBoth {
			return usagef("-format raw has no form with both seed and expanded key")
		}
	default:
		return usagef("unknown -format %q (want pem, der or raw)", *format)
	}

	// Refuse existing files (and -out and -pub naming one file) before
	// generating anything.
	if err := checkOutput(s, *out, "private key file", *force, nil); err != nil {
		return err
	}
	if *pub != "" {
		if err := checkOutput(s, *pub, "public key file", *force, map[string]string{"-out": *out}); err != nil {
			return err
		}
	}

	sk, err := mldsa.GenerateKey(ps.params)
	if err != nil {
		return err
	}
	skBytes, pkBytes, err := encodeKeyPair(sk, *format, form)
	if err != nil {
		return err
	}
	// Both files are written to temporary files first and then moved into
	// place together: keygen writes both or neither.
	var staged []*pendingFile
	for _, f := range []struct {
		path string
		data []byte
		perm os.FileMode
		what string
	}{{*out, skBytes, 0o600, "private key file"}, {*pub, pkBytes, 0o644, "public key file"}} {
		if f.path == "" || f.path == "-" {
			continue
		}
		p, err := stageFile(f.path, f.data, f.perm, *force, f.what)
		if err != nil {
			discard(staged)
			return err
		}
		staged = append(staged, p)
	}
	if err := commitFiles(staged); err != nil {
		return err
	}
	if *out == "-" {
		if _, err := s.out.Write(skBytes); err != nil {
			return err
		}
	}
	if *pub == "-" {
		if _, err := s.out.Write(pkBytes); err != nil {
			return err
		}
	}
	return nil
}

// encodeKeyPair encodes sk and its public key in the given file format.
func encodeKeyPair(sk *mldsa.PrivateKey, format string, form privateKeyForm) (skBytes, pkBytes []byte, err error) {
	if format == "raw" {
		if form == formExpanded {
			return sk.ExpandedBytes(), sk.PublicKey().Bytes(), nil
		}
		return sk.Bytes(), sk.PublicKey().Bytes(), nil
	}
	skDER, err := marshalPKCS8(sk, form)
	if err != nil {
		return nil, nil, err
	}
	pkDER, err := marshalSPKI(sk.PublicKey())
	if err != nil {
		return nil, nil, err
	}
	if format == "der" {
		return skDER, pkDER, nil
	}
	return encodePEM(skDER, pemPrivateKey), encodePEM(pkDER, pemPublicKey), nil
}

// parseParamsFlag returns nil for an empty -params flag.
func parseParamsFlag(name string) (*paramSet, error) {
	if name == "" {
		return nil, nil
	}
	ps, err := paramSetByName(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return ps, nil
}
