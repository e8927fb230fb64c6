/*
 * pglz_prefix.h — decode a prefix of PostgreSQL's pglz-compressed data, and
 * more of it later without starting again.
 *
 * A lookup in a value that PostgreSQL compressed in its row needs only the
 * first bytes of the tape: the root's header and key index and the members
 * up to the one it wants. PostgreSQL can decompress a prefix, but each longer
 * prefix starts again from the beginning; a lookup that learns what it needs
 * step by step (the root, then a member, then a member of that) would
 * decompress the start many times. fj_pglz keeps its place: each call
 * produces more, from where the last call stopped.
 *
 * The format (PostgreSQL's src/common/pg_lzcompress.c): a control byte, then
 * up to 8 items, one per control bit from the lowest: bit 0 a literal byte;
 * bit 1 a tag of 2 or 3 bytes that copies 3 to 273 bytes from 1 to 4095 bytes
 * back in the output (the low 4 bits of the first byte are the length - 3,
 * 15 meaning a third byte adds 0-255; the high 4 bits and the second byte the
 * offset). The input is untrusted (a damaged page): every read and copy is
 * bounded, and a tag that points before the start is an error.
 *
 * Plain C, no PostgreSQL headers.
 */
#ifndef FJ_PGLZ_PREFIX_H
#define FJ_PGLZ_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fj_pglz
{
	const uint8_t *src;			/* next compressed byte */
	const uint8_t *src_end;
	uint8_t    *out;			/* the output, out_cap (the raw size) bytes */
	size_t		out_len;		/* produced so far */
	size_t		out_cap;
	unsigned	ctrl;			/* the current control byte, shifted */
	unsigned	ctrl_left;		/* its bits not used yet */
} fj_pglz;

/* Bytes the output must have after its rawsize, for 8-byte copies. */
#define FJ_PGLZ_SLACK 8

/* Start decoding srclen compressed bytes into out, of rawsize + FJ_PGLZ_SLACK bytes. */
void		fj_pglz_init(fj_pglz *z, const uint8_t *src, size_t srclen, uint8_t *out, size_t rawsize);

/*
 * Decode until at least want bytes are out (or all rawsize of them, or the
 * input ends); false when the input is corrupt. out_len may pass want by up
 * to one tag's length.
 */
bool		fj_pglz_decode(fj_pglz *z, size_t want);

#endif							/* FJ_PGLZ_PREFIX_H */
