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

bool
fj_utf8_valid(const uint8_t *p, size_t len)
{
	return fj_utf8_first_error(p, len) == len;
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
