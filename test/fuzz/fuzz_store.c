/*
 * fuzz_store.c — libFuzzer target for the stored form of large tapes
 * (src/tape_store.h): the reader, on damaged or hostile bytes, and the
 * writer, at every compression level, on whatever the input parses to.
 *
 * For each input:
 *   - as a stored value (when its first byte says it is one): fj_store_open,
 *     and fj_store_open_prefix on prefixes of it, must fail cleanly or accept;
 *     for what they accept, decoding whole, block by block and by prefix
 *     (several cuts of each block's data, several wants) must not crash, read
 *     out of bounds (ASan) or write past the tape, and must give no more than
 *     the block and, from all of its data, what was wanted;
 *   - as JSON: when it parses to a tape of FJ_STORE_MIN bytes or more,
 *     fj_store_encode at the fast level and at an LZ4 HC level chosen from
 *     the input must give a value that opens, decodes (whole, block by
 *     block, by prefix, each prefix the block's start) to exactly the tape,
 *     and is no larger than the rules allow; the stored value with a few
 *     bytes changed (chosen from the input) then goes through the reader as
 *     hostile bytes.
 *
 * Seeds: the JSON seeds of fuzz_parse (fuzz.mk), which the mutations turn
 * into documents that repeat, and into stored values through the writer.
 */
#include "fuzz_common.h"
#include "../../src/tape_store.h"

#include <stdbool.h>

#define MAX_TAPE ((size_t) 1 << 22)	/* a hostile header may claim more: not decoded */

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decode s (opened from stored[0..len)) every way; compare with want (the tape) when not NULL. */
static void
read_stored(const fj_stored *s, const uint8_t *want, const char *what)
{
	uint8_t    *whole,
			   *blocks,
			   *prefix;
	fj_error	err;
	fj_code		rc;
	uint32_t	i;

	if (s->tape_len > MAX_TAPE)
		return;
	/* exactly sized, so that ASan sees a write past the tape */
	whole = malloc(s->tape_len ? s->tape_len : 1);
	blocks = malloc(s->tape_len ? s->tape_len : 1);
	prefix = malloc(s->tape_len ? s->tape_len : 1);
	rc = fj_store_decode(s, whole, &err);
	if (want)
		FZ_CHECK(rc == FJ_OK && memcmp(whole, want, s->tape_len) == 0, "%s: does not decode to its tape (%s)",
				 what, rc == FJ_OK ? "other bytes" : err.message);
	for (i = 0; i < s->nblocks; i++)
	{
		size_t		start,
					end,
					n = fj_store_block_size(s, i),
					off = fj_store_block_start(s, i),
					cut;
		bool		block_ok;

		block_ok = fj_store_decode_block(s, i, blocks, &err) == FJ_OK;
		if (want)
			FZ_CHECK(block_ok && memcmp(blocks + off, want + off, n) == 0, "%s: block %u", what, i);
		fj_store_block_range(s, i, &start, &end);
		for (cut = 0; cut <= 4; cut++)
		{
			static const size_t wants[] = {1, 300, 5000, (size_t) -1};
			size_t		avail = (end - start) * cut / 4,
						k;

			for (k = 0; k < sizeof(wants) / sizeof(wants[0]); k++)
			{
				size_t		w = wants[k] < n ? wants[k] : n,
							got = 0;

				rc = fj_store_decode_block_prefix(s, i, s->data + start, avail, w, prefix, &got, &err);
				if (rc != FJ_OK)
				{
					FZ_CHECK(!want, "%s: block %u by prefix (%zu of %zu bytes of data, want %zu): %s", what, i,
							 avail, end - start, w, err.message);
					continue;
				}
				FZ_CHECK(got <= n, "%s: block %u by prefix gave %zu bytes of %zu", what, i, got, n);
				if (cut == 4)
					FZ_CHECK(got >= w, "%s: block %u from all its data gave %zu bytes, %zu wanted", what, i, got, w);
				/*
				 * What a prefix gives is the block's start, as decoding it whole
				 * gives it; only for what the writer wrote: in damaged data LZ4's
				 * decoders accept a match offset of 0, whose bytes are then what
				 * the buffer held (the careful end of the decoder) or what its
				 * wide copies left there (the fast part), which differ.
				 */
				if (want && block_ok)
					FZ_CHECK(memcmp(prefix + off, blocks + off, got) == 0,
							 "%s: block %u by prefix (%zu of %zu bytes of data, want %zu) gives %zu bytes, which differ "
							 "from the block decoded whole at byte %zu", what, i, avail, end - start, w, got,
							 fz_first_diff(prefix + off, got, blocks + off, got));
			}
		}
	}
	(void) fj_store_root_may_have(s, "id", 2);
	(void) fj_store_root_may_have(s, "", 0);
	free(whole);
	free(blocks);
	free(prefix);
}

/* The bytes p[0..len) as a stored value from a client or a damaged page. */
static void
read_hostile(const uint8_t *p, size_t len)
{
	fj_stored	s;
	fj_error	err;
	uint8_t    *copy;
	size_t		have;

	if (len == 0 || !fj_is_stored(p[0]))
		return;
	copy = malloc(len);			/* exactly sized */
	memcpy(copy, p, len);
	if (fj_store_open(copy, len, &s, &err) == FJ_OK)
	{
		FZ_CHECK(s.data >= copy && s.data + s.data_len <= copy + len, "fj_store_open: data outside the value");
		read_stored(&s, NULL, "hostile value");
	}
	for (have = 0; have <= len; have += len / 3 + 1)
	{
		fj_stored	ps;

		(void) fj_store_index_at(copy, have);
		if (fj_store_open_prefix(copy, have, len, &ps, &err) == FJ_OK)
			FZ_CHECK(ps.ends + 4 * (size_t) ps.nblocks <= copy + have,
					 "fj_store_open_prefix: a block index past the %zu bytes at hand", have);
	}
	free(copy);
}

/* Store the tape at level, read it back every way, then damage it. */
static void
write_and_read(const uint8_t *tape, size_t len, int level, uint64_t h)
{
	fz_alloc_state st;
	fj_allocator a = fz_allocator(&st);
	fj_buf		out;
	fj_stored	s;
	fj_error	err;
	char		what[64];
	int			k;

	if (!fj_store_encode(tape, len, level, &a, 0, &out))
	{
		FZ_CHECK(st.live == 0, "level %d: %ld blocks live after a tape kept as it is", level, st.live);
		return;
	}
	snprintf(what, sizeof(what), "stored at level %d", level);
	FZ_CHECK(out.len <= len - len / (len < FJ_STORE_SMALL ? 4 : 8), "%s: %zu bytes for a tape of %zu", what,
			 out.len, len);
	FZ_CHECK(fj_store_open(out.data, out.len, &s, &err) == FJ_OK && s.tape_len == len &&
			 s.flags == tape[1], "%s: does not open (%s)", what, err.message);
	read_stored(&s, tape, what);
	for (k = 0; k < 4; k++)
	{
		size_t		at = (size_t) ((h >> (16 * k)) % out.len);
		uint8_t		old = out.data[at];

		out.data[at] ^= (uint8_t) (1 + ((h >> (8 * k)) & 0x7f));
		read_hostile(out.data, out.len);
		out.data[at] = old;
	}
	fj_buf_release(&a, &out);
	FZ_CHECK(st.live == 0, "level %d: %ld blocks live after release", level, st.live);
}

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	uint64_t	h = fz_hash(in, size);
	fj_parse_options opt;
	fj_buf		tape;
	fj_error	err;

	fz_input = in;
	fz_input_len = size;
	read_hostile(in, size);

	memset(&opt, 0, sizeof(opt));
	if (fj_parse((const char *) in, size, &opt, &tape, &err) == FJ_OK)
	{
		if (tape.len >= FJ_STORE_MIN)
		{
			write_and_read(tape.data, tape.len, FJ_STORE_LEVEL_FAST, h);
			write_and_read(tape.data, tape.len, 2 + (int) (h % (FJ_STORE_LEVEL_MAX - 1)), h >> 8);
		}
		fj_buf_release(&fj_malloc_allocator, &tape);
	}
	fz_input = NULL;
	return 0;
}
