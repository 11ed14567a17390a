Piped mode evaluates each line and prints the last result (Terraform's
console); `exit` ends early.

  $ echo '1 + 1' | cairn console
  2
  $ printf '1\n"two"\n[3]\n' | cairn console
  [
    3,
  ]
  $ printf '1\nexit\n2\n' | cairn console
  $ printf '' | cairn console
  

Variables, locals (evaluated on demand), path and terraform.

  $ echo 'local.greeting' | cairn console -var name=there
  "hello there"
  $ echo '[local.list, path.module, path.root, terraform.workspace]' | cairn console
  [
    [
      0,
      2,
      4,
    ],
    ".",
    ".",
    "default",
  ]
  $ echo 'var.secret' | cairn console
  (sensitive value)
  $ echo 'nonsensitive(var.secret)' | cairn console
  "pw"
  $ echo 'var.n' | cairn console
  (known after apply)

Resources come from the state: count as a tuple, for_each as an object,
sensitive attributes marked.

  $ echo 'null_resource.one' | cairn console
  {
    "id" = "123"
    "triggers" = {
      "a" = "b"
    }
  }
  $ echo 'null_resource.many[*].id' | cairn console
  [
    "m0",
    (sensitive value),
  ]
  $ echo '{ for k, v in null_resource.each : k => v.id }' | cairn console
  {
    "x" = "ex"
    "y" = "ey"
  }

The console-only type() function shows types.

  $ echo 'type(null_resource.one)' | cairn console
  object({
      id: string,
      triggers: object({
          a: string,
      }),
  })
  $ echo 'type([for s in ["a"] : s])' | cairn console
  tuple([
      string,
  ])
  $ echo 'type(tolist(["a"]))' | cairn console
  list(string)

Errors end piped mode with status 1.

  $ printf '1\nlocal.a\n2\n' | cairn console
  
  Error: Cycle in local values
  
    on main.tf line 13, in locals:
    13:   b        = local.a
  
  The value of local.a depends on itself through the local values it refers to.
  [1]
  $ echo 'var.nope' | cairn console
  
  Error: Reference to undeclared input variable
  
    on <console-input> line 1:
    (source code not available)
  
  An input variable with the name "nope" has not been declared. This variable
  can be declared with a variable "nope" {} block.
  [1]
  $ echo 'local.nope' | cairn console
  
  Error: Reference to undeclared local value
  
    on <console-input> line 1:
    (source code not available)
  
  A local value with the name "nope" has not been declared.
  [1]
  $ echo 'null_resource.nope.id' | cairn console
  
  Error: Reference to undeclared resource
  
    on <console-input> line 1:
    (source code not available)
  
  A managed resource "null_resource" "nope" has not been declared in the root
  module.
  [1]
  $ echo 'path.nope' | cairn console
  
  Error: Invalid "path" attribute
  
    on <console-input> line 1:
    (source code not available)
  
  The "path" object does not have an attribute named "nope". The supported
  attributes are path.cwd, path.module, and path.root.
  [1]
  $ echo 'count.index' | cairn console
  
  Error: Reference to "count" in non-counted context
  
    on <console-input> line 1:
    (source code not available)
  
  The "count" object can only be used in "module", "resource", and "data"
  blocks, and only when the "count" argument is set.
  [1]
  $ echo 'upper(' | cairn console
  
  Error: Missing expression
  
    on <console-input> line 1:
    (source code not available)
  
  Expected the start of an expression, but found the end of the file.
  [1]
  $ echo 1 | cairn console extra
  
  Error: Too many command line arguments
  
  To specify a working directory for the console, use the global -chdir flag.
  [1]
  $ echo help | cairn console
  The Terraform console allows you to experiment with Terraform interpolations.
  You may access resources in the state (if you have one) just as you would
  from a configuration. For example: "aws_instance.foo.id" would evaluate
  to the ID of "aws_instance.foo" if it exists in your state.
  
  Type in the interpolation to test and hit <enter> to see the result.
  
  To exit the console, type "exit" and hit <enter>, or use Control-C or
  Control-D.
