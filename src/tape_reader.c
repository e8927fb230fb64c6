/*
 * tape_reader.c — lookups in a tape: object member by key, array element by
 * index. Both read the tape in place; nothing is decoded on the way.
 */
#include "tape.h"

/* Whether the key at k (klen bytes) is key[0..len). */
static inline bool
key_equal(const uint8_t *k, size_t klen, const char *key, size_t len)
{
	const uint8_t *w = (const uint8_t *) key;

	if (klen != len)
		return false;
	/* up to 16 bytes as a head and a tail of at most 8 each, without a call */
	if (len <= 8)
		return fj_load_upto8(k, len) == fj_load_upto8(w, len);
	if (len <= 16)
		return fj_load64(k) == fj_load64(w) && fj_load64(k + len - 8) == fj_load64(w + len - 8);
	return memcmp(k, w, len) == 0;
}

/* Bit 7 of each byte of x set where that byte is zero. */
static inline uint64_t
zero_bytes(uint64_t x)
{
	return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
}

/*
 * The lookups below read a tape of which only some bytes may be present
 * (fj_window, tape.h): a prefix of a stored value, or the blocks of a stored
 * tape decoded so far. HAVE(from, to) stops with FJ_MORE, and the range in
 * the window, when bytes [from, to) from the container are not all there.
 * With no window (fj_object_get, fj_array_get) every HAVE is true and the
 * compiler drops it.
 */
static inline bool
window_has(const fj_window *w, size_t from, size_t to)
{
	size_t		b,
				last,
				tail_from;

	if (to > w->avail)
		return false;
	if (!w->have || to <= from)
		return true;
	/* the tail is all there (a container in it too); of a range reaching into it, the blocks must hold the rest */
	tail_from = w->tail < w->avail ? w->avail - w->tail : 0;
	if (from >= tail_from)
		return true;
	if (to > tail_from)
		to = tail_from;
	from += w->origin;
	to += w->origin;
	last = (to - 1) >> w->block_log2;
	/* the blocks before the last must be there whole, the last up to the end of the range */
	for (b = from >> w->block_log2; b < last; b++)
		if (w->have[b] < (1u << w->block_log2))
			return false;
	return w->have[last] >= to - (last << w->block_log2);
}

/*
 * Where the bytes at hand that start at offset p (from the container) end:
 * every byte of [p, returned) is there (p itself when it is not).
 */
static inline size_t
window_run(const fj_window *w, size_t p)
{
	size_t		tail_from,
				b;

	if (p >= w->avail)
		return p;
	if (!w->have)
		return w->avail;
	tail_from = w->tail < w->avail ? w->avail - w->tail : 0;
	if (p >= tail_from)
		return w->avail;
	for (b = (w->origin + p) >> w->block_log2;; b++)
	{
		/* where block b's decoded bytes end, as a tape offset */
		size_t		end = (b << w->block_log2) + w->have[b];

		/* the run reaches the tail, all there; or ends in a block decoded in part */
		if (end >= w->origin + tail_from)
			return w->avail;
		if (w->have[b] < (1u << w->block_log2))
			return end > w->origin + p ? end - w->origin : p;
	}
}

#define HAVE(from, to) \
	do { \
		size_t f_ = (from), t_ = (to); \
		if (w && !window_has(w, f_, t_)) { w->need_from = f_; w->need_to = t_; return FJ_MORE; } \
	} while (0)

/*
 * The whole value at offset at of base: its head, then all of it (of a
 * container, its head alone when the window asks no more).
 */
static inline fj_found
value_at(const uint8_t *base, size_t at, fj_window *w, const uint8_t **value)
{
	HAVE(at, at + 1);
	HAVE(at, at + fj_value_head_size(base[at]));
	if (!w || !w->head_only || !fj_is_container(base + at))
		HAVE(at, at + fj_value_size(base + at));
	*value = base + at;
	return FJ_FOUND;
}

/*
 * The key at offset at of base: its text and the offset of its value.
 * FJ_FOUND when it is key[0..len), FJ_ABSENT when it is another key.
 */
static inline fj_found
key_at(const uint8_t *base, size_t at, fj_window *w, const char *key, size_t len,
	   size_t *value_at_out)
{
	const uint8_t *k;
	uint32_t	klen;

	HAVE(at, at + 1);
	HAVE(at, at + fj_value_head_size(base[at]));
	/* a key is never a reference (3.7): a damaged stored value's matches no key, unfollowed */
	if (base[at] == FJ_STRING_REF)
	{
		*value_at_out = at + FJ_REF_SIZE;
		return FJ_ABSENT;
	}
	klen = fj_text(base + at, &k);
	HAVE((size_t) (k - base), (size_t) (k - base) + klen);
	*value_at_out = (size_t) (k - base) + klen;
	return key_equal(k, klen, key, len) ? FJ_FOUND : FJ_ABSENT;
}

/*
 * Where member i of an object whose key index has no offsets starts: step
 * over the members before it from the member at *at, number *from (both
 * advanced). Only each member's head is read.
 *
 * In a window, a step past the bytes at hand asks for the bytes up to where
 * member i would start if the members still to step over were as long as
 * the ones stepped over so far (none yet: the next head alone), and no
 * further than the end of the block the step is in. Each FJ_MORE costs the
 * caller a decode or a fetch (of at least twice what it has) and a new walk,
 * so a request that reaches member i saves rounds; one that took the length
 * of the members after it into account would have a long last member
 * decoded for nothing.
 */
static inline fj_found
member_start(const uint8_t *obj, fj_window *w, uint32_t i, uint32_t *from, size_t *at)
{
	size_t		p = *at,
				run = w ? window_run(w, p) : SIZE_MAX;
	uint32_t	j;

	for (j = *from; j < i; j++)
	{
		/* the key, then its value: a head is at most FJ_VALUE_HEAD_MAX bytes */
		size_t		v = 0;

		if (p + FJ_VALUE_HEAD_MAX <= run && (v = p + fj_value_size(obj + p)) + FJ_VALUE_HEAD_MAX <= run)
		{
			p = v + fj_value_size(obj + v);
			continue;
		}
		if (w)
		{
			/* the first head that is not all there, the key's or its value's (0: none) */
			size_t		least = 0;

			if (!window_has(w, p, p + 1))
				least = p + 1;
			else if (!window_has(w, p, p + fj_value_head_size(obj[p])))
				least = p + fj_value_head_size(obj[p]);
			else
			{
				v = p + fj_value_size(obj + p);
				if (!window_has(w, v, v + 1))
					least = v + 1;
				else if (!window_has(w, v, v + fj_value_head_size(obj[v])))
					least = v + fj_value_head_size(obj[v]);
			}
			if (least)
			{
				size_t		to = least,
							end = (size_t) (fj_container_members_end(obj) - obj);

				if (j > *from)
					to = p + (p - *at) / (j - *from) * (i + 1 - j);
				if (w->have)
				{
					size_t		block_end = (((w->origin + p) >> w->block_log2) + 1) << w->block_log2;

					if (to > block_end - w->origin)
						to = block_end - w->origin;
				}
				if (to > end)
					to = end;
				w->need_from = p;
				w->need_to = to > least ? to : least;
				return FJ_MORE;
			}
		}
		v = p + fj_value_size(obj + p);
		p = v + fj_value_size(obj + v);
	}
	*from = i;
	*at = p;
	return FJ_FOUND;
}

/*
 * Indexed object: scan the fingerprints from the last member back, eight at
 * a time; the first candidate whose key matches is the operative member.
 * A key index of fingerprints alone (FJ_CONTAINER_FP_ONLY) has no offsets:
 * each candidate is then reached by stepping over the members before it.
 */
static inline __attribute__((always_inline)) fj_found
indexed_get(const uint8_t *obj, fj_window *w, const char *key, size_t len,
			const uint8_t **value)
{
	unsigned	wd = fj_container_width(obj[0]);
	uint32_t	count = fj_container_count(obj);
	const uint8_t *members = fj_container_members(obj);
	const uint8_t *fp = fj_key_index(obj);
	const uint8_t *off = fp + count;
	bool		fp_only = (FJ_IMM(obj[0]) & FJ_CONTAINER_FP_ONLY) != 0;
	uint8_t		want = fj_key_fingerprint((const uint8_t *) key, len);
	uint64_t	pattern = 0x0101010101010101ULL * want;
	uint32_t	hi = count;

	/* the fingerprints and offsets (a trailing index is at the object's end) */
	HAVE((size_t) (fp - obj), (size_t) (fp - obj) + fj_key_index_bytes(obj));
	if (fp_only)
	{
		size_t		members_at = (size_t) (members - obj),
					tail_at = members_at;
		uint32_t	tail_first = count, /* no tail: every walk starts at the first member */
					i;

		/*
		 * The root of a stored tape whose last members are its tail (at
		 * hand without decoding anything, tape_store.h): count them, so that
		 * a walk to one of them starts where the tail does.
		 */
		if (w && w->have && w->tail && w->origin == FJ_TAPE_HEADER && w->tail < w->avail &&
			w->avail - w->tail >= members_at)
		{
			size_t		end = (size_t) (fj_container_members_end(obj) - obj),
						p = w->avail - w->tail;
			uint32_t	c = 0;

			/* every read within the tail: a damaged one is not followed */
			while (p < end && c < count && end - p >= fj_value_head_size(obj[p]))
			{
				size_t		v = p + fj_value_size(obj + p);

				if (v >= end || end - v < fj_value_head_size(obj[v]))
					break;
				p = v + fj_value_size(obj + v);
				c++;
			}
			if (p == end)
			{
				tail_first = count - c;
				tail_at = w->avail - w->tail;
			}
		}

		/*
		 * From the last candidate back, each reached by stepping over the
		 * members before it (from the tail's first member when it is in the
		 * tail): the first whose key matches is the operative member.
		 */
		__builtin_prefetch(members);
		for (i = count; i-- > 0;)
		{
			uint32_t	from = i >= tail_first ? tail_first : 0;
			size_t		at = i >= tail_first ? tail_at : members_at,
						vat;
			fj_found	r;

			if (fp[i] != want)
				continue;
			if ((r = member_start(obj, w, i, &from, &at)) != FJ_FOUND)
				return r;
			r = key_at(obj, at, w, key, len, &vat);
			if (r == FJ_FOUND)
				return value_at(obj, vat, w, value);
			if (r == FJ_MORE)
				return r;
		}
		return FJ_ABSENT;
	}

	/*
	 * Start loading the first members while the fingerprints arrive: in a
	 * row read from memory, the wanted key is often among them. (Measured
	 * 2-6 % faster lookups when every index followed its members; with a
	 * front index the members start right after it, and the gain there has
	 * not been measured separately.)
	 */
	__builtin_prefetch(members);
	__builtin_prefetch(members + 64);
	while (hi > 0)
	{
		uint32_t	lo = hi >= 8 ? hi - 8 : 0;
		uint64_t	chunk,
					hits;

		/*
		 * Always 8 bytes: an indexed object has more than 8 fingerprints.
		 * (A copy of hi - lo bytes would go through memory and stall.)
		 */
		memcpy(&chunk, fp + lo, 8);
		hits = zero_bytes(chunk ^ pattern);
		/* the bytes from hi on belong to later members, already scanned */
		if (hi - lo < 8)
			hits &= (1ULL << (8 * (hi - lo))) - 1;
		while (hits)
		{
			int			b = 63 - __builtin_clzll(hits);
			uint32_t	i = lo + (uint32_t) (b >> 3);
			size_t		at = (size_t) (members - obj) + fj_load_width(off + (size_t) i * wd, wd),
						vat;
			fj_found	r = key_at(obj, at, w, key, len, &vat);

			if (r == FJ_FOUND)
				return value_at(obj, vat, w, value);
			if (r == FJ_MORE)
				return r;
			hits &= ~(0xffULL << (b & ~7));
		}
		hi = lo;
	}
	return FJ_ABSENT;
}

/*
 * The member of obj named key[0..len), the last of duplicates, in the first
 * avail bytes. With distinct (the object's keys are known to differ) a small
 * object's scan stops at the first match.
 */
static inline __attribute__((always_inline)) fj_found
object_get(const uint8_t *obj, fj_window *w, const char *key, size_t len, bool distinct,
		   const uint8_t **value)
{
	size_t		p,
				end,
				found = 0;

	HAVE(0, 1);
	if (FJ_TYPE(obj[0]) != FJ_OBJECT)
		return FJ_ABSENT;
	HAVE(0, fj_value_head_size(obj[0]));
	if (FJ_IMM(obj[0]) & FJ_CONTAINER_INDEXED)
		return indexed_get(obj, w, key, len, value);
	/* small object: scan every member, the last match wins */
	p = (size_t) (fj_container_members(obj) - obj);
	end = (size_t) (fj_container_members_end(obj) - obj);
	while (p < end)
	{
		size_t		vat;
		fj_found	r = key_at(obj, p, w, key, len, &vat);

		if (r == FJ_MORE)
			return r;
		if (r == FJ_FOUND)
		{
			found = vat;
			if (distinct)
				break;
		}
		HAVE(vat, vat + 1);
		HAVE(vat, vat + fj_value_head_size(obj[vat]));
		p = vat + fj_value_size(obj + vat);
	}
	return found ? value_at(obj, found, w, value) : FJ_ABSENT;
}

/* Element i of arr (negative counts from the end), in the first avail bytes. */
static inline __attribute__((always_inline)) fj_found
array_get(const uint8_t *arr, fj_window *w, int64_t i, const uint8_t **value)
{
	uint32_t	n;
	size_t		p;

	HAVE(0, 1);
	if (FJ_TYPE(arr[0]) != FJ_ARRAY)
		return FJ_ABSENT;
	HAVE(0, fj_value_head_size(arr[0]));
	n = fj_container_count(arr);
	if (i < 0)
		i += n;
	if (i < 0 || i >= (int64_t) n)
		return FJ_ABSENT;
	p = (size_t) (fj_container_members(arr) - arr);
	while (i-- > 0)
	{
		HAVE(p, p + 1);
		HAVE(p, p + fj_value_head_size(arr[p]));
		p += fj_value_size(arr + p);
	}
	return value_at(arr, p, w, value);
}

#undef HAVE

const uint8_t *
fj_object_get(const uint8_t *obj, const char *key, size_t len)
{
	const uint8_t *value;

	return object_get(obj, NULL, key, len, false, &value) == FJ_FOUND ? value : NULL;
}

const uint8_t *
fj_array_get(const uint8_t *arr, int64_t i)
{
	const uint8_t *value;

	return array_get(arr, NULL, i, &value) == FJ_FOUND ? value : NULL;
}

fj_found
fj_object_get_window(const uint8_t *obj, fj_window *w, const char *key, size_t len, bool distinct,
					 const uint8_t **value)
{
	return object_get(obj, w, key, len, distinct, value);
}

fj_found
fj_array_get_window(const uint8_t *arr, fj_window *w, int64_t i, const uint8_t **value)
{
	return array_get(arr, w, i, value);
}

fj_found
fj_value_window(const uint8_t *v, fj_window *w)
{
	const uint8_t *found;

	return value_at(v, 0, w, &found);
}

uint8_t
fj_root_flags(const uint8_t *root)
{
	const uint8_t *p,
			   *end,
			   *keys[FJ_KEY_INDEX_MIN];
	uint64_t	heads[FJ_KEY_INDEX_MIN];
	uint32_t	lens[FJ_KEY_INDEX_MIN];
	uint32_t	n = 0,
				i;

	if (FJ_TYPE(root[0]) != FJ_OBJECT || (FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED) ||
		fj_container_count(root) == 0)
		return 0;
	p = fj_container_members(root);
	end = fj_container_members_end(root);
	while (p < end && n < FJ_KEY_INDEX_MIN)
	{
		lens[n] = fj_text(p, &keys[n]);
		/* compare length and first 8 bytes, and the rest only when those agree */
		heads[n] = fj_load_upto8(keys[n], lens[n] < 8 ? lens[n] : 8);
		p = keys[n] + lens[n];
		p += fj_value_size(p);
		for (i = 0; i < n; i++)
			if (heads[i] == heads[n] && lens[i] == lens[n] &&
				(lens[n] <= 8 || memcmp(keys[i] + 8, keys[n] + 8, lens[n] - 8) == 0))
				return 0;
		n++;
	}
	return FJ_FLAG_DISTINCT_ROOT_KEYS;
}
