/*
 * fastjson_extract.c — reading into a document without re-parsing it:
 * -> and ->> (by key and by index), #> and #>> (by path), fastjson_typeof
 * and fastjson_array_length. Lookups follow json/jsonb: the last of duplicate
 * keys wins; a missing key, a wrong shape or an index out of range is NULL;
 * negative indexes count from the end.
 */
#include "fastjson.h"
#include "fastjson_funcs.h"
#include "pglz_prefix.h"
#include "tape_store.h"

#include <limits.h>

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/toast_compression.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"

bool
fastjson_path_index(const char *s, int *out)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v > INT_MAX || v < INT_MIN)
		return false;
	*out = (int) v;
	return true;
}

/*
 * A text[] path, parsed once per query: queries pass the same constant path
 * for every row, so the parsed form is kept in fn_extra and reused while the
 * array's bytes are the same.
 */
typedef struct parsed_path
{
	int			n;				/* elements */
	bool		has_null;		/* some element is NULL: every lookup is NULL */
	char	  **keys;			/* element text (NUL-terminated); NULL in an
								 * index step of -> n, which skips objects */
	int		   *lens;
	bool	   *is_index;		/* the text is an array index ... */
	int		   *index;			/* ... with this value */
	Size		raw_len;		/* a copy of the array, to recognise it */
	char	   *raw;
	FastjsonLookupStop *stop;	/* if not NULL: where a lookup that finds nothing stopped */
} parsed_path;

/*
 * What a lookup function keeps in fn_extra for the rest of the query: the
 * parsed path, and how reading stored values by prefix has fared.
 */
typedef struct lookup_cache
{
	parsed_path *path;			/* #> and #>>: the last path parsed */
	FastjsonSlices slices;		/* how reading stored values by prefix has fared */
} lookup_cache;

static lookup_cache *
get_cache(FunctionCallInfo fcinfo)
{
	if (!fcinfo->flinfo->fn_extra)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(lookup_cache));
	return (lookup_cache *) fcinfo->flinfo->fn_extra;
}

/*
 * The path of #> and #>> (indexes NULL: an element that spells an integer
 * is also an array index), or the steps of a folded chain of arrows (with
 * indexes: an element that is NULL is the index step indexes[i] of -> n,
 * which looks only in arrays; an element that is not is a key, which looks
 * only in objects). Kept in fn_extra while the arrays stay the same.
 */
static parsed_path *
get_path_steps(FunctionCallInfo fcinfo, ArrayType *path, ArrayType *indexes)
{
	lookup_cache *cache = get_cache(fcinfo);
	parsed_path *pp = cache->path;
	Size		path_len = VARSIZE(path),
				raw_len = path_len + (indexes ? VARSIZE(indexes) : 0);
	MemoryContext old;
	Datum	   *elems,
			   *index_elems = NULL;
	bool	   *nulls,
			   *index_nulls = NULL;
	int			i,
				n_indexes = 0;

	if (pp && pp->raw_len == raw_len && memcmp(pp->raw, path, path_len) == 0 &&
		(!indexes || memcmp(pp->raw + path_len, indexes, raw_len - path_len) == 0))
		return pp;
	if (pp)
	{
		/* a different path (not a constant): free the old one, keep memory flat */
		for (i = 0; i < pp->n; i++)
			if (pp->keys[i])
				pfree(pp->keys[i]);
		pfree(pp->keys);
		pfree(pp->lens);
		pfree(pp->is_index);
		pfree(pp->index);
		pfree(pp->raw);
		pfree(pp);
		cache->path = NULL;
	}
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	pp = palloc0(sizeof(parsed_path));
	deconstruct_array(path, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &pp->n);
	if (indexes)
	{
		deconstruct_array(indexes, INT4OID, sizeof(int32), true, TYPALIGN_INT, &index_elems, &index_nulls,
						  &n_indexes);
		if (n_indexes != pp->n)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("an arrow chain needs as many indexes as keys"),
					 errdetail("There are %d keys and %d indexes.", pp->n, n_indexes)));
	}
	pp->keys = palloc0(sizeof(char *) * Max(pp->n, 1));
	pp->lens = palloc(sizeof(int) * Max(pp->n, 1));
	pp->is_index = palloc(sizeof(bool) * Max(pp->n, 1));
	pp->index = palloc(sizeof(int) * Max(pp->n, 1));
	for (i = 0; i < pp->n; i++)
	{
		if (nulls[i] && indexes && !index_nulls[i])
		{
			/* an index step of -> n */
			pp->lens[i] = 0;
			pp->is_index[i] = true;
			pp->index[i] = DatumGetInt32(index_elems[i]);
			continue;
		}
		if (nulls[i])
		{
			pp->has_null = true;
			continue;
		}
		pp->keys[i] = TextDatumGetCString(elems[i]);
		pp->lens[i] = (int) strlen(pp->keys[i]);
		pp->index[i] = 0;
		pp->is_index[i] = !indexes && fastjson_path_index(pp->keys[i], &pp->index[i]);
	}
	pfree(elems);
	pfree(nulls);
	if (index_elems)
	{
		pfree(index_elems);
		pfree(index_nulls);
	}
	pp->raw_len = raw_len;
	pp->raw = palloc(raw_len);
	memcpy(pp->raw, path, path_len);
	if (indexes)
		memcpy(pp->raw + path_len, indexes, raw_len - path_len);
	cache->path = pp;
	MemoryContextSwitchTo(old);
	return pp;
}

static parsed_path *
get_path(FunctionCallInfo fcinfo, ArrayType *path)
{
	return get_path_steps(fcinfo, path, NULL);
}

/* A lookup that finds nothing: say where (step i, at a value of that type). */
static fj_found
stopped(const parsed_path *pp, int i, uint8_t type)
{
	if (pp->stop)
	{
		pp->stop->step = i;
		pp->stop->type = type;
	}
	return FJ_ABSENT;
}

/*
 * The steps of pp from the root of a tape. A step with no key (-> n) looks
 * only in arrays, or stays at a scalar for index 0 or -1. With no window the whole tape is
 * there; with one (what of the tape is there, counted from the root) a step
 * may stop with FJ_MORE, and then root->need_from and need_to name the bytes
 * from the root it needs. distinct_root: the root's keys all differ (so the
 * first match in the root is the operative one, and a prefix up to it does).
 */
static fj_found
follow_steps(const parsed_path *pp, const uint8_t *root, fj_window *window, bool distinct_root,
			 const uint8_t **value)
{
	const uint8_t *v = root;
	int			i;

	if (pp->has_null)
		return FJ_ABSENT;
	for (i = 0; i < pp->n; i++)
	{
		size_t		at = (size_t) (v - root);
		fj_window	w;
		fj_found	r = FJ_ABSENT;
		uint8_t		type = FJ_TYPE(v[0]);

		if (!pp->keys[i] && type != FJ_ARRAY && type != FJ_OBJECT)
		{
			/*
			 * An index step of -> on a scalar: jsonb stores a scalar as an
			 * array of one element, so -> 0 and -> -1 give the scalar itself.
			 * (The value found by the step before is whole, so is its tag.)
			 */
			if (pp->index[i] != 0 && pp->index[i] != -1)
				return stopped(pp, i, type);
			/* in a window, the scalar as the answer must be there whole (below) */
			if (!window || i < pp->n - 1)
				continue;
		}
		if (!window)
		{
			/* the whole tape: the plain lookups (a root of distinct keys: its first match) */
			if (FJ_TYPE(v[0]) == FJ_OBJECT && pp->keys[i])
				v = fj_object_get_window(v, NULL, pp->keys[i], pp->lens[i], i == 0 && distinct_root, &v) == FJ_FOUND
					? v : NULL;
			else if (FJ_TYPE(v[0]) == FJ_ARRAY && pp->is_index[i])
				v = fj_array_get(v, pp->index[i]);
			else
				v = NULL;
			if (!v)
				return stopped(pp, i, type);
			continue;
		}
		/* the same window, from the container the step looks in */
		w = *window;
		w.avail -= at;
		w.origin += at;
		/* a container the next step looks into is read as far as that step needs */
		w.head_only = i < pp->n - 1;
		/* of the value found by the step before, the head at least is there: so is its tag */
		if (FJ_TYPE(v[0]) == FJ_OBJECT && pp->keys[i])
			r = fj_object_get_window(v, &w, pp->keys[i], pp->lens[i], i == 0 && distinct_root, &v);
		else if (FJ_TYPE(v[0]) == FJ_ARRAY && pp->is_index[i])
			r = fj_array_get_window(v, &w, pp->index[i], &v);
		else if (!pp->keys[i] && type != FJ_ARRAY && type != FJ_OBJECT)
			r = fj_value_window(v, &w);	/* the scalar itself, the last step */
		if (r == FJ_MORE)
		{
			window->need_from = at + w.need_from;
			window->need_to = at + w.need_to;
		}
		if (r == FJ_ABSENT)
			return stopped(pp, i, type);
		if (r != FJ_FOUND)
			return r;
	}
	*value = v;
	return FJ_FOUND;
}

/*
 * The first slice of a compressed or out-of-line value that a lookup reads,
 * and the slack fetched past the bytes a lookup asks for next (a key's value
 * usually comes with it). Each fetch starts again at the beginning (pglz and
 * lz4 decompress from there) and is at least twice the one before, and past
 * half the value the whole value is fetched.
 *
 * A value compressed in the row starts small: decompressing is the cost, in
 * proportion to the bytes produced, and the first 256 bytes hold a root's
 * header and front key index (up to 64 members) and its first members, so a
 * member near the start, or a key the root lacks, costs no more than that.
 * A value stored out of line starts with one TOAST chunk (TOAST_MAX_CHUNK_SIZE
 * bytes, about 2 kB): each fetch is an index scan of the TOAST table, and
 * reads whole chunks, so fewer, larger ones. A value in the stored form
 * goes on from that first chunk (lookup_stored); once a query's lookups
 * show that a second fetch is often needed (a tweet of about 2 kB stored
 * needs its second chunk for a key in its middle), small values are
 * fetched whole, in one index scan (lookup_datum).
 *
 * A prefix does not help when the lookup needs most of the value: a member
 * near the end, or any member of a small object (no key index) whose keys may
 * repeat (FJ_FLAG_DISTINCT_ROOT_KEYS says when they do not), since a later
 * duplicate of the key would win. Then the first slice was fetched in vain.
 * A lookup function stops reading by prefix for the rest of the query once
 * PROBES values have been read so and more than three in four of them needed
 * the whole value anyway.
 */
#define STORED_FIRST_DECODE_MIN 256
#define STORED_FIRST_DECODE_MAX 1024
#define STORED_WHOLE_MAX 65536
#define FIRST_SLICE_INLINE 256
#define FIRST_SLICE_EXTERNAL TOAST_MAX_CHUNK_SIZE
#define SLICE_SLACK 256
#define PROBES 16

/* The error for a stored value whose index or blocks do not hold together. */
static void
report_stored_damage(const fj_error *err)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("stored fastjson value is corrupt"),
			 errdetail("%s (at byte %zu)", err->message ? err->message : "The block index is damaged.", err->offset)));
}

/* The same for a value out of line that is shorter than its index says. */
static void
report_stored_short(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("stored fastjson value is corrupt"),
			 errdetail("Its data ends before a block its index names.")));
}

/* The lookup's error for a tape that ends before a lookup in it does. */
static void
report_short_tape(size_t total)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("stored fastjson value is corrupt"),
			 errdetail("A lookup needs more than the value's %zu bytes.", total)));
}

static const uint8_t *lookup_stored(struct varlena *attr, const parsed_path *pp, size_t stored_len,
									 FastjsonToastHead *head, FastjsonSlices *slices);

/*
 * The steps of pp in a value that PostgreSQL compressed with pglz in its row:
 * its tape decompressed only as far as the lookup needs, each step going on
 * from where the last one stopped (fj_pglz). The value returned lives in
 * memory of the call.
 */
static const uint8_t *
lookup_pglz(struct varlena *attr, const parsed_path *pp)
{
	size_t		total = VARDATA_COMPRESSED_GET_EXTSIZE(attr);
	uint8_t    *tape = palloc(Max(total, FJ_TAPE_HEADER + 1) + FJ_PGLZ_SLACK);
	size_t		want = FIRST_SLICE_INLINE;
	fj_pglz		z;

	fj_pglz_init(&z, (const uint8_t *) attr + VARHDRSZ_COMPRESSED, VARSIZE(attr) - VARHDRSZ_COMPRESSED,
				 tape, total);
	for (;;)
	{
		const uint8_t *value;
		fj_window	w;
		fj_found	r;

		/* the data must give all it was asked for, up to the value's size */
		if (!fj_pglz_decode(&z, want) || z.out_len < Min(want, total))
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg_internal("compressed pglz data is corrupt")));
		/* a value in the stored form that PostgreSQL compressed again: read it by its blocks */
		if (z.out_len > 0 && fj_is_stored(tape[0]))
		{
			struct varlena *whole = detoast_attr(attr);

			return lookup_stored(whole, pp, VARSIZE_ANY_EXHDR(whole), NULL, NULL);
		}
		/* want is at least 256: only a tape of 2 bytes or fewer is this short */
		if (z.out_len <= FJ_TAPE_HEADER || !fj_tape_version_readable(tape[0]))
			fastjson_report_tape_version_byte(z.out_len ? tape[0] : 0);
		w = (fj_window) {.avail = z.out_len - FJ_TAPE_HEADER};
		r = follow_steps(pp, tape + FJ_TAPE_HEADER, &w, fastjson_distinct_root(tape), &value);
		if (r != FJ_MORE)
			return r == FJ_FOUND ? value : NULL;
		/* a valid tape never needs more than all of itself */
		if (z.out_len >= total)
			report_short_tape(total);
		want = w.need_to + FJ_TAPE_HEADER + SLICE_SLACK;
	}
}

/*
 * A value in the stored form (src/tape_store.h) being read by lookups: in its
 * row, or out of line (uncompressed, so read by slices). Block 0 (the root's
 * header and key index) is decoded by prefix, then whatever each step asks
 * for: the last block of the range by
 * prefix too, up to the range's end and at least twice what was there, the
 * blocks before it whole. An out-of-line value starts with one TOAST chunk
 * (the header, the block index and the start of block 0's data, from which
 * its prefix decodes); a block whose data is not at hand is fetched whole, a
 * run of them by one slice. What one lookup decoded or fetched serves the
 * next lookups of the same reader.
 *
 * Block 0's first prefix reaches where the value found by the query's last
 * lookup that found one in block 0 ended (need0), from
 * STORED_FIRST_DECODE_MIN to STORED_FIRST_DECODE_MAX bytes: a key near the
 * start (a GitHub event's "type") decodes about 256 bytes of it and the
 * slack, a lookup whose values end near the first kilobyte (a tweet's
 * user.screen_name) decodes that much at once, not 256 bytes first.
 * Decoding is most of the cost of a lookup in a small document in blocks.
 *
 * A lookup whose last value in block 0 ended past STORED_FIRST_DECODE_MAX (a
 * tweet's entities, near its end) starts with STORED_FIRST_DECODE_MIN bytes,
 * which hold the root's header and key index and so tell a row that lacks
 * the key, and when it goes on decodes block 0 at once to an eighth past
 * where that value ended (reach0), not by doubling: each longer prefix is
 * decoded from the block's start again. Decoding far first would cost the
 * rows that lack the key; doubling from a kilobyte decoded 7 kB for a value
 * that ends at 4 kB.
 */
typedef struct stored_reader
{
	struct varlena *attr;		/* the value as the row holds it */
	FastjsonToastHead head;		/* compressed or out of line (attr extended): the first slice */
	size_t		stored_len;		/* bytes of the stored form */
	const uint8_t *stored;		/* the stored form, at hand ... */
	size_t		have_bytes;		/* ... up to here */
	size_t		data_at;		/* where the blocks' data starts in the stored form */
	fj_stored	s;
	uint8_t    *tape;			/* the tape, decoded block by block */
	uint16_t   *have;			/* bytes of each block decoded */
	bool		refetched;		/* a slice past the first was fetched */
	size_t		need0;			/* where the last value found in block 0 ends, or 0 */
	size_t		reach0;			/* block 0 decoded again goes at least this far (0: twice as far) */
	FastjsonToastCursor *toast;	/* out of line: the caller's cursor, or NULL */
} stored_reader;

/*
 * Start reading attr, in the stored form of stored_len bytes. head, when not
 * NULL, is a first slice already fetched of a value out of line or
 * compressed, which the reader takes over (stored_close releases it: a
 * first chunk read in place stays pinned until then). Slices out of line
 * are read through toast, when not NULL (fastjson_toast.c).
 */
static void
stored_open(stored_reader *r, struct varlena *attr, size_t stored_len, FastjsonToastHead *head,
			FastjsonToastCursor *toast)
{
	fj_error	err;

	r->attr = attr;
	r->toast = toast;
	r->stored_len = stored_len;
	r->refetched = false;
	r->need0 = 0;
	r->reach0 = 0;
	if (!VARATT_IS_EXTENDED(attr))
	{
		r->stored = (const uint8_t *) VARDATA_ANY(attr);
		r->have_bytes = stored_len;
	}
	else
	{
		if (head)
			r->head = *head;
		else
			fastjson_toast_head(attr, (int32) Min(stored_len, (size_t) FIRST_SLICE_EXTERNAL), r->toast, &r->head);
		r->stored = r->head.data;
		r->have_bytes = r->head.len;
		if (r->have_bytes >= FJ_STORE_HEADER)
		{
			uint32_t	len;
			size_t		index;

			/* a long block index: the slice up to its end and one chunk more */
			memcpy(&len, r->stored + 2, 4);
			index = fj_store_index_at(r->stored, r->have_bytes);
			index = (index ? index : FJ_STORE_HEADER + 1 + FJ_KEY_INDEX_MIN + 1 + FJ_STORE_TAIL_MAX) +
				(size_t) ((len + (1u << FJ_STORE_BLOCK_LOG2_MIN) - 1) >> FJ_STORE_BLOCK_LOG2_MIN) * 4;
			if (index > r->have_bytes && index <= stored_len)
			{
				fastjson_toast_head_release(&r->head);
				fastjson_toast_head(attr, (int32) Min(stored_len, index + FIRST_SLICE_EXTERNAL), r->toast, &r->head);
				r->stored = r->head.data;
				r->have_bytes = r->head.len;
			}
		}
	}
	/* the index, checked, says where each block is; the data is at hand up to have_bytes */
	if (fj_store_open_prefix(r->stored, r->have_bytes, stored_len, &r->s, &err) != FJ_OK)
		report_stored_damage(&err);
	r->data_at = (size_t) (r->s.data - r->stored);
	r->tape = palloc(r->s.tape_len + 8);
	r->have = palloc0(r->s.nblocks * sizeof(uint16_t));
	/* the tail (method 3) is in the header: at hand from the start */
	if (r->s.tail)
		memcpy(r->tape + r->s.blocks_len, r->s.tail, r->s.tail_len);
}

/* Done with r: the first slice goes (values found live in r->tape, which stays). */
static void
stored_close(stored_reader *r)
{
	if (VARATT_IS_EXTENDED(r->attr))
		fastjson_toast_head_release(&r->head);	/* which leaves it empty: a second close does nothing */
	r->stored = NULL;
	r->have_bytes = 0;
}

/*
 * Make sure blocks from..last of r's tape are decoded: the last one up to
 * the tape offset need_end (at least), the others whole.
 */
static void
stored_decode(stored_reader *r, uint32_t from, uint32_t last, size_t need_end)
{
	fj_stored  *s = &r->s;
	fj_error	err;
	uint32_t	b;

	for (b = from; b <= last; b++)
	{
		size_t		bstart = fj_store_block_start(s, b),
					n = fj_store_block_size(s, b),
					want = b < last ? n : Min(n, need_end - bstart),
					start,
					end,
					got;
		uint32_t	run;
		struct varlena *slice;
		const uint8_t *base;

		if (r->have[b] >= want)
			continue;
		/* at least twice what is there, and a little past the range */
		if (want < n)
			want = Min(n, Max(want + SLICE_SLACK, (size_t) r->have[b] * 2));
		/* block 0 again: at once as far as the query's last value found in it needed */
		if (b == 0 && r->have[0] > 0 && want < r->reach0)
			want = Min(n, r->reach0);
		fj_store_block_range(s, b, &start, &end);
		if (r->data_at + start < r->have_bytes)
		{
			/* its data, or the start of it, is at hand */
			if (fj_store_decode_block_prefix(s, b, s->data + start, r->have_bytes - (r->data_at + start), want,
											 r->tape, &got, &err) != FJ_OK)
				report_stored_damage(&err);
			if (got >= want)
			{
				r->have[b] = (uint16_t) got;
				continue;
			}
			if (r->data_at + end <= r->have_bytes)
				report_stored_short();	/* all of its data gave less than it must */
		}
		/* out of line: this block and the next ones the range needs and lacks, by one slice, whole */
		for (run = b; run < last && r->have[run + 1] < fj_store_block_size(s, run + 1); run++)
		{
			size_t		next_start,
						next_end;

			fj_store_block_range(s, run + 1, &next_start, &next_end);
			if (r->data_at + next_end <= r->have_bytes)
				break;			/* at hand */
			end = next_end;
		}
		{
			size_t		run_start = start,
						unused;

			slice = fastjson_toast_slice(r->attr, (int32) (r->data_at + run_start), (int32) (end - run_start),
										 r->toast);
			r->refetched = true;
			if (VARSIZE_ANY_EXHDR(slice) != end - run_start)
				report_stored_short();
			base = (const uint8_t *) VARDATA_ANY(slice);
			for (; b <= run; b++)
			{
				fj_store_block_range(s, b, &start, &unused);
				if (fj_store_decode_block_at(s, b, base + (start - run_start), r->tape, &err) != FJ_OK)
					report_stored_damage(&err);
				r->have[b] = (uint16_t) fj_store_block_size(s, b);
			}
			b = run;
			pfree(slice);
		}
	}
}

/*
 * How much of block 0 a stored value's lookup decodes first, from where the
 * query's last value found in block 0 ended (stored_reader).
 */
static size_t
first_decode(const FastjsonSlices *slices)
{
	size_t		need0 = slices ? slices->need0 : 0;

	if (!need0)
		return STORED_FIRST_DECODE_MAX;
	return need0 > STORED_FIRST_DECODE_MAX ? STORED_FIRST_DECODE_MIN : Max(STORED_FIRST_DECODE_MIN, need0);
}

/*
 * The steps of pp in r: FJ_FOUND with *value (in r->tape), or FJ_ABSENT.
 * Block 0 is decoded first as far as slices (NULL: no query to learn from)
 * says, and when decoded again at least to reach0.
 */
static fj_found
stored_follow(stored_reader *r, const parsed_path *pp, const FastjsonSlices *slices, const uint8_t **value)
{
	fj_stored  *s = &r->s;
	fj_error	err;
	uint32_t	from = 0,
				last = 0;		/* block 0 first: the root's header and front key index */
	size_t		need_end = Min((size_t) s->blocks_len, first_decode(slices));

	r->reach0 = slices ? slices->need0 + slices->need0 / 8 : 0;

	/* a key that the root's keys, when the header has them, say it lacks: nothing to decode */
	if (pp->n > 0 && !pp->has_null && pp->keys[0] && !fj_store_root_may_have(s, pp->keys[0], (size_t) pp->lens[0]))
		return stopped(pp, 0, FJ_OBJECT);
	for (;;)
	{
		fj_window	w = {.avail = s->tape_len - FJ_TAPE_HEADER, .have = r->have, .origin = FJ_TAPE_HEADER,
		.block_log2 = s->block_log2, .tail = s->tail_len};
		fj_found	found;
		uint32_t	b;

		stored_decode(r, from, last, need_end);
		if (r->have[0] < 2 || r->tape[0] != s->version || r->tape[1] != s->flags)
		{
			fj_fail(&err, FJ_R_STORE_FLAGS, 0);
			report_stored_damage(&err);
		}
		found = follow_steps(pp, r->tape + FJ_TAPE_HEADER, &w, (s->flags & FJ_FLAG_DISTINCT_ROOT_KEYS) != 0, value);
		if (found == FJ_FOUND && !fj_value_self_contained(*value))
		{
			/* string references in it point back, maybe into blocks not read: read all before it */
			size_t		end = Min((size_t) (*value - r->tape) + fj_value_size(*value), (size_t) s->blocks_len);

			for (b = 0; b < s->nblocks && fj_store_block_start(s, b) < end &&
				 r->have[b] >= Min((size_t) fj_store_block_size(s, b), end - fj_store_block_start(s, b)); b++)
				;
			if (fj_store_block_start(s, b) < end)
			{
				from = b;
				last = fj_store_block_of(s, end - 1);
				need_end = end;
				continue;
			}
		}
		if (found == FJ_FOUND)
		{
			size_t		at = (size_t) (*value - r->tape),
						block0 = fj_store_block_size(s, 0);

			if (at < block0)
				r->need0 = Min(at + fj_value_size(*value), block0);
		}
		if (found != FJ_MORE)
			return found;
		from = fj_store_block_of(s, FJ_TAPE_HEADER + w.need_from);
		/* the tail is at hand: a range reaching into it needs the blocks up to it */
		need_end = Min(FJ_TAPE_HEADER + w.need_to, (size_t) s->blocks_len);
		last = fj_store_block_of(s, need_end - 1);
		/* a valid tape asks only for bytes it has and that are not there yet */
		if (last >= s->nblocks || from > last)
			report_short_tape(s->tape_len);
		for (b = from; b < last && r->have[b] >= fj_store_block_size(s, b); b++)
			;
		if (b == last && r->have[b] >= need_end - fj_store_block_start(s, b))
			report_short_tape(s->tape_len);
	}
}

/*
 * How much of a compressed or out-of-line value of total bytes a lookup
 * fetches first. Values in the stored form out of line, once PROBES of them
 * were read from their first chunk and a share p of those needed a second
 * fetch (a key past the first chunk): reading all k chunks of a value in one
 * index scan costs k chunk reads, reading one first costs a chunk and, for a
 * share p, another scan and the other k - 1. With a scan costing about two
 * chunk reads, the whole value wins once p > (k - 1) / (k + 1): a third of
 * the lookups for two chunks, half for three, nearly all for large values.
 */
static Size
first_fetch(struct varlena *attr, Size total, const FastjsonSlices *slices)
{
	Size		want = Min(total, VARATT_IS_EXTERNAL(attr) ? FIRST_SLICE_EXTERNAL : FIRST_SLICE_INLINE);

	if (VARATT_IS_EXTERNAL(attr) && total <= STORED_WHOLE_MAX && slices->stored_out >= PROBES)
	{
		uint64		chunks = (total + TOAST_MAX_CHUNK_SIZE - 1) / TOAST_MAX_CHUNK_SIZE;

		if ((uint64) slices->stored_refetched * (chunks + 1) > (uint64) slices->stored_out * (chunks - 1))
			want = total;
	}
	return want;
}

/*
 * Keep in slices what reading r tells the query's next stored values: for
 * first_fetch, whether a value read from its first chunk needed another
 * fetch; for first_decode and reach0, where r's lookups found their values
 * in block 0 (if they did).
 */
static void
note_stored_read(FastjsonSlices *slices, const stored_reader *r)
{
	if (!slices)
		return;
	if (VARATT_IS_EXTENDED(r->attr) && r->have_bytes < r->stored_len && slices->stored_out < PG_UINT32_MAX / 4)
	{
		slices->stored_out++;
		slices->stored_refetched += r->refetched;
	}
	if (r->need0 > 0)
		slices->need0 = (uint32) r->need0;
}

/*
 * The steps of pp in a value in the stored form of stored_len bytes, read
 * by a reader of its own (head: as stored_open has it). The value returned
 * lives in memory of the call. slices, when not NULL, counts for a value
 * out of line read from its first chunk whether that was enough (first_fetch).
 */
static const uint8_t *
lookup_stored(struct varlena *attr, const parsed_path *pp, size_t stored_len, FastjsonToastHead *head,
			  FastjsonSlices *slices)
{
	stored_reader r;
	const uint8_t *value;
	fj_found	found;

	stored_open(&r, attr, stored_len, head, slices ? &slices->toast : NULL);
	found = stored_follow(&r, pp, slices, &value);
	note_stored_read(slices, &r);
	stored_close(&r);
	return found == FJ_FOUND ? value : NULL;
}

/*
 * The value at the end of the steps of pp in the fastjson argument argno, or
 * NULL. A compressed or out-of-line (TOASTed) value is not detoasted whole:
 * a first slice is fetched (pglz and lz4 decompress a prefix only; TOAST
 * chunks past it are not read), and a longer prefix only when the
 * lookup needs bytes beyond it. Objects of up to 64 members under 64 KB keep
 * their key index in front, so a member near the start of a large document
 * is found in its first kilobytes. The value returned lives until the end
 * of the call.
 */
static const uint8_t *
lookup_datum(Datum doc, const parsed_path *pp, FastjsonSlices *slices)
{
	struct varlena *attr;
	const uint8_t *value = NULL;

	doc = fastjson_unpend(doc);
	attr = (struct varlena *) DatumGetPointer(doc);

	fastjson_prefetch_next_rows(doc);
	if (pp->n > 0 && !pp->has_null && !VARATT_IS_EXTENDED(attr) && VARSIZE_ANY_EXHDR(attr) > 0 &&
		fj_is_stored(((const uint8_t *) VARDATA_ANY(attr))[0]))
		return lookup_stored(attr, pp, VARSIZE_ANY_EXHDR(attr), NULL, slices);
	if (pp->n > 0 && !pp->has_null && VARATT_IS_COMPRESSED(attr) &&
		VARDATA_COMPRESSED_GET_COMPRESS_METHOD(attr) == TOAST_PGLZ_COMPRESSION_ID)
		return lookup_pglz(attr, pp);
	if (pp->n > 0 && !pp->has_null && (VARATT_IS_COMPRESSED(attr) || VARATT_IS_EXTERNAL(attr)) &&
		(slices->sliced < PROBES || slices->sliced_in_vain * 4 <= slices->sliced * 3))
	{
		Size		total = toast_raw_datum_size(PointerGetDatum(attr)) - VARHDRSZ;
		Size		want = first_fetch(attr, total, slices);

		if (slices->sliced < PG_UINT32_MAX / 4)
			slices->sliced++;

		for (;;)
		{
			FastjsonToastHead head;
			struct varlena *slice;
			const uint8_t *tape;
			size_t		avail;
			fj_window	w;
			fj_found	r;

			fastjson_toast_head(attr, (int32) want, &slices->toast, &head);
			if (head.len > 0 && fj_is_stored(head.data[0]))
			{
				/* a stored tape (out of line): by its blocks, from this slice on */
				return lookup_stored(attr, pp, (size_t) total, &head, slices);
			}
			/* a plain tape: the value found lives in the slice, a copy of its own */
			slice = fastjson_toast_head_copy(&head);
			tape = (const uint8_t *) VARDATA_ANY(slice);
			avail = VARSIZE_ANY_EXHDR(slice);
			if (avail <= FJ_TAPE_HEADER || !fj_tape_version_readable(tape[0]))
				fastjson_report_tape_version(slice);
			w = (fj_window) {.avail = avail - FJ_TAPE_HEADER};
			r = follow_steps(pp, tape + FJ_TAPE_HEADER, &w, fastjson_distinct_root(tape), &value);
			if (r != FJ_MORE)
				return r == FJ_FOUND ? value : NULL;
			/* a valid tape never needs more than all of itself */
			if (avail >= total)
				report_short_tape((size_t) total);
			pfree(slice);
			want = Max(w.need_to + FJ_TAPE_HEADER + SLICE_SLACK, want * 2);
			if (want > total / 2)
			{
				want = total;
				slices->sliced_in_vain++;
			}
		}
	}
	{
		Fastjson   *d = DatumGetFastjsonP(doc);

		fastjson_prefetch_tape(FJ_TAPE(d), FJ_TAPE_LEN(d));
		return follow_steps(pp, FJ_ROOT(d), NULL, fastjson_distinct_root(FJ_TAPE(d)),
							&value) == FJ_FOUND ? value : NULL;
	}
}

/* The same for the fastjson argument argno, with the call's own record of slices. */
static const uint8_t *
lookup(FunctionCallInfo fcinfo, int argno, const parsed_path *pp)
{
	return lookup_datum(PG_GETARG_DATUM(argno), pp, &get_cache(fcinfo)->slices);
}

/* A one-step path: the object member key (-> and ->> with a text key). */
static const uint8_t *
lookup_key(FunctionCallInfo fcinfo, int argno, text *key)
{
	return fastjson_lookup_key(fcinfo, argno, VARDATA_ANY(key), (int) VARSIZE_ANY_EXHDR(key));
}

const uint8_t *
fastjson_lookup_key(FunctionCallInfo fcinfo, int argno, const char *key, int len)
{
	return fastjson_lookup_member(fcinfo, argno, key, len, NULL);
}

const uint8_t *
fastjson_lookup_member(FunctionCallInfo fcinfo, int argno, const char *key, int len, FastjsonLookupStop *stop)
{
	char	   *k = unconstify(char *, key);
	bool		not_index = false;
	int			unused = 0;
	parsed_path pp = {.n = 1, .keys = &k, .lens = &len, .is_index = &not_index, .index = &unused,
	.stop = stop};

	return lookup(fcinfo, argno, &pp);
}

const uint8_t *
fastjson_follow_keys(Datum doc, int n, char **keys, int *lens, FastjsonSlices *slices, FastjsonLookupStop *stop)
{
	/* keys only: no element is an index (on the stack for the usual few keys) */
	bool		not_index_short[16] = {0};
	int			unused_short[16] = {0};
	bool	   *not_index = n <= 16 ? not_index_short : palloc0(sizeof(bool) * n);
	int		   *unused = n <= 16 ? unused_short : palloc0(sizeof(int) * n);
	parsed_path pp = {.n = n, .keys = keys, .lens = lens, .is_index = not_index, .index = unused, .stop = stop};
	const uint8_t *v = lookup_datum(doc, &pp, slices);

	if (n > 16)
	{
		pfree(not_index);
		pfree(unused);
	}
	return v;
}

bool
fastjson_arg_is_large(FunctionCallInfo fcinfo, int argno)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(fastjson_unpend(PG_GETARG_DATUM(argno)));

	return VARATT_IS_COMPRESSED(attr) || VARATT_IS_EXTERNAL(attr) ||
		(!VARATT_IS_EXTENDED(attr) && VARSIZE(attr) > VARHDRSZ && fj_is_stored(((const uint8_t *) VARDATA(attr))[0]));
}

struct FastjsonDoc
{
	Datum		datum;
	FastjsonSlices *slices;		/* the call's record of first fetches */
	bool		in_blocks;		/* in the stored form: read by ... */
	stored_reader stored;		/* ... this reader */
	Fastjson   *whole;			/* the value decoded whole, once needed */
};

FastjsonDoc *
fastjson_doc_open(FunctionCallInfo fcinfo, int argno)
{
	FastjsonDoc *d = palloc0(sizeof(FastjsonDoc));
	Datum		datum = fastjson_unpend(PG_GETARG_DATUM(argno));
	struct varlena *attr = (struct varlena *) DatumGetPointer(datum);

	fastjson_prefetch_next_rows(datum);
	d->datum = datum;
	d->slices = &get_cache(fcinfo)->slices;
	if (!VARATT_IS_EXTENDED(attr))
	{
		if (VARSIZE_ANY_EXHDR(attr) > 0 && fj_is_stored(((const uint8_t *) VARDATA_ANY(attr))[0]))
		{
			stored_open(&d->stored, attr, VARSIZE_ANY_EXHDR(attr), NULL, NULL);
			d->in_blocks = true;
		}
	}
	else
	{
		/* compressed or out of line: its first slice says whether it is in the stored form */
		Size		total = toast_raw_datum_size(datum) - VARHDRSZ;
		FastjsonToastHead head;

		fastjson_toast_head(attr, (int32) first_fetch(attr, total, d->slices), &d->slices->toast, &head);
		if (head.len > 0 && fj_is_stored(head.data[0]))
		{
			stored_open(&d->stored, attr, total, &head, &d->slices->toast);
			d->in_blocks = true;
		}
		else
			fastjson_toast_head_release(&head);
	}
	return d;
}

const uint8_t *
fastjson_doc_member(FastjsonDoc *d, const char *key, int len, FastjsonLookupStop *stop)
{
	char	   *k = unconstify(char *, key);
	bool		not_index = false;
	int			unused = 0;
	parsed_path pp = {.n = 1, .keys = &k, .lens = &len, .is_index = &not_index, .index = &unused,
	.stop = stop};
	const uint8_t *value;
	fj_found	found;

	if (d->in_blocks)
		found = stored_follow(&d->stored, &pp, d->slices, &value);
	else
	{
		Fastjson   *whole = fastjson_doc_whole(d);

		found = follow_steps(&pp, FJ_ROOT(whole), NULL, fastjson_distinct_root(FJ_TAPE(whole)),
							 &value);
	}
	return found == FJ_FOUND ? value : NULL;
}

Fastjson *
fastjson_doc_whole(FastjsonDoc *d)
{
	if (!d->whole)
		d->whole = DatumGetFastjsonP(d->datum);
	return d->whole;
}

void
fastjson_doc_close(FastjsonDoc *d)
{
	if (d->in_blocks)
	{
		note_stored_read(d->slices, &d->stored);
		stored_close(&d->stored);
	}
}

/* The result of a lookup that returns a value (-> and #>): v, or NULL when nothing was found. */
static Datum
value_result(FunctionCallInfo fcinfo, const uint8_t *v)
{
	if (!v)
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(fastjson_from_value(v));
}

/* The same as text (->> and #>>): NULL also for a JSON null. */
static Datum
text_result(FunctionCallInfo fcinfo, const uint8_t *v)
{
	text	   *t;

	if (!v || !(t = fastjson_value_as_text(v)))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(t);
}

PG_FUNCTION_INFO_V1(fastjson_object_field);

/* doc -> 'key' */
Datum
fastjson_object_field(PG_FUNCTION_ARGS)
{
	return value_result(fcinfo, lookup_key(fcinfo, 0, PG_GETARG_TEXT_PP(1)));
}

PG_FUNCTION_INFO_V1(fastjson_object_field_text);

/* doc ->> 'key' */
Datum
fastjson_object_field_text(PG_FUNCTION_ARGS)
{
	return text_result(fcinfo, lookup_key(fcinfo, 0, PG_GETARG_TEXT_PP(1)));
}

PG_FUNCTION_INFO_V1(fastjson_array_element);

/*
 * Element i of the root array of argument 0 (negative: from the end), read
 * as #> reads it: only the blocks, or the prefix, it needs of a large value.
 * An object has no elements here, unlike in #>, where '{0}' is also a key.
 * As jsonb does, a scalar root counts as a one-element array (jsonb stores
 * it so): index 0 or -1 gives it (follow_steps).
 */
static const uint8_t *
lookup_element(FunctionCallInfo fcinfo, int32 i)
{
	char	   *no_key = NULL;
	int			no_len = 0;
	bool		is_index = true;
	int			index = i;
	parsed_path pp = {.n = 1, .keys = &no_key, .lens = &no_len, .is_index = &is_index, .index = &index};

	return lookup(fcinfo, 0, &pp);
}

/* doc -> n */
Datum
fastjson_array_element(PG_FUNCTION_ARGS)
{
	return value_result(fcinfo, lookup_element(fcinfo, PG_GETARG_INT32(1)));
}

PG_FUNCTION_INFO_V1(fastjson_array_element_text);

/* doc ->> n */
Datum
fastjson_array_element_text(PG_FUNCTION_ARGS)
{
	return text_result(fcinfo, lookup_element(fcinfo, PG_GETARG_INT32(1)));
}

PG_FUNCTION_INFO_V1(fastjson_extract_path_op);

/* doc #> '{a,b}' */
Datum
fastjson_extract_path_op(PG_FUNCTION_ARGS)
{
	return value_result(fcinfo, lookup(fcinfo, 0, get_path(fcinfo, PG_GETARG_ARRAYTYPE_P(1))));
}

PG_FUNCTION_INFO_V1(fastjson_extract_path_text_op);

/* doc #>> '{a,b}' */
Datum
fastjson_extract_path_text_op(PG_FUNCTION_ARGS)
{
	return text_result(fcinfo, lookup(fcinfo, 0, get_path(fcinfo, PG_GETARG_ARRAYTYPE_P(1))));
}

/*
 * doc -> 'a' -> 0 -> 'b' ... as one lookup: the planner folds a chain of ->
 * with constant keys and indexes, ending in -> or ->>, into these
 * (fastjson_simplify.c). keys[i] is the text of step i, or NULL for the
 * index step indexes[i]. Each step does what its arrow does: a key looks
 * only in objects (an element of an array is not reached by a key that
 * spells a number, where #> would reach it), an index only in arrays, and
 * a scalar is its own element 0 and -1.
 */
PG_FUNCTION_INFO_V1(fastjson_arrow_chain);

Datum
fastjson_arrow_chain(PG_FUNCTION_ARGS)
{
	return value_result(fcinfo, lookup(fcinfo, 0, get_path_steps(fcinfo, PG_GETARG_ARRAYTYPE_P(1),
																 PG_GETARG_ARRAYTYPE_P(2))));
}

PG_FUNCTION_INFO_V1(fastjson_arrow_chain_text);

Datum
fastjson_arrow_chain_text(PG_FUNCTION_ARGS)
{
	return text_result(fcinfo, lookup(fcinfo, 0, get_path_steps(fcinfo, PG_GETARG_ARRAYTYPE_P(1),
																PG_GETARG_ARRAYTYPE_P(2))));
}

PG_FUNCTION_INFO_V1(fastjson_typeof);

/* "object", "array", "string", "number", "boolean" or "null", as jsonb_typeof. */
Datum
fastjson_typeof(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	const uint8_t *v = FJ_ROOT(d);
	const char *name;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			name = FJ_IMM(v[0]) == FJ_NULL ? "null" : "boolean";
			break;
		case FJ_STRING:
			name = "string";
			break;
		case FJ_ARRAY:
			name = "array";
			break;
		case FJ_OBJECT:
			name = "object";
			break;
		default:
			name = "number";
	}
	PG_RETURN_TEXT_P(cstring_to_text(name));
}

PG_FUNCTION_INFO_V1(fastjson_array_length);

/* Number of elements of an array; an error for anything else, as jsonb. */
Datum
fastjson_array_length(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	const uint8_t *v = FJ_ROOT(d);

	if (FJ_TYPE(v[0]) != FJ_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(FJ_TYPE(v[0]) == FJ_OBJECT ? "cannot get array length of a non-array"
						: "cannot get array length of a scalar")));
	PG_RETURN_INT32((int32) fj_container_count(v));
}
