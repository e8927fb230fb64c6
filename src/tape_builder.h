/*
 * tape_builder.h — build a tape value by value: for functions that make new
 * documents (editing, construction, aggregation, CBOR decoding). Values and
 * whole subtrees of existing tapes are copied in as they are when they are
 * self-contained (fj_value_self_contained); string references that point out
 * of a copied value are written as the strings they stand for. Errors are
 * sticky: check fj_builder_finish's result.
 */
#ifndef FJ_TAPE_BUILDER_H
#define FJ_TAPE_BUILDER_H

#include "fj_core.h"
#include "tape.h"

typedef struct fj_builder_frame
{
	uint32_t	hdr;			/* tape offset of the container's reserved header */
	uint32_t	count;			/* members so far */
	uint32_t	type;			/* FJ_ARRAY or FJ_OBJECT */
	uint32_t	keys;			/* index in the key stack of this object's first key */
} fj_builder_frame;

typedef struct fj_builder
{
	const fj_allocator *a;
	fj_buf		buf;			/* prefix, tape header, values so far */
	size_t		prefix;			/* bytes before the tape header */
	fj_buf		frames;			/* fj_builder_frame: the open containers, innermost last */
	uint32_t	depth;			/* how many */
	fj_buf		keys;			/* uint32_t: tape offsets of the keys of open objects */
	size_t		max_size;		/* 0: no limit */
	uint32_t	max_depth;		/* containers the builder opens; 0: no limit */
	fj_code		error;
	bool		want_key;		/* an object member's key comes next */
	bool		root_done;
	bool		expand_refs;	/* fj_builder_value writes every string reference as its string */
} fj_builder;

/* Start a tape after prefix reserved bytes (a varlena header, say). */
void		fj_builder_init(fj_builder *b, const fj_allocator *a, size_t prefix);
void		fj_builder_begin_array(fj_builder *b);
void		fj_builder_begin_object(fj_builder *b);
/* Close the innermost container. */
void		fj_builder_end(fj_builder *b);
/* The key of the next object member (valid UTF-8). */
void		fj_builder_key(fj_builder *b, const char *key, size_t len);
/*
 * Copy a value (scalar or whole container) of a valid tape: its bytes when
 * it is self-contained, else container by container down to the references
 * that point out of it, which become strings.
 */
void		fj_builder_value(fj_builder *b, const uint8_t *v);
void		fj_builder_null(fj_builder *b);
void		fj_builder_bool(fj_builder *b, bool v);
void		fj_builder_int(fj_builder *b, int64_t v);
/* A string value (valid UTF-8). */
void		fj_builder_string(fj_builder *b, const char *s, size_t len);
/* A number given as JSON number text; false (and nothing added) if it is not one. */
bool		fj_builder_number(fj_builder *b, const char *s, size_t len);
/*
 * Finish: out gets the prefix, then the tape (header and the one root value);
 * FJ_OK, or the first error. The builder's memory is released either way.
 */
fj_code		fj_builder_finish(fj_builder *b, fj_buf *out);

#endif							/* FJ_TAPE_BUILDER_H */
