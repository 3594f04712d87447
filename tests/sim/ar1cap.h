/*
 * ar1cap.h - iperf3's interval series as the simulations draw it
 * (tests/sim/coverage.c, tests/sim/plan.c): a run's per-second
 * throughput is log-normal on an AR(1) normal score, z_i = rho z_{i-1}
 * + sqrt(1 - rho^2) e_i (z_0 ~ N(0, 1)), and a link's cap holds many
 * intervals at it.  An interval at the cap carries the same bytes over
 * its own measured length, so its bits_per_second is the cap times 1 +-
 * tens of ppm (iperf 3.12, -b 900M on loopback: 17 of 18 such
 * intervals within 22 ppm of their median): near ties, not equal ones.
 * The near tie's u is a hash of the value's normal score, not a draw
 * from the stream, so a design draws the same values with and without
 * the jitter.  Header-only: each harness is one file.
 */
#ifndef PATHSTAT_TESTS_SIM_AR1CAP_H
#define PATHSTAT_TESTS_SIM_AR1CAP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/stats.h"

/* The next normal score of an AR(1) with lag-1 correlation rho. */
static inline double
ar1cap_next(struct stats_rng *rng, double z, double rho)
{
	return rho * z + sqrt(1 - rho * rho) * stats_rng_normal(rng);
}

/* A uniform in [0, 1) from the bits of z (splitmix64's finalizer). */
static inline double
ar1cap_jitter_u(double z)
{
	uint64_t h;

	memcpy(&h, &z, sizeof(h));
	h ^= h >> 30;
	h *= UINT64_C(0xBF58476D1CE4E5B9);
	h ^= h >> 27;
	h *= UINT64_C(0x94D049BB133111EB);
	h ^= h >> 31;
	return (double)(h >> 11) * 0x1.0p-53;
}

/* A value v at the cap as iperf3 writes it: v (1 + jitter (2u - 1)),
 * u from z's bits (jitter 0: v). */
static inline double
ar1cap_near_tie(double v, double jitter, double z)
{
	if (!(jitter > 0))
		return v;
	return v * (1 + jitter * (2 * ar1cap_jitter_u(z) - 1));
}

#endif
