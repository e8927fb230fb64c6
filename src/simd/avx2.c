/*
 * avx2.c — the AVX2 kernel (Haswell and later, Zen): 32-byte vectors, two per
 * 64-byte block; UTF-8 validated with the lookup algorithm of Keiser and
 * Lemire ("Validating UTF-8 in less than one instruction per byte", 2021).
 */
#if defined(__x86_64__)

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <cpuid.h>

#define FJ_TARGET "avx2,bmi,bmi2,pclmul,popcnt"
#include "x86_target.h"

typedef struct fj_utf8_state
{
	__m256i		prev;			/* the last 32 bytes seen */
	__m256i		error;			/* nonzero once an error is seen */
	__m256i		incomplete;		/* nonzero if prev ends inside a sequence */
} fj_utf8_state;

#include "stage1_state.h"

#define PREV(input, prev, n) \
	_mm256_alignr_epi8(input, _mm256_permute2x128_si256(prev, input, 0x21), 16 - (n))

static inline __m256i
table16(int8_t a0, int8_t a1, int8_t a2, int8_t a3, int8_t a4, int8_t a5, int8_t a6, int8_t a7,
		int8_t a8, int8_t a9, int8_t a10, int8_t a11, int8_t a12, int8_t a13, int8_t a14, int8_t a15)
{
	return _mm256_setr_epi8(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15,
							a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15);
}

#include "utf8_lookup.h"

static inline __m256i
nibble_hi(__m256i v)
{
	return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0f));
}

/* Error bits for the 32 bytes of input, given the 32 before them. */
static inline __m256i
utf8_check32(__m256i input, __m256i prev)
{
	__m256i		prev1 = PREV(input, prev, 1);
	__m256i		b1h = _mm256_shuffle_epi8(table16(UTF8_BYTE1_HIGH), nibble_hi(prev1));
	__m256i		b1l = _mm256_shuffle_epi8(table16(UTF8_BYTE1_LOW),
										  _mm256_and_si256(prev1, _mm256_set1_epi8(0x0f)));
	__m256i		b2h = _mm256_shuffle_epi8(table16(UTF8_BYTE2_HIGH), nibble_hi(input));
	__m256i		special = _mm256_and_si256(_mm256_and_si256(b1h, b1l), b2h);
	__m256i		prev2 = PREV(input, prev, 2);
	__m256i		prev3 = PREV(input, prev, 3);
	__m256i		must23 = _mm256_or_si256(_mm256_subs_epu8(prev2, _mm256_set1_epi8((char) (0xe0 - 0x80))),
										 _mm256_subs_epu8(prev3, _mm256_set1_epi8((char) (0xf0 - 0x80))));

	return _mm256_xor_si256(_mm256_and_si256(must23, _mm256_set1_epi8((char) 0x80)), special);
}

static inline void
utf8_init(fj_utf8_state *u)
{
	u->prev = _mm256_setzero_si256();
	u->error = _mm256_setzero_si256();
	u->incomplete = _mm256_setzero_si256();
}

static inline void
utf8_block(fj_utf8_state *u, const uint8_t *p)
{
	__m256i		lo = _mm256_loadu_si256((const __m256i *) p);
	__m256i		hi = _mm256_loadu_si256((const __m256i *) (p + 32));

	if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0)
	{
		u->error = _mm256_or_si256(u->error, u->incomplete);
		return;
	}
	u->error = _mm256_or_si256(u->error, utf8_check32(lo, u->prev));
	u->error = _mm256_or_si256(u->error, utf8_check32(hi, lo));
	u->incomplete = _mm256_subs_epu8(hi, _mm256_setr_epi8(
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		(char) (0xf0 - 1), (char) (0xe0 - 1), (char) (0xc0 - 1)));
	u->prev = hi;
}

static inline bool
utf8_failed(fj_utf8_state *u, bool at_eof)
{
	__m256i		e = at_eof ? _mm256_or_si256(u->error, u->incomplete) : u->error;

	return !_mm256_testz_si256(e, e);
}

static inline uint64_t
mask64(__m256i lo, __m256i hi)
{
	return (uint32_t) _mm256_movemask_epi8(lo) | ((uint64_t) (uint32_t) _mm256_movemask_epi8(hi) << 32);
}

static inline void
classify32(__m256i v, __m256i *quote, __m256i *bs, __m256i *op, __m256i *ws, __m256i *ctrl)
{
	__m256i		lower = _mm256_or_si256(v, _mm256_set1_epi8(0x20));

	*quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'));
	*bs = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'));
	/* '[' | 0x20 == '{' and ']' | 0x20 == '}' */
	*op = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(lower, _mm256_set1_epi8('{')),
										  _mm256_cmpeq_epi8(lower, _mm256_set1_epi8('}'))),
						  _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(':')),
										  _mm256_cmpeq_epi8(v, _mm256_set1_epi8(','))));
	*ws = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(' ')),
										  _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\t'))),
						  _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')),
										  _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r'))));
	*ctrl = _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(0x1f)), _mm256_set1_epi8(0x1f));
}

static inline void
classify(const uint8_t *p, fj_block_masks *m)
{
	__m256i		q[2],
				b[2],
				o[2],
				w[2],
				c[2];

	classify32(_mm256_loadu_si256((const __m256i *) p), &q[0], &b[0], &o[0], &w[0], &c[0]);
	classify32(_mm256_loadu_si256((const __m256i *) (p + 32)), &q[1], &b[1], &o[1], &w[1], &c[1]);
	m->quote = mask64(q[0], q[1]);
	m->backslash = mask64(b[0], b[1]);
	m->op = mask64(o[0], o[1]);
	m->ws = mask64(w[0], w[1]);
	m->ctrl = mask64(c[0], c[1]);
}

static inline uint64_t
prefix_xor(uint64_t x)
{
	return (uint64_t) _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (int64_t) x),
															  _mm_set1_epi8((char) 0xff), 0));
}

#include "flatten.h"

static inline size_t
copy_until_backslash(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	const __m256i bs = _mm256_set1_epi8('\\');
	size_t		k = 0;

	while (src + k + 32 <= input_end)
	{
		__m256i		v = _mm256_loadu_si256((const __m256i *) (src + k));
		uint32_t	m = (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bs));

		_mm256_storeu_si256((__m256i *) (dst + k), v);
		if (m)
		{
			k += (size_t) __builtin_ctz(m);
			return k < n ? k : n;
		}
		k += 32;
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

/* Copy a string of n <= 27 bytes without escapes in one 32-byte load and store. */
static inline bool
copy_short_string(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	__m256i		v;

	if (src + 32 > input_end)
		return false;
	v = _mm256_loadu_si256((const __m256i *) src);
	if ((uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))) & ((1u << n) - 1))
		return false;
	_mm256_storeu_si256((__m256i *) dst, v);
	return true;
}

#include "stage1.h"
#define FJ_KERNEL_HAS_PEXT 1		/* BMI2: stage 2 packs number text with pext */
#include "number_avx2.h"
#include "stage2.h"

#include "text_writer.h"

/* Runs that need no escape, 32 bytes a load; the last few bytes of a value by words. */
static inline size_t
copy_plain(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *readable_end)
{
	const __m256i below_space = _mm256_set1_epi8(0x1f);
	const __m256i quote = _mm256_set1_epi8('"');
	const __m256i backslash = _mm256_set1_epi8('\\');
	size_t		i = 0;

	while (i < n)
	{
		size_t		m = n - i;
		__m256i		x;
		uint32_t	hits;

		if (m < 32 && s + i + 32 > readable_end)
			return i + copy_plain_swar(d + i, s + i, m, readable_end);
		x = _mm256_loadu_si256((const __m256i *) (s + i));
		hits = (uint32_t) _mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(x, below_space), x),
							_mm256_or_si256(_mm256_cmpeq_epi8(x, quote),
											_mm256_cmpeq_epi8(x, backslash))));
		_mm256_storeu_si256((__m256i *) (d + i), x);
		if (m < 32)
			hits |= ~0u << m;	/* the bytes past the string stop the run at its end */
		if (hits)
			return i + (size_t) __builtin_ctz(hits);
		i += 32;
	}
	return n;
}

#include "x86_target_end.h"

/* Compiled for the baseline ISA: it runs on every x86-64 CPU, to ask whether this one can run the kernel. */
static bool
avx2_supported(void)
{
	unsigned	b,
				c;

	/* SSE and AVX state enabled by the OS */
	return fj_x86_cpu(0x6, &b, &c) && (b & bit_AVX2) && (b & bit_BMI) && (b & bit_BMI2);
}

#include "utf8_valid.h"

const fj_kernel fj_kernel_avx2 = {"avx2", avx2_supported, kernel_parse, write_json, kernel_utf8_valid};

#endif							/* __x86_64__ */
