/*
** cmd_output: `cairn output [-json] [-raw] [-state=PATH] [NAME]` — root
** module outputs from the state.  Sensitive values print as <sensitive>
** in the list, in full when asked for by name (as Terraform).
*/
#include <string.h>

#include "base/json.h"
#include "cli.h"
#include "cmd_backend.h"
#include "lang/eval.h"
#include "state/stmgr.h"
#include "state/workspace.h"

static bool typed(Arena *a, const StOutput *o, Value *out)
{
  Diags d;
  diag_init(&d, a);
  return json_value_typed(a, o->value, o->type, out, &d, NULL);
}

static int run(Cli *cli, int argc, char **argv)
{
  bool json = false, raw = false, no_color = false;
  const char *state_path = NULL;
  CliFlag flags[] = {{"json", FLAG_BOOL, &json},
                     {"raw", FLAG_BOOL, &raw},
                     {"no-color", FLAG_BOOL, &no_color},
                     {"state", FLAG_STRING, &state_path}};
  int rest;
  Arena *a = cli->arena;
  Diags d;
  diag_init(&d, a);
  if (!cli_parse_flags(cli, argc, argv, flags, 4, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (argc - rest > 1) {
    cli_err(cli, "\nError: Unexpected argument\n\nThe output command "
                 "expects exactly one argument with the name of an output "
                 "variable or no arguments to show all outputs.\n\n");
    return 2;
  }
  if (json && raw) {
    cli_err(cli, "\nError: Invalid output format\n\nThe -raw and -json "
                 "options are mutually-exclusive.\n\n");
    return 2;
  }
  const char *name = rest < argc ? argv[rest] : NULL;
  if (raw && !name) {
    cli_err(cli, "\nError: Output name required\n\nYou must give the name "
                 "of a single output value when using the -raw option.\n\n");
    return 2;
  }
  const Backend *be = cmd_backend(cli, NULL, CMD_BACKEND_USE, &d);
  if (!be) {
    cli_diags(cli, &d);
    return 1;
  }
  const char *ws = ws_current(a, ".", &d);
  StMgrOpts so = {state_path ? state_path : be_state_path(be, a, ws), NULL,
                  "-"};
  StMgr m;
  stmgr_init(&m, a, &so);
  State *s;
  if (!stmgr_load(&m, &s, &d)) {
    cli_diags(cli, &d);
    stmgr_close(&m);
    return 1;
  }
  stmgr_close(&m);
  Buf b;
  buf_init(&b, a);
  if (name) {
    const StOutput *o = st_find_output(s, name);
    Value v;
    if (!o || !typed(a, o, &v)) {
      diag_error(&d, NULL, arena_printf(a, "Output \"%s\" not found", name),
                 "The output variable requested could not be found in the "
                 "state file. If you recently added this to your "
                 "configuration, be sure to run `cairn apply`, since the "
                 "state won't be updated with new output variables until "
                 "that command is run.");
      cli_diags(cli, &d);
      return 1;
    }
    if (json) {
      json_write_value(&b, v, o->type, 0, &d);
      buf_putc(&b, '\n');
    } else if (raw) {
      if (val_is_null(v) || !ty_is_primitive(v.type)) {
        diag_error(&d, NULL, "Unsupported value for raw output",
                   "The -raw option only supports strings, numbers, and "
                   "boolean values, but output value \"%s\" is %s.", name,
                   val_is_null(v) ? "null" : "a structured value");
        cli_diags(cli, &d);
        return 1;
      }
      if (v.type->kind == TY_STRING)
        buf_put(&b, v.u.s, v.len);
      else if (v.type->kind == TY_NUMBER)
        val_num_format(&b, v);
      else
        buf_puts(&b, v.u.b ? "true" : "false");
    } else {
      eval_format_value(&b, v, 0);
      buf_putc(&b, '\n');
    }
    cli_out_buf(cli, &b);
    return 0;
  }
  if (json) {
    JsonW w;
    json_w_init(&w, &b, JSON_W_INDENT);
    json_w_begin_object(&w);
    for (uint32_t i = 0; i < s->noutputs; i++) {
      const StOutput *o = &s->outputs[i];
      json_w_keyz(&w, o->name);
      json_w_begin_object(&w);
      json_w_keyz(&w, "sensitive");
      json_w_bool(&w, o->sensitive);
      json_w_keyz(&w, "type");
      json_w_type(&w, o->type);
      json_w_keyz(&w, "value");
      Value v;
      if (typed(a, o, &v))
        json_w_value(&w, v, o->type, &d);
      else
        json_w_null(&w);
      json_w_end_object(&w);
    }
    json_w_end_object(&w);
    buf_putc(&b, '\n');
    cli_out_buf(cli, &b);
    return 0;
  }
  if (s->noutputs == 0) {
    diag_warning(&d, NULL, "No outputs found",
                 "The state file either has no outputs defined, or all the "
                 "defined outputs are empty. Please define an output in your "
                 "configuration with the `output` keyword and run `cairn "
                 "refresh` for it to become available. If you are using "
                 "interpolation, please verify the interpolated value is not "
                 "empty. You can use the `cairn show` command to view the "
                 "struct of the state.");
    cli_diags(cli, &d);
    return 0;
  }
  for (uint32_t i = 0; i < s->noutputs; i++) {
    const StOutput *o = &s->outputs[i];
    buf_printf(&b, "%s = ", o->name);
    Value v;
    if (o->sensitive)
      buf_puts(&b, "<sensitive>");
    else if (typed(a, o, &v))
      eval_format_value(&b, v, 0);
    buf_putc(&b, '\n');
  }
  cli_out_buf(cli, &b);
  return 0;
}

const CmdEntry cmd_output = {
    "output", "Show output values from your root module",
    "Usage: cairn [global options] output [options] [NAME]\n\n"
    "  Reads an output variable from a cairn state file and prints the\n"
    "  value. With no additional arguments, output will display all the\n"
    "  outputs for the root module.\n\n"
    "Options:\n\n"
    "  -state=path      Path to the state file to read.\n"
    "  -no-color        If specified, output won't contain any color.\n"
    "  -json            Machine readable output will be printed in JSON.\n"
    "  -raw             For value types that can be automatically converted\n"
    "                   to a string, will print the raw string directly.\n",
    run, true};
