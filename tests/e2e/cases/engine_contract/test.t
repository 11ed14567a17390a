Provider contract violations (seed 001) through the misbehaving test
provider: each stops the instance with Terraform's message.

At plan time.

  $ cd plan_changes_config && cairn plan
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Provider produced invalid plan
  
    with misbehave_plan_changes_config.x,
    on main.tf line 1, in resource "misbehave_plan_changes_config" "x":
     1: resource "misbehave_plan_changes_config" "x" {
  
  Provider "cairn.test/test/misbehave" planned an invalid value for
  misbehave_plan_changes_config.x.value: planned value
  cty.StringVal("v-changed") does not match config value cty.StringVal("v").
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  [1]
  $ cd plan_wrong_type && cairn plan
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Provider produced invalid plan
  
    with misbehave_plan_wrong_type.x,
    on main.tf line 1, in resource "misbehave_plan_wrong_type" "x":
     1: resource "misbehave_plan_wrong_type" "x" {
  
  Provider "cairn.test/test/misbehave" planned an invalid value for
  misbehave_plan_wrong_type.x.value: planned value cty.StringVal("42") does not
  match config value cty.StringVal("v").
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  [1]
  $ cd plan_bad_replace && cairn plan
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Provider produced invalid plan
  
    with misbehave_plan_bad_replace.x,
    on main.tf line 1, in resource "misbehave_plan_bad_replace" "x":
     1: resource "misbehave_plan_bad_replace" "x" {
  
  Provider "cairn.test/test/misbehave" has indicated "requires replacement" on
  misbehave_plan_bad_replace.x for a non-existent attribute path
  .no_such_attribute.
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  [1]
  $ cd plan_block_count && cairn plan
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Provider produced invalid plan
  
    with misbehave_plan_block_count.x,
    on main.tf line 1, in resource "misbehave_plan_block_count" "x":
     1: resource "misbehave_plan_block_count" "x" {
  
  Provider "cairn.test/test/misbehave" planned an invalid value for
  misbehave_plan_block_count.x.item: block count in plan (1) disagrees with
  count in config (0).
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  [1]

The second plan at apply disagrees with the first.

  $ cd plan_unstable && cairn apply -auto-approve > out 2>&1; echo "exit $?"; sed -n '/Error/,$p' out
  exit 1
  Error: Provider produced inconsistent final plan
  
    with misbehave_plan_unstable.x,
    on main.tf line 1, in resource "misbehave_plan_unstable" "x":
     1: resource "misbehave_plan_unstable" "x" {
  
  When expanding the plan for misbehave_plan_unstable.x to include new values
  learned so far during apply, provider "cairn.test/test/misbehave" produced an
  invalid new value for .computed: was
  cty\.StringVal\("[0-9a-f-]{36}"\), but now (re)
  cty\.StringVal\("[0-9a-f-]{36}"\)\. (re)
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.

After apply.

  $ cd apply_changes_known && cairn apply -auto-approve > out 2>&1; echo "exit $?"; sed -n '/Error/,$p' out
  exit 1
  Error: Provider produced inconsistent result after apply
  
    with misbehave_apply_changes_known.x,
    on main.tf line 1, in resource "misbehave_apply_changes_known" "x":
     1: resource "misbehave_apply_changes_known" "x" {
  
  When applying changes to misbehave_apply_changes_known.x, provider
  "cairn.test/test/misbehave" produced an unexpected new value: .value: was
  cty.StringVal("v"), but now cty.StringVal("changed-by-apply").
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  $ cd apply_unknown && cairn apply -auto-approve > out 2>&1; echo "exit $?"; sed -n '/Error/,$p' out
  exit 1
  Error: Provider returned invalid result object after apply
  
    with misbehave_apply_unknown.x,
    on main.tf line 1, in resource "misbehave_apply_unknown" "x":
     1: resource "misbehave_apply_unknown" "x" {
  
  After the apply operation, the provider still indicated an unknown value for
  misbehave_apply_unknown.x. All values must be known after apply, so this is
  always a bug in the provider and should be reported in the provider's own
  repository. cairn will still save the other known object values in the state.
  $ cd apply_nil && cairn apply -auto-approve > out 2>&1; echo "exit $?"; sed -n '/Error/,$p' out
  exit 1
  Error: Provider produced invalid object
  
    with misbehave_apply_nil.x,
    on main.tf line 1, in resource "misbehave_apply_nil" "x":
     1: resource "misbehave_apply_nil" "x" {
  
  Provider "cairn.test/test/misbehave" produced an invalid nil value after
  apply for misbehave_apply_nil.x.
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  $ cd apply_null && cairn apply -auto-approve > out 2>&1; echo "exit $?"; sed -n '/Error/,$p' out
  exit 1
  Error: Provider returned invalid result object after apply
  
    with misbehave_apply_null.x,
    on main.tf line 1, in resource "misbehave_apply_null" "x":
     1: resource "misbehave_apply_null" "x" {
  
  After applying a Create plan, the provider returned a null object for
  misbehave_apply_null.x. Only destroying should always produce a null value,
  so this is always a bug in the provider and should be reported in the
  provider's own repository.
