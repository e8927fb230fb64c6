-- COPY ... (ON_ERROR ignore), PostgreSQL 17 and later: bad lines are skipped
-- with PostgreSQL's notice, good lines are stored, as for jsonb.
-- The file: test/gen_bad_ndjson.py's 1,000 lines, 37 of them bad (truncated,
-- lone surrogate escapes, raw control characters, nesting deeper than 10,000),
-- loaded with the CSV trick.
-- (\copy takes its line as it is, without psql variables: the program is
-- named relative to the directory pg_regress runs in, the project's.)
CREATE TEMP TABLE f (doc fastjson);
CREATE TEMP TABLE j (doc jsonb);
\copy f(doc) FROM PROGRAM 'python3 test/gen_bad_ndjson.py' WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02', ON_ERROR ignore)
\copy j(doc) FROM PROGRAM 'python3 test/gen_bad_ndjson.py' WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02', ON_ERROR ignore)
SELECT (SELECT count(*) FROM f) AS fastjson_rows, (SELECT count(*) FROM j) AS jsonb_rows,
	(SELECT count(*) FROM j WHERE jsonb_typeof(doc) = 'array') AS jsonb_deep_rows;
-- the same good lines as jsonb: every stored document, and only those; jsonb
-- also keeps the 9 lines nested deeper than fastjson's limit of 10,000
SELECT (SELECT count(*) FROM (SELECT doc::jsonb FROM f EXCEPT ALL SELECT doc FROM j) s) AS only_fastjson,
	(SELECT count(*) FROM (SELECT doc FROM j WHERE jsonb_typeof(doc) = 'object' EXCEPT ALL SELECT doc::jsonb FROM f) s)
		AS only_jsonb_objects;
-- the stored documents keep their text: every seq once, numbers as written
SELECT count(DISTINCT doc ->> 'seq') AS seqs, min((doc ->> 'seq')::int) AS first, max((doc ->> 'seq')::int) AS last FROM f;
-- ON_ERROR stop (the default) still stops at the first bad line
\copy f(doc) FROM PROGRAM 'python3 test/gen_bad_ndjson.py' WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02')
