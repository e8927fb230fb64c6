/*
 * tape_writer.h — the encoders of the tape format (src/tape.h): how each
 * value is written in its one canonical encoding, and how a container is
 * closed. Shared by stage 2 (the parser), the builder, the CBOR decoder and
 * the validator (which checks that a tape uses these encodings).
 */
#ifndef FJ_TAPE_WRITER_H
#define FJ_TAPE_WRITER_H

#include "tape.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------- scalars */

/* Write an integer value (UINT or NINT with magnitude m) at w; returns the end. */
static inline uint8_t *
fj_put_int(uint8_t *w, int type, uint64_t m)
{
	if (m <= FJ_INT_INLINE_MAX)
	{
		*w = FJ_TAG(type, m);
		return w + 1;
	}
	if (m <= 0xff)
	{
		w[0] = FJ_TAG(type, 24);
		w[1] = (uint8_t) m;
		return w + 2;
	}
	if (m <= 0xffff)
	{
		uint16_t	v = (uint16_t) m;

		w[0] = FJ_TAG(type, 25);
		memcpy(w + 1, &v, 2);
		return w + 3;
	}
	if (m <= 0xffffffffu)
	{
		uint32_t	v = (uint32_t) m;

		w[0] = FJ_TAG(type, 26);
		memcpy(w + 1, &v, 4);
		return w + 5;
	}
	w[0] = FJ_TAG(type, 27);
	memcpy(w + 1, &m, 8);
	return w + 9;
}

/* Bytes of the header (tag and length) for a NUMBER/STRING of len bytes. */
static inline unsigned
fj_text_header_size(size_t len)
{
	return len <= FJ_LEN_INLINE_MAX ? 1 : len <= 0xff ? 2 : len <= 0xffff ? 3 : 5;
}

/* Write the header of a NUMBER/STRING of len bytes; returns where the text goes. */
static inline uint8_t *
fj_put_text_header(uint8_t *w, int type, size_t len)
{
	if (len <= FJ_LEN_INLINE_MAX)
	{
		*w = FJ_TAG(type, len);
		return w + 1;
	}
	if (len <= 0xff)
	{
		w[0] = FJ_TAG(type, 28);
		w[1] = (uint8_t) len;
		return w + 2;
	}
	if (len <= 0xffff)
	{
		uint16_t	v = (uint16_t) len;

		w[0] = FJ_TAG(type, 29);
		memcpy(w + 1, &v, 2);
		return w + 3;
	}
	else
	{
		uint32_t	v = (uint32_t) len;

		w[0] = FJ_TAG(type, 30);
		memcpy(w + 1, &v, 4);
		return w + 5;
	}
}

/*
 * Whether the valid JSON number text s (not an int64 integer) is stored
 * PACKED: no exponent, at most FJ_PACKED_MAX characters.
 */
static inline bool
fj_number_packable(const uint8_t *s, size_t len)
{
	size_t		i;

	if (len > FJ_PACKED_MAX)
		return false;
	for (i = 0; i < len; i++)
		if ((s[i] | 0x20) == 'e')
			return false;
	return true;
}

/* Write the tag (and length byte) of a PACKED value of n characters at w; returns where its nibbles go. */
static inline __attribute__((always_inline)) uint8_t *
fj_put_packed_header(uint8_t *w, unsigned n)
{
	if (n <= FJ_LEN_INLINE_MAX)
		*w++ = FJ_TAG(FJ_PACKED, n);
	else
	{
		*w++ = FJ_TAG(FJ_PACKED, FJ_LEN_INLINE_MAX + 1);
		*w++ = (uint8_t) n;
	}
	return w;
}

/*
 * Write a PACKED value of the n-character number text s at w (writing up to
 * 3 bytes past it); returns the end.
 */
static inline uint8_t *
fj_put_packed(uint8_t *w, const uint8_t *s, unsigned n)
{
	w = fj_put_packed_header(w, n);
	fj_pack_number(w, s, n, s + n, fj_pack8);
	return w + (n + 1) / 2;
}

/* Write a string reference at w to the STRING value dist bytes before it; returns the end. */
static inline uint8_t *
fj_put_string_ref(uint8_t *w, uint32_t dist)
{
	w[0] = FJ_STRING_REF;
	memcpy(w + 1, &dist, 4);
	return w + FJ_REF_SIZE;
}

/*
 * The 8 digits of x (below 10^8, leading zeros included) as nibbles, the
 * first digit in the lowest: halves, quarters and eighths split in parallel
 * lanes (x / 10^4 and x % 10^4 in two 32-bit lanes, then / 100 in 16-bit
 * lanes, then / 10 in bytes, each division a multiply and shift exact in
 * its range), then the bytes packed.
 */
static inline __attribute__((always_inline)) uint32_t
fj_digits8_nibbles(uint32_t x)
{
	uint64_t	y = (uint64_t) (x / 10000) | (uint64_t) (x % 10000) << 32,
				t;

	t = ((y * 5243) >> 19) & 0x0000007f0000007fULL;	/* / 100, below 10^4 */
	y = t | (y - 100 * t) << 16;
	t = ((y * 103) >> 10) & 0x000f000f000f000fULL;	/* / 10, below 100 */
	y = t | (y - 10 * t) << 8;
	return fj_pack8_values(y);
}

/*
 * The 16 digits of hi * 10^8 + lo (both below 10^8, leading zeros included)
 * as nibbles, the first in the lowest: fj_digits8_nibbles's steps for both
 * halves of 8 digits at once, in the lanes of an SSE2 register where there is one
 * (every x86-64): / 10^4 in the two 64-bit lanes, / 100 in 16-bit lanes,
 * then / 10 and the digit pairs joined into bytes (tens + 16 * units, as
 * 16 * pair - 159 * tens) in 16-bit lanes, packed to bytes.
 */
static inline __attribute__((always_inline)) uint64_t
fj_digits8x2_nibbles(uint64_t hi, uint64_t lo)
{
#ifdef __SSE2__
	__m128i		x = _mm_set_epi64x((long long) lo, (long long) hi),
				q,
				t;

	/* x / 10^4 = x * ceil(2^45 / 10^4) >> 45 for every 32-bit x */
	q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int) 3518437209u)), 45);
	x = _mm_or_si128(q, _mm_slli_epi64(_mm_sub_epi64(x, _mm_mul_epu32(q, _mm_set1_epi32(10000))), 32));
	/* below 10^4: / 100 = * 5243 >> 19 */
	t = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi16(5243)), 3);
	x = _mm_or_si128(t, _mm_slli_epi32(_mm_sub_epi16(x, _mm_mullo_epi16(t, _mm_set1_epi16(100))), 16));
	/* below 100: / 10 = * 6554 >> 16 */
	t = _mm_mulhi_epu16(x, _mm_set1_epi16(6554));
	x = _mm_sub_epi16(_mm_slli_epi16(x, 4), _mm_mullo_epi16(t, _mm_set1_epi16(159)));
	return (uint64_t) _mm_cvtsi128_si64(_mm_packus_epi16(x, x));
#else
	return (uint64_t) fj_digits8_nibbles((uint32_t) hi) |
		(uint64_t) fj_digits8_nibbles((uint32_t) lo) << 32;
#endif
}

/* The 16 digits of v (below 10^16, leading zeros included) as nibbles, the first in the lowest. */
static inline __attribute__((always_inline)) uint64_t
fj_digits16_nibbles(uint64_t v)
{
	uint64_t	hi = fj_div_1e8(v);

	return fj_digits8x2_nibbles(hi, v - hi * 100000000);
}

/*
 * The last 16 digits of v (below 10^20) as nibbles, and in *top the digits
 * before them (v / 10^16): v / 10^8 and v / 10^16 both come from v, side by
 * side, instead of one after the other.
 */
static inline __attribute__((always_inline)) uint64_t
fj_digits16_nibbles_top(uint64_t v, uint64_t *top)
{
	uint64_t	h = fj_div_1e8(v),
				t = fj_div_1e16(v);

	*top = t;
	return fj_digits8x2_nibbles(h - t * 100000000, v - h * 100000000);
}

/* The n digits of v (n its length, 1 to 20) as nibbles, the first in the lowest. */
static inline __attribute__((always_inline)) unsigned __int128
fj_digit_nibbles(uint64_t v, unsigned n)
{
	if (n <= 8)
		return fj_digits8_nibbles((uint32_t) v) >> (4 * (8 - n));
	if (n <= 16)
		return fj_digits16_nibbles(v) >> (4 * (16 - n));
	else
	{
		/* the first n - 16 digits (1 to 4), then 16: two 64-bit halves, no 128-bit shifts */
		unsigned	k = n - 16;
		uint64_t	top,
					rest = fj_digits16_nibbles_top(v, &top),
					first = k == 1 ? top : fj_digits8_nibbles((uint32_t) top) >> (4 * (8 - k));

		return (unsigned __int128) (rest >> (64 - 4 * k)) << 64 | (first | rest << (4 * k));
	}
}

#define FJ_PACKED_FRACTION_MAX 32	/* characters fj_put_packed_fraction writes, at most */

/*
 * The characters of a PACKED fraction fj_put_packed_fraction writes: the
 * sign, then the n digits of v (n its length, 1 to 20, or 1 for 0) with a
 * point after point of them (0 < point < n); for point <= 0, "0." and -point
 * zeros before them; for point >= n, point - n zeros and ".0" after them.
 */
static inline __attribute__((always_inline)) unsigned
fj_packed_fraction_len(bool negative, unsigned n, int point)
{
	return negative + (point <= 0 ? n + 2 + (unsigned) -point : point >= (int) n ? (unsigned) point + 2 : n + 1);
}

/*
 * Write that PACKED value at w, its digits given as nibbles (d: n of them,
 * the first in the lowest), without going through its text: the characters
 * are put together as nibbles in one number (64 bits when they fit, else
 * 128) and written whole, 8 or 16 bytes after the header, so at most 9 +
 * its length bytes from w, no more than its text would take with a header.
 * Its length must be at most FJ_PACKED_FRACTION_MAX. Returns the end.
 */
static inline __attribute__((always_inline)) uint8_t *
fj_put_packed_nibbles(uint8_t *w, bool negative, unsigned __int128 d, unsigned n, int point)
{
	unsigned	len = fj_packed_fraction_len(negative, n, point),
				p = point > 0 ? (unsigned) point : 0;

	w = fj_put_packed_header(w, len);
	if (len <= 16)
	{
		uint64_t	s,
					lo = (uint64_t) d;

		if (point <= 0)
			s = 0xe0 | lo << (4 * (2 + (unsigned) -point));	/* '0' is nibble 0 */
		else if (p >= n)
			s = lo | (uint64_t) 0xe << (4 * p);
		else
			s = (lo & ((1ULL << (4 * p)) - 1)) | (uint64_t) 0xe << (4 * p) | (lo >> (4 * p)) << (4 * (p + 1));
		if (negative)
			s = s << 4 | 0xd;
		memcpy(w, &s, 8);
	}
	else
	{
		unsigned __int128 s;

		uint64_t	lo,
					hi;

		if (point > 0 && p < n && p < 16)
		{
			/* the common case in 64-bit halves: the point goes into the low one */
			uint64_t	dlo = (uint64_t) d,
						mask = (1ULL << (4 * p)) - 1;

			lo = (dlo & mask) | (uint64_t) 0xe << (4 * p) | (dlo & ~mask) << 4;
			hi = (uint64_t) (d >> 64) << 4 | dlo >> 60;
		}
		else
		{
			if (point <= 0)
				s = 0xe0 | d << (4 * (2 + (unsigned) -point));
			else if (p >= n)
				s = d | (unsigned __int128) 0xe << (4 * p);
			else
				s = (d & (((unsigned __int128) 1 << (4 * p)) - 1)) | (unsigned __int128) 0xe << (4 * p) |
					(d >> (4 * p)) << (4 * (p + 1));
			lo = (uint64_t) s;
			hi = (uint64_t) (s >> 64);
		}
		if (negative)
		{
			hi = hi << 4 | lo >> 60;
			lo = lo << 4 | 0xd;
		}
		/* two 8-byte stores (one 16-byte load of a 128-bit value would wait for its halves to reach memory) */
		memcpy(w, &lo, 8);
		memcpy(w + 8, &hi, 8);
	}
	return w + (len + 1) / 2;
}

/* The same, its digits those of v (n of them, its length, or 1 for 0). */
static inline __attribute__((always_inline)) uint8_t *
fj_put_packed_fraction(uint8_t *w, bool negative, uint64_t v, unsigned n, int point)
{
	return fj_put_packed_nibbles(w, negative, fj_digit_nibbles(v, n), n, point);
}

/* ---------------------------------------------------------- containers */

/* The most bytes a container header takes (reserved when it opens). */
#define FJ_CONTAINER_HEADER_MAX 9
/*
 * What the parser reserves for a container with no sibling to predict from
 * (see lead_guess in src/simd/stage2.h): the 2-byte-width header, right for
 * containers of 256 bytes to 64 KB.
 */
#define FJ_CONTAINER_HEADER_GUESS 5

#define FJ_ROOT_WIDE_GUESS (96 * 1024)	/* input bytes after it above which a container gets a wide header */
#define FJ_GUESS_DEPTH 16		/* containers this deep reserve the widest header */
#define FJ_GUESS_SLOTS 16		/* positions in the parent told apart by a lead guess */

/*
 * The bytes the last non-empty array ([0]) and object ([1]) closed at each
 * depth and position in its parent (modulo FJ_GUESS_SLOTS) led its members
 * with (header and front key index). A container reserves as much: in a
 * list of records the record's n-th member looks like the previous
 * record's, and a right guess means nothing moves at close. The parser
 * (src/simd/stage2.h) and the CBOR decoder keep one each.
 */
typedef uint16_t fj_lead_guess[FJ_GUESS_DEPTH][FJ_GUESS_SLOTS][2];

/*
 * What a container opening at depth, in position slot of its parent, with
 * input_after input bytes after its start, reserves: what the same position
 * led with last time; the first time, a container that may well grow past
 * 64 KB (more than FJ_ROOT_WIDE_GUESS bytes of input left) reserves the
 * widest header, any other the 2-byte-width one. Containers nested deeper
 * than FJ_GUESS_DEPTH always reserve the widest, so that a chain of nested
 * large containers slides at most that many times.
 */
static inline __attribute__((always_inline)) unsigned
fj_lead_guess_get(const fj_lead_guess g, unsigned depth, unsigned slot, bool object, size_t input_after)
{
	unsigned	r;

	if (depth >= FJ_GUESS_DEPTH)
		return FJ_CONTAINER_HEADER_MAX;
	r = g[depth][slot][object];
	if (!r)
		r = input_after > FJ_ROOT_WIDE_GUESS ? FJ_CONTAINER_HEADER_MAX : FJ_CONTAINER_HEADER_GUESS;
	return r;
}

/* Remember what a non-empty container just closed led with. */
static inline void
fj_lead_guess_set(fj_lead_guess g, unsigned depth, unsigned slot, bool object, unsigned lead)
{
	if (depth < FJ_GUESS_DEPTH)
		g[depth][slot][object] = (uint16_t) lead;
}

/*
 * Finish a container whose header was reserved at hdr (FJ_CONTAINER_HEADER_MAX
 * bytes) and whose members run to end: pick the narrowest width, write the
 * header and the key index of a large object (before or after the members,
 * fj_key_index_first), moving the members to meet them. Returns the new end.
 * The caller guarantees space for the key index (5 bytes per member) and 8
 * more bytes after end. keys, if not NULL, holds
 * the position of each member's key relative to the first member (saves a
 * walk over the members).
 */
uint8_t    *fj_close_container(uint8_t *hdr, uint8_t *end, uint32_t count, int type,
								const uint32_t *keys);

/*
 * The same for reserved bytes at hdr (at least 1): the members move down
 * when fewer are needed, or up when more are (at most the key index and
 * 9 - reserved header bytes), which the caller must have room for.
 */
uint8_t    *fj_close_container_reserved(uint8_t *hdr, unsigned reserved, uint8_t *end,
										 uint32_t count, int type, const uint32_t *keys);

/* ------------------------------------------------------------- numbers */

/*
 * Write the valid JSON number text s in its one encoding (UINT/NINT,
 * PACKED or NUMBER) at w, which has room for len + 9 bytes; returns the end.
 */
uint8_t    *fj_put_number(uint8_t *w, const uint8_t *s, size_t len);

/* Whether s[0..len) is a JSON number; *int64 tells whether it is an integer that fits int64 (value in *v). */
bool		fj_number_parse(const uint8_t *s, size_t len, bool *int64, int64_t *v);

#endif							/* FJ_TAPE_WRITER_H */
