/*
 * fuzz_cbor.c — libFuzzer target for the CBOR decoder (fj_cbor_decode),
 * which reads untrusted bytea in fastjson_from_cbor, and for the encoder on
 * everything the decoder accepts.
 *
 * For each input (arbitrary bytes, taken as one CBOR data item):
 *   - fj_cbor_decode on an exactly sized heap copy must not crash or read out
 *     of bounds (ASan), must not leak, must leave its input alone, and must
 *     either accept or fail cleanly: FJ_ERR_CBOR or FJ_ERR_DEPTH with a
 *     message and an offset inside the input;
 *   - with a varlena-sized prefix it gives the same tape after the prefix;
 *   - under allocation failure: FJ_ERR_NOMEM, nothing leaked;
 * and for every input it accepts:
 *   - the tape passes fj_validate_tape and fj_write_json;
 *   - fj_cbor_encode (in order, and deterministic) succeeds, or fails only
 *     as documented (a duplicate key when deterministic, an exponent beyond
 *     64 bits), without leaks, also under allocation failure;
 *   - decoding that CBOR gives the same JSON value, numbers exactly, and one
 *     more round gives the same tape bytes (a fixpoint);
 * and the decoder, and the encoder on what it accepts, give exactly what the
 * implementation before the fast paths gives (test/cbor_ref/): the same tape
 * or the same error reason at the same offset, the same CBOR bytes.
 *
 * Build: clang-14 -fsanitize=fuzzer,address,undefined, the core sources
 * (CORE_SRC and CBOR_SRC of core.mk), the .c files of test/cbor_ref/ and -lcbor -lm. Seeds: RFC 8949
 * Appendix A (../shared/data/cbor/appendix_a.json) and fastjson_to_cbor of
 * the corpus; dictionary test/fuzz/cbor.dict.
 */
#include "fuzz_common.h"
#include "../../src/cbor.h"
#include "../cbor_ref/cbor_ref.h"

#define MAX_DEPTH 64
#define PREFIX 4

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *
code_name(fj_code c)
{
	if (c == FJ_ERR_CBOR)
		return "FJ_ERR_CBOR";
	if (c == FJ_ERR_DUPLICATE_KEY)
		return "FJ_ERR_DUPLICATE_KEY";
	return fz_code_name(c);
}

/* A number's value: sign, digits without leading or trailing zeros, exponent of the last. */
typedef struct exact
{
	bool		negative;
	const uint8_t *int_digits,
			   *frac_digits;
	size_t		int_len,
				frac_len;
	size_t		first,			/* significant digits [first, last) of int then frac */
				last;
	int64_t		exp;			/* exponent of digit last - 1 */
	bool		overflow;
	char		small[FJ_NUMBER_TEXT_BUF];
} exact;

static uint8_t
exact_digit(const exact *x, size_t i)
{
	return i < x->int_len ? x->int_digits[i] : x->frac_digits[i - x->int_len];
}

static void
exact_of(const uint8_t *v, exact *x)
{
	const uint8_t *text;
	uint32_t	len;
	fj_number_parts p;
	size_t		total;

	memset(x, 0, sizeof(*x));
	if (fj_is_text_number(v))
		len = fj_number_text(v, x->small, &text);
	else
	{
		len = (uint32_t) snprintf(x->small, sizeof(x->small), "%lld", (long long) fj_int_value(v));
		text = (const uint8_t *) x->small;
	}
	fj_number_split(text, len, &p);
	x->int_digits = p.int_digits;
	x->int_len = p.int_len;
	x->frac_digits = p.frac_digits;
	x->frac_len = p.frac_len;
	total = p.int_len + p.frac_len;
	for (x->first = 0; x->first < total && exact_digit(x, x->first) == '0'; x->first++)
		;
	for (x->last = total; x->last > x->first && exact_digit(x, x->last - 1) == '0'; x->last--)
		;
	x->negative = p.negative && x->last > x->first;
	/* exponent of the last significant digit: exp - frac_len + trailing zeros */
	x->overflow = p.exp_overflow || p.exp > INT64_MAX / 2 || p.exp < INT64_MIN / 2;
	x->exp = x->last > x->first ? p.exp - (int64_t) p.frac_len + (int64_t) (total - x->last) : 0;
}

static bool
numbers_equal(const uint8_t *a, const uint8_t *b)
{
	exact		x,
				y;
	size_t		i;

	exact_of(a, &x);
	exact_of(b, &y);
	if (x.last == x.first || y.last == y.first)
		return x.last == x.first && y.last == y.first;	/* zeros, whatever the exponent */
	if (x.overflow || y.overflow)
		return x.overflow && y.overflow;	/* not compared */
	if (x.negative != y.negative || x.exp != y.exp || x.last - x.first != y.last - y.first)
		return false;
	for (i = 0; i < x.last - x.first; i++)
		if (exact_digit(&x, x.first + i) != exact_digit(&y, y.first + i))
			return false;
	return true;
}

static bool
is_number(const uint8_t *v)
{
	int			t = FJ_TYPE(v[0]);

	return t == FJ_UINT || t == FJ_NINT || t == FJ_NUMBER || t == FJ_PACKED;
}

/* The same JSON value, in order, numbers by exact value (iterative; at most MAX_DEPTH deep). */
static bool
same_value(const uint8_t *a, const uint8_t *b)
{
	struct
	{
		const uint8_t *members_end,
				   *a_end,
				   *b_end;
	}			stack[MAX_DEPTH + 1];
	int			depth = 0;

	for (;;)
	{
		int			ta = FJ_TYPE(a[0]);

		if (is_number(a) || is_number(b))
		{
			if (!is_number(a) || !is_number(b) || !numbers_equal(a, b))
				return false;
		}
		else if (ta != FJ_TYPE(b[0]))
			return false;
		else if (ta == FJ_LITERAL)
		{
			if (a[0] != b[0])
				return false;
		}
		else if (ta == FJ_STRING)
		{
			const uint8_t *sa,
					   *sb;
			uint32_t	la = fj_text(a, &sa),
						lb = fj_text(b, &sb);

			if (la != lb || memcmp(sa, sb, la) != 0)
				return false;
		}
		else
		{
			if (fj_container_count(a) != fj_container_count(b))
				return false;
			if (fj_container_count(a) > 0)
			{
				FZ_CHECK(depth <= MAX_DEPTH, "tape deeper than %d", MAX_DEPTH);
				stack[depth].members_end = fj_container_members_end(a);
				stack[depth].a_end = a + fj_value_size(a);
				stack[depth].b_end = b + fj_value_size(b);
				depth++;
				a = fj_container_members(a);
				b = fj_container_members(b);
				continue;
			}
		}
		a += fj_value_size(a);
		b += fj_value_size(b);
		/* leave finished containers (past any key index) */
		while (depth > 0 && a == stack[depth - 1].members_end)
		{
			depth--;
			a = stack[depth].a_end;
			b = stack[depth].b_end;
		}
		if (depth == 0)
			return true;
	}
}

/* Decode with the strict allocator; checks the failure contract. */
static fj_code
decode(const uint8_t *in, size_t size, bool substitute, size_t prefix, fz_alloc_state *st,
	   fj_allocator *a, fj_buf *tape, fj_error *err)
{
	fj_cbor_decode_options opt = {0};
	fj_code		rc;
	long		live = st->live;

	opt.alloc = a;
	opt.max_depth = MAX_DEPTH;
	opt.substitute_null = substitute;
	opt.prefix = prefix;
	memset(err, 0x5a, sizeof(*err));
	rc = fj_cbor_decode(in, size, &opt, tape, err);
	FZ_CHECK(rc == err->code, "fj_cbor_decode returns %s, err.code %s", code_name(rc), code_name(err->code));
	if (rc != FJ_OK)
	{
		FZ_CHECK(st->live == live, "fj_cbor_decode leaks %ld blocks after %s", st->live - live, code_name(rc));
		FZ_CHECK(tape->data == NULL, "fj_cbor_decode leaves a buffer after %s", code_name(rc));
		FZ_CHECK(err->message != NULL, "fj_cbor_decode gives %s without a message", code_name(rc));
		FZ_CHECK(err->offset <= size, "fj_cbor_decode: \"%s\" at offset %zu past the input (%zu bytes)",
				 err->message, err->offset, size);
	}
	return rc;
}

/* Encode; FJ_OK, or a documented failure (then *out is empty). */
static fj_code
encode(const uint8_t *v, bool deterministic, fz_alloc_state *st, fj_allocator *a, fj_buf *out)
{
	fj_cbor_encode_options opt = {0};
	fj_error	err;
	fj_code		rc;
	long		live = st->live;

	opt.alloc = a;
	opt.deterministic = deterministic;
	rc = fj_cbor_encode(v, &opt, out, &err);
	if (rc != FJ_OK)
	{
		FZ_CHECK(st->live == live, "fj_cbor_encode leaks %ld blocks after %s", st->live - live, code_name(rc));
		FZ_CHECK((rc == FJ_ERR_DUPLICATE_KEY && deterministic) ||
				 (rc == FJ_ERR_TOO_BIG && err.reason == FJ_R_CBOR_EXPONENT) ||
				 (rc == FJ_ERR_NOMEM && st->failed),
				 "fj_cbor_encode%s fails with %s: %s", deterministic ? " (deterministic)" : "",
				 code_name(rc), err.message);
	}
	return rc;
}

/* The reference decoder gives the same result: the same tape, or the same error. */
static void
check_reference_decode(const uint8_t *in, size_t size, bool substitute, fj_code rc,
					   const fj_buf *tape, const fj_error *err)
{
	fj_cbor_decode_options opt = {0};
	fj_buf		ref = {0};
	fj_error	rerr;
	fj_code		rrc;

	opt.max_depth = MAX_DEPTH;
	opt.substitute_null = substitute;
	rrc = fj_ref_cbor_decode(in, size, &opt, &ref, &rerr);
	FZ_CHECK(rrc == rc, "fj_cbor_decode gives %s, the reference %s", code_name(rc), code_name(rrc));
	if (rc == FJ_OK && rrc == FJ_OK && (ref.len != tape->len || memcmp(ref.data, tape->data, ref.len) != 0))
	{
		/*
		 * The decoder writes long repeated string values as references, as the
		 * parser does, and the reference never does: then the JSON texts agree.
		 */
		fj_buf		ta = {0},
					tb = {0};

		FZ_CHECK(fj_write_json(tape->data + FJ_TAPE_HEADER, &fj_malloc_allocator, &ta) == FJ_OK &&
				 fj_write_json(ref.data + FJ_TAPE_HEADER, &fj_malloc_allocator, &tb) == FJ_OK &&
				 ta.len == tb.len && memcmp(ta.data, tb.data, ta.len) == 0,
				 "the tape differs from the reference's, and so does its text");
		fj_buf_release(&fj_malloc_allocator, &ta);
		fj_buf_release(&fj_malloc_allocator, &tb);
	}
	else if (rc != FJ_OK && rrc != FJ_OK)
		FZ_CHECK(rerr.reason == err->reason && rerr.offset == err->offset,
				 "the error differs from the reference's: \"%s\" at %zu, the reference \"%s\" at %zu",
				 err->message, err->offset, rerr.message, rerr.offset);
	fj_buf_release(&fj_malloc_allocator, &ref);
}

/* The reference encoder gives the same result on the tape value v. */
static void
check_reference_encode(const uint8_t *v, bool deterministic)
{
	fj_cbor_encode_options opt = {0};
	fj_buf		a = {0},
				b = {0};
	fj_error	ea,
				eb;
	fj_code		ra,
				rb;

	opt.deterministic = deterministic;
	ra = fj_cbor_encode(v, &opt, &a, &ea);
	rb = fj_ref_cbor_encode(v, &opt, &b, &eb);
	FZ_CHECK(ra == rb, "fj_cbor_encode%s gives %s, the reference %s", deterministic ? " (deterministic)" : "",
			 code_name(ra), code_name(rb));
	if (ra == FJ_OK && rb == FJ_OK)
		FZ_CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
				 "fj_cbor_encode%s bytes differ from the reference's", deterministic ? " (deterministic)" : "");
	else if (ra != FJ_OK && rb != FJ_OK)
		FZ_CHECK(ea.reason == eb.reason && ea.offset == eb.offset, "fj_cbor_encode's error differs from the reference's");
	fj_buf_release(&fj_malloc_allocator, &a);
	fj_buf_release(&fj_malloc_allocator, &b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	uint8_t    *copy = malloc(size ? size : 1);
	uint64_t	h = fz_hash(in, size);
	bool		substitute = h & 1;
	fz_alloc_state st;
	fj_allocator a = fz_allocator(&st);
	fj_error	err,
				verr;
	fj_code		rc,
				rc2;
	fj_buf		tape = {0},
				tape_p = {0},
				text = {0};
	long		total;
	int			det;

	memcpy(copy, in, size);
	fz_input = copy;
	fz_input_len = size;

	rc = decode(copy, size, substitute, 0, &st, &a, &tape, &err);
	total = st.calls;
	FZ_CHECK(memcmp(copy, in, size) == 0, "fj_cbor_decode wrote to its input");
	if (rc != FJ_OK)
		FZ_CHECK(rc == FJ_ERR_CBOR || rc == FJ_ERR_DEPTH, "fj_cbor_decode gives %s (%s)", code_name(rc), err.message);
	check_reference_decode(copy, size, substitute, rc, &tape, &err);
	if (rc == FJ_OK)
	{
		check_reference_encode(tape.data + FJ_TAPE_HEADER, false);
		check_reference_encode(tape.data + FJ_TAPE_HEADER, true);
	}

	/* with a prefix: the same result, the same tape after it */
	rc2 = decode(copy, size, substitute, PREFIX, &st, &a, &tape_p, &verr);
	FZ_CHECK(rc2 == rc, "with a prefix fj_cbor_decode gives %s, without %s", code_name(rc2), code_name(rc));
	if (rc == FJ_OK)
	{
		FZ_CHECK(tape_p.len == tape.len + PREFIX && memcmp(tape_p.data + PREFIX, tape.data, tape.len) == 0,
				 "the tape after a prefix differs");
		fj_buf_release(&a, &tape_p);
	}
	else
		FZ_CHECK(verr.offset == err.offset && strcmp(verr.message, err.message) == 0,
				 "with a prefix the error differs: \"%s\" at %zu, \"%s\" at %zu",
				 verr.message, verr.offset, err.message, err.offset);

	/* allocation failure at a call the normal run makes */
	if (total > 0)
	{
		fj_buf		t = {0};

		st.calls = 0;
		st.fail_at = 1 + (long) ((h >> 8) % (uint64_t) total);
		rc2 = decode(copy, size, substitute, 0, &st, &a, &t, &verr);
		FZ_CHECK(rc2 == FJ_ERR_NOMEM && st.failed, "fj_cbor_decode with allocation %ld of %ld failing gives %s, normally %s",
				 st.fail_at, total, code_name(rc2), code_name(rc));
		st.fail_at = 0;
		st.failed = 0;
	}

	if (rc == FJ_OK)
	{
		const uint8_t *root = tape.data + FJ_TAPE_HEADER;

		rc2 = fj_validate_tape(tape.data, tape.len, MAX_DEPTH, &a, &verr);
		FZ_CHECK(rc2 == FJ_OK, "decoded tape does not validate: %s at %zu", verr.message, verr.offset);
		fz_walk_tape(tape.data, tape.len, h);
		/*
		 * its text parses back to the very same tape with every kernel: the
		 * decoder writes a long repeated string as a reference where the
		 * parser would, so the references must agree too
		 */
		FZ_CHECK(fj_write_json(root, &a, &text) == FJ_OK, "fj_write_json fails on a decoded tape");
		{
			size_t		k;

			fz_init_kernels();
			for (k = 0; k < fz_nkernels; k++)
			{
				fj_parse_options popt = {0};
				fj_buf		parsed = {0};

				popt.alloc = &a;
				popt.kernel = fz_kernels[k];
				popt.max_depth = MAX_DEPTH;
				rc2 = fj_parse((const char *) text.data, text.len, &popt, &parsed, &verr);
				FZ_CHECK(rc2 == FJ_OK && parsed.len == tape.len && memcmp(parsed.data, tape.data, tape.len) == 0,
						 "the %s kernel does not parse the decoded tape's text back to the same tape (%s)",
						 fj_kernel_name(fz_kernels[k]), rc2 == FJ_OK ? "differs" : verr.message);
				fj_buf_release(&a, &parsed);
			}
		}
		fj_buf_release(&a, &text);

		for (det = 0; det < 2; det++)
		{
			fj_buf		cbor = {0},
						cbor2 = {0},
						back = {0},
						back2 = {0};
			long		before;

			if (encode(root, det, &st, &a, &cbor) != FJ_OK)
				continue;
			/* the encoder under allocation failure */
			before = st.calls;
			{
				fj_buf		c = {0};
				long		calls;

				st.calls = 0;
				(void) encode(root, det, &st, &a, &c);
				calls = st.calls;
				fj_buf_release(&a, &c);
				if (calls > 0)
				{
					st.calls = 0;
					st.fail_at = 1 + (long) ((h >> 20) % (uint64_t) calls);
					FZ_CHECK(encode(root, det, &st, &a, &c) == FJ_ERR_NOMEM, "fj_cbor_encode ignores a failed allocation");
					st.fail_at = 0;
					st.failed = 0;
				}
				st.calls = before;
			}
			/* what we write, we read back as the same value */
			rc2 = decode(cbor.data, cbor.len, false, 0, &st, &a, &back, &verr);
			FZ_CHECK(rc2 == FJ_OK, "fj_cbor_decode rejects fj_cbor_encode's output%s: %s at %zu",
					 det ? " (deterministic)" : "", verr.message, verr.offset);
			if (!det)
				FZ_CHECK(same_value(root, back.data + FJ_TAPE_HEADER), "decode(encode(x)) is not x");
			/* and one more round changes nothing */
			if (encode(back.data + FJ_TAPE_HEADER, det, &st, &a, &cbor2) == FJ_OK)
			{
				rc2 = decode(cbor2.data, cbor2.len, false, 0, &st, &a, &back2, &verr);
				FZ_CHECK(rc2 == FJ_OK && back2.len == back.len && memcmp(back2.data, back.data, back.len) == 0,
						 "decode(encode(x)) is not a fixpoint%s", det ? " (deterministic)" : "");
				fj_buf_release(&a, &back2);
				fj_buf_release(&a, &cbor2);
			}
			fj_buf_release(&a, &back);
			fj_buf_release(&a, &cbor);
		}
		fj_buf_release(&a, &tape);
	}
	FZ_CHECK(st.live == 0, "%ld blocks leak", st.live);
	free(copy);
	fz_input = NULL;
	return 0;
}
