/*
 * tape_writer.c — the encoders of tape_writer.h that are not inline:
 * closing a container (the narrowest header, the key index of a large
 * object) and numbers (their one encoding, and the JSON number grammar).
 */
#include "tape_writer.h"

const uint64_t fj_pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL
};

/* ---------------------------------------------------------- containers */

static inline void
store_width(uint8_t *p, uint32_t v, unsigned w)
{
	if (w == 1)
		*p = (uint8_t) v;
	else if (w == 2)
	{
		uint16_t	s = (uint16_t) v;

		memcpy(p, &s, 2);
	}
	else
		memcpy(p, &v, 4);
}

uint8_t *
fj_close_container(uint8_t *hdr, uint8_t *end, uint32_t count, int type,
				   const uint32_t *keys)
{
	return fj_close_container_reserved(hdr, FJ_CONTAINER_HEADER_MAX, end, count, type, keys);
}

uint8_t *
fj_close_container_reserved(uint8_t *hdr, unsigned reserved, uint8_t *end, uint32_t count,
							int type, const uint32_t *keys)
{
	const uint8_t *members = hdr + reserved;
	size_t		msize = (size_t) (end - members);
	int			indexed = type == FJ_OBJECT && count > FJ_KEY_INDEX_MIN;
	unsigned	w,
				wclass,
				hsize;
	size_t		isize = 0,
				lead = 0;
	uint8_t    *placed;

	if (count == 0)
	{
		hdr[0] = FJ_TAG(type, 0);
		return hdr + 1;
	}
	if (msize + (indexed ? fj_key_index_size_written(count, 1) : 0) <= 0xff)
		w = 1, wclass = 1;
	else if (msize + (indexed ? fj_key_index_size_written(count, 2) : 0) <= 0xffff)
		w = 2, wclass = 2;
	else
		w = 4, wclass = 3;
	hsize = 1 + 2 * w;
	if (indexed)
	{
		/* a front index is fingerprints only; one after the members has offsets too */
		isize = fj_key_index_size_written(count, w);
		if (fj_key_index_first(count, w))
			lead = isize;
	}
	/* the members go after the header and a leading key index */
	placed = hdr + hsize + lead;
	if (placed != members)
		memmove(placed, members, msize);
	if (indexed)
	{
		/* fingerprints, then offsets (a trailing index only), in member order */
		uint8_t    *fp = lead ? hdr + hsize : placed + msize;
		uint8_t    *off = lead ? NULL : fp + count;
		const uint8_t *p = placed;
		uint32_t	i;

		for (i = 0; i < count; i++)
		{
			const uint8_t *key;
			uint32_t	klen,
						pos = keys ? keys[i] : (uint32_t) (p - placed);

			klen = fj_text(placed + pos, &key);
			/* a key is followed by its value and 8 more readable bytes (the callers reserve them) */
			fp[i] = fj_key_fingerprint_padded(key, klen);
			if (off)
				store_width(off + (size_t) i * w, pos, w);
			if (!keys)
			{
				p = key + klen;
				p += fj_value_size(p);
			}
		}
	}
	hdr[0] = FJ_TAG(type, wclass | (indexed ? FJ_CONTAINER_INDEXED : 0) |
					(lead ? FJ_CONTAINER_FP_ONLY : 0));
	store_width(hdr + 1, (uint32_t) (msize + isize), w);
	store_width(hdr + 1 + w, count, w);
	return hdr + hsize + msize + isize;
}

/* ------------------------------------------------------------- numbers */

uint8_t *
fj_put_number(uint8_t *w, const uint8_t *s, size_t len)
{
	bool		int64;
	int64_t		iv;

	if (fj_number_parse(s, len, &int64, &iv) && int64)
		return iv >= 0 ? fj_put_int(w, FJ_UINT, (uint64_t) iv) : fj_put_int(w, FJ_NINT, (uint64_t) (-1 - iv));
	if (fj_number_packable(s, len))
		return fj_put_packed(w, s, (unsigned) len);
	w = fj_put_text_header(w, FJ_NUMBER, len);
	memcpy(w, s, len);
	return w + len;
}

bool
fj_number_parse(const uint8_t *s, size_t len, bool *int64, int64_t *value)
{
	const uint8_t *p = s,
			   *end = s + len,
			   *digits,
			   *t;
	bool		neg = false,
				integer = true;
	uint64_t	v = 0;

	*int64 = false;
	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	digits = p;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && *p >= '0' && *p <= '9')
			v = v * 10 + (unsigned) (*p++ - '0');
	else
		return false;
	if ((size_t) (p - digits) > 19)
		integer = false;
	if (p < end && *p == '.')
	{
		t = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == t)
			return false;
		integer = false;
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		t = p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == t)
			return false;
		integer = false;
	}
	if (p != end)
		return false;
	if (integer && (neg ? v != 0 && v <= (uint64_t) INT64_MAX + 1 : v <= (uint64_t) INT64_MAX))
	{
		*int64 = true;
		if (value)
			*value = neg ? (int64_t) (0 - v) : (int64_t) v;
	}
	return true;
}
