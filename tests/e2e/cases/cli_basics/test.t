The version command names cairn and the libraries linked in.

  $ cairn version
  cairn v0.1.0
  on linux_(amd64|arm64|arm) (re)
  built from commit ([0-9a-f]{40}(-dirty)?|unknown) (re)
  + libcurl 8.14.1 (Debian 8.14.1-2+deb13u5)
  + mbedTLS 3.6.6 (Debian 3.6.6-0.1~deb13u1)
  + nghttp2 1.64.0 (Debian 1.64.0-1.1+deb13u1)
  + zlib 1.3.1 (Debian 1:1.3.dfsg+really1.3.1-1)
  + inih r59 (Debian libinih 59-1)
  + protobuf-c 1.4.1 (Debian 1.4.1-1)
  $ cairn -version | head -1
  cairn v0.1.0
  $ cairn version -json
  {
    "cairn_version": "0.1.0",
    "cairn_commit": "([0-9a-f]{40}(-dirty)?|unknown)", (re)
    "terraform_version": "1.9.8",
    "platform": "linux_(amd64|arm64|arm)", (re)
    "provider_selections": {},
    "terraform_outdated": false,
    "libcurl_version": "8.14.1",
    "mbedtls_version": "3.6.6",
    "nghttp2_version": "1.64.0",
    "zlib_version": "1.3.1",
    "inih_version": "59",
    "protobuf_c_version": "1.4.1",
    "debian_sources": {
      "curl": "8.14.1-2+deb13u5",
      "mbedtls": "3.6.6-0.1~deb13u1",
      "nghttp2": "1.64.0-1.1+deb13u1",
      "zlib": "1:1.3.dfsg+really1.3.1-1",
      "libinih": "59-1",
      "protobuf-c": "1.4.1-1"
    }
  }

An unknown command suggests the closest one and is a usage error.

  $ cairn versoin
  cairn has no command named "versoin". Did you mean "version"?
  
  To see all of cairn's top-level commands, run:
    cairn -help
  
  [2]
  $ cairn frobnicate
  cairn has no command named "frobnicate".
  
  To see all of cairn's top-level commands, run:
    cairn -help
  
  [2]

Invalid flags are usage errors with Terraform's wording.

  $ cairn version -bogus
  
  Error: Failed to parse command-line flags
  
  flag provided but not defined: -bogus
  [2]

-chdir switches directory first, and reports a missing one.

  $ mkdir sub && cairn -chdir=sub version | head -1
  cairn v0.1.0
  $ cairn -chdir=nope version
  Error handling -chdir option: chdir nope: No such file or directory
  [1]

Help: the main help, one command's help, and -help after a command.

  $ cairn -help | head -1
  Usage: cairn [global options] <subcommand> [args]
  $ cairn help version | head -1
  Usage: cairn [global options] version [options]
  $ cairn version -help | head -1
  Usage: cairn [global options] version [options]
  $ cairn > out.txt; echo "exit $?"; head -1 out.txt; grep -c -- '-chdir=DIR' out.txt
  exit 2
  Usage: cairn [global options] <subcommand> [args]
  1
