/*
 * tape_builder.c — closing containers: the key index of large objects and
 * the choice of the narrowest header.
 */
#include "tape.h"

/* Key of the member at offset off from members (a STRING value). */
static inline uint32_t
key_at(const uint8_t *members, uint32_t off, const uint8_t **text)
{
	return fj_text(members + off, text);
}

/* Order of two members in the key index: key bytes, then position. */
static inline int
member_cmp(const uint8_t *members, uint32_t a, uint32_t b)
{
	const uint8_t *ka,
			   *kb;
	uint32_t	la = key_at(members, a, &ka),
				lb = key_at(members, b, &kb);
	int			c = fj_key_cmp(ka, la, kb, lb);

	if (c)
		return c;
	return a < b ? -1 : a > b ? 1 : 0;
}

static void
sift_down(const uint8_t *members, uint32_t *h, uint32_t root, uint32_t n)
{
	for (;;)
	{
		uint32_t	child = 2 * root + 1;
		uint32_t	t;

		if (child >= n)
			return;
		if (child + 1 < n && member_cmp(members, h[child], h[child + 1]) < 0)
			child++;
		if (member_cmp(members, h[root], h[child]) >= 0)
			return;
		t = h[root];
		h[root] = h[child];
		h[child] = t;
		root = child;
	}
}

/* Sort member offsets: insertion sort when short, heapsort otherwise. */
static void
sort_members(const uint8_t *members, uint32_t *off, uint32_t n)
{
	uint32_t	i;

	if (n <= 48)
	{
		for (i = 1; i < n; i++)
		{
			uint32_t	v = off[i];
			uint32_t	j = i;

			while (j > 0 && member_cmp(members, off[j - 1], v) > 0)
			{
				off[j] = off[j - 1];
				j--;
			}
			off[j] = v;
		}
		return;
	}
	for (i = n / 2; i-- > 0;)
		sift_down(members, off, i, n);
	for (i = n; i-- > 1;)
	{
		uint32_t	t = off[0];

		off[0] = off[i];
		off[i] = t;
		sift_down(members, off, 0, i);
	}
}

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
fj_close_container(uint8_t *hdr, uint8_t *end, uint32_t count, int type)
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
	if (msize + (indexed ? count : 0) <= 0xff)
		w = 1, wclass = 1;
	else if (msize + (indexed ? 2 * (size_t) count : 0) <= 0xffff)
		w = 2, wclass = 2;
	else
		w = 4, wclass = 3;
	size = msize;
	if (indexed)
	{
		uint32_t   *off = (uint32_t *) (void *) end;
		uint8_t    *p = members;
		uint32_t	i;

		/* collect member offsets (unaligned-safe: built in 4-byte steps via memcpy) */
		for (i = 0; i < count; i++)
		{
			uint32_t	o = (uint32_t) (p - members);

			memcpy(end + 4 * (size_t) i, &o, 4);
			p += fj_value_size(p);
			p += fj_value_size(p);
		}
		if (((uintptr_t) end & 3) == 0)
			sort_members(members, off, count);
		else
		{
			/* sort in an aligned view: move up to the next 4-byte boundary */
			uint8_t    *aligned = (uint8_t *) (((uintptr_t) end + 3) & ~(uintptr_t) 3);

			memmove(aligned, end, 4 * (size_t) count);
			sort_members(members, (uint32_t *) (void *) aligned, count);
			memmove(end, aligned, 4 * (size_t) count);
		}
		/* narrow the entries in place: entry i moves from 4i to wi <= 4i */
		for (i = 0; i < count; i++)
		{
			uint32_t	o;

			memcpy(&o, end + 4 * (size_t) i, 4);
			store_width(end + (size_t) w * i, o, w);
		}
		size += (size_t) count * w;
	}
	hdr[0] = FJ_TAG(type, wclass | (indexed ? FJ_CONTAINER_INDEXED : 0));
	store_width(hdr + 1, (uint32_t) size, w);
	store_width(hdr + 1 + w, count, w);
	hsize = 1 + 2 * w;
	if (hsize != FJ_CONTAINER_HEADER_MAX)
		memmove(hdr + hsize, members, size);
	return hdr + hsize + size;
}
