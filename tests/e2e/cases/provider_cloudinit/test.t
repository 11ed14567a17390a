The built-in hashicorp/cloudinit provider.  The data source renders
byte-identical to the upstream provider: every id (CRC-32 of rendered) and
SHA-256 below was computed by Go 1.19 running the upstream provider's
rendering code (mime/multipart, net/textproto, compress/gzip at
DefaultCompression, encoding/base64) on the same parts.  ("big" is 77,000
bytes of content, so gzip crosses Go's 32 KiB window; length() counts
characters, a CR LF pair being one.)  The gz output equals upstream's
acceptance test string.

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ sed -n '/^Outputs/,$p' out
  Outputs:
  
  defaults = [
    true,
    true,
    "MIMEBOUNDARY",
    "text/x-shellscript",
    "text/plain",
  ]
  gz = "H4sIAAAAAAAA/2TNuwrCQBCF4X5h32FJP0YrIWLhJYVFFEQFy1xGM5DMhtkJJG8vWkjQ8sDP+XaeFVnhMnaYuLZvlLpcNG5pwGrlCt9zlcu4jrJDlm5P1+N+c75H5r3ghhLIc+IWs7k11gBMI2u+35JzeKBAyqWviJ+JWxakk+CDKw4aDxBqbJpQCnVqTUYt/jk1jlqj4K8IYM0rAAD//0u6BO3QAAAA"
  sums = {
    "all" = "1450690797 473 4052e8f874e4dd3cd34a10e58709d2d9c21a110b6708854855003413dbd4c232"
    "b64" = "1090799193 280 8f0ee45fd6346b1de6e54f08d1b2a645fbf0493bdaa179528e677edb2eb751dc"
    "big" = "3131118980 103088 c9226e992d54ed44d14adc64d4e8fd04c05ede973f1b1aa755bc790493775130"
    "empty" = "2702600705 384 4a60318f2ae9e3155c5c01a77dd1a359d9daf82915b8a421b5dcaafa35704179"
    "gz" = "1954523377 224 a8ceac07167a63faf0f39e015471c6246e301cc44ea7d7dd20026bc6665b47c4"
    "gzbig" = "2023979435 21124 64ee91bbb1f7e93250b5ed8cfb12789021b3a2756fd03caffce3074089b860cd"
    "gzempty" = "1994203978 212 b265829030c6d5eae86f6abd0efb5bfc028fc59644d020d1b8558fcbf3f56462"
    "slash" = "39678995 164 b0668ee6201105ade35f57d5dc1ff581ec744d8a1044196edfa116847d0e3ce3"
    "space" = "3210690798 240 ad7689be045602a51844a036eea623b057f1be378e976720a88dc0c19373d4a9"
  }
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

The resource (deprecated upstream, still served, with the framework's
"Resource Deprecated" warning): create, a no-change
plan, a change of any argument replaces it, destroy.  Its ids and the
SHA-256 of the second rendering are Go's too.

  $ cp res1.tf.txt main.tf
  $ cairn validate -no-color
  
  Warning: Resource Deprecated
  
    with cloudinit_config.r,
    on main.tf line 1, in resource "cloudinit_config" "r":
     1: resource "cloudinit_config" "r" {
  
  **NOTE**: This resource is deprecated, use data source instead.
  Success! The configuration is valid, but there were some validation warnings as shown above.
  
  $ cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  r = [
    "1248982268",
    true,
    "MIMEBOUNDARY",
    "H4sIAAAAAAAA/2TOwUoDMRDG8Xsg7xDWc1o9CVt6UNuDh1WQKoh4mGZn08HNTEhmoX17sSBd6HHgNx//J2FFVr87ZWxdmkalDEWXiY7Yr9xeJu6hnNZN99xtH1/fXzYPb5+N+bv8B5ZKwq27W9xaY433c2TN//aGapZKeragCuGQkHXlBhqRIeG6ISZdhCE2l69dAa4DFr/lID1xbN39nnQGzsmKR12GUabeB+GBojUdJbyKu5kbkyH8QMTauq+DSv6+qvfemt8AAAD//5DunAkcAQAA",
  ]
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0
  $ cp res2.tf.txt main.tf
  $ cairn plan -no-color | sed -n '/^cairn will/,/^Plan:/p'
  cairn will perform the following actions:
  
    # cloudinit_config.r must be replaced
  -/+ resource "cloudinit_config" "r" {
        ~ base64_encode = true -> false # forces replacement
        ~ boundary      = "MIMEBOUNDARY" -> "EDGE" # forces replacement
        ~ gzip          = true -> false # forces replacement
        ~ id            = "1248982268" -> (known after apply)
        ~ rendered      = "H4sIAAAAAAAA/2TOwUoDMRDG8Xsg7xDWc1o9CVt6UNuDh1WQKoh4mGZn08HNTEhmoX17sSBd6HHgNx//J2FFVr87ZWxdmkalDEWXiY7Yr9xeJu6hnNZN99xtH1/fXzYPb5+N+bv8B5ZKwq27W9xaY433c2TN//aGapZKeragCuGQkHXlBhqRIeG6ISZdhCE2l69dAa4DFr/lID1xbN39nnQGzsmKR12GUabeB+GBojUdJbyKu5kbkyH8QMTauq+DSv6+qvfemt8AAAD//5DunAkcAQAA" -> (known after apply)
  
        + part { # forces replacement
            + content      = "second"
            + content_type = "text/plain"
          }
  
          # (1 unchanged block hidden)
      }
  
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cairn apply -auto-approve -no-color | sed -n '/^Apply/,$p'
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.
  
  Outputs:
  
  r = [
    "2396193525",
    "7b0363a8e941d89431a9cee35b15f2ecc56839b705f537f851f9e01be466d6a9",
  ]
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0
  $ cairn destroy -auto-approve -no-color | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ cairn state list

Bad input: upstream's validators and rendering errors.

  $ cp bad.tf.txt main.tf
  $ cairn validate -no-color 2>&1
  
  Error: Invalid Attribute Configuration
  
    with data.cloudinit_config.gzip_b64,
    on main.tf line 3, in data "cloudinit_config" "gzip_b64":
     3:   base64_encode = false
  
  Expected base64_encode to be set to true when gzip is true.
  
  Error: Invalid Block
  
    with data.cloudinit_config.no_parts,
    on main.tf line 8, in data "cloudinit_config" "no_parts":
     8: data "cloudinit_config" "no_parts" {
  
  Block part must have a configuration value as the provider has marked it as
  required
  
  Error: Invalid Attribute Value Length
  
    with data.cloudinit_config.empty_type,
    on main.tf line 12, in data "cloudinit_config" "empty_type":
    12: data "cloudinit_config" "empty_type" {
  
  Attribute part[0].content_type string length must be at least 1, got: 0
  
  Error: Invalid Attribute Value Length
  
    with data.cloudinit_config.empty_type,
    on main.tf line 13, in data "cloudinit_config" "empty_type":
    13:   boundary = ""
  
  Attribute boundary string length must be at least 1, got: 0
  [1]
  $ cp badbnd.tf.txt main.tf
  $ cairn apply -auto-approve -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Unable to render cloudinit config
  
    with data.cloudinit_config.quote,
    on main.tf line 1, in data "cloudinit_config" "quote":
     1: data "cloudinit_config" "quote" {
  
  error writing part block to MIME multi-part file: mime: invalid boundary
  character
  $ cairn apply -auto-approve > /dev/null 2>&1; echo "exit $?"
  exit 1
  $ cp longbnd.tf.txt main.tf
  $ cairn apply -auto-approve -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Unable to render cloudinit config
  
    with cloudinit_config.long,
    on main.tf line 1, in resource "cloudinit_config" "long":
     1: resource "cloudinit_config" "long" {
  
  error writing part block to MIME multi-part file: mime: invalid boundary
  length
  $ cairn state list
