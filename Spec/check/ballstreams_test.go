package check

import (
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// ballRead is one byte Algorithm 29's loop reads (lines 7 and 9): its
// stream offset, the iteration i, and whether line 8 accepts it.
type ballRead struct {
	at, i    int
	b        byte
	accepted bool
}

// ballReads runs Algorithm 29's reading on stream: the bytes its loop
// reads, and whether it finishes within the stream.
func ballReads(τ int, stream []byte) ([]ballRead, bool) {
	var rs []ballRead
	at := 8
	for i := 256 - τ; i < 256; i++ {
		for {
			if at >= len(stream) {
				return rs, false
			}
			b := stream[at]
			rs = append(rs, ballRead{at, i, b, int(b) <= i})
			at++
			if int(b) <= i {
				break
			}
		}
	}
	return rs, true
}

// Each stream scenario of ballstreams.go makes the streams its name says,
// for every τ, and its twin rejects the same bytes.
func TestBallScenarioStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const blocks = contract.SampleInBallBlocks
	n := blocks * fips202.Rate256
	for _, p := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87} {
		τ := p.Tau
		for _, sc := range ballScenarios(blocks) {
			for rep := 0; rep < 3; rep++ {
				stream, twin := ballStream(rng, sc, τ, blocks)
				if len(stream) != n || len(twin) != n {
					t.Fatalf("%s: streams of %d and %d bytes, want %d", sc.name, len(stream), len(twin), n)
				}
				rs, done := ballReads(τ, stream)
				trs, tdone := ballReads(τ, twin)
				if done != tdone || len(rs) != len(trs) {
					t.Fatalf("τ = %d, %s: the twin reads %d bytes (done %v), the stream %d (%v)", τ, sc.name, len(trs), tdone, len(rs), done)
				}
				for k := range rs {
					if rs[k].accepted != trs[k].accepted {
						t.Fatalf("τ = %d, %s: byte %d accepted %v, in the twin %v", τ, sc.name, rs[k].at, rs[k].accepted, trs[k].accepted)
					}
				}
				rejected, lastAt := 0, 0
				for _, r := range rs {
					if !r.accepted {
						rejected++
					} else {
						lastAt = r.at
					}
				}
				fail := func(format string, a ...any) {
					t.Helper()
					t.Fatalf("τ = %d, %s: "+format, append([]any{τ, sc.name}, a...)...)
				}
				for _, r := range rs {
					switch sc.name {
					case "j = i at every iteration":
						if !r.accepted || int(r.b) != r.i {
							fail("byte %d = %d at i = %d", r.at, r.b, r.i)
						}
					case "j = 0 at every iteration":
						if !r.accepted || r.b != 0 {
							fail("byte %d = %d at i = %d", r.at, r.b, r.i)
						}
					case "rejections of j = i + 1":
						if !r.accepted && int(r.b) != r.i+1 {
							fail("byte %d = %d rejected at i = %d", r.at, r.b, r.i)
						}
					case "every byte rejected":
						if r.accepted {
							fail("byte %d = %d accepted at i = %d", r.at, r.b, r.i)
						}
					}
				}
				// One more byte, accepted whatever i is.
				more, doneMore := ballReads(τ, append(append([]byte(nil), stream...), 0))
				switch sc.name {
				case "uniform", "j = i at every iteration", "j = 0 at every iteration":
					if !done {
						fail("not finished within the bound")
					}
				case "rejections of j = i + 1":
					// At every iteration but the last, which can reject
					// nothing.
					at := map[int]bool{}
					for _, r := range rs {
						at[r.i] = at[r.i] || !r.accepted
					}
					if !done || len(at) != τ || at[255] {
						fail("finished %v, rejections at %d iterations", done, len(at))
					}
					for i := 256 - τ; i < 255; i++ {
						if !at[i] {
							fail("no rejection at i = %d", i)
						}
					}
				case "the bound met exactly":
					if !done || rs[len(rs)-1].at != n-1 {
						fail("finished %v at byte %d, want the bound's last byte %d", done, lastAt, n-1)
					}
				case "the bound missed by one byte":
					if done || !doneMore || more[len(more)-1].at != n {
						fail("finished %v within the bound, %v at byte %d with one more", done, doneMore, more[len(more)-1].at)
					}
				case "every byte rejected":
					if done || len(rs) != n-8 {
						fail("finished %v after reading %d bytes", done, len(rs))
					}
				case "the last block's first byte accepted last":
					if !done || lastAt != fips202.Rate256*(blocks-1) {
						fail("finished %v, the last accepted byte at %d", done, lastAt)
					}
				default:
					fail("no test for this scenario")
				}
			}
		}
	}
}
