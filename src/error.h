/*
 * error.h — how the core reports a failure: an error struct of code (the
 * class of failure, which the SQL layer maps to a SQLSTATE), reason (what
 * exactly is wrong), message and byte offset.
 *
 * Every reason, its class and its message are listed once, in FJ_REASONS
 * below, in the manner of yyjson's error table. Callers decide by code and
 * reason, never by message text, so a message can be reworded without
 * changing what any caller does.
 */
#ifndef FJ_ERROR_H
#define FJ_ERROR_H

#include <stddef.h>

typedef enum fj_code
{
	FJ_OK = 0,
	FJ_ERR_SYNTAX,				/* input is not JSON (SQLSTATE 22P02) */
	FJ_ERR_UTF8,				/* input is not valid UTF-8 (22021) */
	FJ_ERR_DEPTH,				/* nesting deeper than the limit (54001) */
	FJ_ERR_TOO_BIG,				/* a size limit exceeded (54000) */
	FJ_ERR_NOMEM,				/* the allocator returned NULL */
	FJ_ERR_TAPE,				/* an untrusted tape is malformed (22P03) */
	FJ_ERR_INTERRUPTED,			/* the interrupt callback asked to stop */
	FJ_ERR_CBOR,				/* CBOR input is malformed or has no JSON form (22P03) */
	FJ_ERR_DUPLICATE_KEY		/* deterministic CBOR of an object with a repeated key (22030) */
} fj_code;

/* X(reason, code, message): every reason the core gives, in one table. */
#define FJ_REASONS(X) \
	/* JSON text */ \
	X(FJ_R_EMPTY, FJ_ERR_SYNTAX, "The input string ended unexpectedly.") \
	X(FJ_R_VALUE, FJ_ERR_SYNTAX, "Expected JSON value.") \
	X(FJ_R_KEY, FJ_ERR_SYNTAX, "Expected string.") \
	X(FJ_R_COLON, FJ_ERR_SYNTAX, "Expected \":\".") \
	X(FJ_R_ARRAY_NEXT, FJ_ERR_SYNTAX, "Expected \",\" or \"]\".") \
	X(FJ_R_OBJECT_NEXT, FJ_ERR_SYNTAX, "Expected \",\" or \"}\".") \
	X(FJ_R_TRAILING, FJ_ERR_SYNTAX, "Expected end of input.") \
	X(FJ_R_NUMBER, FJ_ERR_SYNTAX, "Invalid number.") \
	X(FJ_R_LITERAL, FJ_ERR_SYNTAX, "Token is invalid.") \
	X(FJ_R_UNTERMINATED, FJ_ERR_SYNTAX, "Unterminated string.") \
	X(FJ_R_CONTROL, FJ_ERR_SYNTAX, "Control characters in strings must be escaped.") \
	X(FJ_R_ESCAPE, FJ_ERR_SYNTAX, "Escape sequence is invalid.") \
	X(FJ_R_HEX, FJ_ERR_SYNTAX, "\"\\u\" must be followed by four hexadecimal digits.") \
	X(FJ_R_LOW_SURROGATE, FJ_ERR_SYNTAX, "Unicode low surrogate must follow a high surrogate.") \
	X(FJ_R_HIGH_SURROGATE, FJ_ERR_SYNTAX, "Unicode high surrogate must be followed by a low surrogate.") \
	X(FJ_R_UTF8, FJ_ERR_UTF8, "Invalid UTF-8 byte sequence.") \
	/* limits and resources, for every input */ \
	X(FJ_R_DEPTH, FJ_ERR_DEPTH, "Nesting is deeper than the maximum allowed depth.") \
	X(FJ_R_TOO_BIG, FJ_ERR_TOO_BIG, "The document is larger than the maximum allowed size.") \
	X(FJ_R_STRING_TOO_BIG, FJ_ERR_TOO_BIG, "A string is longer than the maximum allowed length.") \
	X(FJ_R_NOMEM, FJ_ERR_NOMEM, "Out of memory.") \
	X(FJ_R_INTERRUPTED, FJ_ERR_INTERRUPTED, "Interrupted.") \
	/* binary tapes (recv) */ \
	X(FJ_R_TAPE_SHORT, FJ_ERR_TAPE, "Tape is too short.") \
	X(FJ_R_TAPE_VERSION, FJ_ERR_TAPE, "Unsupported tape version.") \
	X(FJ_R_TAPE_HEADER_BITS, FJ_ERR_TAPE, "Reserved header bits are set.") \
	X(FJ_R_TAPE_FLAGS, FJ_ERR_TAPE, "Flags byte does not match the root.") \
	X(FJ_R_TAPE_TRAILING, FJ_ERR_TAPE, "Trailing bytes after the value.") \
	X(FJ_R_TAPE_TYPE, FJ_ERR_TAPE, "Unknown value type.") \
	X(FJ_R_TAPE_LITERAL, FJ_ERR_TAPE, "Unknown literal.") \
	X(FJ_R_TAPE_PAST_CONTAINER, FJ_ERR_TAPE, "Value runs past the end of its container.") \
	X(FJ_R_TAPE_INT_WIDTH, FJ_ERR_TAPE, "Unknown integer width.") \
	X(FJ_R_TAPE_INT_TRUNCATED, FJ_ERR_TAPE, "Integer is truncated.") \
	X(FJ_R_TAPE_INT_LONG, FJ_ERR_TAPE, "Integer is not in its shortest form.") \
	X(FJ_R_TAPE_LEN_WIDTH, FJ_ERR_TAPE, "Unknown length width.") \
	X(FJ_R_TAPE_LEN_TRUNCATED, FJ_ERR_TAPE, "Length is truncated.") \
	X(FJ_R_TAPE_LEN_LONG, FJ_ERR_TAPE, "Length is not in its shortest form.") \
	X(FJ_R_TAPE_TEXT_PAST_END, FJ_ERR_TAPE, "Text runs past the end of the tape.") \
	X(FJ_R_TAPE_UTF8, FJ_ERR_TAPE, "String is not valid UTF-8.") \
	X(FJ_R_TAPE_NUMBER_TEXT, FJ_ERR_TAPE, "Number text is not a JSON number.") \
	X(FJ_R_TAPE_INT_AS_TEXT, FJ_ERR_TAPE, "Integer stored as number text.") \
	X(FJ_R_TAPE_SHORT_NUMBER_AS_TEXT, FJ_ERR_TAPE, "Short number without exponent stored as number text.") \
	X(FJ_R_TAPE_PACKED_WIDTH, FJ_ERR_TAPE, "Unknown packed number length width.") \
	X(FJ_R_TAPE_PACKED_TRUNCATED, FJ_ERR_TAPE, "Packed number is truncated.") \
	X(FJ_R_TAPE_PACKED_LEN, FJ_ERR_TAPE, "Packed number length is out of range or not in its shortest form.") \
	X(FJ_R_TAPE_PACKED_PAST_END, FJ_ERR_TAPE, "Packed number runs past the end of the tape.") \
	X(FJ_R_TAPE_PACKED_NIBBLE, FJ_ERR_TAPE, "Packed number has an invalid nibble.") \
	X(FJ_R_TAPE_PACKED_NUMBER, FJ_ERR_TAPE, "Packed number is not a JSON number.") \
	X(FJ_R_TAPE_INT_AS_PACKED, FJ_ERR_TAPE, "Integer stored as packed number.") \
	X(FJ_R_TAPE_REF_TRUNCATED, FJ_ERR_TAPE, "String reference is truncated.") \
	X(FJ_R_TAPE_REF_TARGET, FJ_ERR_TAPE, "String reference does not point at an earlier string value.") \
	X(FJ_R_TAPE_KEY_TYPE, FJ_ERR_TAPE, "Object key is not a string.") \
	X(FJ_R_TAPE_KEY_REF, FJ_ERR_TAPE, "Object key is a string reference.") \
	X(FJ_R_TAPE_CONTAINER_TRUNCATED, FJ_ERR_TAPE, "Container header is truncated.") \
	X(FJ_R_TAPE_CONTAINER_LONG, FJ_ERR_TAPE, "Container header is not in its shortest form.") \
	X(FJ_R_TAPE_CONTAINER_BITS, FJ_ERR_TAPE, "Reserved container bits are set.") \
	X(FJ_R_TAPE_CONTAINER_PAST_END, FJ_ERR_TAPE, "Container runs past the end of the tape.") \
	X(FJ_R_TAPE_EMPTY_EXTRAS, FJ_ERR_TAPE, "Empty container has a key index or references.") \
	X(FJ_R_TAPE_COUNT, FJ_ERR_TAPE, "Container count or key index is wrong.") \
	X(FJ_R_TAPE_TOO_MANY, FJ_ERR_TAPE, "Container has more members than its count.") \
	X(FJ_R_TAPE_TOO_FEW, FJ_ERR_TAPE, "Container has fewer members than its count.") \
	X(FJ_R_TAPE_REFS_BIT, FJ_ERR_TAPE, "Container's reference bit does not match its references.") \
	X(FJ_R_TAPE_INDEX_OFFSET, FJ_ERR_TAPE, "Key index offset does not match its member.") \
	X(FJ_R_TAPE_INDEX_FINGERPRINT, FJ_ERR_TAPE, "Key index fingerprint does not match its key.") \
	/* stored (block-compressed) tapes */ \
	X(FJ_R_STORE_SHORT, FJ_ERR_TAPE, "Stored tape is too short for its header.") \
	X(FJ_R_STORE_METHOD, FJ_ERR_TAPE, "Stored tape has an unknown block size or compression method.") \
	X(FJ_R_STORE_LENGTH, FJ_ERR_TAPE, "Stored tape's length is out of range.") \
	X(FJ_R_STORE_BLOCKS, FJ_ERR_TAPE, "Stored tape's block ends are not increasing, run past its end, or do not fit its blocks' sizes.") \
	X(FJ_R_STORE_BLOCK, FJ_ERR_TAPE, "A block of a stored tape does not decompress to its size.") \
	X(FJ_R_STORE_FLAGS, FJ_ERR_TAPE, "Stored tape's version or flags byte is not its tape's.") \
	X(FJ_R_STORE_KEYS, FJ_ERR_TAPE, "Stored tape's root keys are not its root's.") \
	X(FJ_R_STORE_TAIL, FJ_ERR_TAPE, "Stored tape's tail is not its root's last members.") \
	/* CBOR input */ \
	X(FJ_R_CBOR_EMPTY, FJ_ERR_CBOR, "The input is empty.") \
	X(FJ_R_CBOR_TRUNCATED, FJ_ERR_CBOR, "The input is truncated: a data item, or a length or count it declares, runs past the end.") \
	X(FJ_R_CBOR_TRAILING, FJ_ERR_CBOR, "Unexpected bytes after the end of the data item.") \
	X(FJ_R_CBOR_RESERVED, FJ_ERR_CBOR, "Reserved additional information value (not well-formed CBOR).") \
	X(FJ_R_CBOR_SIMPLE_2BYTE, FJ_ERR_CBOR, "Simple value below 32 in the two-byte form (not well-formed CBOR).") \
	X(FJ_R_CBOR_BREAK, FJ_ERR_CBOR, "Break code outside an indefinite-length item.") \
	X(FJ_R_CBOR_BREAK_KEY, FJ_ERR_CBOR, "Break code between a map key and its value.") \
	X(FJ_R_CBOR_BREAK_TAG, FJ_ERR_CBOR, "Break code where a tag's content should be.") \
	X(FJ_R_CBOR_CHUNK, FJ_ERR_CBOR, "An indefinite-length string may only hold definite-length strings of its own type.") \
	X(FJ_R_CBOR_UTF8, FJ_ERR_CBOR, "Text string is not valid UTF-8.") \
	X(FJ_R_CBOR_BIGNUM, FJ_ERR_CBOR, "Tag 2 or 3 (bignum) must enclose a byte string.") \
	X(FJ_R_CBOR_DECIMAL, FJ_ERR_CBOR, "Tag 4 (decimal fraction) must enclose an array of two integers.") \
	X(FJ_R_CBOR_DECIMAL_EXP, FJ_ERR_CBOR, "Decimal fraction exponent is outside the 64-bit range.") \
	/* CBOR input that is well formed but has no JSON form */ \
	X(FJ_R_CBOR_KEY, FJ_ERR_CBOR, "Map key is not a text string or an integer.") \
	X(FJ_R_CBOR_NONFINITE, FJ_ERR_CBOR, "NaN and infinities have no JSON form.") \
	X(FJ_R_CBOR_UNDEFINED, FJ_ERR_CBOR, "The value undefined has no JSON form.") \
	X(FJ_R_CBOR_SIMPLE, FJ_ERR_CBOR, "Simple values other than false, true and null have no JSON form.") \
	X(FJ_R_CBOR_STRING_TOO_BIG, FJ_ERR_TOO_BIG, "A string or number is longer than the maximum allowed length.") \
	X(FJ_R_CBOR_COUNT, FJ_ERR_TOO_BIG, "A container has more than 2^32 - 1 members.") \
	/* CBOR output */ \
	X(FJ_R_CBOR_DUPLICATE, FJ_ERR_DUPLICATE_KEY, "Object has a duplicate key.") \
	X(FJ_R_CBOR_EXPONENT, FJ_ERR_TOO_BIG, "The exponent of a number does not fit in 64 bits.") \
	X(FJ_R_CBOR_OUTPUT_TOO_BIG, FJ_ERR_TOO_BIG, "The CBOR output would exceed the maximum allowed size.")

typedef enum fj_reason
{
	FJ_R_NONE = 0,
#define FJ_REASON_ENUM(r, c, m) r,
	FJ_REASONS(FJ_REASON_ENUM)
#undef FJ_REASON_ENUM
	FJ_R_COUNT
} fj_reason;

typedef struct fj_error
{
	fj_code		code;			/* the class of failure */
	fj_reason	reason;			/* what exactly is wrong */
	const char *message;		/* static text for reason, as a sentence */
	size_t		offset;			/* byte offset in the input where it was found */
} fj_error;

/* The table behind FJ_REASONS, indexed by reason (src/error.c). */
typedef struct fj_reason_info
{
	fj_code		code;
	const char *message;
} fj_reason_info;

extern const fj_reason_info fj_reason_table[FJ_R_COUNT];

/* Clear err to "no error". */
static inline void
fj_error_clear(fj_error *err)
{
	err->code = FJ_OK;
	err->reason = FJ_R_NONE;
	err->message = NULL;
	err->offset = 0;
}

/* Record reason at offset in err; returns its code. */
static inline fj_code
fj_fail(fj_error *err, fj_reason reason, size_t offset)
{
	err->code = fj_reason_table[reason].code;
	err->reason = reason;
	err->message = fj_reason_table[reason].message;
	err->offset = offset;
	return err->code;
}

#endif							/* FJ_ERROR_H */
