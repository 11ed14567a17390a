Drift: files edited or deleted outside cairn are reported before the plan;
-refresh=false skips the check.

  $ cairn apply -auto-approve > /dev/null
  $ printf 'edited' > a.txt
  $ rm b.txt
  $ cairn plan -refresh=false -detailed-exitcode
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
  $ cairn plan -detailed-exitcode
  local_file.a: Refreshing state... [id=be76331b95dfc399cd776d2fc68021e0db03cc4f]
  local_file.b: Refreshing state... [id=a295e0bdde1938d1fbfd343e5a3e569e868e1465]
  terraform_data\.keep: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  Note: Objects have changed outside of cairn
  
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
  
    # local_file.a has been deleted
    - resource "local_file" "a" {
        - content              = "alpha" -> null
        - content_base64sha256 = "jtP2rWhblZ6tcCJRjhr3bNgW+OjsfM3aHtQBjo8iI/g=" -> null
        - content_base64sha512 = "ujzlhmfKmxKzwM3MTaV/mWKuynBlxDp9nAJzMv258LvPaQBChogP49jz/Y8D3f/XSF/ZTJ06OGGOoQaR2Nan+g==" -> null
        - content_md5          = "2c1743a391305fbf367df8e4f069f9f9" -> null
        - content_sha1         = "be76331b95dfc399cd776d2fc68021e0db03cc4f" -> null
        - content_sha256       = "8ed3f6ad685b959ead7022518e1af76cd816f8e8ec7ccdda1ed4018e8f2223f8" -> null
        - content_sha512       = "ba3ce58667ca9b12b3c0cdcc4da57f9962aeca7065c43a7d9c027332fdb9f0bbcf69004286880fe3d8f3fd8f03ddffd7485fd94c9d3a38618ea10691d8d6a7fa" -> null
        - directory_permission = "0777" -> null
        - file_permission      = "0777" -> null
        - filename             = "./a.txt" -> null
        - id                   = "be76331b95dfc399cd776d2fc68021e0db03cc4f" -> null
      }
  
    # local_file.b has been deleted
    - resource "local_file" "b" {
        - content              = "beta" -> null
        - content_base64sha256 = "9E5k5185SOn3P436lHIcTOjLtPJlxHkMcCstQc+/J1M=" -> null
        - content_base64sha512 = "Vgxy3nLApSItkoI39rEFKW2gWYU1NLjQH8I1J8HV2KS4PVsd0/IhBkK9BxzFAFmNTr0pOXPZ9K64rnM2rzqVnQ==" -> null
        - content_md5          = "987bcab01b929eb2c07877b224215c92" -> null
        - content_sha1         = "a295e0bdde1938d1fbfd343e5a3e569e868e1465" -> null
        - content_sha256       = "f44e64e75f3948e9f73f8dfa94721c4ce8cbb4f265c4790c702b2d41cfbf2753" -> null
        - content_sha512       = "560c72de72c0a5222d928237f6b105296da059853534b8d01fc23527c1d5d8a4b83d5b1dd3f2210642bd071cc500598d4ebd293973d9f4aeb8ae7336af3a959d" -> null
        - directory_permission = "0777" -> null
        - file_permission      = "0777" -> null
        - filename             = "./b.txt" -> null
        - id                   = "a295e0bdde1938d1fbfd343e5a3e569e868e1465" -> null
      }
  
  
  Unless you have made equivalent changes to your configuration, or ignored the
  relevant attributes using ignore_changes, the following plan may include
  actions to undo or respond to these changes.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # local_file.a will be created
    + resource "local_file" "a" {
        + content              = "alpha"
        + content_base64sha256 = (known after apply)
        + content_base64sha512 = (known after apply)
        + content_md5          = (known after apply)
        + content_sha1         = (known after apply)
        + content_sha256       = (known after apply)
        + content_sha512       = (known after apply)
        + directory_permission = "0777"
        + file_permission      = "0777"
        + filename             = "./a.txt"
        + id                   = (known after apply)
      }
  
    # local_file.b will be created
    + resource "local_file" "b" {
        + content              = "beta"
        + content_base64sha256 = (known after apply)
        + content_base64sha512 = (known after apply)
        + content_md5          = (known after apply)
        + content_sha1         = (known after apply)
        + content_sha256       = (known after apply)
        + content_sha512       = (known after apply)
        + directory_permission = "0777"
        + file_permission      = "0777"
        + filename             = "./b.txt"
        + id                   = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ cairn plan -json | grep -E '"type":"(resource_drift|change_summary)"'
  \{"@level":"info","@message":"local_file\.a: Drift detected \(delete\)","@module":"terraform\.ui","@timestamp":"[0-9T:.Z-]+","change":\{"resource":\{"addr":"local_file\.a","module":"","resource":"local_file\.a","implied_provider":"local","resource_type":"local_file","resource_name":"a","resource_key":null\},"action":"delete"\},"type":"resource_drift"\} (re)
  \{"@level":"info","@message":"local_file\.b: Drift detected \(delete\)","@module":"terraform\.ui","@timestamp":"[0-9T:.Z-]+","change":\{"resource":\{"addr":"local_file\.b","module":"","resource":"local_file\.b","implied_provider":"local","resource_type":"local_file","resource_name":"b","resource_key":null\},"action":"delete"\},"type":"resource_drift"\} (re)
  \{"@level":"info","@message":"Plan: 2 to add, 0 to change, 0 to destroy\.","@module":"terraform\.ui","@timestamp":"[0-9T:.Z-]+","changes":\{"add":2,"change":0,"import":0,"remove":0,"operation":"plan"\},"type":"change_summary"\} (re)
  $ cairn apply -auto-approve > /dev/null
  $ cat a.txt b.txt
  alphabeta
  $ cairn plan -detailed-exitcode > /dev/null
