# A module whose apply and plan fail: a local-exec that prints to stderr and exits 3, and a check
# that fails the plan when the credentials are there, printing the credential value first.
variable "name" {
  type = string
}

resource "terraform_data" "fails" {
  input = var.name
  provisioner "local-exec" {
    command = "echo \"using key $TEST_SECRET_KEY\"; echo 'the module failed on purpose' >&2; exit 3"
  }
}
