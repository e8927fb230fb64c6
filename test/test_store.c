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
 *   - lookups in a stored tape decoding only the blocks they ask for
 *     (fj_window with what of each block is decoded, as the SQL layer does, block 0
 *     and the last block of a range by prefix) find what the
 *     lookups in the whole tape find, and decode fewer blocks than all.
 */
#include "harness.h"
#include "../src/tape_store.h"

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
 * Look key up in the root of the stored tape s as the SQL layer does: decode
 * block 0, then whatever range the lookup says it needs, until it answers.
 */
static const uint8_t *
stored_lookup(const fj_stored *s, uint8_t *tape, uint16_t *have, const char *key, int *ok)
{
	fj_error	err;

	memset(have, 0, s->nblocks * sizeof(uint16_t));
	for (;;)
	{
		fj_window	w = {.avail = s->tape_len - FJ_TAPE_HEADER, .have = have, .origin = FJ_TAPE_HEADER,
		.block_log2 = FJ_STORE_BLOCK_LOG2};
		const uint8_t *v = NULL;
		fj_found	r;
		uint32_t	b,
					last;
		size_t		got,
					start,
					end;

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
		last = (uint32_t) ((FJ_TAPE_HEADER + w.need_to - 1) >> FJ_STORE_BLOCK_LOG2);
		for (b = (uint32_t) ((FJ_TAPE_HEADER + w.need_from) >> FJ_STORE_BLOCK_LOG2); b <= last; b++)
		{
			/* up to the end of the range in the last block, the others whole */
			size_t		want = b < last ? FJ_STORE_BLOCK :
				FJ_TAPE_HEADER + w.need_to - ((size_t) b << FJ_STORE_BLOCK_LOG2);

			if (have[b] >= want)
				continue;
			fj_store_block_range(s, b, &start, &end);
			/* every other time from a prefix of the data, as an out-of-line value's first slice */
			if (b == 0 && (lookups & 1) && end - start > 64)
			{
				*ok &= fj_store_decode_block_prefix(s, b, s->data + start, (end - start) / 2, want, tape, &got, &err) == FJ_OK;
				if (got >= (want < fj_store_block_size(s, b) ? want : fj_store_block_size(s, b)))
				{
					have[b] = (uint16_t) got;
					continue;
				}
			}
			*ok &= fj_store_decode_block_prefix(s, b, s->data + start, end - start, want, tape, &got, &err) == FJ_OK &&
				got >= (want < fj_store_block_size(s, b) ? want : fj_store_block_size(s, b));
			have[b] = (uint16_t) got;
		}
	}
}

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

	if (!fj_store_encode(t, len, &fj_malloc_allocator, 3, &st))
	{
		CHECKF(len < FJ_STORE_MIN || len - len / 8 < FJ_STORE_HEADER + 4 * ((len + FJ_STORE_BLOCK - 1) / FJ_STORE_BLOCK) ||
			   1, "%s", name);
		return;
	}
	CHECKF(st.len - 3 <= len - len / 8 && (st.data[3] & FJ_STORE_MARK) && fj_is_stored(st.data[3]),
		   "%s: stored %zu bytes for a tape of %zu", name, st.len - 3, len);
	CHECKF(fj_store_open(st.data + 3, st.len - 3, &s, &err) == FJ_OK && s.tape_len == len && s.flags == t[1],
		   "%s: open: %s", name, err.message ? err.message : "");
	back = malloc(len);
	CHECKF(fj_store_decode(&s, back, &err) == FJ_OK && memcmp(back, t, len) == 0, "%s: decode", name);
	memset(back, 0, len);
	for (i = 0; i < s.nblocks; i++)
		ok &= fj_store_decode_block(&s, i, back, &err) == FJ_OK;
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
				uint8_t    *dst = back + ((size_t) i << FJ_STORE_BLOCK_LOG2);

				memset(dst, 0, n);
				ok = fj_store_decode_block_prefix(&s, i, s.data + start, avail, wants[k], back, &got, &err) == FJ_OK;
				CHECKF(ok && got <= n && memcmp(dst, t + ((size_t) i << FJ_STORE_BLOCK_LOG2), got) == 0 &&
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

/* Objects of n members whose string values are runs of letters (compressible), around the block size. */
static void
test_generated(void)
{
	size_t		n;
	int			stored = 0;

	for (n = 1; n < 400; n += 3)
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

			if (t && fj_store_encode(t, tlen, &fj_malloc_allocator, 0, &st))
			{
				stored++;
				fj_buf_release(&fj_malloc_allocator, &st);
			}
			free(t);
		}
		check_json("generated object", b.s, b.len);
		free(b.s);
	}
	CHECKF(stored > 100, "only %d of the generated documents were stored", stored);
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
	CHECK(t && !fj_store_encode(t, tlen, &fj_malloc_allocator, 0, &st));
	/* short tapes are never stored */
	CHECK(!fj_store_encode((const uint8_t *) "\x03\x00\x00", 3, &fj_malloc_allocator, 0, &st));
	free(t);
	free(b.s);
}

/*
 * A root object without a key index (1 to 8 members) is stored with its keys'
 * fingerprints (method 2): every key it has may be there, a key it lacks is
 * known absent unless it shares a fingerprint; a value stored without them
 * (method 1, as before) is read as ever; damage to them is an error.
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
			   *old,
			   *back;
	fj_buf		st;
	fj_stored	s;
	fj_error	err;
	uint16_t	have[8];
	int			ok = 1;

	for (n = 1; n <= 8; n++)
	{
		/* n members; a large, compressible value in the middle */
		b.len = 0;
		t_put(&b, "{", 1);
		for (i = 0; i < n; i++)
		{
			char		m[64];
			int			l = snprintf(m, sizeof(m), "%s\"%s\":", i ? "," : "", keys[i]);

			t_put(&b, m, (size_t) l);
			if (i == n / 2)
			{
				size_t		k;

				t_put(&b, "[", 1);
				for (k = 0; k < 400; k++)
				{
					l = snprintf(m, sizeof(m), "%s{\"k\":%zu,\"v\":\"value %zu\"}", k ? "," : "", k, k % 7);
					t_put(&b, m, (size_t) l);
				}
				t_put(&b, "]", 1);
			}
			else
				t_put(&b, "\"x\"", 3);
		}
		t_put(&b, "}", 1);
		t = parse(b.s, b.len, &tlen);
		CHECKF(t && fj_store_encode(t, tlen, &fj_malloc_allocator, 0, &st), "root of %zu: stored", n);
		if (!t)
			continue;
		CHECKF(st.data[7] == FJ_STORE_METHOD_LZ4_KEYS && fj_store_open(st.data, st.len, &s, &err) == FJ_OK &&
			   s.nroot_keys == n && s.index_at == FJ_STORE_HEADER + 1 + n, "root of %zu: method 2", n);
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
		back = malloc(tlen);
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
		/* a count of 0 or over 8 */
		{
			static const uint8_t counts[] = {0, FJ_KEY_INDEX_MIN + 1, 255};
			uint8_t		keep = st.data[FJ_STORE_HEADER];
			fj_stored	d;

			for (i = 0; i < sizeof(counts); i++)
			{
				st.data[FJ_STORE_HEADER] = counts[i];
				CHECKF(fj_store_open(st.data, st.len, &d, &err) != FJ_OK, "root of %zu: count %u", n, counts[i]);
			}
			st.data[FJ_STORE_HEADER] = keep;
		}

		/* the same value as stored before method 2: no keys in the header, read as ever */
		old = malloc(st.len);
		memcpy(old, st.data, FJ_STORE_HEADER);
		old[7] = FJ_STORE_METHOD_LZ4;
		memcpy(old + FJ_STORE_HEADER, st.data + FJ_STORE_HEADER + 1 + n, st.len - FJ_STORE_HEADER - 1 - n);
		CHECKF(fj_store_open(old, st.len - 1 - n, &s, &err) == FJ_OK && s.root_keys == NULL &&
			   s.index_at == FJ_STORE_HEADER && fj_store_root_may_have(&s, "nothing", 7),
			   "root of %zu: method 1", n);
		memset(back, 0, tlen);
		CHECKF(fj_store_decode(&s, back, &err) == FJ_OK && memcmp(back, t, tlen) == 0, "root of %zu: method 1 decode", n);
		if (s.nblocks <= sizeof(have) / sizeof(have[0]))
		{
			for (i = 0; i < n; i++)
			{
				const uint8_t *want = fj_object_get(t + FJ_TAPE_HEADER, keys[i], strlen(keys[i])),
						   *got = stored_lookup(&s, back, have, keys[i], &ok);

				CHECKF(ok && got && want && memcmp(got, want, fj_value_size(want)) == 0, "root of %zu: method 1 lookup of %s",
					   n, keys[i]);
			}
			CHECKF(stored_lookup(&s, back, have, "nothing", &ok) == NULL && ok, "root of %zu: method 1, missing key", n);
		}
		free(old);
		free(back);
		fj_buf_release(&fj_malloc_allocator, &st);
		free(t);
	}
	/* most absent keys are known absent from the header alone */
	CHECKF(known_absent >= 8 * 6, "%zu of 64 absent keys known absent", known_absent);

	/* roots that are not small objects carry no keys: an indexed object, an array */
	{
		static const char *prefixes[] = {"{\"a1\":1,\"a2\":2,\"a3\":3,\"a4\":4,\"a5\":5,\"a6\":6,\"a7\":7,\"a8\":8,\"a9\":[",
		"["};

		for (i = 0; i < 2; i++)
		{
			size_t		k;

			b.len = 0;
			t_put(&b, prefixes[i], strlen(prefixes[i]));
			for (k = 0; k < 400; k++)
			{
				char		m[64];
				int			l = snprintf(m, sizeof(m), "%s{\"k\":%zu}", k ? "," : "", k);

				t_put(&b, m, (size_t) l);
			}
			t_put(&b, i == 0 ? "]}" : "]", i == 0 ? 2 : 1);
			t = parse(b.s, b.len, &tlen);
			CHECKF(t && fj_store_encode(t, tlen, &fj_malloc_allocator, 0, &st) && st.data[7] == FJ_STORE_METHOD_LZ4 &&
				   fj_store_open(st.data, st.len, &s, &err) == FJ_OK && s.root_keys == NULL, "root %zu: method 1", i);
			if (t)
				fj_buf_release(&fj_malloc_allocator, &st);
			free(t);
		}
	}
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

int
main(void)
{
	test_generated();
	test_incompressible();
	test_root_keys();
	test_corpus();
	printf("stored lookups: %zu, decoding %zu of their %zu blocks\n", lookups, blocks_decoded, blocks_total);
	return t_summary("test_store");
}
