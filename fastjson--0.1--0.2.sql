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
