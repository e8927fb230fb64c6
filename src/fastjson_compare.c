/*
 * fastjson_compare.c — equality, ordering and hashing with jsonb's
 * semantics: the comparison operators, the btree and hash support functions,
 * and the exact decimal reading of numbers they rest on.
 *
 * The order is jsonb's compareJsonbContainers, which walks both documents as
 * token streams and stops at the first difference. As a recursion over the
 * document with duplicate keys removed (the last one wins) that is:
 *
 *   - different types: null < string < number < boolean < array < object
 *   - scalars: strings by varstr_cmp under the database collation, numbers
 *     numerically, false < true
 *   - arrays: more elements is greater, then the elements in order
 *   - objects: more distinct keys is greater, then the pairs in jsonb's key
 *     storage order (key length, then bytes), key against key (varstr_cmp)
 *     and then value against value
 *
 * plus jsonb's quirk at the root, where a scalar is stored as a one-element
 * "raw scalar" array: against an array root it is smaller unless the counts
 * differ, and then more elements is greater ('1' > '[]', '1' < '[1]',
 * '1' < '[1,2]'); against an object root it is smaller.
 *
 * Equality needs no collation: under the database's (deterministic) default
 * collation two strings are equal exactly when their bytes are. varstr_cmp
 * only ever calls unequal bytes equal when a string holds U+0000 (strcoll
 * stops there); such ties are broken bytewise, which keeps the order total
 * and consistent with equality and the hash. jsonb cannot hold U+0000.
 *
 * The hash is over the canonical form: distinct keys in storage order,
 * numbers as (sign, digits, exponent), strings as bytes, container counts.
 */
#include "fastjson_value.h"

#include "catalog/pg_collation.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/varlena.h"

/* ------------------------------------------------------------- numbers */

/* Digits of an exponent that always fit int64 with any offset added. */
#define EXP_SMALL_DIGITS 17
/* Big exponent magnitudes with at most this many digits are stored in exp. */
#define EXP_INT64_DIGITS 18

static inline bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * mag[0..len) (no leading zeros, len > EXP_SMALL_DIGITS, so at least 10^17)
 * plus or minus delta (< 2^31): palloc'd digits without leading zeros.
 */
static char *
big_add(const char *mag, uint32 len, uint64 delta, bool subtract, uint32 *out_len)
{
	char	   *out = palloc(len + 1);
	int			carry = 0;
	int64		j;
	uint32		skip = 0;

	for (j = (int64) len - 1; j >= 0; j--)
	{
		int			d = mag[j] - '0';
		int			dd = (int) (delta % 10);

		delta /= 10;
		if (subtract)
		{
			d -= dd + carry;
			carry = d < 0;
			if (d < 0)
				d += 10;
		}
		else
		{
			d += dd + carry;
			carry = d >= 10;
			if (d >= 10)
				d -= 10;
		}
		out[j + 1] = (char) ('0' + d);
	}
	/* delta has fewer digits than mag, so nothing is left over but a carry */
	Assert(delta == 0);
	Assert(!(subtract && carry));
	out[0] = (char) ('0' + carry);
	while (skip < len && out[skip] == '0')
		skip++;
	memmove(out, out + skip, len + 1 - skip);
	*out_len = len + 1 - skip;
	return out;
}

/* The digits of magnitude m into d (right-aligned), as an integer's digits. */
static void
decimal_from_magnitude(FjDecimal *d, uint64 m, int sign)
{
	char	   *end = d->int_digits + sizeof(d->int_digits);
	char	   *p = end;
	uint32		n;

	d->sign = m ? sign : 0;
	d->big_exp = NULL;
	d->seg[1] = NULL;
	d->seg_len[1] = 0;
	if (m == 0)
	{
		d->seg[0] = NULL;
		d->seg_len[0] = 0;
		d->exp = 0;
		return;
	}
	while (m)
	{
		*--p = (char) ('0' + m % 10);
		m /= 10;
	}
	n = (uint32) (end - p);
	d->exp = n;
	while (end[-1] == '0')
		end--;
	d->seg[0] = p;
	d->seg_len[0] = (uint32) (end - p);
}

void
fj_decimal_read(const uint8_t *v, FjDecimal *d)
{
	const uint8_t *text;
	const char *s;
	uint32		n,
				i = 0,
				is,
				ie,
				fs,
				fe,
				es = 0,
				ee = 0;
	const char *a,
			   *b;
	uint32		alen,
				blen;
	int64		lead = 0,
				k;
	bool		neg = false,
				exp_neg = false;

	if (FJ_TYPE(v[0]) == FJ_UINT)
	{
		decimal_from_magnitude(d, fj_int_magnitude(v), 1);
		return;
	}
	if (FJ_TYPE(v[0]) == FJ_NINT)
	{
		/* NINT stores -1 - value: the magnitude is one more, at most 2^63 */
		decimal_from_magnitude(d, fj_int_magnitude(v) + 1, -1);
		return;
	}
	/* a PACKED number's text goes into d, which its digit segments then point into */
	n = fj_number_text(v, d->packed_text, &text);
	s = (const char *) text;
	if (i < n && s[i] == '-')
	{
		neg = true;
		i++;
	}
	is = i;
	while (i < n && is_digit(s[i]))
		i++;
	ie = fs = fe = i;
	if (i < n && s[i] == '.')
	{
		fs = ++i;
		while (i < n && is_digit(s[i]))
			i++;
		fe = i;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			exp_neg = s[i++] == '-';
		es = i;
		while (i < n && is_digit(s[i]))
			i++;
		ee = i;
	}

	/* significant digits: the integer digits a, then the fraction digits b */
	a = s + is;
	alen = ie - is;
	b = s + fs;
	blen = fe - fs;
	while (alen && a[0] == '0')
		a++, alen--, lead++;
	if (alen == 0)
		while (blen && b[0] == '0')
			b++, blen--, lead++;
	while (blen && b[blen - 1] == '0')
		blen--;
	if (blen == 0)
		while (alen && a[alen - 1] == '0')
			alen--;

	d->big_exp = NULL;
	d->seg[0] = a;
	d->seg_len[0] = alen;
	d->seg[1] = b;
	d->seg_len[1] = blen;
	if (alen == 0 && blen == 0)
	{
		d->sign = 0;
		d->exp = 0;
		return;
	}
	d->sign = neg ? -1 : 1;

	/* value = 0.DIGITS * 10^(X + k): k places the point, X is the exponent */
	k = (int64) (ie - is) - lead;
	while (es < ee && s[es] == '0')
		es++;
	if (ee - es <= EXP_SMALL_DIGITS)
	{
		int64		x = 0;

		for (i = es; i < ee; i++)
			x = x * 10 + (s[i] - '0');
		d->exp = (exp_neg ? -x : x) + k;
	}
	else
	{
		/* E = X + k with |X| >= 10^17 > |k|: the sign is X's */
		uint32		len;
		bool		subtract = exp_neg ? k >= 0 : k < 0;
		uint64		delta = k < 0 ? (uint64) -k : (uint64) k;
		char	   *mag = big_add(s + es, ee - es, delta, subtract, &len);

		if (len <= EXP_INT64_DIGITS)
		{
			int64		x = 0;

			for (i = 0; i < len; i++)
				x = x * 10 + (mag[i] - '0');
			pfree(mag);
			d->exp = exp_neg ? -x : x;
		}
		else
		{
			d->big_exp = mag;
			d->big_exp_len = len;
			d->big_exp_neg = exp_neg;
			d->exp = 0;
		}
	}
}

void
fj_decimal_free(FjDecimal *d)
{
	if (d->big_exp)
		pfree(d->big_exp);
	d->big_exp = NULL;
}

/* Order of two exponents (a big one is beyond every int64 one). */
static int
exp_cmp(const FjDecimal *a, const FjDecimal *b)
{
	int			sa,
				sb,
				c;

	if (!a->big_exp && !b->big_exp)
		return a->exp < b->exp ? -1 : a->exp > b->exp;
	if (!b->big_exp)
		return a->big_exp_neg ? -1 : 1;
	if (!a->big_exp)
		return b->big_exp_neg ? 1 : -1;
	sa = a->big_exp_neg ? -1 : 1;
	sb = b->big_exp_neg ? -1 : 1;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (a->big_exp_len != b->big_exp_len)
		c = a->big_exp_len < b->big_exp_len ? -1 : 1;
	else
		c = memcmp(a->big_exp, b->big_exp, a->big_exp_len);
	return sa * ((c > 0) - (c < 0));
}

/* Lexicographic order of two digit sequences (a proper prefix is smaller). */
static int
digits_cmp(const FjDecimal *a, const FjDecimal *b)
{
	int			sa = 0,
				sb = 0;
	uint32		oa = 0,
				ob = 0;

	for (;;)
	{
		uint32		na,
					nb,
					m;
		int			c;

		while (sa < 2 && oa == a->seg_len[sa])
			sa++, oa = 0;
		while (sb < 2 && ob == b->seg_len[sb])
			sb++, ob = 0;
		if (sa == 2 || sb == 2)
			return (sa == 2 ? 0 : 1) - (sb == 2 ? 0 : 1);
		na = a->seg_len[sa] - oa;
		nb = b->seg_len[sb] - ob;
		m = na < nb ? na : nb;
		c = memcmp(a->seg[sa] + oa, b->seg[sb] + ob, m);
		if (c)
			return c < 0 ? -1 : 1;
		oa += m;
		ob += m;
	}
}

/* Numeric order of two decimals. */
static int
decimal_cmp(const FjDecimal *a, const FjDecimal *b)
{
	int			c;

	if (a->sign != b->sign)
		return a->sign < b->sign ? -1 : 1;
	if (a->sign == 0)
		return 0;
	c = exp_cmp(a, b);
	if (c == 0)
		c = digits_cmp(a, b);
	return a->sign * c;
}

static inline bool
is_int(const uint8_t *v)
{
	return FJ_TYPE(v[0]) == FJ_UINT || FJ_TYPE(v[0]) == FJ_NINT;
}

int
fj_number_cmp(const uint8_t *a, const uint8_t *b)
{
	FjDecimal	da,
				db;
	int			c;

	if (is_int(a) && is_int(b))
	{
		int64		x = fj_int_value(a),
					y = fj_int_value(b);

		return x < y ? -1 : x > y;
	}
	if (FJ_TYPE(a[0]) == FJ_PACKED && FJ_TYPE(b[0]) == FJ_PACKED &&
		fj_value_size(a) == fj_value_size(b) && memcmp(a, b, fj_value_size(a)) == 0)
		return 0;				/* the same text */
	if (FJ_TYPE(a[0]) == FJ_NUMBER && FJ_TYPE(b[0]) == FJ_NUMBER)
	{
		const uint8_t *ta,
				   *tb;
		uint32		la = fj_text(a, &ta),
					lb = fj_text(b, &tb);

		if (la == lb && memcmp(ta, tb, la) == 0)
			return 0;
	}
	fj_decimal_read(a, &da);
	fj_decimal_read(b, &db);
	c = decimal_cmp(&da, &db);
	fj_decimal_free(&da);
	fj_decimal_free(&db);
	return c;
}

bool
fj_scalar_equal(const uint8_t *a, const uint8_t *b)
{
	const uint8_t *ta,
			   *tb;
	uint32		la,
				lb;

	switch (fj_jsonb_type(a))
	{
		case FJB_NULL:
			return true;
		case FJB_BOOL:
			return a[0] == b[0];
		case FJB_STRING:
			la = fj_text(a, &ta);
			lb = fj_text(b, &tb);
			return la == lb && memcmp(ta, tb, la) == 0;
		case FJB_NUMBER:
			return fj_number_cmp(a, b) == 0;
		default:
			elog(ERROR, "fastjson: not a scalar");
			return false;
	}
}

/* ------------------------------------------------------ object views */

/* jsonb's key storage order: length, then bytes; document position last. */
static inline int
member_cmp(const FjMember *a, const FjMember *b)
{
	int			c;

	if (a->key_len != b->key_len)
		return a->key_len < b->key_len ? -1 : 1;
	c = memcmp(a->key, b->key, a->key_len);
	if (c)
		return c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int
member_qsort_cmp(const void *a, const void *b)
{
	return member_cmp((const FjMember *) a, (const FjMember *) b);
}

/* Make room for n more members on the scratch stack. */
static void
scratch_reserve(FjScratch *s, uint32 n)
{
	if ((size_t) s->top + n > Min(MaxAllocHugeSize / sizeof(FjMember), (size_t) PG_UINT32_MAX))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document has too many object members to compare")));
	s->buf.len = (size_t) s->top * sizeof(FjMember);
	fastjson_buf_reserve(&s->buf, (size_t) n * sizeof(FjMember));
	s->members = (FjMember *) s->buf.data;
}

uint32
fj_object_view(FjScratch *s, const uint8_t *obj, uint32 *n)
{
	uint32		count = fj_container_count(obj);
	uint32		start = s->top,
				i,
				out;
	const uint8_t *p = fj_container_members(obj);
	FjMember   *m;
	bool		sorted = true;

	scratch_reserve(s, count);
	m = s->members + start;
	for (i = 0; i < count; i++)
	{
		const uint8_t *k;
		uint32		klen = fj_text(p, &k);

		m[i].key = k;
		m[i].key_len = klen;
		m[i].pos = i;
		m[i].value = k + klen;
		p = m[i].value + fj_value_size(m[i].value);
		if (i > 0 && sorted && member_cmp(&m[i - 1], &m[i]) > 0)
			sorted = false;
	}
	if (!sorted)
	{
		if (count <= 16)
		{
			/* insertion sort: small objects, often nearly sorted */
			for (i = 1; i < count; i++)
			{
				FjMember	x = m[i];
				uint32		j = i;

				while (j > 0 && member_cmp(&m[j - 1], &x) > 0)
				{
					m[j] = m[j - 1];
					j--;
				}
				m[j] = x;
			}
		}
		else
			qsort(m, count, sizeof(FjMember), member_qsort_cmp);
	}
	/* keep the last of each run of equal keys */
	out = 0;
	for (i = 0; i < count; i++)
	{
		if (i + 1 < count && m[i].key_len == m[i + 1].key_len &&
			memcmp(m[i].key, m[i + 1].key, m[i].key_len) == 0)
			continue;
		m[out++] = m[i];
	}
	s->top = start + out;
	*n = out;
	return start;
}

const FjMember *
fj_view_find(const FjScratch *s, uint32 start, uint32 n, const uint8_t *key, uint32 len)
{
	const FjMember *m = s->members + start;
	uint32		lo = 0,
				hi = n;

	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo) / 2;
		int			c;

		if (m[mid].key_len != len)
			c = m[mid].key_len < len ? -1 : 1;
		else
			c = memcmp(m[mid].key, key, len);
		if (c == 0)
			return &m[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ------------------------------------------------------------ ordering */

typedef struct CompareState
{
	FjScratch	scratch;
	bool		bytewise;		/* only equality is asked: strings by bytes */
} CompareState;

/* Order of two strings, as compareJsonbScalarValue (ties broken bytewise). */
static int
text_cmp(const CompareState *st, const uint8_t *a, uint32 alen, const uint8_t *b, uint32 blen)
{
	int			c;

	if (alen == blen && memcmp(a, b, alen) == 0)
		return 0;
	if (st->bytewise)
		return fj_key_cmp(a, alen, b, blen);
	c = varstr_cmp((const char *) a, (int) alen, (const char *) b, (int) blen,
				   DEFAULT_COLLATION_OID);
	if (c == 0)
		c = fj_key_cmp(a, alen, b, blen);
	return (c > 0) - (c < 0);
}

/* jsonb's order of two values below the root. */
static int
compare_values(CompareState *st, const uint8_t *a, const uint8_t *b)
{
	FjJsonbType ta = fj_jsonb_type(a),
				tb = fj_jsonb_type(b);

	if (ta != tb)
		return ta < tb ? -1 : 1;
	switch (ta)
	{
		case FJB_NULL:
			return 0;
		case FJB_BOOL:
			/* FJ_FALSE < FJ_TRUE */
			return a[0] < b[0] ? -1 : a[0] > b[0];
		case FJB_NUMBER:
			return fj_number_cmp(a, b);
		case FJB_STRING:
			{
				const uint8_t *sa,
						   *sb;
				uint32		la = fj_text(a, &sa),
							lb = fj_text(b, &sb);

				return text_cmp(st, sa, la, sb, lb);
			}
		case FJB_ARRAY:
			{
				uint32		na = fj_container_count(a),
							nb = fj_container_count(b),
							i;
				const uint8_t *pa,
						   *pb;

				if (na != nb)
					return na < nb ? -1 : 1;
				check_stack_depth();
				pa = fj_container_members(a);
				pb = fj_container_members(b);
				for (i = 0; i < na; i++)
				{
					int			c = compare_values(st, pa, pb);

					if (c)
						return c;
					if ((i & 1023) == 1023)
						CHECK_FOR_INTERRUPTS();
					pa += fj_value_size(pa);
					pb += fj_value_size(pb);
				}
				return 0;
			}
		case FJB_OBJECT:
			{
				uint32		na,
							nb,
							i;
				uint32		sa,
							sb;
				int			c = 0;

				check_stack_depth();
				sa = fj_object_view(&st->scratch, a, &na);
				sb = fj_object_view(&st->scratch, b, &nb);
				if (na != nb)
					c = na < nb ? -1 : 1;
				for (i = 0; c == 0 && i < na; i++)
				{
					/* the stack may move while values are compared: index it afresh */
					const FjMember *ma = &st->scratch.members[sa + i];
					const FjMember *mb = &st->scratch.members[sb + i];

					c = text_cmp(st, ma->key, ma->key_len, mb->key, mb->key_len);
					if (c == 0)
						c = compare_values(st, ma->value, mb->value);
					if ((i & 1023) == 1023)
						CHECK_FOR_INTERRUPTS();
				}
				st->scratch.top = sa;
				return c;
			}
		default:
			return 0;
	}
}

/* jsonb's order of two documents (roots), with the raw-scalar quirk. */
static int
compare_roots(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, bool bytewise)
{
	bool		a_scalar = !fj_is_container(a),
				b_scalar = !fj_is_container(b);
	CompareState st;
	FjMember	local[FJ_SCRATCH_LOCAL];
	int			c;

	/* an identical tape is an equal document */
	if (alen == blen && memcmp(a, b, alen) == 0)
		return 0;
	if (a_scalar != b_scalar)
	{
		/*
		 * A scalar root is a one-element raw scalar array: smaller than an
		 * object; against an array, more elements is greater, and with one
		 * element each the raw scalar is smaller.
		 */
		const uint8_t *container = a_scalar ? b : a;
		int			sign = a_scalar ? 1 : -1;	/* the scalar's result to a's */
		uint32		n;

		if (FJ_TYPE(container[0]) == FJ_OBJECT)
			return -sign;
		n = fj_container_count(container);
		return n == 0 ? sign : -sign;
	}
	st.bytewise = bytewise;
	fj_scratch_init(&st.scratch, local);
	c = compare_values(&st, a, b);
	fj_scratch_free(&st.scratch);
	return c;
}

/* Order of two datums; frees detoasted copies (a constant's tape is kept). */
static int
compare_datums(FunctionCallInfo fcinfo, bool bytewise)
{
	bool		a_kept,
				b_kept;
	Fastjson   *a = fastjson_getarg_kept(fcinfo, 0, &a_kept);
	Fastjson   *b = fastjson_getarg_kept(fcinfo, 1, &b_kept);
	int			c = compare_roots(FJ_ROOT(a), FJ_TAPE_LEN(a) - FJ_TAPE_HEADER,
								  FJ_ROOT(b), FJ_TAPE_LEN(b) - FJ_TAPE_HEADER, bytewise);

	if (!a_kept)
		FASTJSON_FREE_IF_COPY(a, 0);
	if (!b_kept)
		FASTJSON_FREE_IF_COPY(b, 1);
	return c;
}

PG_FUNCTION_INFO_V1(fastjson_cmp);

/* btree support: jsonb's order. */
Datum
fastjson_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(compare_datums(fcinfo, false));
}

PG_FUNCTION_INFO_V1(fastjson_eq);

/* a = b: a::jsonb = b::jsonb. */
Datum
fastjson_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_datums(fcinfo, true) == 0);
}

PG_FUNCTION_INFO_V1(fastjson_ne);

/* a <> b */
Datum
fastjson_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_datums(fcinfo, true) != 0);
}

PG_FUNCTION_INFO_V1(fastjson_lt);

/* a < b */
Datum
fastjson_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_datums(fcinfo, false) < 0);
}

PG_FUNCTION_INFO_V1(fastjson_le);

/* a <= b */
Datum
fastjson_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_datums(fcinfo, false) <= 0);
}

PG_FUNCTION_INFO_V1(fastjson_gt);

/* a > b */
Datum
fastjson_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_datums(fcinfo, false) > 0);
}

PG_FUNCTION_INFO_V1(fastjson_ge);

/* a >= b */
Datum
fastjson_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_datums(fcinfo, false) >= 0);
}

/* ------------------------------------------------------------- hashing */

/* Token kinds mixed into the hash (any distinct constants). */
enum
{
	H_NULL = 1,
	H_FALSE,
	H_TRUE,
	H_STRING,
	H_ZERO,
	H_NUMBER,
	H_BIG_EXP,
	H_ARRAY,
	H_OBJECT
};

typedef struct HashState
{
	FjScratch	scratch;
	uint64		seed;
	uint64		h;
} HashState;

static inline void
mix(HashState *hs, uint64 x)
{
	hs->h = hash_combine64(hs->h, x);
}

/* splitmix64's finalizer: every input bit reaches every output bit. */
static inline uint64
finish(uint64 x)
{
	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

static inline void
mix_bytes(HashState *hs, const void *p, uint32 len)
{
	mix(hs, hash_bytes_extended((const unsigned char *) p, (int) len, hs->seed));
}

/* A number as its canonical (sign, exponent, digits); kept out of hash_value's frame. */
static pg_noinline void
hash_number(HashState *hs, const uint8_t *v)
{
	FjDecimal	d;

	fj_decimal_read(v, &d);
	if (d.sign == 0)
	{
		mix(hs, H_ZERO);
		return;
	}
	mix(hs, H_NUMBER + (d.sign < 0 ? 0x100 : 0));
	if (d.big_exp)
	{
		mix(hs, H_BIG_EXP + (d.big_exp_neg ? 0x100 : 0));
		mix_bytes(hs, d.big_exp, d.big_exp_len);
	}
	else
		mix(hs, (uint64) d.exp);
	if (d.seg_len[0] == 0 || d.seg_len[1] == 0)
	{
		int			i = d.seg_len[0] ? 0 : 1;

		mix_bytes(hs, d.seg[i], d.seg_len[i]);
	}
	else
	{
		/* digits split around the point: hash them as one run */
		char		local[64];
		uint32		n = d.seg_len[0] + d.seg_len[1];
		char	   *buf = n <= sizeof(local) ? local : palloc(n);

		memcpy(buf, d.seg[0], d.seg_len[0]);
		memcpy(buf + d.seg_len[0], d.seg[1], d.seg_len[1]);
		mix_bytes(hs, buf, n);
		if (buf != local)
			pfree(buf);
	}
	fj_decimal_free(&d);
}

static void
hash_value(HashState *hs, const uint8_t *v)
{
	const uint8_t *s;
	uint32		len,
				i;

	switch (fj_jsonb_type(v))
	{
		case FJB_NULL:
			mix(hs, H_NULL);
			break;
		case FJB_BOOL:
			mix(hs, FJ_IMM(v[0]) == FJ_TRUE ? H_TRUE : H_FALSE);
			break;
		case FJB_STRING:
			len = fj_text(v, &s);
			mix(hs, H_STRING);
			mix_bytes(hs, s, len);
			break;
		case FJB_NUMBER:
			hash_number(hs, v);
			break;
		case FJB_ARRAY:
			{
				const uint8_t *p = fj_container_members(v);

				check_stack_depth();
				len = fj_container_count(v);
				mix(hs, H_ARRAY);
				mix(hs, len);
				for (i = 0; i < len; i++)
				{
					hash_value(hs, p);
					p += fj_value_size(p);
					if ((i & 1023) == 1023)
						CHECK_FOR_INTERRUPTS();
				}
				break;
			}
		case FJB_OBJECT:
			{
				uint32		start;

				check_stack_depth();
				start = fj_object_view(&hs->scratch, v, &len);
				mix(hs, H_OBJECT);
				mix(hs, len);
				for (i = 0; i < len; i++)
				{
					const FjMember *m = &hs->scratch.members[start + i];

					mix(hs, H_STRING);
					mix_bytes(hs, m->key, m->key_len);
					hash_value(hs, m->value);
					if ((i & 1023) == 1023)
						CHECK_FOR_INTERRUPTS();
				}
				hs->scratch.top = start;
				break;
			}
	}
}

/* The 64-bit hash of a document; equal documents (=) hash equal. */
static uint64
hash_root(const uint8_t *root, uint64 seed)
{
	HashState	hs;
	FjMember	local[FJ_SCRATCH_LOCAL];

	fj_scratch_init(&hs.scratch, local);
	hs.seed = seed;
	hs.h = finish(seed ^ UINT64CONST(0x6a09e667f3bcc909));
	hash_value(&hs, root);
	fj_scratch_free(&hs.scratch);
	return finish(hs.h);
}

PG_FUNCTION_INFO_V1(fastjson_hash);

/* hash support: the low 32 bits of fastjson_hash_extended(v, 0). */
Datum
fastjson_hash(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	uint64		h = hash_root(FJ_ROOT(d), 0);

	FASTJSON_FREE_IF_COPY(d, 0);
	PG_RETURN_INT32((int32) (uint32) h);
}

PG_FUNCTION_INFO_V1(fastjson_hash_extended);

/* hash support: the 64-bit hash with a seed. */
Datum
fastjson_hash_extended(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	uint64		seed = (uint64) PG_GETARG_INT64(1);
	uint64		h = hash_root(FJ_ROOT(d), seed);

	FASTJSON_FREE_IF_COPY(d, 0);
	PG_RETURN_INT64((int64) h);
}
