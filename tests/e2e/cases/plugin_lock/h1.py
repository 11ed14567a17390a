# The lock file's h1: of a `plugin = PATH` binary, computed from the
# specification (golang.org/x/mod/sumdb/dirhash Hash1 of a package that
# holds only the binary, under its base name), compared with the lock file.
import base64, hashlib, os, re, sys
path = sys.argv[1]
with open(path, "rb") as f:
    line = "%s  %s\n" % (hashlib.sha256(f.read()).hexdigest(),
                         os.path.basename(path))
want = "h1:" + base64.b64encode(hashlib.sha256(line.encode()).digest()).decode()
lock = open(".terraform.lock.hcl").read()
print(re.findall(r'"(h1:[^"]*)"', lock) == [want])
