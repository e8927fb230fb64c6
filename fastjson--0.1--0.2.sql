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

-- -------------------------------------------------------- aggregates

-- The states of fastjson_agg and fastjson_object_agg combine, so parallel
-- query runs them as Partial and Finalize Aggregate and Citus runs them on
-- its workers. A state is serialized as a fastjson tape (the array or object
-- of its members so far) and validated when it is read back.
CREATE FUNCTION fastjson_agg_combinefn(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_serializefn(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_agg_deserializefn(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_serializefn(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_deserializefn(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- 0.1's two aggregates get these support functions in place: ALTER AGGREGATE
-- cannot set them, and dropping the aggregates would drop (or refuse to drop)
-- the views and functions that use them. This is what CREATE AGGREGATE would
-- have written, dependencies included.
UPDATE pg_catalog.pg_aggregate SET
	aggcombinefn = 'fastjson_agg_combinefn(internal, internal)'::regprocedure,
	aggserialfn = 'fastjson_agg_serializefn(internal)'::regprocedure,
	aggdeserialfn = 'fastjson_agg_deserializefn(bytea, internal)'::regprocedure
WHERE aggfnoid = 'fastjson_agg(anyelement)'::regprocedure;
UPDATE pg_catalog.pg_aggregate SET
	aggcombinefn = 'fastjson_agg_combinefn(internal, internal)'::regprocedure,
	aggserialfn = 'fastjson_object_agg_serializefn(internal)'::regprocedure,
	aggdeserialfn = 'fastjson_object_agg_deserializefn(bytea, internal)'::regprocedure
WHERE aggfnoid = 'fastjson_object_agg("any", "any")'::regprocedure;
INSERT INTO pg_catalog.pg_depend (classid, objid, objsubid, refclassid, refobjid, refobjsubid, deptype)
SELECT 'pg_catalog.pg_proc'::regclass, a.aggfnoid, 0, 'pg_catalog.pg_proc'::regclass, f.oid, 0, 'n'
FROM pg_catalog.pg_aggregate a, LATERAL (VALUES (a.aggcombinefn), (a.aggserialfn), (a.aggdeserialfn)) f(oid)
WHERE a.aggfnoid IN ('fastjson_agg(anyelement)'::regprocedure, 'fastjson_object_agg("any", "any")'::regprocedure);

-- jsonb's strict and unique variants: fastjson_agg_strict skips SQL NULLs;
-- fastjson_object_agg_strict leaves out the pairs whose value is null (SQL
-- NULL or JSON null, as jsonb_object_agg_strict does); _unique makes a
-- repeated key an error (22030); _unique_strict both (every key counts,
-- including those of the pairs it leaves out).
CREATE FUNCTION fastjson_agg_strict_transfn(internal, anyelement) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE fastjson_agg_strict(anyelement) (
	SFUNC = fastjson_agg_strict_transfn,
	STYPE = internal,
	FINALFUNC = fastjson_agg_finalfn,
	COMBINEFUNC = fastjson_agg_combinefn,
	SERIALFUNC = fastjson_agg_serializefn,
	DESERIALFUNC = fastjson_agg_deserializefn,
	PARALLEL = SAFE
);
CREATE FUNCTION fastjson_object_agg_strict_transfn(internal, "any", "any") RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_strict_finalfn(internal) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_unique_finalfn(internal) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION fastjson_object_agg_unique_strict_finalfn(internal) RETURNS fastjson
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE fastjson_object_agg_strict(key "any", value "any") (
	SFUNC = fastjson_object_agg_strict_transfn,
	STYPE = internal,
	FINALFUNC = fastjson_object_agg_strict_finalfn,
	COMBINEFUNC = fastjson_agg_combinefn,
	SERIALFUNC = fastjson_object_agg_serializefn,
	DESERIALFUNC = fastjson_object_agg_deserializefn,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_unique(key "any", value "any") (
	SFUNC = fastjson_object_agg_transfn,
	STYPE = internal,
	FINALFUNC = fastjson_object_agg_unique_finalfn,
	COMBINEFUNC = fastjson_agg_combinefn,
	SERIALFUNC = fastjson_object_agg_serializefn,
	DESERIALFUNC = fastjson_object_agg_deserializefn,
	PARALLEL = SAFE
);
CREATE AGGREGATE fastjson_object_agg_unique_strict(key "any", value "any") (
	SFUNC = fastjson_object_agg_transfn,
	STYPE = internal,
	FINALFUNC = fastjson_object_agg_unique_strict_finalfn,
	COMBINEFUNC = fastjson_agg_combinefn,
	SERIALFUNC = fastjson_object_agg_serializefn,
	DESERIALFUNC = fastjson_object_agg_deserializefn,
	PARALLEL = SAFE
);
