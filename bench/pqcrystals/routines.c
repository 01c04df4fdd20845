/*
 * pq-crystals' counterparts of vg's routines, for the per-routine timings
 * of bench/cmd/routines. Compiled with DILITHIUM_MODE=3 (ML-DSA-65: η = 4,
 * γ1 = 2^19, γ2 = (q-1)/32, L = 5, λ = 192). The names are those of
 * bench/routines_amd64.go, which runs vg's routines on the same inputs
 * (the samplers' seeds change with the iteration the same way on both
 * sides, so both reject the same candidates).
 */
#include <stdint.h>
#include <string.h>
#include "params.h"
#include "poly.h"
#include "polyvec.h"
#include "fips202.h"

void bench_keccakf1600(uint64_t s[25]);
void routines_init(void);
int routine_count(void);
const char *routine_name(int r);
void routine_run(int r, long i);

static uint64_t ks[25];
static uint8_t buf[1024], seed[CRHBYTES], rho[SEEDBYTES], ctilde[CTILDEBYTES];

#ifdef VARIANT_REF
static const char *names[] = {"KeccakF1600"};
void routines_init(void) {}
void routine_run(int r, long i) {
  (void)i;
  if (r == 0) bench_keccakf1600(ks);
}
#else
#include "fips202x4.h"

static poly a, b, c, d, e;
static polyvecl mat[K], u, v;
static __m256i ks4[25];

static const char *names[] = {
  "KeccakF1600", "KeccakF1600x4", "NTT", "NTTInverse", "MultiplyNTT", "MultiplyAccNTT5",
  "ExpandA", "RejNTTPolyx4", "RejBoundedPolyx4", "SampleInBall", "ExpandMaskx4",
  "Power2Round", "UseHint",
  "BitPack20", "BitUnpack20", "SimpleBitPack10", "SimpleBitUnpack10", "BitPack13", "BitUnpack13",
  "BitPack4", "BitUnpack4", "SimpleBitPack4",
};

void routines_init(void) {
  for (int j = 0; j < N; j++) {
    a.coeffs[j] = (int32_t)((j * 7919) % Q);
    b.coeffs[j] = (int32_t)((j * 104729 + 1) % Q);
    e.coeffs[j] = j & 1;
  }
  for (int k = 0; k < L; k++) {
    u.vec[k] = a;
    v.vec[k] = b;
  }
  for (size_t j = 0; j < sizeof seed; j++) seed[j] = (uint8_t)j;
  for (size_t j = 0; j < sizeof rho; j++) rho[j] = (uint8_t)j;
  for (size_t j = 0; j < sizeof ctilde; j++) ctilde[j] = (uint8_t)j;
}

void routine_run(int r, long i) {
  uint8_t x = (uint8_t)(i & 63);
  switch (r) {
  case 0: bench_keccakf1600(ks); break;
  case 1: f1600x4(ks4, KeccakF_RoundConstants); break;
  case 2: poly_ntt(&a); break;
  case 3: poly_invntt_tomont(&a); break;
  case 4: poly_pointwise_montgomery(&c, &a, &b); break;
  case 5: polyvecl_pointwise_acc_montgomery(&c, &u, &v); break;
  case 6: rho[0] = x; polyvec_matrix_expand(mat, rho); break;
  case 7: rho[0] = x; poly_uniform_4x(&a, &b, &c, &d, rho, 0, 1, 2, 3); break;
  case 8: seed[0] = x; poly_uniform_eta_4x(&a, &b, &c, &d, seed, 0, 1, 2, 3); break;
  case 9: ctilde[0] = x; poly_challenge(&c, ctilde); break;
  case 10: seed[0] = x; poly_uniform_gamma1_4x(&a, &b, &c, &d, seed, 0, 1, 2, 3); break;
  case 11: poly_power2round(&c, &d, &a); break;
  case 12: poly_use_hint(&c, &a, &e); break;
  case 13: polyz_pack(buf, &a); break;
  case 14: polyz_unpack(&c, buf); break;
  case 15: polyt1_pack(buf, &a); break;
  case 16: polyt1_unpack(&c, buf); break;
  case 17: polyt0_pack(buf, &a); break;
  case 18: polyt0_unpack(&c, buf); break;
  case 19: polyeta_pack(buf, &a); break;
  case 20: polyeta_unpack(&c, buf); break;
  case 21: polyw1_pack(buf, &a); break;
  }
}
#endif

int routine_count(void) { return (int)(sizeof names / sizeof names[0]); }
const char *routine_name(int r) { return names[r]; }
