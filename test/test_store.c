/*
 * test_store.c — the stored form of large tapes (src/tape_store.h):
 *   - every corpus document and generated ones of every size around the
 *     block size store and decode back to the same tape, block by block too;
 *   - what does not compress (or is short) is kept as it is;
 *   - every one-byte change of a stored tape's header and block index, and
 *     random damage to its data, is an error or decodes without reading or
 *     writing out of bounds (the sanitizer build checks that);
 *   - a small root object's keys in the header (method 2) say which keys it
 *     lacks, a value without them (method 1) reads as before, and damage to
 *     them is an error;
 *   - the root's last small members, stored as they are in the header
 *     (method 3, the tail), are found without decoding the blocks before
 *     them; values without a tail read as before; a tail that is not the
 *     root's last members is an error; so are they when the root's key
 *     index is its fingerprints alone (tape version 4), where a lookup
 *     steps over members instead of reading an offset;
 *   - lookups in a stored tape decoding only the blocks they ask for
 *     (fj_window with what of each block is decoded, as the SQL layer does, block 0
 *     and the last block of a range by prefix) find what the
 *     lookups in the whole tape find, and decode fewer blocks than all.
 */
#include "harness.h"
#include "../src/tape_store.h"

#include <lz4.h>

static uint64_t rng = 0x51a7ed5eedULL;
static size_t lookups,
			blocks_decoded,
			blocks_total;

static uint8_t *
parse(const char *json, size_t len, size_t *tlen)
{
	fj_buf		b;
	fj_error	err;

	if (fj_parse(json, len, NULL, &b, &err) != FJ_OK)
		return NULL;
	*tlen = b.len;
	return b.data;
}

/*
 * Flip the whitening of the stored form out[0..len) by hand: the method's
 * whitened bit, and every byte after the header XORed with the keystream, by
 * its offset. XOR undoes itself, so this whitens a plain stored form and
 * makes a whitened one plain.
 */
static void
flip_whitening_by_hand(uint8_t *out, size_t len)
{
	const uint8_t *k = fj_store_keystream();
	size_t		i;

	out[7] ^= FJ_STORE_WHITENED;
	for (i = FJ_STORE_HEADER; i < len; i++)
		out[i] ^= k[i % FJ_STORE_KEYSTREAM];
}

/*
 * The stored form of the tape t[0..tlen) written here, apart from
 * fj_store_encode, with the method, the header and the block size (2^log2)
 * given: method 1 (no keys),
 * 2 (nkeys fingerprints), 3 (nkeys fingerprints, maybe none, and the tape's
 * last tail bytes as they are), the blocks compressed with LZ4 as the
 * encoder does. Values as older builds wrote them, and damaged ones.
 */
static uint8_t *
store_by_hand(const uint8_t *t, size_t tlen, int method, const uint8_t *fps, size_t nkeys, size_t tail,
			  unsigned log2, bool whitened, size_t *slen)
{
	size_t		block = (size_t) 1 << log2,
				blocks_len = tlen - tail,
				nblocks = (blocks_len + block - 1) / block,
				index_at = FJ_STORE_HEADER + (method >= 2 ? 1 + nkeys : 0) + (method == 3 ? 1 + tail : 0),
				i;
	uint32_t	end = 0,
				len32 = (uint32_t) tlen;
	uint8_t    *out = malloc(index_at + 4 * nblocks + (size_t) LZ4_compressBound((int) block) * nblocks),
			   *data = out + index_at + 4 * nblocks;

	out[0] = FJ_STORE_MARK | t[0];
	out[1] = t[1];
	memcpy(out + 2, &len32, 4);
	out[6] = (uint8_t) log2;
	out[7] = (uint8_t) method;
	if (method >= 2)
	{
		out[FJ_STORE_HEADER] = (uint8_t) nkeys;
		memcpy(out + FJ_STORE_HEADER + 1, fps, nkeys);
	}
	if (method == 3)
	{
		out[FJ_STORE_HEADER + 1 + nkeys] = (uint8_t) tail;
		memcpy(out + FJ_STORE_HEADER + 2 + nkeys, t + blocks_len, tail);
	}
	for (i = 0; i < nblocks; i++)
	{
		size_t		from = i * block,
					n = blocks_len - from < block ? blocks_len - from : block;
		int			c = LZ4_compress_default((const char *) t + from, (char *) data + end, (int) n,
											 LZ4_compressBound((int) n));
		uint32_t	e;

		if (c > 0 && (size_t) c < n)
			end += (uint32_t) c;
		else
		{
			memcpy(data + end, t + from, n);
			end += (uint32_t) n;
		}
		e = end | (c > 0 && (size_t) c < n ? 0 : FJ_STORE_RAW);
		memcpy(out + index_at + 4 * i, &e, 4);
	}
	*slen = index_at + 4 * nblocks + end;
	if (whitened)
		flip_whitening_by_hand(out, *slen);
	return out;
}

/* Store byte v at offset at of the stored form st as it is written there (whitened or not). */
static void
put_clear(uint8_t *st, size_t at, uint8_t v)
{
	st[at] = (st[7] & FJ_STORE_WHITENED) ? v ^ fj_store_keystream()[at % FJ_STORE_KEYSTREAM] : v;
}

/*
 * Look key up in the root of the stored tape s as the SQL layer does: decode
 * block 0, then whatever range the lookup says it needs, until it answers.
 */
static const uint8_t *
stored_lookup(const fj_stored *s, uint8_t *tape, uint16_t *have, const char *key, int *ok)
{
	fj_error	err;

	memset(have, 0, s->nblocks * sizeof(uint16_t));
	/* the tail, in the header, is there from the start */
	if (s->tail)
		memcpy(tape + s->blocks_len, s->tail, s->tail_len);
	for (;;)
	{
		fj_window	w = {.avail = s->tape_len - FJ_TAPE_HEADER, .have = have, .origin = FJ_TAPE_HEADER,
		.block_log2 = s->block_log2, .tail = s->tail_len};
		const uint8_t *v = NULL;
		fj_found	r;
		uint32_t	b,
					last;
		size_t		got,
					start,
					end,
					need_end;
		bool		progress;

		if (!have[0])
		{
			/* block 0 by prefix: its first 512 bytes */
			*ok &= fj_store_decode_block_prefix(s, 0, s->data, s->data_len, 512, tape, &got, &err) == FJ_OK &&
				got >= (s->tape_len < 512 ? s->tape_len : 512);
			have[0] = (uint16_t) got;
		}
		r = fj_object_get_window(tape + FJ_TAPE_HEADER, &w, key, strlen(key),
								 (tape[1] & FJ_FLAG_DISTINCT_ROOT_KEYS) != 0, &v);
		if (r != FJ_MORE)
		{
			lookups++;
			for (b = 0; b < s->nblocks; b++)
				blocks_decoded += have[b] != 0;
			blocks_total += s->nblocks;
			return r == FJ_FOUND ? v : NULL;
		}
		/* the blocks up to the end of the range, or to the tail */
		need_end = FJ_TAPE_HEADER + w.need_to < s->blocks_len ? FJ_TAPE_HEADER + w.need_to : s->blocks_len;
		last = fj_store_block_of(s, need_end - 1);
		/* a damaged tape may ask for what it has, or lacks: an error, as the SQL layer's */
		progress = false;
		if (last >= s->nblocks || FJ_TAPE_HEADER + w.need_from >= need_end)
		{
			*ok = 0;
			return NULL;
		}
		for (b = fj_store_block_of(s, FJ_TAPE_HEADER + w.need_from); b <= last; b++)
		{
			/* up to the end of the range in the last block, the others whole */
			size_t		want = b < last ? fj_store_block_size(s, b) : need_end - fj_store_block_start(s, b);

			if (have[b] >= want)
				continue;
			fj_store_block_range(s, b, &start, &end);
			/* every other time from a prefix of the data, as an out-of-line value's first slice */
			if (b == 0 && (lookups & 1) && end - start > 64)
			{
				*ok &= fj_store_decode_block_prefix(s, b, s->data + start, (end - start) / 2, want, tape, &got, &err) == FJ_OK;
				if (got >= (want < fj_store_block_size(s, b) ? want : fj_store_block_size(s, b)))
				{
					progress |= got > have[b];
					have[b] = (uint16_t) got;
					continue;
				}
			}
			*ok &= fj_store_decode_block_prefix(s, b, s->data + start, end - start, want, tape, &got, &err) == FJ_OK &&
				got >= (want < fj_store_block_size(s, b) ? want : fj_store_block_size(s, b));
			progress |= got > have[b];
			have[b] = (uint16_t) got;
		}
		if (!progress)
		{
			*ok = 0;
			return NULL;
		}
	}
}

/* The compression level check_tape stores at (test_levels sets others). */
static int	store_level = FJ_STORE_LEVEL_FAST;

/* Store, open and decode a tape; look up every root key (and a missing one) block by block. */
static void
check_tape(const char *name, const uint8_t *t, size_t len)
{
	fj_buf		st;
	fj_stored	s;
	fj_error	err;
	uint8_t    *back;
	uint16_t   *have;
	uint32_t	i;
	int			ok = 1;

	/* the most a stored form may take: an eighth less than the tape, a quarter under FJ_STORE_SMALL */
	size_t		most = len - len / (len < FJ_STORE_SMALL ? 4 : 8);

	if (!fj_store_encode(t, len, store_level, &fj_malloc_allocator, 3, &st))
	{
		/*
		 * Kept as it is: short; under FJ_STORE_SMALL bytes, its first
		 * FJ_STORE_PROBE bytes not an eighth smaller by LZ4 or the whole not a
		 * quarter smaller in blocks; else not an eighth smaller in blocks
		 * (method 1 written here differs from the encoder's form by its
		 * header, at most 1 + 8 + 1 + 128 bytes, and by the tail's compression)
		 */
		size_t		hand_len = 0;
		char		probe[LZ4_COMPRESSBOUND(FJ_STORE_PROBE)];
		bool		probed_out = len >= FJ_STORE_MIN && len < FJ_STORE_SMALL &&
			LZ4_compress_default((const char *) t, probe, FJ_STORE_PROBE, (int) sizeof(probe)) >
			FJ_STORE_PROBE - FJ_STORE_PROBE / 8;

		if (store_level != FJ_STORE_LEVEL_FAST)
			return;				/* store_by_hand compresses as the fast level does */
		if (len >= FJ_STORE_MIN && !probed_out)
			free(store_by_hand(t, len, 1, NULL, 0, 0, FJ_STORE_BLOCK_LOG2, false, &hand_len));
		CHECKF(len < FJ_STORE_MIN || probed_out ||
			   hand_len + 2 * (2 + FJ_KEY_INDEX_MIN + FJ_STORE_TAIL_MAX) > most,
			   "%s: %zu bytes not stored, %zu in blocks", name, len, hand_len);
		return;
	}
	CHECKF(len >= FJ_STORE_MIN && st.len - 3 <= most &&
		   (st.data[3] & FJ_STORE_MARK) && fj_is_stored(st.data[3]),
		   "%s: stored %zu bytes for a tape of %zu", name, st.len - 3, len);
	CHECKF(fj_store_open(st.data + 3, st.len - 3, &s, &err) == FJ_OK && s.tape_len == len && s.flags == t[1],
		   "%s: open: %s", name, err.message ? err.message : "");
	back = malloc(len);
	CHECKF(fj_store_decode(&s, back, &err) == FJ_OK && memcmp(back, t, len) == 0, "%s: decode", name);

	/*
	 * Whitened from FJ_STORE_WHITEN_MIN bytes on: LZ4 then finds nothing to
	 * take out of the bytes after the header; undone by hand (the flag
	 * cleared, as older builds wrote it), the same value reads the same.
	 */
	CHECKF(((st.data[3 + 7] & FJ_STORE_WHITENED) != 0) == (st.len - 3 >= FJ_STORE_WHITEN_MIN),
		   "%s: whitened (%zu bytes stored)", name, st.len - 3);
	if (st.data[3 + 7] & FJ_STORE_WHITENED)
	{
		size_t		n = st.len - 3 - FJ_STORE_HEADER;
		char	   *c = malloc((size_t) LZ4_compressBound((int) n));
		uint8_t    *clear = malloc(st.len - 3);
		fj_stored	u;

		CHECKF(LZ4_compress_default((const char *) st.data + 3 + FJ_STORE_HEADER, c, (int) n,
									LZ4_compressBound((int) n)) >= (int) n,
			   "%s: LZ4 compresses the whitened bytes", name);
		memcpy(clear, st.data + 3, st.len - 3);
		flip_whitening_by_hand(clear, st.len - 3);
		memset(back, 0, len);
		CHECKF(fj_store_open(clear, st.len - 3, &u, &err) == FJ_OK && !u.whitened &&
			   fj_store_decode(&u, back, &err) == FJ_OK && memcmp(back, t, len) == 0, "%s: not whitened, decode", name);
		free(clear);
		free(c);
	}
	memset(back, 0, len);
	for (i = 0; i < s.nblocks; i++)
		ok &= fj_store_decode_block(&s, i, back, &err) == FJ_OK;
	if (s.tail)
		memcpy(back + s.blocks_len, s.tail, s.tail_len);
	CHECKF(ok && memcmp(back, t, len) == 0, "%s: decode block by block", name);

	/*
	 * By prefix: the first and last blocks, from prefixes of their data and
	 * from all of it, as far as several wants: what comes out is the start of
	 * the block, and all of the data gives at least what is wanted.
	 */
	for (i = 0; i < s.nblocks; i += s.nblocks > 1 ? s.nblocks - 1 : 1)
	{
		size_t		start,
					end,
					size,
					n = fj_store_block_size(&s, i),
					got,
					cut,
					k;
		static const size_t wants[] = {1, 100, 1000, 4096, 100000};

		fj_store_block_range(&s, i, &start, &end);
		size = end - start;
		for (cut = 0; cut <= 6; cut++)
		{
			size_t		avail = cut == 6 ? size : size * cut / 6;

			for (k = 0; k < sizeof(wants) / sizeof(wants[0]); k++)
			{
				size_t		want = wants[k] < n ? wants[k] : n;
				uint8_t    *dst = back + fj_store_block_start(&s, i);

				memset(dst, 0, n);
				ok = fj_store_decode_block_prefix(&s, i, s.data + start, avail, wants[k], back, &got, &err) == FJ_OK;
				CHECKF(ok && got <= n && memcmp(dst, t + fj_store_block_start(&s, i), got) == 0 &&
					   (avail < size || got >= want),
					   "%s: block %u by prefix, %zu of %zu bytes of data, want %zu: got %zu", name, i, avail, size,
					   wants[k], got);
			}
		}
	}
	ok = 1;

	/* lookups of every root key, the last of each, and of a missing one */
	have = malloc(s.nblocks * sizeof(uint16_t));
	if (FJ_TYPE(t[FJ_TAPE_HEADER]) == FJ_OBJECT)
	{
		const uint8_t *root = t + FJ_TAPE_HEADER,
				   *p = fj_container_members(root),
				   *end = fj_container_members_end(root);

		while (p < end)
		{
			const uint8_t *k;
			uint32_t	kl = fj_text(p, &k);
			char		key[256];
			const uint8_t *want,
					   *got;

			if (kl < sizeof(key))
			{
				memcpy(key, k, kl);
				key[kl] = 0;
				want = fj_object_get(root, key, kl);
				memset(back, 0, len);
				got = stored_lookup(&s, back, have, key, &ok);
				CHECKF(ok && got && (size_t) (got - back) == (size_t) (want - t) &&
					   memcmp(got, want, fj_value_size(want)) == 0, "%s: lookup of %s", name, key);
			}
			p = k + kl;
			p += fj_value_size(p);
		}
		CHECKF(stored_lookup(&s, back, have, "no such key, surely", &ok) == NULL && ok, "%s: missing key", name);
	}
	free(have);

	/* damage: every byte of the header and index, and random bytes of the data */
	for (i = 0; i < s.index_at + 4 * s.nblocks + 64 && i < st.len - 3; i++)
	{
		size_t		at = i < s.index_at + 4 * s.nblocks ? i : s.index_at + 4 * s.nblocks +
			(size_t) (t_rand(&rng) % (st.len - 3 - s.index_at - 4 * s.nblocks));
		uint8_t		old = st.data[3 + at];
		fj_stored	d;

		st.data[3 + at] ^= (uint8_t) (1 + t_rand(&rng) % 255);
		if (fj_store_open(st.data + 3, st.len - 3, &d, &err) == FJ_OK)
		{
			uint8_t    *out = malloc(d.tape_len);

			(void) fj_store_decode(&d, out, &err);
			free(out);
		}
		st.data[3 + at] = old;
	}
	/* a block size other than 8 or 16 kB */
	{
		static const uint8_t sizes[] = {0, 12, 15, 16, 255};
		uint8_t		old = st.data[3 + 6];
		fj_stored	d;

		for (i = 0; i < sizeof(sizes); i++)
		{
			st.data[3 + 6] = sizes[i];
			CHECKF(fj_store_open(st.data + 3, st.len - 3, &d, &err) != FJ_OK && err.reason == FJ_R_STORE_METHOD,
				   "%s: block size byte %u", name, sizes[i]);
		}
		st.data[3 + 6] = old;
	}
	/* truncated */
	CHECKF(fj_store_open(st.data + 3, FJ_STORE_HEADER + 2, &s, &err) != FJ_OK, "%s: truncated", name);
	free(back);
	fj_buf_release(&fj_malloc_allocator, &st);
}

static void
check_json(const char *name, const char *json, size_t len)
{
	size_t		tlen;
	uint8_t    *t = parse(json, len, &tlen);

	CHECKF(t != NULL, "%s does not parse", name);
	if (t)
		check_tape(name, t, tlen);
	free(t);
}

/*
 * Objects of n members whose string values are runs of letters
 * (compressible), from under the block size to about three blocks, stored
 * at the fast level and at LZ4 HC's level 2: each block is compressed on its
 * own at both, so each decodes alone (check_tape), though the blocks before
 * it, contiguous in memory, repeat it.
 */
static void
test_generated(void)
{
	size_t		n;
	int			stored = 0;

	for (n = 1; n < 1000; n += 5)
	{
		t_buf		b = {0};
		size_t		m;
		char		member[300];

		t_put(&b, "{", 1);
		for (m = 0; m < n; m++)
		{
			int			l = snprintf(member, sizeof(member), "%s\"key%zu\":\"%.*s\",\"n%zu\":%zu.5",
									 m ? "," : "", m % (n / 2 + 1),
									 (int) (t_rand(&rng) % 60), "abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc",
									 m, m * 7);

			t_put(&b, member, (size_t) l);
		}
		t_put(&b, "}", 1);
		{
			size_t		tlen;
			uint8_t    *t = parse(b.s, b.len, &tlen);
			fj_buf		st;

			if (t && fj_store_encode(t, tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st))
			{
				stored++;
				fj_buf_release(&fj_malloc_allocator, &st);
			}
			free(t);
		}
		check_json("generated object", b.s, b.len);
		store_level = 2;
		check_json("generated object, level 2", b.s, b.len);
		store_level = FJ_STORE_LEVEL_FAST;
		free(b.s);
	}
	CHECKF(stored > 100, "only %d of the generated documents were stored", stored);
}

/*
 * The incompressible tape t stored by hand in one 16 kB block and the rest,
 * each compressed although LZ4 makes it larger, which the encoder never
 * writes: a reader takes it as it is, but not whitened, since readers undo a
 * block's data into a buffer of the block's size.
 */
static void
check_grown_block(const uint8_t *t, size_t tlen)
{
	size_t		nblocks = (tlen + FJ_STORE_BLOCK - 1) / FJ_STORE_BLOCK,
				data_at = FJ_STORE_HEADER + 4 * nblocks,
				slen = data_at,
				i;
	uint32_t	len32 = (uint32_t) tlen;
	uint8_t    *st = malloc(data_at + (size_t) LZ4_compressBound(FJ_STORE_BLOCK) * nblocks),
			   *back = malloc(tlen);
	fj_stored	s;
	fj_error	err;

	st[0] = FJ_STORE_MARK | t[0];
	st[1] = t[1];
	memcpy(st + 2, &len32, 4);
	st[6] = FJ_STORE_BLOCK_LOG2;
	st[7] = FJ_STORE_METHOD_LZ4;
	for (i = 0; i < nblocks; i++)
	{
		size_t		n = tlen - i * FJ_STORE_BLOCK < FJ_STORE_BLOCK ? tlen - i * FJ_STORE_BLOCK : FJ_STORE_BLOCK;
		int			c = LZ4_compress_default((const char *) t + i * FJ_STORE_BLOCK, (char *) st + slen, (int) n,
											 LZ4_compressBound((int) n));
		uint32_t	e;

		CHECKF(c > 0 && (size_t) c > n, "block %zu of %zu bytes compressed to %d", i, n, c);
		slen += (size_t) c;
		e = (uint32_t) (slen - data_at);
		memcpy(st + FJ_STORE_HEADER + 4 * i, &e, 4);
	}
	CHECK(fj_store_open(st, slen, &s, &err) == FJ_OK && fj_store_decode(&s, back, &err) == FJ_OK &&
		  memcmp(back, t, tlen) == 0);
	flip_whitening_by_hand(st, slen);
	CHECK(fj_store_open(st, slen, &s, &err) != FJ_OK && err.reason == FJ_R_STORE_BLOCKS &&
		  err.offset == FJ_STORE_HEADER);
	free(back);
	free(st);
}

/*
 * Headers that claim more than their bytes can hold: a tape of over 1 GB,
 * and a compressed block shorter than LZ4 could put its size out of (here
 * of no bytes at all, which made a value of a few hundred kilobytes of
 * block ends claim a tape of gigabytes). Both are refused when opened.
 */
static void
test_hostile_lengths(void)
{
	t_buf		b = {0};
	size_t		i,
				tlen,
				index_at;
	uint8_t    *t;
	fj_buf		st;
	fj_stored	s;
	fj_error	err;
	uint32_t	e,
				big = FJ_STORE_TAPE_MAX + 1;

	t_put(&b, "[", 1);
	for (i = 0; i < 4000; i++)
		t_put(&b, i ? ",\"again and again\"" : "\"again and again\"", i ? 18 : 17);
	t_put(&b, "]", 1);
	t = parse(b.s, b.len, &tlen);
	CHECK(t && fj_store_encode(t, tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st));
	if (t && st.data)
	{
		CHECK(fj_store_open(st.data, st.len, &s, &err) == FJ_OK && s.nblocks >= 3);
		index_at = s.index_at;
		/* the tape's length over 1 GB */
		memcpy(st.data + 2, &big, 4);
		CHECK(fj_store_open(st.data, st.len, &s, &err) != FJ_OK && err.reason == FJ_R_STORE_LENGTH);
		memcpy(st.data + 2, &(uint32_t) {(uint32_t) tlen}, 4);
		CHECK(fj_store_open(st.data, st.len, &s, &err) == FJ_OK);
		/* block 0 compressed into no bytes */
		e = 0;
		for (i = 0; i < 4; i++)
			put_clear(st.data, index_at + i, ((uint8_t *) &e)[i]);
		CHECK(fj_store_open(st.data, st.len, &s, &err) != FJ_OK && err.reason == FJ_R_STORE_BLOCKS &&
			  err.offset == index_at);
		fj_buf_release(&fj_malloc_allocator, &st);
	}
	free(t);
	free(b.s);
}

/* Random bytes as a string do not compress: the tape is kept as it is. */
static void
test_incompressible(void)
{
	t_buf		b = {0};
	size_t		i,
				tlen;
	uint8_t    *t;
	fj_buf		st;

	t_put(&b, "\"", 1);
	for (i = 0; i < 20000; i++)
	{
		char		c = (char) ('a' + t_rand(&rng) % 26);

		t_put(&b, &c, 1);
	}
	t_put(&b, "\"", 1);
	t = parse(b.s, b.len, &tlen);
	CHECK(t && !fj_store_encode(t, tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st));
	/* short tapes are never stored */
	CHECK(!fj_store_encode((const uint8_t *) "\x03\x00\x00", 3, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st));
	if (t)
		check_grown_block(t, tlen);
	free(t);
	free(b.s);
}

/*
 * A block that starts with a long run of literals (5,390 random CJK
 * characters, 16,170 bytes that LZ4 finds no match in, then repetition that
 * makes the block compress, whitened): LZ4 reads the run's 64 length bytes
 * before its first literal, the most a prefix decode of a few bytes reads.
 * check_tape decodes it by prefix from 1 byte on, with its data cut or whole.
 */
static void
test_long_literal_run(void)
{
	t_buf		b = {0};
	size_t		i,
				tlen;
	uint8_t    *t;

	t_put(&b, "[\"", 2);
	for (i = 0; i < 5390; i++)
	{
		uint32_t	cp = 0x4e00 + (uint32_t) (t_rand(&rng) % 0x5200);
		char		u[3] = {(char) (0xe0 | (cp >> 12)), (char) (0x80 | ((cp >> 6) & 0x3f)), (char) (0x80 | (cp & 0x3f))};

		t_put(&b, u, 3);
	}
	t_put(&b, "\"", 1);
	for (i = 0; i < 4000; i++)
		t_put(&b, ",\"again and again\"", 18);
	t_put(&b, "]", 1);
	t = parse(b.s, b.len, &tlen);
	CHECK(t != NULL);
	if (t)
		check_tape("long literal run", t, tlen);
	free(t);
	free(b.s);
}

/* Whether the document json[0..len) parses and its tape is stored in blocks; *tlen its tape's length. */
static bool
stores(const char *json, size_t len, size_t *tlen)
{
	uint8_t    *t = parse(json, len, tlen);
	fj_buf		st;
	bool		stored = t && fj_store_encode(t, *tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st);

	CHECKF(t != NULL, "%.40s... does not parse", json);
	if (stored)
		fj_buf_release(&fj_malloc_allocator, &st);
	free(t);
	return stored;
}

/*
 * Tapes of FJ_STORE_MIN to FJ_STORE_SMALL bytes are stored in blocks only when
 * a quarter smaller, and tried only when their first FJ_STORE_PROBE bytes
 * compress by an eighth; shorter ones never.
 */
static void
test_small_tapes(void)
{
	t_buf		b = {0};
	size_t		n,
				i,
				tlen;
	int			below = 0,
				above = 0;
	char		c;

	/* a string of one letter repeated: stored from FJ_STORE_MIN bytes of tape on */
	for (n = FJ_STORE_MIN - 20; n < FJ_STORE_MIN + 20; n++)
	{
		b.len = 0;
		t_put(&b, "\"", 1);
		for (i = 0; i < n; i++)
			t_put(&b, "a", 1);
		t_put(&b, "\"", 1);
		if (stores(b.s, b.len, &tlen))
		{
			CHECKF(tlen >= FJ_STORE_MIN, "a tape of %zu bytes stored", tlen);
			above++;
		}
		else
		{
			CHECKF(tlen < FJ_STORE_MIN, "a tape of %zu bytes kept as it is", tlen);
			below++;
		}
		check_json("one letter repeated", b.s, b.len);
	}
	CHECKF(below > 0 && above > 0, "%d below and %d above the least size stored", below, above);

	/*
	 * An object whose members repeat their keys and the start of their values
	 * (as URLs do): about 1,200 bytes of tape, stored, and read back whole and
	 * by every lookup
	 */
	b.len = 0;
	t_put(&b, "{", 1);
	for (i = 0; i < 8; i++)
	{
		char		mb[200];
		int			l = snprintf(mb, sizeof(mb), "%s\"m%zu\":{\"url\":\"https://api.example.com/repos/owner/name/%zu\","
								 "\"html_url\":\"https://example.com/owner/name/%zu\",\"id\":%zu}",
								 i ? "," : "", i, i * 31, i * 17, 1000003 * i);

		t_put(&b, mb, (size_t) l);
	}
	t_put(&b, "}", 1);
	CHECKF(stores(b.s, b.len, &tlen) && tlen < FJ_STORE_SMALL, "a repetitive object of %zu bytes of tape not stored",
		   tlen);
	check_json("repetitive object", b.s, b.len);

	/*
	 * The same object behind 300 random letters: the whole would compress by
	 * a quarter, but its first bytes do not, so it is not tried
	 */
	b.len = 0;
	t_put(&b, "{\"r\":\"", 6);
	for (i = 0; i < 300; i++)
	{
		c = (char) ('a' + t_rand(&rng) % 26);
		t_put(&b, &c, 1);
	}
	t_put(&b, "\"", 1);
	for (i = 0; i < 16; i++)
	{
		char		mb[200];
		int			l = snprintf(mb, sizeof(mb), ",\"m%zu\":{\"url\":\"https://api.example.com/repos/owner/name/%zu\"}",
								 i, i * 31);

		t_put(&b, mb, (size_t) l);
	}
	t_put(&b, "}", 1);
	CHECKF(!stores(b.s, b.len, &tlen) && tlen >= FJ_STORE_MIN && tlen < FJ_STORE_SMALL,
		   "random letters first: %zu bytes of tape stored", tlen);
	check_json("random start", b.s, b.len);

	/*
	 * A string of letters drawn from three, then from six: its first bytes
	 * compress by a quarter, the whole by about a sixth; kept as it is
	 * under FJ_STORE_SMALL bytes of tape, stored over it
	 */
	for (n = 1200; n <= 2400; n += 1200)
	{
		b.len = 0;
		t_put(&b, "\"", 1);
		for (i = 0; i < n; i++)
		{
			c = (char) ('a' + t_rand(&rng) % (i < 250 ? 3 : 6));
			t_put(&b, &c, 1);
		}
		t_put(&b, "\"", 1);
		CHECKF(stores(b.s, b.len, &tlen) == (tlen >= FJ_STORE_SMALL), "letters, %zu bytes of tape", tlen);
		check_json("letters", b.s, b.len);
	}
	free(b.s);
}

/*
 * Into b (emptied first): an object of n members named keys[0..n), member
 * n / 2 an array of elems small objects (large and compressible, over a
 * block), every other member the string "x".
 */
static void
put_root_with_large_member(t_buf *b, size_t n, const char *const *keys, size_t elems)
{
	size_t		i,
				k;

	b->len = 0;
	t_put(b, "{", 1);
	for (i = 0; i < n; i++)
	{
		char		mb[64];
		int			l = snprintf(mb, sizeof(mb), "%s\"%s\":", i ? "," : "", keys[i]);

		t_put(b, mb, (size_t) l);
		if (i == n / 2)
		{
			t_put(b, "[", 1);
			for (k = 0; k < elems; k++)
			{
				l = snprintf(mb, sizeof(mb), "%s{\"k\":%zu,\"v\":\"value %zu\"}", k ? "," : "", k, k % 7);
				t_put(b, mb, (size_t) l);
			}
			t_put(b, "]", 1);
		}
		else
			t_put(b, "\"x\"", 3);
	}
	t_put(b, "}", 1);
}

/*
 * A root object without a key index (1 to 8 members) is stored with its keys'
 * fingerprints (method 2, or 3 with a tail): every key it has may be there, a
 * key it lacks is known absent unless it shares a fingerprint; values stored
 * without them (method 1) or without a tail (method 2), as older builds wrote
 * them, are read as ever; damage to the keys is an error.
 */
static void
test_root_keys(void)
{
	static const char *keys[] = {"id", "type", "actor", "repo", "payload", "public", "created_at", "org"};
	static const char *absent[] = {"user", "nothing", "screen_name", "text", "ID", "typ", "", "created_at_"};
	t_buf		b = {0};
	size_t		tlen,
				i,
				n,
				known_absent = 0;
	uint8_t    *t,
			   *back;
	fj_buf		st;
	fj_stored	s;
	fj_error	err;
	uint16_t	have[8];
	int			ok = 1;

	for (n = 1; n <= 8; n++)
	{
		size_t		tail = 0,
					index_at;
		int			method,
					w,
					m;
		unsigned	log2;

		/* n members; a large, compressible value in the middle, small ones after it */
		put_root_with_large_member(&b, n, keys, 1000);
		t = parse(b.s, b.len, &tlen);
		CHECKF(t && fj_store_encode(t, tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st), "root of %zu: stored", n);
		if (!t)
			continue;
		/* the members after the large one are the tail: key and value, 1 + klen + 2 bytes each */
		for (i = n / 2 + 1; i < n; i++)
			tail += 1 + strlen(keys[i]) + 2;
		method = tail ? FJ_STORE_METHOD_LZ4_TAIL : FJ_STORE_METHOD_LZ4_KEYS;
		index_at = FJ_STORE_HEADER + 1 + n + (tail ? 1 + tail : 0);
		CHECKF((st.data[7] & ~FJ_STORE_WHITENED) == method && fj_store_open(st.data, st.len, &s, &err) == FJ_OK &&
			   s.nroot_keys == n && s.index_at == index_at && s.tail_len == tail && s.blocks_len == tlen - tail &&
			   s.nblocks >= 2, "root of %zu: method %d, tail %zu", n, method, tail);
		if (s.index_at != index_at)
			continue;
		for (i = 0; i < n; i++)
			CHECKF(fj_store_root_may_have(&s, keys[i], strlen(keys[i])), "root of %zu: %s may be there", n, keys[i]);
		for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		{
			uint8_t		fp = fj_key_fingerprint((const uint8_t *) absent[i], strlen(absent[i]));
			bool		shared = memchr(s.root_keys, fp, n) != NULL;

			/* absent unless its fingerprint is that of a key the root has */
			CHECKF(fj_store_root_may_have(&s, absent[i], strlen(absent[i])) == shared, "root of %zu: %s", n, absent[i]);
			known_absent += !shared;
		}
		/* 8 bytes of slack after the tape, as the SQL layer gives a tape read block by block */
		back = malloc(tlen + 8);
		CHECKF(fj_store_decode(&s, back, &err) == FJ_OK && memcmp(back, t, tlen) == 0, "root of %zu: decode", n);

		/* each fingerprint damaged: the whole decode says so */
		for (i = 0; i < n; i++)
		{
			fj_stored	d;

			st.data[FJ_STORE_HEADER + 1 + i] ^= 0x5a;
			CHECKF(fj_store_open(st.data, st.len, &d, &err) == FJ_OK && fj_store_decode(&d, back, &err) == FJ_ERR_TAPE &&
				   err.reason == FJ_R_STORE_KEYS, "root of %zu: damaged fingerprint %zu", n, i);
			st.data[FJ_STORE_HEADER + 1 + i] ^= 0x5a;
		}
		/* a count over 8, or 0 where keys must be listed (method 2) */
		{
			static const uint8_t counts[] = {0, FJ_KEY_INDEX_MIN + 1, 255};
			uint8_t		keep = st.data[FJ_STORE_HEADER];
			fj_stored	d;

			for (i = method == FJ_STORE_METHOD_LZ4_KEYS ? 0 : 1; i < sizeof(counts); i++)
			{
				put_clear(st.data, FJ_STORE_HEADER, counts[i]);
				CHECKF(fj_store_open(st.data, st.len, &d, &err) != FJ_OK, "root of %zu: count %u", n, counts[i]);
			}
			st.data[FJ_STORE_HEADER] = keep;
		}

		/*
		 * The same value written here: with the encoder's method and block
		 * size, the same bytes; as older builds wrote it (method 1: no keys,
		 * method 2: no tail; 8 kB blocks), read as ever, lookups included.
		 */
		for (m = 1; m <= method; m++)
		{
			for (log2 = FJ_STORE_BLOCK_LOG2_MIN; log2 <= FJ_STORE_BLOCK_LOG2_MAX; log2++)
			for (w = 0; w <= 1; w++)
			{
				size_t		slen;
				uint8_t    *hand = store_by_hand(t, tlen, m, s.root_keys, m >= 2 ? n : 0, m == 3 ? tail : 0, log2, w,
												 &slen);
				fj_stored	h;

				if (m == method && log2 == FJ_STORE_BLOCK_LOG2 && w == ((st.data[7] & FJ_STORE_WHITENED) != 0))
					CHECKF(slen == st.len && memcmp(hand, st.data, slen) == 0, "root of %zu: method %d by hand", n, m);
				CHECKF(fj_store_open(hand, slen, &h, &err) == FJ_OK && (h.root_keys != NULL) == (m >= 2) &&
					   h.tail_len == (m == 3 ? tail : 0) && fj_store_root_may_have(&h, "nothing", 7) == (m == 1 || memchr(h.root_keys, fj_key_fingerprint((const uint8_t *) "nothing", 7), n)),
					   "root of %zu: method %d", n, m);
				memset(back, 0, tlen);
				CHECKF(fj_store_decode(&h, back, &err) == FJ_OK && memcmp(back, t, tlen) == 0, "root of %zu: method %d decode", n, m);
				if (h.nblocks <= sizeof(have) / sizeof(have[0]))
				{
					for (i = 0; i < n; i++)
					{
						const uint8_t *want = fj_object_get(t + FJ_TAPE_HEADER, keys[i], strlen(keys[i])),
								   *got = stored_lookup(&h, back, have, keys[i], &ok);
						uint32_t	k;
						bool		past = false;

						CHECKF(ok && got && want && memcmp(got, want, fj_value_size(want)) == 0,
							   "root of %zu: method %d lookup of %s", n, m, keys[i]);
						/* a key of the tail, past the large member: only block 0 by prefix is decoded */
						for (k = 1; k < h.nblocks; k++)
							past |= have[k] != 0;
						if (m == 3 && i > n / 2)
							CHECKF(!past && have[0] <= 512, "root of %zu: %s decoded %u bytes of block 0 and blocks past it",
								   n, keys[i], have[0]);
						else if (i > n / 2)
							CHECKF(past, "root of %zu: method %d, %s without the blocks after the large member", n, m, keys[i]);
					}
					CHECKF(stored_lookup(&h, back, have, "nothing", &ok) == NULL && ok, "root of %zu: method %d, missing key", n, m);
				}
				free(hand);
			}
		}

		/* a tail that does not start where a member does, or of 0 or too many bytes */
		if (tail)
		{
			static const int shifts[] = {-1, 1, 2};
			size_t		slen;

			for (i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++)
			{
				uint8_t    *hand = store_by_hand(t, tlen, 3, s.root_keys, n, tail + (size_t) shifts[i], FJ_STORE_BLOCK_LOG2,
												 true, &slen);
				fj_stored	h;

				CHECKF(fj_store_open(hand, slen, &h, &err) == FJ_OK && fj_store_decode(&h, back, &err) == FJ_ERR_TAPE &&
					   err.reason == FJ_R_STORE_TAIL, "root of %zu: tail of %zu bytes", n, tail + (size_t) shifts[i]);
				free(hand);
			}
			/*
			 * each byte of the tail made a tag that names no length (0x7f)
			 * or a reference (0x9f): the whole decode and lookups read
			 * nothing out of bounds (the sanitizer build checks it)
			 */
			for (i = index_at - tail; i < index_at; i++)
			{
				static const uint8_t tags[] = {0x7f, FJ_STRING_REF};
				uint8_t		keep = st.data[i];
				size_t		k;

				for (k = 0; k < sizeof(tags); k++)
				{
					fj_stored	d;
					uint8_t    *exact = malloc(tlen);
					size_t		j;

					put_clear(st.data, i, tags[k]);
					if (fj_store_open(st.data, st.len, &d, &err) == FJ_OK)
					{
						(void) fj_store_decode(&d, exact, &err);
						if (d.nblocks <= sizeof(have) / sizeof(have[0]))
							for (j = 0; j < n; j++)
								(void) stored_lookup(&d, back, have, keys[j], &ok);
					}
					free(exact);
				}
				st.data[i] = keep;
			}
			ok = 1;
			put_clear(st.data, index_at - tail - 1, 0);
			CHECKF(fj_store_open(st.data, st.len, &s, &err) != FJ_OK && err.reason == FJ_R_STORE_TAIL, "root of %zu: tail of 0", n);
			{
				uint8_t    *hand = store_by_hand(t, tlen, 3, s.root_keys, n, FJ_STORE_TAIL_MAX + 1, FJ_STORE_BLOCK_LOG2, true, &slen);
				fj_stored	h;

				CHECKF(fj_store_open(hand, slen, &h, &err) != FJ_OK && err.reason == FJ_R_STORE_TAIL,
					   "root of %zu: tail too long", n);
				free(hand);
			}
		}
		free(back);
		fj_buf_release(&fj_malloc_allocator, &st);
		free(t);
	}
	/* most absent keys are known absent from the header alone */
	CHECKF(known_absent >= 8 * 6, "%zu of 64 absent keys known absent", known_absent);
	free(b.s);
}

/* Store json; check the method, how many root keys and tail bytes the header has. */
static void
check_stored_header(const char *name, const char *json, size_t len, int method, uint32_t nkeys, uint32_t tail)
{
	size_t		tlen;
	uint8_t    *t = parse(json, len, &tlen);
	fj_buf		st;
	fj_stored	s;
	fj_error	err;

	CHECKF(t && fj_store_encode(t, tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st), "%s: stored", name);
	if (!t)
		return;
	CHECKF((st.data[7] & ~FJ_STORE_WHITENED) == method && fj_store_open(st.data, st.len, &s, &err) == FJ_OK && s.nroot_keys == nkeys &&
		   s.tail_len == tail && (s.tail == NULL) == (tail == 0) && (s.root_keys == NULL) == (nkeys == 0),
		   "%s: method %u (%d), %u keys (%u), tail %u (%u)", name, st.data[7], method, s.nroot_keys, nkeys, s.tail_len,
		   tail);
	fj_buf_release(&fj_malloc_allocator, &st);
	check_tape(name, t, tlen);
	free(t);
}

/*
 * Which tails are kept: the root object's last members, up to
 * FJ_STORE_TAIL_MAX bytes, none holding a string reference; an object with
 * a key index in front has a tail and no keys; an array, or an object whose
 * index follows its members, has neither.
 */
static void
test_root_tail(void)
{
	t_buf		big = {0},
				b = {0};
	char		s300[301];
	size_t		k;

	/* a large compressible array, and a string of 300 letters */
	t_put(&big, "[", 1);
	for (k = 0; k < 1000; k++)
	{
		char		m[64];
		int			l = snprintf(m, sizeof(m), "%s{\"k\":%zu,\"v\":\"value %zu\"}", k ? "," : "", k, k % 7);

		t_put(&big, m, (size_t) l);
	}
	t_put(&big, "]", 1);
	for (k = 0; k < 300; k++)
		s300[k] = (char) ('a' + k % 26);
	s300[300] = 0;

#define DOC(...) do { b.len = 0; t_printf(&b, __VA_ARGS__); } while (0)
	/* an event: the id after the payload; "id":"2489651045" is 3 + 11 bytes of tape */
	DOC("{\"type\":\"PushEvent\",\"payload\":%.*s,\"id\":\"2489651045\"}", (int) big.len, big.s);
	check_stored_header("event", b.s, b.len, FJ_STORE_METHOD_LZ4_TAIL, 3, 14);
	/* a last member over FJ_STORE_TAIL_MAX bytes: no tail */
	DOC("{\"type\":\"PushEvent\",\"payload\":%.*s,\"s\":\"%s\"}", (int) big.len, big.s, s300);
	check_stored_header("long last member", b.s, b.len, FJ_STORE_METHOD_LZ4_KEYS, 3, 0);
	/* the members after it: "a":1 and "b":true, 2 + 1 bytes each (small integers and literals are one byte) */
	DOC("{\"type\":\"PushEvent\",\"payload\":%.*s,\"s\":\"%s\",\"a\":1,\"b\":true}", (int) big.len, big.s, s300);
	check_stored_header("after a long member", b.s, b.len, FJ_STORE_METHOD_LZ4_TAIL, 5, 6);
	/* a last member referring back to an equal string (3.7): no tail, nor before it */
	DOC("{\"type\":\"PushEvent\",\"payload\":%.*s,\"s\":\"%s\",\"a\":1,\"r\":\"%s\"}", (int) big.len, big.s, s300, s300);
	check_stored_header("string reference", b.s, b.len, FJ_STORE_METHOD_LZ4_KEYS, 5, 0);
	{
		size_t		tlen;
		uint8_t    *t = parse(b.s, b.len, &tlen);
		const uint8_t *r = t ? fj_object_get(t + FJ_TAPE_HEADER, "r", 1) : NULL;

		CHECKF(r && r[0] == FJ_STRING_REF, "the last member of \"string reference\" is one");
		free(t);
	}
	/* a key index in front (9 members): a tail, no keys */
	DOC("{\"a1\":1,\"a2\":2,\"a3\":3,\"a4\":4,\"a5\":5,\"a6\":6,\"a7\":7,\"a8\":%.*s,\"seq\":12345}", (int) big.len, big.s);
	check_stored_header("indexed root", b.s, b.len, FJ_STORE_METHOD_LZ4_TAIL, 0, 7);
	/* an array root; an object whose index follows its 70 members */
	DOC("[%.*s,1]", (int) big.len, big.s);
	check_stored_header("array", b.s, b.len, FJ_STORE_METHOD_LZ4, 0, 0);
	DOC("{\"big\":%.*s", (int) big.len, big.s);
	for (k = 0; k < 70; k++)
		t_printf(&b, ",\"m%zu\":%zu", k, k);
	t_put(&b, "}", 1);
	check_stored_header("index after the members", b.s, b.len, FJ_STORE_METHOD_LZ4, 0, 0);
#undef DOC
	free(big.s);
	free(b.s);
}

static void
test_corpus(void)
{
	char	  **files;
	size_t		n = t_corpus_files(&files),
				i;

	for (i = 0; i < n; i++)
	{
		size_t		len;
		char	   *json = t_read_file(files[i], &len);

		if (json)
			check_json(files[i], json, len);
		free(json);
		free(files[i]);
	}
	free(files);
}

/*
 * A root of 9 to 64 members (version 4: its key index is the fingerprints
 * alone, no offsets) with a large member in the middle and small ones
 * after it, which are the tail: a lookup of one of them steps from where
 * the tail starts and decodes no block past block 0's first bytes; one of
 * a member before the large one decodes no block past it either; every
 * lookup finds what the whole tape's lookup finds.
 */
static void
test_tail_fingerprints_only(void)
{
	static const size_t sizes[] = {9, 16, 40, 64};
	size_t		si,
				tail_keys = 0;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
	{
		size_t		n = sizes[si],
					big = n / 2,
					tlen,
					i,
					k;
		t_buf		b = {0};
		uint8_t    *t,
				   *back;
		fj_buf		st;
		fj_stored	s;
		fj_error	err;
		uint16_t	have[16];
		int			ok = 1;
		char		names[64][24];
		const char *keys[64];
		const char *key;

		for (i = 0; i < n; i++)
		{
			snprintf(names[i], sizeof(names[i]), "m%zu", i);
			keys[i] = names[i];
		}
		put_root_with_large_member(&b, n, keys, 3000);
		t = parse(b.s, b.len, &tlen);
		CHECKF(t && (FJ_IMM(t[FJ_TAPE_HEADER]) & FJ_CONTAINER_FP_ONLY), "%zu members: a key index of fingerprints alone", n);
		CHECKF(t && fj_store_encode(t, tlen, FJ_STORE_LEVEL_FAST, &fj_malloc_allocator, 0, &st) &&
			   (st.data[7] & ~FJ_STORE_WHITENED) == FJ_STORE_METHOD_LZ4_TAIL &&
			   fj_store_open(st.data, st.len, &s, &err) == FJ_OK && s.nblocks >= 2 &&
			   s.nblocks <= sizeof(have) / sizeof(have[0]), "%zu members: stored with a tail, in blocks", n);
		if (!t || s.nblocks > sizeof(have) / sizeof(have[0]))
		{
			free(t);
			free(b.s);
			continue;
		}
		back = calloc(1, tlen + 8);
		for (i = 0; i < n; i++)
		{
			const uint8_t *want,
					   *got,
					   *m = fj_container_members(t + FJ_TAPE_HEADER);
			bool		past = false,
						in_tail,
						shared = false;
			uint8_t		fp;

			key = keys[i];
			fp = fj_key_fingerprint((const uint8_t *) key, strlen(key));
			/* where member i starts (in the tail or not), and whether a member after the large one shares its fingerprint */
			for (k = 0; k < i; k++)
				m += fj_value_size(m), m += fj_value_size(m);
			in_tail = (size_t) (m - t) >= s.blocks_len;
			for (k = big + 1; k < n; k++)
				shared |= k != i && fj_key_fingerprint((const uint8_t *) keys[k], strlen(keys[k])) == fp;
			want = fj_object_get(t + FJ_TAPE_HEADER, key, strlen(key));
			got = stored_lookup(&s, back, have, key, &ok);
			CHECKF(ok && got && want && memcmp(got, want, fj_value_size(want)) == 0, "%zu members: lookup of %s", n, key);
			for (k = 1; k < s.nblocks; k++)
				past |= have[k] != 0;
			tail_keys += in_tail;
			/* a later candidate (same fingerprint, another key) past the large member costs its decode, as its offset did */
			if (in_tail)
				CHECKF(!past && have[0] <= 512, "%zu members: %s, in the tail, decoded %u bytes of block 0 and blocks past it",
					   n, key, have[0]);
			else if (i < big && !shared)
				CHECKF(!past, "%zu members: %s, before the large member, decoded blocks past it", n, key);
			else if (i > big)
				CHECKF(past, "%zu members: %s, past the large member and not in the tail, without the blocks after it", n, key);
		}
		CHECKF(stored_lookup(&s, back, have, "nothing", &ok) == NULL && ok, "%zu members: missing key", n);
		fj_buf_release(&fj_malloc_allocator, &st);
		free(back);
		free(t);
		free(b.s);
	}
	CHECKF(tail_keys >= 40, "members found in a tail: %zu", tail_keys);
}

/*
 * The LZ4 HC levels (fastjson.compression_level 2 to 12): every corpus file
 * stored at levels 2, 9 and 12 reads back whole, block by block, by prefix
 * and by lookup as at the fast level (check_tape); HC stores the corpus
 * smaller than the fast level does (each file at most 1 % larger), and each
 * level smaller than the one before it, so a level that is not passed on
 * shows.
 */
static void
test_levels(void)
{
	static const int levels[] = {2, 9, 12};
	char	  **files;
	size_t		n = t_corpus_files(&files),
				i,
				k;
	size_t		total[1 + sizeof(levels) / sizeof(levels[0])] = {0};

	for (i = 0; i < n; i++)
	{
		size_t		len,
					tlen,
					size[1 + sizeof(levels) / sizeof(levels[0])];
		char	   *json = t_read_file(files[i], &len);
		uint8_t    *t = json ? parse(json, len, &tlen) : NULL;

		for (k = 0; t && k <= sizeof(levels) / sizeof(levels[0]); k++)
		{
			fj_buf		st;

			store_level = k == 0 ? FJ_STORE_LEVEL_FAST : levels[k - 1];
			size[k] = tlen;
			if (fj_store_encode(t, tlen, store_level, &fj_malloc_allocator, 0, &st))
			{
				size[k] = st.len;
				fj_buf_release(&fj_malloc_allocator, &st);
			}
			total[k] += size[k];
			if (k > 0)
			{
				check_tape(files[i], t, tlen);
				CHECKF(size[k] <= size[0] + size[0] / 100, "%s: level %d stores %zu bytes, the fast level %zu",
					   files[i], store_level, size[k], size[0]);
			}
		}
		store_level = FJ_STORE_LEVEL_FAST;
		free(t);
		free(json);
		free(files[i]);
	}
	free(files);
	if (n > 0)
	{
		for (k = 1; k <= sizeof(levels) / sizeof(levels[0]); k++)
			CHECKF(total[k] < total[k - 1], "level %d stores the corpus in %zu bytes, level %d in %zu",
				   levels[k - 1], total[k], k == 1 ? FJ_STORE_LEVEL_FAST : levels[k - 2], total[k - 1]);
		printf("the corpus stored: %zu bytes at level 1, %zu at 2, %zu at 9, %zu at 12\n",
			   total[0], total[1], total[2], total[3]);
	}
}

/*
 * The keystream is part of the stored form: splitmix64 from seed 0, each
 * output's bytes lowest first (its first outputs are splitmix64's published
 * first values), and its 4-byte strings repeat about as often as random
 * bytes' would (one of 65,533, where chance gives 0.5 on average).
 */
static void
test_keystream(void)
{
	static const uint64_t first[] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL};
	const uint8_t *k = fj_store_keystream();
	uint8_t    *seen = calloc(1, (size_t) 1 << 29);	/* one bit for each 32-bit value */
	size_t		i,
				j,
				repeats = 0;

	for (i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		for (j = 0; j < 8; j++)
			CHECKF(k[8 * i + j] == (uint8_t) (first[i] >> (8 * j)), "keystream byte %zu", 8 * i + j);
	for (i = 0; i + 4 <= FJ_STORE_KEYSTREAM; i++)
	{
		uint32_t	v;

		memcpy(&v, k + i, 4);
		repeats += (seen[v >> 3] >> (v & 7)) & 1;
		seen[v >> 3] |= (uint8_t) (1u << (v & 7));
	}
	CHECKF(repeats < 4, "keystream: %zu of its 4-byte strings repeat", repeats);
	printf("keystream: %zu of its 4-byte strings repeat an earlier one\n", repeats);
	free(seen);
}

int
main(void)
{
	test_keystream();
	test_generated();
	test_incompressible();
	test_hostile_lengths();
	test_long_literal_run();
	test_small_tapes();
	test_root_keys();
	test_tail_fingerprints_only();
	test_root_tail();
	test_corpus();
	test_levels();
	printf("stored lookups: %zu, decoding %zu of their %zu blocks\n", lookups, blocks_decoded, blocks_total);
	return t_summary("test_store");
}
