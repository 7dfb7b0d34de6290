"""Writes src/__fixtures__/botocore-sigv4.json: SigV4 vectors made by botocore.

botocore (the AWS SDK for Python's core) is an implementation of SigV4
independent of @smithy/signature-v4, which sigv4() uses, and it passes
AWS's SigV4 test suite. The requests below are ours; botocore signs each
with header auth (SigV4Auth, or S3SigV4Auth for S3) and presigns it
(SigV4QueryAuth / S3SigV4QueryAuth) at the test suite's time, with its
example credentials, and this records its canonical requests, strings to
sign, Authorization headers and presigned query strings. The test
(src/botocore-vectors.test.ts) checks sigv4() against them byte for byte.

Run it again after changing the cases: `python3 scripts/botocore-sigv4.py`
in packages/auth-sigv4 (needs `pip install botocore`, or Debian's
python3-botocore).
"""

import datetime
import hashlib
import json
import pathlib
from urllib.parse import parse_qsl, urlsplit

import botocore
import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

TIME = datetime.datetime(2015, 8, 30, 12, 36, 0)
REGION = "us-east-1"
ACCESS_KEY = "AKIDEXAMPLE"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "FQoGZXIvYXdzEXAMPLEtokenWithSlash/AndPlus+AndEquals=="
HOST = "example.amazonaws.com"

botocore.auth.get_current_datetime = lambda: TIME

# name, service ("s3" signs as S3: no normalization, the path as sent, a payload hash header),
# method, path (as sent: percent-encoded), query pairs (decoded), header fields (a name may repeat),
# body, options.
CASES = [
    ("get-root", "service", "GET", "/", [], [], None, {}),
    ("get-query-sorted-by-encoded-key", "service", "GET", "/", [("b", "2"), ("a", "1"), ("A", "0"), ("a_", "x"), ("a-b", "y")], [], None, {}),
    ("get-query-repeated-key-sorted-by-value", "service", "GET", "/", [("tag", "zeta"), ("tag", "alpha"), ("tag", "")], [], None, {"header_only": True}),
    ("get-query-empty-value", "service", "GET", "/", [("flag", ""), ("x", "1")], [], None, {}),
    ("get-query-reserved-characters", "service", "GET", "/", [("a b", "c&d=e/f+g~h*'()!$,;:@?#[]")], [], None, {}),
    ("get-query-utf8", "service", "GET", "/", [("ключ", "значение €"), ("emoji", "😀")], [], None, {}),
    ("get-path-encoded-segments", "service", "GET", "/things/a%20b/%E2%82%AC/c%2Fd", [], [], None, {}),
    ("get-path-dot-segments", "service", "GET", "/a/./b/../c", [], [], None, {}),
    ("get-path-dot-dot-above-root", "service", "GET", "/../a/..", [], [], None, {}),
    ("get-path-empty-segments", "service", "GET", "//a//b//", [], [], None, {}),
    ("get-path-unreserved", "service", "GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", [], [], None, {}),
    ("get-path-reserved-encoded", "service", "GET", "/a%3Ab%40c%21d%2Ae%28f%29%27g", [], [], None, {}),
    ("get-header-repeated-field", "service", "GET", "/", [], [("X-Tag", "b"), ("X-Tag", "a"), ("X-Tag", "b")], None, {}),
    ("get-header-inner-whitespace", "service", "GET", "/", [], [("X-Spaces", "a   b \t c"), ("X-Quoted", '"a   b"')], None, {}),
    ("get-header-names-and-values-case", "service", "GET", "/", [], [("X-MiXeD-Case", "VaLuE"), ("Content-Type", "Text/Plain")], None, {}),
    ("get-header-unsigned-user-agent", "service", "GET", "/", [], [("User-Agent", "anvil/1.0"), ("X-Amzn-Trace-Id", "Root=1-5759e988")], None, {}),
    ("get-header-x-amz-meta", "service", "GET", "/", [], [("X-Amz-Meta-Owner", "me")], None, {"header_only": True}),
    ("get-session-token", "service", "GET", "/", [("a", "1")], [], None, {"token": True}),
    ("get-expires-a-week", "service", "GET", "/", [], [], None, {"expires": 604800}),
    ("post-json-with-payload-hash", "dynamodb", "POST", "/", [], [("Content-Type", "application/x-amz-json-1.0"), ("X-Amz-Target", "DynamoDB_20120810.GetItem")], '{"TableName":"t","Key":{"id":{"S":"a"}}}', {"checksum": True}),
    ("post-form-urlencoded", "service", "POST", "/", [], [("Content-Type", "application/x-www-form-urlencoded")], "Action=ListUsers&Version=2010-05-08", {}),
    ("post-utf8-body", "service", "POST", "/", [], [("Content-Type", "text/plain; charset=utf-8")], "héllo wörld €", {}),
    ("s3-get-object-encoded-key", "s3", "GET", "/bucket/photos/2024/my%20cat%E2%82%AC%2B.jpg", [("versionId", "v1")], [], None, {}),
    ("s3-get-object-dot-and-empty-segments-kept", "s3", "GET", "/bucket/a/../b//c/./d", [], [], None, {}),
    ("s3-put-object", "s3", "PUT", "/bucket/key.txt", [], [("Content-Type", "text/plain"), ("X-Amz-Meta-Owner", "me")], "hello s3", {"header_only": True}),
    ("s3-list-objects-query", "s3", "GET", "/bucket", [("list-type", "2"), ("prefix", "a b/c"), ("max-keys", "10")], [], None, {"token": True}),
]


def credentials(options):
    return Credentials(ACCESS_KEY, SECRET_KEY, TOKEN if options.get("token") else None)


def new_request(method, path, query, headers, body):
    request = AWSRequest(method=method, url=f"https://{HOST}{path}", params=list(query), data=body.encode() if body else None)
    request.headers["Host"] = HOST
    for name, value in headers:
        request.headers.add_header(name, value) if name in request.headers else request.headers.__setitem__(name, value)
    return request


def sign(signer, request):
    """add_auth, keeping the canonical request and string to sign it computes."""
    request.context["timestamp"] = TIME.strftime(botocore.auth.SIGV4_TIMESTAMP)
    signer._modify_request_before_signing(request)
    canonical = signer.canonical_request(request)
    string_to_sign = signer.string_to_sign(request, canonical)
    signer._inject_signature_to_request(request, signer.signature(string_to_sign, request))
    return canonical, string_to_sign


def header_variant(service, method, path, query, headers, body, options):
    signer = (botocore.auth.S3SigV4Auth if service == "s3" else botocore.auth.SigV4Auth)(credentials(options), service, REGION)
    request = new_request(method, path, query, headers, body)
    if options.get("checksum"):
        request.headers["X-Amz-Content-SHA256"] = hashlib.sha256(body.encode() if body else b"").hexdigest()
    canonical, string_to_sign = sign(signer, request)
    added = {name.lower(): value for name, value in request.headers.items() if name.lower() in ("authorization", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256")}
    return {"canonicalRequest": canonical, "stringToSign": string_to_sign, "headers": added}


def query_variant(service, method, path, query, headers, body, options):
    expires = options.get("expires", 3600)
    signer = (botocore.auth.S3SigV4QueryAuth if service == "s3" else botocore.auth.SigV4QueryAuth)(credentials(options), service, REGION, expires)
    request = new_request(method, path, query, headers, body)
    canonical, string_to_sign = sign(signer, request)
    url = urlsplit(request.url)
    params = parse_qsl(url.query, keep_blank_values=True)
    return {"expiresIn": expires, "canonicalRequest": canonical, "stringToSign": string_to_sign, "path": url.path, "params": sorted(params)}


def main():
    cases = []
    for name, service, method, path, query, headers, body, options in CASES:
        case = {
            "name": name,
            "service": service,
            "method": method,
            "path": path,
            "query": query,
            "headers": headers,
            "body": body,
            "token": bool(options.get("token")),
            "checksum": bool(options.get("checksum")),
            "header": header_variant(service, method, path, query, headers, body, options),
        }
        # botocore's presigner folds repeated parameters, moves a body into the query and leaves x-amz-* headers
        # headers (the AWS SDK for JavaScript, and sigv4(), move them into the query): those are header-signed only.
        if not options.get("header_only") and body is None:
            case["presigned"] = query_variant(service, method, path, query, headers, body, options)
        cases.append(case)
    out = {
        "generator": f"scripts/botocore-sigv4.py with botocore {botocore.__version__}",
        "region": REGION,
        "timestamp": "2015-08-30T12:36:00Z",
        "credentials": {"accessKeyId": ACCESS_KEY, "secretAccessKey": SECRET_KEY, "sessionToken": TOKEN},
        "cases": cases,
    }
    target = pathlib.Path(__file__).resolve().parent.parent / "src" / "__fixtures__" / "botocore-sigv4.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
