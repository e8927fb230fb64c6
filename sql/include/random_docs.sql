-- Random documents for differential tests against jsonb (included by
-- compare.sql and contain.sql). Deterministic after setseed().
--   fj_gen(depth, scalar_p)
--                   random JSON text: nested arrays and objects, duplicate
--                   keys, numbers in many spellings, strings with Unicode;
--                   a scalar with probability scalar_p (0.45 below the root)
--   fj_wide()       an object of 9 to 40 members (key index, sorting paths)
--   fj_render(j)    JSON text equal to j as jsonb, spelled at random: keys
--                   shuffled, a junk duplicate before some keys (the last
--                   one wins), numbers respelled (1 / 10e-1 / 0.01E+2 / 1.0)
--   fj_sub(j)       a part of j (keys and elements dropped at every level),
--                   which j contains
--   fj_random_docs(n, depth)
--                   rows (id, t text, f fastjson, j jsonb): n bases (mostly
--                   containers), each rendered twice and as a rendered
--                   part, then n more fj_gen documents
CREATE OR REPLACE FUNCTION fj_gen(depth int, scalar_p float8 DEFAULT 0.45) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	nums text[] := ARRAY['0', '-0', '0.0', '-0.0', '0e5', '1', '1.0', '1e0', '1E+0', '10e-1', '0.1e1',
		'2', '2.00', '-1', '-1.0', '-1e0', '100', '1e2', '100.0', '1.5', '15e-1', '0.15e1', '-1.5',
		'123456789012345678901234567890', '1.23456789012345678901234567890e29',
		'12345678901234567890123456789e1', '9223372036854775807', '9223372036854775808',
		'9.223372036854775808e18', '-9223372036854775808', '-9223372036854775809',
		'1e400', '10e399', '-1e400', '1e-400', '0.5', '5e-1', '3.14159', '1e-5', '0.00001'];
	strs text[] := ARRAY['""', '"a"', '"b"', '"aa"', '"A"', '"é"', '"\u00e9"', '"e\u0301"', '"日本"',
		'"\ud83d\ude00"', '"a b"', '"1"', '"null"', '"true"', '"\t"', '"ab"', '"z"'];
	keys text[] := ARRAY['a', 'b', 'c', 'aa', 'A', 'é', '\u00e9', '', '1', 'ab', 'ba', 'zz', 'bb'];
	r float8 := random();
	parts text[] := '{}';
BEGIN
	IF depth <= 0 OR r < scalar_p THEN
		r := random();
		IF r < 0.08 THEN RETURN 'null';
		ELSIF r < 0.14 THEN RETURN 'true';
		ELSIF r < 0.20 THEN RETURN 'false';
		ELSIF r < 0.62 THEN RETURN nums[1 + floor(random() * array_length(nums, 1))::int];
		ELSE RETURN strs[1 + floor(random() * array_length(strs, 1))::int];
		END IF;
	END IF;
	IF random() < 0.45 THEN
		FOR i IN 1..floor(random() * 5)::int LOOP
			parts := parts || fj_gen(depth - 1);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	END IF;
	FOR i IN 1..floor(random() * 5)::int LOOP
		parts := parts || ('"' || keys[1 + floor(random() * array_length(keys, 1))::int] || '":' || fj_gen(depth - 1));
	END LOOP;
	RETURN '{' || array_to_string(parts, ',') || '}';
END $$;

CREATE OR REPLACE FUNCTION fj_wide() RETURNS text LANGUAGE sql AS $$
	SELECT '{' || string_agg(format('"k%s":%s', floor(random() * 30)::int, fj_gen(1)), ',') || '}'
	FROM generate_series(1, 9 + floor(random() * 32)::int)
$$;

CREATE OR REPLACE FUNCTION fj_render(j jsonb) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	parts text[] := '{}';
	k text;
	n numeric;
	r float8;
BEGIN
	CASE jsonb_typeof(j)
	WHEN 'object' THEN
		FOR k IN SELECT key FROM jsonb_object_keys(j) AS key ORDER BY random() LOOP
			IF random() < 0.2 THEN
				parts := parts || (to_json(k)::text || ':' || fj_gen(1));
			END IF;
			parts := parts || (to_json(k)::text || ':' || fj_render(j -> k));
		END LOOP;
		RETURN '{' || array_to_string(parts, ',') || '}';
	WHEN 'array' THEN
		SELECT coalesce(array_agg(fj_render(e) ORDER BY o), '{}') INTO parts
		FROM jsonb_array_elements(j) WITH ORDINALITY AS x(e, o);
		RETURN '[' || array_to_string(parts, ',') || ']';
	WHEN 'number' THEN
		n := j::text::numeric;
		r := random();
		IF n = 0 THEN
			RETURN (ARRAY['0', '-0', '0.0', '-0.0e7', '0E-3'])[1 + floor(r * 5)::int];
		ELSIF r < 0.3 THEN RETURN j::text;
		ELSIF r < 0.5 THEN RETURN (n * 10)::text || 'e-1';
		ELSIF r < 0.7 THEN RETURN (n * 0.01)::text || 'E+2';
		ELSIF r < 0.85 THEN RETURN n::text || (CASE WHEN n::text LIKE '%.%' THEN '000' ELSE '.0' END);
		ELSE RETURN n::text || 'e0';
		END IF;
	ELSE
		RETURN j::text;
	END CASE;
END $$;

CREATE OR REPLACE FUNCTION fj_sub(j jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT CASE jsonb_typeof(j)
		WHEN 'object' THEN (SELECT coalesce(jsonb_object_agg(key, fj_sub(value)), '{}')
							FROM jsonb_each(j) WHERE random() < 0.7)
		WHEN 'array' THEN (SELECT coalesce(jsonb_agg(fj_sub(e) ORDER BY random()), '[]')
						   FROM jsonb_array_elements(j) AS e WHERE random() < 0.7)
		ELSE j END
$$;

CREATE OR REPLACE FUNCTION fj_random_docs(n int, depth int) RETURNS TABLE (id bigint, t text, f fastjson, j jsonb)
LANGUAGE sql AS $$
	WITH base AS MATERIALIZED (
		SELECT g, CASE WHEN g % 8 = 0 THEN fj_wide() ELSE fj_gen(depth, 0.1) END::jsonb AS j
		FROM generate_series(1, n) g)
	SELECT row_number() OVER (), t, t::fastjson, t::jsonb FROM (
		SELECT fj_render(j) AS t FROM base
		UNION ALL SELECT fj_render(j) FROM base
		UNION ALL SELECT fj_render(fj_sub(j)) FROM base
		UNION ALL SELECT fj_gen(depth) FROM generate_series(1, n)) s
$$;
