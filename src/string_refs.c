/*
 * string_refs.c — the parser's memory of long string values (string_refs.h):
 * the parts off its fast path.
 */
#include "string_refs.h"

void
fj_refs_init(fj_string_refs *r, const fj_allocator *a)
{
	r->a = a;
	r->table = r->table_local;
	r->mask = 0;
	r->strings = r->strings_local;
	r->nstrings = 0;
	r->strings_cap = FJ_REFS_LOCAL / 2;
	r->refs = r->refs_local;
	r->nrefs = 0;
	r->refs_cap = FJ_REFS_LOCAL / 2;
	r->full = false;
	r->from = 0;
	r->looked = r->found = 0;
}

void
fj_refs_release(fj_string_refs *r)
{
	if (r->table != r->table_local)
		r->a->release(r->a->ctx, r->table);
	if (r->strings != r->strings_local)
		r->a->release(r->a->ctx, r->strings);
	if (r->refs != r->refs_local)
		r->a->release(r->a->ctx, r->refs);
	fj_refs_init(r, r->a);
}

/*
 * Double an array of elements of size sz (to heap memory when it is still
 * the local one); false when the allocator fails.
 */
static bool
grow(fj_string_refs *r, void **arr, const void *local, uint32_t *cap, size_t sz)
{
	fj_buf		b = {*arr, (size_t) *cap * sz, (size_t) *cap * sz, *arr == local};

	if (!fj_buf_reserve(r->a, &b, b.len))
		return false;
	*arr = b.data;
	*cap *= 2;
	return true;
}

/* Put string i (hash h) into the table: the first free slot of its probe, else its home slot. */
static void
table_put(fj_string_refs *r, uint32_t i, uint32_t h)
{
	uint32_t	home = h & r->mask,
				k;
	uint64_t	slot = (uint64_t) h << 32 | (i + 1);

	for (k = 0; k < FJ_REFS_PROBE; k++)
		if (r->table[(home + k) & r->mask] == 0)
		{
			r->table[(home + k) & r->mask] = slot;
			return;
		}
	r->table[home] = slot;
}

/*
 * Make the table and the list ready for one more string: the local table at
 * first, then twice as many slots whenever it would be more than half full
 * (every remembered string put again, in tape order). False: no room.
 */
static bool
make_room(fj_string_refs *r)
{
	uint32_t	slots = r->mask + 1,
				i;
	uint64_t   *bigger;

	if (r->mask == 0)
	{
		memset(r->table_local, 0, sizeof(r->table_local));
		r->mask = FJ_REFS_LOCAL - 1;
	}
	else if (2 * (r->nstrings + 1) > slots)
	{
		bigger = r->a->alloc(r->a->ctx, 2 * (size_t) slots * sizeof(uint64_t));
		if (!bigger)
			return false;
		memset(bigger, 0, 2 * (size_t) slots * sizeof(uint64_t));
		if (r->table != r->table_local)
			r->a->release(r->a->ctx, r->table);
		r->table = bigger;
		r->mask = 2 * slots - 1;
		for (i = 0; i < r->nstrings; i++)
			table_put(r, i, r->strings[i].hash);
	}
	return r->nstrings < r->strings_cap ||
		grow(r, (void **) &r->strings, r->strings_local, &r->strings_cap, sizeof(fj_ref_string));
}

void
fj_refs_remember(fj_string_refs *r, uint32_t pos, uint32_t h)
{
	if (r->full || r->nstrings == FJ_REFS_MAX_STRINGS)
		return;
	if (!make_room(r))
	{
		r->full = true;
		return;
	}
	r->strings[r->nstrings].pos = pos;
	r->strings[r->nstrings].hash = h;
	table_put(r, r->nstrings, h);
	r->nstrings++;
}

bool
fj_refs_note(fj_string_refs *r, uint32_t pos)
{
	if (r->nrefs == FJ_REFS_MAX_REFS)
		return false;
	if (r->nrefs == r->refs_cap && !grow(r, (void **) &r->refs, r->refs_local, &r->refs_cap, sizeof(uint32_t)))
		return false;
	r->refs[r->nrefs++] = pos;
	return true;
}

void
fj_refs_moved(fj_string_refs *r, uint8_t *base, uint32_t from, int32_t delta)
{
	uint32_t	i;

	/* both lists are in tape order: what moved is a tail of each */
	for (i = r->nstrings; i > 0 && r->strings[i - 1].pos >= from; i--)
		r->strings[i - 1].pos += (uint32_t) delta;
	for (i = r->nrefs; i > 0 && r->refs[i - 1] >= from; i--)
	{
		uint32_t	pos = r->refs[i - 1] + (uint32_t) delta;
		uint32_t	dist = fj_load32(base + pos + 1);

		/* its target did not move with it: the distance changes */
		if (r->refs[i - 1] - dist < from)
		{
			dist += (uint32_t) delta;
			memcpy(base + pos + 1, &dist, 4);
		}
		r->refs[i - 1] = pos;
	}
}
