/*
 * cbor_number.c — the exact number conversions of the CBOR mapping: the
 * shortest round-trip text of a double, whether a JSON number names a double
 * unambiguously, binary16 exactness, and decimal digits <-> bignum bytes.
 *
 * Doubles are converted with integer arithmetic on a table of 128-bit
 * powers of five (cbor_pow5.h, defined here): for double to shortest
 * decimal, a 15-digit shortcut, then Schubfach (fj_schubfach in cbor.h),
 * and Ryu for subnormals and powers of two; one 192-bit product for decimal
 * to double (strtod settles the rare cases that product cannot, and
 * subnormals). No locale is involved. test_cbor.c checks
 * both against glibc's snprintf and strtod. Bignums are arrays of 32-bit
 * limbs, converted a base-10^9 chunk at a time: quadratic, so the loops poll
 * for interrupts.
 */
#define FJ_POW5_TABLE
#include "cbor_pow5.h"
#include "cbor.h"
#include "tape.h"
#include "tape_writer.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------- powers of five, bit tricks */

typedef unsigned __int128 u128;

/* Bit length of 5^e, 0 <= e <= 3528 (Ryu's pow5bits). */
static inline int
pow5_bits(int e)
{
	return (int) (((uint32_t) e * 1217359) >> 19) + 1;
}

/* floor(log10(2^e)), 0 <= e <= 1650. */
static inline uint32_t
log10_pow2(int e)
{
	return ((uint32_t) e * 78913) >> 18;
}

/* floor(log10(5^e)), 0 <= e <= 2620. */
static inline uint32_t
log10_pow5(int e)
{
	return ((uint32_t) e * 732923) >> 20;
}

/* Whether v (nonzero) is a multiple of 5^p. */
static inline bool
multiple_of_pow5(uint64_t v, uint32_t p)
{
	uint32_t	n = 0;

	while (v % 5 == 0)
	{
		v /= 5;
		n++;
	}
	return n >= p;
}

static inline bool
multiple_of_pow2(uint64_t v, uint32_t p)
{
	return (v & ((1ULL << p) - 1)) == 0;
}

/* ------------------------------------------------------ shortest double */

/*
 * The shortest decimal that reads back as the finite positive a: digits
 * (no trailing zeros) and the exponent of the last one, a = *digits * 10^*e10.
 * Among several of that length, the closest to a (ties to even).
 *
 * This is Ulf Adams's Ryu (PLDI 2018), written for this file: the interval
 * of reals that round to a is scaled by a power of ten with 125-bit
 * multipliers (from fj_pow5_128: floor(5^i / 2^(L-125)) and
 * floor(2^(L+124) / 5^q) + 1, L the bit length of 5^|i|), then digits are
 * dropped while both ends of the interval still differ. Exact integers below
 * 2^53 take a shortcut. test_cbor.c checks it against an snprintf/strtod
 * search on millions of doubles.
 */
static void
shortest_decimal(double a, uint64_t *digits, int *e10)
{
	uint64_t	bits,
				ieee_m,
				m2,
				mv,
				vr,
				vp,
				vm,
				mul_lo,
				mul_hi,
				output;
	uint32_t	ieee_e,
				mm_shift;
	int			e2,
				exp10,
				removed = 0;
	bool		accept,
				vm_tz = false,
				vr_tz = false;
	u128		mul;
	uint8_t		last_removed = 0;

	memcpy(&bits, &a, 8);
	ieee_m = bits & ((1ULL << 52) - 1);
	ieee_e = (uint32_t) (bits >> 52) & 0x7ff;

	/* integers below 2^53 */
	if (ieee_e != 0)
	{
		m2 = (1ULL << 52) | ieee_m;
		e2 = (int) ieee_e - 1023 - 52;
		if (e2 <= 0 && e2 >= -52 && (m2 & ((1ULL << -e2) - 1)) == 0)
		{
			output = m2 >> -e2;
			exp10 = 0;
			while (output % 10 == 0)
			{
				output /= 10;
				exp10++;
			}
			*digits = output;
			*e10 = exp10;
			return;
		}
	}

	if (ieee_e == 0)
	{
		e2 = 1 - 1023 - 52 - 2;
		m2 = ieee_m;
	}
	else
	{
		e2 = (int) ieee_e - 1023 - 52 - 2;
		m2 = (1ULL << 52) | ieee_m;
	}
	accept = (m2 & 1) == 0;		/* round-to-even: the ends belong to a's interval */
	mv = 4 * m2;
	mm_shift = ieee_m != 0 || ieee_e <= 1;	/* the gap below is halved at a power of two */

	if (e2 >= 0)
	{
		uint32_t	q = log10_pow2(e2) - (e2 > 3);
		int			shift = -e2 + (int) q + 125 + pow5_bits((int) q) - 1;

		mul = q == 0 ? ((u128) 1 << 125) + 1 : (fj_pow5_entry(-(int) q) >> 3) + 1;
		exp10 = (int) q;
		mul_lo = (uint64_t) mul;
		mul_hi = (uint64_t) (mul >> 64);
#define MUL_SHIFT(m) ((uint64_t) (((((u128) (m) * mul_lo) >> 64) + (u128) (m) * mul_hi) >> (shift - 64)))
		vr = MUL_SHIFT(mv);
		vp = MUL_SHIFT(mv + 2);
		vm = MUL_SHIFT(mv - 1 - mm_shift);
		if (q <= 21)
		{
			/* only one of mp, mv and mm can be a multiple of 5 */
			if (mv % 5 == 0)
				vr_tz = multiple_of_pow5(mv, q);
			else if (accept)
				vm_tz = multiple_of_pow5(mv - 1 - mm_shift, q);
			else
				vp -= multiple_of_pow5(mv + 2, q);
		}
	}
	else
	{
		uint32_t	q = log10_pow5(-e2) - (-e2 > 1);
		int			i = -e2 - (int) q;
		int			shift = (int) q - (pow5_bits(i) - 125);

		mul = fj_pow5_entry(i) >> 3;
		exp10 = (int) q + e2;
		mul_lo = (uint64_t) mul;
		mul_hi = (uint64_t) (mul >> 64);
		vr = MUL_SHIFT(mv);
		vp = MUL_SHIFT(mv + 2);
		vm = MUL_SHIFT(mv - 1 - mm_shift);
#undef MUL_SHIFT
		if (q <= 1)
		{
			/* mv = 4 * m2 has at least two trailing zero bits */
			vr_tz = true;
			if (accept)
				vm_tz = mm_shift == 1;
			else
				vp--;
		}
		else if (q < 63)
			vr_tz = multiple_of_pow2(mv, q);
	}

	if (vm_tz || vr_tz)
	{
		/* the rare general case: an end of the interval is exact */
		while (vp / 10 > vm / 10)
		{
			vm_tz &= vm % 10 == 0;
			vr_tz &= last_removed == 0;
			last_removed = (uint8_t) (vr % 10);
			vr /= 10;
			vp /= 10;
			vm /= 10;
			removed++;
		}
		if (vm_tz)
			while (vm % 10 == 0)
			{
				vr_tz &= last_removed == 0;
				last_removed = (uint8_t) (vr % 10);
				vr /= 10;
				vp /= 10;
				vm /= 10;
				removed++;
			}
		if (vr_tz && last_removed == 5 && vr % 2 == 0)
			last_removed = 4;	/* exactly halfway: round to even */
		output = vr + ((vr == vm && (!accept || !vm_tz)) || last_removed >= 5);
	}
	else
	{
		bool		round_up = false;

		/* four digits at a time while the ends still differ (the last removed decides) */
		while (vp / 10000 > vm / 10000)
		{
			round_up = vr % 10000 >= 5000;
			vr /= 10000;
			vp /= 10000;
			vm /= 10000;
			removed += 4;
		}
		if (vp / 100 > vm / 100)
		{
			round_up = vr % 100 >= 50;
			vr /= 100;
			vp /= 100;
			vm /= 100;
			removed += 2;
		}
		while (vp / 10 > vm / 10)
		{
			round_up = vr % 10 >= 5;
			vr /= 10;
			vp /= 10;
			vm /= 10;
			removed++;
		}
		output = vr + (vr == vm || round_up);
	}
	exp10 += removed;
	while (output % 10 == 0)
	{
		output /= 10;
		exp10++;
	}
	*digits = output;
	*e10 = exp10;
}

/* Write v's decimal digits at out; returns how many. */
static int
u64_digits(uint64_t v, char *out)
{
	return (int) (fj_put_u64_text((uint8_t *) out, v) - (uint8_t *) out);
}

/* ------------------------------------------------ decimal to double */

const uint64_t fj_shorter_threshold[45] = {
	4768371582031250ULL, 7629394531250000ULL, 6103515625000000ULL, 4882812500000000ULL,
	7812500000000000ULL, 6250000000000000ULL, 5000000000000000ULL, 8000000000000000ULL,
	6400000000000000ULL, 5120000000000000ULL, 8192000000000000ULL, 6553600000000000ULL,
	5242880000000000ULL, 8388608000000000ULL, 6710886400000000ULL, 5368709120000000ULL,
	8589934592000000ULL, 6871947673600000ULL, 5497558138880000ULL, 8796093022208000ULL,
	7036874417766400ULL, 5629499534213120ULL, 9007199254740992ULL, 7205759403792794ULL,
	5764607523034235ULL, 4611686018427388ULL, 7378697629483821ULL, 5902958103587057ULL,
	4722366482869646ULL, 7555786372591433ULL, 6044629098073146ULL, 4835703278458517ULL,
	7737125245533627ULL, 6189700196426902ULL, 4951760157141522ULL, 7922816251426434ULL,
	6338253001141148ULL, 5070602400912918ULL, 8112963841460669ULL, 6490371073168535ULL,
	5192296858534828ULL, 8307674973655725ULL, 6646139978924580ULL, 5316911983139664ULL,
	8507059173023462ULL
};

const double fj_pow10_double[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/*
 * w * 10^q correctly rounded to a double, w nonzero: Clinger's fast path
 * when w and 10^|q| are exact doubles (one IEEE operation rounds), else one
 * product with the 128-bit power of five. The product P is below the true
 * value by less than w (the table entry is truncated by less than one), so
 * when no rounding boundary lies in [P, P + w) the rounding is known; the
 * table is exact for 0 <= q <= 55. Otherwise, and for subnormal or infinite
 * results, strtod decides. Lemire's "Number Parsing at a Gigabyte per
 * Second" (2021) uses the same product.
 */
static double
decimal_to_double(uint64_t w, int q)
{
	uint64_t	wn,
				p0,
				p1,
				p2,
				mant,
				rh,
				hh,
				bits;
	u128		e,
				a,
				b,
				mid,
				low;
	int			lz,
				top,
				rbits,
				exp2,
				s,
				biased;
	bool		up;
	char		buf[48];
	double		d;

	if (w <= (1ULL << 53) && q >= -22 && q <= 22)
		return q < 0 ? (double) w / fj_pow10_double[-q] : (double) w * fj_pow10_double[q];
	if (q < FJ_POW5_MIN || q > FJ_POW5_MAX)
		goto slow;
	lz = __builtin_clzll(w);
	wn = w << lz;
	e = fj_pow5_entry(q);
	a = (u128) wn * (uint64_t) (e >> 64);
	b = (u128) wn * (uint64_t) e;
	p0 = (uint64_t) b;
	mid = (b >> 64) + (uint64_t) a;
	p1 = (uint64_t) mid;
	p2 = (uint64_t) (a >> 64) + (uint64_t) (mid >> 64);
	top = (p2 >> 63) ? 191 : 190;	/* a >= 2^126, so p2 >= 2^62 */
	rbits = top - 52 - 128;		/* remainder bits held in p2 */
	mant = p2 >> rbits;
	rh = p2 & ((1ULL << rbits) - 1);
	hh = 1ULL << (rbits - 1);	/* the halfway point, in p2's remainder bits */
	low = (u128) p1 << 64 | p0;
	if (q >= 0 && q <= 55)
	{
		/* exact product */
		if (rh == hh && low == 0)
			up = mant & 1;
		else
			up = rh > hh || (rh == hh && low != 0);
	}
	else
	{
		u128		sum = low + wn;
		uint64_t	rc = rh + (sum < low);

		if (rc < hh || (rc == hh && sum == 0))
			up = false;			/* all of [P, P + w) rounds down */
		else if ((rh > hh || (rh == hh && low != 0)) && (rc < 2 * hh || (rc == 2 * hh && sum == 0)))
			up = true;			/* all of it rounds up */
		else
			goto slow;
	}
	s = q >= 0 ? 128 - pow5_bits(q) : 127 + pow5_bits(-q);
	exp2 = top + q - lz - s;
	mant += up;
	if (mant == (1ULL << 53))
	{
		mant >>= 1;
		exp2++;
	}
	biased = exp2 + 1023;
	if (biased < 1 || biased > 2046)
		goto slow;
	bits = (uint64_t) biased << 52 | (mant & ((1ULL << 52) - 1));
	memcpy(&d, &bits, 8);
	return d;

slow:
	snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long) w, q);
	return strtod(buf, NULL);
}

/* The shortest digits of the finite positive a: a = *digits * 10^*e10, no trailing zeros. */
static void
shortest_digits(double a, uint64_t *digits, int *e10)
{
	uint64_t	bits,
				t;
	int			k;

	if (fj_double_shortest_15(a, &t, &k))
		k = -k;
	else
	{
		memcpy(&bits, &a, 8);
		if (!fj_schubfach(bits, &t, &k))
		{
			shortest_decimal(a, digits, e10);
			return;
		}
	}
	while (t % 10 == 0)
	{
		t /= 10;
		k++;
	}
	*digits = t;
	*e10 = k;
}

void
fj_double_shortest_nibbles_ryu(double a, unsigned __int128 *nibbles, unsigned *n, int *point)
{
	uint64_t	t;
	int			k;

	shortest_decimal(a, &t, &k);
	*n = fj_decimal_length(t);
	*nibbles = fj_digit_nibbles(t, *n);
	*point = k + (int) *n;
}

size_t
fj_double_shortest(double d, char *out)
{
	bool		exponent;

	return fj_double_shortest_form(d, out, &exponent);
}

size_t
fj_double_shortest_form(double d, char *out, bool *exponent)
{
	char		digits[20];
	char	   *o = out;
	double		a = fabs(d);
	uint64_t	v;
	int			n,
				x,
				e10,
				point;

	if (signbit(d))
		*o++ = '-';
	*exponent = false;
	if (a == 0)
	{
		memcpy(o, "0.0", 3);
		return (size_t) (o + 3 - out);
	}
	shortest_digits(a, &v, &e10);
	n = u64_digits(v, digits);
	x = e10 + n - 1;			/* decimal exponent of the first digit */
	point = x + 1;				/* digits before the decimal point */
	if (point <= -4 || point > 16)
	{
		int			e = x < 0 ? -x : x;

		*exponent = true;
		*o++ = digits[0];
		if (n > 1)
		{
			*o++ = '.';
			memcpy(o, digits + 1, (size_t) (n - 1));
			o += n - 1;
		}
		*o++ = 'e';
		*o++ = x < 0 ? '-' : '+';
		if (e < 10)
			*o++ = '0';
		o += u64_digits((uint64_t) e, o);
	}
	else if (point <= 0)
	{
		*o++ = '0';
		*o++ = '.';
		memset(o, '0', (size_t) -point);
		o += -point;
		memcpy(o, digits, (size_t) n);
		o += n;
	}
	else if (point >= n)
	{
		memcpy(o, digits, (size_t) n);
		o += n;
		memset(o, '0', (size_t) (point - n));
		o += point - n;
		memcpy(o, ".0", 2);
		o += 2;
	}
	else
	{
		memcpy(o, digits, (size_t) point);
		o += point;
		*o++ = '.';
		memcpy(o, digits + point, (size_t) (n - point));
		o += n - point;
	}
	return (size_t) (o - out);
}

/* ------------------------------------------------------ number text */

void
fj_number_split(const uint8_t *s, size_t len, fj_number_parts *n)
{
	const uint8_t *p = s,
			   *end = s + len;

	memset(n, 0, sizeof(*n));
	n->integer = true;
	if (p < end && *p == '-')
	{
		n->negative = true;
		p++;
	}
	n->int_digits = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	n->int_len = (size_t) (p - n->int_digits);
	n->frac_digits = p;
	if (p < end && *p == '.')
	{
		n->integer = false;
		n->frac_digits = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		n->frac_len = (size_t) (p - n->frac_digits);
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		neg = false;
		uint64_t	e = 0;

		n->integer = false;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			neg = *p++ == '-';
		for (; p < end && *p >= '0' && *p <= '9'; p++)
		{
			uint64_t	digit = (uint64_t) (*p - '0');

			if (e > ((uint64_t) INT64_MAX - digit) / 10)
				n->exp_overflow = true;
			else
				e = e * 10 + digit;
		}
		if (!n->exp_overflow)
			n->exp = neg ? -(int64_t) e : (int64_t) e;
	}
}

/* Digit i of the number's significand (integer digits, then fraction digits). */
static inline uint8_t
significand_digit(const fj_number_parts *n, size_t i)
{
	return i < n->int_len ? n->int_digits[i] : n->frac_digits[i - n->int_len];
}

bool
fj_number_is_double(const fj_number_parts *n, double *d)
{
	size_t		total = n->int_len + n->frac_len,
				first,
				last,
				sig,
				i;
	int64_t		adjusted;
	uint64_t	w = 0;
	int			q;

	for (first = 0; first < total && significand_digit(n, first) == '0'; first++)
		;
	if (first == total)
	{
		/* zero, whatever the exponent: the double zero of that sign */
		*d = n->negative ? -0.0 : 0.0;
		return true;
	}
	for (last = total; significand_digit(n, last - 1) == '0'; last--)
		;
	sig = last - first;
	if (sig > 17 || n->exp_overflow || n->exp > INT64_MAX / 2 || n->exp < INT64_MIN / 2)
		return false;
	/* the decimal exponent of the first significant digit */
	adjusted = (int64_t) n->int_len - 1 - (int64_t) first + n->exp;
	if (adjusted > 308 || adjusted < -324)
		return false;
	for (i = first; i < last; i++)
		w = w * 10 + (uint64_t) (significand_digit(n, i) - '0');
	q = (int) (adjusted - (int64_t) sig + 1);
	if (sig >= 16 && fj_decimal_shorter_neighbours(w, q))
		return false;
	return fj_decimal_is_double(n->negative, w, (int) sig, q, d);
}

/*
 * Whether a decimal has fewer significant digits than n and rounds to v:
 * v is the nearest double to w * 10^q, w of n digits (16 or 17) and not a
 * multiple of 10. The reals that round to v form an interval around
 * w * 10^q, and any decimal of fewer digits in it lies beyond the nearest
 * multiple of 10^(q+1) on its side (or a power of ten does, which is such a
 * multiple): so one of the two multiples next to w * 10^q, of at most n - 1
 * digits each, rounds to v exactly when some shorter decimal does. Both are
 * usually Clinger-exact (fewer than 16 digits, small q): a division each.
 */
static bool
shorter_rounds_to(uint64_t w, int q, double v)
{
	uint64_t	down = w / 10;

	return decimal_to_double(down, q + 1) == v || decimal_to_double(down + 1, q + 1) == v;
}

/* 5^0 to 5^27, the powers of five below 2^63. */
static const uint64_t pow5_u64[28] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL,
	1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL,
	30517578125ULL, 152587890625ULL, 762939453125ULL, 3814697265625ULL,
	19073486328125ULL, 95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
	11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
	1490116119384765625ULL, 7450580596923828125ULL
};

/* |a - b|, with no branch. */
static inline u128
distance(u128 a, u128 b)
{
	u128		d = a - b,
				neg = -(u128) (a < b);

	return (d ^ neg) - neg;
}

/*
 * Whether w * 10^q (16 or 17 digits, w not a multiple of 10, -27 <= q < 0)
 * is the shortest text of the double m * 2^e2 (m from 2^52 to 2^53
 * exclusive: not a power of two) nearest to it, decided with exact integer
 * arithmetic: 1 yes, 0 no, -1 not decided here (Ryu decides). The double
 * may be a guess: -2 when w * 10^q rounds to a double above it, -3 below.
 *
 * v = m * 2^e2 and 10^q = 2^q * 5^q, so in units of 10^q * 2^(k-1), with
 * k = e2 - q < 0 and s = 1 - k, every quantity is an integer below 2^128:
 * v is 2 * m * 5^-q, w is w << s, and half the gap from v to each of its
 * neighbouring doubles is 5^-q (m is not a power of two, so both gaps are
 * equal); w * 10^q rounds to v when it lies within that half gap (on its
 * end when m is even). The text is the shortest exactly when no decimal of
 * fewer digits lies in the interval of reals that round to v (one of the
 * two multiples of 10^(q+1) next to w would, as shorter_rounds_to
 * explains), and it is the one Ryu picks among those of its length when it
 * is the nearest to v of them: closer than half a step of 10^q (a tie is
 * left to Ryu). The test of the shorter decimals is made without a branch.
 */
static inline __attribute__((always_inline)) int
shortest_at(uint64_t w, int q, uint64_t m, int e2)
{
	int			s = 1 - (e2 - q);
	uint64_t	p5 = pow5_u64[-q],
				down = w - w % 10;
	u128		reach,
				vv,
				ww,
				dist,
				half;
	bool		inside;

	if (s < 2 || s > 70)
		return -1;				/* k >= 0, or w << s past 2^128 (w < 2^57) */
	/* the half gap, one more when m is even: a tie rounds to v, and lies inside */
	reach = (u128) p5 + (~m & 1);
	vv = 2 * ((u128) m * p5);
	ww = (u128) w << s;
	dist = distance(ww, vv);
	if (dist >= reach)
		return ww > vv ? -2 : -3;
	half = (u128) 1 << (s - 1);
	if (dist >= half)
		return dist > half ? 0 : -1;	/* another decimal of this length is nearer, or a tie */
	inside = (unsigned) (distance((u128) down << s, vv) < reach) |
		(unsigned) (distance((u128) (down + 10) << s, vv) < reach);
	return !inside;
}

/* shortest_at for v, the double nearest to w * 10^q (never -2 or -3 then). */
static int
nearest_shortest(uint64_t w, int q, double v)
{
	uint64_t	bits,
				m;

	if (q >= 0 || q < -27)
		return -1;
	memcpy(&bits, &v, 8);
	m = bits & ((1ULL << 52) - 1);
	if (m == 0 || (bits >> 52) == 0)
		return -1;				/* a power of two (gaps differ), or subnormal */
	return shortest_at(w, q, m | 1ULL << 52, (int) (bits >> 52) - 1075);
}

/* The double m * 2^e2, m from 2^52 to 2^53 exclusive (a normal double). */
static inline void
put_double_bits(double *v, uint64_t m, int e2)
{
	uint64_t	bits = (uint64_t) (e2 + 1075) << 52 | (m & ((1ULL << 52) - 1));

	memcpy(v, &bits, 8);
}

/*
 * shortest_at's answer in 64-bit arithmetic, for q from -25 to -1 and s
 * (as there) from 2 to 63, moving the guess m to the double itself as
 * fj_decimal_is_double_quick does. The distance D = ww - vv is what decides,
 * and it is small: w * 10^q lies within half a gap of its double, which is
 * within a gap of the guess, so |D| is at most three half gaps (3 * 5^-q,
 * below 2^63 while q >= -25), and the low 64 bits of ww and vv give it
 * exactly. The shorter decimals' test needs no more: down * 2^s - vv is
 * D - (w mod 10) * 2^s, negative (since |D| < 2^(s-1) there), so it is
 * within the half gap when (w mod 10) * 2^s < reach + D (which is positive
 * and below 2^62); the same for down + 10 on the other side. -1 when the
 * guess leaves its binade.
 */
static inline int
shortest_near(uint64_t w, int q, uint64_t m, int e2, int s, double *v)
{
	uint64_t	p5 = pow5_u64[-q],
				dw = w % 10,
				step = 2 * p5,
				reach,
				dist,
				half;
	int64_t		d = (int64_t) ((w << s) - 2 * m * p5);
	int			i;
	bool		inside;

	for (i = 0; i < 3; i++)
	{
		if (m <= (1ULL << 52) || m >= (1ULL << 53))
			return -1;			/* a power of two (the gaps differ), or past it */
		reach = p5 + (~m & 1);
		/* |d| without a branch: its sign is a coin toss */
		dist = ((uint64_t) d ^ (uint64_t) (d >> 63)) - (uint64_t) (d >> 63);
		if (dist < reach)
		{
			put_double_bits(v, m, e2);
			half = 1ULL << (s - 1);
			if (dist >= half)
				return dist > half ? 0 : -1;	/* another decimal of this length is nearer, or a tie */
			/* k * 2^s < x (x >= 1) when k <= (x - 1) >> s */
			inside = (unsigned) (dw <= (reach + (uint64_t) d - 1) >> s) |
				(unsigned) (10 - dw <= (reach - (uint64_t) d - 1) >> s);
			return !inside;
		}
		/* the guess is one double off: w * 10^q is above it (d > 0) or below */
		if (d > 0)
		{
			m++;
			d -= (int64_t) step;
		}
		else
		{
			m--;
			d += (int64_t) step;
		}
	}
	return -1;
}

/*
 * The same in 128 bits, for the q and s shortest_near does not take (kept
 * out of line, so that the common case saves no registers for it).
 */
static __attribute__((noinline)) int
shortest_wide(uint64_t w, int q, uint64_t m, int e2, double *v)
{
	int			i,
				r;

	for (i = 0; i < 3; i++)
	{
		if (m <= (1ULL << 52) || m >= (1ULL << 53))
			return -1;			/* a power of two (the gaps differ), or past it */
		r = shortest_at(w, q, m, e2);
		if (r >= -1)
		{
			put_double_bits(v, m, e2);
			return r;
		}
		m += r == -2 ? 1 : -1;
	}
	return -1;
}

int
fj_decimal_is_double_quick(uint64_t w, int q, double *v)
{
	uint64_t	hi,
				m;
	int			lz,
				top,
				e2,
				s;

	if (q < -27 || q > -1 || w >= (1ULL << 57) || w == 0)
		return -1;
	/*
	 * A guess from the top 64 bits of w times the power of five's top 64
	 * (decimal_to_double's product, cut short): its leading 53 bits,
	 * rounded, are the nearest double's or one off.
	 */
	lz = __builtin_clzll(w);
	hi = (uint64_t) (((u128) (w << lz) * fj_pow5_128[q - FJ_POW5_MIN][0]) >> 64);
	top = (int) (hi >> 63);		/* the leading one is bit 63 or 62 */
	m = hi >> (9 + top);
	m = (m + 1) >> 1;
	e2 = 190 + top + q - lz - (127 + pow5_bits(-q)) - 52;
	if (m == (1ULL << 53))
	{
		m >>= 1;
		e2++;
	}
	s = 1 - (e2 - q);
	if (q >= -25 && s >= 2 && s <= 63)
		return shortest_near(w, q, m, e2, s, v);
	return shortest_wide(w, q, m, e2, v);
}

bool
fj_decimal_is_double(bool negative, uint64_t w, int sig, int q, double *d)
{
	int			adjusted = q + sig - 1,
				e10;
	uint64_t	shortest;
	double		v;

	if (w == 0)
	{
		*d = negative ? -0.0 : 0.0;
		return true;
	}
	if (sig > 17 || adjusted > 308 || adjusted < -324)
		return false;
	v = decimal_to_double(w, q);
	if (!isfinite(v) || v == 0)
		return false;
	*d = negative ? -v : v;
	/* up to 15 digits name a normal double unambiguously (DBL_DIG) */
	if (sig <= 15 && v >= DBL_MIN)
		return true;
	/*
	 * 16 or 17 digits: the text is v's shortest form only if no shorter
	 * decimal rounds to v (a cheap test that settles most texts that are not,
	 * such as %.17g output of doubles whose shortest form has 16 digits);
	 * then Ryu decides among those of the text's length.
	 */
	if (sig >= 16 && v >= DBL_MIN)
	{
		int			r = nearest_shortest(w, q, v);

		if (r >= 0)
			return r;
		if (shorter_rounds_to(w, q, v))
			return false;
	}
	shortest_decimal(v, &shortest, &e10);
	return shortest == w && e10 == q;
}

bool
fj_double_to_half(double d, uint16_t *bits)
{
	uint64_t	b;
	uint16_t	sign;
	int			e;
	uint64_t	m;

	memcpy(&b, &d, 8);
	sign = (uint16_t) (b >> 48) & 0x8000;
	e = (int) ((b >> 52) & 0x7ff) - 1023;	/* unbiased; -1023 for zero and subnormals */
	m = b & ((1ULL << 52) - 1);
	if (e == -1023 && m == 0)
	{
		*bits = sign;
		return true;
	}
	/* above 65504 (the largest binary16), below 2^-24 (the smallest), or not finite */
	if (e > 15 || e < -24 || (e == 15 && m > 0x3ffULL << 42))
		return false;
	if (e >= -14)
	{
		/* normal: 10 fraction bits, the other 42 zero */
		if (m & ((1ULL << 42) - 1))
			return false;
		*bits = (uint16_t) (sign | (uint16_t) ((e + 15) << 10) | (uint16_t) (m >> 42));
		return true;
	}
	/* subnormal: a multiple of 2^-24, (2^52 + m) * 2^(e - 52) = k * 2^-24 */
	m |= 1ULL << 52;
	if (m & ((1ULL << (28 - e)) - 1))
		return false;
	*bits = (uint16_t) (sign | (uint16_t) (m >> (28 - e)));
	return true;
}

/* ------------------------------------------------------------- bignums */

#define POLL_WORK (1u << 22)	/* limb operations between interrupt polls */

/* Count work; poll when enough has been done. */
static inline bool
poll_due(const fj_poll *poll, uint64_t *work, uint64_t done)
{
	*work += done;
	if (*work < POLL_WORK)
		return false;
	*work = 0;
	return poll && poll->interrupted && poll->interrupted(poll->ctx);
}

/* Make out hold at least n bytes (its content need not survive). */
static fj_code
buf_room(const fj_allocator *a, fj_buf *out, size_t n)
{
	out->len = 0;
	return fj_buf_reserve(a, out, n ? n : 1) ? FJ_OK : FJ_ERR_NOMEM;
}

fj_code
fj_decimal_to_bignum(const uint8_t *digits, size_t n, bool minus_one,
					 const fj_allocator *a, const fj_poll *poll, fj_buf *out)
{
	size_t		cap = n / 9 + 2,
				count = 0,
				i,
				pos = 0,
				nbytes;
	uint32_t   *limbs;
	uint64_t	work = 0;
	fj_code		rc = FJ_OK;
	uint8_t    *o;

	limbs = a->alloc(a->ctx, cap * sizeof(uint32_t));
	if (!limbs)
		return FJ_ERR_NOMEM;
	while (pos < n)
	{
		size_t		chunk = pos == 0 && n % 9 ? n % 9 : 9;
		uint64_t	carry = 0,
					mul = 1;

		for (i = 0; i < chunk; i++)
		{
			carry = carry * 10 + (uint64_t) (digits[pos + i] - '0');
			mul *= 10;
		}
		pos += chunk;
		for (i = 0; i < count; i++)
		{
			uint64_t	t = (uint64_t) limbs[i] * mul + carry;

			limbs[i] = (uint32_t) t;
			carry = t >> 32;
		}
		if (carry)
			limbs[count++] = (uint32_t) carry;
		if (poll_due(poll, &work, count + 1))
		{
			rc = FJ_ERR_INTERRUPTED;
			goto done;
		}
	}
	if (minus_one)
	{
		for (i = 0; i < count && limbs[i] == 0; i++)
			limbs[i] = UINT32_MAX;
		if (i < count)
			limbs[i]--;
	}
	while (count > 0 && limbs[count - 1] == 0)
		count--;
	if ((rc = buf_room(a, out, count * 4)) != FJ_OK)
		goto done;
	/* big-endian, without leading zero bytes */
	o = out->data;
	for (i = count; i-- > 0;)
	{
		int			b;

		for (b = 3; b >= 0; b--)
		{
			uint8_t		byte = (uint8_t) (limbs[i] >> (8 * b));

			if (o == out->data && byte == 0)
				continue;
			*o++ = byte;
		}
	}
	nbytes = (size_t) (o - out->data);
	out->len = nbytes;
done:
	a->release(a->ctx, limbs);
	return rc;
}

fj_code
fj_bignum_to_decimal(const uint8_t *bytes, size_t n, bool plus_one,
					 const fj_allocator *a, const fj_poll *poll, fj_buf *out)
{
	size_t		count,
				i,
				ndigits;
	uint32_t   *limbs;
	uint64_t	work = 0;
	uint8_t    *d,
			   *end;
	fj_code		rc = FJ_OK;

	while (n > 0 && bytes[0] == 0)
	{
		bytes++;
		n--;
	}
	count = (n + 3) / 4 + 1;
	limbs = a->alloc(a->ctx, count * sizeof(uint32_t));
	if (!limbs)
		return FJ_ERR_NOMEM;
	memset(limbs, 0, count * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		limbs[i / 4] |= (uint32_t) bytes[n - 1 - i] << (8 * (i % 4));
	if (plus_one)
		for (i = 0; i < count && ++limbs[i] == 0; i++)
			;
	while (count > 0 && limbs[count - 1] == 0)
		count--;
	/* 2^32 < 10^10: at most 10 digits per limb */
	ndigits = count * 10 + 10;
	if ((rc = buf_room(a, out, ndigits)) != FJ_OK)
		goto done;
	end = out->data + ndigits;
	d = end;
	while (count > 0)
	{
		uint64_t	rem = 0;
		int			k;

		for (i = count; i-- > 0;)
		{
			uint64_t	t = rem << 32 | limbs[i];

			limbs[i] = (uint32_t) (t / 1000000000u);
			rem = t % 1000000000u;
		}
		while (count > 0 && limbs[count - 1] == 0)
			count--;
		for (k = 0; k < 9; k++)
		{
			*--d = (uint8_t) ('0' + rem % 10);
			rem /= 10;
		}
		if (poll_due(poll, &work, count + 1))
		{
			rc = FJ_ERR_INTERRUPTED;
			goto done;
		}
	}
	while (d < end && *d == '0')
		d++;
	if (d == end)
		*--d = '0';
	out->len = (size_t) (end - d);
	memmove(out->data, d, out->len);
done:
	a->release(a->ctx, limbs);
	return rc;
}
