-- SQL/JSON path on fastjson, 19 and later: the string methods (.replace()
-- .lower() .upper() .ltrim() .rtrim() .btrim() .initcap() .split_part()),
-- and .decimal() with an invalid precision, an error silent suppresses from
-- 19, against jsonb's.
CREATE FUNCTION pg_temp.both(d text, p text, silent boolean DEFAULT false) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
	BEGIN a := fastjson_path_query_array(d::fastjson, p::jsonpath, '{}', silent)::jsonb::text;
	EXCEPTION WHEN OTHERS THEN a := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END;
	BEGIN b := jsonb_path_query_array(d::jsonb, p::jsonpath, '{}', silent)::text;
	EXCEPTION WHEN OTHERS THEN b := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END;
	RETURN CASE WHEN a = b THEN a ELSE 'MISMATCH fastjson ' || a || ' jsonb ' || b END;
END $$;
SELECT p, pg_temp.both(d, p) AS result FROM (VALUES
	('["abcabc", "xyz"]', '$[*].replace("b", "BB")'), ('["aBc DEF"]', '$[*].lower()'), ('["aBc def"]', '$[*].upper()'),
	('["hello wORLD"]', '$[*].initcap()'), ('["  x  ", "xxhixx"]', '$[*].ltrim()'), ('["xxhixx"]', '$[*].ltrim("x")'),
	('["  x  "]', '$[*].rtrim()'), ('["xxhixx"]', '$[*].rtrim("x")'), ('["  x  "]', '$[*].btrim()'),
	('["xxhixx"]', '$[*].btrim("x")'), ('["a,b,c"]', '$[*].split_part(",", 2)'), ('["a,b,c"]', '$[*].split_part(",", -1)'),
	('["a,b,c"]', '$[*].split_part(",", 0)'), ('[1]', '$[*].lower()'), ('[{"a": "X"}]', '$.**.lower()'),
	('["A"]', '$[*].lower().upper().replace("A", "b")'),
	('[1.5]', '$[*].decimal(0)')
) v(d, p);
SELECT pg_temp.both('[1.5]', '$[*].decimal(0)', true) AS silent_decimal,
	pg_temp.both('["a,b"]', '$[*].split_part(",", 0)', true) AS silent_split_part;
-- A string holding U+0000 is not text: the string methods raise 22P05
-- (silent suppresses it), where the string cut at U+0000 was read.
SELECT fastjson_path_query('"aB\u0000Cd"', '$.lower()');
SELECT fastjson_path_query('"a,b\u0000,c"', '$.split_part(",", 2)', silent => true);
