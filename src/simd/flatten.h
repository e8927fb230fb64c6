/*
 * flatten.h — turn a 64-bit mask of structural bytes into positions, four at
 * a time without branching on each bit (simdjson's scheme). Writes up to 3
 * entries past the end; the index buffer has FJ_INDEX_SLACK spare entries.
 */
#ifndef FJ_FLATTEN_H
#define FJ_FLATTEN_H

static inline uint32_t *
flatten(uint32_t *out, uint64_t bits, uint32_t base)
{
	/* bit 63 keeps ctz defined once bits runs out; those entries are dropped */
	const uint64_t stop = 1ULL << 63;
	int			n = __builtin_popcountll(bits);
	int			i;

	for (i = 0; i < n; i += 4)
	{
		out[i] = base + (uint32_t) __builtin_ctzll(bits | stop);
		bits &= bits - 1;
		out[i + 1] = base + (uint32_t) __builtin_ctzll(bits | stop);
		bits &= bits - 1;
		out[i + 2] = base + (uint32_t) __builtin_ctzll(bits | stop);
		bits &= bits - 1;
		out[i + 3] = base + (uint32_t) __builtin_ctzll(bits | stop);
		bits &= bits - 1;
	}
	return out + n;
}

#endif							/* FJ_FLATTEN_H */
