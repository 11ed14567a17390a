-detailed-exitcode, the interactive approval, outputs and destroy.

  $ cairn plan -detailed-exitcode > /dev/null
  [2]
  $ cairn plan -detailed-exitcode -var nope=1 > /dev/null
  
  Error: Value for undeclared variable
  
  A variable named "nope" was assigned on the command line, but the root module
  does not declare a variable of that name. To use this value, add a "variable"
  block to the configuration.
  [1]

Only "yes" approves.

  $ echo no | cairn apply
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # local_file.greeting will be created
    + resource "local_file" "greeting" {
        + content              = <<-EOT
              hello world
          EOT
        + content_base64sha256 = (known after apply)
        + content_base64sha512 = (known after apply)
        + content_md5          = (known after apply)
        + content_sha1         = (known after apply)
        + content_sha256       = (known after apply)
        + content_sha512       = (known after apply)
        + directory_permission = "0777"
        + file_permission      = "0777"
        + filename             = "./greeting.txt"
        + id                   = (known after apply)
      }
  
    # terraform_data.after will be created
    + resource "terraform_data" "after" {
        + id     = (known after apply)
        + input  = (known after apply)
        + output = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + file   = "./greeting.txt"
    + md5    = (known after apply)
    + secret = (sensitive value)
  
  Do you want to perform these actions?
    cairn will perform the actions described above.
    Only 'yes' will be accepted to approve.
  
    Enter a value: 
  Apply cancelled.
  [1]
  $ test -e greeting.txt || echo not created
  not created
  $ echo yes | cairn apply
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # local_file.greeting will be created
    + resource "local_file" "greeting" {
        + content              = <<-EOT
              hello world
          EOT
        + content_base64sha256 = (known after apply)
        + content_base64sha512 = (known after apply)
        + content_md5          = (known after apply)
        + content_sha1         = (known after apply)
        + content_sha256       = (known after apply)
        + content_sha512       = (known after apply)
        + directory_permission = "0777"
        + file_permission      = "0777"
        + filename             = "./greeting.txt"
        + id                   = (known after apply)
      }
  
    # terraform_data.after will be created
    + resource "terraform_data" "after" {
        + id     = (known after apply)
        + input  = (known after apply)
        + output = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + file   = "./greeting.txt"
    + md5    = (known after apply)
    + secret = (sensitive value)
  
  Do you want to perform these actions?
    cairn will perform the actions described above.
    Only 'yes' will be accepted to approve.
  
    Enter a value: 
  local_file.greeting: Creating...
  local_file.greeting: Creation complete after 0s [id=22596363b3de40b06f981fb85d82312e8c0ed511]
  terraform_data.after: Creating...
  terraform_data\.after: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  file = "./greeting.txt"
  md5 = "6f5902ac237024bdd0c176cb93063dc4"
  secret = <sensitive>
  $ cat greeting.txt
  hello world
  $ cairn plan -detailed-exitcode
  local_file.greeting: Refreshing state... [id=22596363b3de40b06f981fb85d82312e8c0ed511]
  terraform_data\.after: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
  $ cairn output
  file = "./greeting.txt"
  md5 = "6f5902ac237024bdd0c176cb93063dc4"
  secret = <sensitive>
  $ cairn output secret
  "s3cr3t"
  $ cairn output -json md5
  "6f5902ac237024bdd0c176cb93063dc4"

Destroy asks too.

  $ echo nope | cairn destroy
  terraform_data\.after: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  local_file.greeting: Refreshing state... [id=22596363b3de40b06f981fb85d82312e8c0ed511]
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    - destroy
  
  cairn will perform the following actions:
  
    # local_file.greeting will be destroyed
    - resource "local_file" "greeting" {
        - content              = <<-EOT
              hello world
          EOT -> null
        - content_base64sha256 = "qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7A+4XSmaGSpEc=" -> null
        - content_base64sha512 = "2zl0qX8kB7fK4a5jfAAwaHoRkTJ01XhJJVjjnBbAF96E6s3Ixi/jTuThK0sUKIF/Cbaidgw/imZM6ulNJDSlkw==" -> null
        - content_md5          = "6f5902ac237024bdd0c176cb93063dc4" -> null
        - content_sha1         = "22596363b3de40b06f981fb85d82312e8c0ed511" -> null
        - content_sha256       = "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447" -> null
        - content_sha512       = "db3974a97f2407b7cae1ae637c0030687a11913274d578492558e39c16c017de84eacdc8c62fe34ee4e12b4b1428817f09b6a2760c3f8a664ceae94d2434a593" -> null
        - directory_permission = "0777" -> null
        - file_permission      = "0777" -> null
        - filename             = "./greeting.txt" -> null
        - id                   = "22596363b3de40b06f981fb85d82312e8c0ed511" -> null
      }
  
    # terraform_data.after will be destroyed
    - resource "terraform_data" "after" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "6f5902ac237024bdd0c176cb93063dc4" -> null
        - output = "6f5902ac237024bdd0c176cb93063dc4" -> null
      }
  
  Plan: 0 to add, 0 to change, 2 to destroy.
  
  Changes to Outputs:
    - file   = "./greeting.txt" -> null
    - md5    = "6f5902ac237024bdd0c176cb93063dc4" -> null
    - secret = (sensitive value) -> null
  
  Do you really want to destroy all resources?
    cairn will destroy all your managed infrastructure, as shown above.
    There is no undo.
    Only 'yes' will be accepted to confirm.
  
    Enter a value: 
  Destroy cancelled.
  [1]
  $ echo yes | cairn destroy
  terraform_data\.after: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  local_file.greeting: Refreshing state... [id=22596363b3de40b06f981fb85d82312e8c0ed511]
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    - destroy
  
  cairn will perform the following actions:
  
    # local_file.greeting will be destroyed
    - resource "local_file" "greeting" {
        - content              = <<-EOT
              hello world
          EOT -> null
        - content_base64sha256 = "qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7A+4XSmaGSpEc=" -> null
        - content_base64sha512 = "2zl0qX8kB7fK4a5jfAAwaHoRkTJ01XhJJVjjnBbAF96E6s3Ixi/jTuThK0sUKIF/Cbaidgw/imZM6ulNJDSlkw==" -> null
        - content_md5          = "6f5902ac237024bdd0c176cb93063dc4" -> null
        - content_sha1         = "22596363b3de40b06f981fb85d82312e8c0ed511" -> null
        - content_sha256       = "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447" -> null
        - content_sha512       = "db3974a97f2407b7cae1ae637c0030687a11913274d578492558e39c16c017de84eacdc8c62fe34ee4e12b4b1428817f09b6a2760c3f8a664ceae94d2434a593" -> null
        - directory_permission = "0777" -> null
        - file_permission      = "0777" -> null
        - filename             = "./greeting.txt" -> null
        - id                   = "22596363b3de40b06f981fb85d82312e8c0ed511" -> null
      }
  
    # terraform_data.after will be destroyed
    - resource "terraform_data" "after" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "6f5902ac237024bdd0c176cb93063dc4" -> null
        - output = "6f5902ac237024bdd0c176cb93063dc4" -> null
      }
  
  Plan: 0 to add, 0 to change, 2 to destroy.
  
  Changes to Outputs:
    - file   = "./greeting.txt" -> null
    - md5    = "6f5902ac237024bdd0c176cb93063dc4" -> null
    - secret = (sensitive value) -> null
  
  Do you really want to destroy all resources?
    cairn will destroy all your managed infrastructure, as shown above.
    There is no undo.
    Only 'yes' will be accepted to confirm.
  
    Enter a value: 
  terraform_data\.after: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data.after: Destruction complete after 0s
  local_file.greeting: Destroying... [id=22596363b3de40b06f981fb85d82312e8c0ed511]
  local_file.greeting: Destruction complete after 0s
  
  Destroy complete! Resources: 2 destroyed.
  $ test -e greeting.txt || echo removed
  removed
  $ cairn state list
  $ cairn destroy -auto-approve
  
  No changes. No objects need to be destroyed.
  
  Either you have not created any objects yet or the existing objects were
  already deleted outside of cairn.
  
  Destroy complete! Resources: 0 destroyed.
  $ cairn plan -destroy -detailed-exitcode
  
  No changes. No objects need to be destroyed.
  
  Either you have not created any objects yet or the existing objects were
  already deleted outside of cairn.
