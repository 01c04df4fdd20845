package vectors

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Flags each kind of Wycheproof file may carry. A flag outside these
// fails its case: a new flag may mean a new kind of check the runner
// does not make.
var (
	signFlags = []string{"ValidSignature", "InvalidContext", "ManySteps", "BoundaryCondition",
		"IncorrectPrivateKeyLength", "InvalidPrivateKey", "Internal", "Randomized"}
	verifyFlags = []string{"ValidSignature", "InvalidContext", "IncorrectSignatureLength",
		"ModifiedSignature", "InvalidHintsEncoding", "ManySteps", "BoundaryCondition",
		"IncorrectPublicKeyLength", "InvalidPrivateKey", "ZeroPublicKey",
		"InfinityNormViolation", "InvalidSignature", "MissingReduction"}
)

// runWycheproof runs one Wycheproof file, mldsa_{44,65,87}_{sign_seed,
// sign_noseed,verify}_test.json.
func runWycheproof(path, name string, impl Impl, fc *FileCount, c *caseRunner) error {
	var ps, kind string
	for _, kl := range []string{"44", "65", "87"} {
		for _, k := range []string{"sign_seed", "sign_noseed", "verify"} {
			if name == "mldsa_"+kl+"_"+k+"_test.json" {
				ps, kind = "ML-DSA-"+kl, k
			}
		}
	}
	if kind == "" {
		return layoutErr("file name %q", name)
	}
	o, err := readObject(path)
	if err != nil {
		return err
	}
	if err := o.only("algorithm", "header", "notes", "numberOfTests", "schema", "testGroups"); err != nil {
		return layoutErr("%v", err)
	}
	alg, _ := o.str("algorithm")
	schema, _ := o.str("schema")
	if alg != ps || schema != "mldsa_"+kind+"_schema.json" {
		return layoutErr("algorithm %q, schema %q in %s", alg, schema, name)
	}
	if fc.Declared, err = o.integer("numberOfTests"); err != nil {
		return err
	}
	groups, err := o.objects("testGroups")
	if err != nil {
		return err
	}
	ids := map[int]bool{}
	for gi, g := range groups {
		tests, err := g.objects("tests")
		if err != nil {
			return err
		}
		c.startGroup(fc, wycheproofGroupName(gi))
		var setup groupSetup
		switch kind {
		case "sign_seed":
			setup = seedGroup(impl, ps, g)
		case "sign_noseed":
			setup = noseedGroup(g)
		default:
			setup = verifyGroup(g)
		}
		for _, tc := range tests {
			id, _ := tc.integer("tcId")
			if ids[id] {
				return layoutErr("tcId %d repeated", id)
			}
			ids[id] = true
			c.run(fc, id, func() error {
				if setup.err != nil {
					return setup.err
				}
				if kind == "verify" {
					return wycheproofVerify(impl, ps, setup, tc)
				}
				return wycheproofSign(impl, ps, setup, tc)
			})
		}
	}
	if len(ids) != fc.Declared {
		return fmt.Errorf("%d distinct tcIds, numberOfTests %d", len(ids), fc.Declared)
	}
	return nil
}

func wycheproofGroupName(i int) string { return fmt.Sprintf("group %d", i+1) }

// groupSetup is what a group gives its tests.
type groupSetup struct {
	err       error  // a layout error or a key generation result that fails every test
	keyGenErr error  // sign_seed: KeyGen rejected the seed (right for invalid tests only)
	sk, pk    []byte // expanded private key, public key
}

func groupType(g object, want string) error {
	if typ, _ := g.str("type"); typ != want {
		return layoutErr("group type %q, want %q", typ, want)
	}
	return nil
}

// seedGroup runs KeyGen on the group's privateSeed: its public key must
// equal publicKey. KeyGen may reject a seed of the wrong length; only the
// group's invalid tests accept that.
func seedGroup(impl Impl, ps string, g object) groupSetup {
	if err := g.only("type", "privateSeed", "privateKeyPkcs8", "publicKey", "source", "tests"); err != nil {
		return groupSetup{err: layoutErr("%v", err)}
	}
	if err := groupType(g, "MlDsaSign"); err != nil {
		return groupSetup{err: err}
	}
	seed, err := g.hex("privateSeed")
	if err != nil {
		return groupSetup{err: err}
	}
	wantPK, err := g.hex("publicKey")
	if err != nil {
		return groupSetup{err: err}
	}
	pk, sk, err := impl.KeyGen(ps, seed)
	if err != nil {
		return groupSetup{keyGenErr: fmt.Errorf("KeyGen rejected the %d-byte seed: %v", len(seed), err)}
	}
	if err := wantEqual("KeyGen public key", pk, wantPK); err != nil {
		return groupSetup{err: err}
	}
	return groupSetup{sk: sk, pk: pk}
}

func noseedGroup(g object) groupSetup {
	if err := g.only("type", "privateKey", "publicKey", "source", "tests"); err != nil {
		return groupSetup{err: layoutErr("%v", err)}
	}
	if err := groupType(g, "MlDsaSign"); err != nil {
		return groupSetup{err: err}
	}
	sk, err := g.hex("privateKey")
	if err != nil {
		return groupSetup{err: err}
	}
	pk, err := g.hex("publicKey")
	if err != nil {
		return groupSetup{err: err}
	}
	return groupSetup{sk: sk, pk: pk}
}

func verifyGroup(g object) groupSetup {
	if err := g.only("type", "publicKey", "publicKeyDer", "source", "tests"); err != nil {
		return groupSetup{err: layoutErr("%v", err)}
	}
	if err := groupType(g, "MlDsaVerify"); err != nil {
		return groupSetup{err: err}
	}
	pk, err := g.hex("publicKey")
	if err != nil {
		return groupSetup{err: err}
	}
	return groupSetup{pk: pk}
}

// testResult reads result and flags: valid reports whether the test is
// "valid" ("invalid" otherwise; anything else is an unknown layout).
func testResult(tc object, known []string) (valid bool, err error) {
	flags, err := tc.strings("flags")
	if err != nil {
		return false, layoutErr("%v", err)
	}
	for _, f := range flags {
		if !slices.Contains(known, f) {
			return false, layoutErr("flag %q", f)
		}
	}
	result, err := tc.str("result")
	if err != nil {
		return false, layoutErr("%v", err)
	}
	switch result {
	case "valid":
		return true, nil
	case "invalid":
		return false, nil
	}
	return false, layoutErr("result %q", result)
}

// wycheproofSign signs each message form the test gives: (msg, ctx) as
// ML-DSA.Sign and mu as external μ. A valid test must give sig exactly for
// every form, and the signature must verify under the group's public key;
// an invalid test must be rejected in every form (or by KeyGen).
func wycheproofSign(impl Impl, ps string, setup groupSetup, tc object) error {
	if err := tc.only("tcId", "comment", "flags", "msg", "ctx", "mu", "rnd", "sig", "result"); err != nil {
		return layoutErr("%v", err)
	}
	valid, err := testResult(tc, signFlags)
	if err != nil {
		return err
	}
	var forms []Message
	if tc.has("msg") {
		m := Message{Kind: Pure}
		if m.Msg, err = tc.hex("msg"); err != nil {
			return err
		}
		if m.Context, err = tc.optHex("ctx"); err != nil {
			return err
		}
		forms = append(forms, m)
	}
	if tc.has("mu") {
		m := Message{Kind: ExternalMu}
		if m.Mu, err = tc.hex("mu"); err != nil {
			return err
		}
		forms = append(forms, m)
	}
	if len(forms) == 0 {
		return layoutErr("test has neither msg nor mu")
	}
	rnd, err := tc.optHex("rnd")
	if err != nil {
		return err
	}
	want, err := tc.hex("sig")
	if err != nil {
		return err
	}
	if setup.keyGenErr != nil {
		if valid {
			return setup.keyGenErr
		}
		return nil
	}
	var errs []string
	for _, m := range forms {
		name := kindName(m.Kind)
		sig, err := impl.Sign(ps, setup.sk, m, rnd)
		if !valid {
			if err == nil {
				errs = append(errs, name+": Sign accepted an invalid case")
			}
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: Sign: %v", name, err))
			continue
		}
		if err := wantEqual(name+" signature", sig, want); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if err := impl.Verify(ps, setup.pk, m, sig); err != nil {
			errs = append(errs, fmt.Sprintf("%s: Verify rejected the signature: %v", name, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

func wycheproofVerify(impl Impl, ps string, setup groupSetup, tc object) error {
	if err := tc.only("tcId", "comment", "flags", "msg", "ctx", "sig", "result"); err != nil {
		return layoutErr("%v", err)
	}
	valid, err := testResult(tc, verifyFlags)
	if err != nil {
		return err
	}
	m := Message{Kind: Pure}
	if m.Msg, err = tc.hex("msg"); err != nil {
		return err
	}
	if m.Context, err = tc.optHex("ctx"); err != nil {
		return err
	}
	sig, err := tc.hex("sig")
	if err != nil {
		return err
	}
	err = impl.Verify(ps, setup.pk, m, sig)
	switch {
	case valid && err != nil:
		return fmt.Errorf("verification rejected a valid signature: %v", err)
	case !valid && err == nil:
		return errors.New("verification accepted an invalid case")
	}
	return nil
}

func kindName(k Kind) string {
	switch k {
	case Pure:
		return "pure"
	case PreHash:
		return "preHash"
	case Internal:
		return "internal"
	case ExternalMu:
		return "externalMu"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
