/*
 * string_refs.h — the parser's memory of long string values, for string
 * references (tape version 3, doc/format.md §3.7).
 *
 * Stage 2 hands every string value of FJ_REF_MIN_LEN bytes or more to
 * fj_refs_find right after writing it. When an equal string value came
 * earlier, the parser writes the new one as a 5-byte reference to it instead.
 * The memory is a hash table of tape offsets (a sample of each string's
 * bytes hashed, a probe of at most FJ_REFS_PROBE slots, a byte comparison to
 * confirm), so each string costs O(1) work plus at most one comparison of
 * its bytes per probed slot whose hash matches, whatever the input: a
 * repeated string that the table has forgotten is simply written again. Its
 * decisions depend only on the sequence of string values, so every kernel,
 * and a re-parse of the output, writes the same tape.
 *
 * Most documents repeat few long strings, and for them this is pure cost
 * (some tens of nanoseconds a string). So the parser looks only from the first
 * FJ_REFS_FROM bytes of tape on (a row of an event log repeats almost none,
 * and costs nothing), and stops looking once it has looked up FJ_REFS_TRIAL
 * strings and fewer than one in FJ_REFS_MIN_RATE of them, counted from the
 * start, matched an earlier one; it checks again after every FJ_REFS_TRIAL
 * more. Both depend only on the tape, so the tape stays a function of the
 * document.
 *
 * Offsets are tape offsets from the start of the parser's buffer. When a
 * container closes and its members move (its header took more or fewer
 * bytes than reserved), fj_refs_moved shifts the offsets of the strings and
 * references inside it and corrects the distances of references that point
 * out of it.
 */
#ifndef FJ_STRING_REFS_H
#define FJ_STRING_REFS_H

#include "fj_core.h"
#include "tape.h"

#define FJ_REFS_NONE UINT32_MAX
#define FJ_REFS_FROM 4096		/* tape offset where the memory starts */
#define FJ_REFS_PROBE 4			/* slots a lookup looks at */
#define FJ_REFS_LOCAL 64		/* slots (and half as many strings) before any allocation */
#define FJ_REFS_MAX_STRINGS (1u << 20)	/* strings remembered at most */
#define FJ_REFS_MAX_REFS (1u << 22)	/* references written at most */
#define FJ_REFS_TRIAL 1024		/* strings looked up between checks of the rate of repeats */
#define FJ_REFS_MIN_RATE 32		/* at least one in this many must have matched */

typedef struct fj_ref_string
{
	uint32_t	pos;			/* tape offset of the STRING value */
	uint32_t	hash;			/* fj_refs_hash of its text */
} fj_ref_string;

typedef struct fj_string_refs
{
	const fj_allocator *a;
	/* slots: the string's hash << 32 | 1 + its index in strings; 0 is empty */
	uint64_t   *table;
	uint32_t	mask;			/* slots - 1; 0 until the first string */
	fj_ref_string *strings;		/* the remembered strings, in tape order */
	uint32_t	nstrings,
				strings_cap;	/* at most half the slots */
	uint32_t   *refs;			/* tape offsets of the references written, in tape order */
	uint32_t	nrefs,
				refs_cap;
	bool		full;			/* an allocation failed: remember nothing more */
	uint32_t	from;			/* strings before this offset are not looked up (FJ_REFS_FROM;
								 * UINT32_MAX once too few repeated) */
	uint32_t	looked,			/* strings looked up */
				found;			/* ... that an earlier one matched */
	/* a small document needs no allocation */
	uint64_t	table_local[FJ_REFS_LOCAL];
	fj_ref_string strings_local[FJ_REFS_LOCAL / 2];
	uint32_t	refs_local[FJ_REFS_LOCAL / 2];
} fj_string_refs;

void		fj_refs_init(fj_string_refs *r, const fj_allocator *a);
void		fj_refs_release(fj_string_refs *r);

/* A hash of a text of at least 16 bytes: its length and 8 bytes each at its start, middle and end. */
static inline uint32_t
fj_refs_hash(const uint8_t *t, uint32_t n)
{
	uint64_t	h = fj_load64(t) * 0x9e3779b97f4a7c15ULL ^
		fj_load64(t + n / 2 - 4) * 0xc2b2ae3d27d4eb4fULL ^
		fj_load64(t + n - 8) * 0x165667b19e3779f9ULL ^ (uint64_t) n;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t) (h >> 32);
}

/* Remember the string at pos with hash h: the slow path of fj_refs_find. */
void		fj_refs_remember(fj_string_refs *r, uint32_t pos, uint32_t h);

/*
 * The STRING value at offset pos of base (not a key; FJ_REF_MIN_LEN bytes or
 * more): the offset of an earlier string value with the same text, or
 * FJ_REFS_NONE, and then it is remembered.
 */
static inline uint32_t
fj_refs_find(fj_string_refs *r, const uint8_t *base, uint32_t pos)
{
	const uint8_t *text;
	uint32_t	n = fj_text(base + pos, &text);
	uint32_t	h = fj_refs_hash(text, n);
	uint32_t	home = h & r->mask,
				k;

	if ((++r->looked & (FJ_REFS_TRIAL - 1)) == 0 && r->found * FJ_REFS_MIN_RATE < r->looked)
		r->from = UINT32_MAX;	/* this one is the last */
	if (r->mask != 0)
	{
		for (k = 0; k < FJ_REFS_PROBE; k++)
		{
			uint32_t	s = (home + k) & r->mask;
			uint64_t	slot = r->table[s];
			uint32_t	at;
			const uint8_t *t;

			if (slot == 0)
			{
				/* the common case: a new string, and room for it */
				if (2 * (r->nstrings + 1) <= r->mask + 1 && r->nstrings < r->strings_cap)
				{
					r->strings[r->nstrings].pos = pos;
					r->strings[r->nstrings].hash = h;
					r->table[s] = (uint64_t) h << 32 | (r->nstrings + 1);
					r->nstrings++;
					return FJ_REFS_NONE;
				}
				break;
			}
			if ((uint32_t) (slot >> 32) != h)
				continue;
			at = r->strings[(uint32_t) slot - 1].pos;
			if (fj_text(base + at, &t) == n && memcmp(t, text, n) == 0)
			{
				r->found++;
				return at;
			}
		}
	}
	fj_refs_remember(r, pos, h);
	return FJ_REFS_NONE;
}

/* Note a reference about to be written at pos; false: none may be written. */
bool		fj_refs_note(fj_string_refs *r, uint32_t pos);

/*
 * The bytes from offset from on (the members of the container being closed)
 * have moved by delta: shift what is remembered of them, and correct the
 * distances of references among them that point before from.
 */
void		fj_refs_moved(fj_string_refs *r, uint8_t *base, uint32_t from, int32_t delta);

#endif							/* FJ_STRING_REFS_H */
