/*
 * REFERENCE COPY (test oracle): src/cbor_number.c as of commit 646ea70, before
 * the fast paths; only its #include lines differ. Do not change it: the
 * tests prove that the current code writes exactly the bytes this does.
 *
 * cbor_number.c — the exact number conversions of the CBOR mapping: the
 * shortest round-trip text of a double, whether a JSON number names a double
 * unambiguously, binary16 exactness, and decimal digits <-> bignum bytes.
 *
 * Doubles are converted with integer arithmetic on a table of 128-bit
 * powers of five (cbor_pow5.h): Ryu for double to shortest decimal, one
 * 192-bit product for decimal to double (strtod settles the rare cases that
 * product cannot, and subnormals). No locale is involved. test_cbor.c checks
 * both against glibc's snprintf and strtod. Bignums are arrays of 32-bit
 * limbs, converted a base-10^9 chunk at a time: quadratic, so the loops poll
 * for interrupts.
 */
#include "ref_names.h"
#include "../../src/cbor_pow5.h"
#include "../../src/tape.h"

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

/* The table entry for 5^q as a 128-bit number. */
static inline u128
pow5_entry(int q)
{
	const uint64_t *e = fj_pow5_128[q - FJ_POW5_MIN];

	return (u128) e[0] << 64 | e[1];
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

		mul = q == 0 ? ((u128) 1 << 125) + 1 : (pow5_entry(-(int) q) >> 3) + 1;
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

		mul = pow5_entry(i) >> 3;
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

static const double pow10_exact[23] = {
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
		return q < 0 ? (double) w / pow10_exact[-q] : (double) w * pow10_exact[q];
	if (q < FJ_POW5_MIN || q > FJ_POW5_MAX)
		goto slow;
	lz = __builtin_clzll(w);
	wn = w << lz;
	e = pow5_entry(q);
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

size_t
fj_double_shortest(double d, char *out)
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
	if (a == 0)
	{
		memcpy(o, "0.0", 3);
		return (size_t) (o + 3 - out);
	}
	shortest_decimal(a, &v, &e10);
	n = u64_digits(v, digits);
	x = e10 + n - 1;			/* decimal exponent of the first digit */
	point = x + 1;				/* digits before the decimal point */
	if (point <= -4 || point > 16)
	{
		int			e = x < 0 ? -x : x;

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
	uint64_t	w = 0,
				shortest;
	int			q,
				e10;
	double		v;

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
	v = decimal_to_double(w, q);
	if (!isfinite(v) || v == 0)
		return false;
	*d = n->negative ? -v : v;
	/* up to 15 digits name a normal double unambiguously (DBL_DIG) */
	if (sig <= 15 && v >= DBL_MIN)
		return true;
	shortest_decimal(v, &shortest, &e10);
	return shortest == w && e10 == q;
}

bool
fj_double_to_half(double d, uint16_t *bits)
{
	uint16_t	sign = signbit(d) ? 0x8000 : 0;
	double		a = fabs(d),
				m;
	int			e;

	if (a == 0)
	{
		*bits = sign;
		return true;
	}
	if (!(a <= 65504.0))
		return false;
	if (a < 0x1p-14)
	{
		/* subnormal: a multiple of 2^-24 */
		m = ldexp(a, 24);
		if (m != floor(m))
			return false;
		*bits = (uint16_t) (sign | (uint16_t) m);
		return true;
	}
	frexp(a, &e);				/* a = f * 2^e, f in [0.5, 1) */
	e -= 1;						/* a = 1.m * 2^e, e in [-14, 15] */
	m = ldexp(a, 10 - e) - 1024;	/* the 10 fraction bits, if exact */
	if (m != floor(m))
		return false;
	*bits = (uint16_t) (sign | (uint16_t) ((e + 15) << 10) | (uint16_t) m);
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
