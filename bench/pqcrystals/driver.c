/*
 * The C side of bench/: pq-crystals' ML-DSA (Dilithium, FIPS 204) over
 * bench/'s workload. bench/ (pqcrystals.go) compiles this file with a copy
 * of pq-crystals' avx2/ or ref/ directory in which randomized signing is
 * turned off, so that signing is deterministic (rnd = 0^32, FIPS 204,
 * Algorithm 2, line 5) and the signatures must equal vg's byte for byte.
 *
 *   driver check                  keys and signatures of every case, hex lines
 *   driver count SET OP N         set up, then run OP N times (for callgrind)
 *   driver time BENCHTIME_MS      time every set and operation, JSON lines
 *   driver routines BENCHTIME_MS  time each routine (AVX2 build), JSON lines
 *   driver routine NAME N         run one routine N times (for callgrind)
 *   driver names                  the routines of this build, one a line
 *
 * Exit status 3 means the operation or routine is not offered.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "api.h"
#include "fips202.h"
#include "randombytes.h"

#ifdef VARIANT_REF
#define NS(mode, s) pqcrystals_dilithium##mode##_ref_##s
#else
#define NS(mode, s) pqcrystals_dilithium##mode##_avx2_##s
#endif

#define CASES 64

struct set {
  const char *name;
  size_t pklen, sklen, siglen;
  int (*keypair)(uint8_t *pk, uint8_t *sk);
  int (*sign)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
              const uint8_t *ctx, size_t ctxlen, const uint8_t *sk);
  int (*verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                const uint8_t *ctx, size_t ctxlen, const uint8_t *pk);
};

static const struct set sets[3] = {
  {"ML-DSA-44", pqcrystals_dilithium2_PUBLICKEYBYTES, pqcrystals_dilithium2_SECRETKEYBYTES,
   pqcrystals_dilithium2_BYTES, NS(2, keypair), NS(2, signature), NS(2, verify)},
  {"ML-DSA-65", pqcrystals_dilithium3_PUBLICKEYBYTES, pqcrystals_dilithium3_SECRETKEYBYTES,
   pqcrystals_dilithium3_BYTES, NS(3, keypair), NS(3, signature), NS(3, verify)},
  {"ML-DSA-87", pqcrystals_dilithium5_PUBLICKEYBYTES, pqcrystals_dilithium5_SECRETKEYBYTES,
   pqcrystals_dilithium5_BYTES, NS(5, keypair), NS(5, signature), NS(5, verify)},
};

#define MAXPK pqcrystals_dilithium5_PUBLICKEYBYTES
#define MAXSK pqcrystals_dilithium5_SECRETKEYBYTES
#define MAXSIG pqcrystals_dilithium5_BYTES

static void fail(const char *msg) {
  fprintf(stderr, "driver: %s\n", msg);
  exit(1);
}

/* KeyGen takes its seed ξ from randombytes (Algorithm 1, line 1); this
 * one hands over the seed of the case at hand, once. Any other call (a
 * signing that still draws rnd) stops the driver. */
static const uint8_t *pending_seed;

void randombytes(uint8_t *out, size_t outlen) {
  if (pending_seed == NULL || outlen != 32) {
    fprintf(stderr, "driver: randombytes called outside KeyGen (is randomized signing still on?)\n");
    exit(2);
  }
  memcpy(out, pending_seed, 32);
  pending_seed = NULL;
}

static void keygen(const struct set *s, const uint8_t seed[32], uint8_t *pk, uint8_t *sk) {
  pending_seed = seed;
  if (s->keypair(pk, sk) != 0 || pending_seed != NULL)
    fail("keypair failed or did not take its seed");
}

/* The workload of bench.go: SHAKE128(label || BE32(i)). */
static void derive(uint8_t *out, size_t outlen, const char *label, int i) {
  uint8_t in[64];
  size_t n = strlen(label);
  memcpy(in, label, n);
  in[n] = (uint8_t)(i >> 24);
  in[n + 1] = (uint8_t)(i >> 16);
  in[n + 2] = (uint8_t)(i >> 8);
  in[n + 3] = (uint8_t)i;
  shake128(out, outlen, in, n + 4);
}

/* The identity check's contexts (bench.CheckContext): case i signs once
 * more with a context of (7 i) mod 256 bytes. */
static size_t context(uint8_t ctx[255], int i) {
  size_t n = (size_t)(7 * i) % 256;
  uint8_t buf[256];
  derive(buf, 256, "vg bench context", i);
  memcpy(ctx, buf, n);
  return n;
}

static uint8_t seeds[CASES][32], msgs[CASES][32];
static uint8_t pks[CASES][MAXPK], sks[CASES][MAXSK], sigs[CASES][MAXSIG];

static void workload(void) {
  for (int i = 0; i < CASES; i++) {
    derive(seeds[i], 32, "vg bench seed", i);
    derive(msgs[i], 32, "vg bench message", i);
  }
}

static void setup(const struct set *s) {
  size_t n;
  for (int i = 0; i < CASES; i++) {
    keygen(s, seeds[i], pks[i], sks[i]);
    if (s->sign(sigs[i], &n, msgs[i], 32, NULL, 0, sks[i]) != 0 || n != s->siglen)
      fail("signature failed");
  }
}

static void hex(const uint8_t *b, size_t n) {
  putchar(' ');
  for (size_t i = 0; i < n; i++)
    printf("%02x", b[i]);
}

static void check(void) {
  uint8_t ctx[255], sig2[MAXSIG];
  size_t n;
  for (int k = 0; k < 3; k++) {
    const struct set *s = &sets[k];
    setup(s);
    for (int i = 0; i < CASES; i++) {
      size_t cl = context(ctx, i);
      if (s->sign(sig2, &n, msgs[i], 32, ctx, cl, sks[i]) != 0 || n != s->siglen)
        fail("signature with context failed");
      if (s->verify(sigs[i], s->siglen, msgs[i], 32, NULL, 0, pks[i]) != 0 ||
          s->verify(sig2, s->siglen, msgs[i], 32, ctx, cl, pks[i]) != 0)
        fail("verify rejects its own signature");
      uint8_t bad[32];
      memcpy(bad, msgs[i], 32);
      bad[0] ^= 1;
      if (s->verify(sigs[i], s->siglen, bad, 32, NULL, 0, pks[i]) == 0)
        fail("verify accepts a signature on a changed message");
      printf("%s %d", s->name, i);
      hex(pks[i], s->pklen);
      hex(sks[i], s->sklen);
      hex(sigs[i], s->siglen);
      hex(sig2, s->siglen);
      putchar('\n');
    }
  }
}

/* Operations, named as bench/ops.go names them. pq-crystals signs from the
 * encoded private key only, so its Sign is bench's SignExpanded, and it
 * has no public key object to parse. */
static int op_index(const char *op) {
  if (strcmp(op, "KeyGen") == 0) return 0;
  if (strcmp(op, "SignExpanded") == 0) return 1;
  if (strcmp(op, "Verify") == 0) return 2;
  return -1;
}
static const char *op_names[3] = {"KeyGen", "SignExpanded", "Verify"};

static uint8_t out_pk[MAXPK], out_sk[MAXSK], out_sig[MAXSIG];

static void run_op(const struct set *s, int op, long i) {
  int c = (int)(i % CASES);
  size_t n;
  switch (op) {
  case 0:
    keygen(s, seeds[c], out_pk, out_sk);
    break;
  case 1:
    if (s->sign(out_sig, &n, msgs[c], 32, NULL, 0, sks[c]) != 0)
      fail("signature failed");
    break;
  case 2:
    if (s->verify(sigs[c], s->siglen, msgs[c], 32, NULL, 0, pks[c]) != 0)
      fail("verify failed");
    break;
  }
}

static const struct set *find_set(const char *name) {
  for (int k = 0; k < 3; k++)
    if (strcmp(sets[k].name, name) == 0)
      return &sets[k];
  fail("unknown parameter set");
  return NULL;
}

static int64_t wall_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Process CPU time, user and system, as bench.cpuTime. */
static int64_t cpu_ns(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
         ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

struct timing { double ns, cpu; };

/* measure grows the iteration count as testing.Benchmark does (at most
 * 100× per step, 1.2× the prediction) until one run lasts benchtime, and
 * reports that last run. */
static struct timing measure(void (*f)(void *, long), void *arg, int64_t benchtime) {
  long n = 1, prev;
  int64_t w, c;
  for (;;) {
    int64_t w0 = wall_ns(), c0 = cpu_ns();
    for (long i = 0; i < n; i++)
      f(arg, i);
    w = wall_ns() - w0;
    c = cpu_ns() - c0;
    if (w >= benchtime || n >= 1000000000)
      break;
    prev = n;
    double per = w > 0 ? (double)w / (double)prev : 1;
    double next = (double)benchtime / per * 1.2;
    if (next > 100.0 * prev) next = 100.0 * prev;
    n = (long)next;
    if (n <= prev) n = prev + 1;
    if (n > 1000000000) n = 1000000000;
  }
  struct timing t = {(double)w / n, (double)c / n};
  return t;
}

struct opArg { const struct set *s; int op; };
static void op_thunk(void *arg, long i) {
  struct opArg *a = arg;
  run_op(a->s, a->op, i);
}

static void time_all(int64_t benchtime) {
  for (int k = 0; k < 3; k++) {
    setup(&sets[k]);
    for (int op = 0; op < 3; op++) {
      struct opArg a = {&sets[k], op};
      struct timing t = measure(op_thunk, &a, benchtime);
      printf("{\"Param\":\"%s\",\"Op\":\"%s\",\"Timing\":{\"NsPerOp\":%.1f,\"CPUNsPerOp\":%.1f,\"AllocsPerOp\":0,\"Runs\":1}}\n",
             sets[k].name, op_names[op], t.ns, t.cpu);
    }
  }
}

/* routines.c: pq-crystals' counterparts of vg's routines (ML-DSA-65). */
void routines_init(void);
int routine_count(void);
const char *routine_name(int r);
void routine_run(int r, long i);

static void routine_thunk(void *arg, long i) { routine_run(*(int *)arg, i); }

int main(int argc, char **argv) {
  if (argc < 2)
    fail("usage: driver check | count SET OP N | time MS | routines MS | routine NAME N");
  workload();
  if (strcmp(argv[1], "check") == 0 && argc == 2) {
    check();
  } else if (strcmp(argv[1], "count") == 0 && argc == 5) {
    const struct set *s = find_set(argv[2]);
    int op = op_index(argv[3]);
    if (op < 0) {
      fprintf(stderr, "driver: pq-crystals offers no %s\n", argv[3]);
      return 3;
    }
    long n = atol(argv[4]);
    setup(s);
    for (long i = 0; i < n; i++)
      run_op(s, op, i);
  } else if (strcmp(argv[1], "time") == 0 && argc == 3) {
    time_all((int64_t)atol(argv[2]) * 1000000);
  } else if (strcmp(argv[1], "routines") == 0 && argc == 3) {
    routines_init();
    for (int r = 0; r < routine_count(); r++) {
      struct timing t = measure(routine_thunk, &r, (int64_t)atol(argv[2]) * 1000000);
      printf("{\"Routine\":\"%s\",\"NsPerOp\":%.2f,\"CPUNsPerOp\":%.2f}\n", routine_name(r), t.ns, t.cpu);
    }
  } else if (strcmp(argv[1], "names") == 0 && argc == 2) {
    for (int r = 0; r < routine_count(); r++)
      printf("%s\n", routine_name(r));
  } else if (strcmp(argv[1], "routine") == 0 && argc == 4) {
    int r;
    for (r = 0; r < routine_count(); r++)
      if (strcmp(routine_name(r), argv[2]) == 0)
        break;
    if (r == routine_count()) {
      fprintf(stderr, "driver: no routine %s in this build\n", argv[2]);
      return 3;
    }
    long n = atol(argv[3]);
    routines_init();
    for (long i = 0; i < n; i++)
      routine_run(r, i);
  } else {
    fail("bad arguments");
  }
  return 0;
}
