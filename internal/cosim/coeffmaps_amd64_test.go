//go:build !purego

package cosim

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/go/asm"
)

// The coefficient maps and norm checks on the CPU, for TestRoutineBytes.
func init() {
	add := func(sym string, f func(b contract.Buffers)) {
		onCPU[sym] = func(b contract.Buffers) byte {
			f(b)
			return 0
		}
	}
	word := func(b []byte) *uint32 { return (*uint32)(unsafe.Pointer(&b[0])) }
	add("Power2RoundPolyAVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.Power2RoundPolyAVX2(p256(b["t1"]), p256(b["t0"]), p256(b["t"]))
		}
	})
	add("Power2RoundPolyAMD64", func(b contract.Buffers) {
		asm.Power2RoundPolyAMD64(p256(b["t1"]), p256(b["t0"]), p256(b["t"]))
	})
	add("NormExceedsAVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.NormExceedsAVX2(p256(b["w"]), word(b["bound"]), word(b["exceeds"]))
		}
	})
	add("NormExceedsAMD64", func(b contract.Buffers) {
		asm.NormExceedsAMD64(p256(b["w"]), word(b["bound"]), word(b["exceeds"]))
	})
	add("HighBits32AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.HighBits32AVX2(p256(b["w1"]), p256(b["w"]))
		}
	})
	add("HighBits88AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.HighBits88AVX2(p256(b["w1"]), p256(b["w"]))
		}
	})
	add("HighBits32AMD64", func(b contract.Buffers) { asm.HighBits32AMD64(p256(b["w1"]), p256(b["w"])) })
	add("HighBits88AMD64", func(b contract.Buffers) { asm.HighBits88AMD64(p256(b["w1"]), p256(b["w"])) })
	add("LowBitsExceed32AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.LowBitsExceed32AVX2(p256(b["w"]), word(b["bound"]), word(b["exceeds"]))
		}
	})
	add("LowBitsExceed88AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.LowBitsExceed88AVX2(p256(b["w"]), word(b["bound"]), word(b["exceeds"]))
		}
	})
	add("LowBitsExceed32AMD64", func(b contract.Buffers) {
		asm.LowBitsExceed32AMD64(p256(b["w"]), word(b["bound"]), word(b["exceeds"]))
	})
	add("LowBitsExceed88AMD64", func(b contract.Buffers) {
		asm.LowBitsExceed88AMD64(p256(b["w"]), word(b["bound"]), word(b["exceeds"]))
	})
	add("MakeHint32AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.MakeHint32AVX2(p256(b["h"]), p256(b["z"]), p256(b["r"]), word(b["count"]))
		}
	})
	add("MakeHint88AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.MakeHint88AVX2(p256(b["h"]), p256(b["z"]), p256(b["r"]), word(b["count"]))
		}
	})
	add("MakeHint32AMD64", func(b contract.Buffers) {
		asm.MakeHint32AMD64(p256(b["h"]), p256(b["z"]), p256(b["r"]), word(b["count"]))
	})
	add("MakeHint88AMD64", func(b contract.Buffers) {
		asm.MakeHint88AMD64(p256(b["h"]), p256(b["z"]), p256(b["r"]), word(b["count"]))
	})
	add("UseHint32AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.UseHint32AVX2(p256(b["w1"]), p256(b["h"]), p256(b["r"]))
		}
	})
	add("UseHint88AVX2", func(b contract.Buffers) {
		if cpu.X86.HasAVX2 {
			asm.UseHint88AVX2(p256(b["w1"]), p256(b["h"]), p256(b["r"]))
		}
	})
	add("UseHint32AMD64", func(b contract.Buffers) { asm.UseHint32AMD64(p256(b["w1"]), p256(b["h"]), p256(b["r"])) })
	add("UseHint88AMD64", func(b contract.Buffers) { asm.UseHint88AMD64(p256(b["w1"]), p256(b["h"]), p256(b["r"])) })
}
