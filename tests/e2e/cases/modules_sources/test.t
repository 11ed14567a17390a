Module sources: cairn runs offline and loads modules only from local paths.
Registry and VCS sources are refused, a missing directory is reported, and
a module that (indirectly) calls itself is a cycle.

  $ cd registry && cairn plan
  
  Error: Module source not supported
  
    on main.tf line 2, in module "consul":
     2:   source  = "hashicorp/consul/aws"
  
  Module "consul" uses the source "hashicorp/consul/aws". cairn runs offline
  and loads modules only from local paths, which start with "./" or "../"; copy
  the module beside the configuration and refer to it by its path.
  [1]
  $ cd vcs && cairn plan
  
  Error: Module source not supported
  
    on main.tf line 2, in module "vpc":
     2:   source = "git::https://example.com/vpc.git?ref=v1.2.0"
  
  Module "vpc" uses the source "git::https://example.com/vpc.git?ref=v1.2.0".
  cairn runs offline and loads modules only from local paths, which start with
  "./" or "../"; copy the module beside the configuration and refer to it by
  its path.
  
  Error: Module source not supported
  
    on main.tf line 6, in module "gh":
     6:   source = "github.com/hashicorp/example"
  
  Module "gh" uses the source "github.com/hashicorp/example". cairn runs
  offline and loads modules only from local paths, which start with "./" or
  "../"; copy the module beside the configuration and refer to it by its path.
  [1]
  $ cd missing && cairn plan
  
  Error: Unreadable module directory
  
    on main.tf line 2, in module "gone":
     2:   source = "./modules/gone"
  
  Unable to evaluate directory symlink: lstat modules/gone: no such file or
  directory (module "gone").
  [1]
  $ cd cycle && cairn plan
  
  Error: Module cycle
  
    on a/b/main.tf line 2, in module "back":
     2:   source = "../"
  
  Module "back" loads a, which is already one of its callers; a module cannot
  call itself.
  [1]
  $ cd vcs && cairn validate
  
  Error: Module source not supported
  
    on main.tf line 2, in module "vpc":
     2:   source = "git::https://example.com/vpc.git?ref=v1.2.0"
  
  Module "vpc" uses the source "git::https://example.com/vpc.git?ref=v1.2.0".
  cairn runs offline and loads modules only from local paths, which start with
  "./" or "../"; copy the module beside the configuration and refer to it by
  its path.
  
  Error: Module source not supported
  
    on main.tf line 6, in module "gh":
     6:   source = "github.com/hashicorp/example"
  
  Module "gh" uses the source "github.com/hashicorp/example". cairn runs
  offline and loads modules only from local paths, which start with "./" or
  "../"; copy the module beside the configuration and refer to it by its path.
  [1]
