-- fastjson_populate_record_valid (17 and later) against
-- jsonb_populate_record_valid: the same answer on generated row types and
-- documents (those of records_differential.sql), and true exactly when
-- fastjson_populate_record makes a row. In a schema of its own, since
-- records_differential.sql made the same types in public.
CREATE SCHEMA rv;
SET search_path = rv, public;
\i sql/include/random_docs.sql
SELECT setseed(0.1977);

\i sql/include/records_gen.sql

-- Each document from a NULL base, from a base record, and into the domain
-- over the type: the answer of each _valid function (or its error), and
-- fastjson_populate_record's row (or its error).
CREATE TEMP TABLE rv_cases AS
SELECT d.k, d.g, d.bad, c.fn,
	rd_try(format('SELECT fastjson_populate_record_valid(%s::fastjson_r%s%s, %L)', c.base_f, d.k, c.suffix, d.doc)) AS fv,
	rd_try(format('SELECT jsonb_populate_record_valid(%s::jsonb_r%s%s, %L)', c.base_j, d.k, c.suffix, d.doc)) AS jv,
	rd_try(format('SELECT to_jsonb(fastjson_populate_record(%s::fastjson_r%s%s, %L))::text', c.base_f, d.k, c.suffix, d.doc)) AS row
FROM rd_docs d JOIN rd_base b USING (k),
	LATERAL (VALUES ('NULL base', 'NULL', 'NULL', ''),
		('base record', coalesce(quote_literal(b.base_f), 'NULL'), coalesce(quote_literal(b.base_j), 'NULL'), ''),
		('domain', 'NULL', 'NULL', '_d')) AS c(fn, base_f, base_j, suffix);

-- The counts: every case, how many are valid, and the differences (0 expected):
-- from jsonb's answer, and from whether populate_record made a row.
SELECT fn, count(*) AS cases, count(*) FILTER (WHERE jv = 'true') AS valid,
	count(*) FILTER (WHERE jv = 'false') AS not_valid, count(*) FILTER (WHERE jv LIKE 'ERROR%') AS errors,
	count(*) FILTER (WHERE fv IS DISTINCT FROM jv) AS differences_from_jsonb,
	count(*) FILTER (WHERE (fv = 'true') IS DISTINCT FROM (row NOT LIKE 'ERROR%')) AS differences_from_populate
FROM rv_cases GROUP BY fn ORDER BY fn;
SELECT CASE WHEN bad = 0 THEN 'clean' ELSE 'noisy' END AS documents, count(*) AS cases,
	count(*) FILTER (WHERE fv = 'true') AS valid, count(*) FILTER (WHERE fv IS DISTINCT FROM jv) AS differences
FROM rv_cases GROUP BY 1 ORDER BY 1;
SELECT * FROM rv_cases WHERE fv IS DISTINCT FROM jv OR (fv = 'true') IS DISTINCT FROM (row NOT LIKE 'ERROR%')
ORDER BY k, g, fn LIMIT 10;
-- the errors that made a document not valid, by SQLSTATE
SELECT substr(row, 7, 5) AS sqlstate, count(*) AS cases FROM rv_cases WHERE fv = 'false' GROUP BY 1 ORDER BY 1;

-- The same in one query a type (one call site, its caches kept across rows,
-- valid and not valid rows mixed), from a NULL base, a base record and into
-- the domain: each row's answer agrees.
CREATE FUNCTION rv_counts() RETURNS TABLE (fn text, documents bigint, valid bigint, differences bigint) LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	v bigint;
	dn bigint;
	c record;
BEGIN
	FOR c IN SELECT * FROM (VALUES ('NULL base', 'NULL', 'NULL', ''),
			('base record', 'b.base_f', 'b.base_j', ''), ('domain', 'NULL', 'NULL', '_d')) AS x(fn, base_f, base_j, suffix) LOOP
		fn := c.fn; documents := 0; valid := 0; differences := 0;
		FOR kk IN 1..14 LOOP
			EXECUTE format('SELECT count(*), count(*) FILTER (WHERE f), count(*) FILTER (WHERE f IS DISTINCT FROM j)
				FROM (SELECT fastjson_populate_record_valid(%2$s::fastjson_r%1$s%4$s, d.doc::fastjson) AS f,
						jsonb_populate_record_valid(%3$s::jsonb_r%1$s%4$s, d.doc::jsonb) AS j
					FROM rd_docs d JOIN rd_base b USING (k) JOIN rv_cases r USING (k, g)
					WHERE d.k = %1$s AND r.fn = %5$L AND r.jv NOT LIKE ''ERROR%%'') t',
				kk, c.base_f, c.base_j, c.suffix, c.fn) INTO n, v, dn;
			documents := documents + n; valid := valid + v; differences := differences + dn;
		END LOOP;
		RETURN NEXT;
	END LOOP;
END $$;
SELECT * FROM rv_counts();

-- jsonb's own examples, and each kind of error
CREATE TYPE rv_char2 AS (a char(2));
CREATE TYPE rv_ia AS (a int[]);
CREATE TYPE rv_ia2 AS (a int[][]);
CREATE DOMAIN rv_i_not_null AS int NOT NULL;
CREATE DOMAIN rv_i_gt_1 AS int CHECK (VALUE > 1);
CREATE TYPE rv_i_not_null_rec AS (a rv_i_not_null);
CREATE TYPE rv_i_gt_1_rec AS (a rv_i_gt_1);
CREATE TYPE rv_nested AS (n rv_char2, t text, j jsonb, f fastjson, i int, r rv_i_gt_1_rec);
SELECT fastjson_populate_record_valid(NULL::rv_char2, '{"a": "aaa"}');
SELECT * FROM fastjson_populate_record(NULL::rv_char2, '{"a": "aaa"}');
SELECT fastjson_populate_record_valid(NULL::rv_char2, '{"a": "aa"}');
SELECT * FROM fastjson_populate_record(NULL::rv_char2, '{"a": "aa"}');
SELECT fastjson_populate_record_valid(NULL::rv_ia, '{"a": 43.2}');
SELECT fastjson_populate_record_valid(NULL::rv_ia, '{"a": [1, 2]}');
SELECT fastjson_populate_record_valid(NULL::rv_ia2, '{"a": [[1], [2, 3]]}');
SELECT fastjson_populate_record_valid(NULL::rv_ia2, '{"a": [[1], 2]}');
SELECT fastjson_populate_record_valid(NULL::rv_ia2, '{"a": [[1, 0], [2, 3]]}');
SELECT fastjson_populate_record_valid(NULL::rv_ia, '{"a": [1, "x"]}');
SELECT fastjson_populate_record_valid(NULL::rv_i_not_null_rec, '{"a": null}');
SELECT fastjson_populate_record_valid(NULL::rv_i_not_null_rec, '{}');
SELECT fastjson_populate_record_valid(NULL::rv_i_not_null_rec, '{"a": 1}');
SELECT fastjson_populate_record_valid(NULL::rv_i_gt_1_rec, '{"a": 1}');
SELECT fastjson_populate_record_valid(NULL::rv_i_gt_1_rec, '{"a": 2}');
-- nested: a row, a row literal, the domain of a nested row's column
SELECT fastjson_populate_record_valid(NULL::rv_nested, '{"n": {"a": "abc"}}'),
	fastjson_populate_record_valid(NULL::rv_nested, '{"n": "(abc)"}'),
	fastjson_populate_record_valid(NULL::rv_nested, '{"n": "(ab)"}'),
	fastjson_populate_record_valid(NULL::rv_nested, '{"n": [1]}'),
	fastjson_populate_record_valid(NULL::rv_nested, '{"r": {"a": 1}}'),
	fastjson_populate_record_valid(NULL::rv_nested, '{"r": {"a": 5}}');
-- the document itself: a scalar, an array and JSON null are not objects; a
-- NULL document makes the base row (valid), or NULL from a NULL base, whose
-- answer is NULL, as jsonb's is
SELECT fastjson_populate_record_valid(NULL::rv_nested, '5'),
	fastjson_populate_record_valid(NULL::rv_nested, '[{}]'),
	fastjson_populate_record_valid(NULL::rv_nested, 'null'),
	fastjson_populate_record_valid(NULL::rv_nested, NULL),
	fastjson_populate_record_valid(ROW(ROW('ab'), 'x', NULL, NULL, 1, NULL)::rv_nested, NULL);
-- what fastjson holds and jsonb cannot: U+0000 in a string going to text or
-- to jsonb, a number past numeric's range going to int or to jsonb; each is
-- fastjson_populate_record's error (shown) and not valid. A fastjson column
-- takes both as they are.
SELECT fastjson_populate_record_valid(NULL::rv_nested, '{"t": "a\u0000b"}') AS nul_text,
	fastjson_populate_record_valid(NULL::rv_nested, '{"t": ["a\u0000b"]}') AS nul_in_array_text,
	fastjson_populate_record_valid(NULL::rv_nested, '{"t": {"a\u0000b": 1}}') AS nul_in_key_text,
	fastjson_populate_record_valid(NULL::rv_nested, '{"j": "a\u0000b"}') AS nul_jsonb,
	fastjson_populate_record_valid(NULL::rv_nested, '{"f": "a\u0000b"}') AS nul_fastjson;
SELECT fastjson_populate_record_valid(NULL::rv_nested, '{"i": 1e200000}') AS huge_int,
	fastjson_populate_record_valid(NULL::rv_nested, '{"t": [1e200000]}') AS huge_in_array_text,
	fastjson_populate_record_valid(NULL::rv_nested, '{"j": 1e200000}') AS huge_jsonb,
	fastjson_populate_record_valid(NULL::rv_nested, '{"f": 1e200000}') AS huge_fastjson,
	fastjson_populate_record_valid(NULL::rv_nested, '{"t": 1e200000}') AS huge_text;
SELECT * FROM fastjson_populate_record(NULL::rv_nested, '{"t": "a\u0000b"}');
SELECT * FROM fastjson_populate_record(NULL::rv_nested, '{"t": {"a\u0000b": 1}}');
SELECT * FROM fastjson_populate_record(NULL::rv_nested, '{"j": "a\u0000b"}');
SELECT * FROM fastjson_populate_record(NULL::rv_nested, '{"i": 1e200000}');
SELECT * FROM fastjson_populate_record(NULL::rv_nested, '{"j": 1e200000}');
SELECT f FROM fastjson_populate_record(NULL::rv_nested, '{"f": {"x": "a\u0000b", "n": 1e200000}}');
-- errors that are not the document's are raised, as jsonb's are
SELECT fastjson_populate_record_valid(NULL::int, '{}');
SELECT fastjson_populate_record_valid(1, '{}');
-- a domain check that fails, not valid; a check whose expression fails, raised
CREATE FUNCTION rv_fail(int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT 1 / ($1 - 3) > 0';
CREATE DOMAIN rv_odd AS int CHECK (rv_fail(VALUE));
CREATE TYPE rv_odd_rec AS (a rv_odd);
SELECT fastjson_populate_record_valid(NULL::rv_odd_rec, '{"a": 4}'), fastjson_populate_record_valid(NULL::rv_odd_rec, '{"a": 2}');
SELECT fastjson_populate_record_valid(NULL::rv_odd_rec, '{"a": 3}');
SELECT jsonb_populate_record_valid(NULL::rv_odd_rec, '{"a": 3}');
-- the first error of a document answers: the rest is not read. (jsonb goes
-- on to the other columns with NULL in place of the bad value, so a later
-- error that cannot be soft, such as a domain check that raises on NULL, is
-- raised there.)
CREATE FUNCTION rv_no_null(int) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF $1 IS NULL THEN RAISE EXCEPTION 'rv_no_null: NULL'; END IF;
	RETURN true;
END $$;
CREATE DOMAIN rv_strict AS int CHECK (rv_no_null(VALUE));
CREATE TYPE rv_strict_rec AS (a int, b rv_strict);
SELECT fastjson_populate_record_valid(NULL::rv_strict_rec, '{"a": "x", "b": 1}'),
	fastjson_populate_record_valid(NULL::rv_strict_rec, '{"a": 1, "b": 2}');
SELECT fastjson_populate_record_valid(NULL::rv_strict_rec, '{"a": 1, "b": "x"}');
SELECT jsonb_populate_record_valid(NULL::rv_strict_rec, '{"a": 1, "b": "x"}');
SELECT fastjson_populate_record_valid(NULL::rv_strict_rec, '{"a": 1}');
-- a document in blocks: its values read from the stored form
CREATE TEMP TABLE rv_big AS SELECT ('{"pad": "' || repeat('x', 3000) || '", "a": ' || g || '}')::fastjson AS doc FROM generate_series(1, 5) g;
SELECT fastjson_storage_form(doc), fastjson_populate_record_valid(NULL::rv_i_gt_1_rec, doc) FROM rv_big ORDER BY doc->'a';
-- named arguments, those of fastjson_populate_record (jsonb's has none)
SELECT fastjson_populate_record_valid(base => NULL::rv_char2, from_json => '{"a": "abc"}');

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA rv CASCADE;
