/*
 * tape.h — the tape format: constants and inline readers and writers.
 *
 * doc/format.md is the full description. In short, a tape is
 *
 *     version byte (FJ_TAPE_VERSION), flags byte (FJ_FLAG_*), one value
 *
 * and a value is a tag byte, type in the high 3 bits and an immediate in the
 * low 5 bits, then a payload whose size the tag determines:
 *
 *   LITERAL  imm 0 null, 1 false, 2 true; no payload
 *   UINT     an integer 0..INT64_MAX; imm < 24 is the value itself, imm 24..27
 *            means 1, 2, 4 or 8 little-endian bytes follow (the fewest that hold it)
 *   NINT     an integer -1..INT64_MIN stored as n = -1 - value, same encoding
 *   NUMBER   any other number as its exact JSON text (e.g. "1.0", "-0", "1e400")
 *   STRING   unescaped UTF-8
 *            NUMBER and STRING: imm < 28 is the byte length, imm 28/29/30 means
 *            a 1/2/4-byte little-endian length follows (the fewest that hold it)
 *            STRING imm 31 is a string reference (version 3): a 4-byte
 *            little-endian distance back to an earlier STRING value (not a key,
 *            not a reference) whose text this value is; fj_text follows it
 *   ARRAY    imm bits 0-1: width class w (0 empty, 1: 1 byte, 2: 2 bytes, 3: 4 bytes),
 *   OBJECT   bit 2: key index present (objects with more than FJ_KEY_INDEX_MIN
 *            members); bit 3: some string reference inside points before the
 *            container (version 3; clear: the container is self-contained, a
 *            copy of its bytes is a whole value); bit 4: the key index is
 *            fingerprints only (version 4); then payload size and member count, w bytes each; then
 *            the payload: the members (objects: key STRING, value, key, value,
 *            ...) and, if present, the key index: one fingerprint byte per
 *            member (fj_key_fingerprint of its key), then, unless bit 4 is
 *            set, one w-byte offset per member (where its key starts,
 *            relative to the first member), both in member order. The key
 *            index comes before the members when the object has at most
 *            FJ_KEY_INDEX_FRONT_MAX members and w is 1 or 2 (see
 *            fj_key_index_first), after them otherwise. Version 4 writes a
 *            front index as fingerprints only (bit 4), and reads either form.
 *            A lookup scans the fingerprints from the last member back, so the
 *            first verified match is the operative (last) one; without offsets
 *            it steps over the members before a candidate to reach it.
 *
 * Every encoding is the shortest one possible, so a document has exactly one
 * tape up to string references: whether a repeated string is written again
 * or as a reference is the writer's choice (the parser references strings of
 * FJ_REF_MIN_LEN bytes or more that it has seen). The validator enforces the
 * rest. All multi-byte fields are unaligned little-endian, read with memcpy.
 */
#ifndef FJ_TAPE_H
#define FJ_TAPE_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fastjson's tape code assumes a little-endian CPU"
#endif

#define FJ_TAPE_VERSION 4		/* what this build writes */
#define FJ_TAPE_VERSION_MIN 2	/* the oldest it reads: 2 is 3 without references and flags */
#define FJ_TAPE_VERSION_FP_ONLY 4	/* the first with key indexes of fingerprints only */
#define FJ_TAPE_HEADER 2		/* version byte, flags byte */

/* Flags byte: the root is a non-empty object without a key index whose keys are all distinct. */
#define FJ_FLAG_DISTINCT_ROOT_KEYS 1

/* Whether this build reads tapes of version byte v. */
static inline bool
fj_tape_version_readable(uint8_t v)
{
	return v >= FJ_TAPE_VERSION_MIN && v <= FJ_TAPE_VERSION;
}

enum fj_type
{
	FJ_LITERAL = 0,
	FJ_UINT = 1,
	FJ_NINT = 2,
	FJ_NUMBER = 3,
	FJ_STRING = 4,
	FJ_ARRAY = 5,
	FJ_OBJECT = 6,
	FJ_PACKED = 7
};

enum fj_literal
{
	FJ_NULL = 0,
	FJ_FALSE = 1,
	FJ_TRUE = 2
};

#define FJ_TAG(type, imm) ((uint8_t) (((type) << 5) | (imm)))
#define FJ_TYPE(tag) ((tag) >> 5)
#define FJ_IMM(tag) ((tag) & 31)

#define FJ_INT_INLINE_MAX 23	/* UINT/NINT imm values 0..23 are the value */
#define FJ_LEN_INLINE_MAX 27	/* NUMBER/STRING imm values 0..27 are the length */
#define FJ_KEY_INDEX_MIN 8		/* objects with more members carry a key index */
#define FJ_KEY_INDEX_FRONT_MAX 64	/* larger key indexes follow the members */
#define FJ_CONTAINER_INDEXED 4	/* imm bit: key index present */
#define FJ_CONTAINER_REFS_OUT 8	/* imm bit: a string reference inside points before the container */
#define FJ_CONTAINER_FP_ONLY 16	/* imm bit (version 4): the key index is its fingerprints alone */
#define FJ_VALUE_HEAD_MAX 9		/* the most bytes fj_value_head_size gives: a tag and two 4-byte fields */
#define FJ_STRING_REF 0x9f		/* FJ_TAG(FJ_STRING, 31): a string reference */
#define FJ_REF_SIZE 5			/* its tag and 4-byte distance */
#define FJ_REF_MIN_LEN 256		/* strings the parser may write as references */
#define FJ_MAX_TEXT_LEN 0x3fffffffu /* longest string or number text */
#define FJ_PACKED_MAX 40		/* longest number text stored PACKED */
#define FJ_NUMBER_TEXT_BUF 48	/* room fj_number_text may write (8-byte blocks) */

/* ------------------------------------------------------------ loads */

static inline uint16_t
fj_load16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t
fj_load32(const uint8_t *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t
fj_load64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return v;
}

/* Load a w-byte (1, 2, 4 or 8) little-endian field. */
static inline uint64_t
fj_load_width(const uint8_t *p, unsigned w)
{
	switch (w)
	{
		case 1:
			return p[0];
		case 2:
			return fj_load16(p);
		case 4:
			return fj_load32(p);
		default:
			return fj_load64(p);
	}
}

/* Byte width of a container's size/count fields, from its imm (0 for empty). */
static inline unsigned
fj_container_width(uint8_t tag)
{
	static const uint8_t widths[4] = {0, 1, 2, 4};

	return widths[FJ_IMM(tag) & 3];
}

/* Bytes following an integer tag. */
static inline unsigned
fj_int_extra(uint8_t tag)
{
	static const uint8_t extra[8] = {1, 2, 4, 8, 0, 0, 0, 0};
	unsigned	imm = FJ_IMM(tag);

	return imm <= FJ_INT_INLINE_MAX ? 0 : extra[imm - 24];
}

/* Bytes of the length field after a NUMBER/STRING tag. */
static inline unsigned
fj_len_extra(uint8_t tag)
{
	static const uint8_t extra[4] = {1, 2, 4, 0};
	unsigned	imm = FJ_IMM(tag);

	return imm <= FJ_LEN_INLINE_MAX ? 0 : extra[imm - 28];
}

/* The STRING value a string reference stands for (v itself if it is not one). */
static inline const uint8_t *
fj_deref(const uint8_t *v)
{
	return v[0] == FJ_STRING_REF ? v - fj_load32(v + 1) : v;
}

/*
 * Length of a NUMBER/STRING value's text; *text gets a pointer to it. A
 * string reference gives the text of the string it refers to: the text does
 * not end where the value does (fj_value_size gives that).
 */
static inline uint32_t
fj_text(const uint8_t *v, const uint8_t **text)
{
	unsigned	imm;

	v = fj_deref(v);
	imm = FJ_IMM(v[0]);

	if (imm <= FJ_LEN_INLINE_MAX)
	{
		*text = v + 1;
		return imm;
	}
	else
	{
		unsigned	w = fj_len_extra(v[0]);

		*text = v + 1 + w;
		return (uint32_t) fj_load_width(v + 1, w);
	}
}

/* Magnitude field of a UINT/NINT value. */
static inline uint64_t
fj_int_magnitude(const uint8_t *v)
{
	unsigned	imm = FJ_IMM(v[0]);

	return imm <= FJ_INT_INLINE_MAX ? imm : fj_load_width(v + 1, fj_int_extra(v[0]));
}

/* The int64 value of a UINT/NINT value. */
static inline int64_t
fj_int_value(const uint8_t *v)
{
	uint64_t	m = fj_int_magnitude(v);

	return FJ_TYPE(v[0]) == FJ_UINT ? (int64_t) m : -1 - (int64_t) m;
}

/* Number of members of a container. */
static inline uint32_t
fj_container_count(const uint8_t *v)
{
	unsigned	w = fj_container_width(v[0]);

	return w ? (uint32_t) fj_load_width(v + 1 + w, w) : 0;
}

/* Payload bytes of a container (members and key index). */
static inline uint32_t
fj_container_size(const uint8_t *v)
{
	unsigned	w = fj_container_width(v[0]);

	return w ? (uint32_t) fj_load_width(v + 1, w) : 0;
}

/* Bytes of a key index of fingerprints and w-byte offsets: a fingerprint and an offset per member. */
static inline size_t
fj_key_index_size(uint32_t count, unsigned w)
{
	return (size_t) count * (1 + w);
}

/*
 * Whether an indexed object of count members and width w carries its key
 * index before its members: when the index is small (at most
 * FJ_KEY_INDEX_FRONT_MAX members) and the payload under 64 KB.
 */
static inline bool
fj_key_index_first(uint32_t count, unsigned w)
{
	return count <= FJ_KEY_INDEX_FRONT_MAX && w != 4;
}

/*
 * Bytes of the key index of an object written by this build: a key index
 * before the members is its fingerprints alone (FJ_CONTAINER_FP_ONLY), one
 * after them has the offsets too. 0 without a key index.
 */
static inline size_t
fj_key_index_size_written(uint32_t count, unsigned w)
{
	if (count <= FJ_KEY_INDEX_MIN)
		return 0;
	return fj_key_index_first(count, w) ? count : fj_key_index_size(count, w);
}

/* Bytes of the key index of the indexed object v, in the form its tag says. */
static inline size_t
fj_key_index_bytes(const uint8_t *v)
{
	uint32_t	count = fj_container_count(v);

	return (FJ_IMM(v[0]) & FJ_CONTAINER_FP_ONLY) ? count :
		fj_key_index_size(count, fj_container_width(v[0]));
}

/* Bytes of key index between a container's header and its first member. */
static inline size_t
fj_container_lead(const uint8_t *v)
{
	unsigned	w = fj_container_width(v[0]);

	if ((FJ_IMM(v[0]) & FJ_CONTAINER_INDEXED) && fj_key_index_first(fj_container_count(v), w))
		return fj_key_index_bytes(v);
	return 0;
}

/*
 * Bytes at the start of a value that give its size (fj_value_size reads no
 * more): the tag, then the length or size field.
 */
static inline size_t
fj_value_head_size(uint8_t tag)
{
	switch (FJ_TYPE(tag))
	{
		case FJ_LITERAL:
		case FJ_UINT:
		case FJ_NINT:
			return 1;			/* an integer's width is in its tag */
		case FJ_NUMBER:
		case FJ_STRING:
			return tag == FJ_STRING_REF ? FJ_REF_SIZE : 1 + fj_len_extra(tag);
		case FJ_PACKED:
			return FJ_IMM(tag) <= FJ_LEN_INLINE_MAX ? 1 : 2;
		default:
			return 1 + 2 * (size_t) fj_container_width(tag);
	}
}

/* First member of a container. */
static inline const uint8_t *
fj_container_members(const uint8_t *v)
{
	return v + 1 + 2 * fj_container_width(v[0]) + fj_container_lead(v);
}

/* End of a container's members (start of a trailing key index, if any). */
static inline const uint8_t *
fj_container_members_end(const uint8_t *v)
{
	unsigned	w = fj_container_width(v[0]);
	const uint8_t *end = v + 1 + 2 * w + fj_container_size(v);

	if (FJ_IMM(v[0]) & FJ_CONTAINER_INDEXED)
	{
		uint32_t	count = fj_container_count(v);

		if (!fj_key_index_first(count, w))
			end -= fj_key_index_size(count, w);
	}
	return end;
}

/*
 * The key index of an indexed object: count fingerprints, then count w-byte
 * offsets unless the tag has FJ_CONTAINER_FP_ONLY.
 */
static inline const uint8_t *
fj_key_index(const uint8_t *v)
{
	unsigned	w = fj_container_width(v[0]);

	return fj_key_index_first(fj_container_count(v), w) ? v + 1 + 2 * w : fj_container_members_end(v);
}

/* Up to 8 bytes at p as a little-endian number, zero-filled. */
static inline uint64_t
fj_load_upto8(const uint8_t *p, size_t n)
{
	uint64_t	v = 0;

	/* two loads that overlap in the middle: their common bytes are the same */
	if (n >= 8)
		memcpy(&v, p, 8);
	else if (n >= 4)
		v = fj_load32(p) | (uint64_t) fj_load32(p + n - 4) << (8 * (n - 4));
	else if (n >= 2)
		v = fj_load16(p) | (uint64_t) fj_load16(p + n - 2) << (8 * (n - 2));
	else if (n == 1)
		v = p[0];
	return v;
}

/* The fingerprint mix of a key's length, first 8 and last 8 bytes. */
static inline uint8_t
fj_fingerprint_mix(uint64_t head, uint64_t tail, size_t len)
{
	uint64_t	h = head * 0x9e3779b97f4a7c15ULL ^ tail * 0xc2b2ae3d27d4eb4fULL ^
		(uint64_t) len * 0x165667b19e3779f9ULL;

	h ^= h >> 29;
	return (uint8_t) ((h * 0xbf58476d1ce4e5b9ULL) >> 56);
}

/*
 * The key index fingerprint of a key: a multiplicative mix of its length,
 * its first 8 bytes and its last 8 bytes (the bytes after the first 8 when
 * shorter than 16; zero-filled), top byte. O(1) per key; a collision only
 * costs a key comparison. Part of the stored format: never change it without
 * a new tape version.
 */
static inline uint8_t
fj_key_fingerprint(const uint8_t *key, size_t len)
{
	size_t		tl = len <= 8 ? 0 : len < 16 ? len - 8 : 8;

	return fj_fingerprint_mix(fj_load_upto8(key, len), fj_load_upto8(key + len - tl, tl), len);
}

/* The same, for a key followed by at least 8 more readable bytes. */
static inline uint8_t
fj_key_fingerprint_padded(const uint8_t *key, size_t len)
{
	uint64_t	head = fj_load64(key);
	uint64_t	tail = 0;

	if (len < 8)
		head &= (1ULL << (8 * len)) - 1;
	else if (len > 8)
	{
		size_t		tl = len < 16 ? len - 8 : 8;

		tail = fj_load64(key + len - 8) >> (8 * (8 - tl));
	}
	return fj_fingerprint_mix(head, tail, len);
}

/* Number of characters of a PACKED value, and where its nibbles start. */
static inline unsigned
fj_packed_len(const uint8_t *v, const uint8_t **nibbles)
{
	if (FJ_IMM(v[0]) <= FJ_LEN_INLINE_MAX)
	{
		*nibbles = v + 1;
		return FJ_IMM(v[0]);
	}
	*nibbles = v + 2;
	return v[1];
}

/* Whether the tape value at v is an array or an object. */
static inline bool
fj_is_container(const uint8_t *v)
{
	return FJ_TYPE(v[0]) == FJ_ARRAY || FJ_TYPE(v[0]) == FJ_OBJECT;
}

/* Total bytes of the value at v, tag included: O(1) for every type. */
static inline size_t
fj_value_size(const uint8_t *v)
{
	uint8_t		tag = v[0];

	switch (FJ_TYPE(tag))
	{
		case FJ_LITERAL:
			return 1;
		case FJ_UINT:
		case FJ_NINT:
			return 1 + fj_int_extra(tag);
		case FJ_NUMBER:
		case FJ_STRING:
			{
				const uint8_t *text;
				uint32_t	len;

				if (tag == FJ_STRING_REF)
					return FJ_REF_SIZE;
				len = fj_text(v, &text);
				return (size_t) (text - v) + len;
			}
		case FJ_PACKED:
			{
				const uint8_t *nibbles;
				unsigned	len = fj_packed_len(v, &nibbles);

				return (size_t) (nibbles - v) + (len + 1) / 2;
			}
		default:
			return 1 + 2 * (size_t) fj_container_width(tag) + fj_container_size(v);
	}
}

/*
 * Whether the bytes of value v are the whole value: no string reference in
 * it points before it (a copy of fj_value_size(v) bytes is then a valid
 * value anywhere). False for a string reference and for a container with
 * FJ_CONTAINER_REFS_OUT.
 */
static inline bool
fj_value_self_contained(const uint8_t *v)
{
	uint8_t		tag = v[0];

	if (FJ_TYPE(tag) == FJ_ARRAY || FJ_TYPE(tag) == FJ_OBJECT)
		return !(FJ_IMM(tag) & FJ_CONTAINER_REFS_OUT);
	return tag != FJ_STRING_REF;
}

/*
 * The flags byte a tape with this root has (FJ_FLAG_DISTINCT_ROOT_KEYS when
 * the root is an object of 1 to FJ_KEY_INDEX_MIN members whose keys differ).
 * Every writer of a tape sets it so; the validator checks it.
 */
uint8_t		fj_root_flags(const uint8_t *root);

/* ------------------------------------------------------ packed numbers */

/*
 * A PACKED value is a number's text with no exponent (only digits, "-" and
 * ".") of at most FJ_PACKED_MAX characters, four bits a character: digits
 * as 0-9, "-" as 0xd, "." as 0xe; character k in byte k / 2, the low
 * nibble first; a zero nibble pads an odd length. The tag's immediate is the
 * text's length as for NUMBER (0-27, or 28 and a length byte). Packing and
 * unpacking are a few shifts and masks on 8 characters at a time, with no
 * arithmetic on the number.
 */

/* Up to 4 bytes at p (n of them, 1-4) as a little-endian number, in registers. */
static inline uint32_t
fj_load_upto4(const uint8_t *p, unsigned n)
{
	if (n >= 4)
		return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
	if (n == 3)
		return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16;
	if (n == 2)
		return (uint32_t) p[0] | (uint32_t) p[1] << 8;
	return p[0];
}

/* 8 nibbles (4 bytes) to their 8 values, value k in byte k. */
static inline uint64_t
fj_unpack8_codes(uint32_t nibbles)
{
	uint64_t	x = nibbles;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	return (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
}

/* 8 nibbles (4 bytes) to 8 characters, character k in byte k. */
static inline uint64_t
fj_unpack8(uint32_t nibbles)
{
	uint64_t	x = fj_unpack8_codes(nibbles);

	/* 0-9 to '0'-'9'; 0xd, 0xe (the ones that reach 0x10 when 3 is added) to '-', '.' */
	return x + 0x3030303030303030ULL - ((x + 0x0303030303030303ULL) & 0x1010101010101010ULL);
}

/*
 * 8 characters (digits, '-', '.'; character k in byte k) to their nibble
 * values, one a byte. Other bytes give garbage in their own byte and the
 * bytes after it only.
 */
static inline uint64_t
fj_pack8_codes(uint64_t c)
{
	/* '-' and '.' (below '0') get 0x10 more, so subtracting '0' leaves 0xd, 0xe */
	uint64_t	below = ~(c + 0x5050505050505050ULL) & 0x8080808080808080ULL;

	return c + (below >> 3) - 0x3030303030303030ULL;
}

/* 8 nibble values (0-15, value k in byte k) to 8 nibbles, the reverse of fj_unpack8_codes. */
static inline __attribute__((always_inline)) uint32_t
fj_pack8_values(uint64_t x)
{
	x = (x | x >> 4) & 0x00ff00ff00ff00ffULL;
	x = (x | x >> 8) & 0x0000ffff0000ffffULL;
	return (uint32_t) (x | x >> 16);
}

/* 8 characters (digits, '-', '.'; character k in byte k) to 8 nibbles. */
static inline uint32_t
fj_pack8(uint64_t c)
{
	return fj_pack8_values(fj_pack8_codes(c));
}

/* Write the text of n packed characters (n <= FJ_PACKED_MAX) at out, in 8-byte blocks. */
static inline void
fj_unpack_number(const uint8_t *nibbles, unsigned n, char *out)
{
	unsigned	bytes = (n + 1) / 2,
				k;

	for (k = 0; k < bytes; k += 4)
	{
		uint64_t	c = fj_unpack8(fj_load_upto4(nibbles + k, bytes - k));

		memcpy(out + 2 * k, &c, 8);
	}
}

/*
 * Pack the n characters at s (n <= FJ_PACKED_MAX, a valid number without
 * exponent) into dst with pack8 (fj_pack8, or a kernel's faster equivalent):
 * 8 at a time, read whole where readable (up to readable_end; the bytes after
 * the number give garbage only in nibbles past it), written in whole 4-byte
 * blocks (up to 3 bytes past the packed value), then the pad nibble cleared.
 */
static inline __attribute__((always_inline)) void
fj_pack_number(uint8_t *dst, const uint8_t *s, unsigned n, const uint8_t *readable_end,
			   uint32_t (*pack8) (uint64_t))
{
	unsigned	k;

	for (k = 0; k < n; k += 8)
	{
		uint64_t	c = 0x3030303030303030ULL;	/* '0' pads: nibble 0 */
		uint32_t	nib;

		if (s + k + 8 <= readable_end)
			memcpy(&c, s + k, 8);
		else
			memcpy(&c, s + k, n - k < 8 ? n - k : 8);
		nib = pack8(c);
		memcpy(dst + k / 2, &nib, 4);
	}
	if (n & 1)
		dst[n / 2] &= 0x0f;
}

/*
 * The text of a NUMBER or PACKED value: a NUMBER's in place, a PACKED's
 * written into buf (FJ_NUMBER_TEXT_BUF bytes). Returns the length.
 */
static inline uint32_t
fj_number_text(const uint8_t *v, char *buf, const uint8_t **text)
{
	const uint8_t *t;
	uint32_t	len;

	if (FJ_TYPE(v[0]) == FJ_PACKED)
	{
		len = fj_packed_len(v, &t);
		fj_unpack_number(t, len, buf);
		*text = (const uint8_t *) buf;
		return len;
	}
	len = fj_text(v, &t);
	*text = t;
	return len;
}

/* Whether v is a number kept as text (NUMBER or PACKED), not an integer. */
static inline bool
fj_is_text_number(const uint8_t *v)
{
	return FJ_TYPE(v[0]) == FJ_NUMBER || FJ_TYPE(v[0]) == FJ_PACKED;
}

/* ------------------------------------------------------- integer text */

/* "00" to "99": two decimal digits a lookup. */
static const char fj_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* 10^0 to 10^19. */
extern const uint64_t fj_pow10_u64[20];

/*
 * v / 10, v / 10^8 and v / 10^16, exact for every uint64, as one
 * multiplication by ceil(2^67 / 10), ceil(2^90 / 10^8) or ceil(2^115 /
 * 10^16) and a shift. Written out because GCC compiles the plain division
 * to a div instruction (tens of cycles) in code it guesses is cold, which
 * is where the 17-digit numbers went.
 */
static inline __attribute__((always_inline)) uint64_t
fj_div10(uint64_t v)
{
	return (uint64_t) (((unsigned __int128) v * 0xcccccccccccccccdULL) >> 67);
}

static inline __attribute__((always_inline)) uint64_t
fj_div_1e8(uint64_t v)
{
	return (uint64_t) (((unsigned __int128) v * 0xabcc77118461cefdULL) >> 90);
}

static inline __attribute__((always_inline)) uint64_t
fj_div_1e16(uint64_t v)
{
	return (uint64_t) (((unsigned __int128) v * 0x39a5652fb1137857ULL) >> 115);
}

/* The number of decimal digits of v (0 for 0). */
static inline __attribute__((always_inline)) unsigned
fj_decimal_length(uint64_t v)
{
	unsigned	guess;

	if (v == 0)
		return 0;
	/* floor(log10(2^bits)) + 1 is the length, or one less */
	guess = ((64 - (unsigned) __builtin_clzll(v)) * 1233) >> 12;
	return guess + (v >= fj_pow10_u64[guess]);
}

/* Write the 4 digits of x (below 10,000, leading zeros included) at t. */
static inline void
fj_put_4digits(uint8_t *t, uint32_t x)
{
	uint32_t	h = x / 100;

	memcpy(t, fj_digit_pairs + 2 * h, 2);
	memcpy(t + 2, fj_digit_pairs + 2 * (x - 100 * h), 2);
}

/* Write the n (0-4) digits of x (below 10^n) at t. */
static inline void
fj_put_upto4digits(uint8_t *t, uint32_t x, unsigned n)
{
	uint32_t	h;

	switch (n)
	{
		case 4:
			fj_put_4digits(t, x);
			break;
		case 3:
			h = x / 100;
			t[0] = (uint8_t) ('0' + h);
			memcpy(t + 1, fj_digit_pairs + 2 * (x - 100 * h), 2);
			break;
		case 2:
			memcpy(t, fj_digit_pairs + 2 * x, 2);
			break;
		case 1:
			t[0] = (uint8_t) ('0' + x);
			break;
		default:
			break;
	}
}

/* Write the 8 digits of x (below 10^8, leading zeros included) at t: two halves of 4. */
static inline void
fj_put_8digits(uint8_t *t, uint32_t x)
{
	uint32_t	hi = x / 10000;

	fj_put_4digits(t, hi);
	fj_put_4digits(t + 4, x - 10000 * hi);
}

/* Write the n (1-8) digits of x (below 10^n) at t. */
static inline void
fj_put_upto8digits(uint8_t *t, uint32_t x, unsigned n)
{
	uint32_t	hi;

	if (n <= 4)
	{
		fj_put_upto4digits(t, x, n);
		return;
	}
	hi = x / 10000;
	fj_put_upto4digits(t, hi, n - 4);
	fj_put_4digits(t + n - 4, x - 10000 * hi);
}

/*
 * Write the decimal digits of v (at most 20) at d, in place; returns the end.
 * Nothing past the end is written. The digits are cut into groups of 8 and
 * 4 from the last, each group's division by 100 independent of the others',
 * so that a long integer is not one chain of divisions.
 */
static inline uint8_t *
fj_put_u64_text(uint8_t *d, uint64_t v)
{
	/* v | 1 has as many digits as v, and 0 has one */
	unsigned	len = fj_decimal_length(v | 1);
	uint8_t    *end = d + len;
	uint64_t	hi,
				mid;

	if (len <= 8)
		fj_put_upto8digits(d, (uint32_t) v, len);
	else if (len <= 16)
	{
		hi = fj_div_1e8(v);
		fj_put_upto8digits(d, (uint32_t) hi, len - 8);
		fj_put_8digits(end - 8, (uint32_t) (v - hi * 100000000));
	}
	else
	{
		/* 17 to 20 digits: the first 1 to 4, then two groups of 8 */
		hi = fj_div_1e16(v);
		v -= hi * 10000000000000000ULL;
		mid = fj_div_1e8(v);
		fj_put_upto4digits(d, (uint32_t) hi, len - 16);
		fj_put_8digits(end - 16, (uint32_t) mid);
		fj_put_8digits(end - 8, (uint32_t) (v - mid * 100000000));
	}
	return end;
}

/* Write the decimal text of the UINT/NINT value v at d (at most 20 bytes); returns the end. */
static inline uint8_t *
fj_put_int_text(uint8_t *d, const uint8_t *v)
{
	if (FJ_TYPE(v[0]) == FJ_UINT)
		return fj_put_u64_text(d, fj_int_magnitude(v));
	/* NINT stores -1 - value; the magnitude + 1 is at most 2^63 */
	*d++ = '-';
	return fj_put_u64_text(d, fj_int_magnitude(v) + 1);
}

/* -------------------------------------------------------- key lookup */

/* Compare two keys bytewise, shorter first on a tie. */
static inline int
fj_key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t		n = alen < blen ? alen : blen;
	int			c = n ? memcmp(a, b, n) : 0;

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/*
 * The value of the last member of object obj whose key is key[0..len), or
 * NULL. Objects with a key index compare about one key; small objects are scanned.
 */
const uint8_t *fj_object_get(const uint8_t *obj, const char *key, size_t len);

/* Element i of array arr (negative counts from the end), or NULL. */
const uint8_t *fj_array_get(const uint8_t *arr, int64_t i);

/*
 * What of a tape is present for the lookups below, counted from the
 * container looked in: its first avail bytes (a prefix of a stored value),
 * or, with have, those of them in the parts of blocks decoded so far (a
 * stored tape, src/tape_store.h: have[b] is how many bytes of block b, from
 * its start, are there, a block being decoded by prefix or whole, and the
 * last tail of the avail bytes are there whatever have says, the tail of a
 * stored tape kept as it is; the container starts origin bytes into the tape).
 * A damaged tape's bytes are read as they come, a length field 8 bytes at a
 * time: the buffer holding the tape has 8 readable bytes after it.
 */
typedef struct fj_window
{
	size_t		avail;			/* bytes from the container on that may be read */
	const uint16_t *have;		/* NULL: all of the first avail bytes are there */
	size_t		origin;			/* with have: the container's offset in the tape */
	unsigned	block_log2;		/* with have: log2 of the block size (at most 16) */
	size_t		tail;			/* with have: the last bytes of avail that are all there */
	bool		head_only;		/* a container found need only have its head there */
	size_t		need_from,		/* FJ_MORE: the bytes, from the container, */
				need_to;		/* that decide and are not there */
} fj_window;

/*
 * The lookups in such a tape: FJ_FOUND with the whole value in *value
 * (with w->head_only, of a container only its head: enough to look into it
 * with the window again, as a path's next step does), FJ_ABSENT, or
 * FJ_MORE when bytes that are not there decide (w->need_from
 * and w->need_to say which). distinct: the object's keys are known to
 * differ (FJ_FLAG_DISTINCT_ROOT_KEYS of a root), so the first match is the
 * operative one.
 */
typedef enum fj_found
{
	FJ_ABSENT,
	FJ_FOUND,
	FJ_MORE
} fj_found;

fj_found	fj_object_get_window(const uint8_t *obj, fj_window *w, const char *key, size_t len,
								 bool distinct, const uint8_t **value);
fj_found	fj_array_get_window(const uint8_t *arr, fj_window *w, int64_t i, const uint8_t **value);
/* Whether all of the value v, whose head is there, is in the window: FJ_FOUND or FJ_MORE. */
fj_found	fj_value_window(const uint8_t *v, fj_window *w);

#endif							/* FJ_TAPE_H */
