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
-- are used in place. Storage is main: a value is compressed when the row
-- passes 2 kB, and moved out of line only when, compressed, it still does
-- not fit in a page. A lookup in a value compressed in its row decompresses
-- only the start it needs; one in a value out of line pays an index scan of
-- the TOAST table first. (jsonb is extended: out of line from 2 kB.)
CREATE TYPE fastjson (
	INPUT = fastjson_in,
	OUTPUT = fastjson_out,
	RECEIVE = fastjson_recv,
	SEND = fastjson_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = main,
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
CREATE FUNCTION "json"(fastjson) RETURNS json
	AS 'MODULE_PATHNAME', 'fastjson_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson(jsonb) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION jsonb(fastjson) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'fastjson_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (text AS fastjson) WITH FUNCTION fastjson(text) AS ASSIGNMENT;
CREATE CAST (fastjson AS text) WITH FUNCTION text(fastjson) AS ASSIGNMENT;
CREATE CAST (json AS fastjson) WITH FUNCTION fastjson(json) AS ASSIGNMENT;
CREATE CAST (fastjson AS json) WITH FUNCTION "json"(fastjson) AS ASSIGNMENT;
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

-- ------------------------------------------ comparison, hashing and operator classes

-- jsonb's semantics exactly: a = b iff a::jsonb = b::jsonb, < is jsonb's
-- btree order, and equal documents hash equal (so 1 = 1.0 and
-- {"a":1,"a":2} = {"a":2}). Strings order by the database collation, as jsonb.
CREATE FUNCTION fastjson_cmp(fastjson, fastjson) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_eq(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_ne(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_lt(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_le(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gt(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_ge(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_hash(fastjson) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_hash_extended(fastjson, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS fastjson_ops
	DEFAULT FOR TYPE fastjson USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 fastjson_cmp(fastjson, fastjson);

CREATE OPERATOR CLASS fastjson_ops
	DEFAULT FOR TYPE fastjson USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 fastjson_hash(fastjson),
	FUNCTION 2 fastjson_hash_extended(fastjson, bigint);

-- ------------------------------------------------------ containment and existence

-- jsonb's semantics: @> and <@ compare the documents with duplicate keys
-- removed (numbers by value); ? ?| ?& look at top-level keys, top-level
-- string elements and a string root.
CREATE FUNCTION fastjson_contains(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_contained(fastjson, fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_exists(fastjson, text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_exists_any(fastjson, text[]) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_exists_all(fastjson, text[]) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @> (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_contains,
	COMMUTATOR = <@, RESTRICT = matchingsel, JOIN = matchingjoinsel
);
CREATE OPERATOR <@ (
	LEFTARG = fastjson, RIGHTARG = fastjson, FUNCTION = fastjson_contained,
	COMMUTATOR = @>, RESTRICT = matchingsel, JOIN = matchingjoinsel
);
CREATE OPERATOR ? (
	LEFTARG = fastjson, RIGHTARG = text, FUNCTION = fastjson_exists,
	RESTRICT = matchingsel, JOIN = matchingjoinsel
);
CREATE OPERATOR ?| (
	LEFTARG = fastjson, RIGHTARG = text[], FUNCTION = fastjson_exists_any,
	RESTRICT = matchingsel, JOIN = matchingjoinsel
);
CREATE OPERATOR ?& (
	LEFTARG = fastjson, RIGHTARG = text[], FUNCTION = fastjson_exists_all,
	RESTRICT = matchingsel, JOIN = matchingjoinsel
);

-- ------------------------------------------------ processing functions
-- Twins of jsonb's, marked as jsonb's are. Enumerations give each distinct
-- key once with its operative (last) value; *_text results are those of ->>.

CREATE FUNCTION fastjson_object_keys(fastjson) RETURNS SETOF text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
CREATE FUNCTION fastjson_each(from_json fastjson, OUT key text, OUT value fastjson)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
CREATE FUNCTION fastjson_each_text(from_json fastjson, OUT key text, OUT value text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
CREATE FUNCTION fastjson_array_elements(from_json fastjson, OUT value fastjson)
	RETURNS SETOF fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
CREATE FUNCTION fastjson_array_elements_text(from_json fastjson, OUT value text)
	RETURNS SETOF text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
CREATE FUNCTION fastjson_extract_path(from_json fastjson, VARIADIC path_elems text[])
	RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_extract_path_op' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_extract_path_text(from_json fastjson, VARIADIC path_elems text[])
	RETURNS text
	AS 'MODULE_PATHNAME', 'fastjson_extract_path_text_op' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_strip_nulls(fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_pretty(fastjson) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ---------------------------------------------------------- construction
-- to_jsonb's conversion rules; STABLE as jsonb's (output functions such as
-- timestamptz's depend on settings).

CREATE FUNCTION to_fastjson(anyelement) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_build_object(VARIADIC "any") RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_build_object() RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_build_object_noargs' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_build_array(VARIADIC "any") RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_build_array() RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_build_array_noargs' LANGUAGE C STABLE PARALLEL SAFE;

-- ------------------------------------------------------------ aggregates
-- As jsonb_agg and jsonb_object_agg: no combine function (parallel safe, run
-- in the leader); the final functions leave the state as it is.

CREATE FUNCTION fastjson_agg_transfn(internal, anyelement) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_finalfn(internal) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE fastjson_agg(anyelement) (
	SFUNC = fastjson_agg_transfn,
	STYPE = internal,
	FINALFUNC = fastjson_agg_finalfn,
	PARALLEL = SAFE
);

CREATE FUNCTION fastjson_object_agg_transfn(internal, "any", "any") RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_finalfn(internal) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE fastjson_object_agg(key "any", value "any") (
	SFUNC = fastjson_object_agg_transfn,
	STYPE = internal,
	FINALFUNC = fastjson_object_agg_finalfn,
	PARALLEL = SAFE
);

-- -------------------------------------------------------- scalar casts
-- Explicit, as jsonb's: '1.5'::fastjson::int4 rounds to 2 as jsonb does;
-- numbers stay exact ('1e400'::fastjson::numeric).

CREATE FUNCTION bool(fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME', 'fastjson_to_bool' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION "numeric"(fastjson) RETURNS numeric
	AS 'MODULE_PATHNAME', 'fastjson_to_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION int2(fastjson) RETURNS smallint
	AS 'MODULE_PATHNAME', 'fastjson_to_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION int4(fastjson) RETURNS integer
	AS 'MODULE_PATHNAME', 'fastjson_to_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION int8(fastjson) RETURNS bigint
	AS 'MODULE_PATHNAME', 'fastjson_to_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION float4(fastjson) RETURNS real
	AS 'MODULE_PATHNAME', 'fastjson_to_float4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION float8(fastjson) RETURNS double precision
	AS 'MODULE_PATHNAME', 'fastjson_to_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (fastjson AS boolean) WITH FUNCTION bool(fastjson);
CREATE CAST (fastjson AS numeric) WITH FUNCTION "numeric"(fastjson);
CREATE CAST (fastjson AS smallint) WITH FUNCTION int2(fastjson);
CREATE CAST (fastjson AS integer) WITH FUNCTION int4(fastjson);
CREATE CAST (fastjson AS bigint) WITH FUNCTION int8(fastjson);
CREATE CAST (fastjson AS real) WITH FUNCTION float4(fastjson);
CREATE CAST (fastjson AS double precision) WITH FUNCTION float8(fastjson);

-- ------------------------------------------------------------ GIN indexes
-- fastjson_ops (the default) answers @>, ?, ?| and ?& with jsonb_ops
-- semantics: one entry per key and per scalar value. fastjson_path_ops answers
-- @> only, with one hash per path and value, like jsonb_path_ops: smaller and
-- faster for containment. Both are built from the tape, never through jsonb.

CREATE FUNCTION fastjson_gin_compare(text, text) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_extract(fastjson, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_extract_query(fastjson, internal, int2, internal, internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_consistent(internal, int2, fastjson, int4, internal, internal, internal, internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_triconsistent(internal, int2, fastjson, int4, internal, internal, internal) RETURNS "char"
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS fastjson_ops
	DEFAULT FOR TYPE fastjson USING gin AS
	OPERATOR 7 @> (fastjson, fastjson),
	OPERATOR 9 ? (fastjson, text),
	OPERATOR 10 ?| (fastjson, text[]),
	OPERATOR 11 ?& (fastjson, text[]),
	FUNCTION 1 fastjson_gin_compare(text, text),
	FUNCTION 2 fastjson_gin_extract(fastjson, internal, internal),
	FUNCTION 3 fastjson_gin_extract_query(fastjson, internal, int2, internal, internal, internal, internal),
	FUNCTION 4 fastjson_gin_consistent(internal, int2, fastjson, int4, internal, internal, internal, internal),
	FUNCTION 6 fastjson_gin_triconsistent(internal, int2, fastjson, int4, internal, internal, internal),
	STORAGE text;

CREATE FUNCTION fastjson_gin_extract_path(fastjson, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_extract_path_query(fastjson, internal, int2, internal, internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_consistent_path(internal, int2, fastjson, int4, internal, internal, internal, internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_gin_triconsistent_path(internal, int2, fastjson, int4, internal, internal, internal) RETURNS "char"
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS fastjson_path_ops
	FOR TYPE fastjson USING gin AS
	OPERATOR 7 @> (fastjson, fastjson),
	FUNCTION 1 btint4cmp(int4, int4),
	FUNCTION 2 fastjson_gin_extract_path(fastjson, internal, internal),
	FUNCTION 3 fastjson_gin_extract_path_query(fastjson, internal, int2, internal, internal, internal, internal),
	FUNCTION 4 fastjson_gin_consistent_path(internal, int2, fastjson, int4, internal, internal, internal, internal),
	FUNCTION 6 fastjson_gin_triconsistent_path(internal, int2, fastjson, int4, internal, internal, internal),
	STORAGE int4;

-- ------------------------------------------------------------------- CBOR

-- RFC 8949 CBOR, mapped as doc/cbor.md describes. fastjson_to_cbor writes
-- preferred serialization (shortest integers and floats, bignums and decimal
-- fractions where a number needs them); deterministic => true also sorts map
-- keys and rejects duplicate keys (RFC 8949 §4.2.1). fastjson_from_cbor
-- reads any well-formed item (§6.1); substitute_null => true turns NaN,
-- infinities, undefined and simple values into null instead of an error.
-- The casts fastjson::bytea and bytea::fastjson are these functions with
-- their defaults; they are explicit only, since bytea could mean other things.
CREATE FUNCTION fastjson_to_cbor(doc fastjson, deterministic boolean DEFAULT false) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_to_cbor(fastjson, boolean) IS 'the document as RFC 8949 CBOR (deterministic: sorted keys, unique keys required)';
CREATE FUNCTION fastjson_from_cbor(data bytea, substitute_null boolean DEFAULT false) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_from_cbor(bytea, boolean) IS 'one RFC 8949 CBOR data item as fastjson (substitute_null: null for values JSON lacks)';

CREATE FUNCTION bytea(fastjson) RETURNS bytea
	AS 'MODULE_PATHNAME', 'fastjson_to_cbor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson(bytea) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_from_cbor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (fastjson AS bytea) WITH FUNCTION bytea(fastjson);
CREATE CAST (bytea AS fastjson) WITH FUNCTION fastjson(bytea);
