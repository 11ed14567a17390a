depends_on on a module call: everything in the module waits for
terraform_data.first and records it as a dependency; the -json UI stream
names module resources with their module address.

  $ cairn apply -auto-approve -json | python3 ui.py
  version
  planned_change addr=terraform_data.first module='' resource=terraform_data.first name=first key=null provider=terraform
  planned_change addr=terraform_data.last module='' resource=terraform_data.last name=last key=null provider=terraform
  planned_change addr=module.m.random_pet.p module='module.m' resource=random_pet.p name=p key=null provider=random
  planned_change addr=module.m.terraform_data.inner module='module.m' resource=terraform_data.inner name=inner key=null provider=terraform
  change_summary
  apply_start addr=terraform_data.first module='' resource=terraform_data.first name=first key=null provider=terraform
  apply_complete addr=terraform_data.first module='' resource=terraform_data.first name=first key=null provider=terraform
  apply_start addr=module.m.random_pet.p module='module.m' resource=random_pet.p name=p key=null provider=random
  apply_complete addr=module.m.random_pet.p module='module.m' resource=random_pet.p name=p key=null provider=random
  apply_start addr=module.m.terraform_data.inner module='module.m' resource=terraform_data.inner name=inner key=null provider=terraform
  apply_complete addr=module.m.terraform_data.inner module='module.m' resource=terraform_data.inner name=inner key=null provider=terraform
  apply_start addr=terraform_data.last module='' resource=terraform_data.last name=last key=null provider=terraform
  apply_complete addr=terraform_data.last module='' resource=terraform_data.last name=last key=null provider=terraform
  change_summary
  outputs
  $ python3 "$E2E_LIB/modq.py" state
  terraform_data.first module='' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]
  terraform_data.last module='' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=['module.m.random_pet.p', 'module.m.terraform_data.inner', 'terraform_data.first']
  module.m.random_pet.p module='module.m' provider=provider["registry.terraform.io/hashicorp/random"]
    key=null deps=['terraform_data.first']
  module.m.terraform_data.inner module='module.m' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=['module.m.random_pet.p', 'terraform_data.first']
  $ cairn plan -out=p.bin > /dev/null
  $ cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan | sed -n '/^configuration/,$p'
  configuration:
    resource terraform_data.first key=terraform
    resource terraform_data.last key=terraform
    call m source="./mod" depends_on=["terraform_data.first"]
      resource random_pet.p key=module.m:random
      resource terraform_data.inner key=terraform
      output id

Destroying follows the recorded dependencies (no cycle through the call's
depends_on): the consumers first, terraform_data.first last.

  $ cairn destroy -auto-approve 2>&1 | grep 'Destruction complete' | sed 's/ after.*//'
  terraform_data.last: Destruction complete
  module.m.terraform_data.inner: Destruction complete
  module.m.random_pet.p: Destruction complete
  terraform_data.first: Destruction complete
