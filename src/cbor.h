/*
 * cbor.h — fastjson's CBOR mapping (RFC 8949): tape to CBOR bytes and CBOR
 * bytes to tape (cbor_encode.c, cbor_decode.c; no library: libcbor, which
 * they used before, is linked only by the tests' reference copy).
 *
 * Plain C with no PostgreSQL headers, like the rest of the core: memory
 * comes from an fj_allocator, failures come back as an fj_error. doc/cbor.md
 * is the full description of the mapping; in short:
 *
 *   JSON to CBOR (§6.2, preferred serialization)
 *     integers           major type 0/1 with the shortest head (down to
 *                        -2^64, up to 2^64-1), beyond that tag 2/3 bignums
 *     other numbers      the shortest float (16/32/64 bits) that holds the
 *                        double the text names, when the text names exactly
 *                        that double's shortest round-trip value ("1.1",
 *                        "-4.1", "1.0e+300"); otherwise a tag 4 decimal
 *                        fraction (mantissa an integer or bignum), so no
 *                        number loses a digit
 *     objects            maps in document order, duplicates kept; with
 *                        deterministic (§4.2.1) keys sorted bytewise by their
 *                        encodings and duplicate keys an error
 *
 *   CBOR to JSON (§6.1)
 *     byte strings       base64url without padding (inside tag 22: base64,
 *                        inside tag 23: base16, as §6.1 says)
 *     tags 2, 3, 4       exact numbers; every other tag is dropped, its
 *                        content kept
 *     map keys           text strings, or integers (and bignums) as their
 *                        decimal text; anything else is an error
 *     floats             the shortest round-trip text, always with a '.0'
 *                        or an exponent; NaN, infinities, undefined and
 *                        other simple values are errors unless
 *                        substitute_null, which makes them null
 *     indefinite lengths accepted; strings must be valid UTF-8 chunk by chunk
 *
 * Hostile input: nothing is allocated from a declared length or count, only
 * from bytes actually present; containers are tracked on an explicit stack
 * limited by max_depth; every malformed item is an FJ_ERR_CBOR with the byte
 * offset where it starts.
 */
#ifndef FJ_CBOR_H
#define FJ_CBOR_H

#include "fj_core.h"
#include "cbor_pow5.h"
#include "tape_writer.h"

#include <string.h>

/* ---------------------------------------------------------- encoder */

typedef struct fj_cbor_encode_options
{
	const fj_allocator *alloc;	/* NULL: fj_malloc_allocator */
	bool		deterministic;	/* §4.2.1: sorted keys, duplicate keys an error */
	size_t		prefix;			/* bytes reserved before the CBOR (a varlena header) */
	size_t		max_size;		/* limit on prefix + CBOR; 0: none */
	/* polled now and then during long conversions; nonzero stops them */
	int			(*interrupted) (void *ctx);
	void	   *interrupt_ctx;
} fj_cbor_encode_options;

/*
 * Encode the (valid) tape value at v as one CBOR data item. On success
 * out->data holds prefix bytes (uninitialised) then the CBOR, out->len is
 * prefix + CBOR length. On failure out is released and err says why:
 * FJ_ERR_DUPLICATE_KEY (deterministic; err->offset is the tape offset,
 * relative to v, of the repeated key), FJ_ERR_TOO_BIG (a number's exponent
 * does not fit 64 bits, err->offset is the number's tape offset; or the
 * output exceeds max_size), FJ_ERR_NOMEM, FJ_ERR_INTERRUPTED.
 */
fj_code		fj_cbor_encode(const uint8_t *v, const fj_cbor_encode_options *opt,
						   fj_buf *out, fj_error *err);

/* ---------------------------------------------------------- decoder */

typedef struct fj_cbor_decode_options
{
	const fj_allocator *alloc;	/* NULL: fj_malloc_allocator */
	uint32_t	max_depth;		/* 0: FJ_DEFAULT_MAX_DEPTH */
	bool		substitute_null;	/* NaN, infinities, undefined, simple values: null */
	size_t		prefix;			/* bytes reserved before the tape (a varlena header) */
	size_t		max_size;		/* limit on prefix + tape; 0: none */
	int			(*interrupted) (void *ctx);
	void	   *interrupt_ctx;
	const fj_kernel *kernel;	/* validates text strings' UTF-8; NULL: fj_kernel_best() */
} fj_cbor_decode_options;

/*
 * Decode len bytes holding exactly one CBOR data item into a tape. On
 * success out->data holds prefix bytes (uninitialised) then the tape, and
 * out->len is prefix + tape length. On failure out is released and err says
 * why: FJ_ERR_CBOR (malformed, or no JSON form; err->offset is where the
 * offending item starts), FJ_ERR_DEPTH, FJ_ERR_TOO_BIG, FJ_ERR_NOMEM,
 * FJ_ERR_INTERRUPTED.
 */
fj_code		fj_cbor_decode(const uint8_t *cbor, size_t len, const fj_cbor_decode_options *opt,
						   fj_buf *out, fj_error *err);

/* Failures are reported by reason (src/error.h, the FJ_R_CBOR_* rows). */

/* --------------------------------------- numbers (cbor_number.c, internal) */

/*
 * The exact number conversions the mapping needs, shared by the encoder and
 * the decoder and exposed for the unit tests.
 */

/* Longest text fj_double_shortest writes. */
#define FJ_DOUBLE_TEXT_MAX 32

/*
 * The shortest decimal text that reads back as the finite double d, as a
 * JSON number that is never integer-shaped: Python's repr() layout ("1.0",
 * "0.0001", "1e-05", "1e+16", "1.1", "-0.0", "5e-324"). Returns its length.
 */
size_t		fj_double_shortest(double d, char *out);
/* The same; *exponent tells whether the text has an exponent (else it has a point). */
size_t		fj_double_shortest_form(double d, char *out, bool *exponent);
/* 10^0 to 10^22, the powers of ten a double holds exactly. */
extern const double fj_pow10_double[23];

/*
 * For k from -22 to 22, the least d for which the gap between the doubles
 * near d * 10^k is wider than 10^k: d * 10^k >= 2^(floor(log2(10^k)) + 53).
 * (10^k is never a power of two but for k = 0, so from there on 10^k is
 * less than the gap below any double at or above d * 10^k.)
 */
extern const uint64_t fj_shorter_threshold[45];

/*
 * For w * 10^q of 16 or 17 significant digits (w not a multiple of 10): true
 * when a decimal of fewer digits names the same double, found from the
 * decimals of one digit fewer on either side of it, down * 10^(q+1) and
 * (down + 1) * 10^(q+1): its double lies between the doubles they round to,
 * and if those are equal or neighbours, it is one of them (most %.17g texts
 * of doubles whose shortest form has 16 digits). They are when 10^(q+1) is
 * less than the gap between the doubles there (two reals nearer than one
 * gap round at most one double apart): when down is at least
 * fj_shorter_threshold, or at least 2^53, which is past every threshold
 * (within the normal doubles). Otherwise, when both are Clinger-exact, two
 * divisions settle it. False when not settled so (fj_decimal_is_double
 * decides).
 */
static inline bool
fj_decimal_shorter_neighbours(uint64_t w, int q)
{
	uint64_t	down = fj_div10(w),
				bd,
				bu;
	double		vd,
				vu;

	if (down >= (1ULL << 53))
		return q + 1 >= -290 && q + 1 <= 290;
	if (q + 1 < -22 || q + 1 > 22)
		return false;
	if (down >= fj_shorter_threshold[q + 1 + 22])
		return true;
	if (q + 1 < 0)
	{
		vd = (double) down / fj_pow10_double[-(q + 1)];
		vu = (double) (down + 1) / fj_pow10_double[-(q + 1)];
	}
	else
	{
		vd = (double) down * fj_pow10_double[q + 1];
		vu = (double) (down + 1) * fj_pow10_double[q + 1];
	}
	memcpy(&bd, &vd, 8);
	memcpy(&bu, &vu, 8);
	return bu - bd <= 1;
}

/*
 * A shortcut for the doubles that a decimal of at most 15 significant
 * digits names (DBL_DIG): every such decimal reads back as a distinct double,
 * so if the 15-digit rounding t of a, found with one multiplication, reads
 * back as a (one Clinger division, exact), then no other decimal of 15
 * digits or fewer does, and t without its trailing zeros is a's shortest
 * text: a = t * 10^-*k, t of 15 digits. The multiplication may round t the
 * wrong way near a half; then, or when a needs 16 or 17 digits, the answer
 * is false and fj_schubfach decides.
 */
static inline __attribute__((always_inline)) bool
fj_double_shortest_15(double a, uint64_t *t15, int *k15)
{
	int			k,
				e,
				x;
	uint64_t	t,
				bits;

	if (!(a >= 1e-7 && a < 1e15))
		return false;
	/*
	 * floor(log10(a)) is floor(e * log10(2)) or one more, e the binary
	 * exponent: the first guess of 10^(14 - it) may give 16 digits, and then
	 * the next one 15.
	 */
	memcpy(&bits, &a, 8);
	e = (int) (bits >> 52) - 1023;
	/* floor(e * log10(2)), exact for |e| up to 1650 (e is from -24 to 49 here) */
	x = (e * 78913) >> 18;
	k = 14 - x;
	t = (uint64_t) (a * fj_pow10_double[k] + 0.5);
	if (t >= 1000000000000000ULL)
	{
		if (k == 0)
			return false;
		k--;
		t = (uint64_t) (a * fj_pow10_double[k] + 0.5);
	}
	if (t < 100000000000000ULL || t >= 1000000000000000ULL || (double) t / fj_pow10_double[k] != a)
		return false;
	*t15 = t;
	*k15 = k;
	return true;
}

/* The table entry for 5^q (cbor_pow5.h) as a 128-bit number. */
static inline __attribute__((always_inline)) unsigned __int128
fj_pow5_entry(int q)
{
	const uint64_t *e = fj_pow5_128[q - FJ_POW5_MIN];

	return (unsigned __int128) e[0] << 64 | e[1];
}

/* floor(g * cp / 2^128), its lowest bit set when the product has a fraction (rounded to odd). */
static inline __attribute__((always_inline)) uint64_t
fj_round_to_odd(uint64_t g_hi, uint64_t g_lo, uint64_t cp)
{
	unsigned __int128 x = (unsigned __int128) g_lo * cp,
				y = (unsigned __int128) g_hi * cp;
	uint64_t	y0 = (uint64_t) y + (uint64_t) (x >> 64),
				y1 = (uint64_t) (y >> 64) + (y0 < (uint64_t) (x >> 64));

	return y1 | (y0 > 1);
}

/*
 * The shortest decimal that reads back as the positive double with these
 * bits, maybe with zeros after its digits: *digits * 10^*e10, *digits of 15
 * to 17 digits. Among several of that length, the nearest (ties to even),
 * as Ryu (cbor_number.c) gives it. Raffaello Giulietti's Schubfach ("The
 * Schubfach way to render doubles", 2020), written for this file: one
 * 128-bit power of ten g (fj_pow5_128's entry for 10^-k, plus one) scales
 * the value and the two ends of its rounding interval, each product rounded
 * to odd so that an exact end stays recognisable; then at most two tests
 * choose, one digit shorter and the two neighbours at full length. Three
 * products and no loop, where Ryu takes a loop of divisions. Only for normal
 * doubles that are not a power of two, whose interval is symmetric: false
 * for the others (subnormals, 2^e), which Ryu takes.
 */
static inline __attribute__((always_inline)) bool
fj_schubfach(uint64_t bits, uint64_t *digits, int *e10)
{
	uint64_t	ieee_m = bits & ((1ULL << 52) - 1),
				c,
				g_hi,
				g_lo,
				cb,
				vb,
				vbl,
				vbr,
				lower,
				upper,
				s;
	uint32_t	ieee_e = (uint32_t) (bits >> 52) & 0x7ff;
	int			q,
				k,
				h;
	bool		odd,
				u_in,
				w_in;
	unsigned __int128 g;

	if (ieee_m == 0 || ieee_e == 0)
		return false;
	c = (1ULL << 52) | ieee_m;
	q = (int) ieee_e - 1075;	/* the double is c * 2^q */
	k = (q * 315653) >> 20;		/* floor(log10(2^q)) */
	h = q + ((-k * 1741647) >> 19) + 1;	/* q + floor(log2(10^-k)) + 1: 1 to 4 */
	g = fj_pow5_entry(-k) + 1;	/* 10^-k scaled into [2^127, 2^128], rounded up */
	g_hi = (uint64_t) (g >> 64);
	g_lo = (uint64_t) g;
	cb = c << 2;
	/* 4 * c * 2^q * 10^-k, and the ends of the interval that rounds to it */
	vb = fj_round_to_odd(g_hi, g_lo, cb << h);
	vbl = fj_round_to_odd(g_hi, g_lo, (cb - 2) << h);
	vbr = fj_round_to_odd(g_hi, g_lo, (cb + 2) << h);
	/* round to even: the ends belong to the interval when c is even */
	odd = c & 1;
	lower = vbl + odd;
	upper = vbr - odd;
	s = vb >> 2;
	if (s >= 10)
	{
		/* one digit shorter: at most one multiple of 10^(k + 1) fits */
		uint64_t	sp = s / 10;

		u_in = lower <= 40 * sp;
		w_in = 40 * sp + 40 <= upper;
		if (u_in != w_in)
		{
			*digits = sp + w_in;
			*e10 = k + 1;
			return true;
		}
	}
	/* s or s + 1: the one inside, or the nearer (ties to even) */
	u_in = lower <= 4 * s;
	w_in = 4 * s + 4 <= upper;
	*digits = s + (u_in != w_in ? w_in : vb > 4 * s + 2 || (vb == 4 * s + 2 && (s & 1)));
	*e10 = k;
	return true;
}

/*
 * The digits of fj_double_shortest's text for the finite positive a as
 * nibbles (the first in the lowest 4 bits), *n of them, and where the point
 * goes: a = 0.DIGITS * 10^*point. Three ways: fj_double_shortest_15 for
 * the doubles of 15 digits or fewer, the cheapest; fj_schubfach for the
 * other normal doubles; Ryu out of line for subnormals and powers of two.
 */
void		fj_double_shortest_nibbles_ryu(double a, unsigned __int128 *nibbles, unsigned *n, int *point);

static inline __attribute__((always_inline)) void
fj_double_shortest_nibbles(double a, unsigned __int128 *nibbles, unsigned *n, int *point)
{
	uint64_t	t,
				d,
				bits,
				top,
				rest,
				lo;
	int			k;
	unsigned	len;

	if (fj_double_shortest_15(a, &t, &k))
	{
		/* the 15 digits as nibbles; the trailing zeros are the zero nibbles on top */
		d = fj_digits16_nibbles(t) >> 4;
		*nibbles = d;
		*n = 15 - ((unsigned) __builtin_clzll(d) - 4) / 4;
		*point = 15 - k;
		return;
	}
	memcpy(&bits, &a, 8);
	if (!fj_schubfach(bits, &t, &k))
	{
		/*
		 * through locals of its own: were the caller's variables passed,
		 * they would live in memory on every path, and the 16-byte load of
		 * nibbles would wait for its two 8-byte stores
		 */
		unsigned __int128 rn;
		unsigned	rlen;
		int			rpoint;

		fj_double_shortest_nibbles_ryu(a, &rn, &rlen, &rpoint);
		*nibbles = rn;
		*n = rlen;
		*point = rpoint;
		return;
	}
	/*
	 * t has 17 digits or fewer, maybe zeros after them: its 17 digits as
	 * nibbles, leading zeros included, the first in the lowest, then shifted
	 * down past the leading zeros, with no branch on the length. The
	 * trailing zeros are the zero nibbles on top.
	 */
	len = fj_decimal_length(t);
	rest = fj_digits16_nibbles_top(t, &top);
	lo = top | rest << 4;
	*nibbles = ((unsigned __int128) (rest >> 60) << 64 | lo) >> (4 * (17 - len));
	*n = len - ((rest >> 60) ? 0 : 1 + (unsigned) __builtin_clzll(lo) / 4);
	*point = k + (int) len;
}

/* A JSON number's text split into its parts (the text must be valid). */
typedef struct fj_number_parts
{
	bool		negative;
	bool		integer;		/* no fraction and no exponent */
	const uint8_t *int_digits;	/* digits before the point */
	size_t		int_len;
	const uint8_t *frac_digits; /* digits after the point */
	size_t		frac_len;
	int64_t		exp;			/* exponent as written (0 if none) */
	bool		exp_overflow;	/* the exponent does not fit int64 */
} fj_number_parts;

void		fj_number_split(const uint8_t *s, size_t len, fj_number_parts *n);

/*
 * Whether the number n (not integer-shaped) denotes a binary64 value
 * unambiguously: it is finite, and the shortest round-trip text of the
 * nearest double has the same value as n. *d gets that double.
 */
bool		fj_number_is_double(const fj_number_parts *n, double *d);

/*
 * The same for the decimal (-1)^negative * w * 10^q, w of sig digits and
 * not a multiple of 10 (or zero): what fj_number_is_double decides once the
 * text is read, for callers that read it themselves (exact on its own;
 * callers that can put fj_decimal_shorter_neighbours, cheaper, first).
 */
bool		fj_decimal_is_double(bool negative, uint64_t w, int sig, int q, double *d);

/*
 * fj_decimal_is_double's answer for w * 10^q of 16 or 17 significant digits
 * (w not a multiple of 10), found without converting it exactly: a guess at
 * its double from one 64-bit product, moved to the double itself by exact
 * integer comparisons, which then settle the answer. 1 yes (*v gets the
 * magnitude), 0 no, -1 not settled here (q outside -27 to -1, a double at a
 * power of two, a tie, a guess more than three doubles off).
 */
int			fj_decimal_is_double_quick(uint64_t w, int q, double *v);

/*
 * Whether the finite double d is exactly a binary16 value; *bits gets its
 * encoding.
 */
bool		fj_double_to_half(double d, uint16_t *bits);

/* Polled by the long bignum loops: nonzero stops them. */
typedef struct fj_poll
{
	int			(*interrupted) (void *ctx);
	void	   *ctx;
} fj_poll;

/*
 * The n decimal digits (ASCII, no sign) as a big-endian unsigned integer of
 * the fewest bytes (zero: no bytes), minus one if minus_one (the value must
 * then be at least one). The bytes replace out's content.
 */
fj_code		fj_decimal_to_bignum(const uint8_t *digits, size_t n, bool minus_one,
								 const fj_allocator *a, const fj_poll *poll, fj_buf *out);

/*
 * The n-byte big-endian unsigned integer, plus one if plus_one, as decimal
 * digits without leading zeros ("0" for zero). The digits replace out's content.
 */
fj_code		fj_bignum_to_decimal(const uint8_t *bytes, size_t n, bool plus_one,
								 const fj_allocator *a, const fj_poll *poll, fj_buf *out);

#endif							/* FJ_CBOR_H */
