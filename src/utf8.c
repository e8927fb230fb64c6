/*
 * utf8.c — whole-buffer UTF-8 checks built on the scalar state machine.
 */
#include "utf8.h"

#include <string.h>

/* Whether the 8 bytes at p are all ASCII. */
static inline bool
ascii8(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return (v & 0x8080808080808080ULL) == 0;
}

size_t
fj_utf8_first_error(const uint8_t *p, size_t len)
{
	fj_utf8_dfa d = {0, 0x80, 0xbf};
	size_t		seq = 0;		/* where the current sequence began */
	size_t		i = 0;

	while (i < len)
	{
		if (d.need == 0)
		{
			if (i + 8 <= len && ascii8(p + i))
			{
				i += 8;
				continue;
			}
			seq = i;
		}
		if (!fj_utf8_step(&d, p[i]))
			return d.need ? seq : i;
		i++;
	}
	return d.need ? seq : len;
}

/*
 * The same answer as fj_utf8_first_error(p, len) == len, one sequence at a
 * time instead of one byte at a time: ASCII 8 bytes at a time, a multibyte
 * sequence's lead byte picks the range of its second byte (RFC 3629's table:
 * no overlongs, no surrogates, nothing above U+10FFFF), the other bytes must
 * be continuation bytes.
 */
bool
fj_utf8_valid(const uint8_t *p, size_t len)
{
	size_t		i = 0;

	while (i < len)
	{
		uint8_t		b = p[i],
					lo = 0x80,
					hi = 0xbf;
		size_t		n;

		if (b < 0x80)
		{
			if (i + 8 <= len && ascii8(p + i))
				i += 8;
			else
				i++;
			continue;
		}
		if (b >= 0xc2 && b <= 0xdf)
			n = 2;
		else if (b >= 0xe0 && b <= 0xef)
		{
			n = 3;
			if (b == 0xe0)
				lo = 0xa0;
			else if (b == 0xed)
				hi = 0x9f;
		}
		else if (b >= 0xf0 && b <= 0xf4)
		{
			n = 4;
			if (b == 0xf0)
				lo = 0x90;
			else if (b == 0xf4)
				hi = 0x8f;
		}
		else
			return false;
		if (len - i < n || p[i + 1] < lo || p[i + 1] > hi)
			return false;
		if (n >= 3 && (p[i + 2] & 0xc0) != 0x80)
			return false;
		if (n == 4 && (p[i + 3] & 0xc0) != 0x80)
			return false;
		i += n;
	}
	return true;
}

size_t
fj_utf8_sequence_start(const uint8_t *buf, size_t pos)
{
	size_t		d;

	/*
	 * The lead byte of a sequence that covers pos is at most 3 bytes back,
	 * and only counts if its sequence is long enough to reach pos; a
	 * continuation byte with no such lead is a sequence (an error) of its own.
	 */
	for (d = 1; d <= 3 && d <= pos && (buf[pos] & 0xc0) == 0x80; d++)
	{
		uint8_t		b = buf[pos - d];

		if ((b & 0xc0) != 0x80)
		{
			size_t		len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;

			return len > d ? pos - d : pos;
		}
	}
	return pos;
}
