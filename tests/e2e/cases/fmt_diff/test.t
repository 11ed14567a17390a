fmt -diff: the unified diff `diff -u --label old/F --label new/F` prints
(Terraform shells out to diff; cairn computes it): minimal hunks with three
lines of context, separate hunks when the changes are far apart, nothing
for files already formatted.  It patches the file into fmt's output.

  $ cairn fmt -diff -write=false
  main.tf
  --- old/main.tf
  +++ new/main.tf
  @@ -1,14 +1,14 @@
   variable "name" {
  -  type = "string"
  +  type = string
   }
   
   resource "terraform_data" "a" {
  -  input = "${var.name}"
  +  input = var.name
   }
   
   locals {
  -  one = 1
  -  two = 2
  +  one   = 1
  +  two   = 2
     three = 3
   }
   
  @@ -21,5 +21,5 @@
   }
   
   output "x" {
  -    value = terraform_data.a.output
  +  value = terraform_data.a.output
   }
  $ cairn fmt -list=false -write=false -diff main.tf > got.diff
  $ cairn fmt -list=false - < main.tf > new.tf
  $ diff -u --label old/main.tf --label new/main.tf main.tf new.tf > want.diff
  [1]
  $ cmp got.diff want.diff
  $ patch -s -o patched.tf main.tf < got.diff && cmp patched.tf new.tf
  $ cairn fmt -diff -write=false ok.tf
  $ cairn fmt -check -diff
  --- old/main.tf
  +++ new/main.tf
  @@ -1,14 +1,14 @@
   variable "name" {
  -  type = "string"
  +  type = string
   }
   
   resource "terraform_data" "a" {
  -  input = "${var.name}"
  +  input = var.name
   }
   
   locals {
  -  one = 1
  -  two = 2
  +  one   = 1
  +  two   = 2
     three = 3
   }
   
  @@ -21,5 +21,5 @@
   }
   
   output "x" {
  -    value = terraform_data.a.output
  +  value = terraform_data.a.output
   }
  main.tf
  [3]
