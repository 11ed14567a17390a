Provider plugins that cannot serve: a missing binary, a program that is
not a plugin, a plugin started with the wrong magic cookie, a relative
path in the host configuration, and a plugin killed in the middle of an
apply (the state keeps what was applied).  `cairn init` starts each
plugin once, so a binary that cannot serve fails there (later commands
refuse a plugin init did not record: plugin_lock).

  $ mkdir -p .config/cairn
  $ echo 'use() { printf "[provider \"hashicorp/null\"]\nplugin = %s\n" "$1" > .config/cairn/cairn.ini; }' > use.sh

A missing binary:

  $ . ./use.sh; use /nonexistent/terraform-provider-null; cairn init 2>&1 | grep -A2 Error
  Error: Failed to start provider plugin
  
  The plugin /nonexistent/terraform-provider-null cannot be run: No such file

A program that exits without a handshake, and one that prints something
else:

  $ . ./use.sh; use /bin/true; cairn init > out 2>&1; echo "exit $?"; sed -n '/^Error/,$p' out
  exit 1
  Error: Failed to start provider plugin
  
  The plugin /bin/true exited before completing the handshake (exit status 0).
  $ printf '#!/bin/sh\necho hello\nexec sleep 60\n' > notaplugin; chmod +x notaplugin
  $ . ./use.sh; use $PWD/notaplugin; cairn init > out 2>&1; echo "exit $?"; sed "s|$PWD|DIR|" out | sed -n '/^Error/,$p'
  exit 1
  Error: Failed to start provider plugin
  
  The plugin DIR/notaplugin gave an invalid handshake:
  its first line is not a go-plugin handshake
  (CORE|APP|NETWORK|ADDRESS|PROTOCOL); its line was "hello".

The real plugin given the wrong magic cookie refuses to serve and says so:

  $ printf '#!/bin/sh\nTF_PLUGIN_MAGIC_COOKIE=wrong exec %s/terraform-provider-null "$@"\n' "$CAIRN_TESTPEER_NULL" > wrongcookie; chmod +x wrongcookie
  $ . ./use.sh; use $PWD/wrongcookie; cairn init 2>&1 | sed "s|$PWD|DIR|" | grep -e Error -e 'This binary is a plugin'
  Error: Failed to start provider plugin
  This binary is a plugin. These are not meant to be executed directly.

The host names the binary by an absolute path (no $PATH search), and
either a plugin or an endpoint:

  $ . ./use.sh; use terraform-provider-null; cairn plan 2>&1 | grep -e Error -e must
  Error: Invalid host configuration value
  must be an absolute path to a provider plugin binary.
  $ printf '[provider "hashicorp/null"]\nplugin = /bin/true\nendpoint = https://localhost:1/x\n' > .config/cairn/cairn.ini
  $ cairn plan 2>&1 | grep -A2 Error
  Error: Conflicting provider settings
  
    on */.config/cairn/cairn.ini line 1: (glob)

The plugin killed mid-apply: null_resource.a was created (and stays in the
state); the call for null_resource.b finds no plugin and reports it as
Terraform does.

  $ . ./use.sh; use $CAIRN_TESTPEER_NULL/terraform-provider-null; cairn init > /dev/null; echo "exit $?"
  exit 0
  $ cairn apply -auto-approve > out 2>&1; echo "exit $?"
  exit 1
  $ grep -e complete -e Error -e 'failed to respond' out
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  Error: Plugin did not respond
  The plugin encountered an error, and failed to respond to the
  $ cairn state list
  null_resource.a
