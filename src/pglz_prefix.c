/*
 * pglz_prefix.c — resumable decoding of a prefix of pglz data (pglz_prefix.h).
 */
#include "pglz_prefix.h"

void
fj_pglz_init(fj_pglz *z, const uint8_t *src, size_t srclen, uint8_t *out, size_t rawsize)
{
	z->src = src;
	z->src_end = src + srclen;
	z->out = out;
	z->out_len = 0;
	z->out_cap = rawsize;
	z->ctrl = 0;
	z->ctrl_left = 0;
}

/* Copy len bytes from off bytes back, 8 at a time (off >= 8: no chunk reads what it writes). */
static inline void
copy_back8(uint8_t *d, size_t off, size_t len)
{
	size_t		i;

	for (i = 0; i < len; i += 8)
	{
		uint64_t	v;

		memcpy(&v, d + i - off, 8);
		memcpy(d + i, &v, 8);
	}
}

bool
fj_pglz_decode(fj_pglz *z, size_t want)
{
	const uint8_t *sp = z->src;
	const uint8_t *end = z->src_end;
	uint8_t    *out = z->out;
	size_t		dp = z->out_len;
	size_t		cap = z->out_cap;
	unsigned	ctrl = z->ctrl,
				left = z->ctrl_left;
	bool		ok = true;

	if (want > cap)
		want = cap;
	while (dp < want && sp < end)
	{
		if (left == 0)
		{
			ctrl = *sp++;
			left = 8;
			/* eight literals: one 8-byte copy */
			if (ctrl == 0 && end - sp >= 8 && cap - dp >= 8)
			{
				memcpy(out + dp, sp, 8);
				sp += 8;
				dp += 8;
				left = 0;
				continue;
			}
			if (sp == end)
				break;
		}
		if (ctrl & 1)
		{
			size_t		len,
						off;

			if (end - sp < 2)
			{
				ok = false;
				break;
			}
			len = (size_t) (sp[0] & 0x0f) + 3;
			off = (size_t) (sp[0] & 0xf0) << 4 | sp[1];
			sp += 2;
			if (len == 18)
			{
				if (sp == end)
				{
					ok = false;
					break;
				}
				len += *sp++;
			}
			if (off == 0 || off > dp)
			{
				ok = false;
				break;
			}
			if (len > cap - dp)
				len = cap - dp;
			/*
			 * The source may overlap what is being written: 8 bytes at a
			 * time when it is 8 or more back (up to 7 bytes past the copy
			 * are written; the output has FJ_PGLZ_SLACK bytes after its
			 * end), else byte by byte.
			 */
			if (off >= 8)
				copy_back8(out + dp, off, len);
			else
			{
				size_t		i;

				for (i = 0; i < len; i++)
					out[dp + i] = out[dp + i - off];
			}
			dp += len;
		}
		else
		{
			if (dp == cap)
				break;
			out[dp++] = *sp++;
		}
		ctrl >>= 1;
		left--;
	}
	z->src = sp;
	z->out_len = dp;
	z->ctrl = ctrl;
	z->ctrl_left = left;
	return ok;
}
