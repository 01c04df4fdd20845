package vectors

import (
	"errors"
	"fmt"
	"path/filepath"
)

// acvpFile reads prompt.json and expectedResults.json of one ACVP mode
// and checks their headers.
func acvpFile(dir, mode, name string) ([]object, error) {
	o, err := readObject(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	if err := o.only("vsId", "algorithm", "mode", "revision", "isSample", "testGroups"); err != nil {
		return nil, layoutErr("%s: %v", name, err)
	}
	alg, _ := o.str("algorithm")
	m, _ := o.str("mode")
	rev, _ := o.str("revision")
	if alg != "ML-DSA" || "ML-DSA-"+m+"-FIPS204" != mode || rev != "FIPS204" {
		return nil, layoutErr("%s: algorithm %q, mode %q, revision %q", name, alg, m, rev)
	}
	return o.objects("testGroups")
}

// runACVP runs one ACVP mode: it pairs each prompt test with its expected
// result by tgId and tcId.
func runACVP(dir, mode string, impl Impl, fc *FileCount, c *caseRunner) error {
	prompts, err := acvpFile(dir, mode, "prompt.json")
	if err != nil {
		return err
	}
	results, err := acvpFile(dir, mode, "expectedResults.json")
	if err != nil {
		return err
	}
	// expected[tgId][tcId] is the expected result object.
	expected := map[int]map[int]object{}
	nExpected := 0
	for _, g := range results {
		tg, err := g.integer("tgId")
		if err != nil {
			return err
		}
		tests, err := g.objects("tests")
		if err != nil {
			return err
		}
		expected[tg] = map[int]object{}
		for _, tc := range tests {
			id, err := tc.integer("tcId")
			if err != nil {
				return err
			}
			if _, dup := expected[tg][id]; dup {
				return layoutErr("expectedResults.json: tgId %d, tcId %d repeated", tg, id)
			}
			expected[tg][id] = tc
			nExpected++
		}
	}
	ids := map[int]bool{}
	for _, g := range prompts {
		tests, err := g.objects("tests")
		if err != nil {
			return err
		}
		fc.Declared += len(tests)
		tg, _ := g.integer("tgId")
		ps, _ := g.str("parameterSet")
		_, setup := acvpGroup(mode, g)
		c.startGroup(fc, acvpGroupName(mode, g))
		for _, tc := range tests {
			id, _ := tc.integer("tcId")
			if ids[id] {
				return layoutErr("prompt.json: tcId %d repeated", id)
			}
			ids[id] = true
			c.run(fc, id, func() error {
				if setup != nil {
					return setup
				}
				want, ok := expected[tg][id]
				if !ok {
					return fmt.Errorf("no expected result for tgId %d, tcId %d", tg, id)
				}
				switch mode {
				case "ML-DSA-keyGen-FIPS204":
					return acvpKeyGen(impl, ps, tc, want)
				case "ML-DSA-sigGen-FIPS204":
					return acvpSigGen(impl, ps, g, tc, want)
				default:
					return acvpSigVer(impl, ps, g, tc, want)
				}
			})
		}
	}
	if nExpected != fc.Declared {
		return fmt.Errorf("expectedResults.json holds %d results for %d prompts", nExpected, fc.Declared)
	}
	return nil
}

// acvpGroupName names a group in counts and messages.
func acvpGroupName(mode string, g object) string {
	tg, _ := g.integer("tgId")
	ps, _ := g.str("parameterSet")
	kind, _ := acvpGroup(mode, g)
	return fmt.Sprintf("tgId %d (%s%s)", tg, ps, kind)
}

// acvpGroup checks a group's fields and names its kind; a group layout the
// runner does not know fails every case of the group.
func acvpGroup(mode string, g object) (string, error) {
	common := []string{"tgId", "testType", "parameterSet", "tests"}
	if tt, _ := g.str("testType"); tt != "AFT" {
		return "", layoutErr("testType %q", tt)
	}
	switch mode {
	case "ML-DSA-keyGen-FIPS204":
		if err := g.only(common...); err != nil {
			return "", layoutErr("%v", err)
		}
		return "", nil
	case "ML-DSA-sigGen-FIPS204":
		if err := g.only(append(common, "deterministic", "signatureInterface", "preHash", "externalMu")...); err != nil {
			return "", layoutErr("%v", err)
		}
		det, err := g.boolean("deterministic")
		if err != nil {
			return "", layoutErr("%v", err)
		}
		kind, err := acvpKind(g)
		if det {
			return ", " + kind + ", deterministic", err
		}
		return ", " + kind + ", hedged", err
	default:
		if err := g.only(append(common, "signatureInterface", "preHash", "externalMu")...); err != nil {
			return "", layoutErr("%v", err)
		}
		kind, err := acvpKind(g)
		return ", " + kind, err
	}
}

// acvpKind maps signatureInterface, preHash and externalMu to a Kind name.
func acvpKind(g object) (string, error) {
	iface, err := g.str("signatureInterface")
	if err != nil {
		return "", layoutErr("%v", err)
	}
	switch iface {
	case "external":
		if g.has("externalMu") {
			return "", layoutErr("externalMu in an external group")
		}
		ph, err := g.str("preHash")
		if err != nil {
			return "", layoutErr("%v", err)
		}
		if ph != "pure" && ph != "preHash" {
			return "", layoutErr("preHash %q", ph)
		}
		return "external " + ph, nil
	case "internal":
		if g.has("preHash") {
			return "", layoutErr("preHash in an internal group")
		}
		mu, err := g.boolean("externalMu")
		if err != nil {
			return "", layoutErr("%v", err)
		}
		if mu {
			return "internal externalMu", nil
		}
		return "internal", nil
	}
	return "", layoutErr("signatureInterface %q", iface)
}

func acvpKeyGen(impl Impl, ps string, tc, want object) error {
	if err := tc.only("tcId", "seed"); err != nil {
		return layoutErr("%v", err)
	}
	if err := want.only("tcId", "pk", "sk"); err != nil {
		return layoutErr("%v", err)
	}
	seed, err := tc.hex("seed")
	if err != nil {
		return err
	}
	wantPK, err := want.hex("pk")
	if err != nil {
		return err
	}
	wantSK, err := want.hex("sk")
	if err != nil {
		return err
	}
	pk, sk, err := impl.KeyGen(ps, seed)
	if err != nil {
		return fmt.Errorf("KeyGen: %v", err)
	}
	if err := wantEqual("pk", pk, wantPK); err != nil {
		return err
	}
	return wantEqual("sk", sk, wantSK)
}

// acvpMessage builds the Message of a sigGen or sigVer test from its group.
func acvpMessage(g, tc object) (Message, error) {
	kind, err := acvpKind(g)
	if err != nil {
		return Message{}, err
	}
	var m Message
	switch kind {
	case "external pure", "external preHash":
		m.Kind = Pure
		if m.Msg, err = tc.hex("message"); err != nil {
			return m, err
		}
		if m.Context, err = tc.hex("context"); err != nil {
			return m, err
		}
		if kind == "external preHash" {
			m.Kind = PreHash
			if m.HashAlg, err = tc.str("hashAlg"); err != nil {
				return m, err
			}
		} else if tc.has("hashAlg") {
			return m, layoutErr("hashAlg in a pure group")
		}
	case "internal":
		m.Kind = Internal
		if tc.has("context") || tc.has("mu") {
			return m, layoutErr("context or mu in an internal group")
		}
		if m.Msg, err = tc.hex("message"); err != nil {
			return m, err
		}
	case "internal externalMu":
		m.Kind = ExternalMu
		if tc.has("context") || tc.has("message") {
			return m, layoutErr("context or message in an externalMu group")
		}
		if m.Mu, err = tc.hex("mu"); err != nil {
			return m, err
		}
	}
	return m, nil
}

func acvpSigGen(impl Impl, ps string, g, tc, want object) error {
	if err := tc.only("tcId", "message", "mu", "sk", "context", "hashAlg", "rnd"); err != nil {
		return layoutErr("%v", err)
	}
	if err := want.only("tcId", "signature"); err != nil {
		return layoutErr("%v", err)
	}
	m, err := acvpMessage(g, tc)
	if err != nil {
		return err
	}
	sk, err := tc.hex("sk")
	if err != nil {
		return err
	}
	det, _ := g.boolean("deterministic")
	var rnd []byte
	if det {
		if tc.has("rnd") {
			return layoutErr("rnd in a deterministic group")
		}
	} else if rnd, err = tc.hex("rnd"); err != nil {
		return err
	}
	wantSig, err := want.hex("signature")
	if err != nil {
		return err
	}
	sig, err := impl.Sign(ps, sk, m, rnd)
	if err != nil {
		return fmt.Errorf("signing failed: %v", err)
	}
	return wantEqual("signature", sig, wantSig)
}

func acvpSigVer(impl Impl, ps string, g, tc, want object) error {
	if err := tc.only("tcId", "pk", "message", "mu", "context", "hashAlg", "signature"); err != nil {
		return layoutErr("%v", err)
	}
	if err := want.only("tcId", "testPassed"); err != nil {
		return layoutErr("%v", err)
	}
	m, err := acvpMessage(g, tc)
	if err != nil {
		return err
	}
	pk, err := tc.hex("pk")
	if err != nil {
		return err
	}
	sig, err := tc.hex("signature")
	if err != nil {
		return err
	}
	passed, err := want.boolean("testPassed")
	if err != nil {
		return err
	}
	err = impl.Verify(ps, pk, m, sig)
	switch {
	case passed && err != nil:
		return fmt.Errorf("verification rejected a valid signature: %v", err)
	case !passed && err == nil:
		return errors.New("verification accepted an invalid signature")
	}
	return nil
}

// KeyGenGroup is one test group of the ACVP keyGen vectors: its parameter
// set and the expected public keys, in file order.
type KeyGenGroup struct {
	ParameterSet string
	PublicKeys   [][]byte
}

// KeyGenPublicKeys reads acvp/ML-DSA-keyGen-FIPS204 under dir (as Locate
// gives it) and returns its groups in the order of expectedResults.json,
// each with the parameter set its prompt names.
func KeyGenPublicKeys(dir string) ([]KeyGenGroup, error) {
	const mode = "ML-DSA-keyGen-FIPS204"
	modeDir := filepath.Join(dir, "acvp", mode)
	prompts, err := acvpFile(modeDir, mode, "prompt.json")
	if err != nil {
		return nil, err
	}
	results, err := acvpFile(modeDir, mode, "expectedResults.json")
	if err != nil {
		return nil, err
	}
	set := map[int]string{}
	for _, g := range prompts {
		tg, err := g.integer("tgId")
		if err != nil {
			return nil, err
		}
		if set[tg], err = g.str("parameterSet"); err != nil {
			return nil, err
		}
	}
	var out []KeyGenGroup
	for _, g := range results {
		tg, err := g.integer("tgId")
		if err != nil {
			return nil, err
		}
		tests, err := g.objects("tests")
		if err != nil {
			return nil, err
		}
		kg := KeyGenGroup{ParameterSet: set[tg]}
		for _, tc := range tests {
			pk, err := tc.hex("pk")
			if err != nil {
				return nil, fmt.Errorf("expectedResults.json: tgId %d: %v", tg, err)
			}
			kg.PublicKeys = append(kg.PublicKeys, pk)
		}
		out = append(out, kg)
	}
	return out, nil
}
