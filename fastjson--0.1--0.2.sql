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
