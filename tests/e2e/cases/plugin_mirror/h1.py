#!/usr/bin/env python3
"""Test oracle, written from the specification of Terraform's package
hashes (not from cairn's code): prints the hashes a lock file records.

  h1.py DIR        h1: of a package directory
  h1.py FILE.zip   h1: of the archive's entries, then zh: of the file

h1 (golang.org/x/mod/sumdb/dirhash Hash1): for each file, sorted by its
'/'-separated path, the line "<sha256 hex>  <path>\\n"; the hash is "h1:"
and the standard base64 of the SHA-256 of all those lines.  zh is "zh:"
and the hex SHA-256 of the .zip file.
"""
import base64
import hashlib
import os
import sys
import zipfile


def h1(files):
    lines = "".join("%s  %s\n" % (hashlib.sha256(data).hexdigest(), name)
                    for name, data in sorted(files))
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


def main():
    p = sys.argv[1]
    if p.endswith(".zip"):
        with zipfile.ZipFile(p) as z:
            print(h1([(i.filename, z.read(i)) for i in z.infolist()]))
        with open(p, "rb") as f:
            print("zh:" + hashlib.sha256(f.read()).hexdigest())
        return
    p = os.path.realpath(p)
    files = []
    for d, _, names in os.walk(p):
        for n in names:
            full = os.path.join(d, n)
            with open(full, "rb") as f:
                files.append((os.path.relpath(full, p).replace(os.sep, "/"), f.read()))
    print(h1(files))


main()
