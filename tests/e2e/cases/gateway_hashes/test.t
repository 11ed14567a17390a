`hashes` in a provider section of the gateway's configuration: the
package must match one of them (`h1:` of its contents, `zh:` of a .zip,
as a dependency lock file records them), checked by `-check`, at start,
and again before every plugin process starts, since the package runs
where it lies.  The mirror (../plugin_mirror/mkmirror.py) holds the real
terraform-provider-null as 3.2.0 unpacked and 3.1.1 as a .zip.  Hashes
depend on the peer's build, so the transcript shows them as H1 and ZH.
Helpers: ../gateway_mirror/check.sh, ../gateway_null/start.sh, stop.sh
and waitlog.sh.

  $ M=$(mktemp -d /tmp/cairn-gw-hashes.XXXXXX); chmod 755 $M; echo $M > mirror
  $ python3 $TESTDIR/../plugin_mirror/mkmirror.py "$CAIRN_TESTPEER_NULL/terraform-provider-null" "$(cat mirror)/m" > platform
  $ head -c 24 /dev/urandom | base64 > token; chmod 600 token
  $ mask() { sed 's|h1:[A-Za-z0-9+/=]*|H1|g; s|zh:[0-9a-f]*|ZH|g'; }

A package that matches none: the error names it and gives its own hashes.

  $ sh $TESTDIR/../gateway_mirror/check.sh "plugin_dir = $(cat mirror)/m
  > version = ~> 3.1.0
  > hashes = h1:WRONG, zh:0123" > out; mask < out
  sh: 3: mask: not found
  [127]
  $ grep -o 'h1:[A-Za-z0-9+/=]*' out > zip.h1; grep -o 'zh:[0-9a-f]*' out > zip.zh

Either of its hashes is enough: the `h1:` of the contents or the `zh:`
of the .zip.

  $ sh $TESTDIR/../gateway_mirror/check.sh "plugin_dir = $(cat mirror)/m
  > version = ~> 3.1.0
  > hashes = h1:WRONG, $(cat zip.h1)" | head -2
  exit 0
  The gateway configuration check.ini is valid: 1 provider, 1 client.
  $ sh $TESTDIR/../gateway_mirror/check.sh "plugin_dir = $(cat mirror)/m
  > version = ~> 3.1.0
  > hashes = $(cat zip.zh)" | head -1
  exit 0

The unpacked 3.2.0 and a `plugin =` binary are hashed as Terraform hashes
an unpacked package: the same binary has the same `h1:` both ways.

  $ sh $TESTDIR/../gateway_mirror/check.sh "plugin_dir = $(cat mirror)/m
  > hashes = $(cat zip.h1)" > out; mask < out
  sh: 2: mask: not found
  [127]
  $ grep -o 'h1:[A-Za-z0-9+/=]*' out > dir.h1
  $ mkdir -m 755 "$(cat mirror)/bin"; cp "$(cat mirror)/m/registry.terraform.io/hashicorp/null/3.2.0/$(cat platform)/terraform-provider-null_v3.2.0_x5" "$(cat mirror)/bin/"
  $ sh $TESTDIR/../gateway_mirror/check.sh "plugin = $(cat mirror)/bin/terraform-provider-null_v3.2.0_x5
  > hashes = $(cat dir.h1)" | head -1
  exit 0

A value that is not a list of hashes, at its line.

  $ sh $TESTDIR/../gateway_mirror/check.sh "plugin_dir = $(cat mirror)/m
  > hashes = sha256:abc"
  exit 1
  
  Error: Invalid gateway configuration
  
    on check.ini line 10:
    10: hashes = sha256:abc
  
  check.ini:10: the value of "hashes" must be a list of package hashes such as
  "h1:BASE64, zh:HEX", as a dependency lock file holds them.

A gateway serving the pinned binary: a client applies through it.  The
binary is then changed on disk; once the idle plugin has stopped, the
next process is refused, the call fails, and the log says why.

  $ rm token; NULL_SOURCE="plugin = $(cat mirror)/bin/terraform-provider-null_v3.2.0_x5
  > hashes = $(cat dir.h1)" sh $TESTDIR/../gateway_null/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | grep 'Apply complete'
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ sh $TESTDIR/../gateway_null/waitlog.sh idle
  $ printf 'x' >> "$(cat mirror)/bin/terraform-provider-null_v3.2.0_x5"
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color 2>&1 | sed "s/:$(cat port)/:PORT/" | sed -n '/^Error/,$p'
  Error: Provider call failed
  
    with null_resource.a,
    on main.tf line 1, in resource "null_resource" "a":
     1: resource "null_resource" "a" {
  
  Provider "registry.terraform.io/hashicorp/null" answered
  ValidateResourceConfig for resource type "null_resource" with HTTP status 500
  (internal: the plugin cannot be prepared; see the gateway's log).
  
  Error: Provider call failed
  
    with data.null_data_source.d,
    on main.tf line 5, in data "null_data_source" "d":
     5: data "null_data_source" "d" {
  
  Provider "registry.terraform.io/hashicorp/null" answered
  ValidateDataResourceConfig for resource type "null_data_source" with HTTP
  status 500 (internal: the plugin cannot be prepared; see the gateway's log).
  $ grep -c 'refusing to start a plugin: provider "registry.terraform.io/hashicorp/null": the package .* doesn.t match any of the hashes' gw.log
  2
  $ sh $TESTDIR/../gateway_null/stop.sh
  $ rm -rf "$(cat mirror)"
