package contract

import (
	"bytes"
	"errors"
	"math/rand/v2"
)

// The valgrind client request is no ML-DSA routine: the constant-time check
// (tools/checks/check_ct) builds its driver and go/mldsa with the tag
// valgrind; the driver marks the caller's secrets undefined through it, and
// go/mldsa the randomness it draws, and FIPS 204's public values defined.
func init() { lazily(valgrindContracts) }

func valgrindContracts() {
	register(&Contract{
		Symbol: "ValgrindClientRequestAMD64", Routine: "ValgrindClientRequest", Variant: "AMD64",
		Stem: "valgrind", Valgrind: true,
		GoSig: "func ValgrindClientRequestAMD64(args *[6]uint64)",
		Doc: []string{
			"ValgrindClientRequestAMD64 makes the valgrind client request that args holds",
			"(a request code and five arguments): valgrind.h's VALGRIND_DO_CLIENT_REQUEST",
			"for amd64 puts args in RAX and the default result (0) in RDX, then runs",
			"ROLQ $3, $13, $61 and $51 on RDI (128 bits in all: RDI is unchanged) and",
			"XCHGQ BX, BX, a sequence valgrind recognizes (BX is zeroed first). On the",
			"CPU it changes only RAX, RBX, RDX and the flags. It is built also with the",
			"purego tag, but only check_ct's builds (go/mldsa and its driver, with the",
			"tag valgrind) call it.",
		},
		// Functional: the request block is unchanged, proven from memory
		// safety (args is not writable, and a write to it would fail the
		// one run that covers every input). What valgrind does with the
		// request is outside the model.
		Level: provenExcept(), Budget: 10, Unchanged: true,
		// The routine neither reads nor writes the block: valgrind reads it.
		Args: []Arg{{Name: "args", Bytes: 48}},
		Pre:  "args points to 48 bytes: a request code and five arguments",
		Post: "memory is unchanged",
		Leak: "nothing: it handles no data",
		// Baseline x86-64 only.
		Features: nil, MaxFrame: 0, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"args": randBytes(r, 48)} },
		// A caller (Sign) gets nothing back.
		Effect: func(Buffers, *rand.Rand) (Buffers, byte) { return Buffers{}, 0 },
		Check: func(in, out Buffers, _ byte) error {
			if !bytes.Equal(in["args"], out["args"]) {
				return errors.New("the request block changed")
			}
			return nil
		},
	})
}
