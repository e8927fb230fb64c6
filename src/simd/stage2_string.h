/*
 * stage2_string.h — stage 2's strings: unescaping (\\uXXXX and surrogate
 * pairs to UTF-8), the length header, string references for long repeats,
 * and the out-of-line copy of medium strings without escapes.
 */
#ifndef FJ_STAGE2_STRING_H
#define FJ_STAGE2_STRING_H

#include "stage2_state.h"

/* Append the UTF-8 encoding of code point cp at d; returns the end. */
static inline uint8_t *
stage2_put_utf8(uint8_t *d, uint32_t cp)
{
	if (cp < 0x80)
		*d++ = (uint8_t) cp;
	else if (cp < 0x800)
	{
		*d++ = (uint8_t) (0xc0 | (cp >> 6));
		*d++ = (uint8_t) (0x80 | (cp & 0x3f));
	}
	else if (cp < 0x10000)
	{
		*d++ = (uint8_t) (0xe0 | (cp >> 12));
		*d++ = (uint8_t) (0x80 | ((cp >> 6) & 0x3f));
		*d++ = (uint8_t) (0x80 | (cp & 0x3f));
	}
	else
	{
		*d++ = (uint8_t) (0xf0 | (cp >> 18));
		*d++ = (uint8_t) (0x80 | ((cp >> 12) & 0x3f));
		*d++ = (uint8_t) (0x80 | ((cp >> 6) & 0x3f));
		*d++ = (uint8_t) (0x80 | (cp & 0x3f));
	}
	return d;
}

/* The four hex digits at s as a number, or -1. */
static inline int32_t
stage2_hex4(const uint8_t *s)
{
	int32_t		a = fj_hex_value[s[0]],
				b = fj_hex_value[s[1]],
				c = fj_hex_value[s[2]],
				d = fj_hex_value[s[3]];

	if ((a | b | c | d) < 0)
		return -1;
	return a << 12 | b << 8 | c << 4 | d;
}

/*
 * Write the string between the quotes at q and c as a STRING value: copy the
 * runs between escapes, decode the escapes. Returns FJ_OK or an error.
 */
static fj_code
stage2_string(fj_stage2 *p, uint32_t q, uint32_t c)
{
	const uint8_t *buf = p->s1.buf;
	const uint8_t *input_end = buf + p->s1.len;
	const uint8_t *s = buf + q + 1;
	const uint8_t *end = buf + c;
	size_t		rawlen = (size_t) (end - s);
	unsigned	hdr;
	uint8_t    *dst,
			   *d;
	size_t		n;
	fj_code		rc;

	if (rawlen > FJ_MAX_TEXT_LEN)
		return fj_fail(p->err, FJ_R_STRING_TOO_BIG, q);
	if ((rc = stage2_reserve(p, rawlen + 5)) != FJ_OK)
		return rc;
	hdr = fj_text_header_size(rawlen);
	dst = d = p->wp + hdr;
	for (;;)
	{
		int32_t		cp;

		/* escapes often come in runs (\u3042\u3044...): no copy between them */
		if (*s != '\\')
		{
			size_t		k = copy_until_backslash(d, s, (size_t) (end - s), input_end);

			d += k;
			s += k;
			if (s == end)
				break;
		}
		/* s[0] is a backslash; the escaped byte is inside the string */
		if (s[1] == 'u')
			goto unicode;
		switch (s[1])
		{
			case '"':
			case '\\':
			case '/':
				*d++ = s[1];
				s += 2;
				continue;
			case 'b':
				*d++ = '\b';
				s += 2;
				continue;
			case 'f':
				*d++ = '\f';
				s += 2;
				continue;
			case 'n':
				*d++ = '\n';
				s += 2;
				continue;
			case 'r':
				*d++ = '\r';
				s += 2;
				continue;
			case 't':
				*d++ = '\t';
				s += 2;
				continue;
			default:
				return fj_fail(p->err, FJ_R_ESCAPE, (size_t) (s - buf));
		}
unicode:
		if (end - s < 6 || (cp = stage2_hex4(s + 2)) < 0)
			return fj_fail(p->err, FJ_R_HEX, (size_t) (s - buf));
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return fj_fail(p->err, FJ_R_LOW_SURROGATE, (size_t) (s - buf));
		if (cp >= 0xd800 && cp <= 0xdbff)
		{
			int32_t		lo;

			if (end - s < 12 || s[6] != '\\' || s[7] != 'u' ||
				(lo = stage2_hex4(s + 8)) < 0xdc00 || lo > 0xdfff)
				return fj_fail(p->err, FJ_R_HIGH_SURROGATE, (size_t) (s - buf));
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			s += 6;
		}
		d = stage2_put_utf8(d, (uint32_t) cp);
		s += 6;
	}
	n = (size_t) (d - dst);
	if (fj_text_header_size(n) != hdr)
	{
		/* escapes shrank the string below its header's width class */
		memmove(p->wp + fj_text_header_size(n), dst, n);
	}
	p->wp = fj_put_text_header(p->wp, FJ_STRING, n) + n;
	return FJ_OK;
}

/*
 * Write a string of 28 to 255 bytes without escapes (the raw text at src) at
 * wp, which has room for n + 2 bytes and the tape slack; returns the end, or
 * NULL when the string has an escape (stage2_string then writes it). Out of
 * line and without the parser state, so the state machine keeps its
 * registers; it saves stage2_string's call, reservation and header work for
 * the common medium-length string.
 */
static __attribute__((noinline)) uint8_t *
stage2_medium_string(uint8_t *wp, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	uint8_t    *text = wp + fj_text_header_size(n);

	if (copy_until_backslash(text, src, n, input_end) != n)
		return NULL;
	fj_put_text_header(wp, FJ_STRING, n);
	return text + n;
}

#endif							/* FJ_STAGE2_STRING_H */
