/*
 * stage2.h — generic stage 2, the state machine: walk the structural
 * positions once, validate the grammar and write the tape (strings and
 * numbers in stage2_string.h and stage2_number.h). No recursion: open
 * containers live on an explicit stack, limited by max_depth.
 *
 * A kernel includes this after stage 1 and after defining
 *
 *   copy_until_backslash(dst, src, n, input_end)
 *       copy src[0..k) to dst where k is the position of the first backslash
 *       in src[0..n), or n; return k. May write up to 64 bytes past dst + k,
 *       and may read up to input_end, never past it.
 *   copy_short_string(dst, src, n, input_end)
 *       for n <= 27: if src[0..n) has no backslash, copy it (writing up to
 *       32 bytes) and return true; else return false, or whenever unsure.
 */
#ifndef FJ_STAGE2_H
#define FJ_STAGE2_H

#include "stage2_state.h"
#include "stage2_string.h"
#include "stage2_number.h"

/*
 * The literal true, false or null starting at i: its tag, or 0xff after
 * reporting an error.
 */
static inline uint8_t
stage2_literal(fj_stage2 *p, uint32_t i)
{
	const uint8_t *s = p->s1.buf + i;
	size_t		left = p->s1.len - i;
	unsigned	n;
	uint8_t		tag;

	if (left >= 4 && memcmp(s, "true", 4) == 0)
		n = 4, tag = FJ_TAG(FJ_LITERAL, FJ_TRUE);
	else if (left >= 5 && memcmp(s, "false", 5) == 0)
		n = 5, tag = FJ_TAG(FJ_LITERAL, FJ_FALSE);
	else if (left >= 4 && memcmp(s, "null", 4) == 0)
		n = 4, tag = FJ_TAG(FJ_LITERAL, FJ_NULL);
	else
	{
		fj_fail(p->err, FJ_R_LITERAL, i);
		return 0xff;
	}
	if (left > n && !fj_value_end[s[n]])
	{
		stage2_bad_token_end(p, FJ_R_LITERAL, i, i + n);
		return 0xff;
	}
	return tag;
}

/* Double the key position stack (the key index is built from these). */
static fj_code
stage2_grow_keys(fj_stage2 *p)
{
	p->keys_buf.len = (size_t) p->nkeys * sizeof(uint32_t);
	if (!fj_buf_reserve(p->alloc, &p->keys_buf, sizeof(uint32_t)))
		return fj_fail(p->err, FJ_R_NOMEM, 0);
	p->keys = (uint32_t *) p->keys_buf.data;
	p->keys_cap = (uint32_t) (p->keys_buf.cap / sizeof(uint32_t));
	return FJ_OK;
}

/* Close the innermost container (the key index needs 5 bytes a member, the header up to 4 more). */
static fj_code
stage2_close(fj_stage2 *p, fj_frame *f, uint32_t depth)
{
	fj_code		rc;
	uint32_t   *keys = NULL;
	bool		indexed = f->type == FJ_OBJECT && f->count > FJ_KEY_INDEX_MIN;
	unsigned	reserved = f->reserved & ~FJ_REFS_OUT;
	uint8_t    *hdr;

	/* the key index, and the header sliding up when it needs more than was reserved */
	if ((rc = stage2_reserve(p, (indexed ? fj_key_index_size(f->count, 4) : 0) + 8 +
							 (reserved < FJ_CONTAINER_HEADER_MAX ?
							  FJ_CONTAINER_HEADER_MAX - reserved : 0))) != FJ_OK)
		return rc;
	if (f->type == FJ_OBJECT)
	{
		p->nkeys -= f->count;
		if (indexed)
		{
			uint32_t	members = f->hdr + reserved;
			uint32_t	i;

			keys = p->keys + p->nkeys;
			for (i = 0; i < f->count; i++)
				keys[i] -= members;
		}
	}
	hdr = p->out->data + f->hdr;
	p->wp = fj_close_container_reserved(hdr, reserved, p->wp, f->count, (int) f->type, keys);
	if (f->reserved & FJ_REFS_OUT)
		hdr[0] |= FJ_CONTAINER_REFS_OUT;
	if (f->count)
	{
		uint16_t	lead = (uint16_t) (fj_container_members(hdr) - hdr);

		fj_lead_guess_set(p->lead_guess, depth, f->slot, f->type == FJ_OBJECT, lead);
		/* the members moved: so did the strings and references among them */
		if (lead != reserved && (p->refs.nstrings || p->refs.nrefs))
			fj_refs_moved(&p->refs, p->out->data, f->hdr + reserved, (int32_t) lead - (int32_t) reserved);
	}
	return FJ_OK;
}

/*
 * The string value just written at tape offset at (FJ_REF_MIN_LEN bytes or
 * more): when an equal string value came before, write it as a reference to
 * that one instead, and mark the open containers that the reference points
 * out of (stack[0..depth)). Out of line: long strings are the rare case.
 */
static __attribute__((noinline)) void
stage2_string_ref(fj_stage2 *p, uint32_t at, fj_frame *stack, uint32_t depth)
{
	uint8_t    *base = p->out->data;
	uint32_t	target = fj_refs_find(&p->refs, base, at);

	if (target == FJ_REFS_NONE || !fj_refs_note(&p->refs, at))
		return;
	p->wp = fj_put_string_ref(base + at, at - target);
	while (depth > 0 && stack[depth - 1].hdr > target)
		stack[--depth].reserved |= FJ_REFS_OUT;
}

/*
 * Parse the whole input. The state machine has three states: a value is
 * expected (value), a value just ended (after_value), an object key is
 * expected (key).
 *
 * The hot state (write position, index cursor, key stack depth) lives in
 * local variables, not in *p: every byte stored into the tape may alias any
 * memory as far as the compiler knows, so fields of *p would be reloaded
 * after each store. SYNC() hands the locals to *p before a helper that uses
 * it, LOAD() takes them back after.
 */
static fj_code
stage2_parse(fj_stage2 *p)
{
	const uint8_t *buf = p->s1.buf;
	const uint32_t len = (uint32_t) p->s1.len;
	const uint8_t *input_end = buf + len;
	uint32_t	max_depth = p->opt->max_depth ? p->opt->max_depth : FJ_DEFAULT_MAX_DEPTH;
	fj_frame	local[64];
	fj_buf		frames;
	fj_frame   *stack = local;
	uint32_t	stack_cap = 64;
	uint32_t	depth = 0;
	uint32_t	i;
	fj_code		rc = FJ_OK;
	uint8_t    *wp = p->wp;
	uint8_t    *limit = p->limit;
	uint8_t    *base = p->out->data;
	const uint32_t *ip = p->s1.idx;
	const uint32_t *iend = ip;
	uint32_t   *keys = p->keys;
	uint32_t	nkeys = p->nkeys;

	fj_buf_borrow(&frames, local, sizeof(local));

#define SYNC() do { p->wp = wp; p->nkeys = nkeys; } while (0)
#define LOAD() do { wp = p->wp; limit = p->limit; base = p->out->data; keys = p->keys; nkeys = p->nkeys; } while (0)
#define CALL(expr) do { SYNC(); rc = (expr); LOAD(); if (rc != FJ_OK) goto done; } while (0)
#define FAIL(reason, at) do { rc = fj_fail(p->err, reason, at); goto done; } while (0)
#define NEXT() do { \
		if (__builtin_expect(ip != iend, 1)) \
			i = *ip++; \
		else \
		{ \
			i = stage2_refill(p); \
			ip = p->s1.idx + p->s1.pos; \
			iend = p->s1.idx + p->s1.n; \
		} \
	} while (0)
#define AT_END() (i >= len)
#define END_FAIL() do { rc = stage2_fail_at_end(p); goto done; } while (0)
#define RESERVE(need) do { if ((size_t) (limit - wp) < (need)) CALL(stage2_reserve_slow(p, (need))); } while (0)
	/*
	 * Close the container of frame f (at depth): inline when it reserved
	 * exactly the 3-byte header it needs (under 256 bytes, no key index),
	 * the common case, else through stage2_close.
	 */
#define CLOSE(f) do { \
		fj_frame   *f_ = (f); \
		uint8_t    *h_ = base + f_->hdr; \
		size_t		m_ = (size_t) (wp - h_) - f_->reserved; \
		if (f_->reserved == 3 && m_ <= 0xff && f_->count != 0 && \
			(f_->type == FJ_ARRAY || f_->count <= FJ_KEY_INDEX_MIN)) \
		{ \
			h_[0] = FJ_TAG(f_->type, 1); \
			h_[1] = (uint8_t) m_; \
			h_[2] = (uint8_t) f_->count; \
			if (f_->type == FJ_OBJECT) \
				nkeys -= f_->count; \
		} \
		else \
			CALL(stage2_close(p, f_, depth)); \
	} while (0)
	/*
	 * The string whose opening quote is at i (a value or a key): its closing
	 * quote is the next position; a short one without escapes in one copy,
	 * and, if value is true, one of up to 255 bytes without escapes through
	 * stage2_medium_string (only for values: adding it to the key path made
	 * number-heavy input 4-5 % slower), and a value of FJ_REF_MIN_LEN bytes or
	 * more through stage2_string_ref. Leaves i at the closing quote.
	 */
#define STRING(value) do { \
		uint32_t	q_ = i; \
		size_t		n_; \
		uint8_t    *w_; \
		\
		NEXT(); \
		if (AT_END()) \
		{ \
			if (p->s1.error_at != SIZE_MAX || p->s1.scanned != p->s1.len) \
				END_FAIL(); \
			FAIL(FJ_R_UNTERMINATED, q_); \
		} \
		n_ = i - q_ - 1; \
		if (n_ <= FJ_LEN_INLINE_MAX && limit - wp >= 32 && \
			copy_short_string(wp + 1, buf + q_ + 1, n_, input_end)) \
		{ \
			wp[0] = FJ_TAG(FJ_STRING, n_); \
			wp += 1 + n_; \
		} \
		else \
		{ \
			uint32_t	at_ = (uint32_t) (wp - base); \
			\
			if ((value) && n_ > FJ_LEN_INLINE_MAX && n_ <= 0xff && \
				(size_t) (limit - wp) >= n_ + 2 && \
				(w_ = stage2_medium_string(wp, buf + q_ + 1, n_, input_end)) != NULL) \
				wp = w_; \
			else \
				CALL(stage2_string(p, q_, i)); \
			/* FJ_REF_MIN_LEN bytes or more (escapes may have made it shorter) */ \
			if ((value) && (size_t) (wp - base) - at_ >= FJ_REF_MIN_LEN + 2 && at_ >= p->refs.from) \
			{ \
				SYNC(); \
				stage2_string_ref(p, at_, stack, depth); \
				LOAD(); \
			} \
		} \
	} while (0)

	NEXT();
	if (AT_END())
		END_FAIL();

value:
	switch (buf[i])
	{
		case '{':
		case '[':
			if (depth >= max_depth)
				FAIL(FJ_R_DEPTH, i);
			if (depth == stack_cap)
			{
				frames.len = (size_t) depth * sizeof(fj_frame);
				if (!fj_buf_reserve_within(p->alloc, &frames, sizeof(fj_frame),
										   (size_t) max_depth * sizeof(fj_frame)))
					FAIL(FJ_R_NOMEM, i);
				stack = (fj_frame *) frames.data;
				stack_cap = (uint32_t) (frames.cap / sizeof(fj_frame));
			}
			{
				/* an array's elements share a slot, an object's members each have one */
				uint8_t		slot = depth && stack[depth - 1].type == FJ_OBJECT ?
					(uint8_t) (stack[depth - 1].count & (FJ_GUESS_SLOTS - 1)) : 0;
				/* reserve what the same position led with last time */
				uint16_t	r = (uint16_t) fj_lead_guess_get(p->lead_guess, depth, slot, buf[i] == '{', len - i);

				RESERVE(r);
				stack[depth].hdr = (uint32_t) (wp - base);
				stack[depth].count = 0;
				stack[depth].type = buf[i] == '{' ? FJ_OBJECT : FJ_ARRAY;
				stack[depth].slot = slot;
				stack[depth].reserved = r;
			}
			wp += stack[depth].reserved;
			depth++;
			if (buf[i] == '{')
			{
				NEXT();
				if (AT_END())
					END_FAIL();
				if (buf[i] == '}')
				{
					depth--;
					CLOSE(&stack[depth]);
					goto after_value;
				}
				goto key;
			}
			NEXT();
			if (AT_END())
				END_FAIL();
			if (buf[i] == ']')
			{
				depth--;
				CLOSE(&stack[depth]);
				goto after_value;
			}
			goto value;
		case '"':
			STRING(1);
			goto after_value;
		case 't':
		case 'f':
		case 'n':
			{
				uint8_t		tag = stage2_literal(p, i);

				if (tag == 0xff)
				{
					rc = p->err->code;
					goto done;
				}
				RESERVE(1);
				*wp++ = tag;
				goto after_value;
			}
		case '-':
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
#if defined(FJ_KERNEL_HAS_NUMBER_MASKS)
			{
				uint8_t    *w_;

				/*
				 * the fast path writes up to 19 bytes; numbers in arrays only
				 * (for an object's members the byte-at-a-time path measured
				 * faster: instruments.json, short integers in objects, 1.93
				 * GB/s with them on this path, 2.07 without)
				 */
				if (depth && stack[depth - 1].type == FJ_ARRAY && limit - wp >= 32 &&
					(w_ = stage2_number_fast(wp, buf + i, input_end)) != NULL)
				{
					wp = w_;
					goto after_value;
				}
			}
#endif
			CALL(stage2_number(p, i));
			goto after_value;
		default:
			FAIL(FJ_R_VALUE, i);
	}

key:
	if (buf[i] != '"')
		FAIL(FJ_R_KEY, i);
	if (nkeys == p->keys_cap)
		CALL(stage2_grow_keys(p));
	keys[nkeys++] = (uint32_t) (wp - base);
	STRING(0);				/* keys are rarely longer than 27 bytes */
	NEXT();
	if (AT_END())
		END_FAIL();
	if (buf[i] != ':')
		FAIL(FJ_R_COLON, i);
	NEXT();
	if (AT_END())
		END_FAIL();
	goto value;

after_value:
	if (depth == 0)
	{
		NEXT();
		if (!AT_END())
			FAIL(FJ_R_TRAILING, i);
		if (p->s1.error_at != SIZE_MAX || p->s1.scanned != p->s1.len)
			END_FAIL();
		goto done;
	}
#if defined(FJ_KERNEL_HAS_NUMBER_MASKS)
after_member:
#endif
	NEXT();
	if (AT_END())
		END_FAIL();
	{
		fj_frame   *f = &stack[depth - 1];

		f->count++;
		if (buf[i] == ',')
		{
			NEXT();
			if (AT_END())
				END_FAIL();
			if (f->type == FJ_OBJECT)
				goto key;
#if defined(FJ_KERNEL_HAS_NUMBER_MASKS)
			{
				uint8_t    *w_;

				/* an array of numbers: the next one without the dispatch on its first byte */
				if ((buf[i] == '-' || (unsigned) (buf[i] - '0') < 10) && limit - wp >= 32 &&
					(w_ = stage2_number_fast(wp, buf + i, input_end)) != NULL)
				{
					wp = w_;
					goto after_member;
				}
			}
#endif
			goto value;
		}
		if (buf[i] == (f->type == FJ_OBJECT ? '}' : ']'))
		{
			depth--;
			CLOSE(f);
			goto after_value;
		}
		FAIL(f->type == FJ_OBJECT ? FJ_R_OBJECT_NEXT : FJ_R_ARRAY_NEXT, i);
	}

done:
	SYNC();
	fj_buf_release(p->alloc, &frames);
	fj_buf_release(p->alloc, &p->keys_buf);
	return rc;
#undef SYNC
#undef LOAD
#undef CALL
#undef FAIL
#undef NEXT
#undef AT_END
#undef END_FAIL
#undef RESERVE
#undef CLOSE
#undef STRING
}

/* The kernel's parse entry: presize the tape, run both stages. */
static fj_code
kernel_parse(const uint8_t *json, size_t len, const fj_parse_options *opt,
			 fj_buf *out, fj_error *err)
{
	fj_stage2	p;
	size_t		cap;
	fj_code		rc;

	/* all but the string memory, whose local arrays need no clearing (fj_refs_init) */
	memset(&p, 0, offsetof(fj_stage2, refs));
	p.s1.buf = json;
	p.s1.len = len;
	p.s1.error_at = SIZE_MAX;
	utf8_init(&p.s1.utf8);
	p.alloc = opt->alloc;
	p.out = out;
	p.err = err;
	p.opt = opt;
	p.max_size = opt->max_size;
	fj_buf_borrow(&p.keys_buf, p.keys_local, sizeof(p.keys_local));
	p.keys = p.keys_local;
	p.keys_cap = sizeof(p.keys_local) / sizeof(p.keys_local[0]);
	fj_refs_init(&p.refs, opt->alloc);
	p.refs.from = (uint32_t) (opt->prefix + FJ_REFS_FROM);

	/*
	 * The index holds a sixth of a window's bytes (JSON rarely has more
	 * structural characters than that); denser input just gets shorter
	 * windows. Small inputs get a small index.
	 */
	p.s1.idx_cap = (uint32_t) ((len < FJ_WINDOW ? len : FJ_WINDOW) / 6 + 128);
	p.s1.idx = opt->alloc->alloc(opt->alloc->ctx, (p.s1.idx_cap + FJ_INDEX_SLACK) * sizeof(uint32_t));
	if (!p.s1.idx)
		return fj_fail(err, FJ_R_NOMEM, 0);

	/* presized: most documents' tapes are no larger than their text */
	cap = opt->prefix + FJ_TAPE_HEADER + len + len / 16 + 256 + FJ_TAPE_SLACK;
	if (p.max_size && cap > p.max_size + FJ_TAPE_SLACK)
		cap = p.max_size + FJ_TAPE_SLACK;
	if (!fj_buf_reserve(opt->alloc, out, cap))
	{
		opt->alloc->release(opt->alloc->ctx, p.s1.idx);
		return fj_fail(err, FJ_R_NOMEM, 0);
	}
	p.wp = out->data + opt->prefix;
	p.limit = out->data + cap - FJ_TAPE_SLACK;
	if ((rc = stage2_reserve(&p, FJ_TAPE_HEADER)) == FJ_OK)
	{
		*p.wp++ = FJ_TAPE_VERSION;
		*p.wp++ = 0;
		rc = stage2_parse(&p);
	}
	opt->alloc->release(opt->alloc->ctx, p.s1.idx);
	fj_refs_release(&p.refs);
	if (rc == FJ_OK)
	{
		out->data[opt->prefix + 1] = fj_root_flags(out->data + opt->prefix + FJ_TAPE_HEADER);
		out->len = (size_t) (p.wp - out->data);
		if (p.max_size && out->len > p.max_size)
			rc = fj_fail(err, FJ_R_TOO_BIG, len);
	}
	if (rc != FJ_OK)
		fj_buf_release(opt->alloc, out);
	return rc;
}

#endif							/* FJ_STAGE2_H */
