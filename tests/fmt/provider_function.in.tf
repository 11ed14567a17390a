a = provider::terraform::encode_tfvars({a=1})
