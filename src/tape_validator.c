/*
 * tape_validator.c — check an untrusted tape (binary input from clients)
 * before anything reads it: every tag, length, size, count, key index entry,
 * UTF-8 sequence and number text, and that every encoding is the canonical
 * (shortest) one the parser would write (tape_writer.h). Never reads outside
 * the buffer; containers are walked with an explicit stack, not recursion.
 *
 * One checker per kind of value (literal, integer, string reference, text,
 * packed number, container) checks the value at the cursor and moves past
 * it; end_value then counts it in its container and closes the containers
 * it finishes.
 *
 * Version 3 adds string references and two flags (doc/format.md §3.7): a
 * reference must point back at the start of an earlier STRING value that is
 * neither a key nor a reference (a bitmap marks where those start), every
 * container's FJ_CONTAINER_REFS_OUT bit must say exactly whether a reference
 * inside it points before it, and the flags byte must be fj_root_flags of the
 * root. Version 2 tapes have none of these. Version 4 writes a front key
 * index as fingerprints alone (container bit 4, FJ_CONTAINER_FP_ONLY); it
 * accepts the version 3 form with offsets too, which a value copied out of a
 * version 3 one keeps.
 */
#include "fj_core.h"
#include "tape.h"
#include "tape_writer.h"
#include "utf8.h"

typedef struct vframe
{
	size_t		members;		/* offset of the first member */
	size_t		members_end;	/* offset where the members stop */
	size_t		index;			/* offset of the key index, if any */
	size_t		end;			/* offset where the container stops */
	size_t		hdr;			/* offset of the container's tag */
	uint64_t	remaining;		/* members still to come */
	size_t		offsets_base;	/* start of this object's member offsets */
	bool		object;
	bool		want_key;		/* objects: a key comes next */
	bool		indexed;
	bool		refs_out;		/* a reference inside points before hdr */
} vframe;

typedef struct vstate
{
	const uint8_t *tape;
	const uint8_t *p;			/* the value being checked */
	const uint8_t *vlimit;		/* where the innermost container's members stop, or end */
	const uint8_t *end;			/* the end of the tape */
	uint8_t		version;
	uint32_t	max_depth;
	const fj_allocator *a;
	fj_error   *err;
	fj_buf		frames;			/* vframe: the open containers, innermost last */
	fj_buf		offsets;		/* uint32_t: member offsets of the open indexed objects */
	uint8_t    *strings;		/* version 3: a bit per tape byte, set where a string value starts */
} vstate;

#define NFRAMES(st) ((st)->frames.len / sizeof(vframe))
#define FRAME(st, i) (((vframe *) (st)->frames.data) + (i))
#define OFFSETS(st) ((uint32_t *) (st)->offsets.data)

/* A malformed tape: reason, at the value being checked. */
static fj_code
bad(vstate *st, fj_reason reason)
{
	return fj_fail(st->err, reason, (size_t) (st->p - st->tape));
}

/* The innermost open container, or NULL at the root. */
static inline vframe *
top_frame(vstate *st)
{
	return st->frames.len ? FRAME(st, NFRAMES(st) - 1) : NULL;
}

/* Whether the value at the cursor is an object member's key. */
static inline bool
at_key(vstate *st)
{
	vframe	   *top = top_frame(st);

	return top && top->object && top->want_key;
}

/* Bytes from the cursor to the end of the innermost container's members. */
static inline size_t
room(const vstate *st)
{
	return (size_t) (st->vlimit - st->p);
}

/* ------------------------------------------------------------ scalars */

static fj_code
check_literal(vstate *st)
{
	if (FJ_IMM(*st->p) > FJ_TRUE)
		return bad(st, FJ_R_TAPE_LITERAL);
	st->p++;
	return FJ_OK;
}

/* UINT or NINT: a known width, in its shortest form, within int64. */
static fj_code
check_int(vstate *st)
{
	uint8_t		tag = *st->p;
	unsigned	extra;
	uint64_t	m;

	if (FJ_IMM(tag) > 27)
		return bad(st, FJ_R_TAPE_INT_WIDTH);
	extra = fj_int_extra(tag);
	if (room(st) < 1 + (size_t) extra)
		return bad(st, FJ_R_TAPE_INT_TRUNCATED);
	m = fj_int_magnitude(st->p);
	if ((extra == 1 && m <= FJ_INT_INLINE_MAX) || (extra == 2 && m <= 0xff) ||
		(extra == 4 && m <= 0xffff) || (extra == 8 && m <= 0xffffffffu) ||
		m > (uint64_t) INT64_MAX)
		return bad(st, FJ_R_TAPE_INT_LONG);
	st->p += 1 + extra;
	return FJ_OK;
}

/* A string reference (version 3): a value, pointing at an earlier string value. */
static fj_code
check_ref(vstate *st)
{
	size_t		at = (size_t) (st->p - st->tape);
	uint32_t	dist;
	size_t		target,
				k;

	if (st->version < 3)
		return bad(st, FJ_R_TAPE_LEN_WIDTH);
	if (at_key(st))
		return bad(st, FJ_R_TAPE_KEY_REF);
	if (room(st) < FJ_REF_SIZE)
		return bad(st, FJ_R_TAPE_REF_TRUNCATED);
	dist = fj_load32(st->p + 1);
	target = at - dist;
	if (dist == 0 || dist > at || !(st->strings[target / 8] & (1u << (target % 8))))
		return bad(st, FJ_R_TAPE_REF_TARGET);
	/* the containers it points out of */
	for (k = NFRAMES(st); k > 0 && FRAME(st, k - 1)->hdr > target; k--)
		FRAME(st, k - 1)->refs_out = true;
	st->p += FJ_REF_SIZE;
	return FJ_OK;
}

/*
 * STRING (valid UTF-8) or NUMBER (a JSON number that is neither an int64
 * integer nor short enough to be PACKED), its length in the shortest form.
 */
static fj_code
check_text(vstate *st)
{
	uint8_t		tag = *st->p;
	unsigned	extra;
	uint64_t	n;
	const uint8_t *text;
	bool		int64 = false;

	if (FJ_IMM(tag) == 31)
		return bad(st, FJ_R_TAPE_LEN_WIDTH);
	extra = fj_len_extra(tag);
	if (room(st) < 1 + (size_t) extra)
		return bad(st, FJ_R_TAPE_LEN_TRUNCATED);
	n = FJ_IMM(tag) <= FJ_LEN_INLINE_MAX ? FJ_IMM(tag) : fj_load_width(st->p + 1, extra);
	if (fj_text_header_size(n) != 1 + extra)
		return bad(st, FJ_R_TAPE_LEN_LONG);
	if (room(st) - 1 - extra < n)
		return bad(st, FJ_R_TAPE_TEXT_PAST_END);
	text = st->p + 1 + extra;
	if (FJ_TYPE(tag) == FJ_STRING)
	{
		size_t		at = (size_t) (st->p - st->tape);

		if (!fj_utf8_valid(text, n))
			return bad(st, FJ_R_TAPE_UTF8);
		/* a value (not a key) that a later reference may point at */
		if (st->strings && !at_key(st))
			st->strings[at / 8] |= (uint8_t) (1u << (at % 8));
	}
	else if (!fj_number_parse(text, n, &int64, NULL))
		return bad(st, FJ_R_TAPE_NUMBER_TEXT);
	else if (int64)
		return bad(st, FJ_R_TAPE_INT_AS_TEXT);
	else if (fj_number_packable(text, n))
		return bad(st, FJ_R_TAPE_SHORT_NUMBER_AS_TEXT);
	st->p = text + n;
	return FJ_OK;
}

/* PACKED: a length in range and shortest form, valid nibbles, a JSON number that is not int64. */
static fj_code
check_packed(vstate *st)
{
	unsigned	imm = FJ_IMM(*st->p),
				extra = imm > FJ_LEN_INLINE_MAX,
				n,
				bytes,
				i;
	const uint8_t *nibbles;
	char		text[FJ_NUMBER_TEXT_BUF];
	bool		int64;

	if (imm > FJ_LEN_INLINE_MAX + 1)
		return bad(st, FJ_R_TAPE_PACKED_WIDTH);
	if (room(st) < 1 + (size_t) extra)
		return bad(st, FJ_R_TAPE_PACKED_TRUNCATED);
	n = extra ? st->p[1] : imm;
	if (n > FJ_PACKED_MAX || (extra && n <= FJ_LEN_INLINE_MAX))
		return bad(st, FJ_R_TAPE_PACKED_LEN);
	bytes = (n + 1) / 2;
	if (room(st) - 1 - extra < bytes)
		return bad(st, FJ_R_TAPE_PACKED_PAST_END);
	nibbles = st->p + 1 + extra;
	/* every nibble a digit, '-' or '.', and a zero pad */
	for (i = 0; i < 2 * bytes; i++)
	{
		unsigned	nib = (nibbles[i / 2] >> (4 * (i % 2))) & 15;

		if (i < n ? nib > 9 && nib != 0xd && nib != 0xe : nib != 0)
			return bad(st, FJ_R_TAPE_PACKED_NIBBLE);
	}
	fj_unpack_number(nibbles, n, text);
	if (!fj_number_parse((const uint8_t *) text, n, &int64, NULL))
		return bad(st, FJ_R_TAPE_PACKED_NUMBER);
	if (int64)
		return bad(st, FJ_R_TAPE_INT_AS_PACKED);
	st->p = nibbles + bytes;
	return FJ_OK;
}

/* ---------------------------------------------------------- containers */

/*
 * ARRAY or OBJECT: known bits, within the depth limit, a header in its
 * narrowest width that fits, a key index exactly when the object is large.
 * An empty container is one byte; any other is pushed, and the cursor goes
 * to its first member (*opened says so).
 */
static fj_code
check_container(vstate *st, bool *opened)
{
	const uint8_t *tape = st->tape;
	uint8_t		tag = *st->p;
	unsigned	type = FJ_TYPE(tag),
				imm = FJ_IMM(tag),
				w = fj_container_width(tag),
				want;
	bool		indexed = (imm & FJ_CONTAINER_INDEXED) != 0,
				fp_only = (imm & FJ_CONTAINER_FP_ONLY) != 0;
	uint64_t	size,
				count;
	size_t		msize,
				lead,
				isize,
				ix1,
				ix2;
	vframe	   *f;

	*opened = false;
	/* bit 3 from version 3 on, bit 4 from version 4 on and only with a key index */
	if (imm & (st->version >= FJ_TAPE_VERSION_FP_ONLY ? 0 : st->version >= 3 ? 0x10 : 0x18) ||
		(indexed && type != FJ_OBJECT) || (fp_only && !indexed))
		return bad(st, FJ_R_TAPE_CONTAINER_BITS);
	if (NFRAMES(st) >= st->max_depth)
		return bad(st, FJ_R_DEPTH);
	if (w == 0)
	{
		if (indexed || (imm & FJ_CONTAINER_REFS_OUT))
			return bad(st, FJ_R_TAPE_EMPTY_EXTRAS);
		st->p++;
		return FJ_OK;
	}
	if (room(st) < 1 + 2 * (size_t) w)
		return bad(st, FJ_R_TAPE_CONTAINER_TRUNCATED);
	size = fj_load_width(st->p + 1, w);
	count = fj_load_width(st->p + 1 + w, w);
	if (size > room(st) - 1 - 2 * w)
		return bad(st, FJ_R_TAPE_CONTAINER_PAST_END);
	if (count == 0 || indexed != (type == FJ_OBJECT && count > FJ_KEY_INDEX_MIN))
		return bad(st, FJ_R_TAPE_COUNT);
	/* a key index of fingerprints alone comes before the members */
	if (fp_only && !fj_key_index_first((uint32_t) count, w))
		return bad(st, FJ_R_TAPE_CONTAINER_BITS);
	isize = !indexed ? 0 : fp_only ? (size_t) count : fj_key_index_size((uint32_t) count, w);
	if (size < isize)
		return bad(st, FJ_R_TAPE_COUNT);
	msize = (size_t) (size - isize);
	lead = indexed && fj_key_index_first((uint32_t) count, w) ? isize : 0;
	/*
	 * The narrowest width for the container's form of key index. Version 4
	 * writes a front index as fingerprints alone; one with offsets too, as
	 * version 3 wrote it, is still valid in a version 4 tape (a value copied
	 * out of a version 3 one keeps its bytes).
	 */
	ix1 = !indexed ? 0 : fp_only ? (size_t) count : fj_key_index_size((uint32_t) count, 1);
	ix2 = !indexed ? 0 : fp_only ? (size_t) count : fj_key_index_size((uint32_t) count, 2);
	want = msize + ix1 <= 0xff ? 1 : msize + ix2 <= 0xffff ? 2 : 4;
	if (want != w)
		return bad(st, FJ_R_TAPE_CONTAINER_LONG);

	/* the member that holds this container is counted when it ends */
	if (!(f = fj_buf_push(st->a, &st->frames, sizeof(vframe))))
		return fj_fail(st->err, FJ_R_NOMEM, 0);
	f->hdr = (size_t) (st->p - tape);
	f->members = f->hdr + 1 + 2 * w + lead;
	f->members_end = f->members + msize;
	f->index = lead ? f->hdr + 1 + 2 * w : f->members_end;
	f->end = f->hdr + 1 + 2 * w + (size_t) size;
	f->remaining = count;
	f->object = type == FJ_OBJECT;
	f->want_key = f->object;
	f->indexed = indexed;
	f->refs_out = false;
	f->offsets_base = st->offsets.len / sizeof(uint32_t);
	if (f->indexed)
	{
		uint32_t   *first = fj_buf_push(st->a, &st->offsets, sizeof(uint32_t));

		if (!first)
			return fj_fail(st->err, FJ_R_NOMEM, 0);
		*first = 0;
	}
	st->p = tape + f->members;
	*opened = true;
	return FJ_OK;
}

/*
 * Check the key index of the object whose frame is f: its offsets, if it
 * has them, must be exactly the members' positions, in order, and each
 * fingerprint that of its member's key.
 */
static fj_code
check_key_index(vstate *st, const vframe *f)
{
	const uint8_t *obj = st->tape + f->hdr;
	const uint8_t *members = st->tape + f->members;
	const uint8_t *fp = st->tape + f->index;
	const uint32_t *offsets = OFFSETS(st) + f->offsets_base;
	unsigned	w = fj_container_width(obj[0]);
	uint32_t	count = fj_container_count(obj);
	const uint8_t *off = fp + count;
	bool		fp_only = (FJ_IMM(obj[0]) & FJ_CONTAINER_FP_ONLY) != 0;
	uint32_t	i;

	for (i = 0; i < count; i++)
	{
		const uint8_t *key;
		uint32_t	klen;

		if (!fp_only)
		{
			st->p = off + (size_t) i * w;
			if (fj_load_width(st->p, w) != offsets[i])
				return bad(st, FJ_R_TAPE_INDEX_OFFSET);
		}
		klen = fj_text(members + offsets[i], &key);
		st->p = fp + i;
		if (*st->p != fj_key_fingerprint(key, klen))
			return bad(st, FJ_R_TAPE_INDEX_FINGERPRINT);
	}
	return FJ_OK;
}

/*
 * A value ended at the cursor: count it in its container, and close each
 * container it finishes (count, key index, reference bit). At the root,
 * the tape must end here and the flags byte must match. *done is set once
 * the root value has been checked.
 */
static fj_code
end_value(vstate *st, bool *done)
{
	const uint8_t *tape = st->tape;
	fj_code		rc;

	*done = false;
	for (;;)
	{
		vframe	   *f = top_frame(st);

		if (!f)
		{
			*done = true;
			if (st->p != st->vlimit)
				return bad(st, FJ_R_TAPE_TRAILING);
			if (st->version >= 3 && tape[1] != fj_root_flags(tape + FJ_TAPE_HEADER))
			{
				st->p = tape + 1;
				return bad(st, FJ_R_TAPE_FLAGS);
			}
			return FJ_OK;
		}
		if (f->object && f->want_key)
		{
			/* that was a key; its value follows */
			f->want_key = false;
			return FJ_OK;
		}
		if (f->remaining == 0)
			return bad(st, FJ_R_TAPE_TOO_MANY);
		f->remaining--;
		f->want_key = f->object;
		if ((size_t) (st->p - tape) < f->members_end)
		{
			if (f->indexed)
			{
				uint32_t   *next = fj_buf_push(st->a, &st->offsets, sizeof(uint32_t));

				if (!next)
					return fj_fail(st->err, FJ_R_NOMEM, 0);
				*next = (uint32_t) ((size_t) (st->p - tape) - f->members);
			}
			return FJ_OK;
		}
		if (f->remaining != 0)
			return bad(st, FJ_R_TAPE_TOO_FEW);
		if (f->indexed)
		{
			if ((rc = check_key_index(st, f)) != FJ_OK)
				return rc;
			st->offsets.len = f->offsets_base * sizeof(uint32_t);
		}
		if (f->refs_out != ((tape[f->hdr] & FJ_CONTAINER_REFS_OUT) != 0))
		{
			st->p = tape + f->hdr;
			return bad(st, FJ_R_TAPE_REFS_BIT);
		}
		st->p = tape + f->end;
		st->frames.len -= sizeof(vframe);
		f = top_frame(st);
		st->vlimit = f ? tape + f->members_end : st->end;
	}
}

/* ---------------------------------------------------------------- tape */

/* The value at the cursor, whatever its kind (*opened: a container was pushed). */
static fj_code
check_value(vstate *st, bool *opened)
{
	uint8_t		tag = *st->p;

	*opened = false;
	if (at_key(st) && FJ_TYPE(tag) != FJ_STRING)
		return bad(st, FJ_R_TAPE_KEY_TYPE);
	switch (FJ_TYPE(tag))
	{
		case FJ_LITERAL:
			return check_literal(st);
		case FJ_UINT:
		case FJ_NINT:
			return check_int(st);
		case FJ_NUMBER:
		case FJ_STRING:
			return tag == FJ_STRING_REF ? check_ref(st) : check_text(st);
		case FJ_PACKED:
			return check_packed(st);
		case FJ_ARRAY:
		case FJ_OBJECT:
			return check_container(st, opened);
		default:
			return bad(st, FJ_R_TAPE_TYPE);
	}
}

fj_code
fj_validate_tape(const uint8_t *tape, size_t len, uint32_t max_depth,
				 const fj_allocator *a, fj_error *err)
{
	vstate		st;
	fj_code		rc = FJ_OK;
	bool		done = false;

	fj_error_clear(err);
	memset(&st, 0, sizeof(st));
	st.tape = st.p = tape;
	st.vlimit = st.end = tape + len;
	st.a = a ? a : &fj_malloc_allocator;
	st.err = err;
	st.max_depth = max_depth ? max_depth : FJ_DEFAULT_MAX_DEPTH;
	if (len < FJ_TAPE_HEADER + 1)
		return bad(&st, FJ_R_TAPE_SHORT);
	if (!fj_tape_version_readable(tape[0]))
		return bad(&st, FJ_R_TAPE_VERSION);
	st.version = tape[0];
	if (tape[1] & ~(st.version >= 3 ? FJ_FLAG_DISTINCT_ROOT_KEYS : 0))
		return bad(&st, FJ_R_TAPE_HEADER_BITS);
	if (st.version >= 3)
	{
		st.strings = st.a->alloc(st.a->ctx, len / 8 + 1);
		if (!st.strings)
			return fj_fail(err, FJ_R_NOMEM, 0);
		memset(st.strings, 0, len / 8 + 1);
	}
	st.p = tape + FJ_TAPE_HEADER;

	while (!done)
	{
		bool		opened;

		if (st.p >= st.vlimit)
		{
			rc = bad(&st, FJ_R_TAPE_PAST_CONTAINER);
			break;
		}
		if ((rc = check_value(&st, &opened)) != FJ_OK)
			break;
		if (opened)
			st.vlimit = tape + top_frame(&st)->members_end;
		else if ((rc = end_value(&st, &done)) != FJ_OK)
			break;
	}
	if (st.strings)
		st.a->release(st.a->ctx, st.strings);
	fj_buf_release(st.a, &st.frames);
	fj_buf_release(st.a, &st.offsets);
	return rc;
}
