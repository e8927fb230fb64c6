/*
 * tape_reader.c — lookups in a tape: object member by key, array element by
 * index. Both read the tape in place; nothing is decoded on the way.
 */
#include "tape.h"

/* The key of the member at offset off of an indexed object's members. */
static inline uint32_t
indexed_key(const uint8_t *members, const uint8_t *index, unsigned w, uint32_t i,
			const uint8_t **key)
{
	return fj_text(members + fj_load_width(index + (size_t) i * w, w), key);
}

const uint8_t *
fj_object_get(const uint8_t *obj, const char *key, size_t len)
{
	const uint8_t *p = fj_container_members(obj);
	const uint8_t *end = fj_container_members_end(obj);
	const uint8_t *found = NULL;

	if (FJ_TYPE(obj[0]) != FJ_OBJECT)
		return NULL;
	if (FJ_IMM(obj[0]) & FJ_CONTAINER_INDEXED)
	{
		/* binary search for the last entry whose key is <= key */
		unsigned	w = fj_container_width(obj[0]);
		uint32_t	lo = 0,
					hi = fj_container_count(obj);
		const uint8_t *k;
		uint32_t	klen;

		while (lo < hi)
		{
			uint32_t	mid = lo + (hi - lo) / 2;

			klen = indexed_key(p, end, w, mid, &k);
			if (fj_key_cmp(k, klen, (const uint8_t *) key, len) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0)
			return NULL;
		klen = indexed_key(p, end, w, lo - 1, &k);
		if (klen != len || (len && memcmp(k, key, len) != 0))
			return NULL;
		return k + klen;
	}
	while (p < end)
	{
		const uint8_t *k;
		uint32_t	klen = fj_text(p, &k);
		const uint8_t *value = k + klen;

		if (klen == len && (len == 0 || memcmp(k, key, len) == 0))
			found = value;
		p = value + fj_value_size(value);
	}
	return found;
}

const uint8_t *
fj_array_get(const uint8_t *arr, int64_t i)
{
	uint32_t	n;
	const uint8_t *p;

	if (FJ_TYPE(arr[0]) != FJ_ARRAY)
		return NULL;
	n = fj_container_count(arr);
	if (i < 0)
		i += n;
	if (i < 0 || i >= (int64_t) n)
		return NULL;
	p = fj_container_members(arr);
	while (i-- > 0)
		p += fj_value_size(p);
	return p;
}
