/*
 * REFERENCE COPY (test oracle): src/cbor_encode.c as of commit 646ea70, before
 * the fast paths; only its #include lines differ. Do not change it: the
 * tests prove that the current code writes exactly the bytes this does.
 *
 * cbor_encode.c — tape to CBOR (RFC 8949 §6.2, preferred serialization),
 * written with libcbor's encoder functions into an fj_buf.
 *
 * The tape is walked iteratively, containers on an explicit stack, as the
 * text writer does. Heads are always written with libcbor (which picks the
 * shortest argument); the number mapping is ours: NUMBER texts become a
 * 64-bit integer, a bignum, the shortest exact float or a decimal fraction
 * (see cbor.h). With deterministic, each object's members are sorted by the
 * bytewise order of their keys' encodings (for text keys: shorter first,
 * then bytewise) and an equal neighbour is a duplicate key.
 */
#include "ref_names.h"
#include "../../src/tape.h"

#include <cbor.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* A member of an object being written in deterministic order. */
typedef struct emember
{
	const uint8_t *key;			/* the key's tape value */
	const uint8_t *text;		/* its text */
	uint32_t	len;
} emember;

typedef struct eframe
{
	const uint8_t *next;		/* tape order: the next member */
	const uint8_t *members_end;
	size_t		base;			/* deterministic objects: their members in the member stack */
	size_t		pos;			/* the next of them */
	size_t		left;			/* how many are still to write */
	bool		object;
	bool		in_order;		/* members in tape order (arrays, or not deterministic) */
} eframe;

typedef struct encoder
{
	const fj_allocator *a;
	const fj_cbor_encode_options *opt;
	const uint8_t *root;
	fj_buf		out;
	size_t		max_size;
	fj_error   *err;
	fj_poll		poll;
	fj_buf		frames;			/* eframe: the open containers, innermost last */
	fj_buf		members;		/* emember: sorted members of the open deterministic objects */
	fj_buf		digits;			/* a decimal fraction's mantissa digits */
	fj_buf		bytes;			/* a bignum's bytes */
} encoder;

#define POLL_VALUES 65536		/* values written between interrupt polls */

#define NFRAMES(e) ((e)->frames.len / sizeof(eframe))
#define TOP_FRAME(e) ((eframe *) ((e)->frames.data + (e)->frames.len) - 1)
#define NMEMBERS(e) ((e)->members.len / sizeof(emember))
#define MEMBER(e, i) ((emember *) (e)->members.data + (i))

static fj_code
fail(encoder *e, fj_reason reason, const uint8_t *at)
{
	return fj_fail(e->err, reason, at ? (size_t) (at - e->root) : 0);
}

/* Make room for n more bytes of output. */
static fj_code
reserve(encoder *e, size_t n)
{
	if (e->out.cap - e->out.len >= n)
		return FJ_OK;
	if (n > SIZE_MAX - e->out.len || (e->max_size && e->out.len + n > e->max_size))
		return fail(e, FJ_R_CBOR_OUTPUT_TOO_BIG, NULL);
	if (!fj_buf_reserve_within(e->a, &e->out, n, e->max_size))
		return fail(e, FJ_R_NOMEM, NULL);
	return FJ_OK;
}

/* Append n bytes. */
static fj_code
put_bytes(encoder *e, const void *p, size_t n)
{
	fj_code		rc = reserve(e, n);

	if (rc != FJ_OK)
		return rc;
	if (n)
		memcpy(e->out.data + e->out.len, p, n);
	e->out.len += n;
	return FJ_OK;
}

/* Room for one head (at most 9 bytes); then out.data + out.len is where it goes. */
#define HEAD(e, call) \
	do { \
		fj_code		rc_ = reserve((e), 9); \
		\
		if (rc_ != FJ_OK) \
			return rc_; \
		(e)->out.len += (call); \
	} while (0)
#define WP(e) ((e)->out.data + (e)->out.len)
#define ROOM(e) ((e)->out.cap - (e)->out.len)

static fj_code
put_uint(encoder *e, uint64_t v)
{
	HEAD(e, cbor_encode_uint(v, WP(e), ROOM(e)));
	return FJ_OK;
}

/* The integer -1 - n. */
static fj_code
put_negint(encoder *e, uint64_t n)
{
	HEAD(e, cbor_encode_negint(n, WP(e), ROOM(e)));
	return FJ_OK;
}

static fj_code
put_tag(encoder *e, uint64_t tag)
{
	HEAD(e, cbor_encode_tag(tag, WP(e), ROOM(e)));
	return FJ_OK;
}

static fj_code
put_text(encoder *e, const uint8_t *s, size_t n)
{
	HEAD(e, cbor_encode_string_start(n, WP(e), ROOM(e)));
	return put_bytes(e, s, n);
}

static fj_code
put_bytestring(encoder *e, const uint8_t *s, size_t n)
{
	HEAD(e, cbor_encode_bytestring_start(n, WP(e), ROOM(e)));
	return put_bytes(e, s, n);
}

/*
 * A double in the shortest of binary16/32/64 that holds it exactly.
 * binary16 is written by hand: libcbor 0.8's cbor_encode_half rounds
 * subnormal halves wrongly (3 * 2^-24 comes out as 2 * 2^-24).
 */
static fj_code
put_double(encoder *e, double d)
{
	uint16_t	half;

	if (fj_double_to_half(d, &half))
	{
		uint8_t		b[3] = {0xf9, (uint8_t) (half >> 8), (uint8_t) half};

		return put_bytes(e, b, 3);
	}
	if (fabs(d) <= FLT_MAX && (double) (float) d == d)
		HEAD(e, cbor_encode_single((float) d, WP(e), ROOM(e)));
	else
		HEAD(e, cbor_encode_double(d, WP(e), ROOM(e)));
	return FJ_OK;
}

/* Whether the n digits (no leading zeros) are at most limit (20 digits). */
static bool
digits_le(const uint8_t *s, size_t n, const char *limit)
{
	size_t		ln = strlen(limit);

	return n < ln || (n == ln && memcmp(s, limit, n) <= 0);
}

/* The n digits (at most 20, value at most 2^64 - 1 + add) as a uint64, minus sub. */
static uint64_t
digits_u64(const uint8_t *s, size_t n, uint64_t sub)
{
	uint64_t	v = 0;
	size_t		i;

	/* 2^64 itself (for -2^64) wraps to 0 and the subtraction brings it back */
	for (i = 0; i < n; i++)
		v = v * 10 + (uint64_t) (s[i] - '0');
	return v - sub;
}

/*
 * The integer whose magnitude is digits[0..n) (no leading zeros, not zero):
 * major type 0/1 when it fits, else a tag 2/3 bignum.
 */
static fj_code
put_big_integer(encoder *e, bool negative, const uint8_t *digits, size_t n)
{
	fj_code		rc;

	if (!negative && digits_le(digits, n, "18446744073709551615"))
		return put_uint(e, digits_u64(digits, n, 0));
	if (negative && digits_le(digits, n, "18446744073709551616"))
		return put_negint(e, digits_u64(digits, n, 1));
	/* tag 3 holds n = -1 - value = magnitude - 1 */
	rc = fj_decimal_to_bignum(digits, n, negative, e->a, &e->poll, &e->bytes);
	if (rc != FJ_OK)
		return fail(e, rc == FJ_ERR_NOMEM ? FJ_R_NOMEM : FJ_R_INTERRUPTED, NULL);
	if ((rc = put_tag(e, negative ? 3 : 2)) != FJ_OK)
		return rc;
	return put_bytestring(e, e->bytes.data, e->bytes.len);
}

/* A NUMBER value: see cbor.h for the mapping. */
static fj_code
put_number(encoder *e, const uint8_t *v)
{
	char		buf[FJ_NUMBER_TEXT_BUF];
	const uint8_t *text;
	uint32_t	len = fj_number_text(v, buf, &text);
	fj_number_parts n;
	double		d;
	size_t		total,
				first;
	int64_t		exp;
	fj_code		rc;

	fj_number_split(text, len, &n);
	if (n.integer)
	{
		/* outside int64 (or "-0", which is the integer 0) */
		if (n.int_len == 1 && n.int_digits[0] == '0')
			return put_uint(e, 0);
		return put_big_integer(e, n.negative, n.int_digits, n.int_len);
	}
	if (fj_number_is_double(&n, &d))
		return put_double(e, d);

	/*
	 * A decimal fraction [exponent, mantissa]: the mantissa is every digit
	 * of the significand after any leading zeros (trailing zeros kept, as
	 * the text has them), the exponent what the text's exponent becomes
	 * once the point moves past the fraction digits.
	 */
	if (n.exp_overflow || n.exp < INT64_MIN + (int64_t) n.frac_len)
		return fail(e, FJ_R_CBOR_EXPONENT, v);
	exp = n.exp - (int64_t) n.frac_len;
	total = n.int_len + n.frac_len;
	e->digits.len = 0;
	if (!fj_buf_reserve(e->a, &e->digits, total))
		return fail(e, FJ_R_NOMEM, NULL);
	memcpy(e->digits.data, n.int_digits, n.int_len);
	memcpy(e->digits.data + n.int_len, n.frac_digits, n.frac_len);
	for (first = 0; first < total && e->digits.data[first] == '0'; first++)
		;
	/* a zero significand always names a double, so first < total here */
	if ((rc = put_tag(e, 4)) != FJ_OK)
		return rc;
	HEAD(e, cbor_encode_array_start(2, WP(e), ROOM(e)));
	if ((rc = exp >= 0 ? put_uint(e, (uint64_t) exp) : put_negint(e, (uint64_t) (-1 - exp))) != FJ_OK)
		return rc;
	return put_big_integer(e, n.negative, e->digits.data + first, total - first);
}

/* Write one scalar value. */
static fj_code
put_scalar(encoder *e, const uint8_t *v)
{
	const uint8_t *text;
	uint32_t	len;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			if (FJ_IMM(v[0]) == FJ_NULL)
				HEAD(e, cbor_encode_null(WP(e), ROOM(e)));
			else
				HEAD(e, cbor_encode_bool(FJ_IMM(v[0]) == FJ_TRUE, WP(e), ROOM(e)));
			return FJ_OK;
		case FJ_UINT:
			return put_uint(e, fj_int_magnitude(v));
		case FJ_NINT:
			/* the tape's magnitude field is -1 - value, as CBOR's */
			return put_negint(e, fj_int_magnitude(v));
		case FJ_NUMBER:
		case FJ_PACKED:
			return put_number(e, v);
		default:
			len = fj_text(v, &text);
			return put_text(e, text, len);
	}
}

/* Order of members by their keys' CBOR encodings: length first, then bytes. */
static int
member_cmp(const void *pa, const void *pb)
{
	const emember *a = pa,
			   *b = pb;
	int			c;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	c = a->len ? memcmp(a->text, b->text, a->len) : 0;
	if (c)
		return c;
	/* equal keys: document order, so the later one is reported */
	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * Push the members of the object obj (count > 0) onto the member stack in
 * deterministic order; a repeated key is an error.
 */
static fj_code
sort_members(encoder *e, const uint8_t *obj, uint32_t count)
{
	const uint8_t *p = fj_container_members(obj);
	emember    *m;
	uint32_t	i;

	if (!(m = fj_buf_push(e->a, &e->members, (size_t) count * sizeof(emember))))
		return fail(e, FJ_R_NOMEM, NULL);
	for (i = 0; i < count; i++)
	{
		m[i].key = p;
		m[i].len = fj_text(p, &m[i].text);
		p = m[i].text + m[i].len;
		p += fj_value_size(p);
	}
	qsort(m, count, sizeof(emember), member_cmp);
	for (i = 1; i < count; i++)
		if (m[i].len == m[i - 1].len && memcmp(m[i].text, m[i - 1].text, m[i].len) == 0)
			return fail(e, FJ_R_CBOR_DUPLICATE, m[i].key);
	return FJ_OK;
}

/* Write the key of the next member of the top frame; returns its value. */
static fj_code
next_member(encoder *e, const uint8_t **v)
{
	eframe	   *f = TOP_FRAME(e);
	const uint8_t *key;
	fj_code		rc;

	if (f->in_order)
	{
		key = f->next;
		if (f->object)
		{
			if ((rc = put_scalar(e, key)) != FJ_OK)
				return rc;
			*v = key + fj_value_size(key);
		}
		else
			*v = key;
		f->next = *v + fj_value_size(*v);
		return FJ_OK;
	}
	else
	{
		const emember *m = MEMBER(e, f->pos++);

		f->left--;
		if ((rc = put_text(e, m->text, m->len)) != FJ_OK)
			return rc;
		*v = m->text + m->len;
		return FJ_OK;
	}
}

/* Whether the top frame has written all its members. */
static inline bool
frame_done(const eframe *f)
{
	return f->in_order ? f->next == f->members_end : f->left == 0;
}

static fj_code
encode(encoder *e, const uint8_t *v)
{
	fj_code		rc;
	uint64_t	values = 0;

	for (;;)
	{
		int			type = FJ_TYPE(v[0]);

		if (++values % POLL_VALUES == 0 && e->poll.interrupted && e->poll.interrupted(e->poll.ctx))
			return fail(e, FJ_R_INTERRUPTED, v);
		if (type == FJ_ARRAY || type == FJ_OBJECT)
		{
			uint32_t	count = fj_container_count(v);
			eframe	   *f;

			if (type == FJ_ARRAY)
				HEAD(e, cbor_encode_array_start(count, WP(e), ROOM(e)));
			else
				HEAD(e, cbor_encode_map_start(count, WP(e), ROOM(e)));
			if (count > 0)
			{
				if (!(f = fj_buf_push(e->a, &e->frames, sizeof(eframe))))
					return fail(e, FJ_R_NOMEM, NULL);
				f->object = type == FJ_OBJECT;
				f->in_order = !(f->object && e->opt->deterministic);
				f->next = fj_container_members(v);
				f->members_end = fj_container_members_end(v);
				f->base = f->pos = NMEMBERS(e);
				f->left = count;
				if (!f->in_order && (rc = sort_members(e, v, count)) != FJ_OK)
					return rc;
				if ((rc = next_member(e, &v)) != FJ_OK)
					return rc;
				continue;
			}
		}
		else if ((rc = put_scalar(e, v)) != FJ_OK)
			return rc;

		/* close finished containers, then go on with the next member */
		while (NFRAMES(e) > 0 && frame_done(TOP_FRAME(e)))
		{
			eframe	   *f = TOP_FRAME(e);

			if (!f->in_order)
				e->members.len = f->base * sizeof(emember);
			e->frames.len -= sizeof(eframe);
		}
		if (NFRAMES(e) == 0)
			return FJ_OK;
		if ((rc = next_member(e, &v)) != FJ_OK)
			return rc;
	}
}

fj_code
fj_cbor_encode(const uint8_t *v, const fj_cbor_encode_options *opt, fj_buf *out, fj_error *err)
{
	static const fj_cbor_encode_options defaults = {0};
	encoder		e;
	fj_code		rc;
	size_t		guess;

	if (!opt)
		opt = &defaults;
	memset(&e, 0, sizeof(e));
	e.a = opt->alloc ? opt->alloc : &fj_malloc_allocator;
	e.opt = opt;
	e.root = v;
	e.err = err;
	e.max_size = opt->max_size;
	e.poll.interrupted = opt->interrupted;
	e.poll.ctx = opt->interrupt_ctx;
	fj_error_clear(err);

	/* a first guess: CBOR is usually a little smaller than the tape */
	guess = opt->prefix + fj_value_size(v) + 16;
	if (e.max_size && guess > e.max_size)
		guess = e.max_size;
	rc = reserve(&e, guess);
	if (rc == FJ_OK)
	{
		e.out.len = opt->prefix;
		rc = encode(&e, v);
	}
	fj_buf_release(e.a, &e.frames);
	fj_buf_release(e.a, &e.members);
	fj_buf_release(e.a, &e.digits);
	fj_buf_release(e.a, &e.bytes);
	if (rc != FJ_OK)
	{
		fj_buf_release(e.a, &e.out);
		memset(out, 0, sizeof(*out));
		return rc;
	}
	*out = e.out;
	return FJ_OK;
}
