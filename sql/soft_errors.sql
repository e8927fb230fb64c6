-- Soft input errors (PostgreSQL 16 and later): fastjson_in reports syntax,
-- UTF-8 and limit errors through its error context, so pg_input_is_valid and
-- pg_input_error_info answer instead of raising, as they do for jsonb.
SELECT doc, pg_input_is_valid(doc, 'fastjson') AS valid,
	(pg_input_error_info(doc, 'fastjson')).sql_error_code AS code,
	(pg_input_error_info(doc, 'fastjson')).detail AS detail,
	pg_input_is_valid(doc, 'fastjson') = pg_input_is_valid(doc, 'jsonb') AS same_valid,
	(pg_input_error_info(doc, 'fastjson')).message IS NOT DISTINCT FROM (pg_input_error_info(doc, 'jsonb')).message
		AND (pg_input_error_info(doc, 'fastjson')).detail IS NOT DISTINCT FROM (pg_input_error_info(doc, 'jsonb')).detail
		AND (pg_input_error_info(doc, 'fastjson')).sql_error_code IS NOT DISTINCT FROM (pg_input_error_info(doc, 'jsonb')).sql_error_code
		AS same_error
FROM unnest(ARRAY['{"a":1}', '[1,2.50,1e3]', '{"a":', '[1,2', '{"a" 1}', 'tru', '', ' ', '01',
	e'"\\ud800"', e'"\\udc00"', e'"a\u0007b"', '{"a":1}x', '"\x"']) AS doc;
-- a limit is a soft error too: deeper than fastjson.max_depth (jsonb has no such limit)
SELECT pg_input_is_valid(repeat('[', 10001) || repeat(']', 10001), 'fastjson') AS deep_valid,
	(pg_input_error_info(repeat('[', 10001) || repeat(']', 10001), 'fastjson')).sql_error_code AS deep_code,
	pg_input_is_valid(repeat('[', 10000) || repeat(']', 10000), 'fastjson') AS at_limit_valid;
SET fastjson.max_depth = 3;
SELECT doc, pg_input_is_valid(doc, 'fastjson') AS valid, (pg_input_error_info(doc, 'fastjson')).message
FROM unnest(ARRAY['[[[]]]', '[[[[]]]]']) AS doc;
RESET fastjson.max_depth;
-- a domain over fastjson answers the same way
CREATE DOMAIN pg_temp.event AS fastjson CHECK (fastjson_typeof(VALUE) = 'object');
SELECT pg_input_is_valid('{"a":1}', 'pg_temp.event') AS object, pg_input_is_valid('[1]', 'pg_temp.event') AS array_fails_check,
	pg_input_is_valid('{"a":', 'pg_temp.event') AS syntax;
-- the hard errors stay hard: the value is fine, the query is not
SELECT pg_input_is_valid('{"a":1}', 'fastjson') AS still_valid;
