The machine-readable form.

  $ cairn -chdir=ok validate -json
  {
    "format_version": "1.0",
    "valid": true,
    "error_count": 0,
    "warning_count": 0,
    "diagnostics": []
  }
  $ cairn -chdir=bad validate -json
  {
    "format_version": "1.0",
    "valid": false,
    "error_count": 1,
    "warning_count": 0,
    "diagnostics": [
      {
        "severity": "error",
        "summary": "Reference to undeclared input variable",
        "detail": "An input variable with the name \"t\" has not been declared. This variable can be declared with a variable \"t\" {} block.",
        "range": {
          "filename": "main.tf",
          "start": {
            "line": 2,
            "column": 14,
            "byte": 44
          },
          "end": {
            "line": 2,
            "column": 19,
            "byte": 49
          }
        },
        "snippet": {
          "context": "resource \"null_resource\" \"a\"",
          "code": "  triggers = var.t",
          "start_line": 2,
          "highlight_start_offset": 13,
          "highlight_end_offset": 18,
          "values": []
        }
      }
    ]
  }
  [1]
