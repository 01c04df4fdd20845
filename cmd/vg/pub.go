package main

import "fmt"

// runPub derives the public key file from a private key file.
func runPub(args []string, s *stdio) error {
	fs := newFlagSet(s, "pub", "-key key.pem [-out pub.pem [-force]] [-format pem|der|raw] [-params p]", `
Writes the public key of a private key: the file keygen -pub would have
written. The private key is read as sign reads it: PKCS#8 (PEM or DER)
in any RFC 9881 form (seed, expanded key, or both, which must agree), or,
with -params, a raw 32-byte seed or raw FIPS 204 expanded private key.
The public key is SubjectPublicKeyInfo, as PEM or DER, or the raw
FIPS 204 public key.

-out is written to a temporary file in the same directory and renamed
into place. An existing file is not replaced without -force, and the key
file never is, even with -force.`)
	key := fs.String("key", "", "private key file (required; - for standard input)")
	out := fs.String("out", "-", "public key file (- for standard output)")
	format := fs.String("format", "pem", "encoding of the public key: pem, der or raw")
	params := fs.String("params", "", "parameter set of a raw key: ML-DSA-44, ML-DSA-65 or ML-DSA-87 (checked against the OID otherwise)")
	force := fs.Bool("force", false, "replace an existing -out file (never the key)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *key == "" {
		return usagef("-key is required")
	}
	if *out == "" {
		return usagef("-out is empty (give a file, or - for standard output)")
	}
	switch *format {
	case "pem", "der", "raw":
	default:
		return usagef("unknown -format %q (want pem, der or raw)", *format)
	}
	ps, err := parseParamsFlag(*params)
	if err != nil {
		return err
	}
	if err := checkOutput(s, *out, "public key file", *force, map[string]string{"-key": *key}); err != nil {
		return err
	}
	data, err := readInput(s, *key, "private key", maxSmallFile)
	if err != nil {
		return err
	}
	sk, err := parsePrivateKey(data, ps)
	if err != nil {
		return fmt.Errorf("private key %s: %w", *key, err)
	}
	pk := sk.PublicKey()
	var enc []byte
	switch *format {
	case "raw":
		enc = pk.Bytes()
	default:
		if enc, err = marshalSPKI(pk); err != nil {
			return err
		}
		if *format == "pem" {
			enc = encodePEM(enc, pemPublicKey)
		}
	}
	return writeOutput(s, *out, enc, 0o644, *force, "public key file")
}
