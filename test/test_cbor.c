/*
 * test_cbor.c — unit tests of the CBOR mapping (src/cbor.h): the number
 * conversions, decoding and encoding vectors (passing next to failing),
 * RFC 8949 Appendix A from ../shared/data/cbor/appendix_a.json, hostile
 * input (every truncation, huge declared lengths, deep nesting, reserved
 * values, misplaced breaks, mutations), allocation failures, and round trips
 * of the corpus.
 */
#include "harness.h"
#include "../src/cbor.h"
#include "cbor_ref/cbor_ref.h"
#include "../src/utf8.h"

#include <math.h>
#include <stdint.h>

/* ------------------------------------------------------------- helpers */

static size_t
unhex(const char *hex, uint8_t *out)
{
	size_t		n = 0;

	while (hex[0] && hex[1])
	{
		unsigned	v;

		if (hex[0] == ' ')
		{
			hex++;
			continue;
		}
		sscanf(hex, "%2x", &v);
		out[n++] = (uint8_t) v;
		hex += 2;
	}
	return n;
}

static void
tohex(const uint8_t *p, size_t n, char *out)
{
	size_t		i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

/* The JSON text of a tape value (malloc'd). */
static char *
json_of(const uint8_t *v)
{
	fj_buf		out = {0};

	fj_write_json(v, &fj_malloc_allocator, &out);
	out.data = realloc(out.data, out.len + 1);
	out.data[out.len] = 0;
	return (char *) out.data;
}

/* Decode CBOR bytes; the JSON text (malloc'd) or NULL with err set. */
static char *
decode_bytes(const uint8_t *cbor, size_t n, bool substitute, uint32_t max_depth, fj_error *err)
{
	fj_cbor_decode_options opt = {0};
	fj_buf		tape;
	fj_error	verr;
	char	   *s;

	opt.substitute_null = substitute;
	opt.max_depth = max_depth;
	if (fj_cbor_decode(cbor, n, &opt, &tape, err) != FJ_OK)
		return NULL;
	CHECKF(fj_validate_tape(tape.data, tape.len, max_depth, &fj_malloc_allocator, &verr) == FJ_OK,
		   "decoded tape does not validate: %s at %zu", verr.message, verr.offset);
	s = json_of(tape.data + FJ_TAPE_HEADER);
	fj_buf_release(&fj_malloc_allocator, &tape);
	return s;
}

static char *
decode_hex(const char *hex, bool substitute, fj_error *err)
{
	uint8_t		buf[4096];
	size_t		n = unhex(hex, buf);

	return decode_bytes(buf, n, substitute, 0, err);
}

/* Encode JSON text; the CBOR as hex (malloc'd) or NULL with err set. */
static char *
encode_hex(const char *json, bool deterministic, fj_error *err)
{
	fj_buf		tape,
				cbor;
	fj_cbor_encode_options opt = {0};
	char	   *hex;

	if (fj_parse(json, strlen(json), NULL, &tape, err) != FJ_OK)
		return NULL;
	opt.deterministic = deterministic;
	if (fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &opt, &cbor, err) != FJ_OK)
	{
		fj_buf_release(&fj_malloc_allocator, &tape);
		return NULL;
	}
	hex = malloc(2 * cbor.len + 1);
	tohex(cbor.data, cbor.len, hex);
	fj_buf_release(&fj_malloc_allocator, &tape);
	fj_buf_release(&fj_malloc_allocator, &cbor);
	return hex;
}

static void
expect_decode(const char *hex, const char *want)
{
	fj_error	err;
	char	   *got = decode_hex(hex, false, &err);

	CHECKF(got && strcmp(got, want) == 0, "decode %s: got %s, want %s", hex,
		   got ? got : err.message, want);
	free(got);
}

static void
expect_decode_null(const char *hex, const char *want)
{
	fj_error	err;
	char	   *got = decode_hex(hex, true, &err);

	CHECKF(got && strcmp(got, want) == 0, "decode %s (substitute_null): got %s, want %s", hex,
		   got ? got : err.message, want);
	free(got);
}

/* Decoding fails with code, a message containing what, at offset. */
static void
expect_decode_error(const char *hex, fj_code code, const char *what, size_t offset)
{
	fj_error	err;
	char	   *got = decode_hex(hex, false, &err);

	CHECKF(!got && err.code == code && strstr(err.message, what) && err.offset == offset,
		   "decode %s: got %s (code %d, offset %zu), want error %d \"%s\" at %zu", hex,
		   got ? got : err.message, got ? 0 : (int) err.code, got ? 0 : err.offset, (int) code, what, offset);
	free(got);
}

static void
expect_encode(const char *json, const char *want_hex, bool deterministic)
{
	fj_error	err;
	char	   *got = encode_hex(json, deterministic, &err);
	char		want[1024];
	size_t		n = 0;

	for (; *want_hex; want_hex++)
		if (*want_hex != ' ')
			want[n++] = *want_hex;
	want[n] = 0;
	CHECKF(got && strcmp(got, want) == 0, "encode%s %s: got %s, want %s",
		   deterministic ? " (deterministic)" : "", json, got ? got : err.message, want);
	free(got);
}

static void
expect_encode_error(const char *json, bool deterministic, fj_code code)
{
	fj_error	err;
	char	   *got = encode_hex(json, deterministic, &err);

	CHECKF(!got && err.code == code, "encode %s: got %s, want error %d", json,
		   got ? got : err.message, (int) code);
	free(got);
}

/* JSON text -> CBOR -> JSON text gives want. */
static void
expect_roundtrip(const char *json, const char *want)
{
	fj_error	err;
	char	   *hex = encode_hex(json, false, &err);
	char	   *back = hex ? decode_hex(hex, false, &err) : NULL;

	CHECKF(back && strcmp(back, want) == 0, "round trip %s: got %s, want %s", json,
		   back ? back : err.message, want);
	free(hex);
	free(back);
}

/* ------------------------------------------------- exact JSON comparison */

/* A number's exact value: sign, significant digits, exponent of the last digit. */
typedef struct exact
{
	bool		negative;
	char		digits[128];
	size_t		n;
	int64_t		exp;
	bool		integer_form;
	bool		overflow;
} exact;

static void
exact_of(const uint8_t *v, exact *x)
{
	char		buf[FJ_NUMBER_TEXT_BUF];
	const uint8_t *text;
	uint32_t	len;
	fj_number_parts p;
	size_t		i,
				total;
	char		all[4096];

	memset(x, 0, sizeof(*x));
	if (fj_is_text_number(v))
		len = fj_number_text(v, buf, &text);
	else
	{
		int64_t		iv = fj_int_value(v);

		len = (uint32_t) snprintf(buf, sizeof(buf), "%lld", (long long) iv);
		text = (const uint8_t *) buf;
	}
	fj_number_split(text, len, &p);
	x->integer_form = p.integer;
	x->overflow = p.exp_overflow;
	total = p.int_len + p.frac_len;
	if (total >= sizeof(all))
	{
		x->overflow = true;
		return;
	}
	memcpy(all, p.int_digits, p.int_len);
	memcpy(all + p.int_len, p.frac_digits, p.frac_len);
	x->exp = p.exp - (int64_t) p.frac_len;
	while (total > 0 && all[total - 1] == '0')
	{
		total--;
		x->exp++;
	}
	for (i = 0; i < total && all[i] == '0'; i++)
		;
	x->n = total - i;
	if (x->n >= sizeof(x->digits))
	{
		x->overflow = true;
		return;
	}
	memcpy(x->digits, all + i, x->n);
	x->negative = p.negative && x->n > 0;
	if (x->n == 0)
		x->exp = 0;
}

/* Whether two numbers have the same value (and, if kind, the same integer/non-integer form). */
static bool
numbers_equal(const uint8_t *a, const uint8_t *b, bool kind)
{
	exact		x,
				y;

	exact_of(a, &x);
	exact_of(b, &y);
	if (x.overflow || y.overflow)
	{
		const uint8_t *ta,
				   *tb;
		uint32_t	la,
					lb;

		if (FJ_TYPE(a[0]) != FJ_NUMBER || FJ_TYPE(b[0]) != FJ_NUMBER)
			return false;
		la = fj_text(a, &ta);
		lb = fj_text(b, &tb);
		return la == lb && memcmp(ta, tb, la) == 0;
	}
	if (kind && x.integer_form != y.integer_form)
		return false;
	return x.negative == y.negative && x.n == y.n && x.exp == y.exp && memcmp(x.digits, y.digits, x.n) == 0;
}

static bool is_number(const uint8_t *v)
{
	int			t = FJ_TYPE(v[0]);

	return t == FJ_UINT || t == FJ_NINT || t == FJ_NUMBER || t == FJ_PACKED;
}

/*
 * Whether two tape values are the same JSON value: numbers by exact value
 * (and form, if kind), strings bytewise, containers member by member; with
 * ordered, objects member by member in order (duplicates included), else as
 * maps (the last of duplicate keys counts).
 */
static bool
values_equal(const uint8_t *a, const uint8_t *b, bool kind, bool ordered)
{
	int			ta = FJ_TYPE(a[0]),
				tb = FJ_TYPE(b[0]);

	if (is_number(a) || is_number(b))
		return is_number(a) && is_number(b) && numbers_equal(a, b, kind);
	if (ta != tb)
		return false;
	if (ta == FJ_LITERAL)
		return a[0] == b[0];
	if (ta == FJ_STRING)
	{
		const uint8_t *sa,
				   *sb;
		uint32_t	la = fj_text(a, &sa),
					lb = fj_text(b, &sb);

		return la == lb && memcmp(sa, sb, la) == 0;
	}
	if (ta == FJ_ARRAY || ordered)
	{
		const uint8_t *pa = fj_container_members(a),
				   *pb = fj_container_members(b),
				   *ea = fj_container_members_end(a);

		if (fj_container_count(a) != fj_container_count(b))
			return false;
		for (; pa < ea; pa += fj_value_size(pa), pb += fj_value_size(pb))
			if (!values_equal(pa, pb, kind, ordered))
				return false;
		return true;
	}
	else
	{
		/* as maps: every operative member of a is in b with an equal value, and back */
		const uint8_t *maps[2] = {a, b};
		int			side;

		for (side = 0; side < 2; side++)
		{
			const uint8_t *x = maps[side],
					   *y = maps[1 - side];
			const uint8_t *p = fj_container_members(x),
					   *e = fj_container_members_end(x);

			while (p < e)
			{
				const uint8_t *k;
				uint32_t	kl = fj_text(p, &k);
				const uint8_t *vx = k + kl,
						   *vy;

				vy = fj_object_get(y, (const char *) k, kl);
				if (!vy || !values_equal(fj_object_get(x, (const char *) k, kl), vy, kind, ordered))
					return false;
				p = vx + fj_value_size(vx);
			}
		}
		return true;
	}
}

/* ------------------------------------------------------ number helpers */

/*
 * The oracle for the shortest double: glibc's snprintf/strtod, every
 * length from 1 to 17 digits, and at each length the correctly rounded
 * digits and their neighbour on the other side (the closest that reads back
 * wins, as Python's repr does). Returns the digits and the exponent of the last.
 */
static void
oracle_shortest(double a, uint64_t *digits, int *e10)
{
	int			prec;

	for (prec = 1; prec <= 17; prec++)
	{
		char		buf[64],
					dig[24];
		const char *p;
		int			n = 0,
					x,
					k;
		uint64_t	v = 0,
					cand[2];

		snprintf(buf, sizeof(buf), "%.*e", prec - 1, a);
		for (p = buf; *p != 'e'; p++)
			if (*p >= '0' && *p <= '9')
				dig[n++] = *p;
		x = atoi(p + 1);
		for (k = 0; k < n; k++)
			v = v * 10 + (uint64_t) (dig[k] - '0');
		cand[0] = v;
		snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long) v, x - n + 1);
		cand[1] = strtod(buf, NULL) < a ? v + 1 : v - 1;
		for (k = 0; k < 2; k++)
		{
			uint64_t	c = cand[k];
			int			e = x - n + 1;

			snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long) c, e);
			if (c == 0 || strtod(buf, NULL) != a)
				continue;
			while (c % 10 == 0)
			{
				c /= 10;
				e++;
			}
			*digits = c;
			*e10 = e;
			return;
		}
	}
	*digits = 0;
	*e10 = 0;
}

/* The digits and exponent of fj_double_shortest's text. */
static void
shortest_parts(double a, uint64_t *digits, int *e10)
{
	char		buf[FJ_DOUBLE_TEXT_MAX];
	size_t		n = fj_double_shortest(a, buf),
				i;
	fj_number_parts p;
	uint64_t	v = 0;
	int			e;

	fj_number_split((const uint8_t *) buf, n, &p);
	for (i = 0; i < p.int_len; i++)
		v = v * 10 + (uint64_t) (p.int_digits[i] - '0');
	for (i = 0; i < p.frac_len; i++)
		v = v * 10 + (uint64_t) (p.frac_digits[i] - '0');
	e = (int) p.exp - (int) p.frac_len;
	while (v && v % 10 == 0)
	{
		v /= 10;
		e++;
	}
	*digits = v;
	*e10 = e;
}

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * The decoder's form of the shortest digits of a (positive): as nibbles,
 * the first in the lowest, with where the point goes. They must be the
 * oracle's digits, want * 10^we, no trailing zero among them. So must
 * fj_schubfach's, whatever the double's length (the decoder asks it only
 * when the 15-digit shortcut fails), once its trailing zeros are gone.
 */
static bool
check_nibbles(double a, uint64_t want, int we)
{
	unsigned __int128 nibbles;
	unsigned	n,
				i,
				want_n = fj_decimal_length(want);
	int			point,
				k;
	uint64_t	got = 0,
				bits,
				t;

	memcpy(&bits, &a, 8);
	if (fj_schubfach(bits, &t, &k))
	{
		while (t % 10 == 0)
		{
			t /= 10;
			k++;
		}
		if (t != want || k != we)
		{
			CHECKF(0, "fj_schubfach(%a): %llue%d, want %llue%d", a, (unsigned long long) t, k,
				   (unsigned long long) want, we);
			return false;
		}
	}
	fj_double_shortest_nibbles(a, &nibbles, &n, &point);
	for (i = 0; i < n && i < 20; i++)
		got = got * 10 + (uint64_t) ((nibbles >> (4 * i)) & 0xf);
	if (n != want_n || got != want || point != we + (int) want_n || (n < 32 && (nibbles >> (4 * n)) != 0))
	{
		CHECKF(0, "shortest nibbles of %a: %u digits %llu, point %d; want %u digits %llu, point %d", a, n,
			   (unsigned long long) got, point, want_n, (unsigned long long) want, we + (int) want_n);
		return false;
	}
	return true;
}

/* One double: the fast shortest agrees with the oracle, and its text is taken back as it. */
static bool
check_double(double d)
{
	uint64_t	want,
				got;
	int			we,
				ge;
	char		buf[FJ_DOUBLE_TEXT_MAX + 1];
	size_t		n;
	fj_number_parts p;
	double		back;

	if (!isfinite(d) || d == 0)
		return true;
	oracle_shortest(fabs(d), &want, &we);
	shortest_parts(d, &got, &ge);
	n = fj_double_shortest(d, buf);
	buf[n] = 0;
	if (got != want || ge != we)
	{
		CHECKF(0, "shortest(%a = %.17g): got %llue%d, want %llue%d", d, d,
			   (unsigned long long) got, ge, (unsigned long long) want, we);
		return false;
	}
	fj_number_split((const uint8_t *) buf, n, &p);
	if (!fj_number_is_double(&p, &back) || back != d)
	{
		CHECKF(0, "%s (shortest of %a) is not taken as that double", buf, d);
		return false;
	}
	return check_nibbles(fabs(d), want, we);
}

/*
 * fj_shorter_threshold[k + 22] is the least d with d * 10^k >=
 * 2^(floor(log2(10^k)) + 53), checked with exact integers: d meets it and
 * d - 1 does not.
 */
static bool
meets_threshold(uint64_t d, int k)
{
	unsigned __int128 p = 1;
	int			i,
				l = 0;

	for (i = 0; i < (k < 0 ? -k : k); i++)
		p *= 10;
	while (l < 127 && ((unsigned __int128) 1 << (l + 1)) <= p)
		l++;					/* l = floor(log2(10^|k|)) */
	if (k >= 0)					/* d * 10^k >= 2^(l + 53) */
		return (unsigned __int128) d * p >= (unsigned __int128) 1 << (l + 53);
	/* 10^k = 1/10^m, floor(log2(10^k)) = -(l + 1): d >= 10^m * 2^(52 - l) */
	return l >= 52 ? ((unsigned __int128) d << (l - 52)) >= p : d >= p << (52 - l);
}

static void
test_shorter_threshold(void)
{
	int			k;

	for (k = -22; k <= 22; k++)
	{
		uint64_t	t = fj_shorter_threshold[k + 22];

		CHECKF(meets_threshold(t, k) && !meets_threshold(t - 1, k),
			   "fj_shorter_threshold for 10^%d: %llu", k, (unsigned long long) t);
	}
}

/* Decimal texts near doubles: fj_number_is_double's double is strtod's. */
static bool
check_decimal_text(const char *text)
{
	fj_number_parts p;
	double		d;

	fj_number_split((const uint8_t *) text, strlen(text), &p);
	if (fj_number_is_double(&p, &d) && d != strtod(text, NULL))
	{
		CHECKF(0, "is_double(%s) gives %a, strtod %a", text, d, strtod(text, NULL));
		return false;
	}
	return true;
}

/*
 * Whether a text names a double (the choice between a float and a decimal
 * fraction in CBOR): the same answer, and the same double, as the reference
 * code's, on %.15g to %.17g texts of random doubles and on those texts with
 * the last digit moved by one, plain and in exponent form. 16 and 17 digits
 * are where the exact shortcuts decide; both answers must occur often.
 */
static void
test_is_double_decisions(void)
{
	long		i,
				bad = 0,
				yes16 = 0,
				no16 = 0;

	for (i = 0; i < 600000 && bad < 20; i++)
	{
		char		text[64];
		uint64_t	bits = (rng() & 0x000fffffffffffffULL) | (uint64_t) (1023 - 90 + rng() % 150) << 52;
		double		v,
					got_d = 0,
					want_d = 0;
		int			digits = 15 + (int) (rng() % 3),
					n;
		fj_number_parts p,
					rp;
		bool		got,
					want;

		memcpy(&v, &bits, 8);
		if (rng() % 2)
			n = snprintf(text, sizeof(text), "%.*e", digits - 1, v);
		else
		{
			int			x = (int) floor(log10(v)),
						frac = digits - 1 - x;

			n = snprintf(text, sizeof(text), "%.*f", frac > 1 ? frac : 1, v);
		}
		if (rng() % 2)
		{
			/* the last digit of the significand moved by one */
			char	   *ep = strchr(text, 'e');
			int			last = (ep ? (int) (ep - text) : n) - 1;
			char		c = text[last];

			text[last] = c == '9' ? '8' : c == '0' ? '1' : (char) (c + (rng() % 2 ? 1 : -1));
		}
		fj_number_split((const uint8_t *) text, (size_t) n, &p);
		fj_ref_number_split((const uint8_t *) text, (size_t) n, &rp);
		got = fj_number_is_double(&p, &got_d);
		want = fj_ref_number_is_double(&rp, &want_d);
		if (got != want || (got && got_d != want_d))
		{
			bad++;
			CHECKF(0, "is_double(%s): %d (%.17g), the reference %d (%.17g)", text, got, got_d, want, want_d);
		}
		else if (digits >= 16 && want)
			yes16++;
		else if (digits >= 16)
			no16++;
	}
	CHECKF(bad == 0, "%ld is_double decisions differ from the reference", bad);
	CHECKF(yes16 > 10000 && no16 > 10000, "16/17-digit texts: %ld doubles, %ld not: both must occur", yes16, no16);
	printf("is_double: 600000 texts near doubles decided as the reference does (16-17 digits: %ld doubles, %ld not)\n", yes16, no16);
}

/*
 * fj_decimal_is_double_quick (the encoder's first try for 16 and 17 digits)
 * against fj_decimal_is_double: the same answer and the same double whenever
 * it decides, on the digits of %.15e to %.16e texts of random doubles from
 * 10^-11 to 10^15 (the significands of 16 and 17 digits, q from -27 to -1),
 * those digits with the last moved by one, and random digits. It must decide
 * nearly all of them, and both answers must occur often.
 */
static void
test_is_double_quick(void)
{
	long		i,
				bad = 0,
				yes = 0,
				no = 0,
				open = 0;

	for (i = 0; i < 1000000 && bad < 20; i++)
	{
		char		text[64];
		int			sig = 16 + (int) (rng() % 2),
					q,
					r;
		uint64_t	w = 0;
		double		v,
					got = 0,
					want = 0;
		bool		is;
		char	   *c;

		if (rng() % 4 == 0)
		{
			/* random digits */
			uint64_t	low = sig == 16 ? 1000000000000000ULL : 10000000000000000ULL;

			w = low + rng() % (9 * low);
			q = -1 - (int) (rng() % 27);
		}
		else
		{
			v = pow(10.0, -11.0 + (double) (rng() % 2600000) / 100000.0);
			snprintf(text, sizeof(text), "%.*e", sig - 1, v);
			for (c = text; *c != 'e'; c++)
				if (*c >= '0' && *c <= '9')
					w = w * 10 + (uint64_t) (*c - '0');
			q = atoi(c + 1) - (sig - 1);
			if (q < -27 || q > -1)
				continue;
			if (rng() % 2)
				w += w % 10 == 9 ? -1 : 1;
		}
		if (w % 10 == 0)
			continue;
		r = fj_decimal_is_double_quick(w, q, &got);
		if (r < 0)
		{
			open++;
			continue;
		}
		is = fj_decimal_is_double(false, w, sig, q, &want);
		if (is != (r == 1) || (is && got != want))
		{
			bad++;
			CHECKF(0, "is_double_quick(%llue%d): %d (%.17g), fj_decimal_is_double %d (%.17g)",
				   (unsigned long long) w, q, r, got, is, want);
		}
		else if (is)
			yes++;
		else
			no++;
	}
	CHECKF(bad == 0, "%ld is_double_quick answers differ from fj_decimal_is_double's", bad);
	CHECKF(yes > 100000 && no > 100000 && open < (yes + no) / 20,
		   "is_double_quick: %ld doubles, %ld not, %ld left open: both answers often, few open", yes, no, open);
	printf("is_double_quick: %ld decided as fj_decimal_is_double decides (%ld doubles, %ld not), %ld left open\n",
		   yes + no, yes, no, open);
}

static void
test_double_conversions(void)
{
	long		i,
				bad = 0;
	int			k;

	/* random bit patterns: every exponent, subnormals included */
	for (i = 0; i < 400000 && bad < 20; i++)
	{
		uint64_t	bits = rng();
		double		d;

		memcpy(&d, &bits, 8);
		bad += !check_double(d);
	}
	/* integers, powers of two and ten, halves: the exact and tie cases */
	for (k = -1074; k <= 1023 && bad < 20; k++)
	{
		bad += !check_double(ldexp(1, k));
		bad += !check_double(nextafter(ldexp(1, k), 0));
		bad += !check_double(nextafter(ldexp(1, k), INFINITY));
	}
	for (k = -330; k <= 310 && bad < 20; k++)
	{
		char		buf[32];

		snprintf(buf, sizeof(buf), "1e%d", k);
		bad += !check_double(strtod(buf, NULL));
		bad += !check_double(nextafter(strtod(buf, NULL), 0));
	}
	for (i = 0; i < 60000 && bad < 20; i++)
	{
		double		d = (double) (rng() >> (rng() % 64));

		bad += !check_double(d);
		bad += !check_double(ldexp((double) (rng() >> 11), (int) (rng() % 200) - 100));
		bad += !check_double((double) (rng() % 100000) / 1000.0);
	}
	/* decimal texts of 15 to 19 digits around every magnitude */
	for (i = 0; i < 500000 && bad < 20; i++)
	{
		char		text[64];
		int			digits = 15 + (int) (rng() % 5),
					e = (int) (rng() % 640) - 330;
		uint64_t	m = rng() % 10000000000000000000ULL;
		uint64_t	lim = 1;

		for (k = 0; k < digits; k++)
			lim *= 10;
		m %= lim;
		snprintf(text, sizeof(text), "%llue%d", (unsigned long long) (m ? m : 1), e);
		bad += !check_decimal_text(text);
	}
	CHECKF(bad == 0, "%ld double conversion mismatches", bad);
}

static void
expect_shortest(double d, const char *want)
{
	char		buf[FJ_DOUBLE_TEXT_MAX];
	size_t		n = fj_double_shortest(d, buf);

	buf[n] = 0;
	CHECKF(strcmp(buf, want) == 0, "shortest(%.17g): got %s, want %s", d, buf, want);
}

static void
expect_is_double(const char *text, bool want)
{
	fj_number_parts p;
	double		d;
	bool		got;

	fj_number_split((const uint8_t *) text, strlen(text), &p);
	got = fj_number_is_double(&p, &d);
	CHECKF(got == want, "is_double(%s): got %d, want %d", text, got, want);
	if (got)
		CHECKF(d == strtod(text, NULL), "is_double(%s) gives %.17g", text, d);
}

static void
expect_bignum(const char *digits, bool minus_one, const char *want_hex)
{
	fj_buf		out = {0};
	char		hex[512];
	fj_code		rc = fj_decimal_to_bignum((const uint8_t *) digits, strlen(digits), minus_one,
										  &fj_malloc_allocator, NULL, &out);

	tohex(out.data, out.len, hex);
	CHECKF(rc == FJ_OK && strcmp(hex, want_hex) == 0, "bignum(%s%s): got %s, want %s",
		   digits, minus_one ? " - 1" : "", hex, want_hex);
	/* and back */
	if (rc == FJ_OK)
	{
		uint8_t		bytes[256];
		size_t		n = out.len;
		fj_buf		dec = {0};

		memcpy(bytes, out.data, n);
		rc = fj_bignum_to_decimal(bytes, n, minus_one, &fj_malloc_allocator, NULL, &dec);
		CHECKF(rc == FJ_OK && dec.len == strlen(digits) && memcmp(dec.data, digits, dec.len) == 0,
			   "bignum back of %s: got %.*s", digits, (int) dec.len, dec.data);
		fj_buf_release(&fj_malloc_allocator, &dec);
	}
	fj_buf_release(&fj_malloc_allocator, &out);
}

static void
test_numbers(void)
{
	uint16_t	h;
	int			i;
	uint64_t	seed = 12345;

	expect_shortest(0.0, "0.0");
	expect_shortest(-0.0, "-0.0");
	expect_shortest(1.0, "1.0");
	expect_shortest(1.1, "1.1");
	expect_shortest(-4.1, "-4.1");
	expect_shortest(100000.0, "100000.0");
	expect_shortest(1e15, "1000000000000000.0");
	expect_shortest(1e16, "1e+16");
	expect_shortest(1e300, "1e+300");
	expect_shortest(0.0001, "0.0001");
	expect_shortest(0.00001, "1e-05");
	expect_shortest(5.960464477539063e-08, "5.960464477539063e-08");
	expect_shortest(3.4028234663852886e+38, "3.4028234663852886e+38");
	expect_shortest(1363896240.5, "1363896240.5");
	expect_shortest(5e-324, "5e-324");
	expect_shortest(2.2250738585072014e-308, "2.2250738585072014e-308");
	expect_shortest(1.7976931348623157e308, "1.7976931348623157e+308");
	expect_shortest(0.1 + 0.2, "0.30000000000000004");
	expect_shortest(123456789012345680.0, "1.2345678901234568e+17");
	expect_shortest(9007199254740993.0, "9007199254740992.0");

	expect_is_double("1.1", true);
	expect_is_double("1.10", true);
	expect_is_double("-4.1", true);
	expect_is_double("1.0e+300", true);
	expect_is_double("1e2", true);
	expect_is_double("0.0", true);
	expect_is_double("-0.0", true);
	expect_is_double("0e999999999999999999999", true);
	expect_is_double("0.30000000000000004", true);
	expect_is_double("0.3000000000000000444", false);
	expect_is_double("0.10000000000000001", false);
	expect_is_double("1e400", false);
	expect_is_double("1e-400", false);
	expect_is_double("5e-324", true);
	expect_is_double("4.9406564584124654e-324", false);
	expect_is_double("1.7976931348623157e308", true);
	expect_is_double("1.7976931348623159e308", false);
	expect_is_double("1e99999999999999999999", false);
	expect_is_double("123456789.123456789", false);
	expect_is_double("9007199254740993.0", false);
	expect_is_double("9007199254740992.0", true);

	/* every finite binary16 value, and its neighbours */
	for (i = 0; i < 0x7c00; i++)
	{
		double		v;
		int			e = i >> 10,
					m = i & 1023;

		v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
		CHECKF(fj_double_to_half(v, &h) && h == i, "half of %.17g: %04x, want %04x", v, h, i);
		CHECKF(fj_double_to_half(-v, &h) && h == (0x8000 | i), "half of -%.17g", v);
		if (i > 0)
			CHECKF(!fj_double_to_half(nextafter(v, 0), &h) || (e == 0 && m == 0), "half of below %.17g", v);
	}
	CHECK(!fj_double_to_half(65520.0, &h));
	CHECK(!fj_double_to_half(1.1, &h));
	CHECK(!fj_double_to_half(ldexp(1, -25), &h));

	expect_bignum("18446744073709551616", false, "010000000000000000");
	expect_bignum("18446744073709551617", true, "010000000000000000");
	expect_bignum("1", true, "");
	expect_bignum("255", false, "ff");
	expect_bignum("256", false, "0100");
	expect_bignum("340282366920938463463374607431768211456", false, "0100000000000000000000000000000000");
	expect_bignum("123456789012345678901234567890", false, "018ee90ff6c373e0ee4e3f0ad2");

	/* shortest text reads back, for random doubles of every magnitude */
	for (i = 0; i < 200000; i++)
	{
		double		d;
		char		buf[FJ_DOUBLE_TEXT_MAX + 1];
		size_t		n;
		fj_number_parts p;
		double		back;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		memcpy(&d, &seed, 8);
		if (!isfinite(d))
			continue;
		n = fj_double_shortest(d, buf);
		buf[n] = 0;
		if (strtod(buf, NULL) != d)
		{
			CHECKF(0, "shortest(%a) = %s does not read back", d, buf);
			continue;
		}
		/* and names the double unambiguously */
		fj_number_split((const uint8_t *) buf, n, &p);
		if (!fj_number_is_double(&p, &back) || back != d)
			CHECKF(0, "shortest(%a) = %s is not taken as that double", d, buf);
	}
	CHECK(1);
}

/* ------------------------------------------------------------ decoding */

static void
test_decode(void)
{
	/* integers */
	expect_decode("00", "0");
	expect_decode("17", "23");
	expect_decode("1818", "24");
	expect_decode("1b7fffffffffffffff", "9223372036854775807");
	expect_decode("1b8000000000000000", "9223372036854775808");
	expect_decode("3b7fffffffffffffff", "-9223372036854775808");
	expect_decode("3b8000000000000000", "-9223372036854775809");
	expect_decode("3bffffffffffffffff", "-18446744073709551616");
	/* non-preferred heads are accepted */
	expect_decode("1b0000000000000001", "1");
	/* bignums */
	expect_decode("c240", "0");
	expect_decode("c340", "-1");
	expect_decode("c24101", "1");
	expect_decode("c2480000000000000001", "1");
	expect_decode("c2487fffffffffffffff", "9223372036854775807");
	expect_decode("c2488000000000000000", "9223372036854775808");
	expect_decode("c3487fffffffffffffff", "-9223372036854775808");
	expect_decode("c3488000000000000000", "-9223372036854775809");
	expect_decode("c24a01000000000000000000", "4722366482869645213696");
	expect_decode("c25f4101420000ff", "65536");
	expect_decode_error("c201", FJ_ERR_CBOR, "Tag 2 or 3", 1);
	expect_decode_error("c3f6", FJ_ERR_CBOR, "Tag 2 or 3", 1);
	expect_decode_error("c2c240", FJ_ERR_CBOR, "Tag 2 or 3", 1);
	expect_decode_error("c26161", FJ_ERR_CBOR, "Tag 2 or 3", 1);
	/* decimal fractions */
	expect_decode("c48221196ab3", "273.15");
	expect_decode("c4820005", "5");
	expect_decode("c4820105", "5e+1");
	expect_decode("c4822005", "0.5");
	expect_decode("c4822505", "0.000005");
	expect_decode("c4822605", "5e-7");
	expect_decode("c482381f05", "5e-32");
	expect_decode("c4821901900f", "1.5e+401");
	expect_decode("c48220c249010000000000000000", "1844674407370955161.6");
	expect_decode("c48220c349010000000000000000", "-1844674407370955161.7");
	expect_decode("c4822000", "0.0");
	expect_decode("c4820038ff", "-256");
	expect_decode("c49f2005ff", "0.5");
	expect_decode("c4821b7fffffffffffffff01", "1e+9223372036854775807");
	expect_decode("c4823b7fffffffffffffff01", "1e-9223372036854775808");
	expect_decode("c4823b7fffffffffffffff0a", "1.0e-9223372036854775807");
	expect_decode_error("c4821b7fffffffffffffff0a", FJ_ERR_CBOR, "exponent", 11);
	expect_decode_error("c4821b800000000000000001", FJ_ERR_CBOR, "exponent", 2);
	expect_decode_error("c4823b800000000000000001", FJ_ERR_CBOR, "exponent", 2);
	expect_decode_error("c48301020f", FJ_ERR_CBOR, "Tag 4", 1);
	expect_decode_error("c48101", FJ_ERR_CBOR, "Tag 4", 1);
	expect_decode_error("c482f93c0001", FJ_ERR_CBOR, "Tag 4", 2);
	expect_decode_error("c482016161", FJ_ERR_CBOR, "Tag 4", 3);
	expect_decode_error("c48201c101", FJ_ERR_CBOR, "Tag 4", 3);
	expect_decode_error("c48201c401", FJ_ERR_CBOR, "Tag 4", 3);
	expect_decode_error("c4824101", FJ_ERR_CBOR, "Tag 4", 2);
	expect_decode_error("c49f0101", FJ_ERR_CBOR, "truncated", 4);
	expect_decode_error("c49f010101ff", FJ_ERR_CBOR, "Tag 4", 4);
	expect_decode_error("c49f01ff", FJ_ERR_CBOR, "Tag 4", 3);
	expect_decode_error("c4a0", FJ_ERR_CBOR, "Tag 4", 1);
	expect_decode_error("c401", FJ_ERR_CBOR, "Tag 4", 1);
	/* floats */
	expect_decode("f93c00", "1.0");
	expect_decode("f90001", "5.960464477539063e-08");
	expect_decode("f903ff", "6.097555160522461e-05");
	expect_decode("fa47c35000", "100000.0");
	expect_decode("fb3ff199999999999a", "1.1");
	expect_decode("fb0000000000000001", "5e-324");
	expect_decode("fb4340000000000000", "9007199254740992.0");
	expect_decode("fb43b0000000000000", "1.152921504606847e+18");
	expect_decode_error("f97e00", FJ_ERR_CBOR, "NaN", 0);
	expect_decode_error("fa7f800000", FJ_ERR_CBOR, "NaN", 0);
	expect_decode_error("fbfff0000000000000", FJ_ERR_CBOR, "NaN", 0);
	expect_decode_null("f97e00", "null");
	expect_decode_null("83f97c00f7f0", "[null,null,null]");
	/* simple values */
	expect_decode("f4", "false");
	expect_decode("f5", "true");
	expect_decode("f6", "null");
	expect_decode_error("f7", FJ_ERR_CBOR, "undefined", 0);
	expect_decode_error("e0", FJ_ERR_CBOR, "Simple", 0);
	expect_decode_error("f3", FJ_ERR_CBOR, "Simple", 0);
	expect_decode_error("f820", FJ_ERR_CBOR, "Simple", 0);
	expect_decode_error("f81f", FJ_ERR_CBOR, "two-byte", 0);
	expect_decode_error("f814", FJ_ERR_CBOR, "two-byte", 0);
	expect_decode_null("f820", "null");
	expect_decode_null("8201f8ff", "[1,null]");
	/* strings */
	expect_decode("60", "\"\"");
	expect_decode("6449455446", "\"IETF\"");
	expect_decode("62225c", "\"\\\"\\\\\"");
	expect_decode("6100", "\"\\u0000\"");
	expect_decode("7f6161626263ff", "\"abc\"");
	expect_decode("7fff", "\"\"");
	expect_decode_error("62c328", FJ_ERR_CBOR, "UTF-8", 0);
	expect_decode_error("63eda080", FJ_ERR_CBOR, "UTF-8", 0);
	expect_decode_error("62c0af", FJ_ERR_CBOR, "UTF-8", 0);
	/* a code point split across chunks is invalid (§3.2.3) */
	expect_decode_error("7f61c361bcff", FJ_ERR_CBOR, "UTF-8", 1);
	expect_decode("7f62c3bcff", "\"\xc3\xbc\"");
	expect_decode_error("7f4161ff", FJ_ERR_CBOR, "indefinite-length string", 1);
	expect_decode_error("7f7f6161ffff", FJ_ERR_CBOR, "indefinite-length string", 1);
	expect_decode_error("7f01ff", FJ_ERR_CBOR, "indefinite-length string", 1);
	expect_decode_error("7fc16161ff", FJ_ERR_CBOR, "indefinite-length string", 1);
	expect_decode_error("7ff6ff", FJ_ERR_CBOR, "indefinite-length string", 1);
	expect_decode_error("5f6161ff", FJ_ERR_CBOR, "indefinite-length string", 1);
	/* byte strings: base64url, or as tags 21-23 ask (§6.1) */
	expect_decode("40", "\"\"");
	expect_decode("4101", "\"AQ\"");
	expect_decode("420102", "\"AQI\"");
	expect_decode("43010203", "\"AQID\"");
	expect_decode("43fbff00", "\"-_8A\"");
	expect_decode("d54343fbff", "\"Q_v_\"");
	expect_decode("d64401020304", "\"AQIDBA==\"");
	expect_decode("d64343fbff", "\"Q/v/\"");
	expect_decode("d7440102abcd", "\"0102ABCD\"");
	expect_decode("d7824101a1616142ff00", "[\"01\",{\"a\":\"FF00\"}]");
	expect_decode("d782d5410141ff", "[\"AQ\",\"FF\"]");
	expect_decode("d75f4101ff", "\"01\"");
	expect_decode("5f42010243030405ff", "\"AQIDBAU\"");
	/* other tags: dropped, content kept (including one-byte tags 6..20) */
	expect_decode("c074323031332d30332d32315432303a30343a30305a", "\"2013-03-21T20:04:00Z\"");
	expect_decode("c11a514b67b0", "1363896240");
	expect_decode("c6c7d40a", "10");
	expect_decode("d9d9f7a1616101", "{\"a\":1}");
	expect_decode("db000000010000000001", "1");
	expect_decode("c5822003", "[-1,3]");
	expect_decode_error("c1", FJ_ERR_CBOR, "truncated", 1);
	expect_decode_error("9fc1ff", FJ_ERR_CBOR, "Break code where a tag", 2);
	/* containers */
	expect_decode("80", "[]");
	expect_decode("a0", "{}");
	expect_decode("9fff", "[]");
	expect_decode("bfff", "{}");
	expect_decode("a201020304", "{\"1\":2,\"3\":4}");
	expect_decode("a23bffffffffffffffff011bffffffffffffffff02",
				  "{\"-18446744073709551616\":1,\"18446744073709551615\":2}");
	expect_decode("a1c24901000000000000000001", "{\"18446744073709551616\":1}");
	expect_decode("a1c34101f6", "{\"-2\":null}");
	expect_decode("a1c16161f6", "{\"a\":null}");
	expect_decode("a2616101616102", "{\"a\":1,\"a\":2}");
	expect_decode("a201016131f6", "{\"1\":1,\"1\":null}");
	expect_decode_error("a1f401", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a1f601", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a1f93c0001", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a1410101", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a18001", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a1a001", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a1c482010101", FJ_ERR_CBOR, "Map key", 2);
	expect_decode_error("a1f701", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("a15f41ff01", FJ_ERR_CBOR, "Map key", 1);
	expect_decode_error("bf6161ff", FJ_ERR_CBOR, "between a map key and its value", 3);
	/* keys substitute_null cannot fix */
	{
		fj_error	err;
		char	   *got = decode_hex("a1f701", true, &err);

		CHECKF(!got && err.code == FJ_ERR_CBOR, "undefined key with substitute_null: %s", got ? got : "error");
		free(got);
	}
	/* a large object gets a key index the validator accepts */
	expect_decode("aa616100616201616302616403616504616605616706616807616908616a09",
				  "{\"a\":0,\"b\":1,\"c\":2,\"d\":3,\"e\":4,\"f\":5,\"g\":6,\"h\":7,\"i\":8,\"j\":9}");
}

/* ------------------------------------------------------- hostile input */

static void
test_hostile(void)
{
	static const char *const valid[] = {
		"a26161016162820203",
		"9f018202039f0405ffff",
		"bf6346756ef563416d7421ff",
		"c249010000000000000000",
		"c48221196ab3",
		"7f657374726561646d696e67ff",
		"5f42010243030405ff",
		"d818456449455446",
		"fb7e37e43c8800759c",
		"83a1c16161f6c4822005d7824101a1616142ff00",
	};
	uint8_t		buf[4096];
	size_t		i,
				k;
	fj_error	err;
	char	   *got;

	expect_decode_error("", FJ_ERR_CBOR, "empty", 0);
	/* every proper prefix of a valid item is truncated, never accepted */
	for (i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
	{
		size_t		n = unhex(valid[i], buf);

		got = decode_bytes(buf, n, false, 0, &err);
		CHECKF(got != NULL, "valid %s rejected: %s", valid[i], got ? "" : err.message);
		free(got);
		for (k = 0; k < n; k++)
		{
			got = decode_bytes(buf, k, false, 0, &err);
			CHECKF(!got && err.code == FJ_ERR_CBOR && err.offset <= k, "prefix %zu of %s: %s", k, valid[i],
				   got ? got : err.message);
			free(got);
		}
		/* a byte more is trailing data */
		buf[n] = 0;
		got = decode_bytes(buf, n + 1, false, 0, &err);
		CHECKF(!got && err.code == FJ_ERR_CBOR && strstr(err.message, "after the end") && err.offset == n,
			   "%s plus a byte: %s", valid[i], got ? got : err.message);
		free(got);
	}
	/* huge declared lengths and counts: truncated, nothing allocated for them */
	expect_decode_error("9b0000000100000000", FJ_ERR_CBOR, "truncated", 9);
	expect_decode_error("9bffffffffffffffff01", FJ_ERR_CBOR, "truncated", 10);
	expect_decode_error("bbffffffffffffffff", FJ_ERR_CBOR, "truncated", 9);
	expect_decode_error("5bffffffffffffffff", FJ_ERR_CBOR, "truncated", 0);
	expect_decode_error("7bffffffffffffffff", FJ_ERR_CBOR, "truncated", 0);
	expect_decode_error("5a7fffffff00", FJ_ERR_CBOR, "truncated", 0);
	expect_decode_error("c25bffffffffffffffff", FJ_ERR_CBOR, "truncated", 1);
	expect_decode_error("5f5bffffffffffffffffff", FJ_ERR_CBOR, "truncated", 1);
	expect_decode_error("5f", FJ_ERR_CBOR, "truncated", 1);
	expect_decode_error("f8", FJ_ERR_CBOR, "truncated", 0);
	expect_decode_error("19", FJ_ERR_CBOR, "truncated", 0);
	expect_decode_error("fb3ff1999999", FJ_ERR_CBOR, "truncated", 0);
	/* reserved additional information 28-30 in every major type, 31 where it means nothing */
	for (i = 0; i < 8; i++)
	{
		int			ai;

		for (ai = 28; ai <= 31; ai++)
		{
			char		hex[8];
			int			b = (int) (i << 5) | ai;

			if (ai == 31 && i != 0 && i != 1 && i != 6)
				continue;
			snprintf(hex, sizeof(hex), "%02x00", b);
			expect_decode_error(hex, FJ_ERR_CBOR, "Reserved", 0);
		}
	}
	expect_decode_error("821c00", FJ_ERR_CBOR, "Reserved", 1);
	/* breaks out of place */
	expect_decode_error("ff", FJ_ERR_CBOR, "Break code outside", 0);
	expect_decode_error("81ff", FJ_ERR_CBOR, "Break code outside", 1);
	expect_decode_error("a1ff", FJ_ERR_CBOR, "Break code outside", 1);
	expect_decode_error("a161610180ff", FJ_ERR_CBOR, "after the end", 4);
	expect_decode_error("9f81ff", FJ_ERR_CBOR, "Break code outside", 2);
	expect_decode_error("c2ff", FJ_ERR_CBOR, "Break code where a tag", 1);
	/* trailing bytes */
	expect_decode_error("0000", FJ_ERR_CBOR, "after the end", 1);
	expect_decode_error("80ff", FJ_ERR_CBOR, "after the end", 1);
	/* nesting: max_depth arrays and maps are fine, one more is FJ_ERR_DEPTH */
	{
		size_t		depth = 100000;
		uint8_t    *deep = malloc(depth + 1);

		memset(deep, 0x81, depth);
		deep[depth] = 0x00;
		got = decode_bytes(deep, depth + 1, false, (uint32_t) depth, &err);
		CHECKF(got != NULL, "%zu nested arrays rejected: %s", depth, got ? "" : err.message);
		free(got);
		got = decode_bytes(deep, depth + 1, false, (uint32_t) depth - 1, &err);
		CHECKF(!got && err.code == FJ_ERR_DEPTH && err.offset == depth - 1, "depth limit: %s at %zu",
			   got ? got : err.message, got ? 0 : err.offset);
		free(got);
		memset(deep, 0x9f, depth);
		got = decode_bytes(deep, depth, false, 0, &err);
		CHECKF(!got && err.code == FJ_ERR_DEPTH && err.offset == FJ_DEFAULT_MAX_DEPTH,
			   "indefinite arrays beyond the default depth");
		free(got);
		/* maps nest through their values: {"": {"": ...}} */
		for (k = 0; k + 2 < depth; k += 2)
		{
			deep[k] = 0xa1;
			deep[k + 1] = 0x60;
		}
		got = decode_bytes(deep, k, false, 0, &err);
		CHECKF(!got && err.code == FJ_ERR_DEPTH && err.offset == 2 * FJ_DEFAULT_MAX_DEPTH,
			   "nested maps beyond the default depth: %s", got ? got : err.message);
		free(got);
		/* a long chain of tags is not nesting: dropped one by one */
		memset(deep, 0xc1, depth);
		got = decode_bytes(deep, depth + 1, false, 0, &err);
		CHECKF(got && strcmp(got, "0") == 0, "tag chain: %s", got ? got : err.message);
		free(got);
		free(deep);
	}
	/* random bytes and mutations of valid items: never a crash, accepted means a valid tape */
	{
		uint64_t	s = 42;
		int			round;
		int			accepted = 0;

		for (round = 0; round < 200000; round++)
		{
			size_t		n;
			fj_buf		tape;
			fj_cbor_decode_options opt = {0};

			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			if (round % 2)
			{
				const char *v = valid[(s >> 33) % (sizeof(valid) / sizeof(valid[0]))];

				n = unhex(v, buf);
				for (k = 0; k < 1 + (s >> 20) % 3; k++)
				{
					s = s * 6364136223846793005ULL + 1442695040888963407ULL;
					buf[(s >> 33) % n] = (uint8_t) (s >> 13);
				}
			}
			else
			{
				n = 1 + (s >> 40) % 24;
				for (k = 0; k < n; k++)
				{
					s = s * 6364136223846793005ULL + 1442695040888963407ULL;
					buf[k] = (uint8_t) (s >> 33);
				}
			}
			opt.substitute_null = (s >> 7) & 1;
			if (fj_cbor_decode(buf, n, &opt, &tape, &err) == FJ_OK)
			{
				fj_error	verr;
				fj_buf		cbor;

				accepted++;
				if (fj_validate_tape(tape.data, tape.len, 0, &fj_malloc_allocator, &verr) != FJ_OK)
					CHECKF(0, "mutation %d: accepted tape does not validate: %s", round, verr.message);
				else if (fj_cbor_encode(tape.data + FJ_TAPE_HEADER, NULL, &cbor, &verr) != FJ_OK)
					CHECKF(0, "mutation %d: accepted tape does not re-encode: %s", round, verr.message);
				else
					fj_buf_release(&fj_malloc_allocator, &cbor);
				fj_buf_release(&fj_malloc_allocator, &tape);
			}
			else if (err.code != FJ_ERR_CBOR && err.code != FJ_ERR_DEPTH)
				CHECKF(0, "mutation %d: unexpected code %d", round, (int) err.code);
		}
		CHECKF(accepted > 1000, "only %d mutations accepted", accepted);
	}
}

/* ------------------------------------------------------------ encoding */

static void
test_encode(void)
{
	/* integers: shortest heads, 64-bit ranges, then bignums */
	expect_encode("0", "00", false);
	expect_encode("23", "17", false);
	expect_encode("24", "1818", false);
	expect_encode("-1", "20", false);
	expect_encode("-25", "3818", false);
	expect_encode("9223372036854775807", "1b7fffffffffffffff", false);
	expect_encode("-9223372036854775808", "3b7fffffffffffffff", false);
	expect_encode("9223372036854775808", "1b8000000000000000", false);
	expect_encode("18446744073709551615", "1bffffffffffffffff", false);
	expect_encode("18446744073709551616", "c249010000000000000000", false);
	expect_encode("-18446744073709551616", "3bffffffffffffffff", false);
	expect_encode("-18446744073709551617", "c349010000000000000000", false);
	expect_encode("-0", "00", false);
	expect_encode("123456789012345678901234567890", "c24d018ee90ff6c373e0ee4e3f0ad2", false);
	/* floats: the shortest width that keeps the double */
	expect_encode("0.0", "f90000", false);
	expect_encode("-0.0", "f98000", false);
	expect_encode("1.0", "f93c00", false);
	expect_encode("1e0", "f93c00", false);
	expect_encode("100E-2", "f93c00", false);
	expect_encode("1.5", "f93e00", false);
	expect_encode("65504.0", "f97bff", false);
	expect_encode("65505.0", "fa477fe100", false);
	expect_encode("100000.0", "fa47c35000", false);
	expect_encode("5.960464477539063e-08", "f90001", false);
	expect_encode("1.7881393432617188e-07", "f90003", false);
	expect_encode("6.097555160522461e-05", "f903ff", false);
	expect_encode("1.1", "fb3ff199999999999a", false);
	expect_encode("1.10", "fb3ff199999999999a", false);
	expect_encode("1.0e+300", "fb7e37e43c8800759c", false);
	expect_encode("5e-324", "fb0000000000000001", false);
	expect_encode("1e2", "f95640", false);
	expect_encode("0e400", "f90000", false);
	/* decimal fractions: everything a double does not name exactly */
	expect_encode("0.10000000000000001", "c482301b002386f26fc10001", false);
	expect_encode("273.1500000000000000001", "c48232c24994132d69e48b7e0001", false);
	expect_encode("1e400", "c482190190 01", false);
	expect_encode("-1.5e-400", "c482390190 2e", false);
	expect_encode("123456789012345678901234567890.5", "c48220c24d0f951a9fa3a286c94f0e766c39", false);
	expect_encode("1e-9223372036854775807", "c4823b7ffffffffffffffe01", false);
	expect_encode("1e9223372036854775807", "c4821b7fffffffffffffff01", false);
	expect_encode("1.5e-9223372036854775807", "c4823b7fffffffffffffff0f", false);
	expect_encode_error("1e9223372036854775808", false, FJ_ERR_TOO_BIG);
	expect_encode_error("1.5e-9223372036854775808", false, FJ_ERR_TOO_BIG);
	/* strings, literals, containers */
	expect_encode("\"\"", "60", false);
	expect_encode("\"\\u00fc\"", "62c3bc", false);
	expect_encode("[true,false,null]", "83f5f4f6", false);
	expect_encode("{\"b\":1,\"a\":2}", "a2616201616102", false);
	expect_encode("{\"b\":1,\"a\":2}", "a2616102616201", true);
	expect_encode("{\"aa\":1,\"b\":2,\"a\":3}", "a3616103616202626161 01", true);
	expect_encode("{\"a\":1,\"a\":2}", "a2616101616102", false);
	expect_encode_error("{\"a\":1,\"a\":2}", true, FJ_ERR_DUPLICATE_KEY);
	expect_encode_error("[{\"x\":{\"a\":1,\"b\":[],\"a\":2}}]", true, FJ_ERR_DUPLICATE_KEY);
	expect_encode("{\"z\":{\"y\":1,\"x\":2},\"a\":[{\"d\":1,\"c\":2}]}",
				  "a26161 81a2616302616401 617a a2617802617901", true);

	/* where the duplicate is: the tape offset of the second key */
	{
		fj_buf		tape,
					cbor;
		fj_error	err;
		fj_cbor_encode_options opt = {0};
		const char *json = "{\"b\":1,\"a\":1,\"b\":2}";
		const uint8_t *key;

		fj_parse(json, strlen(json), NULL, &tape, &err);
		opt.deterministic = true;
		CHECK(fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &opt, &cbor, &err) == FJ_ERR_DUPLICATE_KEY);
		CHECK(FJ_TYPE(tape.data[FJ_TAPE_HEADER + err.offset]) == FJ_STRING);
		CHECK(fj_text(tape.data + FJ_TAPE_HEADER + err.offset, &key) == 1 && key[0] == 'b');
		CHECK(err.offset == 9);
		fj_buf_release(&fj_malloc_allocator, &tape);
	}

	/* round trips keep number spelling where CBOR can */
	expect_roundtrip("[1,-1,0.5,1.0,1e2,-0,-0.0,1E400,0.10000000000000001,1.50,123.4500000000000000000]",
					 "[1,-1,0.5,1.0,100.0,0,-0.0,1e+400,0.10000000000000001,1.5,123.45]");
	expect_roundtrip("[18446744073709551616,-18446744073709551617,99999999999999999999999999999]",
					 "[18446744073709551616,-18446744073709551617,99999999999999999999999999999]");
	expect_roundtrip("{\"a\":{\"b\":[{},[],\"\"]},\"a\":null}", "{\"a\":{\"b\":[{},[],\"\"]},\"a\":null}");
}

/* --------------------------------------------------------- Appendix A */

/* Expected results of the Appendix A vectors that have no JSON "decoded". */
static const struct
{
	const char *hex;
	const char *json;			/* NULL: an error by default */
	const char *with_null;		/* the result with substitute_null (NULL: json, or an error) */
}			diagnostics[] = {
	{"f97c00", NULL, "null"},	/* Infinity */
	{"f97e00", NULL, "null"},	/* NaN */
	{"f9fc00", NULL, "null"},	/* -Infinity */
	{"fa7f800000", NULL, "null"},
	{"fa7fc00000", NULL, "null"},
	{"faff800000", NULL, "null"},
	{"fb7ff0000000000000", NULL, "null"},
	{"fb7ff8000000000000", NULL, "null"},
	{"fbfff0000000000000", NULL, "null"},
	{"f7", NULL, "null"},		/* undefined */
	{"f0", NULL, "null"},		/* simple(16) */
	{"f818", NULL, NULL},		/* simple(24): not well-formed in RFC 8949 (two-byte form below 32) */
	{"f8ff", NULL, "null"},		/* simple(255) */
	{"c074323031332d30332d32315432303a30343a30305a", "\"2013-03-21T20:04:00Z\"", NULL},
	{"c11a514b67b0", "1363896240", NULL},
	{"c1fb41d452d9ec200000", "1363896240.5", NULL},
	{"d74401020304", "\"01020304\"", NULL},
	{"d818456449455446", "\"ZElFVEY\"", NULL},
	{"d82076687474703a2f2f7777772e6578616d706c652e636f6d", "\"http://www.example.com\"", NULL},
	{"40", "\"\"", NULL},
	{"4401020304", "\"AQIDBA\"", NULL},
	{"a201020304", "{\"1\":2,\"3\":4}", NULL},
	{"5f42010243030405ff", "\"AQIDBAU\"", NULL},
};

static void
test_appendix_a(void)
{
	const char *data = t_data_dir();
	char		path[1024];
	char	   *json;
	size_t		len;
	fj_buf		file;
	fj_error	err;
	const uint8_t *root,
			   *p,
			   *end;
	int			n_decoded = 0,
				n_roundtrip = 0,
				n_diagnostic = 0,
				n_total = 0;

	if (!data)
		return;
	snprintf(path, sizeof(path), "%s/cbor/appendix_a.json", data);
	json = t_read_file(path, &len);
	if (!json)
	{
		printf("SKIP: %s is absent\n", path);
		return;
	}
	CHECK(fj_parse(json, len, NULL, &file, &err) == FJ_OK);
	root = file.data + FJ_TAPE_HEADER;
	CHECK(FJ_TYPE(root[0]) == FJ_ARRAY);
	p = fj_container_members(root);
	end = fj_container_members_end(root);
	for (; p < end; p += fj_value_size(p))
	{
		const uint8_t *hexv = fj_object_get(p, "hex", 3),
				   *decoded = fj_object_get(p, "decoded", 7),
				   *diag = fj_object_get(p, "diagnostic", 10),
				   *rt = fj_object_get(p, "roundtrip", 9),
				   *h;
		uint32_t	hl = fj_text(hexv, &h);
		char		hex[512];
		uint8_t		cbor[256];
		size_t		n;
		fj_cbor_decode_options opt = {0};
		fj_buf		tape;

		n_total++;
		memcpy(hex, h, hl);
		hex[hl] = 0;
		n = unhex(hex, cbor);
		if (decoded)
		{
			bool		ok = fj_cbor_decode(cbor, n, &opt, &tape, &err) == FJ_OK;

			n_decoded++;
			CHECKF(ok && values_equal(tape.data + FJ_TAPE_HEADER, decoded, true, true),
				   "Appendix A %s: decodes to %s", hex, ok ? json_of(tape.data + FJ_TAPE_HEADER) : err.message);
			if (ok)
				fj_buf_release(&fj_malloc_allocator, &tape);
			if (rt && FJ_IMM(rt[0]) == FJ_TRUE)
			{
				fj_buf		out;
				char		got[512];

				n_roundtrip++;
				CHECK(fj_cbor_encode(decoded, NULL, &out, &err) == FJ_OK);
				tohex(out.data, out.len, got);
				CHECKF(strcmp(got, hex) == 0, "Appendix A %s: encodes back as %s", hex, got);
				fj_buf_release(&fj_malloc_allocator, &out);
			}
		}
		else
		{
			size_t		i;
			bool		found = false;

			n_diagnostic++;
			CHECK(diag != NULL);
			for (i = 0; i < sizeof(diagnostics) / sizeof(diagnostics[0]); i++)
			{
				char	   *got,
						   *got_null;

				if (strcmp(diagnostics[i].hex, hex) != 0)
					continue;
				found = true;
				got = decode_bytes(cbor, n, false, 0, &err);
				if (diagnostics[i].json)
					CHECKF(got && strcmp(got, diagnostics[i].json) == 0, "Appendix A %s: got %s, want %s",
						   hex, got ? got : err.message, diagnostics[i].json);
				else
					CHECKF(!got && err.code == FJ_ERR_CBOR, "Appendix A %s: got %s, want an error", hex, got);
				got_null = decode_bytes(cbor, n, true, 0, &err);
				if (diagnostics[i].with_null || diagnostics[i].json)
					CHECKF(got_null && strcmp(got_null, diagnostics[i].with_null ? diagnostics[i].with_null : diagnostics[i].json) == 0,
						   "Appendix A %s with substitute_null: got %s", hex, got_null ? got_null : err.message);
				else
					CHECKF(!got_null && err.code == FJ_ERR_CBOR, "Appendix A %s with substitute_null: got %s, want an error",
						   hex, got_null);
				free(got);
				free(got_null);
			}
			CHECKF(found, "Appendix A %s: no expected result", hex);
		}
	}
	printf("Appendix A: %d vectors, %d decoded (%d round trips), %d diagnostic\n",
		   n_total, n_decoded, n_roundtrip, n_diagnostic);
	CHECK(n_total == 82);
	fj_buf_release(&fj_malloc_allocator, &file);
	free(json);
}

/* ----------------------------------------------------------- corpus */

/* Round trips of one document: decode(encode(x)) = x; deterministic too; a fixpoint after one round. */
static void
check_document(const char *name, const char *json, size_t len)
{
	fj_buf		tape,
				cbor,
				back,
				cbor2,
				det,
				back_det;
	fj_error	err;
	fj_cbor_encode_options eopt = {0};

	if (fj_parse(json, len, NULL, &tape, &err) != FJ_OK)
		return;
	if (fj_cbor_encode(tape.data + FJ_TAPE_HEADER, NULL, &cbor, &err) != FJ_OK)
	{
		CHECKF(0, "%s: encode failed: %s", name, err.message);
		fj_buf_release(&fj_malloc_allocator, &tape);
		return;
	}
	if (fj_cbor_decode(cbor.data, cbor.len, NULL, &back, &err) != FJ_OK)
		CHECKF(0, "%s: decode failed: %s at %zu", name, err.message, err.offset);
	else
	{
		CHECKF(values_equal(tape.data + FJ_TAPE_HEADER, back.data + FJ_TAPE_HEADER, false, true),
			   "%s: decode(encode(x)) differs from x", name);
		/* and it is the tape its own text parses to, string references included */
		{
			fj_buf		text = {0},
						reparsed = {0};

			CHECK(fj_write_json(back.data + FJ_TAPE_HEADER, &fj_malloc_allocator, &text) == FJ_OK);
			CHECK(fj_parse((const char *) text.data, text.len, NULL, &reparsed, &err) == FJ_OK);
			CHECKF(back.len == reparsed.len && memcmp(back.data, reparsed.data, back.len) == 0,
				   "%s: decode(encode(x)) is not the tape its text parses to (%zu and %zu bytes)",
				   name, back.len, reparsed.len);
			fj_buf_release(&fj_malloc_allocator, &text);
			fj_buf_release(&fj_malloc_allocator, &reparsed);
		}
		CHECK(fj_cbor_encode(back.data + FJ_TAPE_HEADER, NULL, &cbor2, &err) == FJ_OK);
		CHECKF(cbor2.len == cbor.len && memcmp(cbor2.data, cbor.data, cbor.len) == 0,
			   "%s: encode(decode(encode(x))) differs from encode(x)", name);
		fj_buf_release(&fj_malloc_allocator, &cbor2);
		fj_buf_release(&fj_malloc_allocator, &back);
	}
	eopt.deterministic = true;
	if (fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &eopt, &det, &err) == FJ_OK)
	{
		CHECK(fj_cbor_decode(det.data, det.len, NULL, &back_det, &err) == FJ_OK);
		CHECKF(values_equal(tape.data + FJ_TAPE_HEADER, back_det.data + FJ_TAPE_HEADER, false, false),
			   "%s: deterministic round trip differs", name);
		fj_buf_release(&fj_malloc_allocator, &back_det);
		fj_buf_release(&fj_malloc_allocator, &det);
	}
	else
		CHECKF(err.code == FJ_ERR_DUPLICATE_KEY, "%s: deterministic encode failed: %s", name, err.message);
	fj_buf_release(&fj_malloc_allocator, &cbor);
	fj_buf_release(&fj_malloc_allocator, &tape);
}

static void
test_corpus(void)
{
	const char *data = t_data_dir();
	char		dir[1024];
	char	  **files;
	size_t		n,
				i;
	int			docs = 0;

	static const char *const subdirs[] = {"corpus", "corpus/small", "corpus/small/jsoniter_scala"};
	size_t		s;

	if (!data)
		return;
	for (s = 0; s < sizeof(subdirs) / sizeof(subdirs[0]); s++)
	{
		snprintf(dir, sizeof(dir), "%s/%s", data, subdirs[s]);
		n = t_list_dir(dir, "", ".json", &files);
		for (i = 0; i < n; i++)
		{
			size_t		len;
			char	   *json = t_read_file(files[i], &len);

			if (json)
			{
				check_document(files[i], json, len);
				docs++;
			}
			free(json);
			free(files[i]);
		}
		free(files);
	}
	snprintf(dir, sizeof(dir), "%s/corpus", data);
	{
		char		path[1100];
		size_t		len;
		char	   *nd,
				   *line;

		snprintf(path, sizeof(path), "%s/amazon_cellphones.ndjson", dir);
		nd = t_read_file(path, &len);
		for (line = nd; nd && line < nd + len;)
		{
			char	   *eol = memchr(line, '\n', (size_t) (nd + len - line));
			size_t		l = eol ? (size_t) (eol - line) : (size_t) (nd + len - line);

			if (l > 0)
			{
				check_document("amazon_cellphones.ndjson line", line, l);
				docs++;
			}
			line += l + 1;
		}
		free(nd);
	}
	printf("corpus: %d documents round-tripped\n", docs);
}

/* ---------------------------------------- the reference implementation */

/*
 * The current encoder and decoder against the implementation before the
 * fast paths (test/cbor_ref/), byte for byte: the same CBOR for every tape
 * (in order and deterministic), the same tape for every CBOR input (or the
 * same error: code, reason and offset). Over the corpus, generated numbers of
 * every kind and random CBOR.
 */

static long oracle_mismatches;

/* Both encoders on the tape value v: the same outcome and the same bytes. */
static bool
same_encode(const char *what, const uint8_t *v, bool deterministic)
{
	fj_cbor_encode_options opt = {0};
	fj_buf		a = {0},
				b = {0};
	fj_error	ea,
				eb;
	fj_code		ra,
				rb;
	bool		same;

	opt.deterministic = deterministic;
	ra = fj_cbor_encode(v, &opt, &a, &ea);
	rb = fj_ref_cbor_encode(v, &opt, &b, &eb);
	if (ra != FJ_OK || rb != FJ_OK)
		same = ra == rb && ea.reason == eb.reason && ea.offset == eb.offset;
	else
		same = a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
	if (!same && oracle_mismatches++ < 10)
	{
		size_t		i = 0;

		while (ra == FJ_OK && rb == FJ_OK && i < a.len && i < b.len && a.data[i] == b.data[i])
			i++;
		CHECKF(0, "%s: encode%s differs from the reference: rc %d/%d, %zu/%zu bytes, first difference at %zu",
			   what, deterministic ? " (deterministic)" : "", (int) ra, (int) rb, a.len, b.len, i);
	}
	fj_buf_release(&fj_malloc_allocator, &a);
	fj_buf_release(&fj_malloc_allocator, &b);
	return same;
}

/*
 * Two decoded tapes that differ only because the current decoder writes
 * long repeated string values as string references, as the parser does, and
 * the reference never does: the same JSON text, and the current one has
 * references.
 */
static bool
same_text_with_refs(const uint8_t *ours, const uint8_t *theirs)
{
	fj_buf		a = {0},
				b = {0};
	bool		same;

	same = fj_write_json(ours + FJ_TAPE_HEADER, &fj_malloc_allocator, &a) == FJ_OK &&
		fj_write_json(theirs + FJ_TAPE_HEADER, &fj_malloc_allocator, &b) == FJ_OK &&
		a.len == b.len && memcmp(a.data, b.data, a.len) == 0 &&
		memchr(ours, FJ_STRING_REF, fj_value_size(ours + FJ_TAPE_HEADER) + FJ_TAPE_HEADER) != NULL;
	fj_buf_release(&fj_malloc_allocator, &a);
	fj_buf_release(&fj_malloc_allocator, &b);
	return same;
}

/* How deeply arrays and objects nest in the tape value at v (0 for a scalar). */
static unsigned
tape_depth(const uint8_t *v)
{
	const uint8_t *p,
			   *end;
	unsigned	deepest = 0;

	if (!fj_is_container(v))
		return 0;
	for (p = fj_container_members(v), end = fj_container_members_end(v); p < end; p += fj_value_size(p))
	{
		unsigned	d;

		if (FJ_TYPE(v[0]) == FJ_OBJECT)
			p += fj_value_size(p);	/* the key */
		d = tape_depth(p);
		if (d > deepest)
			deepest = d;
	}
	return deepest + 1;
}

/*
 * Two decoders' results on the same bytes agree: the same error at the same
 * offset, or the same tape (or the same text, with string references placed
 * differently) after prefix bytes.
 */
static bool
results_agree(fj_code ra, const fj_error *ea, const fj_buf *a, fj_code rb, const fj_error *eb, const fj_buf *b,
			  size_t prefix)
{
	if (ra != FJ_OK || rb != FJ_OK)
		return ra == rb && ea->reason == eb->reason && ea->offset == eb->offset;
	return (a->len == b->len && memcmp(a->data + prefix, b->data + prefix, a->len - prefix) == 0) ||
		same_text_with_refs(a->data + prefix, b->data + prefix);
}

/*
 * A size limit decides against one decoder's result (ours ra, ea, a; the
 * reference's with it). The limit is checked when the tape grows, and the
 * reference reserves the widest header for every container where the
 * current decoder reserves what the last one like it needed, so they may
 * reach it at different items. Without the limit both must agree, and the
 * current decoder's result with it must be consistent with that: a tape
 * within the limit and the same as without it, a failure as too big, or the
 * same failure as without the limit (an error in the input before the tape
 * grew past the limit).
 */
static bool
size_limit_agrees(const uint8_t *cbor, size_t n, const fj_cbor_decode_options *opt,
				  fj_code ra, const fj_error *ea, const fj_buf *a)
{
	fj_cbor_decode_options unlimited = *opt;
	fj_buf		u = {0},
				r = {0};
	fj_error	eu,
				er;
	fj_code		ru,
				rr;
	bool		same;

	unlimited.max_size = 0;
	ru = fj_cbor_decode(cbor, n, &unlimited, &u, &eu);
	rr = fj_ref_cbor_decode(cbor, n, &unlimited, &r, &er);
	same = results_agree(ru, &eu, &u, rr, &er, &r, opt->prefix);
	if (same)
	{
		if (ra == FJ_OK)
			same = ru == FJ_OK && a->len <= opt->max_size && a->len == u.len &&
				memcmp(a->data + opt->prefix, u.data + opt->prefix, a->len - opt->prefix) == 0;
		else if (ea->reason != FJ_R_TOO_BIG)
			same = ru != FJ_OK && eu.reason == ea->reason && eu.offset == ea->offset;
		else if (ru == FJ_OK)
		{
			/*
			 * "Too big" for a tape that fits: only by what is reserved and
			 * not yet final, one item's room and each open container's
			 * header guess (at most a front key index of 64 fingerprints,
			 * 69 bytes, a level)
			 */
			same = u.len + 64 + 69 * (size_t) tape_depth(u.data + opt->prefix + FJ_TAPE_HEADER) > opt->max_size;
		}
	}
	fj_buf_release(&fj_malloc_allocator, &u);
	fj_buf_release(&fj_malloc_allocator, &r);
	return same;
}

/* Both decoders on the same bytes: the same tape, or the same error. */
static bool
same_decode(const char *what, const uint8_t *cbor, size_t n, const fj_cbor_decode_options *opt)
{
	fj_buf		a = {0},
				b = {0};
	fj_error	ea,
				eb;
	fj_code		ra = fj_cbor_decode(cbor, n, opt, &a, &ea),
				rb = fj_ref_cbor_decode(cbor, n, opt, &b, &eb);
	bool		same;

	/* the prefix bytes are left uninitialised */
	if ((ra != FJ_OK || rb != FJ_OK) && opt->max_size &&
		((ra != FJ_OK && ea.reason == FJ_R_TOO_BIG) || (rb != FJ_OK && eb.reason == FJ_R_TOO_BIG)))
		same = size_limit_agrees(cbor, n, opt, ra, &ea, &a);
	else
		same = results_agree(ra, &ea, &a, rb, &eb, &b, opt->prefix);
	if (!same && oracle_mismatches++ < 10)
	{
		char		hex[2 * 64 + 1];

		tohex(cbor, n < 64 ? n : 64, hex);
		CHECKF(0, "%s: decode differs from the reference: rc %d/%d, reason %d/%d, offset %zu/%zu, "
			   "tape %zu/%zu bytes; input (%zu bytes) %s%s", what, (int) ra, (int) rb,
			   ra ? (int) ea.reason : 0, rb ? (int) eb.reason : 0, ra ? ea.offset : 0, rb ? eb.offset : 0,
			   a.len, b.len, n, hex, n > 64 ? "..." : "");
	}
	fj_buf_release(&fj_malloc_allocator, &a);
	fj_buf_release(&fj_malloc_allocator, &b);
	return same;
}

/* A JSON document: both encoders agree, and both decoders agree on that CBOR. */
static bool
same_document(const char *what, const char *json, size_t len)
{
	fj_buf		tape,
				cbor;
	fj_error	err;
	fj_cbor_decode_options dopt = {0};
	bool		ok;

	if (fj_parse(json, len, NULL, &tape, &err) != FJ_OK)
		return true;
	ok = same_encode(what, tape.data + FJ_TAPE_HEADER, false);
	ok &= same_encode(what, tape.data + FJ_TAPE_HEADER, true);
	if (fj_ref_cbor_encode(tape.data + FJ_TAPE_HEADER, NULL, &cbor, &err) == FJ_OK)
	{
		ok &= same_decode(what, cbor.data, cbor.len, &dopt);
		fj_buf_release(&fj_malloc_allocator, &cbor);
	}
	fj_buf_release(&fj_malloc_allocator, &tape);
	return ok;
}

/* Append a random decimal digit string of n digits, the first nonzero if lead. */
static void
put_digits(t_buf *b, int n, bool lead)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		char		c = (char) ('0' + rng() % 10);

		if (i == 0 && lead && c == '0')
			c = '1';
		t_put(b, &c, 1);
	}
}

/* Append the exact decimal value of long double x with ndig significant digits, %.*Le style. */
static void
put_long_double(t_buf *b, long double x, int ndig)
{
	char		tmp[128];
	int			n = snprintf(tmp, sizeof(tmp), "%.*Le", ndig - 1, x);

	t_put(b, tmp, (size_t) n);
}

/* One random number spelling of kind k (see test_oracle_numbers). */
static void
put_random_number(t_buf *b, int k)
{
	char		tmp[128];
	int			n;
	uint64_t	bits;
	double		d;

	if (rng() % 4 == 0)
		t_put(b, "-", 1);
	switch (k)
	{
		case 0:					/* a random double, printed with 1 to 17 digits */
		case 1:
			bits = rng() & 0x7fffffffffffffffULL;
			memcpy(&d, &bits, 8);
			if (!isfinite(d))
				d = 1.5;
			n = snprintf(tmp, sizeof(tmp), rng() % 2 ? "%.*g" : "%.*e", 1 + (int) (rng() % 17), d);
			t_put(b, tmp, (size_t) n);
			break;
		case 2:					/* its shortest text, plain or in exponent form, maybe zero-padded */
			bits = rng() & 0x7fffffffffffffffULL;
			if (rng() % 2)
				bits = (bits & 0x000fffffffffffffULL) | (uint64_t) (1023 - 30 + rng() % 60) << 52;
			memcpy(&d, &bits, 8);
			if (!isfinite(d))
				d = 0.25;
			n = (int) fj_ref_double_shortest(d, tmp);
			t_put(b, tmp, (size_t) n);
			if (rng() % 4 == 0 && !memchr(tmp, 'e', (size_t) n))
				t_put(b, "000", 1 + rng() % 3);
			break;
		case 3:					/* a mantissa of 1 to 25 digits with a point somewhere */
			{
				int			digits = 1 + (int) (rng() % 25),
							point = (int) (rng() % (unsigned) (digits + 1));

				if (point == 0)
				{
					t_put(b, "0.", 2);
					if (rng() % 2)
						t_put(b, "0000000", 1 + rng() % 7);
					put_digits(b, digits, false);
				}
				else
				{
					put_digits(b, point, true);
					t_put(b, ".", 1);
					put_digits(b, digits - point + 1, false);
				}
				if (rng() % 2)
				{
					n = snprintf(tmp, sizeof(tmp), "%s%d", rng() % 2 ? "e" : "E", (int) (rng() % 60) - 30);
					t_put(b, tmp, (size_t) n);
				}
				break;
			}
		case 4:					/* exponents near the limits: huge, tiny, subnormal */
			{
				static const int edges[] = {308, 309, 307, -307, -308, -309, -310, -320, -323, -324, -325, -330, 290, -290};
				int			e = edges[rng() % (sizeof(edges) / sizeof(edges[0]))] + (int) (rng() % 5) - 2;

				put_digits(b, 1, true);
				if (rng() % 3)
				{
					t_put(b, ".", 1);
					put_digits(b, 1 + (int) (rng() % 18), false);
				}
				n = snprintf(tmp, sizeof(tmp), "e%s%d", e >= 0 && rng() % 2 ? "+" : "", e);
				t_put(b, tmp, (size_t) n);
				break;
			}
		case 5:					/* near a halfway point between two doubles */
			{
				long double mid;
				int			ndig = 15 + (int) (rng() % 26);

				bits = rng() & 0x7fefffffffffffffULL;
				if (rng() % 2)
					bits = (bits & 0x000fffffffffffffULL) | (uint64_t) (1023 - 60 + rng() % 120) << 52;
				memcpy(&d, &bits, 8);
				mid = ((long double) d + (long double) nextafter(d, INFINITY)) / 2;
				if (rng() % 3 == 0)
					mid = nextafterl(mid, rng() % 2 ? 0 : INFINITY);
				put_long_double(b, mid, ndig);
				break;
			}
		case 6:					/* exact in binary16 */
			{
				uint16_t	h = (uint16_t) (rng() & 0x7bff);
				int			e = (h >> 10) & 31,
							m = h & 1023;

				d = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
				n = rng() % 2 ? (int) fj_ref_double_shortest(d, tmp) : snprintf(tmp, sizeof(tmp), "%.*g", 1 + (int) (rng() % 20), d);
				t_put(b, tmp, (size_t) n);
				break;
			}
		case 7:					/* exact in binary32 */
			{
				uint32_t	fb = (uint32_t) rng() & 0x7f7fffffu;
				float		f;

				memcpy(&f, &fb, 4);
				n = rng() % 2 ? snprintf(tmp, sizeof(tmp), "%.9g", (double) f) :
					(int) fj_ref_double_shortest((double) f, tmp);
				t_put(b, tmp, (size_t) n);
				break;
			}
		case 8:					/* integers, zeros and integral non-integers */
			{
				static const char *const fixed[] = {"0", "-0", "0.0", "0e0", "0e400", "0.000e-400", "1e2",
					"1.0", "100.0", "18446744073709551615", "18446744073709551616", "9223372036854775808",
				"9223372036854775807", "123456789012345678901234567890", "1E400", "1e-400", "65504.0", "65505",
				"5.960464477539063e-08", "3.4028234663852886e+38", "1.7976931348623157e308", "2.2250738585072014e-308",
				"4.9e-324", "5e-324", "2.4703282292062328e-324", "1e9223372036854775807", "1e-9223372036854775808",
				"0.30000000000000004", "0.1", "0.10000000000000001", "9007199254740993.0", "9007199254740992.0"};

				if (rng() % 2)
				{
					const char *f = fixed[rng() % (sizeof(fixed) / sizeof(fixed[0]))];

					t_put(b, f, strlen(f));
				}
				else
				{
					put_digits(b, 1 + (int) (rng() % 30), true);
					if (rng() % 3 == 0)
						t_put(b, ".0", 2);
				}
				break;
			}
		case 9:					/* plain texts of 15 to 17 digits near a double, the last one nudged */
			{
				int			digits = 15 + (int) (rng() % 3),
							e = (int) (rng() % 40) - 25,
							last;

				bits = (rng() & 0x000fffffffffffffULL) | (uint64_t) (1023 + e) << 52;
				memcpy(&d, &bits, 8);
				/* %.*f with as many fraction digits as reach the wanted significant ones */
				n = snprintf(tmp, sizeof(tmp), "%.*f", digits - 1 - (int) floor(log10(d)) > 0 ? digits - 1 - (int) floor(log10(d)) : 1, d);
				last = n - 1;
				if (rng() % 2)
				{
					char		c = tmp[last];

					tmp[last] = c == '9' ? '8' : c == '0' ? '1' : (char) (c + (rng() % 2 ? 1 : -1));
				}
				t_put(b, tmp, (size_t) n);
				break;
			}
		default:				/* 16 and 17 digits around every magnitude */
			{
				int			digits = 16 + (int) (rng() % 2),
							e = (int) (rng() % 660) - 340;

				put_digits(b, 1, true);
				t_put(b, ".", 1);
				put_digits(b, digits - 1, false);
				n = snprintf(tmp, sizeof(tmp), "e%d", e);
				t_put(b, tmp, (size_t) n);
				break;
			}
	}
}

/*
 * Generated numbers, in arrays of 1,000: the same CBOR from both encoders,
 * and the same tape from both decoders of it (which also exercises the
 * decoding of every float width). FJ_CBOR_NUMBERS sets how many.
 */
static void
test_oracle_numbers(void)
{
	const char *env = getenv("FJ_CBOR_NUMBERS");
	long		total = env ? atol(env) : 2000000,
				done = 0,
				docs = 0;
	t_buf		b = {0};

#if defined(__SANITIZE_ADDRESS__)
	if (!env)
		total = 200000;
#endif
	while (done < total)
	{
		int			i;
		char		what[64];

		b.len = 0;
		t_put(&b, "[", 1);
		for (i = 0; i < 1000 && done < total; i++, done++)
		{
			if (i)
				t_put(&b, ",", 1);
			put_random_number(&b, (int) (rng() % 11));
		}
		t_put(&b, "]", 1);
		snprintf(what, sizeof(what), "numbers %ld-%ld", done - i, done - 1);
		if (!same_document(what, b.s, b.len))
		{
			/* name the first number that differs */
			char	   *p = b.s + 1;

			while (*p && *p != ']')
			{
				size_t		n = strcspn(p, ",]");

				if (!same_document("number", p, n))
				{
					CHECKF(0, "the first number that differs: %.*s", (int) n, p);
					break;
				}
				p += n + (p[n] == ',');
			}
		}
		docs++;
	}
	free(b.s);
	printf("oracle: %ld generated numbers in %ld documents, CBOR and tapes as the reference's\n", done, docs);
}

/* A random CBOR data item into b (well formed or nearly: the decoder's input space). */
static void
put_random_cbor(t_buf *b, int depth)
{
	static const char *const atoms[] = {
		"00", "17", "1818", "18ff", "190100", "19ffff", "1a00010000", "1affffffff", "1b0000000100000000",
		"1b7fffffffffffffff", "1b8000000000000000", "1bffffffffffffffff", "20", "37", "3818", "3bffffffffffffffff",
		"3b7fffffffffffffff", "3b8000000000000000", "f4", "f5", "f6", "f7", "f0", "f820", "f8ff", "f818", "e0",
		"f90000", "f98000", "f93c00", "f97bff", "f90001", "f903ff", "f90400", "f97c00", "f9fc00", "f97e00",
		"fa47c35000", "fa7f7fffff", "fa00000001", "fa7f800000", "fa7fc00000", "fb3ff199999999999a",
		"fb0000000000000001", "fb7fefffffffffffff", "fb7ff8000000000000", "fbc010666666666666",
		"40", "4401020304", "60", "6161", "62c328", "63e282ac", "64f0908c80", "62eda080", "5f42010243030405ff",
		"7f657374726561646d696e67ff", "5fff", "7fff", "7f4100ff", "5f6100ff", "c249010000000000000000",
		"c349010000000000000000", "c240", "c34100", "c48221196ab3", "c482201b7fffffffffffffff",
		"c4823bffffffffffffffffc249010000000000000000", "c4820a3bffffffffffffffff", "c48201c240", "c483010203",
		"c49f0102ff", "c4820102", "c5822003", "d74401020304", "d64401020304", "d54401020304", "c074", "c11a514b67b0",
		"d818456449455446", "c6c7c8c901", "1c", "3d", "5e", "7e", "9e", "be", "dc", "fc", "fd", "fe", "ff",
		"1f", "3f", "df", "f8", "19", "1a0000", "7b0000000000000010"};
	uint64_t	r = rng() % 16;
	char		tmp[64];
	uint8_t		bytes[128];

	if (depth > 6 || r < 6)
	{
		const char *a = atoms[rng() % (sizeof(atoms) / sizeof(atoms[0]))];
		size_t		n = unhex(a, bytes);

		t_put(b, (const char *) bytes, n);
		return;
	}
	if (r < 8)
	{
		/* a text or byte string of a random length and content */
		size_t		n = rng() % 40,
					i;
		uint8_t		major = rng() % 3 ? 0x60 : 0x40;

		if (n < 24)
			tmp[0] = (char) (major | n);
		else
		{
			tmp[0] = (char) (major | 24);
			tmp[1] = (char) n;
		}
		t_put(b, tmp, n < 24 ? 1 : 2);
		for (i = 0; i < n; i++)
		{
			char		c = (char) (rng() % 8 ? (uint64_t) 'a' + rng() % 26 : rng());

			t_put(b, &c, 1);
		}
		return;
	}
	if (r < 14)
	{
		/* an array or map, definite or not */
		bool		map = r >= 11,
					indefinite = rng() % 4 == 0;
		size_t		n = rng() % 6,
					i;

		if (rng() % 8 == 0)
		{
			/* a tag in front */
			static const char *const tags[] = {"c2", "c3", "c4", "d5", "d6", "d7", "c0", "d820", "d9d9f7"};
			const char *t = tags[rng() % (sizeof(tags) / sizeof(tags[0]))];
			size_t		tn = unhex(t, bytes);

			t_put(b, (const char *) bytes, tn);
		}
		tmp[0] = (char) ((map ? 0xa0 : 0x80) | (indefinite ? 31 : (int) n));
		t_put(b, tmp, 1);
		for (i = 0; i < n * (map ? 2 : 1); i++)
			put_random_cbor(b, depth + 1);
		if (indefinite)
			t_put(b, "\xff", 1);
		return;
	}
	/* a tag and its content */
	{
		static const char *const tags[] = {"c2", "c3", "c4", "d5", "d6", "d7", "c1", "d818", "d9d9f7", "c6"};
		const char *t = tags[rng() % (sizeof(tags) / sizeof(tags[0]))];
		size_t		tn = unhex(t, bytes);

		t_put(b, (const char *) bytes, tn);
		put_random_cbor(b, depth + 1);
	}
}

/*
 * Containers whose header guess is wrong either way: an object of more
 * than FJ_KEY_INDEX_MIN members leads with a front key index, so the next
 * container at its depth and position reserves that much (up to 69 bytes)
 * and may need 1 or 3; a small one leaves a guess of 3 that the next, larger
 * one outgrows. Arrays of records, records as map values, nested, mixed
 * with arrays, some with long repeated strings (references move with the
 * members): each must decode, to the reference's tape and the parser's.
 */
static void
test_header_guesses(void)
{
	static const int sizes[][6] = {
		{15, 0}, {20, 1}, {9, 8}, {8, 9}, {64, 2}, {65, 3}, {70, 0, 70}, {30, 30, 1, 70, 2, 0},
		{1, 200, 1}, {12, 12, 12}, {0, 40, 0, 5}
	};
	int			shape,
				s,
				docs = 0;

	for (shape = 0; shape < 4; shape++)
		for (s = 0; s < (int) (sizeof(sizes) / sizeof(sizes[0])); s++)
		{
			t_buf		b = {0};
			fj_buf		tape = {0},
						cbor = {0},
						back = {0};
			fj_error	err;
			int			r,
						k;

			t_put(&b, shape == 3 ? "{\"log\":[" : "[", shape == 3 ? 8 : 1);
			for (r = 0; r < 6 && (r == 0 || sizes[s][r] != 0 || r < 2); r++)
			{
				int			n = sizes[s][r];

				if (r)
					t_put(&b, ",", 1);
				if (shape >= 1)
					t_put(&b, "{\"rec\":", 7);
				t_put(&b, "{", 1);
				for (k = 0; k < n; k++)
				{
					t_printf(&b, "%s\"key%d\":", k ? "," : "", k);
					if (shape == 2 && k % 5 == 0)
						t_printf(&b, "[%d,{\"in\":%d}]", k, k);
					else if (k % 7 == 3)
						t_printf(&b, "\"%s-%d\"", "a repeated string long enough to become a reference", r % 2);
					else
						t_printf(&b, "%d", k * r);
				}
				t_put(&b, "}", 1);
				if (shape >= 1)
					t_put(&b, ",\"n\":[]}", 8);
			}
			t_put(&b, shape == 3 ? "]}" : "]", shape == 3 ? 2 : 1);
			CHECKF(fj_parse(b.s, b.len, NULL, &tape, &err) == FJ_OK, "header guesses: %s: %s", b.s, err.message);
			if (tape.data && fj_cbor_encode(tape.data + FJ_TAPE_HEADER, NULL, &cbor, &err) == FJ_OK)
			{
				CHECKF(fj_cbor_decode(cbor.data, cbor.len, NULL, &back, &err) == FJ_OK &&
					   back.len == tape.len && memcmp(back.data, tape.data, tape.len) == 0,
					   "header guesses: %s does not decode to its parsed tape (%s)", b.s,
					   back.data ? "a different tape" : err.message);
				same_document("header guesses", b.s, b.len);
				docs++;
			}
			fj_buf_release(&fj_malloc_allocator, &tape);
			fj_buf_release(&fj_malloc_allocator, &cbor);
			fj_buf_release(&fj_malloc_allocator, &back);
			free(b.s);
		}
	printf("header guesses: %d documents decoded to their parsed tapes\n", docs);
}

/* An interrupt callback that says stop on its stop_at-th poll. */
typedef struct poll_count
{
	int			polls;
	int			stop_at;
} poll_count;

static int
count_polls(void *ctx)
{
	poll_count *c = ctx;

	return ++c->polls == c->stop_at;
}

/*
 * A document of more than polls x 65,536 items decoded with an interrupt
 * callback that stops at its k-th poll, for k from 0 (never) to polls + 1
 * (past the last): it is polled k times, or polls times when k is not
 * reached, as the reference is, and is interrupted at the reference's
 * offset, or gives the reference's tape.
 */
static void
check_poll_stops(const char *what, const uint8_t *cbor, size_t n, int polls)
{
	int			k;

	for (k = 0; k <= polls + 1; k++)
	{
		fj_cbor_decode_options opt = {0};
		poll_count	ours = {0, k},
					theirs = {0, k};
		fj_buf		a = {0},
					r = {0};
		fj_error	ea,
					er;
		fj_code		ra,
					rr;
		bool		stops = k >= 1 && k <= polls;

		opt.interrupted = count_polls;
		opt.interrupt_ctx = &ours;
		ra = fj_cbor_decode(cbor, n, &opt, &a, &ea);
		opt.interrupt_ctx = &theirs;
		rr = fj_ref_cbor_decode(cbor, n, &opt, &r, &er);
		CHECKF(ours.polls == (stops ? k : polls) && theirs.polls == ours.polls,
			   "%s, stop at poll %d: %d polls, the reference %d", what, k, ours.polls, theirs.polls);
		CHECKF(ra == (stops ? FJ_ERR_INTERRUPTED : FJ_OK) && ra == rr &&
			   (ra != FJ_OK ? ea.offset == er.offset :
				a.len == r.len && memcmp(a.data, r.data, a.len) == 0),
			   "%s, stop at poll %d: rc %d, the reference %d", what, k, (int) ra, (int) rr);
		fj_buf_release(&fj_malloc_allocator, &a);
		fj_buf_release(&fj_malloc_allocator, &r);
	}
}

/*
 * Arrays of 64-bit floats, which the decoder takes in runs (number_run):
 * the reference's tape or error for runs of every length up to 300, with
 * doubles of every kind (random bits: NaN, infinities, subnormals), other
 * items among them, indefinite arrays, truncations and size limits; and a
 * run of 200,000 across the interrupt polls.
 */
static void
test_oracle_double_runs(void)
{
	t_buf		b = {0};
	long		i;
	unsigned	k;

	for (i = 0; i < 20000; i++)
	{
		fj_cbor_decode_options opt = {0};
		uint64_t	m = rng();
		unsigned	n = (unsigned) (m % 301);
		bool		indefinite = (m >> 10) % 4 == 0;
		char		head[9];

		b.len = 0;
		if ((m >> 12) % 2)
			t_put(&b, "\x82\x01", 2);		/* inside another array */
		if (indefinite)
			t_put(&b, "\x9f", 1);
		else
		{
			head[0] = (char) 0x99;
			head[1] = (char) (n >> 8);
			head[2] = (char) n;
			t_put(&b, head, 3);
		}
		for (k = 0; k < n; k++)
		{
			uint64_t	r = rng(),
						bits = (r >> 3) % 4 == 0 ? rng() : 0;
			double		v;

			if (r % 64 == 0)
			{
				put_random_cbor(&b, 1);	/* something else */
				continue;
			}
			if (!bits)
			{
				/* a double with a short shortest text, as JSON numbers have */
				v = (double) (int64_t) (rng() % 2000000001) / fj_pow10_double[1 + rng() % 12];
				memcpy(&bits, &v, 8);
			}
			head[0] = (char) 0xfb;
			bits = __builtin_bswap64(bits);
			memcpy(head + 1, &bits, 8);
			t_put(&b, head, 9);
		}
		if (indefinite)
			t_put(&b, "\xff", 1);
		if ((m >> 12) % 2)
			t_put(&b, "\x02", 1);
		if ((m >> 14) % 8 == 0 && b.len > 1)
			b.len = rng() % b.len;	/* a truncation */
		opt.substitute_null = (m >> 17) & 1;
		if ((m >> 18) % 4 == 0)
		{
			opt.prefix = 4;
			opt.max_size = 64 + (size_t) (rng() % 4096);
		}
		same_decode("array of doubles", (const uint8_t *) b.s, b.len, &opt);
	}

	/* 200,000 doubles: the polls fall inside the run, and a stop is an interruption */
	b.len = 0;
	t_put(&b, "\x9a\x00\x03\x0d\x40", 5);
	for (i = 0; i < 200000; i++)
	{
		double		v = (double) i / 1000;
		uint64_t	bits;
		char		item[9];

		memcpy(&bits, &v, 8);
		bits = __builtin_bswap64(bits);
		item[0] = (char) 0xfb;
		memcpy(item + 1, &bits, 8);
		t_put(&b, item, 9);
	}
	/* 200,001 items: polls at the 65,536th, the 131,072nd and the 196,608th */
	check_poll_stops("200,000 doubles", (const uint8_t *) b.s, b.len, 3);
	free(b.s);
}

/* A CBOR head of major type mt (0 to 7 shifted) with argument v in its shortest form. */
static void
put_head(t_buf *b, uint8_t mt, uint64_t v)
{
	char		h[9];
	int			n,
				i;

	if (v < 24)
	{
		h[0] = (char) (mt | v);
		n = 0;
	}
	else
	{
		n = v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffffULL ? 4 : 8;
		h[0] = (char) (mt | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27));
	}
	for (i = 0; i < n; i++)
		h[1 + i] = (char) (v >> (8 * (n - 1 - i)));
	t_put(b, h, (size_t) n + 1);
}

/*
 * One member of an array of numbers, of the kinds number_run takes and now
 * and then one it leaves to the handlers: doubles (short, 17 digits, random
 * bits), integers of every head size and sign, decimal fractions in the
 * 12-byte shape read_decimal reads directly (a mantissa of 8 bytes, -2^64
 * among them) and in other shapes, or any item.
 */
static void
put_run_member(t_buf *b)
{
	uint64_t	r = rng(),
				bits;
	double		v;
	char		item[9];

	switch (r % 9)
	{
		case 0:
		case 1:
			v = (double) (int64_t) (rng() % 2000000001) / fj_pow10_double[1 + rng() % 12];
			memcpy(&bits, &v, 8);
			break;
		case 2:
			v = ((double) (rng() >> 11) / 9007199254740992.0 - 0.5) * 360;
			memcpy(&bits, &v, 8);
			break;
		case 3:
			bits = rng();
			break;
		case 4:
			put_head(b, (r >> 8) & 1 ? 0x20 : 0x00, rng() >> (rng() % 64));
			return;
		case 5:
		case 6:
			/* 4([e, m]): e from -24 to 23 in its head, m of 8 bytes */
			t_put(b, "\xc4\x82", 2);
			put_head(b, (r >> 8) & 1 ? 0x20 : 0x00, (r >> 9) % 24);
			bits = (r >> 20) % 16 == 0 ? UINT64_MAX : rng() | (1ULL << 63);
			item[0] = (char) ((r >> 14) & 1 ? 0x3b : 0x1b);
			bits = __builtin_bswap64(bits);
			memcpy(item + 1, &bits, 8);
			t_put(b, item, 9);
			return;
		case 7:
			/* other shapes: a longer exponent, a shorter mantissa, or not integers */
			t_put(b, "\xc4\x82", 2);
			if ((r >> 8) % 8 == 0)
				put_random_cbor(b, 1);
			else
				put_head(b, (r >> 11) & 1 ? 0x20 : 0x00, rng() >> (rng() % 64));
			if ((r >> 12) % 8 == 0)
				put_random_cbor(b, 1);
			else
				put_head(b, (r >> 15) & 1 ? 0x20 : 0x00, rng() >> (rng() % 64));
			return;
		default:
			put_random_cbor(b, 1);
			return;
	}
	item[0] = (char) 0xfb;
	bits = __builtin_bswap64(bits);
	memcpy(item + 1, &bits, 8);
	t_put(b, item, 9);
}

/*
 * Arrays of numbers as the decoder takes them in runs (number_run,
 * array_head_run): rings of small arrays of numbers (1 to 23 members,
 * heads 81 to 97), definite or not, with maps and strings among them, in a
 * map or an array, and a map after them; against the reference's tape or
 * error, with depth limits, size limits, substitution and truncations. Then
 * a ring of 70,000 pairs of an integer and a decimal fraction (350,001
 * items) across the interrupt polls, stopped at each.
 */
static void
test_oracle_number_runs(void)
{
	t_buf		b = {0};
	long		i;
	unsigned	k,
				j;

	for (i = 0; i < 20000; i++)
	{
		fj_cbor_decode_options opt = {0};
		uint64_t	m = rng();
		unsigned	rings = 1 + (unsigned) (m % 3),
					r;

		b.len = 0;
		if ((m >> 2) % 2)
			t_put(&b, "\xa1\x61k", 3);	/* the value of a map's key */
		put_head(&b, 0x80, rings + 1);
		for (r = 0; r < rings; r++)
		{
			unsigned	n = (unsigned) (rng() % 40);
			bool		indefinite = rng() % 4 == 0;

			if (indefinite)
				t_put(&b, "\x9f", 1);
			else
				put_head(&b, 0x80, n);
			for (k = 0; k < n; k++)
			{
				uint64_t	t = rng();
				unsigned	members = 1 + (unsigned) (t % 23);

				if (t % 32 == 0)
				{
					put_random_cbor(&b, 2);	/* not an array of numbers */
					continue;
				}
				put_head(&b, 0x80, t % 16 == 1 ? 2 : members);
				for (j = 0; j < (t % 16 == 1 ? 2 : members); j++)
					put_run_member(&b);
			}
			if (indefinite)
				t_put(&b, "\xff", 1);
		}
		t_put(&b, "\xa1\x61k\x82\x01\x02", 6);	/* a map after the rings */
		if ((m >> 8) % 8 == 0 && b.len > 1)
			b.len = rng() % b.len;	/* a truncation */
		opt.substitute_null = (m >> 11) & 1;
		opt.max_depth = (m >> 12) % 4 == 0 ? 1 + (uint32_t) ((m >> 14) % 4) : 0;
		if ((m >> 16) % 4 == 0)
		{
			opt.prefix = 4;
			opt.max_size = 64 + (size_t) (rng() % 8192);
		}
		same_decode("rings of arrays of numbers", (const uint8_t *) b.s, b.len, &opt);
	}

	/* 70,000 pairs [integer, decimal fraction]: polls at array heads and inside runs */
	b.len = 0;
	t_put(&b, "\x9a\x00\x01\x11\x70", 5);
	for (i = 0; i < 70000; i++)
	{
		t_put(&b, "\x82", 1);
		put_head(&b, i % 2 ? 0x20 : 0x00, (uint64_t) i * 7919);
		t_put(&b, "\xc4\x82\x2e", 3);
		put_head(&b, 0x00, 12345678901234567ULL + (uint64_t) i);
	}
	/* 350,001 items: polls at each multiple of 65,536, five of them */
	check_poll_stops("70,000 pairs", (const uint8_t *) b.s, b.len, 5);
	free(b.s);
}

/* Random and mutated CBOR: both decoders give the same tape or the same error. */
static void
test_oracle_cbor(void)
{
	long		i,
				rounds = 400000;
	t_buf		b = {0};

#if defined(__SANITIZE_ADDRESS__)
	rounds = 100000;
#endif
	for (i = 0; i < rounds; i++)
	{
		fj_cbor_decode_options opt = {0};
		uint64_t	m = rng();

		b.len = 0;
		put_random_cbor(&b, 0);
		if (m % 4 == 0 && b.len > 0)
			b.s[rng() % b.len] = (char) rng();	/* a mutation */
		else if (m % 4 == 1 && b.len > 1)
			b.len = rng() % b.len;	/* a truncation */
		else if (m % 16 == 2)
			put_random_cbor(&b, 0);	/* trailing bytes */
		opt.substitute_null = (m >> 8) & 1;
		opt.max_depth = (m >> 9) % 4 == 0 ? 1 + (uint32_t) ((m >> 12) % 4) : 0;
		same_decode("random CBOR", (const uint8_t *) b.s, b.len, &opt);
		if (b.len && (m >> 16) % 8 == 0)
		{
			/* the same item with a varlena-sized prefix and a size limit */
			opt.prefix = 4;
			opt.max_size = (m >> 20) % 2 ? 64 : 0;
			same_decode("random CBOR, prefix", (const uint8_t *) b.s, b.len, &opt);
		}
	}
	free(b.s);
	printf("oracle: %ld random CBOR items decoded as the reference does\n", rounds);
}

/*
 * fj_utf8_valid (a sequence at a time, what the decoder checks text strings
 * with) against fj_utf8_first_error (the byte-at-a-time state machine): every
 * string of up to 3 bytes, and random strings of valid and broken sequences.
 */
static void
test_utf8_valid(void)
{
	uint8_t		s[64];
	uint32_t	x;
	long		bad = 0,
				i,
				rounds = 2000000;

#if defined(__SANITIZE_ADDRESS__)
	rounds = 300000;
#endif
	for (x = 0; x < (1u << 24) && bad < 10; x++)
	{
		size_t		n = x < 256 ? 1 : x < 65536 ? 2 : 3,
					k;

		for (k = 0; k < n; k++)
			s[k] = (uint8_t) (x >> (8 * (n - 1 - k)));
		if (fj_utf8_valid(s, n) != (fj_utf8_first_error(s, n) == n))
			bad++;
	}
	for (i = 0; i < rounds && bad < 10; i++)
	{
		static const uint8_t leads[] = {0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
		0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff};
		size_t		n = 1 + rng() % 40,
					k;

		for (k = 0; k < n; k++)
		{
			uint64_t	r = rng();

			s[k] = r % 3 == 0 ? leads[(r >> 8) % sizeof(leads)] : r % 3 == 1 ? (uint8_t) (0x80 + (r >> 8) % 64) :
				(uint8_t) ('a' + (r >> 8) % 26);
		}
		if (fj_utf8_valid(s, n) != (fj_utf8_first_error(s, n) == n))
		{
			if (bad == 0)
			{
				char		hex[2 * 64 + 1];

				tohex(s, n, hex);
				CHECKF(0, "fj_utf8_valid(%s) disagrees with the state machine", hex);
			}
			bad++;
		}
	}
	CHECKF(bad == 0, "%ld UTF-8 strings where fj_utf8_valid disagrees with fj_utf8_first_error", bad);
}

/* Every corpus document: the same CBOR (both orders) and the same decoded tape. */
static void
test_oracle_corpus(void)
{
	const char *data = t_data_dir();
	char		dir[1024];
	char	  **files;
	size_t		n,
				i;
	int			docs = 0;

	if (!data)
		return;
	snprintf(dir, sizeof(dir), "%s/corpus", data);
	n = t_list_dir(dir, "", ".json", &files);
	for (i = 0; i < n; i++)
	{
		size_t		len;
		char	   *json = t_read_file(files[i], &len);

		if (json)
		{
			same_document(files[i], json, len);
			docs++;
		}
		free(json);
		free(files[i]);
	}
	free(files);
	printf("oracle: %d corpus documents, CBOR and tapes as the reference's\n", docs);
}

/* ------------------------------------------------- allocation failures */

typedef struct failing
{
	long		calls,
				fail_at,
				live;
} failing;

static void *
f_alloc(void *ctx, size_t size)
{
	failing    *f = ctx;

	if (++f->calls == f->fail_at)
		return NULL;
	f->live++;
	return malloc(size);
}

static void *
f_grow(void *ctx, void *p, size_t old_size, size_t new_size)
{
	failing    *f = ctx;

	(void) old_size;
	if (++f->calls == f->fail_at)
		return NULL;
	return realloc(p, new_size);
}

static void
f_release(void *ctx, void *p)
{
	failing    *f = ctx;

	f->live--;
	free(p);
}

static void
test_alloc_failures(void)
{
	static const char *const cbor_hex[] = {
		"a26161016162820203",
		"9f7f657374726561646d696e67ff5f42010243030405ffc48220c249010000000000000000c2490100000000000000000000ff",
		"aa616100616201616302616403616504616605616706616807616908616a09",
	};
	static const char *const docs[] = {
		"{\"z\":{\"y\":1,\"x\":2},\"a\":[{\"d\":1,\"c\":2}],\"n\":[123456789012345678901234567890,1.5e-400,0.10000000000000001]}",
	};
	size_t		i;

	for (i = 0; i < sizeof(cbor_hex) / sizeof(cbor_hex[0]); i++)
	{
		uint8_t		buf[512];
		size_t		n = unhex(cbor_hex[i], buf);
		long		k,
					total;
		failing		f = {0};
		fj_allocator a = {f_alloc, f_grow, f_release, &f};
		fj_cbor_decode_options opt = {0};
		fj_buf		tape;
		fj_error	err;

		opt.alloc = &a;
		CHECK(fj_cbor_decode(buf, n, &opt, &tape, &err) == FJ_OK);
		fj_buf_release(&a, &tape);
		total = f.calls;
		CHECK(f.live == 0);
		for (k = 1; k <= total; k++)
		{
			f.calls = 0;
			f.fail_at = k;
			CHECKF(fj_cbor_decode(buf, n, &opt, &tape, &err) == FJ_ERR_NOMEM && f.live == 0,
				   "decode %s with allocation %ld failing: code %d, %ld live", cbor_hex[i], k, (int) err.code, f.live);
		}
	}
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
	{
		fj_buf		tape,
					cbor;
		fj_error	err;
		int			det;

		fj_parse(docs[i], strlen(docs[i]), NULL, &tape, &err);
		for (det = 0; det < 2; det++)
		{
			failing		f = {0};
			fj_allocator a = {f_alloc, f_grow, f_release, &f};
			fj_cbor_encode_options opt = {0};
			long		k,
						total;

			opt.alloc = &a;
			opt.deterministic = det;
			CHECK(fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &opt, &cbor, &err) == FJ_OK);
			fj_buf_release(&a, &cbor);
			total = f.calls;
			CHECK(f.live == 0);
			for (k = 1; k <= total; k++)
			{
				f.calls = 0;
				f.fail_at = k;
				CHECKF(fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &opt, &cbor, &err) == FJ_ERR_NOMEM && f.live == 0,
					   "encode with allocation %ld failing: code %d, %ld live", k, (int) err.code, f.live);
			}
		}
		fj_buf_release(&fj_malloc_allocator, &tape);
	}
}

/* A size limit is a clean FJ_ERR_TOO_BIG. */
static void
test_limits(void)
{
	uint8_t		buf[64];
	size_t		n = unhex("5818000000000000000000000000000000000000000000000000", buf);
	fj_cbor_decode_options opt = {0};
	fj_cbor_encode_options eopt = {0};
	fj_buf		tape,
				cbor;
	fj_error	err;

	opt.max_size = 20;
	CHECK(fj_cbor_decode(buf, n, &opt, &tape, &err) == FJ_ERR_TOO_BIG);
	opt.max_size = 64;
	CHECK(fj_cbor_decode(buf, n, &opt, &tape, &err) == FJ_OK);
	fj_buf_release(&fj_malloc_allocator, &tape);
	CHECK(fj_parse("[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]", 48, NULL, &tape, &err) == FJ_OK);
	eopt.max_size = 16;
	CHECK(fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &eopt, &cbor, &err) == FJ_ERR_TOO_BIG);
	eopt.max_size = 64;
	CHECK(fj_cbor_encode(tape.data + FJ_TAPE_HEADER, &eopt, &cbor, &err) == FJ_OK);
	fj_buf_release(&fj_malloc_allocator, &cbor);
	fj_buf_release(&fj_malloc_allocator, &tape);
}

int
main(void)
{
	test_numbers();
	test_double_conversions();
	test_shorter_threshold();
	test_is_double_decisions();
	test_is_double_quick();
	test_decode();
	test_encode();
	test_hostile();
	test_limits();
	test_alloc_failures();
	test_appendix_a();
	test_corpus();
	test_utf8_valid();
	test_oracle_corpus();
	test_oracle_numbers();
	test_oracle_cbor();
	test_oracle_double_runs();
	test_oracle_number_runs();
	test_header_guesses();
	return t_summary("test_cbor");
}
