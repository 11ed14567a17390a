local-exec provisioners: create-time output streamed with the resource's
prefix after the object is created, sensitive values suppress the output,
a failing command taints the resource (replaced by the next plan), and a
destroy-time provisioner runs before the delete with self.

  $ cairn apply -auto-approve -parallelism=1 > out 2>&1; echo "exit $?"
  exit 1
  $ grep -E '^terraform_data|^Error' out | sed 's/ \[id=.*//'
  terraform_data.a: Creating...
  terraform_data.a: Provisioning with 'local-exec'...
  terraform_data.a (local-exec): Executing: ["/bin/sh" "-c" "echo created hello; printf 'two\nlines\n'"]
  terraform_data.a (local-exec): created hello
  terraform_data.a (local-exec): two
  terraform_data.a (local-exec): lines
  terraform_data.a: Creation complete after 0s
  terraform_data.s: Creating...
  terraform_data.s: Provisioning with 'local-exec'...
  terraform_data.s (local-exec): (output suppressed due to sensitive value in config)
  terraform_data.s (local-exec): (output suppressed due to sensitive value in config)
  terraform_data.s: Creation complete after 0s
  terraform_data.f: Creating...
  terraform_data.f: Provisioning with 'local-exec'...
  terraform_data.f (local-exec): Executing: ["/bin/sh" "-c" "exit 3"]
  Error: local-exec provisioner error
  Error running command 'exit 3': exit status 3. Output: 
  $ grep -c s3cr3t out
  0
  [1]
  $ grep -c '"status": "tainted"' terraform.tfstate
  1
  $ cairn plan -no-color | grep -E '^  #|^Plan'
    # terraform_data.f is tainted, so must be replaced
  Plan: 1 to add, 0 to change, 1 to destroy.

Destroy runs the destroy-time provisioner of a with self.input.

  $ cairn destroy -auto-approve -parallelism=1 2>&1 | grep -E '^terraform_data.a: [DP]|^terraform_data.a \(|^terraform_data.a: Destruction' | sed 's/ \[id=.*//'
  terraform_data.a: Destroying...
  terraform_data.a: Provisioning with 'local-exec'...
  terraform_data.a (local-exec): Executing: ["/bin/sh" "-c" "echo bye hello"]
  terraform_data.a (local-exec): bye hello
  terraform_data.a: Destruction complete after 0s

An unsupported provisioner type is refused before anything runs.

  $ cat > main.tf <<'X'
  > resource "terraform_data" "r" {
  >   provisioner "remote-exec" {
  >     inline = ["true"]
  >   }
  > }
  > X
  $ cairn plan -no-color 2>&1 | grep '^Error'; echo "exit $?"
  Error: Unsupported provisioner
  exit 0

Under -json the steps are provision_start, provision_progress (one per
output line that is not blank, trailing spaces removed), then
provision_complete or provision_errored (also for a step that fails under
on_failure = continue, as Terraform reports it), between the apply hooks of
the instance.

  $ cd json && cairn apply -json -auto-approve -parallelism=1 > out; echo "exit $?"; python3 ../ui.py < out
  exit 1
  apply_start "terraform_data.a: Creating..." | terraform_data.a {"action": "create"}
  provision_start "terraform_data.a: Provisioning with 'local-exec'..." | terraform_data.a {"provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): Executing: [\"/bin/sh\" \"-c\" \"printf 'one  \\\\n\\\\n  two\\\\n'\"]" | terraform_data.a {"output": "Executing: [\"/bin/sh\" \"-c\" \"printf 'one  \\\\n\\\\n  two\\\\n'\"]", "provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): one" | terraform_data.a {"output": "one", "provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec):   two" | terraform_data.a {"output": "  two", "provisioner": "local-exec"}
  provision_complete "terraform_data.a: (local-exec) Provisioning complete" | terraform_data.a {"provisioner": "local-exec"}
  provision_start "terraform_data.a: Provisioning with 'local-exec'..." | terraform_data.a {"provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): Executing: [\"/bin/sh\" \"-c\" \"exit 4\"]" | terraform_data.a {"output": "Executing: [\"/bin/sh\" \"-c\" \"exit 4\"]", "provisioner": "local-exec"}
  provision_errored "terraform_data.a: (local-exec) Provisioning errored" | terraform_data.a {"provisioner": "local-exec"}
  provision_start "terraform_data.a: Provisioning with 'local-exec'..." | terraform_data.a {"provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): Executing: [\"/bin/sh\" \"-c\" \"echo second\"]" | terraform_data.a {"output": "Executing: [\"/bin/sh\" \"-c\" \"echo second\"]", "provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): second" | terraform_data.a {"output": "second", "provisioner": "local-exec"}
  provision_complete "terraform_data.a: (local-exec) Provisioning complete" | terraform_data.a {"provisioner": "local-exec"}
  apply_complete "terraform_data.a: Creation complete after Ns" | terraform_data.a {"action": "create"}
  apply_start "terraform_data.f: Creating..." | terraform_data.f {"action": "create"}
  provision_start "terraform_data.f: Provisioning with 'local-exec'..." | terraform_data.f {"provisioner": "local-exec"}
  provision_progress "terraform_data.f: (local-exec): Executing: [\"/bin/sh\" \"-c\" \"exit 3\"]" | terraform_data.f {"output": "Executing: [\"/bin/sh\" \"-c\" \"exit 3\"]", "provisioner": "local-exec"}
  provision_errored "terraform_data.f: (local-exec) Provisioning errored" | terraform_data.f {"provisioner": "local-exec"}
  apply_errored "terraform_data.f: Creation errored after Ns" | terraform_data.f {"action": "create"}
  $ cd json && cairn destroy -json -auto-approve -parallelism=1 | python3 ../ui.py
  apply_start "terraform_data.f: Destroying..." | terraform_data.f {"action": "delete"}
  apply_complete "terraform_data.f: Destruction complete after Ns" | terraform_data.f {"action": "delete"}
  apply_start "terraform_data.a: Destroying..." | terraform_data.a {"action": "delete"}
  provision_start "terraform_data.a: Provisioning with 'local-exec'..." | terraform_data.a {"provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): Executing: [\"/bin/sh\" \"-c\" \"echo bye\"]" | terraform_data.a {"output": "Executing: [\"/bin/sh\" \"-c\" \"echo bye\"]", "provisioner": "local-exec"}
  provision_progress "terraform_data.a: (local-exec): bye" | terraform_data.a {"output": "bye", "provisioner": "local-exec"}
  provision_complete "terraform_data.a: (local-exec) Provisioning complete" | terraform_data.a {"provisioner": "local-exec"}
  apply_complete "terraform_data.a: Destruction complete after Ns" | terraform_data.a {"action": "delete"}
