#!/bin/sh
# check.sh LINES: `cairn gateway -check` on a configuration whose
# hashicorp/null section holds LINES (the mirror's path and the platform
# shown as MIRROR and PLATFORM).  Needs ./token, ./mirror, ./platform.
printf '[gateway]\nlisten = 127.0.0.1:0\ncert_file = c\nkey_file = k\nwork_dir = /tmp/x\nplugin_user = nobody\n\n[provider "hashicorp/null"]\n%s\n\n[client "edge"]\ntoken_file = token\nproviders = hashicorp/null\n' "$1" > check.ini
cairn gateway -check -config check.ini > out 2>&1
echo "exit $?"
sed "s|$(cat mirror)|MIRROR|g; s|$(cat platform)|PLATFORM|g" out
