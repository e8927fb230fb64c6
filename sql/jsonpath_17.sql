-- SQL/JSON path on fastjson, 17 and later: the conversion methods
-- (.bigint() .boolean() .date() .decimal() .integer() .number() .string()
-- .time() .time_tz() .timestamp() .timestamp_tz()) and .double()'s errors
-- as 17 words them, against jsonb's.
SET timezone = 'UTC';
CREATE FUNCTION pg_temp.both(d text, p text, tz boolean DEFAULT false) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
	BEGIN
		IF tz THEN
			a := fastjson_path_query_array_tz(d::fastjson, p::jsonpath)::jsonb::text;
		ELSE
			a := fastjson_path_query_array(d::fastjson, p::jsonpath)::jsonb::text;
		END IF;
	EXCEPTION WHEN OTHERS THEN a := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END;
	BEGIN
		IF tz THEN
			b := jsonb_path_query_array_tz(d::jsonb, p::jsonpath)::text;
		ELSE
			b := jsonb_path_query_array(d::jsonb, p::jsonpath)::text;
		END IF;
	EXCEPTION WHEN OTHERS THEN b := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END;
	RETURN CASE WHEN a = b THEN a ELSE 'MISMATCH fastjson ' || a || ' jsonb ' || b END;
END $$;
SELECT p, pg_temp.both(d, p) AS result FROM (VALUES
	('[1, 1.5, 2.5, -2.5, "12", "1.5", 9223372036854775807]', '$[0 to 3].bigint()'),
	('["12"]', '$[*].bigint()'), ('["1.5"]', '$[*].bigint()'), ('[1e19]', '$[*].bigint()'),
	('[1, 1.5, -2.5, "12"]', '$[*].integer()'), ('[2147483648]', '$[*].integer()'),
	('[true, 0, 1, 5, "yes", "off", "t", "0"]', '$[*].boolean()'), ('[1.5]', '$[*].boolean()'),
	('["x"]', '$[*].boolean()'), ('[null]', '$[*].boolean()'),
	('[1, 1.50, "2.500", "-0", "1e2"]', '$[*].number()'), ('["x"]', '$[*].number()'), ('["NaN"]', '$[*].number()'),
	('[1.234, "12.345", 1e2]', '$[*].decimal()'), ('[1.234, "12.345"]', '$[*].decimal(4, 2)'),
	('[12345.6]', '$[*].decimal(4, 2)'), ('[1.5]', '$[*].decimal(3)'), ('[1.5]', '$[*].decimal(2147483648)'),
	('[1, "x", true, 1.50, 1e2, "2020-01-02"]', '$[0 to 4].string()'), ('[null]', '$[*].string()'),
	('["2020-01-02"]', '$[*].datetime().string()'), ('["2020-01-02 03:04:05.678+02"]', '$[*].timestamp_tz().string()'),
	('["2020-01-02", "2020-01-02 03:04:05"]', '$[*].date()'), ('["12:34:56"]', '$[*].date()'),
	('["12:34:56.789", "2020-01-02 12:34:56.789"]', '$[*].time()'), ('["12:34:56.789"]', '$[*].time(1)'),
	('["12:34:56.789+05"]', '$[*].time_tz(2)'), ('["2020-01-02"]', '$[*].time_tz()'),
	('["2020-01-02", "2020-01-02 03:04:05.6789"]', '$[*].timestamp()'), ('["2020-01-02 03:04:05.6789"]', '$[*].timestamp(2)'),
	('["2020-01-02 03:04:05+03"]', '$[*].timestamp_tz()'), ('["12:00:00"]', '$[*].timestamp_tz()'),
	('["2020-01-02 03:04:05+03"]', '$[*].timestamp()'), ('["2020-01-02"]', '$[*].timestamp_tz()'),
	('["2020-01-02 03:04:05+03"]', '$[*].date()'),
	('[1e400]', '$[*].double()'), ('["inf"]', '$[*].double()'), ('["x"]', '$[*].double()'),
	('[{}]', '$[*].double()')
) v(d, p);
-- the _tz functions allow the casts with and without time zone
SELECT p, pg_temp.both(d, p, true) AS result FROM (VALUES
	('["2020-01-02 03:04:05+03"]', '$[*].timestamp()'), ('["2020-01-02"]', '$[*].timestamp_tz()'),
	('["2020-01-02 03:04:05+03"]', '$[*].date()'), ('["12:34:56"]', '$[*].time_tz()'),
	('["2020-01-02 03:04:05"]', '$[*].timestamp_tz().string()'),
	('["2020-01-02", "2020-01-02 00:00:00+00"]', '$[*] ? (@.datetime() == "2020-01-02".date())')
) v(d, p);
-- A string holding U+0000 is not text: the conversion methods raise 22P05
-- (silent suppresses it), where the string cut at U+0000 was read.
SELECT fastjson_path_query('"12\u00003"', '$.bigint()');
SELECT fastjson_path_query('"12\u00003"', '$.integer()');
SELECT fastjson_path_query('"true\u0000x"', '$.boolean()');
SELECT fastjson_path_query('"1.5\u0000x"', '$.number()');
SELECT fastjson_path_query('"1.5\u0000x"', '$.decimal(4, 2)', silent => true);
SELECT fastjson_path_query('"2020-01-02\u0000x"', '$.date()');
