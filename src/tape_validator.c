/*
 * tape_validator.c — check an untrusted tape (binary input from clients)
 * before anything reads it: every tag, length, size, count, key index entry,
 * UTF-8 sequence and number text, and that every encoding is the canonical
 * (shortest) one the parser would write. Never reads outside the buffer;
 * containers are walked with an explicit stack, not recursion.
 *
 * Version 3 adds string references and two flags (doc/format.md §3.7): a
 * reference must point back at the start of an earlier STRING value that is
 * neither a key nor a reference (a bitmap marks where those start), every
 * container's FJ_CONTAINER_REFS_OUT bit must say exactly whether a reference
 * inside it points before it, and the flags byte must be fj_root_flags of the
 * root. Version 2 tapes have none of these.
 */
#include "fj_core.h"
#include "tape.h"
#include "utf8.h"
#include "tape_builder.h"
#include "simd/kernel.h"

#define BAD(msg) fj_fail(err, FJ_ERR_TAPE, msg, (size_t) (p - tape))

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
	const fj_allocator *a;
	vframe	   *frames;
	size_t		nframes,
				frames_cap;
	uint32_t   *offsets;		/* member offsets of the open indexed objects */
	size_t		noffsets,
				offsets_cap;
	uint8_t    *strings;		/* version 3: a bit per tape byte, set where a string value starts */
} vstate;

/* Grow an array of n elements of size sz to hold at least one more. */
static bool
grow_array(const fj_allocator *a, void **arr, size_t *cap, size_t n, size_t sz)
{
	size_t		newcap = *cap ? *cap * 2 : 32;
	void	   *p;

	if (n < *cap)
		return true;
	p = *arr ? a->grow(a->ctx, *arr, n * sz, newcap * sz) : a->alloc(a->ctx, newcap * sz);
	if (!p)
		return false;
	*arr = p;
	*cap = newcap;
	return true;
}

/*
 * Check the key index of the object whose frame is f: its offsets must be
 * exactly the members' positions, in order, and each fingerprint that of its
 * member's key.
 */
static fj_code
check_key_index(const uint8_t *tape, const vframe *f, const uint32_t *offsets, fj_error *err)
{
	const uint8_t *obj = tape + f->hdr;
	const uint8_t *members = tape + f->members;
	const uint8_t *fp = tape + f->index;
	unsigned	w = fj_container_width(obj[0]);
	uint32_t	count = fj_container_count(obj);
	const uint8_t *off = fp + count;
	const uint8_t *p = fp;
	uint32_t	i;

	for (i = 0; i < count; i++)
	{
		const uint8_t *key;
		uint32_t	klen;

		p = off + (size_t) i * w;
		if (fj_load_width(p, w) != offsets[i])
			return BAD("Key index offset does not match its member.");
		klen = fj_text(members + offsets[i], &key);
		p = fp + i;
		if (*p != fj_key_fingerprint(key, klen))
			return BAD("Key index fingerprint does not match its key.");
	}
	return FJ_OK;
}

fj_code
fj_validate_tape(const uint8_t *tape, size_t len, uint32_t max_depth,
				 const fj_allocator *a, fj_error *err)
{
	vstate		st;
	const uint8_t *p = tape;
	const uint8_t *limit = tape + len;
	fj_code		rc = FJ_OK;
	uint8_t		version;

	err->code = FJ_OK;
	err->message = NULL;
	err->offset = 0;
	if (!a)
		a = &fj_malloc_allocator;
	if (!max_depth)
		max_depth = FJ_DEFAULT_MAX_DEPTH;
	if (len < FJ_TAPE_HEADER + 1)
		return BAD("Tape is too short.");
	if (!fj_tape_version_readable(tape[0]))
		return BAD("Unsupported tape version.");
	version = tape[0];
	if (tape[1] & ~(version >= 3 ? FJ_FLAG_DISTINCT_ROOT_KEYS : 0))
		return BAD("Reserved header bits are set.");
	p = tape + FJ_TAPE_HEADER;
	memset(&st, 0, sizeof(st));
	st.a = a;
	if (version >= 3)
	{
		st.strings = a->alloc(a->ctx, len / 8 + 1);
		if (!st.strings)
			return fj_fail(err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
		memset(st.strings, 0, len / 8 + 1);
	}

	for (;;)
	{
		vframe	   *top = st.nframes ? &st.frames[st.nframes - 1] : NULL;
		const uint8_t *vlimit = top ? tape + top->members_end : limit;
		uint8_t		tag;
		unsigned	type,
					imm;

		if (p >= vlimit)
		{
			rc = BAD("Value runs past the end of its container.");
			break;
		}
		tag = *p;
		type = FJ_TYPE(tag);
		imm = FJ_IMM(tag);
		if (top && top->object && top->want_key && type != FJ_STRING)
		{
			rc = BAD("Object key is not a string.");
			break;
		}
		switch (type)
		{
			case FJ_LITERAL:
				if (imm > FJ_TRUE)
				{
					rc = BAD("Unknown literal.");
					goto out;
				}
				p++;
				break;
			case FJ_UINT:
			case FJ_NINT:
				{
					unsigned	extra;
					uint64_t	m;

					if (imm > 27)
					{
						rc = BAD("Unknown integer width.");
						goto out;
					}
					extra = fj_int_extra(tag);
					if ((size_t) (vlimit - p) < 1 + (size_t) extra)
					{
						rc = BAD("Integer is truncated.");
						goto out;
					}
					m = fj_int_magnitude(p);
					if ((extra == 1 && m <= FJ_INT_INLINE_MAX) || (extra == 2 && m <= 0xff) ||
						(extra == 4 && m <= 0xffff) || (extra == 8 && m <= 0xffffffffu) ||
						m > (uint64_t) INT64_MAX)
					{
						rc = BAD("Integer is not in its shortest form.");
						goto out;
					}
					p += 1 + extra;
					break;
				}
			case FJ_NUMBER:
			case FJ_STRING:
				{
					unsigned	extra;
					uint64_t	n;
					bool		int64 = false;

					if (tag == FJ_STRING_REF)
					{
						uint32_t	dist;
						size_t		target;
						size_t		k;

						if (version < 3)
						{
							rc = BAD("Unknown length width.");
							goto out;
						}
						if (top && top->object && top->want_key)
						{
							rc = BAD("Object key is a string reference.");
							goto out;
						}
						if ((size_t) (vlimit - p) < FJ_REF_SIZE)
						{
							rc = BAD("String reference is truncated.");
							goto out;
						}
						dist = fj_load32(p + 1);
						target = (size_t) (p - tape) - dist;
						if (dist == 0 || dist > (size_t) (p - tape) ||
							!(st.strings[target / 8] & (1u << (target % 8))))
						{
							rc = BAD("String reference does not point at an earlier string value.");
							goto out;
						}
						/* the containers it points out of */
						for (k = st.nframes; k > 0 && st.frames[k - 1].hdr > target; k--)
							st.frames[k - 1].refs_out = true;
						p += FJ_REF_SIZE;
						break;
					}
					if (imm == 31)
					{
						rc = BAD("Unknown length width.");
						goto out;
					}
					extra = fj_len_extra(tag);
					if ((size_t) (vlimit - p) < 1 + (size_t) extra)
					{
						rc = BAD("Length is truncated.");
						goto out;
					}
					n = imm <= FJ_LEN_INLINE_MAX ? imm : fj_load_width(p + 1, extra);
					if (fj_text_header_size(n) != 1 + extra)
					{
						rc = BAD("Length is not in its shortest form.");
						goto out;
					}
					if ((size_t) (vlimit - p) - 1 - extra < n)
					{
						rc = BAD("Text runs past the end of the tape.");
						goto out;
					}
					if (type == FJ_STRING)
					{
						if (!fj_utf8_valid(p + 1 + extra, n))
						{
							rc = fj_fail(err, FJ_ERR_TAPE, "String is not valid UTF-8.",
										 (size_t) (p - tape));
							goto out;
						}
						/* a value (not a key) that a later reference may point at */
						if (st.strings && !(top && top->object && top->want_key))
							st.strings[(size_t) (p - tape) / 8] |= (uint8_t) (1u << ((size_t) (p - tape) % 8));
					}
					else if (!fj_number_parse(p + 1 + extra, n, &int64, NULL))
					{
						rc = BAD("Number text is not a JSON number.");
						goto out;
					}
					else if (int64)
					{
						rc = BAD("Integer stored as number text.");
						goto out;
					}
					else if (fj_number_packable(p + 1 + extra, n))
					{
						rc = BAD("Short number without exponent stored as number text.");
						goto out;
					}
					p += 1 + extra + n;
					break;
				}
			case FJ_PACKED:
				{
					unsigned	extra = imm > FJ_LEN_INLINE_MAX,
								n,
								bytes,
								i;
					char		text[FJ_NUMBER_TEXT_BUF];
					bool		int64;

					if (imm > FJ_LEN_INLINE_MAX + 1)
					{
						rc = BAD("Unknown packed number length width.");
						goto out;
					}
					if ((size_t) (vlimit - p) < 1 + (size_t) extra)
					{
						rc = BAD("Packed number is truncated.");
						goto out;
					}
					n = extra ? p[1] : imm;
					if (n > FJ_PACKED_MAX || (extra && n <= FJ_LEN_INLINE_MAX))
					{
						rc = BAD("Packed number length is out of range or not in its shortest form.");
						goto out;
					}
					bytes = (n + 1) / 2;
					if ((size_t) (vlimit - p) - 1 - extra < bytes)
					{
						rc = BAD("Packed number runs past the end of the tape.");
						goto out;
					}
					/* every nibble a digit, '-' or '.', and a zero pad */
					for (i = 0; i < 2 * bytes; i++)
					{
						unsigned	nib = (p[1 + extra + i / 2] >> (4 * (i % 2))) & 15;

						if (i < n ? nib > 9 && nib != 0xd && nib != 0xe : nib != 0)
						{
							rc = BAD("Packed number has an invalid nibble.");
							goto out;
						}
					}
					fj_unpack_number(p + 1 + extra, n, text);
					if (!fj_number_parse((const uint8_t *) text, n, &int64, NULL))
					{
						rc = BAD("Packed number is not a JSON number.");
						goto out;
					}
					if (int64)
					{
						rc = BAD("Integer stored as packed number.");
						goto out;
					}
					p += 1 + extra + bytes;
					break;
				}
			case FJ_ARRAY:
			case FJ_OBJECT:
				{
					unsigned	w = fj_container_width(tag);
					bool		indexed = (imm & FJ_CONTAINER_INDEXED) != 0;
					uint64_t	size,
								count;
					size_t		msize,
								lead;
					vframe	   *f;

					if (imm & (version >= 3 ? 0x10 : 0x18) || (indexed && type != FJ_OBJECT))
					{
						rc = BAD("Reserved container bits are set.");
						goto out;
					}
					if (st.nframes >= max_depth)
					{
						rc = fj_fail(err, FJ_ERR_DEPTH, FJ_MSG_DEPTH, (size_t) (p - tape));
						goto out;
					}
					if (w == 0)
					{
						if (indexed || (imm & FJ_CONTAINER_REFS_OUT))
						{
							rc = BAD("Empty container has a key index or references.");
							goto out;
						}
						p++;
						break;
					}
					if ((size_t) (vlimit - p) < 1 + 2 * (size_t) w)
					{
						rc = BAD("Container header is truncated.");
						goto out;
					}
					size = fj_load_width(p + 1, w);
					count = fj_load_width(p + 1 + w, w);
					if (size > (size_t) (vlimit - p) - 1 - 2 * w)
					{
						rc = BAD("Container runs past the end of the tape.");
						goto out;
					}
					if (count == 0 || indexed != (type == FJ_OBJECT && count > FJ_KEY_INDEX_MIN) ||
						(indexed && size < fj_key_index_size((uint32_t) count, w)))
					{
						rc = BAD("Container count or key index is wrong.");
						goto out;
					}
					msize = (size_t) (size - (indexed ? fj_key_index_size((uint32_t) count, w) : 0));
					lead = indexed && fj_key_index_first((uint32_t) count, w) ? (size_t) (size - msize) : 0;
					/* the narrowest width the parser would have chosen */
					{
						size_t		ix1 = indexed ? fj_key_index_size((uint32_t) count, 1) : 0;
						size_t		ix2 = indexed ? fj_key_index_size((uint32_t) count, 2) : 0;
						unsigned	want = msize + ix1 <= 0xff ? 1 : msize + ix2 <= 0xffff ? 2 : 4;

						if (want != w)
						{
							rc = BAD("Container header is not in its shortest form.");
							goto out;
						}
					}
					if (!grow_array(a, (void **) &st.frames, &st.frames_cap, st.nframes, sizeof(vframe)))
					{
						rc = fj_fail(err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
						goto out;
					}
					if (top)
						top = &st.frames[st.nframes - 1];	/* frames may have moved */
					/* the member that holds this container is counted when it ends */
					f = &st.frames[st.nframes++];
					f->hdr = (size_t) (p - tape);
					f->members = f->hdr + 1 + 2 * w + lead;
					f->members_end = f->members + msize;
					f->index = lead ? f->hdr + 1 + 2 * w : f->members_end;
					f->end = f->hdr + 1 + 2 * w + (size_t) size;
					f->remaining = count;
					f->object = type == FJ_OBJECT;
					f->want_key = f->object;
					f->indexed = indexed;
					f->refs_out = false;
					f->offsets_base = st.noffsets;
					p = tape + f->members;
					if (f->indexed)
					{
						if (!grow_array(a, (void **) &st.offsets, &st.offsets_cap, st.noffsets, 4))
						{
							rc = fj_fail(err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
							goto out;
						}
						st.offsets[st.noffsets++] = 0;
					}
					continue;
				}
			default:
				rc = BAD("Unknown value type.");
				goto out;
		}

		/* a value ended at p: account for it, close finished containers */
		for (;;)
		{
			vframe	   *f;

			if (st.nframes == 0)
			{
				if (p != limit)
					rc = BAD("Trailing bytes after the value.");
				else if (version >= 3 && tape[1] != fj_root_flags(tape + FJ_TAPE_HEADER))
				{
					p = tape + 1;
					rc = BAD("Flags byte does not match the root.");
				}
				goto out;
			}
			f = &st.frames[st.nframes - 1];
			if (f->object && f->want_key)
			{
				/* that was a key; its value follows */
				f->want_key = false;
				break;
			}
			if (f->remaining == 0)
			{
				rc = BAD("Container has more members than its count.");
				goto out;
			}
			f->remaining--;
			f->want_key = f->object;
			if ((size_t) (p - tape) < f->members_end)
			{
				if (f->indexed)
				{
					if (!grow_array(a, (void **) &st.offsets, &st.offsets_cap, st.noffsets, 4))
					{
						rc = fj_fail(err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
						goto out;
					}
					st.offsets[st.noffsets++] = (uint32_t) ((size_t) (p - tape) - f->members);
				}
				break;
			}
			if (f->remaining != 0)
			{
				rc = BAD("Container has fewer members than its count.");
				goto out;
			}
			if (f->indexed)
			{
				if ((rc = check_key_index(tape, f, st.offsets + f->offsets_base, err)) != FJ_OK)
					goto out;
				st.noffsets = f->offsets_base;
			}
			if (f->refs_out != ((tape[f->hdr] & FJ_CONTAINER_REFS_OUT) != 0))
			{
				p = tape + f->hdr;
				rc = BAD("Container's reference bit does not match its references.");
				goto out;
			}
			p = tape + f->end;
			st.nframes--;
		}
	}
out:
	if (st.strings)
		a->release(a->ctx, st.strings);
	if (st.frames)
		a->release(a->ctx, st.frames);
	if (st.offsets)
		a->release(a->ctx, st.offsets);
	return rc;
}
