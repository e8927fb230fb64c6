/*
 * tape_store.c — the stored form of a large tape (tape_store.h): blocks of
 * the tape compressed on their own with LZ4, and an index of their ends.
 */
#include "tape_store.h"
#include "tape.h"

#include <lz4.h>
#include <lz4hc.h>
#include <string.h>

/* The size of block i of blocks of 2^log2 bytes holding len bytes of a tape. */
static inline uint32_t
block_size(uint32_t len, unsigned log2, uint32_t i)
{
	uint32_t	from = i << log2;

	return len - from < (1u << log2) ? len - from : 1u << log2;
}

static inline void
store32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* ---------------------------------------------------------- whitening */

/* 16 bytes XORed at once (SSE2, NEON, or what the compiler makes of it elsewhere) */
typedef uint8_t fj_bytes16 __attribute__((vector_size(16)));

/* its first 64 bytes again at the end: 16 bytes from any offset are read in one load */
static uint8_t keystream[FJ_STORE_KEYSTREAM + 64];
static bool keystream_made;

static void
make_keystream(void)
{
	uint64_t	x = 0;
	size_t		i,
				j;

	/* splitmix64 from seed 0, each output's bytes lowest first */
	for (i = 0; i < FJ_STORE_KEYSTREAM; i += 8)
	{
		uint64_t	z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		for (j = 0; j < 8; j++)
			keystream[i + j] = (uint8_t) (z >> (8 * j));
	}
	memcpy(keystream + FJ_STORE_KEYSTREAM, keystream, 64);
	keystream_made = true;
}

static inline const uint8_t *
get_keystream(void)
{
	if (__builtin_expect(!keystream_made, 0))
		make_keystream();
	return keystream;
}

const uint8_t *
fj_store_keystream(void)
{
	return get_keystream();
}

/*
 * dst[0..n) = src[0..n) XOR the keystream from stored offset at on (dst may
 * be src): whitens and undoes it alike.
 */
static void
whiten(uint8_t *dst, const uint8_t *src, size_t n, size_t at)
{
	const uint8_t *k = get_keystream();
	size_t		i = 0;

	for (; i + 32 <= n; i += 32)
	{
		fj_bytes16	a,
					b,
					c,
					d;
		size_t		o = (at + i) & (FJ_STORE_KEYSTREAM - 1);

		memcpy(&a, src + i, 16);
		memcpy(&b, src + i + 16, 16);
		memcpy(&c, k + o, 16);
		memcpy(&d, k + ((o + 16) & (FJ_STORE_KEYSTREAM - 1)), 16);
		a ^= c;
		b ^= d;
		memcpy(dst + i, &a, 16);
		memcpy(dst + i + 16, &b, 16);
	}
	for (; i < n; i++)
		dst[i] = src[i] ^ k[(at + i) & (FJ_STORE_KEYSTREAM - 1)];
}

/* The byte at stored offset at, as written (b is what is stored there). */
static inline uint8_t
clear_byte(bool whitened, uint8_t b, size_t at)
{
	return whitened ? b ^ get_keystream()[at & (FJ_STORE_KEYSTREAM - 1)] : b;
}

/*
 * dst[0..n) = the n bytes of s at stored offset at, src[0..n), as written:
 * undone when s is whitened, else copied.
 */
static inline void
copy_clear(const fj_stored *s, uint8_t *dst, const uint8_t *src, size_t n, size_t at)
{
	if (s->whitened)
		whiten(dst, src, n, at);
	else
		memcpy(dst, src, n);
}

/* The end of block i, from the block index, as written. */
static inline uint32_t
block_end(const fj_stored *s, uint32_t i)
{
	uint32_t	e;

	memcpy(&e, s->ends + (size_t) i * 4, 4);
	if (s->whitened)
	{
		uint32_t	k;

		memcpy(&k, get_keystream() + ((s->index_at + (size_t) i * 4) & (FJ_STORE_KEYSTREAM - 1)), 4);
		e ^= k;
	}
	return e;
}

/*
 * The most bytes of a block's LZ4 data that decoding its first w bytes
 * reads, with what LZ4 (1.9.3 and later) wants left after them. Every
 * sequence but the last puts out at least 4 bytes (a match is 4 or more) for
 * its literals and at most 3 bytes more (token, offset) and a byte of length
 * for each 255 bytes it puts out, so the sequences wholly within the first w
 * bytes take at most w + 3w/4 + w/255 + 2 bytes; the sequence that reaches
 * past w reads its token, literal length, literals up to w, offset and match
 * length, whose length bytes say up to a block's size: at most 3 + 2 * (1 +
 * 2^14 / 255) more. LZ4 then wants 15 bytes left after a literal length of
 * several bytes, 3 after literals and 4 after a match length before it goes
 * on. 2w + 192 covers all of it.
 */
#define PREFIX_READ_MAX(w) (2 * (size_t) (w) + 192)

/* Where block i's data starts in the stored form. */
static inline size_t
block_data_at(const fj_stored *s, size_t start)
{
	return s->index_at + (size_t) s->nblocks * 4 + start;
}

/*
 * The size of the value at p when its head and all of it lie before end, else
 * 0 (a tape decompressed from a stored one is not yet trusted). A NUMBER tag
 * with immediate 31 has no length form (the validator rejects it) and gives 0
 * before its length is read.
 */
static size_t
bounded_value_size(const uint8_t *p, const uint8_t *end)
{
	size_t		n;

	if (p >= end || (FJ_TYPE(p[0]) == FJ_NUMBER && FJ_IMM(p[0]) == 31) ||
		(size_t) (end - p) < fj_value_head_size(p[0]))
		return 0;
	n = fj_value_size(p);
	return n <= (size_t) (end - p) ? n : 0;
}

/*
 * The fingerprints of the keys of root, an object without a key index, into
 * fps (FJ_KEY_INDEX_MIN bytes); returns how many, or 0 for any other root.
 * keys_end, when not NULL, bounds the bytes that may be read (a tape
 * decompressed from a stored one, not yet validated).
 */
static uint32_t
root_key_fingerprints(const uint8_t *root, const uint8_t *keys_end, uint8_t *fps)
{
	const uint8_t *p,
			   *end;
	uint32_t	n = 0,
				count;
	size_t		size;

	if (FJ_TYPE(root[0]) != FJ_OBJECT || (FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED) ||
		(count = fj_container_count(root)) == 0 || count > FJ_KEY_INDEX_MIN)
		return 0;
	p = fj_container_members(root);
	end = fj_container_members_end(root);
	if (keys_end && end > keys_end)
		return 0;
	while (p < end && n < count)
	{
		const uint8_t *key;
		uint32_t	klen;

		/* its key, a STRING that is not a reference, then its value */
		if (FJ_TYPE(p[0]) != FJ_STRING || p[0] == FJ_STRING_REF || bounded_value_size(p, end) == 0)
			return 0;
		klen = fj_text(p, &key);
		fps[n++] = fj_key_fingerprint(key, klen);
		p = key + klen;
		if ((size = bounded_value_size(p, end)) == 0)
			return 0;
		p += size;
	}
	return n == count && p == end ? n : 0;
}

/*
 * Where the tail of tape[0..len) starts (tape_store.h, method 3): the first
 * of the root object's last members that together take at most
 * FJ_STORE_TAIL_MAX bytes, run to the tape's end and hold no string
 * reference that points out of them (so a lookup of one needs nothing
 * before it but where it starts); len when there is none: the root is not
 * an object, its key index follows its members, or its last member is too
 * long or refers back. *member, when not NULL, gets whether offset at is
 * where one of the root's members starts. Every read is bounded by len (a
 * tape decompressed from a stored one is not yet trusted).
 */
static size_t
root_tail_at(const uint8_t *tape, size_t len, size_t at, bool *member)
{
	const uint8_t *root = tape + FJ_TAPE_HEADER,
			   *end = tape + len,
			   *p;
	size_t		tail = len;
	bool		seen = false;

	if (member)
		*member = false;
	if (len <= FJ_TAPE_HEADER || FJ_TYPE(root[0]) != FJ_OBJECT ||
		(size_t) (end - root) < fj_value_head_size(root[0]) ||
		fj_value_size(root) != (size_t) (end - root))
		return len;
	/* an index after the members (a large object) ends the tape instead of them */
	if (fj_container_members_end(root) != end ||
		(size_t) (fj_container_members(root) - root) > (size_t) (end - root))
		return len;
	p = fj_container_members(root);
	while (p < end)
	{
		const uint8_t *m = p;
		bool		whole = true;
		int			part;

		seen = seen || (size_t) (m - tape) == at;
		/* its key, then its value */
		for (part = 0; part < 2; part++)
		{
			size_t		n = bounded_value_size(p, end);

			if (n == 0)
				return len;
			whole = whole && fj_value_self_contained(p);
			p += n;
		}
		if (!whole)
			tail = len;
		else if (tail == len && (size_t) (end - m) <= FJ_STORE_TAIL_MAX)
			tail = (size_t) (m - tape);
	}
	if (member)
		*member = seen;
	return tail;
}

/*
 * Whether a tape under FJ_STORE_SMALL bytes is worth compressing: whether
 * LZ4 makes its first FJ_STORE_PROBE bytes an eighth smaller. Such a tape
 * is stored in blocks only when that saves a quarter of it, which most
 * small documents that repeat little (a generated log's rows, say) do not
 * reach; this probe, at about a quarter of the cost of compressing a
 * kilobyte, turns them away first (doc/format.md, section 7).
 */
static bool
worth_trying(const uint8_t *tape)
{
	char		probe[LZ4_COMPRESSBOUND(FJ_STORE_PROBE)];
	int			c = LZ4_compress_default((const char *) tape, probe, FJ_STORE_PROBE, (int) sizeof(probe));

	return c > 0 && c <= FJ_STORE_PROBE - FJ_STORE_PROBE / 8;
}

bool
fj_store_worth_trying(const uint8_t *tape, size_t len)
{
	return len >= FJ_STORE_MIN && len <= FJ_STORE_TAPE_MAX && (len >= FJ_STORE_SMALL || worth_trying(tape));
}

/*
 * One block of n bytes at src compressed into dst (room for
 * LZ4_compressBound(n)) at the level: its size, or 0 when LZ4 failed (the
 * HC state could not be allocated, say). Each block is compressed on its
 * own, with nothing of the one before as history, at every level.
 */
static int
compress_block(const char *src, char *dst, int n, int level)
{
	static LZ4_streamHC_t *hc;

	if (level <= FJ_STORE_LEVEL_FAST)
		return LZ4_compress_default(src, dst, n, LZ4_compressBound(n));
	if (hc == NULL && (hc = LZ4_createStreamHC()) == NULL)
		return 0;
	/* forgets the last block without clearing the tables (LZ4's own fast reset) */
	LZ4_resetStreamHC_fast(hc, level > FJ_STORE_LEVEL_MAX ? FJ_STORE_LEVEL_MAX : level);
	return LZ4_compress_HC_continue(hc, src, dst, n, LZ4_compressBound(n));
}

bool
fj_store_encode(const uint8_t *tape, size_t len, int level, const fj_allocator *a, size_t prefix,
				fj_buf *out)
{
	uint32_t	nblocks,
				i,
				end = 0,
				nkeys,
				blocks_len;
	size_t		index,
				index_at,
				tail,
				bound;
	uint8_t    *head,
			   *data,
				fps[FJ_KEY_INDEX_MIN];

	memset(out, 0, sizeof(*out));
	if (!fj_store_worth_trying(tape, len))
		return false;
	nkeys = root_key_fingerprints(tape + FJ_TAPE_HEADER, NULL, fps);
	tail = len - root_tail_at(tape, len, 0, NULL);
	blocks_len = (uint32_t) (len - tail);
	nblocks = (blocks_len + FJ_STORE_BLOCK - 1) >> FJ_STORE_BLOCK_LOG2;
	index = (size_t) nblocks * 4;
	index_at = FJ_STORE_HEADER + (nkeys || tail ? 1 + nkeys : 0) + (tail ? 1 + tail : 0);
	/* every block at its worst (stored raw) fits: no growth while writing */
	bound = prefix + index_at + index + (size_t) LZ4_compressBound(FJ_STORE_BLOCK) * nblocks;
	if (!fj_buf_reserve(a, out, bound))
		return false;
	head = out->data + prefix;
	data = head + index_at + index;
	head[0] = FJ_STORE_MARK | tape[0];
	head[1] = tape[1];
	store32(head + 2, (uint32_t) len);
	head[6] = FJ_STORE_BLOCK_LOG2;
	head[7] = tail ? FJ_STORE_METHOD_LZ4_TAIL : nkeys ? FJ_STORE_METHOD_LZ4_KEYS : FJ_STORE_METHOD_LZ4;
	if (nkeys || tail)
	{
		head[FJ_STORE_HEADER] = (uint8_t) nkeys;
		memcpy(head + FJ_STORE_HEADER + 1, fps, nkeys);
	}
	if (tail)
	{
		head[FJ_STORE_HEADER + 1 + nkeys] = (uint8_t) tail;
		memcpy(head + FJ_STORE_HEADER + 2 + nkeys, tape + blocks_len, tail);
	}
	for (i = 0; i < nblocks; i++)
	{
		uint32_t	n = block_size(blocks_len, FJ_STORE_BLOCK_LOG2, i);
		const char *src = (const char *) tape + ((size_t) i << FJ_STORE_BLOCK_LOG2);
		int			c = compress_block(src, (char *) data + end, (int) n, level);

		if (c > 0 && (uint32_t) c < n)
			end += (uint32_t) c;
		else
		{
			memcpy(data + end, src, n);
			end += n;
		}
		store32(head + index_at + (size_t) i * 4, end | (c > 0 && (uint32_t) c < n ? 0 : FJ_STORE_RAW));
	}
	out->len = prefix + index_at + index + end;
	if (index_at + index + end > len - len / (len < FJ_STORE_SMALL ? 4 : 8))
	{
		fj_buf_release(a, out);
		return false;
	}
	if (index_at + index + end >= FJ_STORE_WHITEN_MIN)
	{
		head[7] |= FJ_STORE_WHITENED;
		whiten(head + FJ_STORE_HEADER, head + FJ_STORE_HEADER, index_at + index + end - FJ_STORE_HEADER,
			   FJ_STORE_HEADER);
	}
	return true;
}

fj_code
fj_store_open(const uint8_t *stored, size_t len, fj_stored *s, fj_error *err)
{
	return fj_store_open_prefix(stored, len, len, s, err);
}

size_t
fj_store_index_at(const uint8_t *stored, size_t have)
{
	size_t		keys_end;
	uint8_t		method;
	bool		whitened;

	if (have < FJ_STORE_HEADER)
		return 0;
	method = stored[7] & ~FJ_STORE_WHITENED;
	whitened = (stored[7] & FJ_STORE_WHITENED) != 0;
	if (method != FJ_STORE_METHOD_LZ4_KEYS && method != FJ_STORE_METHOD_LZ4_TAIL)
		return FJ_STORE_HEADER;
	if (have <= FJ_STORE_HEADER)
		return 0;
	keys_end = FJ_STORE_HEADER + 1 + (size_t) clear_byte(whitened, stored[FJ_STORE_HEADER], FJ_STORE_HEADER);
	if (method == FJ_STORE_METHOD_LZ4_KEYS)
		return keys_end;
	return have > keys_end ? keys_end + 1 + (size_t) clear_byte(whitened, stored[keys_end], keys_end) : 0;
}

fj_code
fj_store_open_prefix(const uint8_t *stored, size_t have, size_t len, fj_stored *s, fj_error *err)
{
	uint32_t	i,
				prev = 0,
				nblocks;
	size_t		index_at;
	uint8_t		method;

	fj_error_clear(err);
	if (have > len)
		have = len;
	if (have < FJ_STORE_HEADER || !fj_is_stored(stored[0]))
		return fj_fail(err, FJ_R_STORE_SHORT, 0);
	if (!fj_tape_version_readable(stored[0] & ~FJ_STORE_MARK))
		return fj_fail(err, FJ_R_TAPE_VERSION, 0);
	method = stored[7] & ~FJ_STORE_WHITENED;
	if (stored[6] < FJ_STORE_BLOCK_LOG2_MIN || stored[6] > FJ_STORE_BLOCK_LOG2_MAX ||
		(method != FJ_STORE_METHOD_LZ4 && method != FJ_STORE_METHOD_LZ4_KEYS &&
		 method != FJ_STORE_METHOD_LZ4_TAIL))
		return fj_fail(err, FJ_R_STORE_METHOD, 6);
	s->whitened = (stored[7] & FJ_STORE_WHITENED) != 0;
	memcpy(&s->tape_len, stored + 2, 4);
	if (s->tape_len < FJ_STORE_MIN || s->tape_len > FJ_STORE_TAPE_MAX)
		return fj_fail(err, FJ_R_STORE_LENGTH, 2);
	s->root_keys = NULL;
	s->nroot_keys = 0;
	s->tail = NULL;
	s->tail_len = 0;
	index_at = fj_store_index_at(stored, have);
	if (index_at == 0 || index_at > have)
		return fj_fail(err, FJ_R_STORE_SHORT, FJ_STORE_HEADER);
	if (method != FJ_STORE_METHOD_LZ4)
	{
		s->nroot_keys = clear_byte(s->whitened, stored[FJ_STORE_HEADER], FJ_STORE_HEADER);
		/* method 3 may list no keys (a root with a key index), method 2 must */
		if (s->nroot_keys > FJ_KEY_INDEX_MIN || (s->nroot_keys == 0 && method == FJ_STORE_METHOD_LZ4_KEYS))
			return fj_fail(err, FJ_R_STORE_KEYS, FJ_STORE_HEADER);
		s->root_keys = s->nroot_keys ? stored + FJ_STORE_HEADER + 1 : NULL;
		if (s->root_keys && s->whitened)
		{
			whiten(s->root_keys_clear, s->root_keys, s->nroot_keys, FJ_STORE_HEADER + 1);
			s->root_keys = s->root_keys_clear;
		}
	}
	if (method == FJ_STORE_METHOD_LZ4_TAIL)
	{
		size_t		t_at = FJ_STORE_HEADER + 1 + s->nroot_keys;

		s->tail_len = clear_byte(s->whitened, stored[t_at], t_at);
		s->tail = stored + t_at + 1;
		if (s->tail_len == 0 || s->tail_len > FJ_STORE_TAIL_MAX)
			return fj_fail(err, FJ_R_STORE_TAIL, t_at);
		if (s->whitened)
		{
			whiten(s->tail_clear, s->tail, s->tail_len, t_at + 1);
			s->tail = s->tail_clear;
		}
	}
	/* FJ_STORE_MIN > FJ_STORE_TAIL_MAX: the blocks hold the tape's header */
	s->blocks_len = s->tape_len - s->tail_len;
	s->block_log2 = stored[6];
	nblocks = (s->blocks_len + (1u << s->block_log2) - 1) >> s->block_log2;
	if ((have - index_at) / 4 < nblocks)
		return fj_fail(err, FJ_R_STORE_SHORT, index_at);
	s->index_at = (uint32_t) index_at;
	s->nblocks = nblocks;
	s->version = stored[0] & ~FJ_STORE_MARK;
	s->flags = stored[1];
	s->ends = stored + index_at;
	s->data = s->ends + (size_t) nblocks * 4;
	s->data_len = len - index_at - (size_t) nblocks * 4;
	for (i = 0; i < nblocks; i++)
	{
		uint32_t	e = block_end(s, i),
					n = block_size(s->blocks_len, s->block_log2, i);

		/*
		 * The ends never go back, and the last is the end of the data. A raw
		 * block is exactly its size. A compressed one is at least what LZ4
		 * needs to put out its size (so that a few bytes cannot claim a tape
		 * of a gigabyte), and, whitened, smaller than its size: the encoder
		 * keeps a block raw otherwise, and readers undo its data into a
		 * buffer of a block's size.
		 */
		if ((e & ~FJ_STORE_RAW) < prev || (e & ~FJ_STORE_RAW) > s->data_len ||
			(i == nblocks - 1 && (e & ~FJ_STORE_RAW) != s->data_len))
			return fj_fail(err, FJ_R_STORE_BLOCKS, index_at + (size_t) i * 4);
		if ((e & FJ_STORE_RAW) ? (e & ~FJ_STORE_RAW) - prev != n :
			(uint64_t) (e - prev) * FJ_STORE_LZ4_RATIO_MAX < n || (s->whitened && e - prev > n))
			return fj_fail(err, FJ_R_STORE_BLOCKS, index_at + (size_t) i * 4);
		prev = e & ~FJ_STORE_RAW;
	}
	return FJ_OK;
}

void
fj_store_block_range(const fj_stored *s, uint32_t i, size_t *start, size_t *end)
{
	*start = i > 0 ? block_end(s, i - 1) & ~FJ_STORE_RAW : 0;
	*end = block_end(s, i) & ~FJ_STORE_RAW;
}

/*
 * fj_store_decode_block_at, with clear (FJ_STORE_BLOCK bytes, the largest
 * block) to undo a whitened block's data in.
 */
static fj_code
decode_block_whole(const fj_stored *s, uint32_t i, const uint8_t *data, uint8_t *tape, uint8_t *clear,
				   fj_error *err)
{
	size_t		start,
				end;
	uint32_t	n = block_size(s->blocks_len, s->block_log2, i),
				e = block_end(s, i);
	uint8_t    *dst = tape + fj_store_block_start(s, i);

	fj_store_block_range(s, i, &start, &end);
	if (e & FJ_STORE_RAW)
	{
		copy_clear(s, dst, data, n, block_data_at(s, start));
		return FJ_OK;
	}
	if (s->whitened)
	{
		/* fj_store_open_prefix saw that it fits in clear */
		whiten(clear, data, end - start, block_data_at(s, start));
		data = clear;
	}
	if (LZ4_decompress_safe((const char *) data, (char *) dst, (int) (end - start), (int) n) != (int) n)
		return fj_fail(err, FJ_R_STORE_BLOCK, block_data_at(s, start));
	return FJ_OK;
}

fj_code
fj_store_decode_block_at(const fj_stored *s, uint32_t i, const uint8_t *data, uint8_t *tape, fj_error *err)
{
	uint8_t		clear[1 << FJ_STORE_BLOCK_LOG2_MAX];

	return decode_block_whole(s, i, data, tape, clear, err);
}

uint32_t
fj_store_block_size(const fj_stored *s, uint32_t i)
{
	return block_size(s->blocks_len, s->block_log2, i);
}

fj_code
fj_store_decode_block_prefix(const fj_stored *s, uint32_t i, const uint8_t *data, size_t avail,
							 size_t want, uint8_t *tape, size_t *got, fj_error *err)
{
	const uint8_t *in = data;	/* the block's data as stored */
	size_t		start,
				end,
				size,
				read;
	uint32_t	n = block_size(s->blocks_len, s->block_log2, i),
				e = block_end(s, i);
	uint8_t    *dst = tape + fj_store_block_start(s, i);
	bool		all;
	int			r;
	uint8_t		clear[1 << FJ_STORE_BLOCK_LOG2_MAX];

	fj_store_block_range(s, i, &start, &end);
	size = end - start;
	all = avail >= size;
	if (all)
		avail = size;
	if (want > n)
		want = n;
	if (e & FJ_STORE_RAW)
	{
		/* as it is: every byte at hand is a byte of the block */
		copy_clear(s, dst, data, avail, block_data_at(s, start));
		*got = avail;
		return FJ_OK;
	}
	if (all && want == n)
	{
		*got = n;
		return decode_block_whole(s, i, data, tape, clear, err);
	}
	/*
	 * Whitened: only the bytes that the first want bytes come from are
	 * undone: an eighth more than want and 64 bytes first, and, should LZ4
	 * want more, all that it may read for them. The start of a block hardly
	 * compresses (it has no history yet): on the benchmark's logs, LZ4 read
	 * more than want / 2 + 64 bytes for nearly every first 256 bytes, and
	 * never more than the first try's bytes.
	 */
	read = avail;
	if (s->whitened)
	{
		size_t		first = want + want / 8 + 64;

		/* fj_store_open_prefix saw that size <= n: it fits in clear */
		if (read > first)
		{
			whiten(clear, data, first, block_data_at(s, start));
			r = LZ4_decompress_safe_partial((const char *) clear, (char *) dst, (int) first, (int) want, (int) n);
			if (r == (int) want)
			{
				*got = want;
				return FJ_OK;
			}
			if (read > PREFIX_READ_MAX(want))
				read = PREFIX_READ_MAX(want);
			whiten(clear + first, data + first, read - first, block_data_at(s, start) + first);
		}
		else
			whiten(clear, data, read, block_data_at(s, start));
		data = clear;
	}

	/*
	 * LZ4 stops once want bytes are out; from a prefix of the data it stops
	 * where the data does (or, cut inside a sequence, says it is malformed):
	 * what it gave is then the start of the block, and more data is needed.
	 */
	r = LZ4_decompress_safe_partial((const char *) data, (char *) dst, (int) read, (int) want, (int) n);
	if (all && r != (int) want && read < avail)
	{
		/*
		 * An LZ4 before 1.9.3 does not decode from the start of a block's
		 * data when the cut falls inside a run of literals: with all of it
		 * at hand, all of it is undone and decoded from.
		 */
		whiten(clear + read, in + read, avail - read, block_data_at(s, start) + read);
		r = LZ4_decompress_safe_partial((const char *) clear, (char *) dst, (int) avail, (int) want, (int) n);
	}
	if (all && r != (int) want)
		return fj_fail(err, FJ_R_STORE_BLOCK, block_data_at(s, start));
	*got = r > 0 ? (size_t) r : 0;
	return FJ_OK;
}

fj_code
fj_store_decode_block(const fj_stored *s, uint32_t i, uint8_t *tape, fj_error *err)
{
	size_t		start,
				end;

	fj_store_block_range(s, i, &start, &end);
	return fj_store_decode_block_at(s, i, s->data + start, tape, err);
}

fj_code
fj_store_decode(const fj_stored *s, uint8_t *tape, fj_error *err)
{
	uint32_t	i;
	fj_code		rc;

	for (i = 0; i < s->nblocks; i++)
		if ((rc = fj_store_decode_block(s, i, tape, err)) != FJ_OK)
			return rc;
	if (s->tail)
		memcpy(tape + s->blocks_len, s->tail, s->tail_len);
	/* the version and flags bytes in the header are the tape's own, and so are the root's keys */
	if (tape[0] != s->version || tape[1] != s->flags)
		return fj_fail(err, FJ_R_STORE_FLAGS, 1);
	if (s->root_keys)
	{
		uint8_t		fps[FJ_KEY_INDEX_MIN];

		if (s->tape_len <= FJ_TAPE_HEADER ||
			root_key_fingerprints(tape + FJ_TAPE_HEADER, tape + s->tape_len, fps) != s->nroot_keys ||
			memcmp(fps, s->root_keys, s->nroot_keys) != 0)
			return fj_fail(err, FJ_R_STORE_KEYS, FJ_STORE_HEADER);
	}
	if (s->tail)
	{
		bool		member;

		/* the tail is where one of the root's members starts, and runs to the end */
		(void) root_tail_at(tape, s->tape_len, s->blocks_len, &member);
		if (!member)
			return fj_fail(err, FJ_R_STORE_TAIL, FJ_STORE_HEADER + 1 + s->nroot_keys);
	}
	return FJ_OK;
}

bool
fj_store_root_may_have(const fj_stored *s, const char *key, size_t len)
{
	uint8_t		fp;
	uint32_t	i;

	if (!s->root_keys)
		return true;
	fp = fj_key_fingerprint((const uint8_t *) key, len);
	for (i = 0; i < s->nroot_keys; i++)
		if (s->root_keys[i] == fp)
			return true;
	return false;
}
