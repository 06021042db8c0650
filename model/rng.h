/* rng.h: deterministic pseudo-random streams (xoshiro256** seeded through
 * splitmix64). Every part that draws random numbers owns its own stream, so
 * results do not depend on the order in which parts are visited. */
#ifndef NOC_RNG_H
#define NOC_RNG_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct noc_rng { uint64_t s[4]; } noc_rng_t;

/* Seed stream `stream` of generator `seed`: distinct (seed, stream) pairs give
 * independent-looking sequences; the same pair always gives the same one. */
void noc_rng_seed(noc_rng_t *r, uint64_t seed, uint64_t stream);
uint64_t noc_rng_next(noc_rng_t *r);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t noc_rng_below(noc_rng_t *r, uint32_t n);
/* Uniform double in [0, 1). */
double noc_rng_unit(noc_rng_t *r);
/* Number of failures before the first success of a Bernoulli(p) trial
 * sequence, 0 < p <= 1 (the gap until the next event of a Bernoulli process). */
uint64_t noc_rng_geometric(noc_rng_t *r, double p);
/* The same draw, with log1p(-p) computed once by the caller (p < 1). */
uint64_t noc_rng_geometric_log(noc_rng_t *r, double p, double log_q);

/* A stateless mix of x (splitmix64's finaliser): for draws that must be a
 * fixed function of their inputs, such as a packet's random routing word
 * (noc_packet_t.salt) and the routes drawn from it. */
static inline uint64_t noc_rng_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

#ifdef __cplusplus
}
#endif
#endif
