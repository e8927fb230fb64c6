-- Generated row types and documents for the differential tests of rows from
-- objects (included by records_differential.sql and records_valid.sql, after
-- random_docs.sql and a setseed()).
--   fastjson_rN, jsonb_rN  14 row types, twins but for fastjson and jsonb
--   fastjson_rN_d, ...      domains over them
--   rd_value(type, bad)     a JSON value for a value of the type, or (with
--                           probability bad at each value) not
--   rd_docs                 (k, g, bad, doc, docs): 100 documents a type and a
--                           recordset argument each
--   rd_try(query)           the query's one value as text, or its error
--   rd_base                 (k, base_f, base_j): a base record a type
--   rd_coldefs(type)        the column definition list of a row type
CREATE DOMAIN rd_pos AS int CHECK (VALUE > 0);
CREATE DOMAIN rd_word AS text CHECK (VALUE <> '');
CREATE DOMAIN rd_req AS bigint NOT NULL;
CREATE DOMAIN rd_pair AS int[] CHECK (cardinality(VALUE) <= 4);
CREATE DOMAIN rd_num AS numeric(6,2) CHECK (VALUE >= 0);
CREATE DOMAIN fastjson_obj AS fastjson CHECK (fastjson_typeof(VALUE) = 'object');
CREATE DOMAIN jsonb_obj AS jsonb CHECK (jsonb_typeof(VALUE) = 'object');

-- The row types: fastjson_rN and its twin jsonb_rN, and domains over both.
CREATE FUNCTION rd_pick(pool text[]) RETURNS text LANGUAGE sql AS $$
	SELECT pool[1 + floor(random() * cardinality(pool))::int]
$$;
CREATE FUNCTION rd_make_types(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	scalars text[] := ARRAY['int', 'int', 'bigint', 'numeric', 'numeric(6,2)', 'text', 'text', 'varchar(6)',
		'boolean', 'date', 'timestamp', 'json', 'jsonb', 'fastjson', 'fastjson', 'int[]', 'int[][]', 'text[]',
		'numeric[]', 'fastjson[]', 'rd_pos', 'rd_word', 'rd_req', 'rd_pair', 'rd_num', 'fastjson_obj', 'rd_pos[]'];
	names text[] := ARRAY['a', 'b', 'c', 'id', 'n', 'x', 'y', 'k1', 'é', 'Key', 't s', 'aa'];
	cols text[];
	used text[];
	typ text;
	name text;
BEGIN
	FOR k IN 1..n LOOP
		cols := '{}';
		used := '{}';
		FOR c IN 1..2 + floor(random() * 6)::int LOOP
			LOOP
				name := rd_pick(names);
				EXIT WHEN NOT name = ANY (used);
			END LOOP;
			used := used || name;
			IF k > 1 AND random() < 0.3 THEN
				typ := format('fastjson_r%s', 1 + floor(random() * (k - 1))::int)
					|| rd_pick(ARRAY['', '', '[]', '_d']);
			ELSE
				typ := rd_pick(scalars);
			END IF;
			cols := cols || (quote_ident(name) || ' ' || typ);
		END LOOP;
		EXECUTE format('CREATE TYPE fastjson_r%s AS (%s)', k, array_to_string(cols, ', '));
		EXECUTE format('CREATE TYPE jsonb_r%s AS (%s)', k, replace(array_to_string(cols, ', '), 'fastjson', 'jsonb'));
		EXECUTE format('CREATE DOMAIN fastjson_r%s_d AS fastjson_r%s CHECK (VALUE IS NULL OR (VALUE).%s IS NOT NULL)',
			k, k, quote_ident(used[1]));
		EXECUTE format('CREATE DOMAIN jsonb_r%s_d AS jsonb_r%s CHECK (VALUE IS NULL OR (VALUE).%s IS NOT NULL)',
			k, k, quote_ident(used[1]));
	END LOOP;
END $$;
SELECT rd_make_types(14);
-- what the types hold
SELECT count(DISTINCT a.attrelid) AS types, count(*) AS columns,
	count(*) FILTER (WHERE t.typtype = 'c') AS composite, count(*) FILTER (WHERE t.typcategory = 'A') AS arrays,
	count(*) FILTER (WHERE t.typtype = 'd') AS domains,
	count(*) FILTER (WHERE t.typtype = 'd' AND bt.typtype = 'c') AS composite_domains,
	count(*) FILTER (WHERE t.typname IN ('fastjson', 'fastjson_obj', '_fastjson')) AS fastjson,
	count(*) FILTER (WHERE format_type(a.atttypid, a.atttypmod) LIKE '%(%') AS typmods
FROM pg_attribute a JOIN pg_type r ON r.typrelid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
	LEFT JOIN pg_type bt ON bt.oid = t.typbasetype
WHERE r.typname ~ '^fastjson_r[0-9]+$' AND r.typnamespace = current_schema()::regnamespace AND a.attnum > 0;

-- A JSON value for a value of type typ: of the right shape, in one of
-- several spellings, or (with probability bad at each value) not: junk,
-- values the type refuses, ragged or mixed arrays.
CREATE FUNCTION rd_pick2(good text[], worse text[], bad float8) RETURNS text LANGUAGE sql AS $$
	SELECT CASE WHEN random() < bad THEN rd_pick(worse) ELSE rd_pick(good) END
$$;
CREATE FUNCTION rd_value(typ oid, bad float8) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	t pg_type;
	r float8 := random();
	parts text[] := '{}';
	a record;
	m int;
	n int;
BEGIN
	SELECT * INTO t FROM pg_type WHERE oid = typ;
	IF r < 0.04 THEN RETURN 'null'; END IF;
	IF r < 0.04 + bad / 4 THEN
		RETURN rd_pick(ARRAY['1', '"x"', '[1,2]', '{"a":1}', 'true', '1e2', '"{1,2}"', '"(1,x)"', '[]', '{}', '[[1]]']);
	END IF;
	IF t.typname IN ('fastjson_obj', 'jsonb_obj') AND random() >= bad THEN
		RETURN '{"o":' || fj_gen(1) || '}';
	END IF;
	IF t.typtype = 'd' THEN RETURN rd_value(t.typbasetype, bad); END IF;
	IF t.typtype = 'c' THEN
		r := random();
		FOR a IN SELECT attname, atttypid FROM pg_attribute		-- in column order, or another
				WHERE attrelid = t.typrelid AND attnum > 0 AND NOT attisdropped
				ORDER BY CASE WHEN r < 0.3 THEN random() ELSE attnum END LOOP
			r := random();
			CONTINUE WHEN r < 0.15;		-- missing
			IF r < 0.22 THEN			-- a duplicate: a junk value first, the last one counts
				parts := parts || (to_json(a.attname::text)::text || ':' || rd_pick(ARRAY['"junk"', '[9]', '{}', '7']));
			END IF;
			parts := parts || (to_json(a.attname::text)::text || ':' || rd_value(a.atttypid, bad));
		END LOOP;
		IF random() < 0.15 THEN			-- a key the type does not have
			parts := '"zz":' || fj_gen(1) || parts;
		END IF;
		RETURN '{' || array_to_string(parts, ',') || '}';
	END IF;
	IF t.typcategory = 'A' THEN
		r := random();
		IF r < bad / 2 THEN			-- ragged, or arrays and scalars mixed
			RETURN format(rd_pick(ARRAY['[[%1$s,%2$s],[%3$s]]', '[%1$s,[%2$s]]', '[[%1$s],%2$s]', '[[[%1$s]],[%2$s]]',
					'[[%1$s,%2$s],[%3$s,%1$s],[%2$s]]', '"{1,2}"', '"{{1},{2}}"', '"{x}"', '"{1,{2}}"']),
				rd_value(t.typelem, bad), rd_value(t.typelem, bad), rd_value(t.typelem, bad));
		END IF;
		r := random();
		IF r < 0.1 THEN RETURN rd_pick(ARRAY['[]', '[[],[]]', '[[]]', '[[[]]]']); END IF;
		IF r < 0.15 AND (SELECT typtype <> 'c' FROM pg_type WHERE oid = t.typelem) THEN
			RETURN rd_pick(ARRAY['"{}"', '"{1,2}"', '"{{3},{4}}"']);	-- array literals
		END IF;
		IF r < 0.5 THEN
			m := 1 + floor(random() * 3)::int;
			n := 1 + floor(random() * 3)::int;
			FOR i IN 1..m LOOP
				parts := parts || ('[' || (SELECT string_agg(rd_value(t.typelem, bad), ',') FROM generate_series(1, n)) || ']');
			END LOOP;
			RETURN '[' || array_to_string(parts, ',') || ']';
		END IF;
		FOR i IN 1..floor(random() * 5)::int LOOP
			parts := parts || rd_value(t.typelem, bad);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	END IF;
	CASE t.typname
	WHEN 'int4', 'int8' THEN
		RETURN rd_pick2(ARRAY['0', '1', '42', '-7', '-0', '1e2', '1E+2', '-1e0', '"12"', '" 7 "', '5', '3', '2147483647'],
			ARRAY['1.0', '10e-1', '0.5', '1e-2', '100.0e-2', '"x"', '"1e2"', '2147483648', '-2147483649',
				'9223372036854775808', '12345678901234567890', 'true', '[1]', '{"a":1}'], bad);
	WHEN 'numeric' THEN
		RETURN rd_pick2(ARRAY['0', '1', '-0', '-0.0', '1.0', '2.50', '1e2', '1.5e-3', '1.005', '-3.25', '"3.14"', '" 2 "',
			'1E-7', '0.001', '9999.99', '"NaN"', '100.0e-2'],
			ARRAY['12345.6', '"abc"', '1e20', 'true', '9999.995', '"Infinity"', '123456789012345678901234567890.123'], bad);
	WHEN 'text', 'varchar' THEN
		RETURN rd_pick2(ARRAY['"abc"', '"caf\u00e9"', '"a\"b\\c"', '""', '"\ud83d\ude00"', '"tab\tnl\n"', '1e2', '-0',
			'1.50', 'true', 'false', '"word"', '"x y"', '[1,2.0,"x"]', '{}', '[]'],
			ARRAY['"toolong-string"', '{"b":1,"a":[1e2,null],"b":{"c":"d"}}', '[{"k":-0.0}]'], bad);
	WHEN 'bool' THEN
		RETURN rd_pick2(ARRAY['true', 'false', '"t"', '"yes"', '"off"', '1', '0', '"TRUE"'],
			ARRAY['"maybe"', '1.0', '2', '[]'], bad);
	WHEN 'date' THEN
		RETURN rd_pick2(ARRAY['"2024-02-29"', '"epoch"', '"infinity"', '"-infinity"', '20240101', '"2024-01-01 10:00"',
			'"1999-12-31"'], ARRAY['"2023-02-29"', '"garbage"', '1e2', 'true'], bad);
	WHEN 'timestamp' THEN
		RETURN rd_pick2(ARRAY['"2024-01-01 10:00:00"', '"2024-01-01T10:00:00.5"', '"epoch"', '"infinity"', '20240101',
			'"2024-02-29 23:59:59.999999"'], ARRAY['"2024-13-01"', '"bad"', '"2024-01-01 25:00"', '0'], bad);
	WHEN 'json', 'jsonb', 'fastjson' THEN
		RETURN fj_gen(2);
	ELSE
		RETURN '"x"';
	END CASE;
END $$;

-- The documents: for each type, 100 objects (half of them clean: bad = 0,
-- half noisy: bad = 0.3), a few other values, and a recordset argument
-- each: an array of one to three such objects, now and then with an element
-- that is not an object, or not an array at all.
CREATE TEMP TABLE rd_docs AS
SELECT k, g, bad, doc,
	CASE WHEN r < 0.04 THEN doc
		WHEN r < 0.08 THEN '[' || doc || ',' || rd_pick(ARRAY['5', '[]', '"x"', 'null']) || ']'
		ELSE '[' || (SELECT string_agg(CASE WHEN i = 1 THEN doc ELSE rd_value(('fastjson_r' || k)::regtype, bad) END, ','
			ORDER BY i) FROM generate_series(1, 1 + floor(random() * 3)::int) i) || ']'
	END AS docs
FROM (SELECT k, g, bad, CASE WHEN random() < 0.03 THEN rd_pick(ARRAY['[]', '5', '"s"', '[{"a":1}]', 'null'])
		ELSE rd_value(('fastjson_r' || k)::regtype, bad) END AS doc, random() AS r
	FROM generate_series(1, 14) k, generate_series(1, 100) g, LATERAL (SELECT CASE WHEN g % 2 = 0 THEN 0 ELSE 0.3 END AS bad) b) s;

-- A base record for each type, where one can be found: a generated object
-- that both populate from NULL to the same row.
CREATE FUNCTION rd_try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ' ' || replace(SQLERRM, 'jsonb', 'fastjson');
END $$;
CREATE FUNCTION rd_bases() RETURNS TABLE (k int, base_f text, base_j text) LANGUAGE plpgsql AS $$
DECLARE
	doc text;
	f text;
	j text;
BEGIN
	FOR kk IN 1..14 LOOP
		k := kk; base_f := NULL; base_j := NULL;
		FOR attempt IN 1..40 LOOP
			doc := rd_value(('fastjson_r' || kk)::regtype, 0);
			f := rd_try(format('SELECT fastjson_populate_record(NULL::fastjson_r%s, %L)::text', kk, doc));
			j := rd_try(format('SELECT jsonb_populate_record(NULL::jsonb_r%s, %L)::text', kk, doc));
			IF f NOT LIKE 'ERROR%' AND j NOT LIKE 'ERROR%' AND f <> 'NULL'
				AND rd_try(format('SELECT to_jsonb(%L::fastjson_r%s)::text', f, kk))
					= rd_try(format('SELECT to_jsonb(%L::jsonb_r%s)::text', j, kk)) THEN
				base_f := f; base_j := j;
				EXIT;
			END IF;
		END LOOP;
		RETURN NEXT;
	END LOOP;
END $$;
CREATE TEMP TABLE rd_base AS SELECT * FROM rd_bases();
SELECT count(*) AS types, count(base_f) AS with_a_base FROM rd_base;

-- The column definition list of a type, for to_record and to_recordset.
CREATE FUNCTION rd_coldefs(typ regtype) RETURNS text LANGUAGE sql AS $$
	SELECT string_agg(quote_ident(attname) || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	FROM pg_attribute WHERE attrelid = (SELECT typrelid FROM pg_type WHERE oid = typ) AND attnum > 0 AND NOT attisdropped
$$;

