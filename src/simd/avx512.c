/*
 * avx512.c — the AVX-512 kernel (Ice Lake and later, Zen 4): one 64-byte
 * vector per block, compares straight into mask registers, VBMI byte
 * permutes for the UTF-8 look-behind and VBMI2 compress to flatten the
 * structural mask into positions.
 */
#if defined(__x86_64__)

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <cpuid.h>

#define FJ_TARGET "avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi,avx512vbmi2,avx2,bmi,bmi2,pclmul,popcnt"
#include "x86_target.h"

typedef struct fj_utf8_state
{
	__m512i		prev;			/* the last 64 bytes seen */
	__m512i		error;			/* nonzero once an error is seen */
	__m512i		incomplete;		/* nonzero if prev ends inside a sequence */
} fj_utf8_state;

#include "stage1_state.h"
#include "utf8_lookup.h"

static inline __m512i
table16(__m128i t)
{
	return _mm512_broadcast_i32x4(t);
}

#define TABLE(...) table16(_mm_setr_epi8(__VA_ARGS__))

/* Bytes input[i - n] across the block boundary: prev's tail, then input. */
static inline __m512i
prev_n(__m512i input, __m512i prev, int n)
{
	__m512i		idx = _mm512_add_epi8(_mm512_set_epi8(
		63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
		47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
		31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
		15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi8((char) (64 - n)));

	return _mm512_permutex2var_epi8(prev, idx, input);
}

static inline __m512i
nibble_hi(__m512i v)
{
	return _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0f));
}

static inline void
utf8_init(fj_utf8_state *u)
{
	u->prev = _mm512_setzero_si512();
	u->error = _mm512_setzero_si512();
	u->incomplete = _mm512_setzero_si512();
}

static inline void
utf8_block(fj_utf8_state *u, const uint8_t *p)
{
	__m512i		input = _mm512_loadu_si512((const void *) p);
	__m512i		prev1,
				b1h,
				b1l,
				b2h,
				must23;

	if (_mm512_movepi8_mask(input) == 0)
	{
		u->error = _mm512_or_si512(u->error, u->incomplete);
		return;
	}
	prev1 = prev_n(input, u->prev, 1);
	b1h = _mm512_shuffle_epi8(TABLE(UTF8_BYTE1_HIGH), nibble_hi(prev1));
	b1l = _mm512_shuffle_epi8(TABLE(UTF8_BYTE1_LOW), _mm512_and_si512(prev1, _mm512_set1_epi8(0x0f)));
	b2h = _mm512_shuffle_epi8(TABLE(UTF8_BYTE2_HIGH), nibble_hi(input));
	must23 = _mm512_or_si512(_mm512_subs_epu8(prev_n(input, u->prev, 2), _mm512_set1_epi8((char) (0xe0 - 0x80))),
							 _mm512_subs_epu8(prev_n(input, u->prev, 3), _mm512_set1_epi8((char) (0xf0 - 0x80))));
	u->error = _mm512_or_si512(u->error,
							   _mm512_xor_si512(_mm512_and_si512(must23, _mm512_set1_epi8((char) 0x80)),
												_mm512_and_si512(_mm512_and_si512(b1h, b1l), b2h)));
	u->incomplete = _mm512_subs_epu8(input, _mm512_set_epi8(
		(char) (0xc0 - 1), (char) (0xe0 - 1), (char) (0xf0 - 1), -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
	u->prev = input;
}

static inline bool
utf8_failed(fj_utf8_state *u, bool at_eof)
{
	__m512i		e = at_eof ? _mm512_or_si512(u->error, u->incomplete) : u->error;

	return _mm512_test_epi8_mask(e, e) != 0;
}

/*
 * Operators and whitespace by two nibble lookups (simdjson's scheme): the
 * class bits of a byte are LOW[lo nibble] & HIGH[hi nibble], nonzero only
 * for { } [ ] : , (bits 0-2) and space, tab, newline, return (bits 3-5).
 * Fewer compares than one a character: they compete for one port on Intel.
 */
static inline void
classify(const uint8_t *p, fj_block_masks *m)
{
	/* bit 0: [ ] { }; 1: ':'; 2: ','; 3: ' '; 4: '\t' '\n'; 5: '\r' */
	const __m512i low = TABLE(8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 2 | 16, 1, 4, 1 | 32, 0, 0);
	const __m512i high = TABLE(16 | 32, 0, 4 | 8, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0);
	__m512i		v = _mm512_loadu_si512((const void *) p);
	/* bytes >= 0x80 index with bit 7 set: the shuffle gives 0 */
	__m512i		cls = _mm512_and_si512(_mm512_shuffle_epi8(low, v),
									   _mm512_shuffle_epi8(high, nibble_hi(v)));

	m->quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
	m->backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
	m->op = _mm512_test_epi8_mask(cls, _mm512_set1_epi8(0x07));
	m->ws = _mm512_test_epi8_mask(cls, _mm512_set1_epi8(0x38));
	m->ctrl = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
}

static inline uint64_t
prefix_xor(uint64_t x)
{
	return (uint64_t) _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (int64_t) x),
															  _mm_set1_epi8((char) 0xff), 0));
}

/* Compress the positions of the set bits into bytes, widen, add base, store. */
static inline uint32_t *
flatten(uint32_t *out, uint64_t bits, uint32_t base)
{
	const __m512i iota = _mm512_set_epi8(
		63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
		47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
		31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
		15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	__m512i		packed = _mm512_maskz_compress_epi8(bits, iota);
	__m512i		b = _mm512_set1_epi32((int) base);
	int			n = __builtin_popcountll(bits);

	_mm512_storeu_si512((void *) out, _mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(packed))));
	if (n > 16)
	{
		_mm512_storeu_si512((void *) (out + 16),
							_mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 1))));
		if (n > 32)
		{
			_mm512_storeu_si512((void *) (out + 32),
								_mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 2))));
			if (n > 48)
				_mm512_storeu_si512((void *) (out + 48),
									_mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 3))));
		}
	}
	return out + n;
}

static inline size_t
copy_until_backslash(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	const __m512i bs = _mm512_set1_epi8('\\');
	size_t		k = 0;

	while (src + k + 64 <= input_end)
	{
		__m512i		v = _mm512_loadu_si512((const void *) (src + k));
		uint64_t	m = _mm512_cmpeq_epi8_mask(v, bs);

		_mm512_storeu_si512((void *) (dst + k), v);
		if (m)
		{
			k += (size_t) __builtin_ctzll(m);
			return k < n ? k : n;
		}
		k += 64;
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
	__mmask32	m = (__mmask32) ((1u << n) - 1);
	/* a plain load is faster; the masked one only where 32 bytes may not be there */
	__m256i		v = src + 32 <= input_end ? _mm256_loadu_si256((const __m256i *) src)
		: _mm256_maskz_loadu_epi8(m, src);

	if (_mm256_mask_cmpeq_epi8_mask(m, v, _mm256_set1_epi8('\\')))
		return false;
	_mm256_storeu_si256((__m256i *) dst, v);
	return true;
}

#include "stage1.h"
#define FJ_KERNEL_HAS_PEXT 1		/* BMI2: stage 2 packs number text with pext */
#include "number_avx2.h"
#include "stage2.h"

#include "text_writer.h"

/* Runs that need no escape, 32 bytes a load; a masked load where 32 bytes may not be there. */
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
		__mmask32	live = m >= 32 ? ~(__mmask32) 0 : (__mmask32) ((1u << m) - 1);
		__m256i		x = m >= 32 || s + i + 32 <= readable_end
			? _mm256_loadu_si256((const __m256i *) (s + i))
			: _mm256_maskz_loadu_epi8(live, s + i);
		__mmask32	hits = _mm256_mask_cmple_epu8_mask(live, x, below_space) |
			_mm256_mask_cmpeq_epi8_mask(live, x, quote) |
			_mm256_mask_cmpeq_epi8_mask(live, x, backslash);

		_mm256_storeu_si256((__m256i *) (d + i), x);
		if (hits)
			return i + (size_t) __builtin_ctz(hits);
		if (m <= 32)
			return n;
		i += 32;
	}
	return n;
}

#include "x86_target_end.h"

/* Compiled for the baseline ISA: it runs on every x86-64 CPU, to ask whether this one can run the kernel. */
static bool
avx512_supported(void)
{
	unsigned	b,
				c;

	/* SSE, AVX, opmask, ZMM upper halves, ZMM16-31 state enabled by the OS */
	return fj_x86_cpu(0xe6, &b, &c) && (b & bit_AVX2) && (b & bit_BMI) && (b & bit_BMI2) &&
		(b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL) && (b & bit_AVX512DQ) &&
		(c & bit_AVX512VBMI) && (c & bit_AVX512VBMI2);
}

#include "utf8_valid.h"

const fj_kernel fj_kernel_avx512 = {"avx512", avx512_supported, kernel_parse, write_json, kernel_utf8_valid};

#endif							/* __x86_64__ */
