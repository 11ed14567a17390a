module "own" {
  count  = 2
  source = "../ok/own"
}
