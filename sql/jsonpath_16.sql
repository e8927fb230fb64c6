-- SQL/JSON path on fastjson, 15 and 16: .double()'s errors as these
-- versions word them, against jsonb's (17 quotes the argument).
CREATE FUNCTION pg_temp.both(d text, p text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
	BEGIN a := fastjson_path_query_array(d::fastjson, p::jsonpath)::jsonb::text;
	EXCEPTION WHEN OTHERS THEN a := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END;
	BEGIN b := jsonb_path_query_array(d::jsonb, p::jsonpath)::text;
	EXCEPTION WHEN OTHERS THEN b := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END;
	RETURN CASE WHEN a = b THEN a ELSE 'MISMATCH fastjson ' || a || ' jsonb ' || b END;
END $$;
SELECT p, pg_temp.both(d, p) AS result FROM (VALUES
	('[1.5, "2.5", 1e2]', '$[*].double()'), ('[1e400]', '$[*].double()'), ('["inf"]', '$[*].double()'),
	('["x"]', '$[*].double()'), ('[{}]', '$[*].double()'),
	('["12:34:56+05:30", "2020-01-02T03:04:05-08"]', '$[*].datetime()')
) v(d, p);
