Override files (override.tf, *_override.tf and their .tf.json forms) are
merged into the primary files as Terraform does: main_override.tf changes
a variable's default, a local, a resource's count and an output's
sensitivity; override.tf.json (merged after it, in name order) adds a
count to terraform_data.a and keeps its arguments.

  $ cairn plan -no-color > plan.txt 2>&1; echo "exit $?"
  exit 0
  $ grep -E '^  # |input|^Plan|  \+ o ' plan.txt
    # null_resource.b[0] will be created
    # null_resource.b[1] will be created
    # terraform_data.a[0] will be created
        + input            = "hi"
  Plan: 3 to add, 0 to change, 0 to destroy.
    + o = (sensitive value)

An override of something no primary file declares is an error, as in
Terraform.

  $ cat > x_override.tf <<'X'
  > resource "null_resource" "nope" {
  > }
  > X
  $ cairn validate -no-color
  
  Error: Missing resource to override
  
    on x_override.tf line 1, in resource "null_resource" "nope":
     1: resource "null_resource" "nope" {
  
  There is no null_resource resource named "nope". An override file can only
  override a resource block defined in a primary configuration file.
  [1]
