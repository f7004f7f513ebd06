# The demo cluster template of `npm start`: builds a cluster for real on this machine, with
# OpenTofu's built-ins only (no provider to download). apply starts another local Kubernetes API
# server through packages/devenv (its own etcd and kube-apiserver) and outputs its admin
# kubeconfig, which Infrared registers; destroy stops it. Run by a Job on devenv's node agent.

variable "name" {
  description = "The cluster's name (the Cluster resource's)."
  type        = string
}

variable "devenv_cli" {
  description = "packages/devenv/bin/devenv.js of this repository (node is on the Job's PATH)."
  type        = string
}

variable "data_dir" {
  description = "Where each demo cluster keeps its devenv state, one folder per cluster."
  type        = string
}

locals {
  dir = "${var.data_dir}/${var.name}"
}

resource "terraform_data" "cluster" {
  input = { name = var.name, dir = local.dir, devenv = var.devenv_cli }

  # starts etcd and a kube-apiserver named after the cluster; copies its admin kubeconfig
  provisioner "local-exec" {
    command = <<-EOT
      set -e
      mkdir -p '${local.dir}'
      node '${var.devenv_cli}' up --state '${local.dir}/state.json' --clusters '${var.name}'
      node -e 'const s = require(process.argv[1]); process.stdout.write(require("fs").readFileSync(s.clusters[0].kubeconfigPath, "utf8"))' '${local.dir}/state.json' > '${local.dir}/kubeconfig'
    EOT
  }

  provisioner "local-exec" {
    when    = destroy
    command = "node '${self.input.devenv}' down --state '${self.input.dir}/state.json' && rm -f '${self.input.dir}/kubeconfig'"
  }
}

output "kubeconfig" {
  description = "The new cluster's admin kubeconfig (client certificate), read once the apply started it."
  value       = try(file("${terraform_data.cluster.output.dir}/kubeconfig"), "")
  sensitive   = true
  depends_on  = [terraform_data.cluster]
}

output "server" {
  value = try(yamldecode(file("${terraform_data.cluster.output.dir}/kubeconfig")).clusters[0].cluster.server, "")
  depends_on = [terraform_data.cluster]
}
