/*
 * cbor_encode.c — tape to CBOR (RFC 8949 §6.2, preferred serialization),
 * written into an fj_buf.
 *
 * The tape is walked iteratively, containers on an explicit stack, as the
 * text writer does. Every head takes the shortest argument (put_head); the
 * number mapping is ours: NUMBER and PACKED texts become a 64-bit integer, a
 * bignum, the shortest exact float or a decimal fraction (see cbor.h). Texts
 * of up to 19 significant digits and a modest exponent (nearly all) are read
 * in one pass over their characters, 8 digits at a time (read_decimal);
 * others go through fj_number_split. With deterministic, each object's members are sorted by the
 * bytewise order of their keys' encodings (for text keys: shorter first,
 * then bytewise) and an equal neighbour is a duplicate key.
 */
#include "cbor.h"
#include "tape.h"
#include "tape_writer.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* A member of an object being written in deterministic order. */
typedef struct emember
{
	const uint8_t *key;			/* the key's tape value */
	const uint8_t *text;		/* its text */
	uint32_t	len;
} emember;

typedef struct eframe
{
	const uint8_t *next;		/* the value after the container */
	const uint8_t *members_end;
	size_t		base;			/* deterministic objects: their members in the member stack */
	size_t		pos;			/* the next of them */
	size_t		left;			/* how many are still to write */
	bool		object;
	bool		in_order;		/* members in tape order (arrays, or not deterministic) */
} eframe;

typedef struct encoder
{
	const fj_allocator *a;
	const fj_cbor_encode_options *opt;
	const uint8_t *root;
	const uint8_t *root_end;	/* the end of the tape value being written */
	fj_buf		out;
	size_t		max_size;
	fj_error   *err;
	fj_poll		poll;
	fj_buf		frames;			/* eframe: the open containers, innermost last */
	fj_buf		members;		/* emember: sorted members of the open deterministic objects */
	fj_buf		digits;			/* a decimal fraction's mantissa digits */
	fj_buf		bytes;			/* a bignum's bytes */
} encoder;

#define POLL_VALUES 65536		/* values written between interrupt polls */

#define NFRAMES(e) ((e)->frames.len / sizeof(eframe))
#define TOP_FRAME(e) ((eframe *) ((e)->frames.data + (e)->frames.len) - 1)
#define NMEMBERS(e) ((e)->members.len / sizeof(emember))
#define MEMBER(e, i) ((emember *) (e)->members.data + (i))

static fj_code
fail(encoder *e, fj_reason reason, const uint8_t *at)
{
	return fj_fail(e->err, reason, at ? (size_t) (at - e->root) : 0);
}

/* Make room for n more bytes of output, when there is not (reserve). */
static fj_code
reserve_more(encoder *e, size_t n)
{
	if (n > SIZE_MAX - e->out.len || (e->max_size && e->out.len + n > e->max_size))
		return fail(e, FJ_R_CBOR_OUTPUT_TOO_BIG, NULL);
	if (!fj_buf_reserve_within(e->a, &e->out, n, e->max_size))
		return fail(e, FJ_R_NOMEM, NULL);
	return FJ_OK;
}

/* Make room for n more bytes of output. */
static inline fj_code
reserve(encoder *e, size_t n)
{
	return e->out.cap - e->out.len >= n ? FJ_OK : reserve_more(e, n);
}

/* CBOR major types, in the high 3 bits of the initial byte. */
#define MT_UINT 0x00
#define MT_NINT 0x20
#define MT_BYTES 0x40
#define MT_TEXT 0x60
#define MT_ARRAY 0x80
#define MT_MAP 0xa0
#define MT_TAG 0xc0

/* Write the head of major type mt with argument v, shortest form, at w (9 bytes of room); returns the end. */
static inline uint8_t *
put_head_at(uint8_t *w, uint8_t mt, uint64_t v)
{
	if (v < 24)
	{
		*w = (uint8_t) (mt | v);
		return w + 1;
	}
	if (v <= 0xff)
	{
		w[0] = mt | 24;
		w[1] = (uint8_t) v;
		return w + 2;
	}
	if (v <= 0xffff)
	{
		w[0] = mt | 25;
		w[1] = (uint8_t) (v >> 8);
		w[2] = (uint8_t) v;
		return w + 3;
	}
	if (v <= 0xffffffffu)
	{
		uint32_t	be = __builtin_bswap32((uint32_t) v);

		w[0] = mt | 26;
		memcpy(w + 1, &be, 4);
		return w + 5;
	}
	{
		uint64_t	be = __builtin_bswap64(v);

		w[0] = mt | 27;
		memcpy(w + 1, &be, 8);
		return w + 9;
	}
}

/* The write position. */
#define WP(e) ((e)->out.data + (e)->out.len)

static inline fj_code
put_head(encoder *e, uint8_t mt, uint64_t v)
{
	fj_code		rc = reserve(e, 9);

	if (rc != FJ_OK)
		return rc;
	e->out.len = (size_t) (put_head_at(WP(e), mt, v) - e->out.data);
	return FJ_OK;
}

static fj_code
put_uint(encoder *e, uint64_t v)
{
	return put_head(e, MT_UINT, v);
}

/* The integer -1 - n. */
static fj_code
put_negint(encoder *e, uint64_t n)
{
	return put_head(e, MT_NINT, n);
}

static fj_code
put_tag(encoder *e, uint64_t tag)
{
	return put_head(e, MT_TAG, tag);
}

/* A head and n bytes of content. */
static inline fj_code
put_string(encoder *e, uint8_t mt, const uint8_t *s, size_t n)
{
	fj_code		rc;
	uint8_t    *w;

	if (n > SIZE_MAX - 9)
		return fail(e, FJ_R_CBOR_OUTPUT_TOO_BIG, NULL);
	if ((rc = reserve(e, 9 + n)) != FJ_OK)
		return rc;
	w = put_head_at(WP(e), mt, n);
	if (n)
		memcpy(w, s, n);
	e->out.len = (size_t) (w + n - e->out.data);
	return FJ_OK;
}

static fj_code
put_text(encoder *e, const uint8_t *s, size_t n)
{
	return put_string(e, MT_TEXT, s, n);
}

static fj_code
put_bytestring(encoder *e, const uint8_t *s, size_t n)
{
	return put_string(e, MT_BYTES, s, n);
}

/* One byte: a simple value or a float's initial byte. */
static inline fj_code
put_byte(encoder *e, uint8_t b)
{
	fj_code		rc = reserve(e, 1);

	if (rc != FJ_OK)
		return rc;
	e->out.data[e->out.len++] = b;
	return FJ_OK;
}

/*
 * A double in the shortest of binary16/32/64 that holds it exactly.
 * (libcbor 0.8's cbor_encode_half, used before, rounded subnormal halves
 * wrongly; binary16 has always been written by hand.)
 */
static inline __attribute__((always_inline)) fj_code
put_double(encoder *e, double d)
{
	uint16_t	half;
	uint64_t	bits;
	uint8_t    *w;
	fj_code		rc = reserve(e, 9);

	if (rc != FJ_OK)
		return rc;
	w = WP(e);
	memcpy(&bits, &d, 8);
	/*
	 * A binary32 value has at most 24 significant bits, so the low 29 of a
	 * double's 52 fraction bits are zero (a binary16 value needs 42): most
	 * doubles are neither, seen at once.
	 */
	if (bits & ((1ULL << 29) - 1))
	{
		bits = __builtin_bswap64(bits);
		w[0] = 0xfb;
		memcpy(w + 1, &bits, 8);
		e->out.len += 9;
	}
	else if (fj_double_to_half(d, &half))
	{
		w[0] = 0xf9;
		w[1] = (uint8_t) (half >> 8);
		w[2] = (uint8_t) half;
		e->out.len += 3;
	}
	else if (fabs(d) <= FLT_MAX && (double) (float) d == d)
	{
		float		f = (float) d;
		uint32_t	fbits;

		memcpy(&fbits, &f, 4);
		fbits = __builtin_bswap32(fbits);
		w[0] = 0xfa;
		memcpy(w + 1, &fbits, 4);
		e->out.len += 5;
	}
	else
	{
		bits = __builtin_bswap64(bits);
		w[0] = 0xfb;
		memcpy(w + 1, &bits, 8);
		e->out.len += 9;
	}
	return FJ_OK;
}

/* Whether the n digits (no leading zeros) are at most limit (20 digits). */
static bool
digits_le(const uint8_t *s, size_t n, const char *limit)
{
	size_t		ln = strlen(limit);

	return n < ln || (n == ln && memcmp(s, limit, n) <= 0);
}

/* The n digits (at most 20, value at most 2^64 - 1 + add) as a uint64, minus sub. */
static uint64_t
digits_u64(const uint8_t *s, size_t n, uint64_t sub)
{
	uint64_t	v = 0;
	size_t		i;

	/* 2^64 itself (for -2^64) wraps to 0 and the subtraction brings it back */
	for (i = 0; i < n; i++)
		v = v * 10 + (uint64_t) (s[i] - '0');
	return v - sub;
}

/*
 * The integer whose magnitude is digits[0..n) (no leading zeros, not zero):
 * major type 0/1 when it fits, else a tag 2/3 bignum.
 */
static fj_code
put_big_integer(encoder *e, bool negative, const uint8_t *digits, size_t n)
{
	fj_code		rc;

	if (!negative && digits_le(digits, n, "18446744073709551615"))
		return put_uint(e, digits_u64(digits, n, 0));
	if (negative && digits_le(digits, n, "18446744073709551616"))
		return put_negint(e, digits_u64(digits, n, 1));
	/* tag 3 holds n = -1 - value = magnitude - 1 */
	rc = fj_decimal_to_bignum(digits, n, negative, e->a, &e->poll, &e->bytes);
	if (rc != FJ_OK)
		return fail(e, rc == FJ_ERR_NOMEM ? FJ_R_NOMEM : FJ_R_INTERRUPTED, NULL);
	if ((rc = put_tag(e, negative ? 3 : 2)) != FJ_OK)
		return rc;
	return put_bytestring(e, e->bytes.data, e->bytes.len);
}

/* ------------------------------------------------------------ numbers */

/* The value of 8 ASCII digits, the first in the lowest byte. */
static inline uint32_t
digits8(uint64_t c)
{
	c -= 0x3030303030303030ULL;
	/* pairs: byte 2k becomes 10 * digit 2k + digit 2k + 1 */
	c = c * 10 + (c >> 8);
	/* (pair 0 * 100 + pair 1) * 10^4 + pair 2 * 100 + pair 3, in bits 32-63 */
	c = ((c & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
		 ((c >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >> 32;
	return (uint32_t) c;
}

/*
 * v * 10^n + the value of the n digits at s (the result below 2^64), 8 at
 * a time: the 8 bytes at s + 8 * (n / 8) are read even when fewer remain.
 */
static inline uint64_t
digits_value(uint64_t v, const uint8_t *s, unsigned n)
{
	static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
	uint64_t	c;

	for (; n >= 8; s += 8, n -= 8)
	{
		memcpy(&c, s, 8);
		v = v * 100000000 + digits8(c);
	}
	if (n)
	{
		/*
		 * The n digits to the top bytes, zero digits below them. Bytes past
		 * the digits may borrow in the subtraction, but only from the bytes
		 * above them, which the shift drops.
		 */
		memcpy(&c, s, 8);
		c = (c - 0x3030303030303030ULL) << (8 * (8 - n));
		v = v * pow10[n] + digits8(c + 0x3030303030303030ULL);
	}
	return v;
}

/* The number of leading digit bytes of the 8 bytes c (0x30-0x39). */
static inline unsigned
digit_run(uint64_t c)
{
	/* a byte below 0x30 sets bit 7 of its difference, one above 0x39 of its sum */
	uint64_t	t = ((c - 0x3030303030303030ULL) | (c + 0x4646464646464646ULL)) & 0x8080808080808080ULL;

	return t ? (unsigned) __builtin_ctzll(t) / 8 : 8;
}

/* The end of the digits starting at p (before end; 8 readable bytes at a time). */
static inline const uint8_t *
skip_digits(const uint8_t *p, const uint8_t *end)
{
	for (;;)
	{
		uint64_t	c;
		unsigned	k;

		memcpy(&c, p, 8);
		k = digit_run(c);
		p += k;
		if (k < 8 || p >= end)
			return p < end ? p : end;
	}
}

/* The number of '0' bytes the n bytes at s start with (8 readable at a time). */
static inline unsigned
leading_zeros(const uint8_t *s, unsigned n)
{
	unsigned	k = 0;

	for (;;)
	{
		uint64_t	c,
					x;
		unsigned	z;

		memcpy(&c, s + k, 8);
		x = c ^ 0x3030303030303030ULL;
		z = x ? (unsigned) __builtin_ctzll(x) / 8 : 8;
		k += z;
		if (z < 8 || k >= n)
			return k < n ? k : n;
	}
}

/*
 * A number text read for the mapping: its significand's digits after any
 * leading zeros (raw, trailing zeros kept, as a decimal fraction's mantissa
 * keeps them), and the exponent of its last digit.
 */
typedef struct decimal
{
	bool		negative;
	bool		integer;		/* no point, no exponent */
	uint64_t	raw;			/* the digits after leading zeros */
	unsigned	raw_len;		/* how many (0: the significand is zero) */
	int64_t		exp;			/* raw * 10^exp is the magnitude */
} decimal;

#define FAST_EXP_MAX 100000000	/* exponents read by read_decimal (as written) */

/*
 * Read the valid number text s[0..len) into x, 8 bytes at a time (8 bytes
 * after the text must be readable and not digits): false if it has more than
 * 19 digits after its leading zeros or an exponent beyond FAST_EXP_MAX,
 * which fj_number_split handles.
 */
static inline bool
read_decimal(const uint8_t *s, size_t len, decimal *x)
{
	const uint8_t *p = s,
			   *end = s + len,
			   *int_start,
			   *frac_start;
	unsigned	int_len,
				frac_len = 0,
				lead;

	x->negative = *p == '-';
	p += x->negative;
	int_start = p;
	p = skip_digits(p, end);
	int_len = (unsigned) (p - int_start);
	x->integer = p == end;
	x->exp = 0;
	frac_start = p + 1;
	if (p < end && *p == '.')
	{
		p = skip_digits(frac_start, end);
		frac_len = (unsigned) (p - frac_start);
	}
	if (p < end)
	{
		/* 'e' or 'E', a sign, digits */
		bool		neg = false;
		int64_t		e = 0;

		p++;
		if (*p == '+' || *p == '-')
			neg = *p++ == '-';
		for (; p < end; p++)
		{
			e = e * 10 + (*p - '0');
			if (e > FAST_EXP_MAX)
				return false;
		}
		x->exp = neg ? -e : e;
	}
	/* leading zeros: only a "0" before the point, then zeros after it */
	if (int_len == 1 && *int_start == '0')
	{
		lead = frac_len ? leading_zeros(frac_start, frac_len) : 0;
		if (frac_len - lead > 19)
			return false;
		x->raw_len = frac_len - lead;
		x->raw = digits_value(0, frac_start + lead, x->raw_len);
	}
	else
	{
		if (int_len + frac_len > 19)
			return false;
		x->raw_len = int_len + frac_len;
		x->raw = digits_value(digits_value(0, int_start, int_len), frac_start, frac_len);
	}
	x->exp -= (int64_t) frac_len;
	return true;
}

#define PACKED_FAST_MAX 24		/* characters read_packed takes: the 12 bytes of nibbles it loads */

#define NIBBLES_BIT3 0x8888888888888888ULL
#define NIBBLES_BIT0 0x1111111111111111ULL

/* The mask of the first k (0-16) nibbles of a word. */
static inline uint64_t
nibbles_below(unsigned k)
{
	return k >= 16 ? ~0ULL : (1ULL << (4 * k)) - 1;
}

/* Bit 3 of each nibble of x that is 10 or more (bit 3 and bit 2 or 1 set). */
static inline uint64_t
nibbles_at_least_10(uint64_t x)
{
	return x & (x << 1 | x << 2) & NIBBLES_BIT3;
}

/* Bit 0 of each nibble of x that is not zero. */
static inline uint64_t
nibbles_nonzero(uint64_t x)
{
	return (x | x >> 1 | x >> 2 | x >> 3) & NIBBLES_BIT0;
}

/*
 * The value of the 16 decimal digits in the nibbles of x, the first in the
 * lowest nibble: pairs, fours, then eights, each step a multiplication on
 * lanes too narrow to carry into the next.
 */
static inline uint64_t
nibbles16_value(uint64_t x)
{
	x = (x & 0x0f0f0f0f0f0f0f0fULL) * 10 + ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL);
	x = (x & 0x00ff00ff00ff00ffULL) * 100 + ((x >> 8) & 0x00ff00ff00ff00ffULL);
	x = (x & 0x0000ffff0000ffffULL) * 10000 + ((x >> 16) & 0x0000ffff0000ffffULL);
	return (x & 0xffffffffULL) * 100000000 + (x >> 32);
}

/* The same for the 8 digits in the nibbles of x. */
static inline uint64_t
nibbles8_value(uint32_t x)
{
	x = (x & 0x0f0f0f0fu) * 10 + ((x >> 4) & 0x0f0f0f0fu);
	x = (x & 0x00ff00ffu) * 100 + ((x >> 8) & 0x00ff00ffu);
	return (uint64_t) (x & 0xffffu) * 10000 + (x >> 16);
}

/*
 * A PACKED fraction read straight from its nibbles, the 12 bytes at nib
 * readable: characters 0-15 in one word and 16-23 in another (n of them, at
 * most PACKED_FAST_MAX), the sign's nibble made a 0 (a leading zero leaves
 * the value alone), the point's (the one nibble of 10 or more then) taken
 * out by moving the nibbles after it down one, and the digits summed 16 and
 * 8 at a time. False for texts read_decimal takes: an integer (no point),
 * or more than 19 digits after the leading zeros. It fills x as
 * read_decimal does.
 */
static inline __attribute__((always_inline)) bool
read_packed(const uint8_t *nib, unsigned n, decimal *x)
{
	uint64_t	lo,
				hi,
				big,
				below,
				nz;
	uint32_t	hi32;
	unsigned	p,
				m,
				lead;

	if (n > PACKED_FAST_MAX || n < 2)
		return false;
	memcpy(&lo, nib, 8);
	memcpy(&hi32, nib + 8, 4);
	lo &= nibbles_below(n);
	hi = n > 16 ? hi32 & nibbles_below(n - 16) : 0;
	x->negative = (lo & 0xf) == 0xd;
	lo &= x->negative ? ~(uint64_t) 0xf : ~(uint64_t) 0;
	/* the point, and the characters after it one nibble down */
	if ((big = nibbles_at_least_10(lo)) != 0)
	{
		p = (unsigned) __builtin_ctzll(big) / 4;
		below = nibbles_below(p);
		lo = (lo & below) | ((lo >> 4) & ~below) | hi << 60;
		hi >>= 4;
	}
	else if ((big = nibbles_at_least_10(hi)) != 0)
	{
		p = 16 + (unsigned) __builtin_ctzll(big) / 4;
		below = nibbles_below(p - 16);
		hi = (hi & below) | ((hi >> 4) & ~below);
	}
	else
		return false;
	m = n - 1;
	/* leading zeros: a first significant digit in the first 16 */
	if ((nz = nibbles_nonzero(lo)) != 0)
		lead = (unsigned) __builtin_ctzll(nz) / 4;
	else if (m <= 16)
		lead = m;
	else
		return false;
	if (m - lead > 19)
		return false;
	if (m <= 16)
		x->raw = nibbles16_value(lo << (4 * (16 - m)));
	else
		x->raw = nibbles16_value(lo) * fj_pow10_u64[m - 16] +
			nibbles8_value((uint32_t) hi << (4 * (24 - m)));
	x->raw_len = m - lead;
	x->integer = false;
	x->exp = -(int64_t) (n - 1 - p);
	return true;
}

/* The integer whose magnitude is m (not zero): -m if negative. */
static inline fj_code
put_signed(encoder *e, bool negative, uint64_t m)
{
	return negative ? put_negint(e, m - 1) : put_uint(e, m);
}

/*
 * A fraction (not integer) of at most 15 digits with 10^|q| exact: its
 * double is one correctly rounded IEEE operation (Clinger), and such a
 * decimal names it unambiguously (DBL_DIG), trailing zeros or not:
 * fj_decimal_is_double's answer, without its steps. False for the others.
 */
static inline __attribute__((always_inline)) bool
clinger_fraction(const decimal *x, double *d)
{
	uint64_t	w = x->raw;
	int64_t		q = x->exp;
	double		v;

	if (x->integer || w == 0 || w >= 1000000000000000ULL || q < -22 || q > 22)
		return false;
	v = q < 0 ? (double) w / fj_pow10_double[-q] : (double) w * fj_pow10_double[q];
	*d = x->negative ? -v : v;
	return true;
}

/*
 * A number read by read_decimal. Floats as fj_number_is_double decides
 * (through fj_decimal_is_double), decimal fractions [exp, raw].
 */
static inline __attribute__((always_inline)) fj_code
put_decimal(encoder *e, const decimal *x)
{
	uint64_t	w = x->raw;
	int			sig = (int) x->raw_len;
	int64_t		q = x->exp;
	double		d;
	fj_code		rc;
	uint8_t    *o;

	if (x->integer)
	{
		/* outside int64, at most 19 digits (or "-0", which is the integer 0) */
		if (x->raw_len == 0)
			return put_uint(e, 0);
		return put_signed(e, x->negative, w);
	}

	if (clinger_fraction(x, &d))
		return put_double(e, d);
	/* drop trailing zeros: the significant digits and their last one's exponent */
	if (w != 0)
	{
		uint64_t	tenth;

		while ((tenth = fj_div10(w)) * 10 == w)
		{
			w = tenth;
			sig--;
			q++;
		}
	}
	if (sig >= 16 && sig <= 17 && q >= -340 && q <= 340)
	{
		int			r;

		/* a text that a shorter one names is no double's: settled in line */
		if (fj_decimal_shorter_neighbours(w, (int) q))
			goto fraction;
		if ((r = fj_decimal_is_double_quick(w, (int) q, &d)) == 1)
			return put_double(e, x->negative ? -d : d);
		if (r == 0)
			goto fraction;
	}
	if (fj_decimal_is_double(x->negative, w, sig, (int) q, &d))
		return put_double(e, d);
fraction:
	/* a decimal fraction [exponent, mantissa]; the significand is not zero here */
	if ((rc = reserve(e, 2 + 9 + 9)) != FJ_OK)
		return rc;
	o = WP(e);
	*o++ = MT_TAG | 4;
	*o++ = MT_ARRAY | 2;
	o = x->exp >= 0 ? put_head_at(o, MT_UINT, (uint64_t) x->exp) : put_head_at(o, MT_NINT, (uint64_t) (-1 - x->exp));
	o = x->negative ? put_head_at(o, MT_NINT, x->raw - 1) : put_head_at(o, MT_UINT, x->raw);
	e->out.len = (size_t) (o - e->out.data);
	return FJ_OK;
}

/* A NUMBER value of any length: see cbor.h for the mapping. */
static fj_code
put_number_text(encoder *e, const uint8_t *v, const uint8_t *text, uint32_t len)
{
	fj_number_parts n;
	double		d;
	size_t		total,
				first;
	int64_t		exp;
	fj_code		rc;

	fj_number_split(text, len, &n);
	if (n.integer)
	{
		/* outside int64 (or "-0", which is the integer 0) */
		if (n.int_len == 1 && n.int_digits[0] == '0')
			return put_uint(e, 0);
		return put_big_integer(e, n.negative, n.int_digits, n.int_len);
	}
	if (fj_number_is_double(&n, &d))
		return put_double(e, d);

	/*
	 * A decimal fraction [exponent, mantissa]: the mantissa is every digit
	 * of the significand after any leading zeros (trailing zeros kept, as
	 * the text has them), the exponent what the text's exponent becomes
	 * once the point moves past the fraction digits.
	 */
	if (n.exp_overflow || n.exp < INT64_MIN + (int64_t) n.frac_len)
		return fail(e, FJ_R_CBOR_EXPONENT, v);
	exp = n.exp - (int64_t) n.frac_len;
	total = n.int_len + n.frac_len;
	e->digits.len = 0;
	if (!fj_buf_reserve(e->a, &e->digits, total))
		return fail(e, FJ_R_NOMEM, NULL);
	memcpy(e->digits.data, n.int_digits, n.int_len);
	memcpy(e->digits.data + n.int_len, n.frac_digits, n.frac_len);
	for (first = 0; first < total && e->digits.data[first] == '0'; first++)
		;
	/* a zero significand always names a double, so first < total here */
	if ((rc = put_tag(e, 4)) != FJ_OK)
		return rc;
	if ((rc = put_head(e, MT_ARRAY, 2)) != FJ_OK)
		return rc;
	if ((rc = exp >= 0 ? put_uint(e, (uint64_t) exp) : put_negint(e, (uint64_t) (-1 - exp))) != FJ_OK)
		return rc;
	return put_big_integer(e, n.negative, e->digits.data + first, total - first);
}

/*
 * The PACKED value v read by read_packed, when it takes it (and its 12-byte
 * load stays within the tape); *next gets the tape value after it either way.
 */
static inline __attribute__((always_inline)) bool
read_packed_value(const encoder *e, const uint8_t *v, decimal *x, const uint8_t **next)
{
	const uint8_t *nibbles;
	uint32_t	len = fj_packed_len(v, &nibbles);

	*next = nibbles + (len + 1) / 2;
	return e->root_end - nibbles >= 12 && read_packed(nibbles, len, x);
}

/* A NUMBER or PACKED value; *next gets the tape value after it. */
static inline fj_code
put_number(encoder *e, const uint8_t *v, const uint8_t **next)
{
	/* the text, then 8 zero bytes (read_decimal reads 8 at a time) */
	uint8_t		buf[FJ_NUMBER_TEXT_BUF + 8];
	const uint8_t *text;
	uint32_t	len;
	decimal		x;

	if (FJ_TYPE(v[0]) == FJ_PACKED)
	{
		const uint8_t *nibbles;

		if (read_packed_value(e, v, &x, next))
			return put_decimal(e, &x);
		len = fj_packed_len(v, &nibbles);
		fj_unpack_number(nibbles, len, (char *) buf);
	}
	else
	{
		len = fj_text(v, &text);
		*next = text + len;
		if (len > FJ_NUMBER_TEXT_BUF)
			return put_number_text(e, v, text, len);
		memcpy(buf, text, len);
	}
	memset(buf + len, 0, 8);
	if (read_decimal(buf, len, &x))
		return put_decimal(e, &x);
	return put_number_text(e, v, buf, len);
}

/* Write one scalar value; *next gets the tape value after it. */
static inline fj_code
put_scalar(encoder *e, const uint8_t *v, const uint8_t **next)
{
	const uint8_t *text;
	uint32_t	len;
	uint8_t		tag = v[0];

	switch (FJ_TYPE(tag))
	{
		case FJ_LITERAL:
			*next = v + 1;
			/* simple values 22 (null), 21 (true), 20 (false) */
			return put_byte(e, FJ_IMM(tag) == FJ_NULL ? 0xf6 : FJ_IMM(tag) == FJ_TRUE ? 0xf5 : 0xf4);
		case FJ_UINT:
			*next = v + 1 + fj_int_extra(tag);
			return put_head(e, MT_UINT, fj_int_magnitude(v));
		case FJ_NINT:
			/* the tape's magnitude field is -1 - value, as CBOR's */
			*next = v + 1 + fj_int_extra(tag);
			return put_head(e, MT_NINT, fj_int_magnitude(v));
		case FJ_NUMBER:
		case FJ_PACKED:
			return put_number(e, v, next);
		default:
			len = fj_text(v, &text);
			/* a string reference's text is elsewhere, before it */
			*next = tag == FJ_STRING_REF ? v + FJ_REF_SIZE : text + len;
			return put_text(e, text, len);
	}
}

/* Order of members by their keys' CBOR encodings: length first, then bytes. */
static int
member_cmp(const void *pa, const void *pb)
{
	const emember *a = pa,
			   *b = pb;
	int			c;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	c = a->len ? memcmp(a->text, b->text, a->len) : 0;
	if (c)
		return c;
	/* equal keys: document order, so the later one is reported */
	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * Push the members of the object obj (count > 0) onto the member stack in
 * deterministic order; a repeated key is an error.
 */
static fj_code
sort_members(encoder *e, const uint8_t *obj, uint32_t count)
{
	const uint8_t *p = fj_container_members(obj);
	emember    *m;
	uint32_t	i;

	if (!(m = fj_buf_push(e->a, &e->members, (size_t) count * sizeof(emember))))
		return fail(e, FJ_R_NOMEM, NULL);
	for (i = 0; i < count; i++)
	{
		m[i].key = p;
		m[i].len = fj_text(p, &m[i].text);
		p = m[i].text + m[i].len;
		p += fj_value_size(p);
	}
	qsort(m, count, sizeof(emember), member_cmp);
	for (i = 1; i < count; i++)
		if (m[i].len == m[i - 1].len && memcmp(m[i].text, m[i - 1].text, m[i].len) == 0)
			return fail(e, FJ_R_CBOR_DUPLICATE, m[i].key);
	return FJ_OK;
}

/*
 * Go on with the next member of a sorted (deterministic) object's frame:
 * write its key, and return its value.
 */
static inline fj_code
next_sorted_member(encoder *e, eframe *f, const uint8_t **value)
{
	const emember *m = MEMBER(e, f->pos++);

	f->left--;
	*value = m->text + m->len;
	return put_text(e, m->text, m->len);
}

/* Whether frame f has written all its members; v is the value after the last one written. */
static inline bool
frame_done(const eframe *f, const uint8_t *v)
{
	return f->in_order ? v == f->members_end : f->left == 0;
}

/* A frame for the container v (count members) on the stack, or NULL when out of memory. */
static eframe *
push_frame(encoder *e, const uint8_t *v, bool object, bool in_order, uint32_t count)
{
	eframe	   *f = fj_buf_push(e->a, &e->frames, sizeof(eframe));

	if (!f)
		return NULL;
	f->object = object;
	f->in_order = in_order;
	f->next = v + fj_value_size(v);
	f->members_end = fj_container_members_end(v);
	f->base = f->pos = NMEMBERS(e);
	f->left = count;
	return f;
}

/*
 * Write scalars from *v on while they last and *v is not end (members of a
 * container in tape order: a key is a scalar, so this stops only at a
 * container value or at end).
 */
static inline fj_code
put_scalars(encoder *e, const uint8_t **v, const uint8_t *end, uint64_t *values)
{
	const uint8_t *p = *v;
	fj_code		rc;

	while (p != end && !fj_is_container(p))
	{
		if (++*values % POLL_VALUES == 0 && e->poll.interrupted && e->poll.interrupted(e->poll.ctx))
			return fail(e, FJ_R_INTERRUPTED, p);
		if (FJ_TYPE(*p) == FJ_PACKED)
		{
			/* put_number's common case in line, without put_scalar's call */
			decimal		x;
			const uint8_t *after;

			if (read_packed_value(e, p, &x, &after))
			{
				p = after;
				if ((rc = put_decimal(e, &x)) != FJ_OK)
					return rc;
				continue;
			}
		}
		if ((rc = put_scalar(e, p, &p)) != FJ_OK)
			return rc;
	}
	*v = p;
	return FJ_OK;
}

static fj_code
encode(encoder *e, const uint8_t *v)
{
	fj_code		rc;
	uint64_t	values = 0;

	for (;;)
	{
		int			type = FJ_TYPE(v[0]);
		eframe	   *f;

		if (++values % POLL_VALUES == 0 && e->poll.interrupted && e->poll.interrupted(e->poll.ctx))
			return fail(e, FJ_R_INTERRUPTED, v);
		if (type == FJ_ARRAY || type == FJ_OBJECT)
		{
			uint32_t	count = fj_container_count(v);
			bool		object = type == FJ_OBJECT,
						in_order = !(object && e->opt->deterministic);

			if ((rc = put_head(e, object ? MT_MAP : MT_ARRAY, count)) != FJ_OK)
				return rc;
			if (count == 0)
				v++;			/* an empty container is its tag */
			else if (in_order)
			{
				/*
				 * Members in tape order: the scalars first, without a frame;
				 * a container of scalars alone (a coordinate pair, a row of
				 * numbers, a flat object) never needs one.
				 */
				unsigned	w = fj_container_width(v[0]);
				const uint8_t *after = v + 1 + 2 * w + fj_container_size(v),
						   *end = fj_container_members_end(v),
						   *p = fj_container_members(v);

				if ((rc = put_scalars(e, &p, end, &values)) != FJ_OK)
					return rc;
				if (p == end)
					v = after;
				else
				{
					if (!(f = push_frame(e, v, object, true, count)))
						return fail(e, FJ_R_NOMEM, NULL);
					v = p;		/* a container value */
					continue;
				}
			}
			else
			{
				if (!(f = push_frame(e, v, object, false, count)))
					return fail(e, FJ_R_NOMEM, NULL);
				if ((rc = sort_members(e, v, count)) != FJ_OK)
					return rc;
				if ((rc = next_sorted_member(e, f, &v)) != FJ_OK)
					return rc;
				continue;
			}
		}
		else
		{
			if ((rc = put_scalar(e, v, &v)) != FJ_OK)
				return rc;
		}

		/*
		 * Close finished containers, then go on with the next member: in
		 * tape order, the scalars that follow, up to a container value.
		 */
		for (;;)
		{
			if (NFRAMES(e) == 0)
				return FJ_OK;
			f = TOP_FRAME(e);
			if (f->in_order && (rc = put_scalars(e, &v, f->members_end, &values)) != FJ_OK)
				return rc;
			if (!frame_done(f, v))
				break;
			if (!f->in_order)
				e->members.len = f->base * sizeof(emember);
			v = f->next;
			e->frames.len -= sizeof(eframe);
		}
		/* in tape order, v is the container value put_scalars stopped at */
		if (!f->in_order && (rc = next_sorted_member(e, f, &v)) != FJ_OK)
			return rc;
	}
}

fj_code
fj_cbor_encode(const uint8_t *v, const fj_cbor_encode_options *opt, fj_buf *out, fj_error *err)
{
	static const fj_cbor_encode_options defaults = {0};
	encoder		e;
	fj_code		rc;
	size_t		guess;

	if (!opt)
		opt = &defaults;
	memset(&e, 0, sizeof(e));
	e.a = opt->alloc ? opt->alloc : &fj_malloc_allocator;
	e.opt = opt;
	e.root = v;
	e.root_end = v + fj_value_size(v);
	e.err = err;
	e.max_size = opt->max_size;
	e.poll.interrupted = opt->interrupted;
	e.poll.ctx = opt->interrupt_ctx;
	fj_error_clear(err);

	/* a first guess: CBOR is usually a little smaller than the tape */
	guess = opt->prefix + fj_value_size(v) + 16;
	if (e.max_size && guess > e.max_size)
		guess = e.max_size;
	rc = reserve(&e, guess);
	if (rc == FJ_OK)
	{
		e.out.len = opt->prefix;
		rc = encode(&e, v);
	}
	fj_buf_release(e.a, &e.frames);
	fj_buf_release(e.a, &e.members);
	fj_buf_release(e.a, &e.digits);
	fj_buf_release(e.a, &e.bytes);
	if (rc != FJ_OK)
	{
		fj_buf_release(e.a, &e.out);
		memset(out, 0, sizeof(*out));
		return rc;
	}
	*out = e.out;
	return FJ_OK;
}
