import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import { provisionSpecHash, tofuJob, TOFU_SPEC_HASH_ANNOTATION } from './job';
import { TOFU_SCRIPT } from './script';

function cluster(
  spec: Partial<ClusterResource['spec']> = {},
  generation = 3,
): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'edge-us-east-1', uid: 'uid-1', generation },
    spec: {
      type: 'workload',
      template: { module: 'aws/k3s-node', version: 'v0.2.3' },
      provision: {
        variables: { name: 'edge-us-east-1', region: 'us-east-1' },
        credentialsSecretRef: { name: 'edge-us-east-1-aws' },
      },
      ...spec,
    },
  };
}

const envOf = (job: ReturnType<typeof tofuJob>) =>
  Object.fromEntries(
    job.spec.template.spec.containers[0].env.map(e => [e.name, e.value]),
  );

describe('tofuJob', () => {
  it("is tofu-<cluster>-<generation>-<action> in infrared-tofu, as the Cluster's own ServiceAccount, never retried, kept a week, not owned by the Cluster", () => {
    const job = tofuJob(cluster());
    expect(job.metadata.name).toBe('tofu-edge-us-east-1-3-plan');
    expect(job.metadata.namespace).toBe('infrared-tofu');
    expect(job.spec.backoffLimit).toBe(0);
    expect(job.spec.ttlSecondsAfterFinished).toBe(604800);
    const pod = job.spec.template.spec;
    expect(pod.serviceAccountName).toBe('tofu-edge-us-east-1-uid1');
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.containers[0].image).toBe('ghcr.io/opentofu/opentofu:1.10');
    // removing the Cluster never deletes its Jobs: they end and stay their week
    expect(job.metadata.ownerReferences).toBeUndefined();
    // Pod Security restricted
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(job.metadata.labels).toMatchObject({
      'infrared.darkshift.io/cluster': 'edge-us-east-1',
      'infrared.darkshift.io/cluster-uid': 'uid-1',
      'infrared.darkshift.io/generation': '3',
      'infrared.darkshift.io/action': 'plan',
    });
    expect(job.spec.template.metadata.labels).toEqual(job.metadata.labels);
  });

  it.each([
    [{}, 'plan'],
    [{ action: 'plan' as const }, 'plan'],
    [{ action: 'apply' as const }, 'apply'],
    [{ action: 'destroy' as const }, 'destroy'],
  ])('provision %j runs %s', (provision, action) => {
    const job = tofuJob(cluster({ provision }, 7));
    expect(job.metadata.name).toBe(`tofu-edge-us-east-1-7-${action}`);
    expect(envOf(job).INFRARED_ACTION).toBe(action);
  });

  it.each([
    [
      {},
      'git::https://github.com/darkshiftio/infrared-iac-modules//aws/k3s-node?ref=v0.2.3',
    ],
    [{ source: '/srv/demo' }, '/srv/demo'],
  ])('provision %j initializes from %s', (provision, source) => {
    expect(envOf(tofuJob(cluster({ provision }))).INFRARED_MODULE_SOURCE).toBe(
      source,
    );
  });

  it('a template source from config is used when the spec names none', () => {
    const job = tofuJob(cluster({ provision: {} }), {
      templateSource: '/repo/examples/tofu/demo',
    });
    expect(envOf(job).INFRARED_MODULE_SOURCE).toBe('/repo/examples/tofu/demo');
    const own = tofuJob(cluster({ provision: { source: '/own' } }), {
      templateSource: '/x',
    });
    expect(envOf(own).INFRARED_MODULE_SOURCE).toBe('/own');
  });

  it('takes provision.image', () => {
    const job = tofuJob(
      cluster({ provision: { image: 'registry.example/tofu:1.10.6' } }),
    );
    expect(job.spec.template.spec.containers[0].image).toBe(
      'registry.example/tofu:1.10.6',
    );
  });

  it('passes each variable as TF_VAR_<name>, JSON where it starts with [ or {', () => {
    const env = envOf(
      tofuJob(
        cluster({
          provision: {
            variables: {
              region: 'us-east-1',
              zones: '[ "a", "b" ]',
              tags: '{"team": "edge"}',
              count: '3',
              note: 'x [y]',
            },
          },
        }),
      ),
    );
    expect(env).toMatchObject({
      TF_VAR_region: 'us-east-1',
      TF_VAR_zones: '["a","b"]',
      TF_VAR_tags: '{"team":"edge"}',
      TF_VAR_count: '3',
      TF_VAR_note: 'x [y]',
    });
  });

  it('refuses a variable that starts like JSON but is not', () => {
    expect(() =>
      tofuJob(cluster({ provision: { variables: { zones: '[a' } } })),
    ).toThrow(
      /provision.variables.zones starts with \[ so it is passed as JSON/,
    );
  });

  it('variables from options (the template defaults merged) replace the spec', () => {
    const env = envOf(
      tofuJob(cluster(), { variables: { name: 'n', nodes: '1' } }),
    );
    expect(env.TF_VAR_nodes).toBe('1');
    expect(env.TF_VAR_region).toBeUndefined();
  });

  it('the credentials Secret is the environment (envFrom); no credential in command, args or env', () => {
    const container = tofuJob(cluster()).spec.template.spec.containers[0];
    expect(container.envFrom).toEqual([
      { secretRef: { name: 'edge-us-east-1-aws' } },
    ]);
    expect((container as any).args).toBeUndefined();
    expect(
      container.env.every(
        e => typeof e.value === 'string' && !('valueFrom' in e),
      ),
    ).toBe(true);
    // GIT_TOKEN is named only as a variable the credential helper reads at run time
    const text = JSON.stringify(container);
    expect(text).not.toMatch(/GIT_TOKEN=/);
    expect(container.command.join(' ')).not.toMatch(/GIT_TOKEN/);
    expect(
      tofuJob(cluster({ provision: {} })).spec.template.spec.containers[0]
        .envFrom,
    ).toBeUndefined();
  });

  it("the state: the kubernetes backend with secret_suffix cluster-<name> in the Jobs' namespace", () => {
    const env = envOf(tofuJob(cluster()));
    expect(env.INFRARED_STATE_SUFFIX).toBe('cluster-edge-us-east-1');
    expect(env.INFRARED_STATE_NAMESPACE).toBe('infrared-tofu');
    expect(
      envOf(tofuJob(cluster(), { namespace: 'builds' }))
        .INFRARED_STATE_NAMESPACE,
    ).toBe('builds');
  });

  it('a name and a template image from the planner', () => {
    const job = tofuJob(cluster(), {
      name: 'tofu-edge-us-east-1-3-plan-abcd',
      templateImage: 'registry.example/tofu:1.10',
    });
    expect(job.metadata.name).toBe('tofu-edge-us-east-1-3-plan-abcd');
    expect(job.spec.template.spec.containers[0].image).toBe(
      'registry.example/tofu:1.10',
    );
  });

  it('the spec hash changes with template and provision, not with the connection', () => {
    const a = cluster();
    const b = cluster({
      connection: { kubeconfigSecretRef: { name: 'k', key: 'kubeconfig' } },
    });
    const c = cluster({ provision: { ...a.spec.provision, action: 'apply' } });
    expect(provisionSpecHash(a)).toBe(provisionSpecHash(b));
    expect(provisionSpecHash(a)).not.toBe(provisionSpecHash(c));
    expect(tofuJob(a).metadata.annotations?.[TOFU_SPEC_HASH_ANNOTATION]).toBe(
      provisionSpecHash(a),
    );
  });
});

/**
 * The Job's script, run by a real /bin/sh with a `tofu` that records its arguments and the
 * environment it sees: which commands each action runs, the backend it configures, and the plan
 * summary line.
 */
describe('the Job script', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-script-'));
    fs.writeFileSync(
      path.join(dir, 'tofu'),
      `#!/bin/sh
echo "tofu $*" >> "$CALLS"
case "$1" in
  init) case "$*" in *-from-module=*) echo 'variable "x" {}' > main.tf ;; esac ;;
  plan|apply|destroy) cp infrared_backend_override.tf "$CALLS.backend"; cp .terraform/terraform.tfstate "$CALLS.recorded"
    [ "$1" = plan ] && [ -n "\${FAIL:-}" ] && { echo "Error: boom" >&2; exit 1; } ;;
  show) echo '{"resource_changes":[]}' ;;
  console) cat > "$CALLS.console"; echo '"[{\\"actions\\":[\\"create\\"],\\"address\\":\\"terraform_data.cluster\\"}]"' ;;
esac
exit 0
`,
      { mode: 0o755 },
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(action: string, extra: Record<string, string> = {}) {
    const calls = path.join(
      dir,
      `calls-${action}-${Object.keys(extra).join('')}`,
    );
    const job = tofuJob(cluster({ provision: { action: action as any } }));
    const env = {
      ...envOf(job),
      PATH: `${dir}:/usr/bin:/bin`,
      CALLS: calls,
      TMPDIR: dir,
      ...extra,
    };
    const [sh, flag, script] = job.spec.template.spec.containers[0].command;
    const res = spawnSync(sh, [flag, script], { env, encoding: 'utf8' });
    return {
      status: res.status,
      stdout: res.stdout,
      calls: fs.readFileSync(calls, 'utf8').trim().split('\n'),
      backend: fs.readFileSync(`${calls}.backend`, 'utf8'),
      recorded: JSON.parse(fs.readFileSync(`${calls}.recorded`, 'utf8')),
    };
  }

  it.each([
    [
      'plan',
      [
        'tofu plan -input=false -no-color -out=infrared.tfplan',
        'tofu show -json infrared.tfplan',
        'tofu console',
      ],
    ],
    ['apply', ['tofu apply -input=false -no-color -auto-approve']],
    ['destroy', ['tofu destroy -input=false -no-color -auto-approve']],
  ])(
    '%s: init from the module (no backend init: it would LIST every Secret), then %j',
    (action, commands) => {
      const { status, calls } = run(action);
      expect(status).toBe(0);
      expect(calls).toEqual([
        'tofu init -input=false -no-color -backend=false -from-module=git::https://github.com/darkshiftio/infrared-iac-modules//aws/k3s-node?ref=v0.2.3',
        ...commands,
      ]);
    },
  );

  it('configures the kubernetes backend in-cluster with secret_suffix cluster-<name> in infrared-tofu, recorded as initialized', () => {
    const { backend, recorded } = run('apply');
    expect(backend).toMatch(/backend "kubernetes" \{/);
    expect(backend).toMatch(/secret_suffix\s+= "cluster-edge-us-east-1"/);
    expect(backend).toMatch(/namespace\s+= "infrared-tofu"/);
    expect(backend).toMatch(/in_cluster_config = true/);
    expect(recorded.backend).toEqual({
      type: 'kubernetes',
      config: {
        secret_suffix: 'cluster-edge-us-east-1',
        namespace: 'infrared-tofu',
        in_cluster_config: true,
        exec: [],
      },
      hash: 0,
    });
  });

  it('a plan prints the summary line from `tofu show -json`', () => {
    const { stdout } = run('plan');
    expect(stdout).toMatch(
      /^infrared-plan-summary: "\[\{\\"actions\\":\[\\"create\\"\],\\"address\\":\\"terraform_data.cluster\\"\}\]"$/m,
    );
    const expr = fs.readFileSync(path.join(dir, 'calls-plan-.console'), 'utf8');
    expect(expr).toContain('jsondecode(file("../plan.json")).resource_changes');
  });

  it('stops at the first failing command', () => {
    const { status, calls } = run('plan', { FAIL: '1' });
    expect(status).toBe(1);
    expect(calls[calls.length - 1]).toBe(
      'tofu plan -input=false -no-color -out=infrared.tfplan',
    );
  });

  it('TOFU_SCRIPT names no credential', () => {
    expect(TOFU_SCRIPT).not.toMatch(/GIT_TOKEN|AWS_|password/);
  });
});
