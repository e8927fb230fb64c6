/*
 * tape_writer.h — the encoders of the tape format (src/tape.h): how each
 * value is written in its one canonical encoding, and how a container is
 * closed. Shared by stage 2 (the parser), the builder, the CBOR decoder and
 * the validator (which checks that a tape uses these encodings).
 */
#ifndef FJ_TAPE_WRITER_H
#define FJ_TAPE_WRITER_H

#include "tape.h"

/* ------------------------------------------------------------- scalars */

/* Write an integer value (UINT or NINT with magnitude m) at w; returns the end. */
static inline uint8_t *
fj_put_int(uint8_t *w, int type, uint64_t m)
{
	if (m <= FJ_INT_INLINE_MAX)
	{
		*w = FJ_TAG(type, m);
		return w + 1;
	}
	if (m <= 0xff)
	{
		w[0] = FJ_TAG(type, 24);
		w[1] = (uint8_t) m;
		return w + 2;
	}
	if (m <= 0xffff)
	{
		uint16_t	v = (uint16_t) m;

		w[0] = FJ_TAG(type, 25);
		memcpy(w + 1, &v, 2);
		return w + 3;
	}
	if (m <= 0xffffffffu)
	{
		uint32_t	v = (uint32_t) m;

		w[0] = FJ_TAG(type, 26);
		memcpy(w + 1, &v, 4);
		return w + 5;
	}
	w[0] = FJ_TAG(type, 27);
	memcpy(w + 1, &m, 8);
	return w + 9;
}

/* Bytes of the header (tag and length) for a NUMBER/STRING of len bytes. */
static inline unsigned
fj_text_header_size(size_t len)
{
	return len <= FJ_LEN_INLINE_MAX ? 1 : len <= 0xff ? 2 : len <= 0xffff ? 3 : 5;
}

/* Write the header of a NUMBER/STRING of len bytes; returns where the text goes. */
static inline uint8_t *
fj_put_text_header(uint8_t *w, int type, size_t len)
{
	if (len <= FJ_LEN_INLINE_MAX)
	{
		*w = FJ_TAG(type, len);
		return w + 1;
	}
	if (len <= 0xff)
	{
		w[0] = FJ_TAG(type, 28);
		w[1] = (uint8_t) len;
		return w + 2;
	}
	if (len <= 0xffff)
	{
		uint16_t	v = (uint16_t) len;

		w[0] = FJ_TAG(type, 29);
		memcpy(w + 1, &v, 2);
		return w + 3;
	}
	else
	{
		uint32_t	v = (uint32_t) len;

		w[0] = FJ_TAG(type, 30);
		memcpy(w + 1, &v, 4);
		return w + 5;
	}
}

/*
 * Whether the valid JSON number text s (not an int64 integer) is stored
 * PACKED: no exponent, at most FJ_PACKED_MAX characters.
 */
static inline bool
fj_number_packable(const uint8_t *s, size_t len)
{
	size_t		i;

	if (len > FJ_PACKED_MAX)
		return false;
	for (i = 0; i < len; i++)
		if ((s[i] | 0x20) == 'e')
			return false;
	return true;
}

/* Write the tag (and length byte) of a PACKED value of n characters at w; returns where its nibbles go. */
static inline uint8_t *
fj_put_packed_header(uint8_t *w, unsigned n)
{
	if (n <= FJ_LEN_INLINE_MAX)
		*w++ = FJ_TAG(FJ_PACKED, n);
	else
	{
		*w++ = FJ_TAG(FJ_PACKED, FJ_LEN_INLINE_MAX + 1);
		*w++ = (uint8_t) n;
	}
	return w;
}

/*
 * Write a PACKED value of the n-character number text s at w (writing up to
 * 3 bytes past it); returns the end.
 */
static inline uint8_t *
fj_put_packed(uint8_t *w, const uint8_t *s, unsigned n)
{
	w = fj_put_packed_header(w, n);
	fj_pack_number(w, s, n, s + n, fj_pack8);
	return w + (n + 1) / 2;
}

/* ---------------------------------------------------------- containers */

/* The most bytes a container header takes (reserved when it opens). */
#define FJ_CONTAINER_HEADER_MAX 9
/*
 * What the parser reserves for a container with no sibling to predict from
 * (see lead_guess in src/simd/stage2.h): the 2-byte-width header, right for
 * containers of 256 bytes to 64 KB.
 */
#define FJ_CONTAINER_HEADER_GUESS 5

/*
 * Finish a container whose header was reserved at hdr (FJ_CONTAINER_HEADER_MAX
 * bytes) and whose members run to end: pick the narrowest width, write the
 * header and the key index of a large object (before or after the members,
 * fj_key_index_first), moving the members to meet them. Returns the new end.
 * The caller guarantees space for the key index (5 bytes per member) and 8
 * more bytes after end. keys, if not NULL, holds
 * the position of each member's key relative to the first member (saves a
 * walk over the members).
 */
uint8_t    *fj_close_container(uint8_t *hdr, uint8_t *end, uint32_t count, int type,
								const uint32_t *keys);

/*
 * The same for reserved bytes at hdr (at least 1): the members move down
 * when fewer are needed, or up when more are (at most the key index and
 * 9 - reserved header bytes), which the caller must have room for.
 */
uint8_t    *fj_close_container_reserved(uint8_t *hdr, unsigned reserved, uint8_t *end,
										 uint32_t count, int type, const uint32_t *keys);

/* ------------------------------------------------------------- numbers */

/*
 * Write the valid JSON number text s in its one encoding (UINT/NINT,
 * PACKED or NUMBER) at w, which has room for len + 9 bytes; returns the end.
 */
uint8_t    *fj_put_number(uint8_t *w, const uint8_t *s, size_t len);

/* Whether s[0..len) is a JSON number; *int64 tells whether it is an integer that fits int64 (value in *v). */
bool		fj_number_parse(const uint8_t *s, size_t len, bool *int64, int64_t *v);

#endif							/* FJ_TAPE_WRITER_H */
