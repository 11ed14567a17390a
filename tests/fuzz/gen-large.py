#!/usr/bin/env python3
"""Large inputs for the fuzz targets (docs/fuzzing.md), written at run time
rather than committed: 1 MB and more, the sizes where recursion depth,
quadratic work and length limits show (a random run grows inputs slowly
and rarely gets there).

Usage: tests/fuzz/gen-large.py OUTDIR [--case NAME]
Writes OUTDIR/<target>/<case> for every case; a case in KNOWN (a crash
not fixed yet, listed in tests/fuzz/crashers/) goes to
OUTDIR/known/<target>/<case> instead, so the smoke and the campaign can
run everything else.  --case writes only that case (to OUTDIR/<case>).
"""
import base64
import json
import os
import sys

MB = 1 << 20


def chain(op, n, term="1"):
    return (op.join([term] * n))


def hcl_cases():
    yield "plus_chain_150k", "x = " + chain("+", 150000) + "\n"
    yield "and_chain_100k", "x = " + chain(" && ", 100000, "true") + "\n"
    yield "cond_chain_50k", "x = " + "true ? 1 : " * 50000 + "0\n"
    yield "paren_deep_100k", "x = " + "(" * 100000 + "1" + ")" * 100000 + "\n"
    yield "tuple_deep_100k", "x = " + "[" * 100000 + "]" * 100000 + "\n"
    yield "block_deep_50k", "a {\n" * 50000 + "}\n" * 50000
    yield "unary_chain_200k", "x = " + "!" * 200000 + "true\n"
    yield "neg_chain_200k", "x = " + "-" * 200000 + "1\n"
    yield "traversal_200k", "x = a" + ".b" * 200000 + "\n"
    yield "index_200k", "x = a" + "[0]" * 200000 + "\n"
    yield "splat_100k", "x = a" + "[*].b" * 100000 + "\n"
    yield "call_deep_50k", "x = " + "f(" * 50000 + "1" + ")" * 50000 + "\n"
    yield "call_args_200k", "x = f(" + ", ".join(["1"] * 200000) + ")\n"
    yield "tuple_200k", "x = [" + ", ".join(["1"] * 200000) + "]\n"
    yield "object_200k", "x = {\n" + "".join(
        "k%d = %d\n" % (i, i) for i in range(200000)) + "}\n"
    yield "attrs_100k", "".join("a%d = %d\n" % (i, i) for i in range(100000))
    yield "string_2mb", 'x = "' + "a" * (2 * MB) + '"\n'
    yield "escapes_1mb", 'x = "' + "\\n\\u00e9" * (MB // 8) + '"\n'
    yield "interp_deep_20k", 'x = "' + "${\"" * 20000 + "a" + "\"}" * 20000 + '"\n'
    yield "interp_many_200k", 'x = "' + "${a}" * 200000 + '"\n'
    yield "heredoc_1mb", "x = <<EOT\n" + ("line ${a}\n" * (MB // 10)) + "EOT\n"
    yield "comment_2mb", "# " + "c" * (2 * MB) + "\n"
    yield "for_deep_20k", "x = " + "[for a in b: " * 20000 + "1" + "]" * 20000 + "\n"
    yield "newlines_2mb", "\n" * (2 * MB)
    yield "utf8_1mb", 'x = "' + "é€😀" * (MB // 9) + '"\n'


def json_deep(n, o="[", c="]"):
    return o * n + c * n


def json_cases():
    yield "array_deep_1m", json_deep(MB)
    yield "object_deep_100k", '{"a":' * 100000 + "1" + "}" * 100000
    yield "string_4mb", '"' + "x" * (4 * MB) + '"'
    yield "escapes_1mb", '"' + "\\u00e9\\n\\ud83d\\ude00" * (MB // 20) + '"'
    yield "number_1mb", "1" * MB
    yield "numbers_200k", "[" + ",".join(str(i * 1.5) for i in range(200000)) + "]"
    yield "keys_200k", "{" + ",".join('"k%d":%d' % (i, i) for i in range(200000)) + "}"
    yield "dupkeys_200k", "{" + ",".join('"k":%d' % i for i in range(200000)) + "}"
    yield "whitespace_2mb", " " * (2 * MB) + "null"


def hcl_json_cases():
    yield "array_deep_100k", '{"locals": ' + json_deep(100000) + "}"
    yield "template_1mb", '{"locals": {"x": "' + "${a}" * (MB // 4) + '"}}'
    yield "locals_100k", '{"locals": {' + ",".join(
        '"l%d": "${var.v%d}"' % (i, i) for i in range(100000)) + "}}"
    yield "resources_20k", json.dumps({"resource": {"t": {
        "r%d" % i: {"a": i, "lifecycle": {"ignore_changes": ["a"]}}
        for i in range(20000)}}})
    yield "plus_chain_in_string", '{"locals": {"x": "${' + chain("+", 150000) + '}"}}'


def state_cases():
    res = []
    for i in range(20000):
        res.append({"mode": "managed", "type": "terraform_data",
                    "name": "r%d" % i, "provider":
                    'provider["terraform.io/builtin/terraform"]',
                    "instances": [{"schema_version": 0, "attributes":
                                   {"id": "id%d" % i, "input": "x" * 20}}]})
    yield "resources_20k", json.dumps({"version": 4, "terraform_version": "1.9.0",
                                       "serial": 1, "lineage": "l",
                                       "outputs": {}, "resources": res})
    yield "output_string_2mb", json.dumps({
        "version": 4, "serial": 1, "lineage": "l", "outputs": {
            "o": {"value": "x" * (2 * MB), "type": "string"}},
        "resources": []})
    yield "output_deep_400", ('{"version":4,"serial":1,"lineage":"l","outputs":'
                              '{"o":{"value":' + json_deep(400) +
                              ',"type":' + '["list",' * 400 + '"string"' +
                              "]" * 400 + '}},"resources":[]}')


def tfvars_cases():
    yield "list_200k", "l = [" + ", ".join('"a"' for _ in range(200000)) + "]\n"
    yield "string_2mb", 's = "' + "a" * (2 * MB) + '"\n'
    yield "any_deep_400", "any = " + "[" * 400 + "]" * 400 + "\n"
    yield "plus_chain_150k", "n = " + chain("+", 150000) + "\n"
    yield "json_list_200k", '{"l": [' + ",".join('"a"' for _ in range(200000)) + "]}"


def hostcfg_cases():
    yield "line_2mb", "[defaults]\nparallelism = " + "9" * (2 * MB) + "\n"
    yield "sections_50k", "".join(
        '[provider "h%d.example/a/b"]\nendpoint = https://h%d/\n' % (i, i)
        for i in range(50000))
    yield "comments_2mb", ";" * (2 * MB) + "\n"


def prov_cases():
    yield "diags_100k", "\x01" + json.dumps({"diagnostics": [
        {"severity": "warning", "summary": "s%d" % i,
         "attribute": [{"attr": "l"}, {"index": i}]} for i in range(100000)]})
    yield "dynamic_deep_1k", ("\x04" + '{"planned_state":{"value":{"d":{"value":' +
                              json_deep(1000) + ',"type":' + '["list",' * 1000 +
                              '"string"' + "]" * 1000 + '}}}}')
    yield "list_1mb", ("\x03" + '{"new_state":{"value":{"l":[' +
                       ",".join('"x"' for _ in range(MB // 4)) + ']}}}')
    yield "private_2mb", "\x03" + '{"new_state":{"value":null},"private":"' + "QUFB" * (MB // 2) + '"}'


def planfile_cases():
    yield "body_deep_1m", json_deep(MB)
    yield "body_string_2mb", '{"cairn_version":"' + "x" * (2 * MB) + '"}'


def zip_bytes(entries, comp):
    import io
    import zipfile
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", comp) as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data,
                       compress_type=comp)
    return b.getvalue()


def zip_cases():
    import zipfile
    yield "entries_40k", zip_bytes((("f%05d" % i, b"") for i in range(40000)),
                                   zipfile.ZIP_STORED)
    yield "stored_3mb", zip_bytes([("terraform-provider-x", b"x" * (3 * MB))],
                                  zipfile.ZIP_STORED)
    yield "bomb_256mb", zip_bytes([("terraform-provider-x", bytes(256 * MB))],
                                  zipfile.ZIP_DEFLATED)


def mtls_cases():
    yield "base64_2mb", "QUFB" * (MB // 2)
    yield "der_seq_1mb", base64.b64encode(b"\x30\x83" + b"\xff" * MB).decode()


def lock_info_cases():
    yield "who_2mb", '{"ID":"x","Who":"' + "w" * (2 * MB) + '"}'
    yield "deep_1m", json_deep(MB)
    yield "keys_100k", "{" + ",".join('"k%d":"v"' % i for i in range(100000)) + ',"ID":"x"}'


TARGETS = {
    "hcl": hcl_cases, "hcl_json": hcl_json_cases, "json": json_cases,
    "state": state_cases, "tfvars": tfvars_cases, "hostcfg": hostcfg_cases,
    "prov_answer": prov_cases, "planfile": planfile_cases,
    "zip": zip_cases,
    "mtls": mtls_cases,
    "lock_info": lock_info_cases,
}

# Crashes not fixed yet (tests/fuzz/crashers/<target>/README.md).
KNOWN = set()   # every crasher found so far is fixed (tests/fuzz/crashers/README.md)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    only = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--case" else None
    for t, gen in TARGETS.items():
        for name, text in gen():
            if only and name != only and "%s/%s" % (t, name) != only:
                continue
            if only:
                d = out
            elif (t, name) in KNOWN:
                d = os.path.join(out, "known", t)
            else:
                d = os.path.join(out, t)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, name), "wb") as f:
                f.write(text if isinstance(text, bytes)
                        else text.encode("utf-8", "surrogatepass"))


if __name__ == "__main__":
    main()
