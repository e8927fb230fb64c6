-- fastjson 0.1: the type, its input and output, casts, extraction operators,
-- NDJSON loading and the SIMD settings.

\echo Use "CREATE EXTENSION fastjson" to load this file. \quit

-- ---------------------------------------------------------------- the type

CREATE TYPE fastjson;

CREATE FUNCTION fastjson_in(cstring) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_out(fastjson) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_recv(internal) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_send(fastjson) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- doc['key'][0] reads like #>; assignment through subscripts follows jsonb.
CREATE FUNCTION fastjson_subscript_handler(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The tape is read with unaligned loads, so short (1-byte header) values
-- are used in place; the tape compresses well, so it is stored extended.
CREATE TYPE fastjson (
	INPUT = fastjson_in,
	OUTPUT = fastjson_out,
	RECEIVE = fastjson_recv,
	SEND = fastjson_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = extended,
	SUBSCRIPT = fastjson_subscript_handler,
	CATEGORY = 'U'
);

COMMENT ON TYPE fastjson IS 'JSON document stored as a parsed binary tape; keeps key order, duplicate keys and number spelling';

-- ------------------------------------------------------------------- casts

-- text and json are parsed in place; the results of the reverse casts are
-- the canonical minified text. All four are assignment casts, like
-- json <-> jsonb, so INSERT ... SELECT from a text or json column works.
CREATE FUNCTION fastjson(text) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION text(fastjson) RETURNS text
	AS 'MODULE_PATHNAME', 'fastjson_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson(json) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION json(fastjson) RETURNS json
	AS 'MODULE_PATHNAME', 'fastjson_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson(jsonb) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION jsonb(fastjson) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'fastjson_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (text AS fastjson) WITH FUNCTION fastjson(text) AS ASSIGNMENT;
CREATE CAST (fastjson AS text) WITH FUNCTION text(fastjson) AS ASSIGNMENT;
CREATE CAST (json AS fastjson) WITH FUNCTION fastjson(json) AS ASSIGNMENT;
CREATE CAST (fastjson AS json) WITH FUNCTION json(fastjson) AS ASSIGNMENT;
CREATE CAST (jsonb AS fastjson) WITH FUNCTION fastjson(jsonb) AS ASSIGNMENT;
CREATE CAST (fastjson AS jsonb) WITH FUNCTION jsonb(fastjson) AS ASSIGNMENT;

-- ------------------------------------------------------- input functions

CREATE FUNCTION fastjson_valid(text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_valid(text) IS 'whether the text is one valid JSON document';

CREATE FUNCTION fastjson_from_utf8(bytea) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_from_utf8(bytea) IS 'parse raw UTF-8 bytes (for example a file read with pg_read_binary_file)';

CREATE FUNCTION fastjson_ndjson(text) RETURNS SETOF fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
CREATE FUNCTION fastjson_ndjson(bytea) RETURNS SETOF fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION fastjson_ndjson(text) IS 'one fastjson row per line of newline-delimited JSON';
COMMENT ON FUNCTION fastjson_ndjson(bytea) IS 'one fastjson row per line of newline-delimited JSON (UTF-8 bytes)';

-- ------------------------------------------------------------ extraction

CREATE FUNCTION fastjson_object_field(fastjson, text) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_field_text(fastjson, text) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_array_element(fastjson, integer) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_array_element_text(fastjson, integer) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_extract_path_op(fastjson, text[]) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_extract_path_text_op(fastjson, text[]) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR -> (LEFTARG = fastjson, RIGHTARG = text, FUNCTION = fastjson_object_field);
CREATE OPERATOR ->> (LEFTARG = fastjson, RIGHTARG = text, FUNCTION = fastjson_object_field_text);
CREATE OPERATOR -> (LEFTARG = fastjson, RIGHTARG = integer, FUNCTION = fastjson_array_element);
CREATE OPERATOR ->> (LEFTARG = fastjson, RIGHTARG = integer, FUNCTION = fastjson_array_element_text);
CREATE OPERATOR #> (LEFTARG = fastjson, RIGHTARG = text[], FUNCTION = fastjson_extract_path_op);
CREATE OPERATOR #>> (LEFTARG = fastjson, RIGHTARG = text[], FUNCTION = fastjson_extract_path_text_op);

-- --------------------------------------------------------------- editing

CREATE FUNCTION fastjson_concat(fastjson, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_delete(fastjson, text) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_delete(fastjson, VARIADIC text[]) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_delete_array' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_delete(fastjson, integer) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_delete_idx' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_delete_path(fastjson, text[]) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_set(fastjson, text[], fastjson, create_if_missing boolean DEFAULT true) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_insert(fastjson, text[], fastjson, insert_after boolean DEFAULT false) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR || (LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_concat);
CREATE OPERATOR - (LEFTARG = fastjson, RIGHTARG = text, FUNCTION = fastjson_delete);
CREATE OPERATOR - (LEFTARG = fastjson, RIGHTARG = text[], FUNCTION = fastjson_delete);
CREATE OPERATOR - (LEFTARG = fastjson, RIGHTARG = integer, FUNCTION = fastjson_delete);
CREATE OPERATOR #- (LEFTARG = fastjson, RIGHTARG = text[], FUNCTION = fastjson_delete_path);

CREATE FUNCTION fastjson_typeof(fastjson) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_array_length(fastjson) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ---------------------------------------------------------- SIMD kernels

CREATE FUNCTION fastjson_simd_kernel() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_simd_kernel() IS 'the SIMD kernel that parses fastjson input in this session (see fastjson.simd)';

CREATE FUNCTION fastjson_simd_kernels(OUT name text, OUT supported boolean, OUT in_use boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_simd_kernels() IS 'every SIMD kernel built in, whether this CPU supports it and whether it is in use';
