/*
 * fastjson_toast.c — reading slices of values out of line (TOAST) without
 * the TOAST index when their chunks lie where the last ones read say.
 *
 * PostgreSQL finds a value's chunks by an index scan on (chunk_id,
 * chunk_seq): the TOAST relation and its index opened and locked, a scan
 * begun, the B-tree descended, the heap page read, all undone after each
 * value. That is most of what a lookup in a value out of line costs. Yet a
 * table's values are written to its TOAST table in the order they are
 * inserted, each value's chunks one after another, EXTERN_TUPLES_PER_PAGE
 * full chunks to a page (a short last chunk may go to an earlier page with
 * room). A scan of the table reads them in nearly that order. So a cursor,
 * kept in the calling function's cache for its query, remembers where the
 * last value's chunks were (the last one read, the farthest, chunk 0), and
 * the page of the next chunk wanted is counted from there: from the last
 * chunk read for a later chunk of the same value, from chunk 0 for an
 * earlier one, past the rest of the value's chunks for the next value. That
 * page, the next and the one before are searched for a tuple with the
 * chunk_id and chunk_seq asked for that is visible to the TOAST snapshot,
 * as the index scan checks; a value's short last chunk, which PostgreSQL
 * puts on an earlier page with room, on the pages from where the last such
 * chunk was. Only tuples of the chunk's length are read: the others cost a
 * look at the page's item pointers. A chunk_id is unique in its TOAST
 * table, so that tuple is the chunk the index would give. A chunk not found
 * there, and the rest of its slice, are read by the index as PostgreSQL
 * reads them, and the cursor goes on from the last. When most slices of a
 * query missed (a table read in another order than it was written, by an
 * index say), its cursor gives up and every slice goes by the index. Every chunk is checked as PostgreSQL checks it
 * (its number and size), in both ways.
 *
 * Lookups read slices of a value (fastjson_extract.c), and the first slice,
 * when it is one chunk found so, in place: its bytes are left on their page,
 * which stays pinned until the lookup is done with them (fastjson_toast_head),
 * and block 0 is decoded from there rather than from a copy. Output, send
 * and the casts read whole values the same way (fastjson_toast_fetch).
 * Values out of line in a heap TOAST table are read so; fastjson's stored
 * form is mostly kept uncompressed by PostgreSQL, being compressed already.
 * One PostgreSQL compressed (lz4 keeps any saving: PostgreSQL 19's default)
 * has its compressed chunks read so, all of them or, for pglz, as many as a
 * prefix needs, as detoast_attr_slice fetches them by the index, and
 * decompressed by PostgreSQL. Any other value goes through
 * detoast_attr_slice or detoast_attr.
 */
#define FASTJSON_TOAST_COMPAT
#include "fastjson.h"

#include "access/detoast.h"
#include "access/genam.h"
#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/toast_internals.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "common/pg_lzcompress.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

/* Slices read before a cursor that mostly missed gives up. */
#define CURSOR_PROBES 64

/* Pages looked at for a value's short last chunk, from where the last one was. */
#define TAIL_PAGES 4

/* The size of chunk seq of a value of attrsize bytes in totalchunks chunks. */
static inline int32
chunk_size(int32 seq, int32 totalchunks, int32 attrsize)
{
	return seq < totalchunks - 1 ? (int32) TOAST_MAX_CHUNK_SIZE
		: attrsize - (totalchunks - 1) * (int32) TOAST_MAX_CHUNK_SIZE;
}

/*
 * The data of the chunk in tuple ttup, number seq of value valueid, checked
 * as PostgreSQL checks it (not null, not itself toasted, of the size its
 * number says): in place, in the tuple.
 */
static const char *
chunk_data(Relation toastrel, HeapTuple ttup, Oid valueid, int32 seq, int32 totalchunks, int32 attrsize)
{
	TupleDesc	desc = RelationGetDescr(toastrel);
	bool		isnull;
	Pointer		chunk = DatumGetPointer(fastgetattr(ttup, 3, desc, &isnull));
	char	   *data;
	int32		size,
				expected;

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("null chunk %d for toast value %u in %s", seq, valueid,
								 RelationGetRelationName(toastrel))));
	if (!VARATT_IS_EXTENDED(chunk))
	{
		size = VARSIZE(chunk) - VARHDRSZ;
		data = VARDATA(chunk);
	}
	else if (VARATT_IS_SHORT(chunk))
	{
		size = VARSIZE_SHORT(chunk) - VARHDRSZ_SHORT;
		data = VARDATA_SHORT(chunk);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("found toasted toast chunk for toast value %u in %s", valueid,
								 RelationGetRelationName(toastrel))));
	expected = chunk_size(seq, totalchunks, attrsize);
	if (size != expected)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("unexpected chunk size %d (expected %d) in chunk %d of %d for toast value %u in %s",
								 size, expected, seq, totalchunks, valueid,
								 RelationGetRelationName(toastrel))));
	return data;
}

/* Copy the chunk in tuple ttup, number seq of value valueid, into result's slice. */
static void
copy_chunk(Relation toastrel, HeapTuple ttup, Oid valueid, int32 seq, int32 totalchunks, int32 attrsize,
		   int32 sliceoffset, int32 slicelength, struct varlena *result)
{
	const char *data = chunk_data(toastrel, ttup, valueid, seq, totalchunks, attrsize);
	int32		chunkstart = seq * (int32) TOAST_MAX_CHUNK_SIZE,
				from = Max(sliceoffset - chunkstart, 0),
				to = Min(sliceoffset + slicelength - chunkstart, chunk_size(seq, totalchunks, attrsize));

	/* the part of this chunk inside the slice */
	memcpy(VARDATA(result) + (chunkstart + from - sliceoffset), data + from, to - from);
}

/* The chunk_id and chunk_seq of a TOAST tuple. */
static bool
chunk_is(Relation toastrel, HeapTuple ttup, Oid valueid, int32 seq)
{
	TupleDesc	desc = RelationGetDescr(toastrel);
	bool		null1,
				null2;
	Oid			id = DatumGetObjectId(fastgetattr(ttup, 1, desc, &null1));
	int32		n = DatumGetInt32(fastgetattr(ttup, 2, desc, &null2));

	return !null1 && !null2 && id == valueid && n == seq;
}

/*
 * Note in the cursor the chunk seq of valueid (of total chunks) just read at
 * tid; maxoff is its page's last tuple, or 0 when not known.
 */
static void
cursor_read(FastjsonToastCursor *cur, ItemPointer tid, OffsetNumber maxoff, Oid valueid, int32 seq, int32 total)
{
	bool		same = valueid == cur->last_valueid;

	if (seq == 0)
		cur->first = (FastjsonToastChunkAt) {*tid, maxoff, 0};
	else if (!same)
		ItemPointerSetInvalid(&cur->first.tid);
	cur->last = (FastjsonToastChunkAt) {*tid, maxoff, seq};
	/* not back for a chunk of the same value: its short last chunk may lie on an earlier page */
	if (!same || !ItemPointerIsValid(&cur->front.tid) || ItemPointerCompare(tid, &cur->front.tid) > 0)
		cur->front = cur->last;
	else if (seq == total - 1)
		cur->tail = cur->last;
	cur->last_valueid = valueid;
	cur->last_total = total;
}

/*
 * The chunk seq (of size bytes) of valueid on page blk, from offset off on:
 * in *ttup, or false. *buf is the page pinned last (or InvalidBuffer), kept
 * when it is blk; the page read stays pinned in *buf either way.
 */
static bool
find_on_page(Relation toastrel, Snapshot snapshot, BlockNumber blk, OffsetNumber off, Oid valueid, int32 seq,
			 int32 size, HeapTuple ttup, Buffer *buf, OffsetNumber *maxoff)
{
	Page		p;

	/*
	 * the tuple's length, known from the chunk's size: a header, chunk_id and
	 * chunk_seq, the data's 1- or 4-byte varlena header (room left for a
	 * longer header); tuples of other lengths are passed over unread
	 */
	Size		min_len = SizeofHeapTupleHeader + 8 + 1 + size,
				max_len = MAXALIGN(SizeofHeapTupleHeader) + 16 + 8 + 4 + size;

	if (BufferIsValid(*buf) && BufferGetBlockNumber(*buf) != blk)
	{
		ReleaseBuffer(*buf);
		*buf = InvalidBuffer;
	}
	if (!BufferIsValid(*buf))
		*buf = ReadBuffer(toastrel, blk);
	LockBuffer(*buf, BUFFER_LOCK_SHARE);
	p = BufferGetPage(*buf);
	*maxoff = PageGetMaxOffsetNumber(p);
	for (; off <= *maxoff; off++)
	{
		ItemId		lp = PageGetItemId(p, off);

		if (!ItemIdIsNormal(lp) || ItemIdGetLength(lp) < min_len || ItemIdGetLength(lp) > max_len)
			continue;
		ttup->t_data = (HeapTupleHeader) PageGetItem(p, lp);
		ttup->t_len = ItemIdGetLength(lp);
		ttup->t_tableOid = RelationGetRelid(toastrel);
		ItemPointerSet(&ttup->t_self, blk, off);
		if (chunk_is(toastrel, ttup, valueid, seq) && HeapTupleSatisfiesVisibility(ttup, snapshot, *buf))
		{
			LockBuffer(*buf, BUFFER_LOCK_UNLOCK);
			return true;
		}
	}
	LockBuffer(*buf, BUFFER_LOCK_UNLOCK);
	return false;
}

/*
 * Ask the CPU for the tuple after the farthest chunk read, when it is on the
 * page still pinned in buf: in a table read in the order it was written,
 * the next value's chunk 0, which the next call reads.
 * Only a hint: the page is read without its lock, and an item pointer
 * another backend is writing at that moment at worst points the prefetch at
 * the wrong bytes of the page.
 */
static void
prefetch_next_chunk(Buffer buf, const FastjsonToastCursor *cur)
{
	Page		p = BufferGetPage(buf);
	OffsetNumber off;
	ItemId		lp;
	const char *t;
	Size		k;

	if (!ItemPointerIsValid(&cur->front.tid) || ItemPointerGetBlockNumber(&cur->front.tid) != BufferGetBlockNumber(buf))
		return;
	off = ItemPointerGetOffsetNumber(&cur->front.tid) + 1;
	if (off > PageGetMaxOffsetNumber(p))
		return;
	lp = PageGetItemId(p, off);
	if (!ItemIdIsNormal(lp) || ItemIdGetOffset(lp) + ItemIdGetLength(lp) > BLCKSZ)
		return;
	t = (const char *) PageGetItem(p, lp);
	for (k = 0; k < ItemIdGetLength(lp); k += 64)
		__builtin_prefetch(t + k);
}

/*
 * The chunk seq of valueid where the cursor says it should be. The chunks
 * of a value are stored one after another, EXTERN_TUPLES_PER_PAGE to a page
 * (a value's last, short chunk may go to an earlier page with room); the
 * next value's follow. So the chunk is counted on from a chunk whose place
 * is known: the last one read, for a later chunk of the same value; chunk 0,
 * for an earlier one; for the next value, the value's farthest chunk read.
 * It is looked for on the page that gives, the next one and the one before.
 * In *ttup, or false; *buf as find_on_page leaves it.
 */
static bool
find_near_cursor(Relation toastrel, Snapshot snapshot, FastjsonToastCursor *cur, Oid valueid, int32 seq,
				 int32 total, int32 size, HeapTuple ttup, Buffer *buf)
{
	const FastjsonToastChunkAt *base;
	int64		ahead;			/* tuples from base to the chunk (0: base itself) */
	OffsetNumber base_off,
				left,
				maxoff;
	BlockNumber base_blk,
				est,
				tried[3];
	int			i;

	if (valueid != cur->last_valueid)
	{
		base = &cur->front;
		ahead = (int64) (cur->last_total - 1 - base->seq) + seq + 1;
	}
	else if (seq > cur->last.seq)
	{
		base = &cur->last;
		ahead = seq - base->seq;
	}
	else
	{
		base = &cur->first;
		ahead = seq;
	}
	if (!ItemPointerIsValid(&base->tid))
		return false;
	base_blk = ItemPointerGetBlockNumber(&base->tid);
	base_off = ItemPointerGetOffsetNumber(&base->tid);
	/* tuples on base's page from base on; a page not seen is taken as full */
	if (base->maxoff >= base_off)
		left = base->maxoff - base_off + 1;
	else
		left = base_off <= EXTERN_TUPLES_PER_PAGE ? EXTERN_TUPLES_PER_PAGE - base_off + 1 : 1;
	if (ahead < left)
		est = base_blk;
	else
	{
		est = base_blk + 1 + (BlockNumber) ((ahead - left) / EXTERN_TUPLES_PER_PAGE);
		base_off = FirstOffsetNumber;
	}
	tried[0] = est;
	tried[1] = est + 1;
	tried[2] = est > base_blk ? est - 1 : InvalidBlockNumber;
	for (i = 0; i < 3; i++)
	{
		if (tried[i] == InvalidBlockNumber || tried[i] >= cur->nblocks)
			continue;
		if (find_on_page(toastrel, snapshot, tried[i], tried[i] == est ? base_off : FirstOffsetNumber,
						 valueid, seq, size, ttup, buf, &maxoff))
		{
			cursor_read(cur, &ttup->t_self, maxoff, valueid, seq, total);
			return true;
		}
	}

	/*
	 * A short last chunk not after the others went to an earlier page with
	 * room, as the last value's did: the pages from there on, which a chunk
	 * of another size costs a look at the page's item pointers only.
	 */
	if (seq == total - 1 && size < (int32) TOAST_MAX_CHUNK_SIZE && ItemPointerIsValid(&cur->tail.tid))
	{
		BlockNumber blk = ItemPointerGetBlockNumber(&cur->tail.tid);

		for (i = 0; i < TAIL_PAGES; i++, blk++)
		{
			if (blk >= cur->nblocks)
				break;
			if (blk == tried[0] || blk == tried[1] || blk == tried[2])
				continue;
			if (find_on_page(toastrel, snapshot, blk, FirstOffsetNumber, valueid, seq, size, ttup, buf, &maxoff))
			{
				cursor_read(cur, &ttup->t_self, maxoff, valueid, seq, total);
				return true;
			}
		}
	}
	return false;
}

/* A slice's result of slicelength bytes, to be filled. */
static struct varlena *
new_slice(int32 slicelength)
{
	struct varlena *result = palloc(slicelength + VARHDRSZ);

	SET_VARSIZE(result, slicelength + VARHDRSZ);
	return result;
}

/*
 * The bytes of the value out of line at pointer (as its TOAST chunks hold
 * them: compressed, if PostgreSQL compressed it) from sliceoffset, of
 * slicelength bytes, read through cur. When head is not NULL and the slice
 * lies in one chunk found near the cursor, its bytes are left in place, in
 * head, their page pinned, and NULL is returned; otherwise a copy. A TOAST
 * table of another access method sets *other_am and gives NULL.
 */
static struct varlena *
read_chunks(const struct varatt_external *pointer, int32 sliceoffset, int32 slicelength,
			FastjsonToastCursor *cur, FastjsonToastHead *head, bool *other_am)
{
	struct varatt_external ext = *pointer;
	struct varlena *result = NULL;
	Relation	toastrel;
	Snapshot	snapshot;
	FjToastSnapshotData snapdata;
	int32		attrsize,
				totalchunks,
				startchunk,
				endchunk,
				seq;
	Oid			valueid;
	bool		near,
				locked;

	*other_am = false;
	attrsize = VARATT_EXTERNAL_GET_EXTSIZE(ext);
	valueid = ext.va_valueid;
	if (sliceoffset < 0 || slicelength < 0)
		elog(ERROR, "invalid sliceoffset: %d or slicelength: %d", sliceoffset, slicelength);
	if (sliceoffset >= attrsize)
		sliceoffset = slicelength = 0;
	else if (slicelength > attrsize - sliceoffset)
		slicelength = attrsize - sliceoffset;
	if (slicelength == 0)
		return new_slice(0);

	/*
	 * The lock is kept to the end of the transaction (as the table's own lock
	 * is): no other session can truncate the TOAST table under it, and the
	 * next values' opens need not ask for it again while the subtransaction
	 * that took it runs. The page count is taken again whenever the lock is
	 * taken (a subtransaction that ended by an abort released it, and a
	 * VACUUM may have truncated the table since), and whenever the command
	 * id has moved on: a cursor kept across the commands of a transaction (a
	 * PL/pgSQL function's) must not trust a count taken before this
	 * transaction's own TRUNCATE or CLUSTER, which no command can run while a
	 * scan of the table is open. The command id moves on only after a
	 * command that wrote; CLUSTER and a TRUNCATE to a new file write
	 * pg_class, but a TRUNCATE in place (of a table this transaction created
	 * or gave a new file) writes a catalog only through its index rebuild,
	 * so for such a table the count is taken at every open. The places the
	 * cursor remembers stay: each is only where to look first (a chunk found
	 * there must be the one asked for, and visible), and one past the new
	 * count is not looked at.
	 */
	locked = cur->toastrelid == ext.va_toastrelid && cur->lxid == FJ_MY_LXID &&
		cur->locked_in == GetCurrentSubTransactionId();
	toastrel = table_open(ext.va_toastrelid, locked ? NoLock : AccessShareLock);
	if (toastrel->rd_rel->relam != HEAP_TABLE_AM_OID)
	{
		table_close(toastrel, NoLock);
		*other_am = true;
		return NULL;
	}
	if (cur->toastrelid != ext.va_toastrelid || cur->lxid != FJ_MY_LXID)
	{
		cur->toastrelid = ext.va_toastrelid;
		cur->lxid = FJ_MY_LXID;
		ItemPointerSetInvalid(&cur->last.tid);
		ItemPointerSetInvalid(&cur->front.tid);
		ItemPointerSetInvalid(&cur->first.tid);
		ItemPointerSetInvalid(&cur->tail.tid);
		cur->last_valueid = InvalidOid;
		cur->slices = cur->misses = 0;
	}
	/* a new relation or transaction is never locked: it is counted here too */
	if (!locked || cur->cid != (uint32) GetCurrentCommandId(false) || FJ_REL_NEW_IN_XACT(toastrel))
	{
		cur->cid = (uint32) GetCurrentCommandId(false);
		cur->nblocks = RelationGetNumberOfBlocks(toastrel);
	}
	cur->locked_in = GetCurrentSubTransactionId();
	snapshot = fj_toast_snapshot(&snapdata);
	totalchunks = (attrsize - 1) / (int32) TOAST_MAX_CHUNK_SIZE + 1;
	startchunk = sliceoffset / (int32) TOAST_MAX_CHUNK_SIZE;
	endchunk = (sliceoffset + slicelength - 1) / (int32) TOAST_MAX_CHUNK_SIZE;

	/* where the cursor says, unless most slices of the query missed */
	near = cur->slices < CURSOR_PROBES || cur->misses * 2 <= cur->slices;
	if (cur->slices < PG_UINT32_MAX / 4)
		cur->slices++;
	if (near)
	{
		Buffer		buf = InvalidBuffer;	/* the page pinned last, kept for the next chunk */

		for (seq = startchunk; seq <= endchunk; seq++)
		{
			HeapTupleData ttup;

			if (!find_near_cursor(toastrel, snapshot, cur, valueid, seq, totalchunks,
								  chunk_size(seq, totalchunks, attrsize), &ttup, &buf))
				break;
			if (head && startchunk == endchunk)
			{
				/* in place: the tuple's bytes stay as they are while its page is pinned */
				head->data = (const uint8_t *) chunk_data(toastrel, &ttup, valueid, seq, totalchunks, attrsize) +
					(sliceoffset - seq * (int32) TOAST_MAX_CHUNK_SIZE);
				head->len = (Size) slicelength;
				head->buf = buf;
				head->copy = NULL;
				prefetch_next_chunk(buf, cur);
				table_close(toastrel, NoLock);
				return NULL;
			}
			if (!result)
				result = new_slice(slicelength);
			copy_chunk(toastrel, &ttup, valueid, seq, totalchunks, attrsize, sliceoffset, slicelength, result);
		}
		if (BufferIsValid(buf))
		{
			prefetch_next_chunk(buf, cur);
			ReleaseBuffer(buf);
		}
	}
	else
		seq = startchunk;

	/* the rest by the index, as PostgreSQL reads it */
	if (seq <= endchunk)
	{
		Relation   *toastidxs;
		int			nindexes,
					valid;
		ScanKeyData key[3];
		int			nkeys = 1;
		SysScanDesc scan;
		HeapTuple	ttup;
		int32		first = seq;

		if (!result)
			result = new_slice(slicelength);
		if (cur->misses < PG_UINT32_MAX / 4)
			cur->misses++;
		valid = toast_open_indexes(toastrel, AccessShareLock, &toastidxs, &nindexes);
		ScanKeyInit(&key[0], (AttrNumber) 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(valueid));
		if (first > 0 || endchunk < totalchunks - 1)
		{
			ScanKeyInit(&key[1], (AttrNumber) 2, BTGreaterEqualStrategyNumber, F_INT4GE, Int32GetDatum(first));
			ScanKeyInit(&key[2], (AttrNumber) 2, BTLessEqualStrategyNumber, F_INT4LE, Int32GetDatum(endchunk));
			nkeys = 3;
		}
		scan = systable_beginscan_ordered(toastrel, toastidxs[valid], snapshot, nkeys, key);
		while ((ttup = systable_getnext_ordered(scan, ForwardScanDirection)) != NULL)
		{
			bool		isnull;
			int32		n = DatumGetInt32(fastgetattr(ttup, 2, RelationGetDescr(toastrel), &isnull));

			if (isnull || n != seq || n > endchunk)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("unexpected chunk number %d (expected %d) for toast value %u in %s",
										 n, seq, valueid, RelationGetRelationName(toastrel))));
			copy_chunk(toastrel, ttup, valueid, seq, totalchunks, attrsize, sliceoffset, slicelength, result);
			cursor_read(cur, &ttup->t_self, 0, valueid, seq, totalchunks);
			seq++;
		}
		if (seq <= endchunk)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg_internal("missing chunk number %d for toast value %u in %s",
									 seq, valueid, RelationGetRelationName(toastrel))));
		systable_endscan_ordered(scan);
		toast_close_indexes(toastidxs, nindexes, AccessShareLock);
	}
	table_close(toastrel, NoLock);
	return result;
}

/*
 * The slice of a value PostgreSQL compressed and moved out of line, as
 * detoast_attr_slice gives it (the whole value, as detoast_attr does, for
 * sliceoffset 0 and slicelength -1), its chunks read through cur: all of
 * them, or for pglz those that can hold the compressed bytes of the slice's
 * prefix; then PostgreSQL decompresses as far as the slice reaches.
 */
static struct varlena *
read_compressed_slice(struct varlena *attr, const struct varatt_external *ext, int32 sliceoffset,
					  int32 slicelength, FastjsonToastCursor *cur)
{
	int32		extsize = VARATT_EXTERNAL_GET_EXTSIZE(*ext),
				need = extsize;
	struct varlena *raw,
			   *result;
	bool		other_am;

	if (sliceoffset >= 0 && slicelength >= 0 && sliceoffset <= PG_INT32_MAX - slicelength &&
		VARATT_EXTERNAL_GET_COMPRESS_METHOD(*ext) == TOAST_PGLZ_COMPRESSION_ID)
		need = pglz_maximum_compressed_size(sliceoffset + slicelength, extsize);
	raw = read_chunks(ext, 0, need, cur, NULL, &other_am);
	if (other_am)
		return detoast_attr_slice(attr, sliceoffset, slicelength);
	/* the chunks hold the compressed value's header word and data: an inline compressed value */
	SET_VARSIZE_COMPRESSED(raw, VARSIZE(raw));
	result = sliceoffset == 0 && slicelength < 0 ? detoast_attr(raw) : detoast_attr_slice(raw, sliceoffset, slicelength);
	pfree(raw);
	return result;
}

/*
 * The slice of attr from sliceoffset, of slicelength bytes (of its value as
 * it is, decompressed), read through cur when it is out of line in a heap
 * TOAST table, else by detoast_attr_slice. head: as read_chunks has it, for
 * a value PostgreSQL did not compress.
 */
static struct varlena *
read_slice(struct varlena *attr, int32 sliceoffset, int32 slicelength, FastjsonToastCursor *cur,
		   FastjsonToastHead *head)
{
	struct varatt_external ext;
	struct varlena *result;
	bool		other_am;

	if (!cur || !VARATT_IS_EXTERNAL_ONDISK(attr))
		return detoast_attr_slice(attr, sliceoffset, slicelength);
	VARATT_EXTERNAL_GET_POINTER(ext, attr);
	if (VARATT_EXTERNAL_IS_COMPRESSED(ext))
		return read_compressed_slice(attr, &ext, sliceoffset, slicelength, cur);
	result = read_chunks(&ext, sliceoffset, slicelength, cur, head, &other_am);
	if (other_am)
		return detoast_attr_slice(attr, sliceoffset, slicelength);
	return result;
}

struct varlena *
fastjson_toast_slice(struct varlena *attr, int32 sliceoffset, int32 slicelength, FastjsonToastCursor *cur)
{
	return read_slice(attr, sliceoffset, slicelength, cur, NULL);
}

void
fastjson_toast_head(struct varlena *attr, int32 length, FastjsonToastCursor *cur, FastjsonToastHead *head)
{
	struct varlena *copy = read_slice(attr, 0, length, cur, head);

	if (copy)
	{
		head->data = (const uint8_t *) VARDATA_ANY(copy);
		head->len = VARSIZE_ANY_EXHDR(copy);
		head->buf = InvalidBuffer;
		head->copy = copy;
	}
}

void
fastjson_toast_head_release(FastjsonToastHead *head)
{
	if (BufferIsValid(head->buf))
		ReleaseBuffer(head->buf);
	if (head->copy)
		pfree(head->copy);
	*head = (FastjsonToastHead) {.buf = InvalidBuffer};
}

struct varlena *
fastjson_toast_head_copy(FastjsonToastHead *head)
{
	struct varlena *copy = head->copy;

	if (!copy)
	{
		copy = new_slice((int32) head->len);
		memcpy(VARDATA(copy), head->data, head->len);
	}
	head->copy = NULL;
	fastjson_toast_head_release(head);
	return copy;
}

/*
 * datum detoasted whole, for a function that reads all of it (output, send,
 * casts): a plain value out of line is read through a cursor kept in the
 * call's fn_extra, which such a function must leave to it.
 */
struct varlena *
fastjson_toast_fetch(FunctionCallInfo fcinfo, Datum datum)
{
	struct varlena *attr;
	struct varatt_external ext;

	datum = fastjson_unpend(datum);
	attr = (struct varlena *) DatumGetPointer(datum);
	if (!VARATT_IS_EXTERNAL_ONDISK(attr) || !fcinfo->flinfo)
		return PG_DETOAST_DATUM_PACKED(datum);
	VARATT_EXTERNAL_GET_POINTER(ext, attr);
	if (!fcinfo->flinfo->fn_extra)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FastjsonToastCursor));
	/* a compressed value whole: all its chunks, then decompressed whole */
	return fastjson_toast_slice(attr, 0, VARATT_EXTERNAL_IS_COMPRESSED(ext) ? -1 : (int32) VARATT_EXTERNAL_GET_EXTSIZE(ext),
								fcinfo->flinfo->fn_extra);
}
