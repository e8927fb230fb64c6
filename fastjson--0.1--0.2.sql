-- fastjson 0.1 to 0.2: every supported PostgreSQL (15 to 19), loading NDJSON
-- with its bad lines, aggregates that combine, SQL/JSON path on the tape.
-- The C library of 0.2 serves 0.1's objects unchanged: the tape and the
-- hash values do not change.

\echo Use "ALTER EXTENSION fastjson UPDATE TO '0.2'" to load this file. \quit

-- ------------------------------------------------------------ NDJSON

-- One row per line that is not blank: its number, and its document or why
-- it is not one (SQLSTATE, message, detail), so a load keeps the good lines
-- and reports the bad ones on every version (COPY ... ON_ERROR is 17+).
CREATE FUNCTION fastjson_ndjson_lines(text,
	OUT line bigint, OUT doc fastjson, OUT sqlstate text, OUT error text, OUT detail text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'fastjson_ndjson_lines' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_ndjson_lines(bytea,
	OUT line bigint, OUT doc fastjson, OUT sqlstate text, OUT error text, OUT detail text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'fastjson_ndjson_lines' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_ndjson_lines(text) IS 'each line of newline-delimited JSON: its document, or its error';
COMMENT ON FUNCTION fastjson_ndjson_lines(bytea) IS 'each line of newline-delimited JSON (UTF-8 bytes): its document, or its error';

-- ------------------------------------------------------------ storage

-- A large value made by an input function is kept in blocks compressed on
-- their own, so that a lookup decompresses only the blocks it needs: this
-- says which form a value is in ('blocks', or 'tape' for one kept as it is).
CREATE FUNCTION fastjson_storage_form(fastjson) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Storage is extended (it was main), as jsonb's: a row that passes 2 kB has
-- its large value moved out of line, so the heap stays narrow and a scan
-- that reads no document reads few pages. A value in blocks is compressed
-- already (PostgreSQL's compression finds nothing more in it and leaves it
-- as it is); a lookup in it out of line reads only the TOAST chunks holding
-- the blocks it needs, found next to the last ones read rather than through
-- the TOAST index. Plain tapes (values built by functions) are compressed by
-- PostgreSQL as jsonb's values are. Columns made before this update keep
-- main until ALTER TABLE ... ALTER COLUMN ... SET STORAGE extended.
ALTER TYPE fastjson SET (STORAGE = extended);

-- -------------------------------------------------------- aggregates

-- The aggregates' state is now a fastjson value, the array (or object) of the
-- members so far, held expanded while the aggregate runs: states combine, so
-- parallel query runs the aggregates as Partial and Finalize Aggregate, and
-- Citus, which needs a state of a real type, runs them on its workers.
CREATE FUNCTION fastjson_agg_accum(fastjson, anyelement) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_strict_accum(fastjson, anyelement) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_combine(fastjson, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_result(fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_accum(fastjson, "any", "any") RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_strict_accum(fastjson, "any", "any") RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_combine(fastjson, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_result(fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_strict_result(fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_unique_result(fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_unique_strict_result(fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- 0.1's two aggregates move to these functions in place: ALTER AGGREGATE
-- cannot change an aggregate's support functions or state type, and dropping
-- the aggregates would drop (or refuse to drop) the views and functions that
-- use them. This writes what CREATE AGGREGATE would have, dependencies
-- included; 0.1's internal-state functions are then dropped.
UPDATE pg_catalog.pg_aggregate SET
	aggtransfn = 'fastjson_agg_accum(fastjson, anyelement)'::regprocedure,
	aggfinalfn = 'fastjson_agg_result(fastjson)'::regprocedure,
	aggcombinefn = 'fastjson_agg_combine(fastjson, fastjson)'::regprocedure,
	aggtranstype = 'fastjson'::regtype
WHERE aggfnoid = 'fastjson_agg(anyelement)'::regprocedure;
UPDATE pg_catalog.pg_aggregate SET
	aggtransfn = 'fastjson_object_agg_accum(fastjson, "any", "any")'::regprocedure,
	aggfinalfn = 'fastjson_object_agg_result(fastjson)'::regprocedure,
	aggcombinefn = 'fastjson_object_agg_combine(fastjson, fastjson)'::regprocedure,
	aggtranstype = 'fastjson'::regtype
WHERE aggfnoid = 'fastjson_object_agg("any", "any")'::regprocedure;
DELETE FROM pg_catalog.pg_depend
WHERE classid = 'pg_catalog.pg_proc'::regclass AND refclassid = 'pg_catalog.pg_proc'::regclass
	AND objid IN ('fastjson_agg(anyelement)'::regprocedure, 'fastjson_object_agg("any", "any")'::regprocedure)
	AND refobjid IN ('fastjson_agg_transfn(internal, anyelement)'::regprocedure,
		'fastjson_agg_finalfn(internal)'::regprocedure,
		'fastjson_object_agg_transfn(internal, "any", "any")'::regprocedure,
		'fastjson_object_agg_finalfn(internal)'::regprocedure);
INSERT INTO pg_catalog.pg_depend (classid, objid, objsubid, refclassid, refobjid, refobjsubid, deptype)
SELECT 'pg_catalog.pg_proc'::regclass, a.aggfnoid, 0, c.refclassid, c.refobjid, 0, 'n'
FROM pg_catalog.pg_aggregate a,
	LATERAL (VALUES ('pg_catalog.pg_proc'::regclass, a.aggtransfn::oid), ('pg_catalog.pg_proc'::regclass, a.aggfinalfn::oid),
		('pg_catalog.pg_proc'::regclass, a.aggcombinefn::oid), ('pg_catalog.pg_type'::regclass, a.aggtranstype::oid)) c(refclassid, refobjid)
WHERE a.aggfnoid IN ('fastjson_agg(anyelement)'::regprocedure, 'fastjson_object_agg("any", "any")'::regprocedure);
DROP FUNCTION fastjson_agg_transfn(internal, anyelement);
DROP FUNCTION fastjson_agg_finalfn(internal);
DROP FUNCTION fastjson_object_agg_transfn(internal, "any", "any");
DROP FUNCTION fastjson_object_agg_finalfn(internal);

-- Overloads for fastjson arguments (and text keys), which PostgreSQL picks for
-- them over the polymorphic ones. They behave the same; they exist because
-- Citus runs a custom aggregate on its workers only when its declared argument
-- types are the actual ones (its worker_partial_agg refuses anyelement and
-- "any"): with these, fastjson_agg(doc) and fastjson_object_agg(doc ->> 'k',
-- doc) run on the workers.
CREATE FUNCTION fastjson_agg_accum(fastjson, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_agg_accum' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_strict_accum(fastjson, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_agg_strict_accum' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_accum(fastjson, text, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_object_agg_accum' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_strict_accum(fastjson, text, fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_object_agg_strict_accum' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE fastjson_agg(fastjson) (
	SFUNC = fastjson_agg_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_agg_result,
	COMBINEFUNC = fastjson_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg(key text, value fastjson) (
	SFUNC = fastjson_object_agg_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);

-- jsonb's strict and unique variants: fastjson_agg_strict skips SQL NULLs;
-- fastjson_object_agg_strict leaves out the pairs whose value is null (SQL
-- NULL or JSON null, as jsonb_object_agg_strict does); _unique makes a
-- repeated key an error (22030); _unique_strict both (every key counts,
-- including those of the pairs it leaves out).
CREATE AGGREGATE fastjson_agg_strict(anyelement) (
	SFUNC = fastjson_agg_strict_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_agg_result,
	COMBINEFUNC = fastjson_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_strict(key "any", value "any") (
	SFUNC = fastjson_object_agg_strict_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_strict_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_unique(key "any", value "any") (
	SFUNC = fastjson_object_agg_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_unique_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_unique_strict(key "any", value "any") (
	SFUNC = fastjson_object_agg_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_unique_strict_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_agg_strict(fastjson) (
	SFUNC = fastjson_agg_strict_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_agg_result,
	COMBINEFUNC = fastjson_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_strict(key text, value fastjson) (
	SFUNC = fastjson_object_agg_strict_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_strict_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_unique(key text, value fastjson) (
	SFUNC = fastjson_object_agg_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_unique_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_unique_strict(key text, value fastjson) (
	SFUNC = fastjson_object_agg_accum,
	STYPE = fastjson,
	FINALFUNC = fastjson_object_agg_unique_strict_result,
	COMBINEFUNC = fastjson_object_agg_combine,
	PARALLEL = SAFE
);

-- ------------------------------------------- set_lax, object, rows

-- jsonb_set_lax: not strict, as its twin, so that an SQL NULL new value can
-- be treated as asked.
CREATE FUNCTION fastjson_set_lax(target fastjson, path text[], new_value fastjson,
	create_if_missing boolean DEFAULT true, null_value_treatment text DEFAULT 'use_json_null') RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_set_lax(fastjson, text[], fastjson, boolean, text) IS 'fastjson_set, with a choice of what an SQL NULL new value does';

-- jsonb_object: an object of text pairs.
CREATE FUNCTION fastjson_object(text[]) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object(text[], text[]) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_object_two_arg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_object(text[]) IS 'an object of the keys and values of a text array (one dimension alternating, or two of pairs)';
COMMENT ON FUNCTION fastjson_object(text[], text[]) IS 'an object of keys and values from two text arrays';

-- Objects as rows, with jsonb's rules (nested composites, arrays of any
-- dimension, domains, missing keys, typmods), read on the tape by key.
-- Volatility and strictness are jsonb's twins': STABLE (input functions
-- depend on settings such as DateStyle); to_record alone is strict.
CREATE FUNCTION fastjson_populate_record(base anyelement, from_json fastjson) RETURNS anyelement
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_populate_recordset(base anyelement, from_json fastjson) RETURNS SETOF anyelement
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE ROWS 100;
CREATE FUNCTION fastjson_to_record(fastjson) RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_to_recordset(fastjson) RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION fastjson_populate_record(anyelement, fastjson) IS 'a row of the base''s type from an object, the base giving the columns the object lacks';
COMMENT ON FUNCTION fastjson_populate_recordset(anyelement, fastjson) IS 'a row of the base''s type for each object of an array';
COMMENT ON FUNCTION fastjson_to_record(fastjson) IS 'a row from an object, its type from a column definition list';
COMMENT ON FUNCTION fastjson_to_recordset(fastjson) IS 'a row for each object of an array, their type from a column definition list';
-- jsonb_populate_record_valid (17): whether fastjson_populate_record would
-- make a row, the errors of the document's values answering false. Domain
-- checks report softly from 17 only, so before 17 it raises 0A000.
CREATE FUNCTION fastjson_populate_record_valid(base anyelement, from_json fastjson) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_populate_record_valid(anyelement, fastjson) IS
	'whether fastjson_populate_record would make a row from the object (PostgreSQL 17 and later)';

-- ---------------------------------------------------- SQL/JSON path

-- jsonpath on the tape: PostgreSQL's own jsonpath type, evaluated by
-- fastjson's executor straight on the document (never converted to jsonb),
-- with jsonb's semantics, errors and defaults. The _tz variants allow
-- datetime casts with and without time zone and are STABLE, as jsonb's.
CREATE FUNCTION fastjson_path_exists(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS boolean AS 'MODULE_PATHNAME', 'fastjson_path_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_match(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS boolean AS 'MODULE_PATHNAME', 'fastjson_path_match' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_query(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS SETOF fastjson AS 'MODULE_PATHNAME', 'fastjson_path_query' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
CREATE FUNCTION fastjson_path_query_array(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS fastjson AS 'MODULE_PATHNAME', 'fastjson_path_query_array' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_query_first(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS fastjson AS 'MODULE_PATHNAME', 'fastjson_path_query_first' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION fastjson_path_exists_tz(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS boolean AS 'MODULE_PATHNAME', 'fastjson_path_exists_tz' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_match_tz(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS boolean AS 'MODULE_PATHNAME', 'fastjson_path_match_tz' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_query_tz(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS SETOF fastjson AS 'MODULE_PATHNAME', 'fastjson_path_query_tz' LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 1000;
CREATE FUNCTION fastjson_path_query_array_tz(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS fastjson AS 'MODULE_PATHNAME', 'fastjson_path_query_array_tz' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_query_first_tz(target fastjson, path jsonpath, vars fastjson DEFAULT '{}', silent boolean DEFAULT false)
	RETURNS fastjson AS 'MODULE_PATHNAME', 'fastjson_path_query_first_tz' LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION fastjson_path_exists(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath exists test';
COMMENT ON FUNCTION fastjson_path_match(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath match';
COMMENT ON FUNCTION fastjson_path_query(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath query';
COMMENT ON FUNCTION fastjson_path_query_array(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath query wrapped into array';
COMMENT ON FUNCTION fastjson_path_query_first(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath query first item';
COMMENT ON FUNCTION fastjson_path_exists_tz(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath exists test with timezone';
COMMENT ON FUNCTION fastjson_path_match_tz(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath match with timezone';
COMMENT ON FUNCTION fastjson_path_query_tz(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath query with timezone';
COMMENT ON FUNCTION fastjson_path_query_array_tz(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath query wrapped into array with timezone';
COMMENT ON FUNCTION fastjson_path_query_first_tz(fastjson, jsonpath, fastjson, boolean) IS 'jsonpath query first item with timezone';

-- The operators: errors suppressed (silent), no vars, as jsonb's.
CREATE FUNCTION fastjson_path_exists_opr(fastjson, jsonpath) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_path_match_opr(fastjson, jsonpath) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @? (
	LEFTARG = fastjson, RIGHTARG = jsonpath, FUNCTION = fastjson_path_exists_opr,
	RESTRICT = matchingsel, JOIN = matchingjoinsel
);
CREATE OPERATOR @@ (
	LEFTARG = fastjson, RIGHTARG = jsonpath, FUNCTION = fastjson_path_match_opr,
	RESTRICT = matchingsel, JOIN = matchingjoinsel
);
COMMENT ON OPERATOR @? (fastjson, jsonpath) IS 'jsonpath exists';
COMMENT ON OPERATOR @@ (fastjson, jsonpath) IS 'jsonpath match';

-- Both GIN operator classes answer @? and @@ (jsonb's strategies 15 and 16)
-- from entries extracted from the path; every match is rechecked.
ALTER OPERATOR FAMILY fastjson_ops USING gin ADD
	OPERATOR 15 @? (fastjson, jsonpath),
	OPERATOR 16 @@ (fastjson, jsonpath);
ALTER OPERATOR FAMILY fastjson_path_ops USING gin ADD
	OPERATOR 15 @? (fastjson, jsonpath),
	OPERATOR 16 @@ (fastjson, jsonpath);

-- A chain of -> with constant keys and indexes, ending in -> or ->>, is folded
-- by the planner into one lookup of the steps in turn (fastjson_object_field_support):
-- keys[i] is the key of step i, or NULL for the index step indexes[i].
CREATE FUNCTION fastjson_arrow_chain(doc fastjson, keys text[], indexes integer[]) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_arrow_chain_text(doc fastjson, keys text[], indexes integer[]) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_arrow_chain(fastjson, text[], integer[]) IS
	'doc -> step 1 -> step 2 ...: each step the key keys[i] (objects only) or, where keys[i] is NULL, the index indexes[i] (arrays only; a scalar is its own element 0 and -1), as a chain of -> (what the planner folds such a chain into)';
COMMENT ON FUNCTION fastjson_arrow_chain_text(fastjson, text[], integer[]) IS
	'doc -> step 1 ... ->> step n: as a chain of -> ending in ->> (what the planner folds such a chain into)';
CREATE FUNCTION fastjson_object_field_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION fastjson_object_field(fastjson, text) SUPPORT fastjson_object_field_support;
ALTER FUNCTION fastjson_object_field_text(fastjson, text) SUPPORT fastjson_object_field_support;
ALTER FUNCTION fastjson_array_element(fastjson, integer) SUPPORT fastjson_object_field_support;
ALTER FUNCTION fastjson_array_element_text(fastjson, integer) SUPPORT fastjson_object_field_support;

-- ------------------------------------------------------------ strip_nulls
-- jsonb_strip_nulls's strip_in_arrays (PostgreSQL 18), on every version; the
-- 0.1 function's argument gets jsonb's name, so target => works with either.
CREATE OR REPLACE FUNCTION fastjson_strip_nulls(target fastjson) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_strip_nulls(target fastjson, strip_in_arrays boolean) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_strip_nulls' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fastjson_strip_nulls(fastjson, boolean) IS
	'the document without object members whose value is null, and without null array elements when strip_in_arrays';

-- ------------------------------------------------------------ full text search
-- Twins of jsonb's: the lexemes of the string values (to_tsvector), or of the
-- kinds of values a filter names ("string", "numeric", "boolean", "key", "all"),
-- and the document with each string value replaced by its headline.
CREATE FUNCTION to_tsvector(fastjson) RETURNS tsvector
	AS 'MODULE_PATHNAME', 'fastjson_to_tsvector_strings' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION to_tsvector(regconfig, fastjson) RETURNS tsvector
	AS 'MODULE_PATHNAME', 'fastjson_to_tsvector_strings' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION fastjson_to_tsvector(fastjson, filter fastjson) RETURNS tsvector
	AS 'MODULE_PATHNAME', 'fastjson_to_tsvector' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION fastjson_to_tsvector(regconfig, fastjson, filter fastjson) RETURNS tsvector
	AS 'MODULE_PATHNAME', 'fastjson_to_tsvector' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION ts_headline(fastjson, tsquery) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_ts_headline' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION ts_headline(fastjson, tsquery, text) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_ts_headline' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION ts_headline(regconfig, fastjson, tsquery) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_ts_headline_byid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION ts_headline(regconfig, fastjson, tsquery, text) RETURNS fastjson
	AS 'MODULE_PATHNAME', 'fastjson_ts_headline_byid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION to_tsvector(fastjson) IS
	'the lexemes of the document''s string values, in the current text search configuration';
COMMENT ON FUNCTION to_tsvector(regconfig, fastjson) IS 'the lexemes of the document''s string values';
COMMENT ON FUNCTION fastjson_to_tsvector(fastjson, fastjson) IS
	'the lexemes of the values the filter names (an array of "string", "numeric", "boolean", "key", "all"), in the current text search configuration';
COMMENT ON FUNCTION fastjson_to_tsvector(regconfig, fastjson, fastjson) IS
	'the lexemes of the values the filter names (an array of "string", "numeric", "boolean", "key", "all")';
COMMENT ON FUNCTION ts_headline(fastjson, tsquery) IS
	'the document with each string value replaced by its headline, in the current text search configuration';
COMMENT ON FUNCTION ts_headline(fastjson, tsquery, text) IS
	'the document with each string value replaced by its headline (options as ts_headline''s), in the current text search configuration';
COMMENT ON FUNCTION ts_headline(regconfig, fastjson, tsquery) IS
	'the document with each string value replaced by its headline';
COMMENT ON FUNCTION ts_headline(regconfig, fastjson, tsquery, text) IS
	'the document with each string value replaced by its headline (options as ts_headline''s)';
