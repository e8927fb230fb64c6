/*
 * stage2_number.h — stage 2's numbers: the JSON number grammar, eight
 * digits at a time, and the number's one encoding on the tape (an int64
 * integer, a packed number, or its text).
 */
#ifndef FJ_STAGE2_NUMBER_H
#define FJ_STAGE2_NUMBER_H

#include "stage2_state.h"

/* Bytes of x that are not ASCII digits: bit 7 of each set. */
static inline uint64_t
stage2_nondigits(uint64_t x)
{
	/* below '0': the subtraction sets bit 7; above '9': the addition does */
	return ((x - 0x3030303030303030ULL) | (x + 0x4646464646464646ULL)) & 0x8080808080808080ULL;
}

/* How many ASCII digits start at p (up to end), eight at a time. */
static inline size_t
stage2_digit_run(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q = p;

	while (end - q >= 8)
	{
		uint64_t	x,
					nondigit;

		memcpy(&x, q, 8);
		nondigit = stage2_nondigits(x);
		if (nondigit)
			return (size_t) (q - p) + (size_t) (__builtin_ctzll(nondigit) >> 3);
		q += 8;
	}
	while (q < end && (unsigned) (*q - '0') < 10)
		q++;
	return (size_t) (q - p);
}

/* The value of the first n (1 to 8) bytes of x, ASCII digits, first byte most significant. */
static inline uint64_t
stage2_swar_value(uint64_t x, size_t n)
{
	/* digits to 0..9 (a borrow only climbs into the bytes after them), then the first n to the top */
	x = (x - 0x3030303030303030ULL) << (8 * (8 - n));
	/* pairs, quads, then all eight: the leading zero bytes are leading zero digits */
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffULL;
	return (x * 10000 + (x >> 32)) & 0xffffffffULL;
}

/*
 * The digit run at q (its first byte a digit) and its value, eight bytes at
 * a time, for runs of up to 15 digits with 16 bytes readable; false otherwise
 * (the caller counts them itself).
 */
static inline bool
stage2_int_digits(const uint8_t *q, const uint8_t *end, size_t *n, uint64_t *v)
{
	uint64_t	a,
				b,
				nd;

	if (end - q < 16)
		return false;
	memcpy(&a, q, 8);
	if ((nd = stage2_nondigits(a)) != 0)
	{
		*n = (size_t) __builtin_ctzll(nd) >> 3;
		*v = stage2_swar_value(a, *n);
		return true;
	}
	memcpy(&b, q + 8, 8);
	if ((nd = stage2_nondigits(b)) == 0)
		return false;
	*n = (size_t) __builtin_ctzll(nd) >> 3;
	*v = stage2_swar_value(a, 8) * fj_pow10_u64[*n] + (*n ? stage2_swar_value(b, *n) : 0);
	*n += 8;
	return true;
}

/*
 * With 16 bytes readable at q (a digit): the length n of the digit run when
 * a fraction or exponent follows it (false: the integer's value is not
 * needed), else true (the caller computes the value).
 */
static inline bool
stage2_int_value_wanted(const uint8_t *q, size_t *n)
{
	uint64_t	a,
				nd;

	memcpy(&a, q, 8);
	if ((nd = stage2_nondigits(a)) == 0)
		return true;
	*n = (size_t) __builtin_ctzll(nd) >> 3;
	return q[*n] != '.' && (q[*n] | 0x20) != 'e';
}

/* 8 number characters to 8 nibbles (fj_pack8), with pext where the kernel has BMI2. */
static inline uint32_t
stage2_pack8(uint64_t c)
{
#if defined(FJ_KERNEL_HAS_PEXT)
	return (uint32_t) _pext_u64(fj_pack8_codes(c), 0x0f0f0f0f0f0f0f0fULL);
#else
	return fj_pack8(c);
#endif
}

#if defined(FJ_KERNEL_HAS_NUMBER_MASKS)
/*
 * The common numbers at start in one pass over the kernel's masks of the 32
 * bytes there: an integer, or digits with one '.' between digits, shorter
 * than 32 characters and followed by a byte that may end a value. Writes it
 * at wp (an int64 integer, else PACKED; up to 19 bytes, whatever its length)
 * and returns the end; NULL for anything else (an exponent, a longer number,
 * an error), which stage2_number then reads a character at a time.
 */
static inline __attribute__((always_inline)) uint8_t *
stage2_number_fast(uint8_t *wp, const uint8_t *start, const uint8_t *end)
{
	uint32_t	digits,
				signs,
				stop,
				other;
	unsigned	n,
				s,
				k;

	if (!number_masks(start, end, &digits, &signs))
		return NULL;
	stop = ~(digits | signs);
	if (stop == 0)
		return NULL;
	n = (unsigned) __builtin_ctz(stop);
	s = start[0] == '-';
	/* the signs inside the number, but a leading minus */
	other = signs & ((1u << n) - 1) & ~s;
	/* a digit after the minus, a leading zero not followed by a digit, a byte that ends a value */
	if (!((digits >> s) & 1) || (start[s] == '0' && ((digits >> (s + 1)) & 1)) ||
		!fj_value_end[start[n]])
		return NULL;
	if (other == 0 && (k = n - s) <= 19)
	{
		uint64_t	a,
					b,
					c,
					v;

		memcpy(&a, start + s, 8);
		if (k <= 8)
			v = stage2_swar_value(a, k);
		else
		{
			memcpy(&b, start + s + 8, 8);
			if (k <= 16)
				v = stage2_swar_value(a, 8) * fj_pow10_u64[k - 8] + stage2_swar_value(b, k - 8);
			else
			{
				memcpy(&c, start + s + 16, 8);
				v = (stage2_swar_value(a, 8) * 100000000 + stage2_swar_value(b, 8)) * fj_pow10_u64[k - 16] +
					stage2_swar_value(c, k - 16);
			}
		}
		if (!s && v <= (uint64_t) INT64_MAX)
			return fj_put_int(wp, FJ_UINT, v);
		if (s && v != 0 && v <= (uint64_t) INT64_MAX + 1)
			return fj_put_int(wp, FJ_NINT, v - 1);
		/* -0 and integers past int64 keep their text */
	}
	else if (other != 0)
	{
		/* one '.', with a digit after it (every other byte is a digit, so one is before it too) */
		k = (unsigned) __builtin_ctz(other);
		if ((other & (other - 1)) != 0 || start[k] != '.' || k + 1 >= n)
			return NULL;
	}
	wp = fj_put_packed_header(wp, n);
	number_pack32(wp, start, n);
	return wp + (n + 1) / 2;
}
#endif

/* Write the number starting at i: an integer if it is one that fits int64, else its text. */
static fj_code
stage2_number(fj_stage2 *p, uint32_t i)
{
	const uint8_t *buf = p->s1.buf;
	const uint8_t *end = buf + p->s1.len;
	const uint8_t *start = buf + i;
	const uint8_t *q = start;
	const uint8_t *digits,
			   *t;
	uint64_t	v = 0;
	bool		neg = false,
				integer = true,
				exponent = false;
	size_t		ndigits,
				len;
	fj_code		rc;

	if (*q == '-')
	{
		neg = true;
		q++;
	}
	digits = q;
	if (q < end && *q == '0')
		q++;
	else if (q < end && (unsigned) (*q - '1') < 9)
	{
		size_t		n;

		if (end - q >= 16 && !stage2_int_value_wanted(q, &n))
			;					/* a fraction or exponent follows: its value is not needed */
		else if (!stage2_int_digits(q, end, &n, &v))
		{
			n = stage2_digit_run(q, end);
			/* the value only matters for integers of up to 19 digits */
			if (n <= 19)
				for (t = q; t < q + n; t++)
					v = v * 10 + (unsigned) (*t - '0');
		}
		q += n;
	}
	else
		return fj_fail(p->err, FJ_R_NUMBER, i);
	ndigits = (size_t) (q - digits);
	if (q < end && *q == '.')
	{
		size_t		n = stage2_digit_run(++q, end);

		if (n == 0)
			return fj_fail(p->err, FJ_R_NUMBER, i);
		q += n;
		integer = false;
	}
	if (q < end && (*q | 0x20) == 'e')
	{
		exponent = true;
		size_t		n;

		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		n = stage2_digit_run(q, end);
		if (n == 0)
			return fj_fail(p->err, FJ_R_NUMBER, i);
		q += n;
		integer = false;
	}
	if (q < end && !fj_value_end[*q])
		return stage2_bad_token_end(p, FJ_R_NUMBER, i, (size_t) (q - buf));

	len = (size_t) (q - start);
	if ((rc = stage2_reserve(p, len + 9)) != FJ_OK)
		return rc;
	if (integer && ndigits <= 19)
	{
		if (!neg && v <= (uint64_t) INT64_MAX)
		{
			p->wp = fj_put_int(p->wp, FJ_UINT, v);
			return FJ_OK;
		}
		if (neg && v != 0 && v <= (uint64_t) INT64_MAX + 1)
		{
			p->wp = fj_put_int(p->wp, FJ_NINT, v - 1);
			return FJ_OK;
		}
	}
	if (!exponent && len <= FJ_PACKED_MAX)
	{
		uint8_t    *w = fj_put_packed_header(p->wp, (unsigned) len);

		/* the input past the number is readable; the tape slack takes the blocks */
		fj_pack_number(w, start, (unsigned) len, end, stage2_pack8);
		p->wp = w + (len + 1) / 2;
		return FJ_OK;
	}
	if (len > FJ_MAX_TEXT_LEN)
		return fj_fail(p->err, FJ_R_STRING_TOO_BIG, i);
	p->wp = fj_put_text_header(p->wp, FJ_NUMBER, len);
	memcpy(p->wp, start, len);
	p->wp += len;
	return FJ_OK;
}

#endif							/* FJ_STAGE2_NUMBER_H */
