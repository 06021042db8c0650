/* rng.c: xoshiro256** generator with splitmix64 seeding (public-domain
 * algorithms by Blackman and Vigna), written for noctua's streams. */
#include "model/rng.h"
#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void noc_rng_seed(noc_rng_t *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t noc_rng_next(noc_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t noc_rng_below(noc_rng_t *r, uint32_t n)
{
    /* Lemire's multiply-shift with rejection of the biased low part. */
    uint64_t m = (uint64_t)(uint32_t)(noc_rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t thresh = (uint32_t)(-n) % n;
        while (low < thresh) {
            m = (uint64_t)(uint32_t)(noc_rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double noc_rng_unit(noc_rng_t *r)
{
    return (double)(noc_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t noc_rng_geometric(noc_rng_t *r, double p)
{
    return noc_rng_geometric_log(r, p, p >= 1.0 ? 0.0 : log1p(-p));
}

uint64_t noc_rng_geometric_log(noc_rng_t *r, double p, double log_q)
{
    if (p >= 1.0)
        return 0;
    double u = noc_rng_unit(r);
    /* 1-u in (0,1]: log is finite. */
    double g = floor(log1p(-u) / log_q);
    if (g > 1e18)
        return UINT64_C(1000000000000000000);
    return (uint64_t)g;
}
