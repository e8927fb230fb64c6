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
