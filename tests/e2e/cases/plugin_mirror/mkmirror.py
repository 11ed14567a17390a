#!/usr/bin/env python3
"""Builds a Terraform filesystem mirror of the real terraform-provider-null
under ROOT, in both layouts `terraform providers mirror` writes:

  ROOT/registry.terraform.io/hashicorp/null/3.2.0/PLATFORM/terraform-provider-null_v3.2.0_x5
  ROOT/registry.terraform.io/hashicorp/null/terraform-provider-null_3.1.1_PLATFORM.zip
  ROOT/registry.terraform.io/hashicorp/null/terraform-provider-null_3.3.0_windows_amd64.zip
  ROOT/registry.terraform.io/hashicorp/null/latest/PLATFORM/  (not a version)

The same binary serves every version (the protocol does not say which).
Usage: mkmirror.py BINARY ROOT; prints the platform.
"""
import os
import platform
import shutil
import sys
import zipfile

ARCH = {"x86_64": "amd64", "aarch64": "arm64", "armv7l": "arm", "armv6l": "arm"}


def main():
    binary, root = sys.argv[1], sys.argv[2]
    plat = "linux_" + ARCH[platform.machine()]
    base = os.path.join(root, "registry.terraform.io/hashicorp/null")
    unpacked = os.path.join(base, "3.2.0", plat)
    os.makedirs(unpacked)
    shutil.copy(binary, os.path.join(unpacked, "terraform-provider-null_v3.2.0_x5"))
    os.makedirs(os.path.join(base, "latest", plat))
    for ver, p in (("3.1.1", plat), ("3.3.0", "windows_amd64")):
        name = "terraform-provider-null_%s_%s.zip" % (ver, p)
        with zipfile.ZipFile(os.path.join(base, name), "w", zipfile.ZIP_DEFLATED) as z:
            z.write(binary, "terraform-provider-null_v%s_x5" % ver)
    print(plat)


main()
