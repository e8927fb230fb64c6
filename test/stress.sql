-- stress.sql — the pgbench script of scripts/stress.sh (make stress).
--
-- Table stress (id int primary key, f fastjson, j jsonb): j is the jsonb
-- shadow of f, written in the same statements from the same values. Each
-- transaction touches one row for writing (so clients never deadlock) and
-- reads another; every comparison of f with j is made to fail the
-- transaction (division by zero) if they ever differ, so pgbench's "number
-- of failed transactions" must stay 0. Values compare as doc/design.md, section 2, says:
-- strings and integers as text, other numbers as numeric, documents as jsonb.
--
-- pgbench variable rows (-D rows=N): the preloaded ids are 1..N; writes pick
-- ids up to N + N/5, so some upserts insert and most update.

\set id random(1, :rows + :rows / 5)
\set other random(1, :rows)
\set n random(-2000000000, 2000000000)
\set m random(0, 999999)
\set s random(1, 8)
\set x random(0, 5)

BEGIN;

-- insert from text, both columns from the same random JSON text: strings with
-- escapes and non-ASCII, duplicate keys, number spellings jsonb normalises,
-- more than 8 keys (a key index), empty containers
INSERT INTO stress (id, f, j)
SELECT :id, d::fastjson, d::jsonb
FROM (SELECT format('{"k":"v%s","a":{"b":%s,"c":[%s,"s\u00e9\"%s"]},"num":%s,"dup":%s,"dup":"d%s",'
		'"u":"\u00e9 \u2603 \ud83d\ude00 tab\t","z":null,"t":true,"e":[],"o":{},"big":%s}',
		:m, :n, :m, :x, (ARRAY['1.50', '1e2', '-0', '123456789012345678901234567890', '0.000001',
		'2E-3', '-1.0e+300', (:n)::text])[:s], :n, :x, '1' || :m || '00000000000000000000') AS d) AS src
ON CONFLICT (id) DO UPDATE SET f = EXCLUDED.f, j = EXCLUDED.j;

-- extraction on another row, compared with the shadow in the same statement
SELECT 1 / (CASE WHEN f->>'k' IS NOT DISTINCT FROM j->>'k'
	AND f #>> '{a,b}' IS NOT DISTINCT FROM j #>> '{a,b}'
	AND f #>> '{a,c,1}' IS NOT DISTINCT FROM j #>> '{a,c,1}'
	AND f->>'dup' IS NOT DISTINCT FROM j->>'dup'
	AND f->>'u' IS NOT DISTINCT FROM j->>'u'
	AND (f->>'num')::numeric IS NOT DISTINCT FROM (j->>'num')::numeric
	AND (f->'a')::jsonb IS NOT DISTINCT FROM j->'a'
	AND f['a']['b']::jsonb IS NOT DISTINCT FROM j['a']['b']
	AND (f ? 'm3') = (j ? 'm3')
	AND (f @> '{"t":true}') = (j @> '{"t":true}')
	THEN 1 ELSE 0 END)
FROM stress WHERE id = :other;

-- || update of the written row, the same object on both sides
UPDATE stress SET f = f || x::fastjson, j = j || x::jsonb
FROM (SELECT format('{"m%s":%s,"dup":[%s],"w":"%s"}', :x, :n, :m, :s) AS x) AS v
WHERE id = :id;

-- subscript assignments
UPDATE stress SET f['a']['b'] = to_fastjson(:n), j['a']['b'] = to_jsonb(:n) WHERE id = :id;
UPDATE stress SET f['a']['new'] = to_fastjson('n' || :m), j['a']['new'] = to_jsonb('n' || :m) WHERE id = :id;

-- a deletion now and then
\if :x = 0
UPDATE stress SET f = f - 'm2', j = j - 'm2' WHERE id = :id;
\endif

-- the written row equals its shadow, through every path
SELECT 1 / (CASE WHEN f::jsonb = j AND f::text::jsonb = j AND f = j::fastjson
	AND f->>'k' IS NOT DISTINCT FROM j->>'k' AND f #>> '{a,b}' IS NOT DISTINCT FROM j #>> '{a,b}'
	THEN 1 ELSE 0 END)
FROM stress WHERE id = :id;

END;
