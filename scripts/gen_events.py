#!/usr/bin/env python3
"""Deterministic generator of a realistic NDJSON event log for fastjson tests/benchmarks.

usage: gen_events.py [--rows N] [--seed S] [--out FILE]

Writes N lines (default 100000), each one compact JSON object, to FILE or stdout.
The output depends only on N and S (random.Random(S); no clock, no hash order), so
the same arguments give byte-identical files.

Event kinds (weights): http_request 55%, user_action 30%, error 15%; ids are unique and
increasing (int64 values above 2^53), timestamps strictly increasing. About 1% of rows
carry a 30-digit integer "big_id", about 1% an emoji "note". Cart prices/totals
(19.90, 1299), about 10% of metrics.score (1.0, 2.50, 1e3, -0.0, 0.1000, 1E-7, ...) are
written with a chosen spelling to exercise lossless number storage. Strings include
non-ASCII text and escapes (\\n, \\", \\t, \\\\, \\u001b); about 0.5% of rows have a
"comment" written with \\uXXXX escapes, an escaped surrogate pair and \\/ (these are not
in canonical output form). No duplicate keys, no \\u0000, no NaN/Infinity.
Mean line length is about 1.16 KB (100,000 rows = 116 MB).
"""

import argparse
import json
import math
import os
import random
import sys
import time

# ---------------------------------------------------------------------------
# Static vocabularies (lists/tuples only: iteration order never depends on hashing)

SERVICES = ("api-gateway", "auth", "catalog", "checkout", "search", "payments",
            "notifications", "recommendations")
REGIONS = ("eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-northeast-1")

CITIES = (  # country, city, lat, lon
    ("BR", "São Paulo", -23.5505, -46.6333),
    ("CH", "Zürich", 47.3769, 8.5417),
    ("JP", "東京", 35.6762, 139.6503),
    ("RU", "Москва", 55.7558, 37.6173),
    ("PL", "Kraków", 50.0647, 19.9450),
    ("DE", "München", 48.1351, 11.5820),
    ("FR", "Paris", 48.8566, 2.3522),
    ("US", "New York", 40.7128, -74.0060),
    ("US", "San Francisco", 37.7749, -122.4194),
    ("GB", "London", 51.5074, -0.1278),
    ("IN", "Bengaluru", 12.9716, 77.5946),
    ("CN", "北京", 39.9042, 116.4074),
    ("KR", "서울", 37.5665, 126.9780),
    ("EG", "القاهرة", 30.0444, 31.2357),
    ("GR", "Αθήνα", 37.9838, 23.7275),
    ("IS", "Reykjavík", 64.1466, -21.9426),
    ("ES", "A Coruña", 43.3623, -8.4115),
    ("VN", "Hà Nội", 21.0278, 105.8342),
    ("TR", "İstanbul", 41.0082, 28.9784),
    ("CA", "Montréal", 45.5019, -73.5674),
)
CITY_WEIGHTS = (6, 3, 6, 4, 2, 3, 5, 9, 6, 7, 5, 4, 3, 2, 1, 1, 1, 2, 2, 2)

NAMES = ("José García", "Zoë Müller", "Łukasz Wójcik", "Søren Kierkegaard", "山田太郎",
         "Иван Петров", "محمد علي", "Ngô Bảo Châu", "Ólafur Arnalds", "François Dupont",
         "Ana María Núñez", "김민준", "Αλέξανδρος Παπαδόπουλος", "Emily Johnson",
         "Liam O'Brien", "Chloé Lefèvre", "Björn Andersson", "Priya Sharma", "陈伟",
         "Dvořák Antonín", "Mateus Conceição", "Olga Šťastná", "Ayşe Yılmaz", "John Smith",
         "Maria Rossi", "Noah Williams", "Élodie Bérubé", "Hans-Jürgen Groß")
EMAIL_NAMES = ("jose.garcia", "zoe.mueller", "lukasz.wojcik", "soren.k", "taro.yamada",
               "ivan.petrov", "m.ali", "ngo.bao.chau", "olafur", "f.dupont", "ana.nunez",
               "minjun.kim", "alex.pap", "emily.j", "liam.obrien", "chloe.lefevre",
               "bjorn.a", "priya.sharma", "chen.wei", "a.dvorak", "mateus.c", "olga.s",
               "ayse.yilmaz", "john.smith", "maria.rossi", "noah.w", "elodie.b", "hj.gross")
EMAIL_DOMAINS = ("example.com", "mail.example.org", "corp.example.net", "example.co.jp",
                 "post.example.de")
ROLES = ("viewer", "editor", "admin", "billing", "support", "developer", "auditor")

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
METHOD_CUM = (62, 80, 86, 89, 93, 97, 100)
STATUS_OK = (200, 201, 204, 301, 304)
STATUS_OK_CUM = (70, 78, 84, 87, 100)
STATUS_4XX = (400, 401, 403, 404, 409, 422, 429)
STATUS_5XX = (500, 502, 503, 504)

USER_AGENTS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/122.0.6261.112 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3_1) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.3.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/122.0.6261.105 Mobile Safari/537.36",
    "curl/8.5.0",
    "python-requests/2.31.0",
    "Go-http-client/2.0",
    "okhttp/4.12.0",
    "Googlebot/2.1 (+http://www.google.com/bot.html)",
    "PostmanRuntime/7.36.3",
)
UA_CUM = (30, 45, 53, 65, 77, 81, 85, 89, 93, 97, 100)

PATH_TEMPLATES = (
    "/api/v1/users/{a}", "/api/v1/users/{a}/orders", "/api/v1/users/{a}/orders/{b}",
    "/api/v2/products/{sku}", "/api/v2/products/{sku}/reviews?page={p}",
    "/api/v1/cart/{h8}/items", "/api/v1/checkout/{h8}/confirm", "/api/v1/search?q={q}&limit=20",
    "/static/js/app.{h8}.js", "/static/css/main.{h8}.css", "/healthz", "/metrics",
    "/api/v1/sessions", "/api/v1/notifications?since={a}", "/api/v2/recommendations/{a}",
)
SEARCH_QUERIES = ("wireless headphones", "café au lait mug", "Schuhe größe 42", "ノートパソコン",
                  "smartphone 5G", "чайник электрический", "\"exact phrase\" search",
                  "mochila impermeável", "vélo électrique", "기계식 키보드", "usb-c hub 4k",
                  "kubek z nadrukiem", "lego star wars", "χειροποίητο σαπούνι", "standing desk")
SEARCH_Q_URL = ("wireless+headphones", "caf%C3%A9+au+lait", "Schuhe+gr%C3%B6%C3%9Fe+42",
                "laptop", "smartphone+5G", "usb-c+hub", "lego", "standing+desk")
TAGS = ("canary", "cached", "cdn", "internal", "mobile", "retry", "slow", "tls1.3", "http2",
        "ipv6", "beta", "bot", "authenticated", "gzip", "br")

ERROR_CLASSES = ("NullPointerException", "TimeoutError", "ConnectionResetError",
                 "sqlalchemy.exc.OperationalError", "KeyError", "ValueError",
                 "java.lang.IllegalStateException", "PaymentDeclinedError",
                 "redis.exceptions.ConnectionError", "UnicodeDecodeError",
                 "grpc.RpcError", "json.decoder.JSONDecodeError")
ERROR_MESSAGES = (
    'upstream "payments" timed out after 30000 ms',
    'Failed to parse "config.yaml": unexpected token ‘}’ at line 12\nCaused by: mapping values are not allowed here',
    "connection reset by peer (errno=104)\n\tat socket.recv()",
    'KeyError: \'user_id\' in payload {"user": null}',
    "could not serialize access due to concurrent update\nHINT:  retry the transaction",
    "Zahlung abgelehnt: Karte abgelaufen — bitte erneut versuchen",
    "ユーザーが見つかりません (id not found)",
    "недопустимое значение параметра \"limit\": -1",
    "invalid path C:\\Program Files\\App\\data\\cache.db",
    "\x1b[31mERROR\x1b[0m worker crashed: signal 11 (SIGSEGV)",
    "'utf-8' codec can't decode byte 0xff in position 17: invalid start byte",
    "Expecting ',' delimiter: line 1 column 4097 (char 4096)",
)
STACK_FILES = ("app/handlers/checkout.py", "app/services/payment.py", "app/db/session.py",
               "lib/http/client.go", "src/main/java/com/example/OrderService.java",
               "node_modules/express/lib/router/index.js", "app/models/user.rb",
               "src/worker.rs", "app/utils/retry.py", "src/search/query_parser.ts")
STACK_FUNCS = ("handle_request", "process_payment", "execute", "Do", "placeOrder",
               "dispatch", "find_by_id", "run_job", "with_retry", "parseQuery", "<lambda>",
               "__call__", "lambda$submit$0", "validate")

ACTIONS = ("login", "logout", "purchase", "view_item", "add_to_cart", "search", "update_profile")
ACTION_CUM = (15, 22, 32, 62, 77, 94, 100)
PLANS = ("free", "pro", "enterprise")
PLAN_CUM = (70, 93, 100)
DESKTOP_OSES = ("Windows 11", "macOS 14.3", "Ubuntu 22.04", "ChromeOS", "Windows 10")
MOBILE_OSES = ("iOS 17.3", "Android 14", "iPadOS 17.3", "Android 13")
BROWSERS = ("Chrome 122", "Safari 17", "Firefox 123", "Edge 122", "Samsung Internet 23")
CURRENCIES = ("EUR", "USD", "JPY")
ODD_SCORES = ("1.0", "2.50", "1e3", "-0.0", "0.1000", "3.0e+2", "1E-7", "100", "-2.5e-3",
              "12345678901234567890.5")
EMOJI_TEXTS = ("🚀 deployed", "great job 👍🎉", "🔥🔥🔥", "love it ❤️", "👩‍💻 pair programming",
               "🇯🇵 trip", "ok 👌🏽", "🤔 hmm")
RAW_STRINGS = ('"smile \\ud83d\\ude00 via \\/api\\/v1"', '"caf\\u00e9 \\u2014 na\\u00efve"',
               '"tab\\there \\"quoted\\" \\\\ back"')

CONTENT_TYPES = ("application/json; charset=utf-8", "text/html; charset=utf-8",
                 "application/javascript", "text/css", "image/webp", "application/octet-stream")
CACHE = ("HIT", "MISS", "MISS", "BYPASS", "EXPIRED")
TLS_CIPHERS = ("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
               "ECDHE-RSA-AES128-GCM-SHA256")
REFERERS = ("https://www.google.com/", "https://shop.example.com/", "https://t.co/",
            "https://www.bing.com/search?q=example", "https://news.ycombinator.com/", "")
PRODUCT_TITLES = ("Kabellose Kopfhörer mit Geräuschunterdrückung", "Tasse « café au lait » 350 ml",
                  "ノートパソコン 14インチ 軽量", "Mechanical keyboard — 87 keys, hot-swap",
                  "Электрический чайник 1,7 л", "Vélo électrique pliant 20\"",
                  "Mochila impermeável 30 L", "USB-C Hub 7-in-1 (4K@60Hz)",
                  "Χειροποίητο σαπούνι ελιάς", "Standing desk 140×70 cm", "기계식 키보드 텐키리스")
LOCALES = ("en-US", "de-CH", "ja-JP", "pt-BR", "fr-FR", "pl-PL", "ru-RU", "ko-KR", "el-GR")
TIMEZONES = ("Europe/Zurich", "America/Sao_Paulo", "Asia/Tokyo", "Europe/Moscow", "Europe/Warsaw",
             "America/New_York", "America/Los_Angeles", "Europe/London", "Asia/Seoul")
SCREENS = ((1920, 1080), (2560, 1440), (1440, 900), (390, 844), (412, 915), (1280, 800), (820, 1180))
NAMESPACES = ("shop-prod", "shop-staging", "platform", "payments-prod")
RELEASES = ("v2.14.3", "v2.14.4", "v2.15.0-rc.1", "v2.15.0", "v3.0.0-beta.2")

BASE_ID = 1_700_000_000_000_000_000   # snowflake-like ids: fit int64, exceed 2^53
START_MS = 1_709_251_200_000          # 2024-03-01T00:00:00Z


def make_row_fn(rng):
    """Return gen(i, ts) -> (obj, raws) bound to rng, with the RNG methods as locals."""
    rnd = rng.random
    bits = rng.getrandbits
    choice = rng.choice
    sample = rng.sample
    bisect_choice = _bisect_choice

    def raw(raws, text):
        key = "\ue000%d" % len(raws)
        raws.append(('"%s"' % key, text))
        return key

    def pick_user_http():
        uid = 10000 + int(rnd() * 90000)
        k = uid % len(NAMES)
        return {"id": uid, "name": NAMES[k], "roles": sample(ROLES, 1 + int(rnd() * 3))}

    def http_block(status):
        tmpl = PATH_TEMPLATES[int(rnd() * len(PATH_TEMPLATES))]
        if "{" in tmpl:
            path = tmpl.format(a=int(rnd() * 10_000_000), b=int(rnd() * 1_000_000),
                               sku="SKU-%06d" % int(rnd() * 1_000_000), p=1 + int(rnd() * 9),
                               h8="%08x" % bits(32), q=SEARCH_Q_URL[int(rnd() * len(SEARCH_Q_URL))])
        else:
            path = tmpl
        return {
            "method": METHODS[bisect_choice(METHOD_CUM, rnd() * 100)],
            "path": path,
            "status": status,
            "duration_ms": round(rng.lognormvariate(3.0, 1.0), 3),
            "bytes": int(rng.lognormvariate(8.0, 1.5)),
            "user_agent": USER_AGENTS[bisect_choice(UA_CUM, rnd() * 100)],
            "headers": {
                "accept": "application/json" if rnd() < 0.7 else "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
                "accept_language": choice(("en-US,en;q=0.9", "de-CH,de;q=0.9,en;q=0.8",
                                           "ja-JP,ja;q=0.9", "pt-BR,pt;q=0.9,en;q=0.5",
                                           "fr-FR,fr;q=0.9")),
                "x_request_id": "%032x" % bits(128),
                "x_forwarded_proto": "https",
            },
        }

    def http_status():
        x = rnd()
        if x < 0.03:
            return STATUS_5XX[int(rnd() * len(STATUS_5XX))]
        if x < 0.12:
            return STATUS_4XX[int(rnd() * len(STATUS_4XX))]
        return STATUS_OK[bisect_choice(STATUS_OK_CUM, rnd() * 100)]

    def client_block():
        c = CITIES[bisect_choice(CITY_CUM, rnd() * CITY_TOTAL)]
        if rnd() < 0.15:
            ip = "2001:db8:%x:%x::%x" % (bits(16), bits(16), bits(16))
        else:
            ip = "%d.%d.%d.%d" % (1 + int(rnd() * 223), bits(8), bits(8), 1 + int(rnd() * 254))
        return {"ip": ip, "geo": {"country": c[0], "city": c[1],
                                  "lat": round(c[2] + (rnd() - 0.5) * 0.2, 4),
                                  "lon": round(c[3] + (rnd() - 0.5) * 0.2, 4)}}

    def k8s_block(service):
        return {"namespace": NAMESPACES[int(rnd() * len(NAMESPACES))],
                "pod": "%s-%08x-%05x" % (service, bits(32), bits(20)),
                "node": "ip-10-%d-%d-%d.%s.compute.internal" % (bits(8), bits(8), bits(8),
                                                               REGIONS[int(rnd() * len(REGIONS))]),
                "container_id": "containerd://%064x" % bits(256)}

    def trace_block():
        return {"trace_id": "%032x" % bits(128), "span_id": "%016x" % bits(64)}

    def host_for(service):
        return "%s-%d.%s.internal" % (service, 1 + int(rnd() * 12), REGIONS[int(rnd() * len(REGIONS))])

    def gen_http(obj, raws):
        service = SERVICES[int(rnd() * len(SERVICES))]
        obj["service"] = service
        obj["host"] = host_for(service)
        obj["http"] = http_block(http_status())
        obj["response"] = {"content_type": CONTENT_TYPES[int(rnd() * len(CONTENT_TYPES))],
                           "cache": CACHE[int(rnd() * len(CACHE))],
                           "upstream_ms": round(rng.lognormvariate(2.5, 1.0), 3)}
        obj["tls"] = {"version": "TLSv1.3" if rnd() < 0.85 else "TLSv1.2",
                      "cipher": TLS_CIPHERS[int(rnd() * len(TLS_CIPHERS))]}
        obj["referer"] = REFERERS[int(rnd() * len(REFERERS))]
        obj["client"] = client_block()
        obj["k8s"] = k8s_block(service)
        obj["user"] = pick_user_http() if rnd() < 0.7 else None
        obj["tags"] = sample(TAGS, int(rnd() * 5))
        obj["trace"] = trace_block()

    def gen_error(obj, raws):
        service = SERVICES[int(rnd() * len(SERVICES))]
        obj["service"] = service
        obj["host"] = host_for(service)
        x = rnd()
        obj["level"] = "error" if x < 0.75 else ("warning" if x < 0.95 else "fatal")
        n_frames = 3 + int(rnd() * 10)
        stack = [{"file": STACK_FILES[int(rnd() * len(STACK_FILES))],
                  "line": 1 + int(rnd() * 2000),
                  "function": STACK_FUNCS[int(rnd() * len(STACK_FUNCS))],
                  "in_app": rnd() < 0.7}
                 for _ in range(n_frames)]
        obj["error"] = {"code": 1000 + int(rnd() * 9000),
                        "class": ERROR_CLASSES[int(rnd() * len(ERROR_CLASSES))],
                        "message": ERROR_MESSAGES[int(rnd() * len(ERROR_MESSAGES))],
                        "stack": stack,
                        "fingerprint": "%064x" % bits(256)}
        obj["release"] = "%s+g%07x" % (RELEASES[int(rnd() * len(RELEASES))], bits(28))
        obj["k8s"] = k8s_block(service)
        if rnd() < 0.6:
            obj["http"] = http_block(STATUS_5XX[int(rnd() * len(STATUS_5XX))])
        obj["context"] = {"request_id": "%032x" % bits(128), "retry": int(rnd() * 4),
                          "env": "prod" if rnd() < 0.8 else "staging"}
        obj["trace"] = trace_block()

    def money(minor, currency):
        # Amounts are kept in minor units (cents; yen have none) so totals are exact.
        return "%d" % minor if currency == "JPY" else "%d.%02d" % divmod(minor, 100)

    def gen_action(obj, raws):
        a = ACTIONS[bisect_choice(ACTION_CUM, rnd() * 100)]
        obj["action"] = a
        uid = 10000 + int(rnd() * 90000)
        k = uid % len(NAMES)
        obj["user"] = {"id": uid, "name": NAMES[k],
                       "email": "%s%d@%s" % (EMAIL_NAMES[k], uid % 1000,
                                             EMAIL_DOMAINS[int(rnd() * len(EMAIL_DOMAINS))]),
                       "plan": PLANS[bisect_choice(PLAN_CUM, rnd() * 100)]}
        mobile = rnd() < 0.45
        obj["session"] = {"id": "%032x" % bits(128),
                          "device": {"os": choice(MOBILE_OSES if mobile else DESKTOP_OSES),
                                     "browser": BROWSERS[int(rnd() * len(BROWSERS))],
                                     "mobile": mobile}}
        if a == "purchase" or a == "add_to_cart":
            cur = CURRENCIES[int(rnd() * 3)]
            items = []
            total = 0
            for _ in range(1 + int(rnd() * (6 if a == "purchase" else 2))):
                qty = 1 + int(rnd() * 3)
                minor = int(rng.lognormvariate(7.5, 1.0))
                if cur == "JPY":
                    price = (minor * 3 // 20) * 10 + 100          # whole yen, ends in 0
                elif rnd() < 0.6:
                    price = (minor // 100) * 100 + 99              # x.99
                else:
                    price = minor                                  # any cents, e.g. 12.50
                total += price * qty
                items.append({"sku": "SKU-%06d" % int(rnd() * 1_000_000), "qty": qty,
                              "price": raw(raws, money(price, cur))})
            obj["cart"] = {"items": items, "total": raw(raws, money(total, cur)),
                           "currency": cur}
        elif a == "search":
            obj["search"] = {"query": SEARCH_QUERIES[int(rnd() * len(SEARCH_QUERIES))],
                             "results": int(rng.lognormvariate(3.0, 1.5))}
        sku = "SKU-%06d" % int(rnd() * 1_000_000)
        obj["page"] = {"url": "https://shop.example.com/p/%s?utm_source=%s&utm_campaign=spring_%d"
                              % (sku, ("newsletter", "google", "instagram", "direct")[int(rnd() * 4)],
                                 int(rnd() * 100)),
                       "title": PRODUCT_TITLES[int(rnd() * len(PRODUCT_TITLES))],
                       "referrer": REFERERS[int(rnd() * len(REFERERS))]}
        scr = SCREENS[int(rnd() * len(SCREENS))]
        obj["context"] = {"locale": LOCALES[int(rnd() * len(LOCALES))],
                          "timezone": TIMEZONES[int(rnd() * len(TIMEZONES))],
                          "screen": {"w": scr[0], "h": scr[1], "dpr": (1, 1.5, 2, 3)[int(rnd() * 4)]}}
        if rnd() < 0.1:
            score = raw(raws, ODD_SCORES[int(rnd() * len(ODD_SCORES))])
        else:
            score = round(rnd() * 5, 3)
        obj["metrics"] = {"latency_ms": round(rng.lognormvariate(4.0, 0.8), 3), "score": score}
        obj["flags"] = {"beta": rnd() < 0.2, "ab_group": "A" if rnd() < 0.5 else "B"}
        obj["client"] = client_block()

    def gen(i, ts):
        obj = {"id": BASE_ID + i, "ts": ts}
        raws = []
        x = rnd()
        if x < 0.55:
            obj["type"] = "http_request"
            gen_http(obj, raws)
        elif x < 0.70:
            obj["type"] = "error"
            gen_error(obj, raws)
        else:
            obj["type"] = "user_action"
            gen_action(obj, raws)
        if rnd() < 0.01:
            # 30 significant digits, beyond int64 and float precision.
            obj["big_id"] = 10**29 + bits(96) % (9 * 10**29)
        if rnd() < 0.01:
            obj["note"] = EMOJI_TEXTS[int(rnd() * len(EMOJI_TEXTS))]
        if rnd() < 0.005:
            obj["comment"] = raw(raws, RAW_STRINGS[int(rnd() * len(RAW_STRINGS))])
        return obj, raws

    return gen


def _bisect_choice(cum, x):
    """Index of the first cumulative weight > x (small tuples: a linear scan is fastest)."""
    i = 0
    for c in cum:
        if x < c:
            return i
        i += 1
    return len(cum) - 1


CITY_CUM = tuple(sum(CITY_WEIGHTS[:k + 1]) for k in range(len(CITY_WEIGHTS)))
CITY_TOTAL = CITY_CUM[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=100000, help="number of lines (default 100000)")
    ap.add_argument("--seed", type=int, default=42, help="random seed (default 42)")
    ap.add_argument("--out", default="-", help="output file (default: stdout)")
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")

    rng = random.Random(args.seed)
    gen = make_row_fn(rng)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False, check_circular=False).encode
    rnd = rng.random

    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    t0 = time.perf_counter()
    total_bytes = 0
    ms = START_MS
    cur_sec = -1
    sec_prefix = ""
    chunk = []
    try:
        for i in range(args.rows):
            # Strictly increasing timestamps with millisecond precision.
            ms += 1 + int(-60.0 * math.log(1.0 - rnd()))
            sec, milli = divmod(ms, 1000)
            if sec != cur_sec:
                cur_sec = sec
                sec_prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec))
            ts = "%s.%03dZ" % (sec_prefix, milli)
            obj, raws = gen(i + 1, ts)
            line = dumps(obj)
            for key, text in raws:
                line = line.replace(key, text, 1)
            chunk.append(line)
            if len(chunk) >= 2000:
                data = ("\n".join(chunk) + "\n").encode("utf-8")
                out.write(data)
                total_bytes += len(data)
                chunk.clear()
        if chunk:
            data = ("\n".join(chunk) + "\n").encode("utf-8")
            out.write(data)
            total_bytes += len(data)
        out.flush()
    except BrokenPipeError:
        # Reader went away (e.g. `| head`): stop quietly, as the Python docs recommend.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    finally:
        if args.out != "-":
            out.close()
    dt = time.perf_counter() - t0
    mean = total_bytes / args.rows if args.rows else 0
    print("gen_events: %d rows, %d bytes (%.1f MB), mean line %.0f bytes, seed %d, %.1f s"
          % (args.rows, total_bytes, total_bytes / 1e6, mean, args.seed, dt), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
