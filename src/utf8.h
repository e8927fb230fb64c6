/*
 * utf8.h — scalar UTF-8 validation (RFC 3629: no overlongs, no surrogates,
 * nothing above U+10FFFF). A byte-at-a-time state machine: the oracle the
 * SIMD validators are tested against, and the validator for tape strings.
 */
#ifndef FJ_UTF8_H
#define FJ_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fj_utf8_dfa
{
	uint8_t		need;			/* continuation bytes still expected */
	uint8_t		lo;				/* range of the next continuation byte */
	uint8_t		hi;
} fj_utf8_dfa;

/* Feed one byte; false if the input is not valid UTF-8 at this byte. */
static inline bool
fj_utf8_step(fj_utf8_dfa *d, uint8_t b)
{
	if (d->need == 0)
	{
		if (b < 0x80)
			return true;
		d->lo = 0x80;
		d->hi = 0xbf;
		if (b >= 0xc2 && b <= 0xdf)
			d->need = 1;
		else if (b >= 0xe0 && b <= 0xef)
		{
			d->need = 2;
			if (b == 0xe0)
				d->lo = 0xa0;
			else if (b == 0xed)
				d->hi = 0x9f;
		}
		else if (b >= 0xf0 && b <= 0xf4)
		{
			d->need = 3;
			if (b == 0xf0)
				d->lo = 0x90;
			else if (b == 0xf4)
				d->hi = 0x8f;
		}
		else
			return false;
		return true;
	}
	if (b < d->lo || b > d->hi)
		return false;
	d->need--;
	d->lo = 0x80;
	d->hi = 0xbf;
	return true;
}

/* Whether p[0..len) is valid UTF-8. */
bool		fj_utf8_valid(const uint8_t *p, size_t len);
/* The position of the first invalid UTF-8 sequence in p[0..len), or len. */
size_t		fj_utf8_first_error(const uint8_t *p, size_t len);
/* The start of the UTF-8 sequence that covers pos (pos itself if none covers it). */
size_t		fj_utf8_sequence_start(const uint8_t *buf, size_t pos);

#endif							/* FJ_UTF8_H */
