Terraform's handling of unknown values during plan: unknown elements
inside known collections (merge, concat), the not-null refinement of
templates, and impure functions (timestamp) that are unknown until apply.

  $ cairn plan -no-color
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # random_id.a will be created
    + resource "random_id" "a" {
        + b64_std     = (known after apply)
        + b64_url     = (known after apply)
        + byte_length = 4
        + dec         = (known after apply)
        + hex         = (known after apply)
        + id          = (known after apply)
      }
  
    # terraform_data.b["x"] will be created
    + resource "terraform_data" "b" {
        + id     = (known after apply)
        + input  = "x"
        + output = (known after apply)
      }
  
    # terraform_data.b["y"] will be created
    + resource "terraform_data" "b" {
        + id     = (known after apply)
        + input  = "y"
        + output = (known after apply)
      }
  
    # terraform_data.c[0] will be created
    + resource "terraform_data" "c" {
        + id     = (known after apply)
        + input  = 0
        + output = (known after apply)
      }
  
    # terraform_data.c[1] will be created
    + resource "terraform_data" "c" {
        + id     = (known after apply)
        + input  = 1
        + output = (known after apply)
      }
  
    # terraform_data.d[0] will be created
    + resource "terraform_data" "d" {
        + id = (known after apply)
      }
  
  Plan: 6 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + stamp        = (known after apply)
    + stamp_is_set = (known after apply)
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.

At apply the impure function has its value.

  $ cairn apply -auto-approve -no-color >/dev/null && cairn output stamp_is_set
  true
  $ cairn output -raw stamp
  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (re)
