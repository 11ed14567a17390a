count and for_each expansion: addresses, references to expanded
resources, and the errors for unsuitable values.

  $ cd ok && cairn apply -auto-approve
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.c[0] will be created
    + resource "terraform_data" "c" {
        + id     = (known after apply)
        + input  = "c0"
        + output = (known after apply)
      }
  
    # terraform_data.c[1] will be created
    + resource "terraform_data" "c" {
        + id     = (known after apply)
        + input  = "c1"
        + output = (known after apply)
      }
  
    # terraform_data.e["db"] will be created
    + resource "terraform_data" "e" {
        + id     = (known after apply)
        + input  = "db:5432"
        + output = (known after apply)
      }
  
    # terraform_data.e["web"] will be created
    + resource "terraform_data" "e" {
        + id     = (known after apply)
        + input  = "web:80"
        + output = (known after apply)
      }
  
    # terraform_data.s["c0"] will be created
    + resource "terraform_data" "s" {
        + id     = (known after apply)
        + input  = "c0"
        + output = (known after apply)
      }
  
    # terraform_data.s["c1"] will be created
    + resource "terraform_data" "s" {
        + id     = (known after apply)
        + input  = "c1"
        + output = (known after apply)
      }
  
  Plan: 6 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + c1        = (known after apply)
    + count_len = 0
    + db        = (known after apply)
    + keys      = [
        + "db",
        + "web",
      ]
  terraform_data.c[0]: Creating...
  terraform_data\.c\[0\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.c[1]: Creating...
  terraform_data\.c\[1\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.e["db"]: Creating...
  terraform_data\.e\["db"\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.e["web"]: Creating...
  terraform_data\.e\["web"\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.s["c0"]: Creating...
  terraform_data\.s\["c0"\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.s["c1"]: Creating...
  terraform_data\.s\["c1"\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 6 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  c1 = "c1"
  count_len = 0
  db = "db:5432"
  keys = [
    "db",
    "web",
  ]
  $ cd ok && cairn state list
  terraform_data.c[0]
  terraform_data.c[1]
  terraform_data.e["db"]
  terraform_data.e["web"]
  terraform_data.s["c0"]
  terraform_data.s["c1"]
  $ cd ok && cairn plan -detailed-exitcode
  terraform_data\.c\[0\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.c\[1\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.e\["db"\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.e\["web"\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.s\["c0"\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.s\["c1"\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.

The errors.

  $ cd unknown_count && cairn plan
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn planned the following actions, but then encountered a problem:
  
    # terraform_data.u will be created
    + resource "terraform_data" "u" {
        + id = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Error: Invalid count argument
  
    on main.tf line 4, in resource "null_resource" "a":
     4:   count = terraform_data.u.id == "" ? 1 : 2
  
  The "count" value depends on resource attributes that cannot be determined
  until apply, so cairn cannot predict how many instances will be created. To
  work around this, use the -target argument to first apply only the resources
  that the count depends on.
  [1]
  $ cd negative_count && cairn plan
  
  Error: Invalid count argument
  
    on main.tf line 2, in resource "null_resource" "a":
     2:   count = -1
  
  The given "count" argument value is unsuitable: must be greater than or equal
  to zero.
  [1]
  $ cd null_count && cairn plan
  
  Error: Invalid count argument
  
    on main.tf line 2, in resource "null_resource" "a":
     2:   count = null
  
  The given "count" argument value is null. An integer is required.
  [1]
  $ cd foreach_list && cairn plan
  
  Error: Invalid for_each argument
  
    on main.tf line 2, in resource "null_resource" "a":
     2:   for_each = ["a", "b"]
  
  The given "for_each" argument value is unsuitable: the "for_each" argument
  must be a map, or set of strings, and you have provided a value of type
  tuple.
  [1]
  $ cd foreach_numbers && cairn plan
  
  Error: Invalid for_each set argument
  
    on main.tf line 2, in resource "null_resource" "a":
     2:   for_each = toset([1, 2])
  
  The given "for_each" argument value is unsuitable: "for_each" supports sets
  of strings, but you have provided a set containing type number.
  [1]
  $ cd foreach_sensitive && cairn plan
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Invalid for_each argument
  
    on main.tf line 7, in resource "null_resource" "a":
     7:   for_each = toset(var.s)
  
  Sensitive values, or values derived from sensitive values, cannot be used as
  for_each arguments. If used, the sensitive value could be exposed as a
  resource instance key.
  [1]
  $ cd foreach_unknown && cairn plan
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn planned the following actions, but then encountered a problem:
  
    # terraform_data.u will be created
    + resource "terraform_data" "u" {
        + id = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Error: Invalid for_each argument
  
    on main.tf line 4, in resource "null_resource" "a":
     4:   for_each = toset([terraform_data.u.id])
  
  The "for_each" set includes keys derived from resource attributes that cannot
  be determined until apply, and so cairn cannot determine the full set of keys
  that will identify the instances of this resource.
  
  When working with unknown values in for_each, it's better to define the map
  keys statically in your configuration and place apply-time results only in
  the map values.
  [1]
  $ cd foreach_null && cairn plan
  
  Error: Invalid for_each argument
  
    on main.tf line 2, in resource "null_resource" "a":
     2:   for_each = null
  
  The given "for_each" argument value is unsuitable: the given "for_each"
  argument value is null. A map, or set of strings is allowed.
  [1]
  $ cd foreach_null && cairn plan -json
  \{"@level":"info","@message":"cairn [^"]+","@module":"terraform\.ui","@timestamp":"[0-9T:.Z-]+","terraform":"[^"]+","type":"version","ui":"1\.2"\} (re)
  \{"@level":"error","@message":"Error: Invalid for_each argument","@module":"terraform\.ui","@timestamp":"[0-9T:.Z-]+","diagnostic":\{"severity":"error","summary":"Invalid for_each argument","detail":"The given \\"for_each\\" argument value is unsuitable: the given \\"for_each\\" argument value is null\. A map, or set of strings is allowed\.","range":\{"filename":"main\.tf","start":\{"line":2,"column":14,"byte":44\},"end":\{"line":2,"column":18,"byte":48\}\},"snippet":\{"context":"resource \\"null_resource\\" \\"a\\"","code":"  for_each = null","start_line":2,"highlight_start_offset":13,"highlight_end_offset":17,"values":\[\]\}\},"type":"diagnostic"\} (re)
  [1]
