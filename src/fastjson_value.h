/*
 * fastjson_value.h — what comparison, hashing and containment share: values
 * seen the way jsonb sees them.
 *
 * jsonb's semantics are those of the document with duplicate keys removed
 * (the last one wins) and every object's pairs stored in "key storage order":
 * keys sorted by byte length, then bytewise. A number is its numeric value
 * (1 = 1.0 = 1e0, -0 = 0). Nothing here decodes a tape; it is read in place:
 *
 *   FjDecimal    a number (UINT, NINT or NUMBER text) as sign, significant
 *                digits and a decimal exponent, exact for any JSON number
 *                (1e400, 1e-999999, exponents of any length)
 *   FjMember     one operative pair of an object; an object's distinct pairs
 *                in jsonb key storage order are a run of members in an
 *                FjScratch, which grows as a stack while a comparison recurses
 */
#ifndef FASTJSON_VALUE_H
#define FASTJSON_VALUE_H

#include "fastjson.h"

/* ------------------------------------------------------------ jsonb types */

/*
 * jsonb's value types, in jsonb's btree order (jbvNull < jbvString <
 * jbvNumeric < jbvBool < jbvArray < jbvObject).
 */
typedef enum FjJsonbType
{
	FJB_NULL = 0,
	FJB_STRING,
	FJB_NUMBER,
	FJB_BOOL,
	FJB_ARRAY,
	FJB_OBJECT
} FjJsonbType;

/* The jsonb type of the tape value at v. */
static inline FjJsonbType
fj_jsonb_type(const uint8_t *v)
{
	static const uint8_t types[8] = {
		FJB_NULL,				/* FJ_LITERAL (null; booleans below) */
		FJB_NUMBER,				/* FJ_UINT */
		FJB_NUMBER,				/* FJ_NINT */
		FJB_NUMBER,				/* FJ_NUMBER */
		FJB_STRING,				/* FJ_STRING */
		FJB_ARRAY,				/* FJ_ARRAY */
		FJB_OBJECT,				/* FJ_OBJECT */
		FJB_NUMBER				/* FJ_PACKED */
	};

	if (FJ_TYPE(v[0]) == FJ_LITERAL)
		return FJ_IMM(v[0]) == FJ_NULL ? FJB_NULL : FJB_BOOL;
	return (FjJsonbType) types[FJ_TYPE(v[0])];
}

/* --------------------------------------------------------------- numbers */

/*
 * A number as sign * 0.DIGITS * 10^exp, DIGITS without leading or trailing
 * zeros (empty for zero, whose sign is 0). The digits are the two pieces
 * seg[0] and seg[1] (the integer and fraction digits of the text, or
 * int_digits for an integer), read in place. An exponent that does not fit
 * 18 decimal digits is kept exactly as the decimal magnitude big_exp
 * (palloc'd, no leading zeros) with the sign big_exp_neg; every other
 * exponent is in exp, so each number has exactly one representation.
 */
typedef struct FjDecimal
{
	int			sign;			/* -1, 0 or 1 */
	const char *seg[2];
	uint32		seg_len[2];
	int64		exp;			/* when big_exp is NULL */
	char	   *big_exp;		/* |exponent| >= 10^18, or NULL */
	uint32		big_exp_len;
	bool		big_exp_neg;
	char		int_digits[20]; /* the digits of a UINT/NINT value */
	char		packed_text[FJ_NUMBER_TEXT_BUF];	/* the text of a PACKED value */
} FjDecimal;

/* Read the number (UINT, NINT, NUMBER or PACKED) at v into d. */
void		fj_decimal_read(const uint8_t *v, FjDecimal *d);
/* Free what fj_decimal_read allocated (only huge exponents allocate). */
void		fj_decimal_free(FjDecimal *d);
/* Numeric order of two numbers, as numeric_cmp: <0, 0 or >0. */
int			fj_number_cmp(const uint8_t *a, const uint8_t *b);

/* ----------------------------------------------------------------- scalars */

/*
 * jsonb's equalsJsonbScalarValue for two scalars of the same jsonb type:
 * strings bytewise, numbers numerically, booleans and nulls by value.
 */
bool		fj_scalar_equal(const uint8_t *a, const uint8_t *b);

/* ----------------------------------------------------- object member views */

/* One operative (last of its key) pair of an object. */
typedef struct FjMember
{
	const uint8_t *key;
	uint32		key_len;
	uint32		pos;			/* member number in the document */
	const uint8_t *value;
} FjMember;

/*
 * A stack of members for the objects being looked at. Objects push their
 * views and pop them when done, so a whole comparison allocates only when
 * the stack outgrows its first buffer. Views are addressed by their start
 * index: growing the stack moves it.
 */
typedef struct FjScratch
{
	fj_buf		buf;			/* where the members live: first the caller's buffer */
	FjMember   *members;		/* buf.data */
	uint32		top;			/* members in use */
} FjScratch;

#define FJ_SCRATCH_LOCAL 64

/* Start a scratch stack on the caller's buffer of FJ_SCRATCH_LOCAL members. */
static inline void
fj_scratch_init(FjScratch *s, FjMember *local)
{
	fj_buf_borrow(&s->buf, local, FJ_SCRATCH_LOCAL * sizeof(FjMember));
	s->members = local;
	s->top = 0;
}

/* Release what the scratch stack allocated. */
static inline void
fj_scratch_free(FjScratch *s)
{
	fj_buf_release(&fastjson_palloc_allocator, &s->buf);
}

/*
 * Push the distinct pairs of object obj in jsonb key storage order (key
 * length, then bytes; the last of duplicate keys kept). Returns the index of
 * the first; *n gets the number of distinct pairs. Pop with s->top = start.
 */
uint32		fj_object_view(FjScratch *s, const uint8_t *obj, uint32 *n);

/* The member of a view (start, n) whose key is key[0..len), or NULL. */
const FjMember *fj_view_find(const FjScratch *s, uint32 start, uint32 n,
							 const uint8_t *key, uint32 len);

#endif							/* FASTJSON_VALUE_H */
