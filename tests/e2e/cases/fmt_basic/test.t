Formatting: -check lists and exits 3, -diff, writing, stdin.

  $ cairn fmt -check
  main.tf
  [3]
  $ cairn fmt -diff -write=false
  main.tf
  --- old/main.tf
  +++ new/main.tf
  @@ -1,2 +1,2 @@
  -a=1
  +a  = 1
   bb = 2
  $ cairn fmt
  main.tf
  $ cat main.tf
  a  = 1
  bb = 2
  $ cairn fmt -check
  $ printf 'a=1\n' | cairn fmt -
  a = 1
  $ printf 'a = {\n' > bad.tf && cairn fmt bad.tf
  
  Error: Missing expression
  
    on bad.tf line 2:
     2: 
  
  Expected the start of an expression, but found the end of the file.
  [2]
