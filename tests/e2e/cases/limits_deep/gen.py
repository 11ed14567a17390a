#!/usr/bin/env python3
"""gen.py KIND DIR: writes one configuration far beyond the nesting limit
(500) into DIR, in the syntax KIND names (inputs from the fuzz branch's
tests/fuzz/gen-large.py, made at test time instead of committed)."""
import os
import sys

kind, d = sys.argv[1], sys.argv[2]
os.makedirs(d, exist_ok=True)


def chain(op, n, term="1"):
    return op.join([term] * n)


def put(name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


if kind == "plus":
    put("main.tf", "locals {\n  x = " + chain("+", 150000) + "\n}\n")
elif kind == "and":
    put("main.tf", "locals {\n  x = " + chain(" && ", 100000, "true") + "\n}\n")
elif kind == "splat":
    put("main.tf", "locals {\n  a = []\n  x = local.a" + "[*].b" * 100000 + "\n}\n")
elif kind == "index":
    put("main.tf", "locals {\n  a = []\n  i = 0\n  x = local.a" +
        "[local.i]" * 100000 + "\n}\n")
elif kind == "json":
    put("main.tf.json", '{"locals": {"x": "${' + chain("+", 150000) + '}"}}')
elif kind == "template":
    put("t.tmpl", "${" + chain("+", 150000) + "}")
    put("main.tf", 'output "x" {\n  value = templatefile("t.tmpl", {})\n}\n')
elif kind == "tfvars":
    put("main.tf", 'variable "n" {\n  type = number\n}\n')
    put("big.tfvars", "n = " + chain("+", 150000) + "\n")
elif kind == "escapes":
    put("main.tf", 'locals {\n  x = "' + "\\n\\u00e9" * (1 << 17) + '"\n}\n')
elif kind == "ok":
    put("main.tf", 'output "x" {\n  value = ' + chain("+", 400) + "\n}\n")
else:
    sys.exit("unknown kind " + kind)
