/*
 * fuzz_parse.c — libFuzzer target for the text parser (fj_parse).
 *
 * For each input:
 *   1. Differential: parse with the scalar kernel (the oracle) and with every
 *      other kernel this CPU supports, at the default depth limit and at
 *      max_depth 8. Every kernel must give the same fj_code; on success the
 *      same tape byte for byte; on failure the same offset and message text.
 *   2. Independent oracle: a small strict RFC 8259 + UTF-8 checker in this
 *      file says whether the input is JSON and what its canonical minified
 *      text is. fj_parse must accept exactly the inputs it accepts (modulo
 *      the depth limit), fj_write_json of the tape must equal its canonical
 *      text, and an FJ_ERR_UTF8 must point at the first invalid UTF-8 sequence.
 *   3. Accepted inputs: fj_validate_tape passes (and agrees with the depth
 *      limit), the readers agree with a scan of the tape, and the
 *      write-then-parse fixpoint holds (fj_write_json, parse again: the
 *      identical tape, with every kernel).
 *   4. Options: prefix, max_size just below / at / well above the tape
 *      size, an interrupt callback, fj_valid, the malloc allocator, and
 *      allocation failure at each allocator call (result identical or
 *      FJ_ERR_NOMEM, nothing leaked), each with one kernel per input.
 *   5. Window boundaries: 1 input in 4 is also parsed after whitespace
 *      padding that puts a stage 1 window boundary inside it: every kernel
 *      must give the unpadded result (error offsets shifted), and agree on
 *      an interrupt at the second poll.
 * Choices (which kernel, where the boundary falls, which allocation fails)
 * derive from a hash of the input, so every input reproduces.
 *
 * Every violation prints a message and abort()s. FJ_FUZZ_KNOWN (see
 * fuzz_common.h) relaxes named checks for known, reported bugs.
 */
#include "fuzz_common.h"

#include <stdbool.h>

#define SMALL_DEPTH 8

typedef struct result
{
	fj_code		rc;
	fj_error	err;
	fj_buf		tape;			/* on success: prefix bytes, then the tape */
	long		calls;			/* allocator calls made */
	fz_alloc_state st;			/* the allocator the tape came from */
	fj_allocator a;
} result;

/* Parse with kernel k (max_depth, prefix ...) through the strict allocator. */
static void
parse_with(const fj_kernel *k, const uint8_t *json, size_t len, const fj_parse_options *base,
		   long fail_at, result *r)
{
	fj_parse_options opt;

	if (base)
		opt = *base;
	else
		memset(&opt, 0, sizeof(opt));
	opt.kernel = k;
	r->a = fz_allocator(&r->st);
	r->st.fail_at = fail_at;
	opt.alloc = &r->a;
	memset(&r->err, 0x5a, sizeof(r->err));
	memset(&r->tape, 0x5a, sizeof(r->tape));
	r->rc = fj_parse((const char *) json, len, &opt, &r->tape, &r->err);
	r->calls = r->st.calls;
	FZ_CHECK(r->rc == r->err.code, "%s: fj_parse returns %s but err.code is %s", fj_kernel_name(k),
			 fz_code_name(r->rc), fz_code_name(r->err.code));
	if (r->rc == FJ_OK)
	{
		FZ_CHECK(r->tape.data != NULL && r->tape.len >= opt.prefix + FJ_TAPE_HEADER + 1 &&
				 r->tape.len <= r->tape.cap, "%s: bad output buffer (len %zu, cap %zu)",
				 fj_kernel_name(k), r->tape.len, r->tape.cap);
		FZ_CHECK(r->st.live == 1, "%s: %ld blocks live after a successful parse (want 1: the tape)",
				 fj_kernel_name(k), r->st.live);
	}
	else
	{
		FZ_CHECK((unsigned) r->rc <= FJ_ERR_INTERRUPTED, "%s: unknown code %d", fj_kernel_name(k), r->rc);
		FZ_CHECK(r->err.message != NULL, "%s: %s without a message", fj_kernel_name(k), fz_code_name(r->rc));
		FZ_CHECK(r->err.offset <= len, "%s: %s (%s) at offset %zu past the input (%zu bytes)",
				 fj_kernel_name(k), fz_code_name(r->rc), r->err.message, r->err.offset, len);
		FZ_CHECK(r->tape.data == NULL && r->tape.len == 0, "%s: output not released after %s",
				 fj_kernel_name(k), fz_code_name(r->rc));
		FZ_CHECK(r->st.live == 0, "%s: %ld blocks leaked after %s (%s)", fj_kernel_name(k), r->st.live,
				 fz_code_name(r->rc), r->err.message);
	}
}

static void
result_free(result *r)
{
	if (r->rc == FJ_OK)
		fj_buf_release(&r->a, &r->tape);
	FZ_CHECK(r->st.live == 0, "%ld blocks live after releasing the tape", r->st.live);
}

/* Whether two results are the same: code, tape bytes (after prefix) or offset and message. */
static bool
same_result(const result *a, size_t apre, const result *b, size_t bpre, char *why, size_t whylen)
{
	if (a->rc != FJ_OK && b->rc != FJ_OK && (a->rc == FJ_ERR_UTF8 || b->rc == FJ_ERR_UTF8) &&
		fz_known("utf8-window"))
		return true;			/* known bug: UTF-8 errors after a window end (see regressions/README.md) */
	if (a->rc != b->rc)
	{
		snprintf(why, whylen, "code %s (%s at %zu) vs %s (%s at %zu)",
				 fz_code_name(a->rc), a->rc ? a->err.message : "-", a->rc ? a->err.offset : 0,
				 fz_code_name(b->rc), b->rc ? b->err.message : "-", b->rc ? b->err.offset : 0);
		return false;
	}
	if (a->rc == FJ_OK)
	{
		size_t		al = a->tape.len - apre,
					bl = b->tape.len - bpre;

		if (al != bl || memcmp(a->tape.data + apre, b->tape.data + bpre, al) != 0)
		{
			snprintf(why, whylen, "tapes differ: %zu vs %zu bytes, first difference at byte %zu",
					 al, bl, fz_first_diff(a->tape.data + apre, al, b->tape.data + bpre, bl));
			return false;
		}
		return true;
	}
	if (a->err.offset != b->err.offset || strcmp(a->err.message, b->err.message) != 0)
	{
		snprintf(why, whylen, "error \"%s\" at %zu vs \"%s\" at %zu",
				 a->err.message, a->err.offset, b->err.message, b->err.offset);
		return false;
	}
	return true;
}

/* --------------------------------------------------- independent oracle */

typedef struct obuf
{
	uint8_t    *p;
	size_t		len,
				cap;
} obuf;

static void
ob_reserve(obuf *b, size_t n)
{
	if (b->len + n > b->cap)
	{
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		FZ_CHECK(b->p != NULL, "out of memory in the oracle");
	}
}

static void
ob_put(obuf *b, const void *s, size_t n)
{
	ob_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
ob_byte(obuf *b, uint8_t c)
{
	ob_reserve(b, 1);
	b->p[b->len++] = c;
}

/*
 * Length of the valid UTF-8 sequence (RFC 3629) at s[0..n), or 0 if the
 * sequence starting there is invalid or cut short.
 */
static size_t
utf8_seq(const uint8_t *s, size_t n)
{
	uint8_t		c = s[0],
				lo = 0x80,
				hi = 0xbf;
	size_t		need,
				i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1;
	else if (c >= 0xe0 && c <= 0xef)
	{
		need = 2;
		if (c == 0xe0)
			lo = 0xa0;
		if (c == 0xed)
			hi = 0x9f;
	}
	else if (c >= 0xf0 && c <= 0xf4)
	{
		need = 3;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f;
	}
	else
		return 0;
	for (i = 1; i <= need; i++)
	{
		if (i >= n || s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

/* Start of the first invalid UTF-8 sequence in s[0..n), or n. */
static size_t
utf8_first_bad(const uint8_t *s, size_t n)
{
	size_t		i = 0;

	while (i < n)
	{
		size_t		k = utf8_seq(s + i, n - i);

		if (!k)
			return i;
		i += k;
	}
	return n;
}

static int
hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static long
hex4(const uint8_t *s, size_t i, size_t n)
{
	long		v = 0;
	int			k;

	if (i + 4 > n)
		return -1;
	for (k = 0; k < 4; k++)
	{
		int			h = hexval(s[i + k]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* Append code point cp as UTF-8 in canonical JSON escaping. */
static void
put_char(obuf *o, uint32_t cp)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t		u[4];

	switch (cp)
	{
		case '"':
			ob_put(o, "\\\"", 2);
			return;
		case '\\':
			ob_put(o, "\\\\", 2);
			return;
		case '\b':
			ob_put(o, "\\b", 2);
			return;
		case '\f':
			ob_put(o, "\\f", 2);
			return;
		case '\n':
			ob_put(o, "\\n", 2);
			return;
		case '\r':
			ob_put(o, "\\r", 2);
			return;
		case '\t':
			ob_put(o, "\\t", 2);
			return;
	}
	if (cp < 0x20)
	{
		char		e[6] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15]};

		ob_put(o, e, 6);
	}
	else if (cp < 0x80)
		ob_byte(o, (uint8_t) cp);
	else if (cp < 0x800)
	{
		u[0] = (uint8_t) (0xc0 | (cp >> 6));
		u[1] = (uint8_t) (0x80 | (cp & 0x3f));
		ob_put(o, u, 2);
	}
	else if (cp < 0x10000)
	{
		u[0] = (uint8_t) (0xe0 | (cp >> 12));
		u[1] = (uint8_t) (0x80 | ((cp >> 6) & 0x3f));
		u[2] = (uint8_t) (0x80 | (cp & 0x3f));
		ob_put(o, u, 3);
	}
	else
	{
		u[0] = (uint8_t) (0xf0 | (cp >> 18));
		u[1] = (uint8_t) (0x80 | ((cp >> 12) & 0x3f));
		u[2] = (uint8_t) (0x80 | ((cp >> 6) & 0x3f));
		u[3] = (uint8_t) (0x80 | (cp & 0x3f));
		ob_put(o, u, 4);
	}
}

/* The string whose opening quote is at s[*i]; appends its canonical form. */
static bool
o_string(const uint8_t *s, size_t n, size_t *i, obuf *o)
{
	size_t		p = *i + 1;

	ob_byte(o, '"');
	for (;;)
	{
		uint8_t		c;

		if (p >= n)
			return false;
		c = s[p];
		if (c == '"')
			break;
		if (c < 0x20)
			return false;
		if (c == '\\')
		{
			long		cp,
						lo;

			if (p + 1 >= n)
				return false;
			switch (s[p + 1])
			{
				case '"':
					put_char(o, '"');
					break;
				case '\\':
					put_char(o, '\\');
					break;
				case '/':
					put_char(o, '/');
					break;
				case 'b':
					put_char(o, '\b');
					break;
				case 'f':
					put_char(o, '\f');
					break;
				case 'n':
					put_char(o, '\n');
					break;
				case 'r':
					put_char(o, '\r');
					break;
				case 't':
					put_char(o, '\t');
					break;
				case 'u':
					cp = hex4(s, p + 2, n);
					if (cp < 0 || (cp >= 0xdc00 && cp <= 0xdfff))
						return false;
					if (cp >= 0xd800 && cp <= 0xdbff)
					{
						if (p + 7 >= n || s[p + 6] != '\\' || s[p + 7] != 'u')
							return false;
						lo = hex4(s, p + 8, n);
						if (lo < 0xdc00 || lo > 0xdfff)
							return false;
						cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
						p += 6;
					}
					put_char(o, (uint32_t) cp);
					p += 4;
					break;
				default:
					return false;
			}
			p += 2;
			continue;
		}
		if (c < 0x80)
		{
			put_char(o, c);
			p++;
		}
		else
		{
			size_t		k = utf8_seq(s + p, n - p);

			if (!k)
				return false;
			ob_put(o, s + p, k);
			p += k;
		}
	}
	ob_byte(o, '"');
	*i = p + 1;
	return true;
}

static bool
o_number(const uint8_t *s, size_t n, size_t *i, obuf *o)
{
	size_t		p = *i,
				t;

	if (p < n && s[p] == '-')
		p++;
	if (p < n && s[p] == '0')
		p++;
	else if (p < n && s[p] >= '1' && s[p] <= '9')
		while (p < n && s[p] >= '0' && s[p] <= '9')
			p++;
	else
		return false;
	if (p < n && s[p] == '.')
	{
		t = ++p;
		while (p < n && s[p] >= '0' && s[p] <= '9')
			p++;
		if (p == t)
			return false;
	}
	if (p < n && (s[p] == 'e' || s[p] == 'E'))
	{
		p++;
		if (p < n && (s[p] == '+' || s[p] == '-'))
			p++;
		t = p;
		while (p < n && s[p] >= '0' && s[p] <= '9')
			p++;
		if (p == t)
			return false;
	}
	ob_put(o, s + *i, p - *i);
	*i = p;
	return true;
}

static size_t
o_ws(const uint8_t *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/*
 * Whether s[0..n) is one JSON text (RFC 8259, strict UTF-8); if so, o gets
 * its canonical minified text and *depth its deepest nesting. Iterative.
 */
static bool
oracle(const uint8_t *s, size_t n, obuf *o, uint32_t *depth)
{
	uint8_t    *stack = malloc(n + 1);
	size_t		sp = 0,
				i = 0;
	bool		ok = false;

	*depth = 0;
	o->len = 0;
value:
	i = o_ws(s, n, i);
	if (i >= n)
		goto out;
	switch (s[i])
	{
		case '{':
		case '[':
			stack[sp++] = s[i];
			if (sp > *depth)
				*depth = (uint32_t) sp;
			ob_byte(o, s[i]);
			i = o_ws(s, n, i + 1);
			if (i < n && s[i] == (stack[sp - 1] == '{' ? '}' : ']'))
			{
				ob_byte(o, s[i]);
				sp--;
				i++;
				goto after;
			}
			if (stack[sp - 1] == '{')
				goto key;
			goto value;
		case '"':
			if (!o_string(s, n, &i, o))
				goto out;
			goto after;
		case 't':
		case 'f':
		case 'n':
			{
				const char *lit = s[i] == 't' ? "true" : s[i] == 'f' ? "false" : "null";
				size_t		l = strlen(lit);

				if (n - i < l || memcmp(s + i, lit, l) != 0)
					goto out;
				ob_put(o, lit, l);
				i += l;
				goto after;
			}
		default:
			if (!o_number(s, n, &i, o))
				goto out;
			goto after;
	}
key:
	if (i >= n || s[i] != '"' || !o_string(s, n, &i, o))
		goto out;
	i = o_ws(s, n, i);
	if (i >= n || s[i] != ':')
		goto out;
	ob_byte(o, ':');
	i++;
	goto value;
after:
	i = o_ws(s, n, i);
	if (sp == 0)
	{
		ok = i == n;
		goto out;
	}
	if (i >= n)
		goto out;
	if (s[i] == ',')
	{
		ob_byte(o, ',');
		i = o_ws(s, n, i + 1);
		if (stack[sp - 1] == '{')
			goto key;
		goto value;
	}
	if (s[i] == (stack[sp - 1] == '{' ? '}' : ']'))
	{
		ob_byte(o, s[i]);
		sp--;
		i++;
		goto after;
	}
out:
	free(stack);
	return ok;
}

/* ------------------------------------------------------------- checks */

static int
interrupt_cb(void *ctx)
{
	long	   *calls = ctx;

	return ++calls[0] == calls[1];
}

/* Check one parse result (at max_depth depth) against the oracle. */
static void
check_against_oracle(const result *r, const uint8_t *data, size_t size, bool valid, uint32_t odepth,
					 uint32_t depth, const obuf *canon, const char *what)
{
	if (valid && odepth <= depth)
	{
		fj_buf		text = {0};
		fz_alloc_state wst;
		fj_allocator wa = fz_allocator(&wst);

		FZ_CHECK(r->rc == FJ_OK, "%s: valid JSON (depth %u, limit %u) rejected: %s \"%s\" at %zu", what,
				 odepth, depth, fz_code_name(r->rc), r->err.message, r->err.offset);
		FZ_CHECK(fj_write_json(r->tape.data + FJ_TAPE_HEADER, &wa, &text) == FJ_OK, "%s: fj_write_json fails", what);
		if (text.len != canon->len || memcmp(text.data, canon->p, text.len) != 0)
		{
			size_t		d = fz_first_diff(text.data, text.len, canon->p, canon->len);

			fz_print_bytes("fj_write_json", text.data, text.len, 400);
			fz_print_bytes("expected", canon->p, canon->len, 400);
			fz_fail("%s: fj_write_json text differs from the canonical text at byte %zu", what, d);
		}
		fj_buf_release(&wa, &text);
		FZ_CHECK(wst.live == 0, "fj_write_json leaks %ld blocks", wst.live);
	}
	else if (valid)
		FZ_CHECK(r->rc == FJ_ERR_DEPTH, "%s: valid JSON nested %u deep with limit %u gives %s, not FJ_ERR_DEPTH",
				 what, odepth, depth, fz_code_name(r->rc));
	else
		FZ_CHECK(r->rc != FJ_OK, "%s: invalid JSON accepted", what);

	if (r->rc == FJ_ERR_UTF8)
	{
		size_t		bad = utf8_first_bad(data, size);

		FZ_CHECK(bad < size, "%s: FJ_ERR_UTF8 (\"%s\" at %zu) on valid UTF-8", what, r->err.message, r->err.offset);
		FZ_CHECK(r->err.offset == bad || fz_known("utf8-window"),
				 "%s: FJ_ERR_UTF8 at %zu, but the first invalid sequence starts at %zu", what, r->err.offset, bad);
	}
	FZ_CHECK(r->rc == FJ_OK || r->rc == FJ_ERR_SYNTAX || r->rc == FJ_ERR_UTF8 || r->rc == FJ_ERR_DEPTH,
			 "%s: unexpected code %s (%s)", what, fz_code_name(r->rc), r->err.message);
}

/* Whether text (as written by fj_write_json) has no whitespace outside strings. */
static bool
minified(const uint8_t *t, size_t n)
{
	bool		in = false;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		if (in)
		{
			if (t[i] == '\\')
				i++;
			else if (t[i] == '"')
				in = false;
		}
		else if (t[i] == '"')
			in = true;
		else if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')
			return false;
	}
	return true;
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Parse with an interrupt callback that asks to stop at its at-th call (stage
 * 1 polls it before each window). The result must be the normal one (ref,
 * whose error offsets are shift bytes less), or FJ_ERR_INTERRUPTED after
 * exactly at polls at a block boundary before the end of the input: offset
 * 0 at the first poll, at most (at - 1) windows in. r keeps the result.
 */
static void
check_interrupt(const fj_kernel *kern, const uint8_t *buf, size_t len, long at, const result *ref,
				size_t shift, result *r)
{
	fj_parse_options opt;
	long		icalls[2] = {0, at};
	char		why[256];

	memset(&opt, 0, sizeof(opt));
	opt.interrupted = interrupt_cb;
	opt.interrupt_ctx = icalls;
	parse_with(kern, buf, len, &opt, 0, r);
	if (r->rc == FJ_ERR_INTERRUPTED)
	{
		FZ_CHECK(icalls[0] == at && r->err.reason == FJ_R_INTERRUPTED && r->err.offset < len &&
				 r->err.offset % 64 == 0 && r->err.offset <= (size_t) (at - 1) * FJ_WINDOW,
				 "%s: FJ_ERR_INTERRUPTED (\"%s\" at %zu of %zu) after %ld polls, interrupt asked at poll %ld",
				 fj_kernel_name(kern), r->err.message, r->err.offset, len, icalls[0], at);
		return;
	}
	if (r->rc != FJ_OK && r->err.offset >= shift)
		r->err.offset -= shift;
	if (!same_result(r, 0, ref, 0, why, sizeof(why)))
	{
		if (icalls[0] == at && r->rc == FJ_ERR_SYNTAX && r->err.reason == FJ_R_UNTERMINATED &&
			fz_known("interrupt-string"))
			return;				/* known bug (fixed in a79f072): reads as an unterminated string */
		fz_fail("%s with an interrupt at poll %ld (polled %ld times): %s", fj_kernel_name(kern), at,
				icalls[0], why);
	}
}

/* 1, 2: every kernel against scalar and against the oracle, at one depth limit. */
static void
check_kernels(const uint8_t *data, size_t size, uint32_t max_depth, bool valid, uint32_t odepth,
			  const obuf *canon, result *ref)
{
	fj_parse_options opt;
	char		why[256];
	result		r;
	size_t		k;

	memset(&opt, 0, sizeof(opt));
	opt.max_depth = max_depth;
	parse_with(fz_scalar, data, size, &opt, 0, ref);
	check_against_oracle(ref, data, size, valid, odepth, max_depth ? max_depth : FJ_DEFAULT_MAX_DEPTH,
						 canon, "scalar");
	for (k = 1; k < fz_nkernels; k++)
	{
		parse_with(fz_kernels[k], data, size, &opt, 0, &r);
		if (!same_result(&r, 0, ref, 0, why, sizeof(why)))
			fz_fail("kernel %s differs from scalar (max_depth %u): %s", fj_kernel_name(fz_kernels[k]),
					max_depth, why);
		result_free(&r);
	}
}

/* 4: the parse options with kernel kern; ref is the default result. */
static void
check_options(const fj_kernel *kern, const uint8_t *data, size_t size, const result *ref, uint64_t h)
{
	fj_parse_options opt;
	char		why[256];
	result		r;
	long		ncalls,
				f,
				fstep;

	memset(&opt, 0, sizeof(opt));

	/* allocation failure at each allocator call (a spread of them if many) */
	parse_with(kern, data, size, &opt, 0, &r);
	ncalls = r.calls;
	result_free(&r);
	fstep = ncalls <= 4 ? 1 : ncalls / 4;
	for (f = 1 + (long) (h % (uint64_t) fstep); f <= ncalls; f += fstep)
	{
		parse_with(kern, data, size, &opt, f, &r);
		if (r.rc == FJ_ERR_NOMEM)
			FZ_CHECK(r.st.failed && r.err.reason == FJ_R_NOMEM,
					 "%s: FJ_ERR_NOMEM (\"%s\") but no allocation failed", fj_kernel_name(kern), r.err.message);
		else if (!same_result(&r, 0, ref, 0, why, sizeof(why)))
			fz_fail("%s with allocation %ld of %ld failing: neither FJ_ERR_NOMEM nor the normal result: %s",
					fj_kernel_name(kern), f, ncalls, why);
		result_free(&r);
	}

	/* a prefix before the tape */
	opt.prefix = 1 + h % 24;
	parse_with(kern, data, size, &opt, 0, &r);
	if (!same_result(&r, opt.prefix, ref, 0, why, sizeof(why)))
		fz_fail("%s with prefix %zu: %s", fj_kernel_name(kern), opt.prefix, why);
	result_free(&r);
	opt.prefix = 0;

	if (ref->rc == FJ_OK)
	{
		size_t		need = ref->tape.len;

		/* max_size below the tape: FJ_ERR_TOO_BIG; well above: the same tape */
		opt.max_size = need - 1;
		parse_with(kern, data, size, &opt, 0, &r);
		FZ_CHECK(r.rc == FJ_ERR_TOO_BIG, "%s with max_size %zu for a %zu-byte tape gives %s",
				 fj_kernel_name(kern), opt.max_size, need, fz_code_name(r.rc));
		result_free(&r);
		opt.max_size = need + 4 * size + 64;
		parse_with(kern, data, size, &opt, 0, &r);
		if (!same_result(&r, 0, ref, 0, why, sizeof(why)))
			fz_fail("%s with max_size %zu for a %zu-byte tape: %s", fj_kernel_name(kern), opt.max_size,
					need, why);
		result_free(&r);

		/*
		 * max_size exactly the tape size: the same tape. FJ_ERR_TOO_BIG is
		 * tolerated here, because the parser checks the limit against its
		 * reservations (worst case sizes), not the final size; see the
		 * report. Define FZ_STRICT_MAX_SIZE to require success.
		 */
		opt.max_size = need;
		parse_with(kern, data, size, &opt, 0, &r);
#ifdef FZ_STRICT_MAX_SIZE
		if (!same_result(&r, 0, ref, 0, why, sizeof(why)))
#else
		if (r.rc != FJ_ERR_TOO_BIG && !same_result(&r, 0, ref, 0, why, sizeof(why)))
#endif
			fz_fail("%s with max_size %zu equal to the tape size: %s", fj_kernel_name(kern), opt.max_size, why);
		result_free(&r);
		opt.max_size = 0;
	}

	/* an interrupt at the first or second poll */
	check_interrupt(kern, data, size, 1 + (long) ((h >> 8) % 2), ref, 0, &r);
	result_free(&r);
}

/*
 * 5: whitespace before the input so that a stage 1 window boundary falls
 * inside it (after its first cut bytes): every kernel must give the result of
 * the unpadded input, its error offset shifted by the padding; an interrupt
 * at the second poll must stop there or give that result.
 */
static void
check_window(const uint8_t *data, size_t size, const result *ref, uint64_t h)
{
	static const char ws[4] = {' ', '\n', '\t', '\r'};
	size_t		span = size - 1 < FJ_WINDOW - 1 ? size - 1 : FJ_WINDOW - 1,
				cut = 1 + (size_t) ((h >> 20) % span),
				pad = FJ_WINDOW - cut,
				k;
	uint8_t    *buf = malloc(pad + size);
	fj_parse_options opt;
	char		why[256];
	result		r,
				iref;

	memset(buf, ws[(h >> 40) % 4], pad);
	memcpy(buf + pad, data, size);
	memset(&opt, 0, sizeof(opt));
	for (k = 0; k < fz_nkernels; k++)
	{
		parse_with(fz_kernels[k], buf, pad + size, &opt, 0, &r);
		/* error offsets in input coordinates (one inside the padding stays as is, and differs) */
		if (r.rc != FJ_OK && r.err.offset >= pad)
			r.err.offset -= pad;
		if (!same_result(&r, 0, ref, 0, why, sizeof(why)))
			fz_fail("%s with %zu bytes of padding (window boundary after input byte %zu): %s "
					"(padded vs unpadded, offsets in input bytes)",
					fj_kernel_name(fz_kernels[k]), pad, cut, why);
		result_free(&r);
	}
	/* an interrupt at the second poll: every kernel stops at the same place, or completes */
	check_interrupt(fz_scalar, buf, pad + size, 2, ref, pad, &iref);
	for (k = 1; k < fz_nkernels; k++)
	{
		check_interrupt(fz_kernels[k], buf, pad + size, 2, ref, pad, &r);
		/* (the known UTF-8 window bug also moves the error to the next window, past the interrupt) */
		if (!same_result(&r, 0, &iref, 0, why, sizeof(why)) &&
			!(ref->rc == FJ_ERR_UTF8 && fz_known("utf8-window")))
			fz_fail("%s with an interrupt at poll 2, window boundary after input byte %zu, differs from scalar: %s",
					fj_kernel_name(fz_kernels[k]), cut, why);
		result_free(&r);
	}
	result_free(&iref);
	free(buf);
}

/* 3: an accepted input's tape: validate, read, write, parse again. */
static void
check_tape(const result *ref, uint32_t odepth, uint64_t h)
{
	const uint8_t *tape = ref->tape.data;
	size_t		tlen = ref->tape.len;
	fz_alloc_state st;
	fj_allocator a = fz_allocator(&st);
	fj_error	err;
	fj_code		vrc;
	uint32_t	tdepth;
	fj_buf		text = {0};
	char		why[256];
	result		r;
	size_t		k;
	long		total;

	vrc = fj_validate_tape(tape, tlen, 0, &a, &err);
	FZ_CHECK(vrc == FJ_OK, "fj_validate_tape rejects the parser's tape: %s \"%s\" at tape offset %zu",
			 fz_code_name(vrc), err.message, err.offset);
	FZ_CHECK(st.live == 0, "fj_validate_tape leaks %ld blocks", st.live);
	tdepth = fz_walk_tape(tape, tlen, h);
	FZ_CHECK(tdepth == odepth, "tape nesting depth %u, input nesting depth %u", tdepth, odepth);
	vrc = fj_validate_tape(tape, tlen, SMALL_DEPTH, &a, &err);
	FZ_CHECK(vrc == (tdepth <= SMALL_DEPTH ? FJ_OK : FJ_ERR_DEPTH),
			 "fj_validate_tape with max_depth %d on a tape nested %u deep: %s \"%s\"", SMALL_DEPTH,
			 tdepth, fz_code_name(vrc), err.message ? err.message : "");
	FZ_CHECK(st.live == 0, "fj_validate_tape leaks %ld blocks", st.live);

	/* the validator under allocation failure: FJ_ERR_NOMEM or OK, nothing leaked */
	st.calls = 0;
	fj_validate_tape(tape, tlen, 0, &a, &err);
	total = st.calls;
	if (total > 0)
	{
		st.calls = 0;
		st.fail_at = 1 + (long) (h % (uint64_t) total);
		vrc = fj_validate_tape(tape, tlen, 0, &a, &err);
		FZ_CHECK(vrc == FJ_ERR_NOMEM, "fj_validate_tape with allocation %ld of %ld failing gives %s",
				 st.fail_at, total, fz_code_name(vrc));
		FZ_CHECK(st.live == 0, "fj_validate_tape leaks %ld blocks after FJ_ERR_NOMEM", st.live);
		st.fail_at = 0;
	}

	/* write, then parse the text again with every kernel: the identical tape */
	FZ_CHECK(fj_write_json(tape + FJ_TAPE_HEADER, &a, &text) == FJ_OK, "fj_write_json fails");
	FZ_CHECK(minified(text.data, text.len), "fj_write_json text is not minified");
	for (k = 0; k < fz_nkernels; k++)
	{
		fj_parse_options opt;

		memset(&opt, 0, sizeof(opt));
		parse_with(fz_kernels[k], text.data, text.len, &opt, 0, &r);
		if (r.rc != FJ_OK)
		{
			fz_print_bytes("written text", text.data, text.len, 400);
			fz_fail("%s rejects fj_write_json's text: %s \"%s\" at %zu", fj_kernel_name(fz_kernels[k]),
					fz_code_name(r.rc), r.err.message, r.err.offset);
		}
		if (!same_result(&r, 0, ref, 0, why, sizeof(why)))
		{
			fz_print_bytes("written text", text.data, text.len, 400);
			fz_fail("write-then-parse (%s) is not a fixpoint: %s", fj_kernel_name(fz_kernels[k]), why);
		}
		result_free(&r);
	}
	fj_buf_release(&a, &text);
	FZ_CHECK(st.live == 0, "fj_write_json leaks %ld blocks", st.live);

	/* the writer under allocation failure: FJ_ERR_NOMEM, nothing leaked once released */
	st.calls = 0;
	FZ_CHECK(fj_write_json(tape + FJ_TAPE_HEADER, &a, &text) == FJ_OK, "fj_write_json fails");
	total = st.calls;
	fj_buf_release(&a, &text);
	if (total > 0)
	{
		st.calls = 0;
		st.fail_at = 1 + (long) (h % (uint64_t) total);
		vrc = fj_write_json(tape + FJ_TAPE_HEADER, &a, &text);
		FZ_CHECK(vrc == FJ_ERR_NOMEM, "fj_write_json with allocation %ld of %ld failing gives %s",
				 st.fail_at, total, fz_code_name(vrc));
		fj_buf_release(&a, &text);
		FZ_CHECK(st.live == 0, "fj_write_json leaks %ld blocks after FJ_ERR_NOMEM", st.live);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	uint8_t    *data = malloc(size ? size : 1);
	uint64_t	h = fz_hash(in, size);
	result		ref,
				ref8;
	char		why[256];
	obuf		canon = {0};
	uint32_t	odepth;
	bool		valid;

	fz_init_kernels();
	/* an exactly sized copy: any read past the end is a heap overflow for ASan */
	memcpy(data, in, size);
	fz_input = data;
	fz_input_len = size;

	valid = oracle(data, size, &canon, &odepth);

	check_kernels(data, size, 0, valid, odepth, &canon, &ref);
	check_kernels(data, size, SMALL_DEPTH, valid, odepth, &canon, &ref8);
	/* the two depth limits agree with each other */
	if (ref8.rc == FJ_OK)
		FZ_CHECK(same_result(&ref8, 0, &ref, 0, why, sizeof(why)),
				 "max_depth %d and the default disagree: %s", SMALL_DEPTH, why);
	else if (ref.rc == FJ_OK)
		FZ_CHECK(ref8.rc == FJ_ERR_DEPTH, "accepted at the default depth, %s at max_depth %d",
				 fz_code_name(ref8.rc), SMALL_DEPTH);
	result_free(&ref8);

	/* fj_valid agrees */
	{
		fz_alloc_state st;
		fj_allocator a = fz_allocator(&st);
		fj_parse_options opt;
		fj_error	err;
		bool		ok;

		memset(&opt, 0, sizeof(opt));
		opt.alloc = &a;
		opt.kernel = fz_kernels[h % fz_nkernels];
		ok = fj_valid((const char *) data, size, &opt, &err);
		FZ_CHECK(ok == (ref.rc == FJ_OK) && (ok || (err.code == ref.rc && err.offset == ref.err.offset &&
													strcmp(err.message, ref.err.message) == 0)),
				 "fj_valid (%s) disagrees with fj_parse: %s \"%s\" at %zu", fj_kernel_name(opt.kernel),
				 fz_code_name(err.code), ok ? "" : err.message, err.offset);
		FZ_CHECK(st.live == 0, "fj_valid leaks %ld blocks", st.live);
	}

	/* the options with one kernel per input (they run in the shared stage 2) */
	check_options(fz_kernels[(h >> 4) % fz_nkernels], data, size, &ref, h);

	/* 1 input in 4: the same input across a stage 1 window boundary */
	if (size > 1 && (h >> 12) % 4 == 0)
		check_window(data, size, &ref, h);

	/* the malloc allocator and the best kernel (no options at all) give the same */
	{
		fj_buf		t;
		fj_error	err;
		fj_code		rc = fj_parse((const char *) data, size, NULL, &t, &err);

		FZ_CHECK(rc == ref.rc, "fj_parse with no options gives %s, scalar %s", fz_code_name(rc),
				 fz_code_name(ref.rc));
		if (rc == FJ_OK)
		{
			FZ_CHECK(t.len == ref.tape.len && memcmp(t.data, ref.tape.data, t.len) == 0,
					 "fj_parse with no options gives a different tape");
			fj_buf_release(&fj_malloc_allocator, &t);
		}
	}

	if (ref.rc == FJ_OK)
		check_tape(&ref, odepth, h);

	result_free(&ref);
	free(canon.p);
	free(data);
	fz_input = NULL;
	return 0;
}
