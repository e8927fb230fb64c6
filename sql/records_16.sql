-- Before 17: fastjson_populate_record_valid exists (one extension script for
-- every version) but cannot check a domain softly, so it says so.
CREATE TYPE rv_char2 AS (a char(2));
SELECT fastjson_populate_record_valid(NULL::rv_char2, '{"a": "aa"}');
SELECT fastjson_populate_record_valid(NULL::rv_char2, NULL);
