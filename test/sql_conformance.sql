-- Conformance and round trips through SQL (run by scripts/test_sql.sh with
-- -v data=DIR, a copy of ../shared/data the server may read).
--
-- 1. JSONTestSuite: every file read with pg_read_binary_file, then cast to
--    fastjson in two ways: convert_from(..., 'UTF8')::fastjson (the text
--    path; PostgreSQL itself rejects invalid UTF-8 there) and
--    fastjson_from_utf8(bytes) (fastjson's own UTF-8 validation). y_ must be
--    accepted, n_ rejected, i_ as decided in doc/conformance.md; every
--    rejection must be an ordinary error: SQLSTATE class 22, or 54001 for
--    nesting beyond fastjson.max_depth.
-- 2. Corpus: X::fastjson::text::jsonb = X::jsonb for every file, and a binary
--    COPY out and back in gives every value back byte for byte.
-- 3. NDJSON: fastjson_ndjson over the sample gives one row per line, equal to
--    the line as jsonb.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fastjson;

CREATE TEMP TABLE suite AS
SELECT f AS name, pg_read_binary_file(:'data' || '/jsontestsuite/' || f) AS bytes
FROM pg_ls_dir(:'data' || '/jsontestsuite') AS f
WHERE f LIKE '%.json';

CREATE TEMP TABLE suite_result (name text, path text, accepted boolean, sqlstate text);

DO $$
DECLARE
	r record;
	st text;
BEGIN
	FOR r IN SELECT * FROM suite LOOP
		BEGIN
			PERFORM fastjson_from_utf8(r.bytes);
			INSERT INTO suite_result VALUES (r.name, 'fastjson_from_utf8', true, NULL);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
			INSERT INTO suite_result VALUES (r.name, 'fastjson_from_utf8', false, st);
		END;
		BEGIN
			PERFORM convert_from(r.bytes, 'UTF8')::fastjson;
			INSERT INTO suite_result VALUES (r.name, 'text cast', true, NULL);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
			INSERT INTO suite_result VALUES (r.name, 'text cast', false, st);
		END;
	END LOOP;
END
$$;

-- the decisions for i_ files (doc/conformance.md)
CREATE TEMP VIEW suite_expected AS
SELECT name, path, accepted, sqlstate,
	CASE left(name, 2)
		WHEN 'y_' THEN true
		WHEN 'n_' THEN false
		ELSE name LIKE 'i_number_%' OR name = 'i_structure_500_nested_arrays.json'
	END AS expected
FROM suite_result;

SELECT path,
	count(*) FILTER (WHERE name LIKE 'y_%' AND accepted) || '/' || count(*) FILTER (WHERE name LIKE 'y_%') AS y_accepted,
	count(*) FILTER (WHERE name LIKE 'n_%' AND NOT accepted) || '/' || count(*) FILTER (WHERE name LIKE 'n_%') AS n_rejected,
	count(*) FILTER (WHERE name LIKE 'i_%' AND accepted = expected) || '/' || count(*) FILTER (WHERE name LIKE 'i_%') AS i_as_decided,
	string_agg(DISTINCT sqlstate, ' ') AS sqlstates
FROM suite_expected GROUP BY path ORDER BY path;

SELECT name, path, accepted, sqlstate FROM suite_expected
WHERE accepted <> expected OR (NOT accepted AND sqlstate NOT LIKE '22%' AND sqlstate <> '54001');

DO $$
BEGIN
	IF (SELECT count(*) FROM suite_expected WHERE name LIKE 'y_%' AND path = 'fastjson_from_utf8') <> 95
		OR (SELECT count(*) FROM suite_expected WHERE name LIKE 'n_%' AND path = 'fastjson_from_utf8') <> 188 THEN
		RAISE EXCEPTION 'JSONTestSuite is incomplete: expected 95 y_ and 188 n_ files';
	END IF;
	IF EXISTS (SELECT 1 FROM suite_expected
			   WHERE accepted <> expected OR (NOT accepted AND sqlstate NOT LIKE '22%' AND sqlstate <> '54001')) THEN
		RAISE EXCEPTION 'JSONTestSuite through SQL: some files were not handled as required (listed above)';
	END IF;
END
$$;

-- ------------------------------------------------------------- corpus

CREATE TEMP TABLE corpus AS
SELECT f AS name, convert_from(pg_read_binary_file(:'data' || '/corpus/' || f), 'UTF8') AS doc
FROM pg_ls_dir(:'data' || '/corpus') AS f
WHERE f LIKE '%.json';

SELECT name, length(doc) AS bytes, doc::fastjson::text::jsonb = doc::jsonb AS same_as_jsonb
FROM corpus ORDER BY name;

DO $$
BEGIN
	IF (SELECT count(*) FROM corpus) < 14 OR
		EXISTS (SELECT 1 FROM corpus WHERE doc::fastjson::text::jsonb <> doc::jsonb) THEN
		RAISE EXCEPTION 'corpus: X::fastjson::text::jsonb = X::jsonb does not hold for every file';
	END IF;
END
$$;

-- binary COPY out and back in gives every value back byte for byte
CREATE TEMP TABLE corpus_fj AS SELECT name, doc::fastjson AS doc FROM corpus;
\set bin :data '/../corpus.bin'
COPY corpus_fj TO :'bin' WITH (FORMAT binary);
CREATE TEMP TABLE corpus_back (name text, doc fastjson);
COPY corpus_back FROM :'bin' WITH (FORMAT binary);
SELECT count(*) AS copied_back,
	count(*) FILTER (WHERE fastjson_send(a.doc) = fastjson_send(b.doc) AND a.doc::text = b.doc::text) AS identical
FROM corpus_fj a JOIN corpus_back b USING (name);
DO $$
BEGIN
	IF (SELECT count(*) FROM corpus_back) <> (SELECT count(*) FROM corpus_fj) OR EXISTS (
		SELECT 1 FROM corpus_fj a LEFT JOIN corpus_back b USING (name)
		WHERE b.doc IS NULL OR fastjson_send(a.doc) <> fastjson_send(b.doc)) THEN
		RAISE EXCEPTION 'binary COPY did not give every value back byte for byte';
	END IF;
END
$$;

-- ------------------------------------------------------------- NDJSON

\set nd :data '/corpus/amazon_cellphones.ndjson'
CREATE TEMP TABLE nd AS
SELECT d, n FROM fastjson_ndjson(pg_read_binary_file(:'nd')) WITH ORDINALITY AS t(d, n);
CREATE TEMP TABLE nd_lines AS
SELECT line, n FROM regexp_split_to_table(convert_from(pg_read_binary_file(:'nd'), 'UTF8'), '\n') WITH ORDINALITY AS t(line, n)
WHERE line ~ '\S';
SELECT (SELECT count(*) FROM nd) AS ndjson_rows, (SELECT count(*) FROM nd_lines) AS nonblank_lines;
DO $$
BEGIN
	IF (SELECT count(*) FROM nd) <> (SELECT count(*) FROM nd_lines) OR EXISTS (
		SELECT 1 FROM (SELECT d, row_number() OVER (ORDER BY n) AS k FROM nd) a
		JOIN (SELECT line, row_number() OVER (ORDER BY n) AS k FROM nd_lines) b USING (k)
		WHERE a.d::text::jsonb <> b.line::jsonb) THEN
		RAISE EXCEPTION 'fastjson_ndjson rows differ from the lines of the file';
	END IF;
END
$$;
\echo SQL conformance: all checks passed

-- ------------------------------------------- corpus paths against jsonb
-- Every path up to depth 4 in every corpus document (arrays: the first 50
-- and last 5 elements of each), plus probes at each of them: a missing key,
-- indexes -1, 999999 and -999999, and a key on an array (wrong shape).
-- #>, #>>, ->, ->>, typeof, array_length, object_keys, each_text,
-- array_elements_text and ? must give jsonb's answers (doc/design.md, section 2: text
-- results compared by value: numbers as numeric, containers as jsonb).
-- The documents are cast inside the statement (a MATERIALIZED CTE keeps
-- them in memory): read from a table, each lookup would decompress them again.
-- f is each document held whole (#> '{}' makes a plain tape), fs the value
-- the cast made, which a large document gets in its stored form (blocks);
-- an eighth of the paths (by hash) are also looked up in fs, whose answers
-- must be f's byte for byte. (A lookup by array index in a large stored
-- value visits the block of every element before it: every path on fs too
-- would take minutes.)
CREATE FUNCTION pg_temp.same_text(ft text, jt text, jv jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE
		WHEN ft IS NULL OR jt IS NULL THEN ft IS NULL AND jt IS NULL
		WHEN jsonb_typeof(jv) IN ('object', 'array') THEN ft::jsonb = jt::jsonb
		WHEN jsonb_typeof(jv) = 'number' THEN ft::numeric = jt::numeric
		ELSE ft = jt END
$$;
CREATE TEMP TABLE cdiff AS
WITH RECURSIVE d AS MATERIALIZED (
	SELECT name, doc::jsonb AS j, doc::fastjson #> '{}' AS f, doc::fastjson AS fs FROM corpus
), paths(name, path, v, depth) AS (
	SELECT name, ARRAY[]::text[], j, 0 FROM d
	UNION ALL
	SELECT p.name, p.path || e.k, e.v, p.depth + 1
	FROM paths p, LATERAL (
		SELECT key AS k, value AS v FROM jsonb_each(CASE WHEN jsonb_typeof(p.v) = 'object' THEN p.v END)
		UNION ALL
		SELECT (ord - 1)::text, value
		FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.v) = 'array' THEN p.v END) WITH ORDINALITY AS a(value, ord)
		WHERE ord <= 50 OR ord > jsonb_array_length(p.v) - 5
	) e
	WHERE p.depth < 4
), cpath AS (
	SELECT name, path FROM paths
	UNION ALL
	SELECT name, path || probe FROM paths, unnest(ARRAY['no such key', '-1', '999999', '-999999', 'x']) AS probe
	WHERE depth < 4
), checked AS (
	SELECT p.name, p.path, x.*
	FROM cpath p JOIN d USING (name),
	LATERAL (SELECT d.f #> p.path AS fv, d.j #> p.path AS jv,
					d.f #> p.path[1:cardinality(p.path) - 1] AS fparent, d.j #> p.path[1:cardinality(p.path) - 1] AS jparent,
					p.path[cardinality(p.path)] AS last) s,
	LATERAL (SELECT
		(s.fv)::jsonb IS NOT DISTINCT FROM s.jv AS path_ok,
		pg_temp.same_text(d.f #>> p.path, d.j #>> p.path, s.jv) AS path_text_ok,
		CASE WHEN cardinality(p.path) = 0 THEN true
			 WHEN jsonb_typeof(s.jparent) = 'array' AND s.last ~ '^-?[0-9]{1,9}$' THEN
				(s.fparent -> s.last::int)::jsonb IS NOT DISTINCT FROM (s.jparent -> s.last::int)
				AND pg_temp.same_text(s.fparent ->> s.last::int, s.jparent ->> s.last::int, s.jv)
			 ELSE (s.fparent -> s.last)::jsonb IS NOT DISTINCT FROM (s.jparent -> s.last)
				AND pg_temp.same_text(s.fparent ->> s.last, s.jparent ->> s.last, s.jv) END AS arrow_ok,
		CASE WHEN hashtext(p.path::text) % 8 <> 0 THEN true
			 ELSE (d.fs #> p.path)::text IS NOT DISTINCT FROM s.fv::text
				AND (d.fs #>> p.path) IS NOT DISTINCT FROM (d.f #>> p.path) END AS stored_ok,
		fastjson_typeof(s.fv) IS NOT DISTINCT FROM jsonb_typeof(s.jv) AS typeof_ok,
		CASE WHEN jsonb_typeof(s.jv) = 'array' THEN fastjson_array_length(s.fv) = jsonb_array_length(s.jv) ELSE true END AS length_ok,
		CASE WHEN jsonb_typeof(s.jv) = 'object' THEN
			(SELECT array_agg(k ORDER BY k) FROM fastjson_object_keys(s.fv) k) IS NOT DISTINCT FROM (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(s.jv) k)
			AND (SELECT coalesce(bool_and(pg_temp.same_text(fe.value, je.value, s.jv -> je.key)), true) AND count(*) = (SELECT count(*) FROM jsonb_each(s.jv))
				 FROM fastjson_each_text(s.fv) fe JOIN jsonb_each_text(s.jv) je USING (key))
			AND (s.fv ? 'no such key') = (s.jv ? 'no such key')
			AND (SELECT coalesce(bool_and((s.fv ? k) = (s.jv ? k)), true) FROM jsonb_object_keys(s.jv) k)
			ELSE true END AS object_ok,
		CASE WHEN jsonb_typeof(s.jv) = 'array' THEN
			(SELECT count(*) FROM fastjson_array_elements_text(s.fv)) = jsonb_array_length(s.jv)
			AND (SELECT bool_and(pg_temp.same_text(fa.t, ja.t, s.jv -> (fa.n - 1)::int))
				 FROM fastjson_array_elements_text(s.fv) WITH ORDINALITY fa(t, n)
				 JOIN jsonb_array_elements_text(s.jv) WITH ORDINALITY ja(t, n) USING (n)) IS NOT FALSE
			ELSE true END AS array_ok
	) x
)
SELECT name, path, path_ok, path_text_ok, arrow_ok, stored_ok, typeof_ok, length_ok, object_ok, array_ok
FROM checked;
SELECT count(*) AS corpus_paths_checked, count(DISTINCT name) AS documents FROM cdiff;
SELECT count(*) FILTER (WHERE fastjson_storage_form(doc) = 'blocks') AS documents_in_blocks FROM corpus_fj;
DELETE FROM cdiff WHERE path_ok AND path_text_ok AND arrow_ok AND stored_ok AND typeof_ok AND length_ok AND object_ok AND array_ok;
SELECT count(*) AS path_differences FROM cdiff;
SELECT name, path FROM cdiff LIMIT 10;
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM cdiff) THEN
		RAISE EXCEPTION 'corpus paths: fastjson and jsonb differ (listed above)';
	END IF;
END
$$;
\echo corpus paths against jsonb: all agree

-- ---------------------------------------------- soft input errors (16+)
-- 4. pg_input_is_valid(doc, 'fastjson') is false, not an error, for every
--    n_ file that can be a text value (valid UTF-8, no NUL byte), and
--    pg_input_error_info gives jsonb's SQLSTATE and DETAIL for it (where
--    jsonb answers: it raises "stack depth limit exceeded" on two files).
SELECT current_setting('server_version_num')::int >= 160000 AS soft_errors \gset
\if :soft_errors
CREATE FUNCTION pg_temp.as_text(b bytea) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN convert_from(b, 'UTF8');
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;
-- jsonb's answer, or NULL where jsonb raises a hard error (its stack depth limit)
CREATE FUNCTION pg_temp.jsonb_info(t text, OUT valid boolean, OUT code text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
	SELECT pg_input_is_valid(t, 'jsonb'), e.sql_error_code, e.detail INTO valid, code, detail
	FROM pg_input_error_info(t, 'jsonb') e;
EXCEPTION WHEN OTHERS THEN
	valid := NULL;
END $$;
CREATE TEMP TABLE soft AS
SELECT name, pg_temp.as_text(bytes) AS doc FROM suite WHERE left(name, 2) = 'n_';
CREATE TEMP TABLE soft_result AS
SELECT name, pg_input_is_valid(doc, 'fastjson') AS valid, fj.sql_error_code AS code, fj.detail,
	jb.valid AS jsonb_valid, jb.code AS jsonb_code, jb.detail AS jsonb_detail
FROM soft, LATERAL pg_input_error_info(doc, 'fastjson') fj, LATERAL pg_temp.jsonb_info(doc) jb
WHERE doc IS NOT NULL;
SELECT (SELECT count(*) FROM soft) AS n_files,
	(SELECT count(*) FROM soft WHERE doc IS NULL) AS not_text,
	count(*) AS as_text,
	count(*) FILTER (WHERE NOT valid) AS rejected_softly,
	count(*) FILTER (WHERE jsonb_valid IS NULL) AS jsonb_hard_errors,
	count(*) FILTER (WHERE code = jsonb_code AND detail IS NOT DISTINCT FROM jsonb_detail) AS same_as_jsonb
FROM soft_result;
SELECT name, code, detail, jsonb_code, jsonb_detail FROM soft_result
WHERE jsonb_valid IS NOT NULL AND (code IS DISTINCT FROM jsonb_code OR detail IS DISTINCT FROM jsonb_detail);
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM soft_result WHERE valid) THEN
		RAISE EXCEPTION 'pg_input_is_valid accepts an n_ file';
	END IF;
	IF EXISTS (SELECT 1 FROM soft_result WHERE jsonb_valid IS NOT NULL
			   AND (code IS DISTINCT FROM jsonb_code OR detail IS DISTINCT FROM jsonb_detail)) THEN
		RAISE EXCEPTION 'pg_input_error_info differs from jsonb for an n_ file';
	END IF;
END
$$;
\echo soft input errors: every n_ file rejected softly, with the SQLSTATE and DETAIL of jsonb
\else
\echo soft input errors: skipped (PostgreSQL 15 has no pg_input_is_valid)
\endif
