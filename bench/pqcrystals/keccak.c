/* Exposes pq-crystals' Keccak-f[1600] (static in fips202.c) to routines.c;
 * this file is compiled instead of fips202.c. */
#include "fips202.c"

void bench_keccakf1600(uint64_t s[25]);
void bench_keccakf1600(uint64_t s[25]) { KeccakF1600_StatePermute(s); }
