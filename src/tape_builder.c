/*
 * tape_builder.c — closing containers: the key index of large objects and
 * the choice of the narrowest header.
 */
#include "tape.h"

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
	uint8_t    *members = hdr + FJ_CONTAINER_HEADER_MAX;
	size_t		msize = (size_t) (end - members);
	int			indexed = type == FJ_OBJECT && count > FJ_KEY_INDEX_MIN;
	unsigned	w,
				wclass,
				hsize;
	size_t		size;

	if (count == 0)
	{
		hdr[0] = FJ_TAG(type, 0);
		return hdr + 1;
	}
	if (msize + (indexed ? fj_key_index_size(count, 1) : 0) <= 0xff)
		w = 1, wclass = 1;
	else if (msize + (indexed ? fj_key_index_size(count, 2) : 0) <= 0xffff)
		w = 2, wclass = 2;
	else
		w = 4, wclass = 3;
	size = msize;
	if (indexed)
	{
		/* fingerprints at end, offsets after them, in member order */
		uint8_t    *fp = end;
		uint8_t    *off = end + count;
		const uint8_t *p = members;
		uint32_t	i;

		for (i = 0; i < count; i++)
		{
			const uint8_t *key;
			uint32_t	klen,
						pos = keys ? keys[i] : (uint32_t) (p - members);

			klen = fj_text(members + pos, &key);
			/* every key is followed by its value and this index: 8 bytes are readable */
			fp[i] = fj_key_fingerprint_padded(key, klen);
			store_width(off + (size_t) i * w, pos, w);
			if (!keys)
			{
				p = key + klen;
				p += fj_value_size(p);
			}
		}
		size += fj_key_index_size(count, w);
	}
	hdr[0] = FJ_TAG(type, wclass | (indexed ? FJ_CONTAINER_INDEXED : 0));
	store_width(hdr + 1, (uint32_t) size, w);
	store_width(hdr + 1 + w, count, w);
	hsize = 1 + 2 * w;
	if (hsize != FJ_CONTAINER_HEADER_MAX)
		memmove(hdr + hsize, members, size);
	return hdr + hsize + size;
}
