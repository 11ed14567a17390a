`cairn graph` prints the resource dependency graph in DOT; edges through
locals are collapsed onto the resources behind them.

  $ cairn graph
  digraph G {
    rankdir = "RL";
    node [shape = rect, fontname = "sans-serif"];
    "null_resource.c" [label="null_resource.c"];
    "terraform_data.a" [label="terraform_data.a"];
    "terraform_data.b" [label="terraform_data.b"];
    "null_resource.c" -> "terraform_data.b";
    "terraform_data.b" -> "terraform_data.a";
  }
