/*
 * fastjson_edit.h — setting a value at a path, as jsonb's setPath does:
 * shared by the edit functions (fastjson_edit.c) and subscript assignment
 * (fastjson_subscript.c).
 */
#ifndef FASTJSON_EDIT_H
#define FASTJSON_EDIT_H

#include "fastjson.h"

/* What setPath does, as jsonb's JB_PATH_* flags. */
#define PATH_CREATE 0x0001
#define PATH_DELETE 0x0002
#define PATH_REPLACE 0x0004
#define PATH_INSERT_BEFORE 0x0008
#define PATH_INSERT_AFTER 0x0010
#define PATH_CREATE_OR_INSERT (PATH_CREATE | PATH_INSERT_BEFORE | PATH_INSERT_AFTER)
#define PATH_FILL_GAPS 0x0020
#define PATH_CONSISTENT_POSITION 0x0040

/* A path: text elements (NULLs allowed) and the value to put at its end. */
typedef struct edit_path
{
	Datum	   *elems;
	bool	   *nulls;
	int			len;
	const uint8_t *newval;		/* NULL: a JSON null */
	int			op;
} edit_path;

/*
 * Write v with p applied from path element level on into b (the whole
 * document when level is 0).
 */
void		fastjson_set_path(fj_builder *b, const uint8_t *v, edit_path *p, int level);

#endif							/* FASTJSON_EDIT_H */
