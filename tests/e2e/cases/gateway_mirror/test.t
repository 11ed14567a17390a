`plugin_dir` in the gateway's configuration: a provider served from a
Terraform filesystem mirror.  The mirror (../plugin_mirror/mkmirror.py)
holds the real terraform-provider-null as 3.2.0 unpacked, 3.1.1 as a
.zip, 3.3.0 for another platform only, and a directory that is not a
version.  The gateway picks the newest release the optional `version`
constraint allows, once, when it starts.  Helpers: ../gateway_null/start.sh
and stop.sh.

  $ M=$(mktemp -d /tmp/cairn-gw-mirror.XXXXXX); chmod 755 $M; echo $M > mirror
  $ python3 $TESTDIR/../plugin_mirror/mkmirror.py "$CAIRN_TESTPEER_NULL/terraform-provider-null" "$(cat mirror)/m" > platform
  $ head -c 24 /dev/urandom | base64 > token; chmod 600 token

-check says what it chose: the newest release (3.2.0, unpacked), or the
newest that `version` allows (3.1.1, from the .zip).

  $ sh check.sh "plugin_dir = $(cat mirror)/m"
  exit 0
  The gateway configuration check.ini is valid: 1 provider, 1 client.
  - registry.terraform.io/hashicorp/null v3.2.0 from MIRROR/m
  $ sh check.sh "plugin_dir = $(cat mirror)/m
  > version = ~> 3.1.0"
  exit 0
  The gateway configuration check.ini is valid: 1 provider, 1 client.
  - registry.terraform.io/hashicorp/null v3.1.1 from MIRROR/m (a .zip, unpacked at start)

Errors, each with its line: no version matching, a constraint that does
not parse, a mirror without the provider, a relative or missing
directory, both plugin and plugin_dir, version with a plugin.

  $ sh check.sh "plugin_dir = $(cat mirror)/m
  > version = >= 4.0"
  exit 1
  
  Error: Invalid gateway configuration
  
  check.ini:8: provider "registry.terraform.io/hashicorp/null": the mirror
  MIRROR/m holds no version matching ">= 4.0.0" for
  PLATFORM (it holds 3.2.0, 3.1.1).
  $ sh check.sh "plugin_dir = $(cat mirror)/m
  > version = banana"
  exit 1
  
  Error: Invalid gateway configuration
  
    on check.ini line 10:
    10: version = banana
  
  check.ini:10: the value of "version" must be a version constraint such as "~>
  3.2" or ">= 1.0, < 2.0".
  $ mkdir -p "$(cat mirror)/empty"; sh check.sh "plugin_dir = $(cat mirror)/empty"
  exit 1
  
  Error: Invalid gateway configuration
  
  check.ini:8: provider "registry.terraform.io/hashicorp/null": the mirror
  MIRROR/empty holds no package of it for PLATFORM.
  $ sh check.sh "plugin_dir = m"
  exit 1
  
  Error: Invalid gateway configuration
  
    on check.ini line 9:
     9: plugin_dir = m
  
  check.ini:9: the value of "plugin_dir" must be an absolute path to a provider
  mirror directory.
  
  Error: Invalid gateway configuration
  
  check.ini:8: provider "registry.terraform.io/hashicorp/null" needs "plugin"
  (the binary that serves it) or "plugin_dir" (a filesystem mirror holding it).
  $ sh check.sh "plugin_dir = $(cat mirror)/nothing"
  exit 1
  
  Error: Invalid gateway configuration
  
    on check.ini line 9:
     9: plugin_dir = MIRROR/nothing
  
  check.ini:9: the plugin_dir MIRROR/nothing is not a
  directory: No such file or directory.
  
  Error: Invalid gateway configuration
  
  check.ini:8: provider "registry.terraform.io/hashicorp/null" needs "plugin"
  (the binary that serves it) or "plugin_dir" (a filesystem mirror holding it).
  $ sh check.sh "plugin_dir = $(cat mirror)/m
  > plugin = $CAIRN_TESTPEER_NULL/terraform-provider-null"
  exit 1
  
  Error: Invalid gateway configuration
  
  check.ini:8: provider "registry.terraform.io/hashicorp/null" names both
  "plugin" and "plugin_dir": keep one.
  $ sh check.sh "plugin = $CAIRN_TESTPEER_NULL/terraform-provider-null
  > version = 3.2.0"
  exit 1
  
  Error: Invalid gateway configuration
  
  check.ini:8: provider "registry.terraform.io/hashicorp/null": "version"
  selects a package from "plugin_dir"; a "plugin" is one binary.

The gateway serving 3.1.1 from the .zip: unpacked under
work_dir/.packages at start; the plugin processes run that binary; a
client applies through it.

  $ rm token; NULL_SOURCE="plugin_dir = $(cat mirror)/m
  > version = ~> 3.1.0" GW_EXTRA='idle_timeout = 10m' sh $TESTDIR/../gateway_null/start.sh
  $ ls "$(cat workdir)/plugins/.packages/registry.terraform.io/hashicorp/null/3.1.1/$(cat platform)"
  terraform-provider-null_v3.1.1_x5
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | grep -e 'null_resource.a: Creation' -e 'Apply complete'
  null_resource\.a: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ for p in $(pgrep -P $(cat gw.pid)); do readlink /proc/$p/exe; done | sed "s|$(cat workdir)|WORKDIR|; s|$(cat platform)|PLATFORM|" | sort -u
  WORKDIR/plugins/.packages/registry.terraform.io/hashicorp/null/3.1.1/PLATFORM/terraform-provider-null_v3.1.1_x5
  $ sh $TESTDIR/../gateway_null/stop.sh

Without `version`: 3.2.0, the unpacked package, run where it lies in the
mirror.

  $ NULL_SOURCE="plugin_dir = $(cat mirror)/m" GW_EXTRA='idle_timeout = 10m' sh $TESTDIR/../gateway_null/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn plan -compact-warnings 2>&1 | grep -e 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ for p in $(pgrep -P $(cat gw.pid)); do readlink /proc/$p/exe; done | sed "s|$(cat mirror)|MIRROR|; s|$(cat platform)|PLATFORM|" | sort -u
  MIRROR/m/registry.terraform.io/hashicorp/null/3.2.0/PLATFORM/terraform-provider-null_v3.2.0_x5
  $ sh $TESTDIR/../gateway_null/stop.sh
  $ rm -rf "$(cat mirror)"
