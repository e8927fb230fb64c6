-- The hash values are part of the on-disk format: hash indexes, hash
-- partitions and Citus shard placement are computed from them, so a change
-- would misplace stored rows. These literals pin fastjson_hash and
-- fastjson_hash_extended; a build that changes any of them must not ship
-- without a new major version and a reindex/repartition path.
-- Equal documents (as jsonb compares them) hash equal: numbers spelled
-- several ways, key order, duplicate keys (the last one counts).
SELECT doc, fastjson_hash(doc::fastjson) AS hash,
	fastjson_hash_extended(doc::fastjson, 0) AS seed_0,
	fastjson_hash_extended(doc::fastjson, 42) AS seed_42,
	fastjson_hash_extended(doc::fastjson, -1) AS seed_minus_1
FROM unnest(ARRAY[
	'null', 'true', 'false', '0', '-0', '0.0', '1', '1.0', '1e0', '10', '1e1', '-1', '0.5', '5e-1',
	'9223372036854775807', '9223372036854775808', '-9223372036854775808', '123456789012345678901234567890',
	'1.7976931348623157e308', '1e400', '""', '"a"', '"é"', '"\u00e9"', '"東京"', '"\ud83d\ude00"', '"\u0000"',
	'[]', '{}', '[1,2,3]', '[3,2,1]', '[[]]', '[{}]', '{"a":1}', '{"a":1.0}', '{"a":1,"b":2}', '{"b":2,"a":1}',
	'{"a":0,"a":1}', '{"a":1,"b":{"c":[true,null,"x"]}}', '[1,"1",[1],{"1":1}]'
]) AS doc;
-- the cases that must agree
SELECT a, b, fastjson_hash(a::fastjson) = fastjson_hash(b::fastjson) AS same_hash,
	fastjson_hash_extended(a::fastjson, 7) = fastjson_hash_extended(b::fastjson, 7) AS same_extended
FROM (VALUES ('1', '1.0'), ('1', '1e0'), ('10', '1e1'), ('0.5', '5e-1'), ('0', '-0'), ('"é"', '"\u00e9"'),
	('{"a":1,"b":2}', '{"b":2,"a":1}'), ('{"a":0,"a":1}', '{"a":1}'), ('{"a":1}', '{"a":1.0}')) v(a, b);
-- a hash index and a hash-partitioned table place rows by these values
CREATE TEMP TABLE hp (doc fastjson) PARTITION BY HASH (doc);
CREATE TEMP TABLE hp0 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TEMP TABLE hp1 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TEMP TABLE hp2 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TEMP TABLE hp3 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO hp SELECT format('{"id":%s,"tag":"t%s"}', g, g % 7)::fastjson FROM generate_series(1, 40) g;
SELECT tableoid::regclass AS part, count(*), min((doc ->> 'id')::int) AS first_id FROM hp GROUP BY 1 ORDER BY 1;
SELECT tableoid::regclass AS part FROM hp WHERE doc = '{"tag":"t3","id":10.0}';
