/*
 * fastjson.h — what the SQL layer shares: the datum layout, the palloc
 * allocator for the core, settings and error reporting.
 *
 * A fastjson datum is a varlena whose payload is a tape (src/tape.h): the
 * version byte, the flags byte, then the root value.
 */
#ifndef FASTJSON_H
#define FASTJSON_H

#include "postgres.h"
#include "fmgr.h"
#include "nodes/nodes.h"
#include "storage/buf.h"
#include "storage/itemptr.h"
#include "utils/expandeddatum.h"
#include "pg_compat.h"

#include "fj_core.h"
#include "tape.h"
#include "tape_builder.h"

typedef struct varlena Fastjson;

/* The tape of a (detoasted, possibly short-header) datum, and its root value. */
#define FJ_TAPE(d) ((const uint8_t *) VARDATA_ANY(d))
#define FJ_TAPE_LEN(d) ((size_t) VARSIZE_ANY_EXHDR(d))
#define FJ_ROOT(d) (FJ_TAPE(d) + FJ_TAPE_HEADER)

/* Whether the root of a tape (its header on) is an object whose keys all differ. */
static inline bool
fastjson_distinct_root(const uint8_t *tape)
{
	return (tape[1] & FJ_FLAG_DISTINCT_ROOT_KEYS) != 0;
}

/*
 * Ask the CPU for the FASTJSON_PREFETCH_ROWS bytes below a datum as the row
 * holds it, before a lookup in it. A sequential scan returns a page's tuples
 * in the order of their line pointers, and PostgreSQL fills a page from its
 * end down, so the scan's next rows lie just below this one. Without this,
 * the first touch of each row (its header, as the scan deforms it) waits for
 * memory: 42 % of a lookup in the corpus log's small rows, in a profile.
 * A datum that is not on a page gets bytes it has no use for, at no other
 * cost: a prefetch never faults, whatever the address. Called once where a
 * document argument is first read: lookup_datum, fastjson_doc_open, and the
 * paths of containment, existence and jsonpath that take it whole.
 */
#define FASTJSON_PREFETCH_ROWS 1024

static inline void
fastjson_prefetch_next_rows(Datum datum)
{
	uintptr_t	p = (uintptr_t) DatumGetPointer(datum);
	uintptr_t	k;

	for (k = 64; k <= FASTJSON_PREFETCH_ROWS && k < p; k += 64)
		__builtin_prefetch((const void *) (p - k));
}

/*
 * Ask the CPU for the first FASTJSON_PREFETCH_MAX bytes of a plain tape at
 * once, before a lookup in it. A lookup in a small object steps from member
 * to member, each member's head in another cache line of a row just read
 * from a page: without this each step waits for its line in turn.
 */
#define FASTJSON_PREFETCH_MAX 2048

static inline void
fastjson_prefetch_tape(const uint8_t *tape, size_t len)
{
	size_t		k;

	len = Min(len, (size_t) FASTJSON_PREFETCH_MAX);
	for (k = 64; k < len; k += 64)
		__builtin_prefetch(tape + k);
}

/* fastjson_io.c: ereport a stored value whose tape this build does not read. */
pg_noreturn void		fastjson_report_tape_version(const Fastjson *d);
/* The same for a tape whose first byte, the version, is version. */
pg_noreturn void		fastjson_report_tape_version_byte(int version);

/* fastjson_store.c: the tape of a datum in the stored form (src/tape_store.h), decompressed. */
Fastjson   *fastjson_unstore(const Fastjson *d);
/*
 * The stored form of a new datum d, when d is large enough and compresses
 * (pfree'ing d), else d itself: for values that are about to be stored.
 */
Fastjson   *fastjson_store(Fastjson *d);

/*
 * The start of fastjson's own expanded objects (utils/expandeddatum.h): an
 * aggregate's state (fastjson_agg.c) and a value not yet stored (below).
 * Their flat form is made on PostgreSQL's first request, in the object's
 * context, and kept until the object sets it back to NULL (out of date).
 * fastjson_expanded_flat_size does that for an object's get_flat_size
 * method, with make building the flat form; fastjson_expanded_flatten is
 * the flatten_into method of both.
 */
typedef struct FastjsonExpanded
{
	ExpandedObjectHeader hdr;
	Fastjson   *flat;			/* the flat form, or NULL until asked for */
} FastjsonExpanded;
Size		fastjson_expanded_flat_size(FastjsonExpanded *e, Fastjson *(*make) (FastjsonExpanded *e));
void		fastjson_expanded_flatten(ExpandedObjectHeader *eohptr, void *result, Size allocated_size);

/*
 * A new value from an input function or a cast, made between
 * fastjson_new_begin (hint: about how long its tape will be, such as the
 * input's length) and fastjson_new_end, which returns its datum: a tape
 * long enough to be stored in blocks as an expanded object whose flat form
 * is the stored form, made only when PostgreSQL stores or copies the value
 * (fastjson_store.c); a shorter one as it is. d is the tape made in between,
 * in CurrentMemoryContext, or NULL (a soft error: the datum is 0).
 */
typedef struct FastjsonNew
{
	MemoryContext old;			/* the caller's context */
	MemoryContext cxt;			/* the value's own, or NULL */
} FastjsonNew;
void		fastjson_new_begin(FastjsonNew *nv, size_t hint);
Datum		fastjson_new_end(FastjsonNew *nv, Fastjson *d);

/*
 * The datum of a document that a function built or edited (d, in
 * CurrentMemoryContext): a value not yet stored, as fastjson_new_end makes
 * it, when its tape may be stored in blocks; d itself otherwise.
 */
Datum		fastjson_made(Fastjson *d);
#define PG_RETURN_FASTJSON_MADE(x) return fastjson_made(x)

/* A value of fastjson_new_end not yet stored: the plain tape it holds. */
extern const ExpandedObjectMethods fastjson_pending_methods;
Fastjson   *fastjson_pending_tape(Datum datum);

static inline bool
fastjson_is_pending(Datum datum)
{
	return VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(datum)) &&
		DatumGetEOHP(datum)->eoh_methods == &fastjson_pending_methods;
}

/* datum, or the plain tape it holds if it is a value not yet stored. */
static inline Datum
fastjson_unpend(Datum datum)
{
	return fastjson_is_pending(datum) ? PointerGetDatum(fastjson_pending_tape(datum)) : datum;
}

/*
 * A detoasted datum whose tape this build reads; one in the stored form
 * (large values, compressed in blocks) is decompressed. A value stored by a
 * build with another tape version is an error, never misread.
 */
static inline Fastjson *
fastjson_readable(Fastjson *d)
{
	if (unlikely(FJ_TAPE_LEN(d) <= FJ_TAPE_HEADER || !fj_tape_version_readable(FJ_TAPE(d)[0])))
	{
		if (FJ_TAPE_LEN(d) > 0 && (FJ_TAPE(d)[0] & 0x80))
			return fastjson_unstore(d);
		fastjson_report_tape_version(d);
	}
	return d;
}

/*
 * fastjson_readable of raw, the detoasted form of datum. When raw is a copy
 * (a value out of line or compressed by PostgreSQL) and the tape had to be
 * decompressed from it, the copy is freed: a sort or a hash index calls the
 * comparison or the hash function in a memory context that lasts for all of
 * its rows, so a copy left behind on each call would add up.
 */
static inline Fastjson *
fastjson_readable_from(Datum datum, struct varlena *raw)
{
	Fastjson   *d = fastjson_readable((Fastjson *) raw);

	if (d != (Fastjson *) raw && (Pointer) raw != DatumGetPointer(datum))
		pfree(raw);
	return d;
}

/* A datum, detoasted, whose tape this build reads. */
static inline Fastjson *
DatumGetFastjsonP(Datum datum)
{
	datum = fastjson_unpend(datum);
	return fastjson_readable_from(datum, PG_DETOAST_DATUM_PACKED(datum));
}

/*
 * datum detoasted whole, a value out of line read through a TOAST cursor in
 * the call's fn_extra (src/fastjson_toast.c): for functions that read all of
 * a value and leave fn_extra to it.
 */
struct varlena *fastjson_toast_fetch(FunctionCallInfo fcinfo, Datum datum);

#define PG_GETARG_FASTJSON_P(n) DatumGetFastjsonP(PG_GETARG_DATUM(n))

/*
 * fastjson_store.c: PG_GETARG_FASTJSON_P(argno), but when the argument is
 * the same for every call of the expression (get_fn_expr_arg_stable: a
 * constant, an external parameter) and in the stored form, its tape is
 * decompressed once and kept until the transaction ends (*kept is then
 * true: the caller must not free it, nor return it or any part of it).
 * fastjson_arg_keepable says whether the argument is one that is kept.
 */
Fastjson   *fastjson_getarg_kept(FunctionCallInfo fcinfo, int argno, bool *kept);
bool		fastjson_arg_keepable(FunctionCallInfo fcinfo, int argno);

/*
 * PG_FREE_IF_COPY for the value of PG_GETARG_FASTJSON_P(n): the tape of a
 * value not yet stored is the value's own, not a copy, and stays.
 */
#define FASTJSON_FREE_IF_COPY(d, n) \
	do { \
		if ((Pointer) (d) != PG_GETARG_POINTER(n) && !fastjson_is_pending(PG_GETARG_DATUM(n))) \
			pfree(d); \
	} while (0)
#define PG_GETARG_FASTJSON_WHOLE(n) \
	fastjson_readable_from(fastjson_unpend(PG_GETARG_DATUM(n)), fastjson_toast_fetch(fcinfo, PG_GETARG_DATUM(n)))
#define PG_RETURN_FASTJSON_P(x) PG_RETURN_POINTER(x)

/* fastjson_module.c */
extern const fj_allocator fastjson_palloc_allocator;
extern int	fastjson_max_depth;
extern int	fastjson_compression_level;	/* fastjson.compression_level: tape_store.h's level */
#define FASTJSON_COMPRESSION_LEVEL_DEFAULT FJ_STORE_LEVEL_FAST	/* LZ4's fast mode */
extern const fj_kernel *fastjson_kernel;

/* fj_buf_reserve and fj_buf_push in CurrentMemoryContext; failure is an error. */
void		fastjson_buf_reserve(fj_buf *buf, size_t need);
void	   *fastjson_buf_push(fj_buf *buf, size_t size);
/* Parse options for the server: palloc, the chosen kernel, limits, cancel. */
void		fastjson_parse_options(fj_parse_options *opt);

/* fastjson_io.c */

/*
 * fastjson_extract.c: the operative member key[0..len) of the root of the
 * fastjson argument argno, or NULL, read as -> reads it: of a large stored
 * value, only the blocks (or the prefix) the lookup needs. The value lives
 * until the end of the call.
 */
const uint8_t *fastjson_lookup_key(FunctionCallInfo fcinfo, int argno, const char *key, int len);
/* Where a lookup that found nothing stopped: at its step-th key, in a value of type (FJ_OBJECT: the key is missing). */
typedef struct FastjsonLookupStop
{
	int			step;
	uint8_t		type;
} FastjsonLookupStop;

/* A TOAST chunk read: its tuple, its page's last tuple (0: not known), its number. */
typedef struct FastjsonToastChunkAt
{
	ItemPointerData tid;
	uint16		maxoff;
	int32		seq;
} FastjsonToastChunkAt;

/*
 * Where a function's reads of values out of line stand (src/fastjson_toast.c):
 * the TOAST table, in which transaction, its pages then, and the chunks of
 * the last value read.
 */
typedef struct FastjsonToastCursor
{
	Oid			toastrelid;
	uint32		lxid;
	uint32		cid;			/* the command in which nblocks was counted */
	uint32		nblocks;
	Oid			last_valueid;	/* the last value read, */
	int32		last_total;		/* its chunks, */
	FastjsonToastChunkAt last;	/* the last of them read, */
	FastjsonToastChunkAt front;	/* the farthest in the table, */
	FastjsonToastChunkAt first;	/* and chunk 0, if read; */
	FastjsonToastChunkAt tail;	/* a short last chunk read before the others */
	uint32		slices;			/* slices read */
	uint32		misses;			/* ... of which the index read some chunks */
	uint32		locked_in;		/* the subtransaction that locked the TOAST table, or 0 */
} FastjsonToastCursor;

/*
 * A slice of a value out of line read through cur (src/fastjson_toast.c), as
 * detoast_attr_slice reads it; cur NULL, or any other value: by that.
 */
struct varlena *fastjson_toast_slice(struct varlena *attr, int32 sliceoffset, int32 slicelength,
									 FastjsonToastCursor *cur);

/*
 * The first bytes of a value (fastjson_toast_head): in place in its TOAST
 * chunk, whose page stays pinned in buf, or a copy.
 */
typedef struct FastjsonToastHead
{
	const uint8_t *data;
	Size		len;
	Buffer		buf;			/* pinned while data is in place, or InvalidBuffer */
	struct varlena *copy;		/* data's copy, or NULL */
} FastjsonToastHead;

/*
 * The first length bytes of attr, as fastjson_toast_slice reads them; left
 * in place when they are in one chunk found where cur says. Until
 * fastjson_toast_head_release, which every caller must reach (or an error).
 */
void		fastjson_toast_head(struct varlena *attr, int32 length, FastjsonToastCursor *cur,
								FastjsonToastHead *head);
void		fastjson_toast_head_release(FastjsonToastHead *head);

/* The head's bytes as a varlena of their own, the head released. */
struct varlena *fastjson_toast_head_copy(FastjsonToastHead *head);

/* How reading large values by prefix has fared in a query (kept by the caller, zeroed at first). */
typedef struct FastjsonSlices
{
	uint32		sliced;			/* values read by prefix */
	uint32		sliced_in_vain;	/* ... of which most had to be fetched anyway */
	uint32		stored_out;		/* values in the stored form out of line, read from one chunk */
	uint32		stored_refetched;	/* ... of which a block had to be fetched after it */
	uint32		need0;			/* where the last value found in a stored value's block 0 ended; 0 at first */
	FastjsonToastCursor toast;	/* where reads out of line stand */
} FastjsonSlices;

/* The same, and *stop says where it stopped when it finds nothing. */
const uint8_t *fastjson_lookup_member(FunctionCallInfo fcinfo, int argno, const char *key, int len,
									  FastjsonLookupStop *stop);

/*
 * The value at the end of the object keys keys[0..n) (lengths lens) from the
 * root of the fastjson datum doc, read as #> reads it (only the blocks or the
 * prefix needed of a large value), or NULL with *stop saying where it
 * stopped. The value lives in the current memory context (or in doc).
 */
const uint8_t *fastjson_follow_keys(Datum doc, int n, char **keys, int *lens, FastjsonSlices *slices,
									FastjsonLookupStop *stop);
/* Whether the fastjson argument argno is compressed, out of line or in the stored form. */
bool		fastjson_arg_is_large(FunctionCallInfo fcinfo, int argno);

/*
 * A fastjson value read by several lookups (the keys of @> and ?&), which
 * share what they fetch and decode: a value in the stored form is read block
 * by block as -> reads it, any other value whole when first needed. Memory
 * is the caller's context. A value out of line is fetched from its first
 * chunk, or whole once the call's lookups show that pays (as for ->);
 * fastjson_doc_close counts how that went and lets go of the first slice
 * (values found stay valid).
 */
typedef struct FastjsonDoc FastjsonDoc;

FastjsonDoc *fastjson_doc_open(FunctionCallInfo fcinfo, int argno);
const uint8_t *fastjson_doc_member(FastjsonDoc *doc, const char *key, int len, FastjsonLookupStop *stop);
Fastjson   *fastjson_doc_whole(FastjsonDoc *doc);
void		fastjson_doc_close(FastjsonDoc *doc);

/* Error unless the database encoding is one fastjson works in (UTF8, SQL_ASCII). */
void		fastjson_check_encoding(void);
/*
 * A path element as an array index, as jsonb reads one (strtol's syntax, the
 * whole string, within int's range); false if it is not one.
 */
bool		fastjson_path_index(const char *s, int *out);
/* Parse UTF-8 JSON text into a new datum, or NULL after a soft error in escontext. */
Fastjson   *fastjson_parse_text_safe(const char *json, size_t len, Node *escontext);
/* Parse UTF-8 JSON text into a new datum; reports errors with ereport. */
Fastjson   *fastjson_parse_text(const char *json, size_t len);
/*
 * Parse UTF-8 JSON text into a new value about to be stored (an input
 * function's or a cast's: fastjson_new_end), or (Datum) 0 after a soft
 * error in escontext.
 */
Datum		fastjson_parse_text_new(const char *json, size_t len, Node *escontext);
/* Canonical JSON text of a tape value, NUL-terminated; *len gets its length. */
char	   *fastjson_value_to_cstring(const uint8_t *v, size_t *len);
/* Canonical JSON text of a tape value as a text datum. */
text	   *fastjson_value_to_text(const uint8_t *v);
/* A new datum holding a copy of the tape value v. */
Fastjson   *fastjson_from_value(const uint8_t *v);
/* Start a builder for a new datum (palloc, varlena header reserved). */
void		fastjson_builder_init(fj_builder *b);
/* Finish a builder into a datum; reports its error, if any, with ereport. */
Fastjson   *fastjson_builder_finish(fj_builder *b);
/* An input error as PostgreSQL reports it. */
typedef struct FastjsonInputError
{
	int			sqlerrcode;
	char	   *message;
	char	   *detail;			/* or NULL */
	char	   *hint;			/* or NULL */
	char	   *context;		/* or NULL */
} FastjsonInputError;

/*
 * Describe a core error from parsing json[0..len) in jsonb's words. Out of
 * memory and a cancel are not described: they are raised at once.
 */
void		fastjson_describe_parse_error(const fj_error *err, const char *json, size_t len,
										  FastjsonInputError *e);

/*
 * Report an input error: saved in escontext when that is an ErrorSaveContext
 * (a soft error, 16 and later: the caller then returns NULL), else raised.
 */
void		fastjson_report_input_error(const FastjsonInputError *e, Node *escontext);
/* Both of the above for a core error from parsing json[0..len). */
void		fastjson_report_parse_error(const fj_error *err, const char *json, size_t len,
										Node *escontext);

#endif							/* FASTJSON_H */
