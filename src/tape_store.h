/*
 * tape_store.h — the stored form of a large tape: the tape cut into blocks
 * of FJ_STORE_BLOCK bytes, each compressed on its own with LZ4, behind an
 * index of where each block ends. Any byte range of the tape is read by
 * decompressing only the blocks that hold it, so a lookup in a large stored
 * document reads the root's header and key index (block 0) and the block of
 * the member it wants, never the rest (doc/format.md, section 7).
 *
 *   byte 0        0x80 | the tape's version (0x84): a stored tape, not a tape
 *                 (a tape's version byte never has bit 7 set)
 *   byte 1        the tape's flags byte (so readers need not decompress it)
 *   bytes 2-5     the tape's length (little-endian), header included
 *   byte 6        log2 of the block size: 14 (16 kB blocks), or 13 (8 kB,
 *                 as values stored before 16 kB blocks have it)
 *   byte 7        the method: 1 = LZ4, 2 = LZ4 and the root's keys, 3 = LZ4,
 *                 the root's keys and its tail; with FJ_STORE_WHITENED
 *                 (0x10) added (0x11, 0x12, 0x13), every byte from byte 8 to
 *                 the end is stored XORed with the keystream (below); other
 *                 values are errors
 *   methods 2, 3  1 byte n, then n bytes: when the root is an object without
 *                 a key index (1 to 8 members), n is its member count and the
 *                 bytes are the fingerprint of each member's key
 *                 (fj_key_fingerprint), in member order, so that a lookup of
 *                 a key the root lacks decompresses nothing; n is 0 for any
 *                 other root (method 3 only)
 *   method 3      1 byte t (1 to FJ_STORE_TAIL_MAX), then t bytes: the tape's
 *                 last t bytes, as they are: the root object's last members
 *                 (the tail), so that a lookup of one of them, past the
 *                 root's large members, decompresses only the bytes before
 *                 it that say where it starts
 *   then          nblocks = ceil((length - t) / block size) 4-byte entries:
 *                 the end of each block's data, counted from the start of
 *                 the data, bit 31 set when the block is stored as it is (raw)
 *   then          the blocks' data, one after another
 *
 * Block i decompresses to bytes [i * block size, min((i + 1) * block size,
 * length - t)) of the tape (t = 0 before method 3), which is an ordinary
 * tape of the version in byte 0 (src/tape.h).
 *
 * Whitened (FJ_STORE_WHITENED): the byte at offset o >= 8 of the stored
 * form is stored XORed with byte o mod 65536 of the keystream, the 65,536
 * bytes of 8,192 splitmix64 outputs (seed 0, each output's bytes lowest
 * first; fj_store_keystream). The stored bytes then look random to a
 * compressor, as compressed bytes should: PostgreSQL's pglz, asked to
 * compress a value whose row passes 2 kB, gives up after its first kilobyte
 * instead of working through all of it, and its lz4 finds nothing to take
 * out (LZ4 reaches back at most 65,535 bytes, less than the keystream's
 * period). The encoder whitens a stored form of FJ_STORE_WHITEN_MIN bytes
 * or more. PostgreSQL's attempt costs in proportion to a value's size
 * (pglz: 3 to 5 µs a kilobyte, measured), undoing the whitening about the
 * same for every lookup whatever the size (50 to 100 ns, for the start of
 * block 0 that most lookups read): from 3,000 bytes the attempt costs what
 * a couple of hundred lookups do. A shorter stored form, in its row or just
 * out of it, is not whitened. The readers undo it on the bytes they read
 * (doc/format.md, section 7).
 */
#ifndef FJ_TAPE_STORE_H
#define FJ_TAPE_STORE_H

#include "fj_core.h"
#include "tape.h"

#define FJ_STORE_MARK 0x80		/* bit 7 of the first byte: a stored tape */
#define FJ_STORE_HEADER 8
#define FJ_STORE_BLOCK_LOG2 14	/* the block size written: 16 kB */
#define FJ_STORE_BLOCK (1u << FJ_STORE_BLOCK_LOG2)
#define FJ_STORE_BLOCK_LOG2_MIN 13	/* the block sizes read: 8 kB (as earlier builds wrote) and 16 kB */
#define FJ_STORE_BLOCK_LOG2_MAX 14
#define FJ_STORE_METHOD_LZ4 1
#define FJ_STORE_METHOD_LZ4_KEYS 2	/* LZ4, and the keys of a small root object */
#define FJ_STORE_METHOD_LZ4_TAIL 3	/* LZ4, the root's keys (maybe none), its tail */
#define FJ_STORE_WHITENED 0x10	/* method flag: the bytes after the header XORed with the keystream */
#define FJ_STORE_WHITEN_MIN 3000	/* stored forms this long or longer are whitened */
#define FJ_STORE_KEYSTREAM (1u << 16)	/* the keystream's period */
#define FJ_STORE_TAIL_MAX 128	/* the longest tail kept as it is */
#define FJ_STORE_RAW 0x80000000u	/* block end flag: stored as it is */
#define FJ_STORE_MIN 800		/* shorter tapes are stored as they are */
#define FJ_STORE_TAPE_MAX 0x3ffffffbu	/* the longest tape stored: a PostgreSQL value of 1 GB less its header */
#define FJ_STORE_LZ4_RATIO_MAX 255	/* LZ4 puts out at most this many bytes for each byte it reads */
#define FJ_STORE_SMALL 2000		/* shorter tapes: in blocks only when a quarter smaller */
#define FJ_STORE_PROBE 256		/* ... and tried only when LZ4 makes their first bytes an eighth smaller */
#define FJ_STORE_LEVEL_FAST 1	/* the compression level: LZ4's fast mode ... */
#define FJ_STORE_LEVEL_MAX 12	/* ... 2 to 12: LZ4 HC at that level (the same blocks, read the same way) */

/* Whether the first byte of a datum's payload says it is a stored tape. */
static inline bool
fj_is_stored(uint8_t first)
{
	return (first & FJ_STORE_MARK) != 0;
}

/*
 * A stored tape's header, read and checked (fj_store_open). When whitened,
 * root_keys and tail point into the struct itself: use it where it was
 * filled in, never a copy of it.
 */
typedef struct fj_stored
{
	const uint8_t *root_keys;	/* methods 2, 3: the root keys' fingerprints; else NULL */
	uint32_t	nroot_keys;		/* how many */
	const uint8_t *tail;		/* method 3: the tape's last tail_len bytes; else NULL */
	uint32_t	tail_len;
	uint32_t	blocks_len;		/* the tape bytes the blocks hold: tape_len - tail_len */
	uint32_t	index_at;		/* where the block index starts in the stored form */
	const uint8_t *ends;		/* nblocks 4-byte block ends */
	const uint8_t *data;		/* the blocks' data */
	size_t		data_len;
	uint32_t	tape_len;		/* the tape's length */
	uint32_t	nblocks;
	uint8_t		version;		/* the tape's version byte */
	uint8_t		flags;			/* the tape's flags byte */
	uint8_t		block_log2;		/* log2 of the block size */
	bool		whitened;		/* FJ_STORE_WHITENED: the bytes after the header are XORed */
	/* whitened: the root's keys and the tail, undone (root_keys and tail point here) */
	uint8_t		root_keys_clear[FJ_KEY_INDEX_MIN];
	uint8_t		tail_clear[FJ_STORE_TAIL_MAX];
} fj_stored;

/*
 * The keystream that whitened stored forms are XORed with: FJ_STORE_KEYSTREAM
 * bytes, made on first use (not for concurrent threads' first use).
 */
const uint8_t *fj_store_keystream(void);

/* Where block i starts in the tape, and which block holds tape offset off. */
static inline size_t
fj_store_block_start(const fj_stored *s, uint32_t i)
{
	return (size_t) i << s->block_log2;
}

static inline uint32_t
fj_store_block_of(const fj_stored *s, size_t off)
{
	return (uint32_t) (off >> s->block_log2);
}

/*
 * Store the tape[0..len) (a valid tape of at least FJ_STORE_MIN bytes):
 * out gets prefix reserved bytes, then the stored form. Returns false (out
 * released) when the stored form would not be at least an eighth smaller
 * (a quarter, for a tape under FJ_STORE_SMALL bytes, which is not tried at
 * all unless its first FJ_STORE_PROBE bytes compress by an eighth), or on an
 * allocation failure: the tape is then kept as it is. level: the blocks'
 * compression, FJ_STORE_LEVEL_FAST (LZ4) to FJ_STORE_LEVEL_MAX (LZ4 HC);
 * every level writes blocks that any LZ4 decoder reads, so it changes how
 * long storing takes and how small the value is, never how it is read. The
 * HC levels keep one LZ4 HC state for the process (about 256 kB, allocated
 * with malloc on first use), so they are not for concurrent threads.
 */
bool		fj_store_encode(const uint8_t *tape, size_t len, int level, const fj_allocator *a,
							size_t prefix, fj_buf *out);

/*
 * Whether fj_store_encode would try to store tape[0..len) in blocks: false
 * when it is too short, or under FJ_STORE_SMALL bytes and its first
 * FJ_STORE_PROBE bytes do not compress by an eighth (the same probe, at any
 * level). Such a tape is always kept as it is.
 */
bool		fj_store_worth_trying(const uint8_t *tape, size_t len);

/*
 * Read the header of a stored tape of len bytes, checking every field, the
 * block ends included (untrusted input is safe to pass).
 */
fj_code		fj_store_open(const uint8_t *stored, size_t len, fj_stored *s, fj_error *err);

/*
 * Open a stored tape of which only the first have bytes (of stored_len) are
 * at hand, for reading it a block at a time: the header and the whole block
 * index must be among them, and are checked as fj_store_open checks them;
 * s->data then points where the data starts, whether or not it is at hand.
 */
fj_code		fj_store_open_prefix(const uint8_t *stored, size_t have, size_t stored_len,
								 fj_stored *s, fj_error *err);

/*
 * How many bytes of a stored tape come before its block index, from its first
 * have bytes: the header, with methods 2 and 3 the root's keys, with method 3
 * the tail; 0 when have is too short to say.
 */
size_t		fj_store_index_at(const uint8_t *stored, size_t have);

/*
 * Whether the root of s may have the key key[0..len): false only when s
 * carries its root's keys (method 2) and none has the key's fingerprint, so
 * that the root, an object, surely lacks it.
 */
bool		fj_store_root_may_have(const fj_stored *s, const char *key, size_t len);

/* Where block i's data is: bytes [*start, *end) of s->data. */
void		fj_store_block_range(const fj_stored *s, uint32_t i, size_t *start, size_t *end);

/*
 * Decompress block i, whose data starts at data (s->data + its start, or a
 * copy of it fetched elsewhere), into tape + i * FJ_STORE_BLOCK (tape has
 * room for s->tape_len bytes). FJ_ERR_TAPE when the data is damaged: it must
 * decompress to exactly the block's size.
 */
fj_code		fj_store_decode_block_at(const fj_stored *s, uint32_t i, const uint8_t *data, uint8_t *tape,
									 fj_error *err);

/*
 * Decompress block i by prefix: at least its first want bytes (want at most
 * the block's size), into their place in tape, from data[0..avail), the
 * start of the block's data (all of it, or a prefix fetched on its own).
 * *got gets how many bytes from the block's start are there. With all of
 * the block's data, *got is at least want (FJ_ERR_TAPE when the data does
 * not give them); with a prefix of it, *got may be less (0 included): the
 * caller needs more of the data.
 */
fj_code		fj_store_decode_block_prefix(const fj_stored *s, uint32_t i, const uint8_t *data, size_t avail,
										 size_t want, uint8_t *tape, size_t *got, fj_error *err);

/* The size of block i. */
uint32_t	fj_store_block_size(const fj_stored *s, uint32_t i);

/* The same with the data where s says it is. */
fj_code		fj_store_decode_block(const fj_stored *s, uint32_t i, uint8_t *tape, fj_error *err);

/* The same for every block, and the tail: the whole tape. */
fj_code		fj_store_decode(const fj_stored *s, uint8_t *tape, fj_error *err);

#endif							/* FJ_TAPE_STORE_H */
