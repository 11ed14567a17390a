required_version is checked against the Terraform language version cairn
implements (1.9.8, reported as terraform_version), with Terraform's error.

  $ cd old && cairn validate -no-color
  
  Error: Unsupported Terraform Core version
  
    on main.tf line 2, in terraform:
     2:   required_version = "< 1.0.0"
  
  This configuration does not support Terraform version 1.9.8. To proceed,
  either choose another supported Terraform version or update this version
  constraint. Version constraints are normally set for good reason, so updating
  the constraint may lead to other errors or unexpected behavior.
  [1]
  $ cd ok && cairn validate -no-color
  Success! The configuration is valid.
  
  $ cairn version -json | grep terraform_version
    "terraform_version": "1.9.8",
