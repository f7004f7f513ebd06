/**
 * The shell script an OpenTofu Job runs (`/bin/sh -ec`), the same text for every Cluster: what
 * differs is in the Job's environment. It never holds a credential: GIT_TOKEN is read by git's
 * credential helper from the environment when a module source needs it, and the credentials
 * Secret reaches OpenTofu and its providers only as environment variables.
 *
 * 1. `tofu init -backend=false -from-module` copies the module (INFRARED_MODULE_SOURCE) into an
 *    empty directory and installs its providers;
 * 2. an override file sets the kubernetes backend (state Secret `tfstate-default-<suffix>` and its
 *    Lease lock in INFRARED_STATE_NAMESPACE, in-cluster config), whatever backend the module names,
 *    and `.terraform/terraform.tfstate` records that backend as initialized with exactly that
 *    configuration. A `tofu init` with the backend would LIST every Secret of the namespace (its
 *    workspace check), which the Job's identity may not; with the backend recorded, OpenTofu uses
 *    it as it is and only GETs and UPDATEs the Cluster's own state Secret and Lease;
 * 3. the action: plan (and `tofu show -json` of the plan, from which one line
 *    `infrared-plan-summary: <JSON>` lists the changed resources), apply or destroy.
 *
 * @public
 */
export const PLAN_SUMMARY_MARKER = 'infrared-plan-summary: ';

/**
 * The kubernetes backend's configuration as `tofu init` records it in `.terraform/terraform.tfstate`:
 * the attributes the override file sets (the others are null, the `exec` block absent). OpenTofu
 * compares it with the override file and, when they are equal, uses the backend as recorded.
 */
const BACKEND_CONFIG_JSON =
  '"secret_suffix": "$INFRARED_STATE_SUFFIX", "namespace": "$INFRARED_STATE_NAMESPACE", "in_cluster_config": true, "exec": []';

/** @public */
export const TOFU_SCRIPT = `set -eu
work="$(mktemp -d)"
cd "$work"
echo "infrared: $INFRARED_ACTION of $INFRARED_MODULE_SOURCE"
tofu init -input=false -no-color -backend=false -from-module="$INFRARED_MODULE_SOURCE"
cat > infrared_backend_override.tf <<BACKEND
terraform {
  backend "kubernetes" {
    secret_suffix     = "$INFRARED_STATE_SUFFIX"
    namespace         = "$INFRARED_STATE_NAMESPACE"
    in_cluster_config = true
  }
}
BACKEND
mkdir -p .terraform
cat > .terraform/terraform.tfstate <<STATE
{"version": 3, "serial": 1, "lineage": "infrared-$INFRARED_STATE_SUFFIX", "backend": {"type": "kubernetes", "config": {${BACKEND_CONFIG_JSON}}, "hash": 0}}
STATE
case "$INFRARED_ACTION" in
  plan)
    tofu plan -input=false -no-color -out=infrared.tfplan
    tofu show -json infrared.tfplan > "$work/plan.json"
    mkdir "$work/summary"
    cd "$work/summary"
    printf '%s' "${PLAN_SUMMARY_MARKER}"
    echo 'jsonencode([for c in try(jsondecode(file("../plan.json")).resource_changes, []) : { address = c.address, actions = c.change.actions } if !contains(c.change.actions, "no-op") && !contains(c.change.actions, "read")])' | tofu console
    ;;
  apply) tofu apply -input=false -no-color -auto-approve ;;
  destroy) tofu destroy -input=false -no-color -auto-approve ;;
  *) echo "infrared: unknown action $INFRARED_ACTION" >&2; exit 2 ;;
esac
`;
