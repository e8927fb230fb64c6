/*
 * neon.c — the ARM64 NEON kernel: four 16-byte vectors per 64-byte block,
 * masks gathered with pairwise adds, UTF-8 validated with the same lookup
 * algorithm as the x86 kernels (TBL instead of PSHUFB).
 */
#if defined(__aarch64__)

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arm_neon.h>
#if defined(__linux__)
#include <sys/auxv.h>
#include <asm/hwcap.h>
#endif

typedef struct fj_utf8_state
{
	uint8x16_t	prev;			/* the last 16 bytes seen */
	uint8x16_t	error;			/* nonzero once an error is seen */
	uint8x16_t	incomplete;		/* nonzero if prev ends inside a sequence */
} fj_utf8_state;

#include "stage1_state.h"
#include "utf8_lookup.h"

static const uint8_t tbl_b1h[16] = {UTF8_BYTE1_HIGH};
static const uint8_t tbl_b1l[16] = {UTF8_BYTE1_LOW};
static const uint8_t tbl_b2h[16] = {UTF8_BYTE2_HIGH};
static const uint8_t incomplete_max[16] = {
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xf0 - 1, 0xe0 - 1, 0xc0 - 1
};

/* Error bits for the 16 bytes of input, given the 16 before them. */
static inline uint8x16_t
utf8_check16(uint8x16_t input, uint8x16_t prev)
{
	uint8x16_t	prev1 = vextq_u8(prev, input, 15);
	uint8x16_t	prev2 = vextq_u8(prev, input, 14);
	uint8x16_t	prev3 = vextq_u8(prev, input, 13);
	uint8x16_t	b1h = vqtbl1q_u8(vld1q_u8(tbl_b1h), vshrq_n_u8(prev1, 4));
	uint8x16_t	b1l = vqtbl1q_u8(vld1q_u8(tbl_b1l), vandq_u8(prev1, vdupq_n_u8(0x0f)));
	uint8x16_t	b2h = vqtbl1q_u8(vld1q_u8(tbl_b2h), vshrq_n_u8(input, 4));
	uint8x16_t	must23 = vorrq_u8(vqsubq_u8(prev2, vdupq_n_u8(0xe0 - 0x80)),
								  vqsubq_u8(prev3, vdupq_n_u8(0xf0 - 0x80)));

	return veorq_u8(vandq_u8(must23, vdupq_n_u8(0x80)), vandq_u8(vandq_u8(b1h, b1l), b2h));
}

static inline void
utf8_init(fj_utf8_state *u)
{
	u->prev = vdupq_n_u8(0);
	u->error = vdupq_n_u8(0);
	u->incomplete = vdupq_n_u8(0);
}

static inline void
utf8_block(fj_utf8_state *u, const uint8_t *p)
{
	uint8x16_t	v0 = vld1q_u8(p),
				v1 = vld1q_u8(p + 16),
				v2 = vld1q_u8(p + 32),
				v3 = vld1q_u8(p + 48);
	uint8x16_t	any = vorrq_u8(vorrq_u8(v0, v1), vorrq_u8(v2, v3));

	if (vmaxvq_u8(any) < 0x80)
	{
		u->error = vorrq_u8(u->error, u->incomplete);
		return;
	}
	u->error = vorrq_u8(u->error, utf8_check16(v0, u->prev));
	u->error = vorrq_u8(u->error, utf8_check16(v1, v0));
	u->error = vorrq_u8(u->error, utf8_check16(v2, v1));
	u->error = vorrq_u8(u->error, utf8_check16(v3, v2));
	u->incomplete = vqsubq_u8(v3, vld1q_u8(incomplete_max));
	u->prev = v3;
}

static inline bool
utf8_failed(fj_utf8_state *u, bool at_eof)
{
	uint8x16_t	e = at_eof ? vorrq_u8(u->error, u->incomplete) : u->error;

	return vmaxvq_u8(e) != 0;
}

/* One bit per byte of four comparison results (0xff or 0). */
static inline uint64_t
mask64(uint8x16_t c0, uint8x16_t c1, uint8x16_t c2, uint8x16_t c3)
{
	static const uint8_t bits[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
	uint8x16_t	b = vld1q_u8(bits);
	uint8x16_t	s0 = vpaddq_u8(vandq_u8(c0, b), vandq_u8(c1, b));
	uint8x16_t	s1 = vpaddq_u8(vandq_u8(c2, b), vandq_u8(c3, b));

	s0 = vpaddq_u8(s0, s1);
	s0 = vpaddq_u8(s0, s0);
	return vgetq_lane_u64(vreinterpretq_u64_u8(s0), 0);
}

static inline void
classify16(uint8x16_t v, uint8x16_t *q, uint8x16_t *b, uint8x16_t *o, uint8x16_t *w, uint8x16_t *c)
{
	uint8x16_t	lower = vorrq_u8(v, vdupq_n_u8(0x20));

	*q = vceqq_u8(v, vdupq_n_u8('"'));
	*b = vceqq_u8(v, vdupq_n_u8('\\'));
	/* '[' | 0x20 == '{' and ']' | 0x20 == '}' */
	*o = vorrq_u8(vorrq_u8(vceqq_u8(lower, vdupq_n_u8('{')), vceqq_u8(lower, vdupq_n_u8('}'))),
				  vorrq_u8(vceqq_u8(v, vdupq_n_u8(':')), vceqq_u8(v, vdupq_n_u8(','))));
	*w = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8(' ')), vceqq_u8(v, vdupq_n_u8('\t'))),
				  vorrq_u8(vceqq_u8(v, vdupq_n_u8('\n')), vceqq_u8(v, vdupq_n_u8('\r'))));
	*c = vcltq_u8(v, vdupq_n_u8(0x20));
}

static inline void
classify(const uint8_t *p, fj_block_masks *m)
{
	uint8x16_t	q[4], b[4], o[4], w[4], c[4];
	int			i;

	for (i = 0; i < 4; i++)
		classify16(vld1q_u8(p + 16 * i), &q[i], &b[i], &o[i], &w[i], &c[i]);
	m->quote = mask64(q[0], q[1], q[2], q[3]);
	m->backslash = mask64(b[0], b[1], b[2], b[3]);
	m->op = mask64(o[0], o[1], o[2], o[3]);
	m->ws = mask64(w[0], w[1], w[2], w[3]);
	m->ctrl = mask64(c[0], c[1], c[2], c[3]);
}

static inline uint64_t
prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

#include "flatten.h"

static inline size_t
copy_until_backslash(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	const uint8x16_t bs = vdupq_n_u8('\\');
	size_t		k = 0;

	while (src + k + 16 <= input_end)
	{
		uint8x16_t	v = vld1q_u8(src + k);
		uint8x16_t	eq = vceqq_u8(v, bs);

		vst1q_u8(dst + k, v);
		if (vmaxvq_u8(eq))
		{
			/* narrow to 4 bits per byte to find the first match */
			uint64_t	nib = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(eq), 4)), 0);

			k += (size_t) (__builtin_ctzll(nib) >> 2);
			return k < n ? k : n;
		}
		k += 16;
		if (k >= n)
			return n;
	}
	while (k < n && src[k] != '\\')
	{
		dst[k] = src[k];
		k++;
	}
	return k;
}

/* Copy a string of n <= 27 bytes without escapes in two 16-byte loads and stores. */
static inline bool
copy_short_string(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	static const uint8_t iota[32] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
	uint8x16_t	a,
				b,
				lim = vdupq_n_u8((uint8_t) n);

	if (src + 32 > input_end)
		return false;
	a = vld1q_u8(src);
	b = vld1q_u8(src + 16);
	/* backslashes at positions below n */
	if (vmaxvq_u8(vorrq_u8(vandq_u8(vceqq_u8(a, vdupq_n_u8('\\')), vcltq_u8(vld1q_u8(iota), lim)),
						   vandq_u8(vceqq_u8(b, vdupq_n_u8('\\')), vcltq_u8(vld1q_u8(iota + 16), lim)))))
		return false;
	vst1q_u8(dst, a);
	vst1q_u8(dst + 16, b);
	return true;
}

#include "stage1.h"
#include "stage2.h"

#include "text_writer.h"

/* Runs that need no escape, 16 bytes a load; the last few bytes of a value by words. */
static inline size_t
copy_plain(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *readable_end)
{
	size_t		i = 0;

	while (n - i >= 16 || (i < n && s + i + 16 <= readable_end))
	{
		uint8x16_t	x = vld1q_u8(s + i);
		uint8x16_t	hit = vorrq_u8(vcltq_u8(x, vdupq_n_u8(0x20)),
								   vorrq_u8(vceqq_u8(x, vdupq_n_u8('"')),
											vceqq_u8(x, vdupq_n_u8('\\'))));
		/* four bits a byte */
		uint64_t	m = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(hit), 4)), 0);
		size_t		left = n - i;

		vst1q_u8(d + i, x);
		if (left < 16)
			m &= (1ULL << (4 * left)) - 1;
		if (m)
			return i + ((size_t) __builtin_ctzll(m) >> 2);
		if (left <= 16)
			return n;
		i += 16;
	}
	return i + copy_plain_swar(d + i, s + i, n - i, readable_end);
}

static bool
neon_supported(void)
{
#if defined(__linux__) && defined(HWCAP_ASIMD)
	return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#else
	return true;				/* Advanced SIMD is part of every ARMv8-A core */
#endif
}

#include "utf8_valid.h"

const fj_kernel fj_kernel_neon = {"neon", neon_supported, kernel_parse, write_json, kernel_utf8_valid};

#endif							/* __aarch64__ */
