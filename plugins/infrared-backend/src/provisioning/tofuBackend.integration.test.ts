/*
 * What OpenTofu's kubernetes backend asks of the API server, found with the real tofu (built by
 * devenv) as a Job's identity: a Cluster's ServiceAccount whose Role may only get and update its
 * state Secret and Lease (what the executor makes). Run outside a Pod (config_path to a kubeconfig
 * with that token) but otherwise as the Job's script runs it.
 * - `tofu init` with the backend LISTs the namespace's Secrets (its workspace check,
 *   `tfstate=true`): refused, and that LIST would show every Cluster's state. So the script never
 *   runs it: it records the backend as initialized instead;
 * - plan, apply and destroy then only GET and UPDATE the state Secret and the Lease;
 * - without the executor's empty Secret and Lease, OpenTofu would CREATE them: refused.
 */
import {
  ensureTofu,
  getTestControlPlane,
  KubeClient as AdminClient,
  renderKubeconfig,
  uniqueName,
} from '@internal/devenv';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import {
  tofuAccessObjects,
  tofuStateObjects,
  TOFU_SCRIPT,
} from '@infrared-clusters/infrared-kube';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyTofuRbac, TOFU_NAMESPACE as NS } from './__testUtils__/tofuRbac';

jest.setTimeout(20 * 60_000);

const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);
const MODULE = path.resolve(__dirname, '__testUtils__/modules/ok');

const PATHS: Record<string, string> = {
  ServiceAccount: `/api/v1/namespaces/${NS}/serviceaccounts`,
  Role: `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`,
  RoleBinding: `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
  Secret: `/api/v1/namespaces/${NS}/secrets`,
  Lease: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`,
};

describe("OpenTofu's kubernetes backend as a Job's identity", () => {
  let tofu: string;
  let dir: string;
  let kubeconfig: string;
  const name = uniqueName('tofu-calls');
  const cluster: ClusterResource = {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, uid: `probe${Date.now().toString(16)}` },
    spec: { type: 'workload' },
  };

  beforeAll(async () => {
    tofu = ensureTofu().bin;
    await applyTofuRbac(management);
    for (const o of tofuAccessObjects(cluster, NS)) {
      // no Cluster object in this test: nothing owns them
      await admin.must('POST', PATHS[o.kind], {
        ...o,
        metadata: { ...o.metadata, ownerReferences: undefined },
      });
    }
    const sa = tofuAccessObjects(cluster, NS)[0].metadata.name;
    const token = await admin.must(
      'POST',
      `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 1200 },
      },
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-calls-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      renderKubeconfig(
        'management',
        {
          server: admin.access.server,
          caData: admin.access.caData,
          token: token.body.status.token,
        },
        sa,
      ),
    );
  });

  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    const o = tofuAccessObjects(cluster, NS);
    const s = tofuStateObjects(name, NS);
    for (const [kind, n] of [
      ...o.map(x => [x.kind, x.metadata.name]),
      ['Secret', s.secret.metadata.name],
      ['Lease', s.lease.metadata.name],
    ]) {
      await admin.request('DELETE', `${PATHS[kind]}/${n}`);
    }
  });

  /** The Job's script with a kubeconfig instead of the in-cluster config (the same calls). */
  function run(action: string, work: string) {
    fs.mkdirSync(work, { recursive: true });
    const script = TOFU_SCRIPT.replace(
      'in_cluster_config = true',
      `config_path       = "${kubeconfig}"`,
    ).replace('"in_cluster_config": true', `"config_path": "${kubeconfig}"`);
    const res = spawnSync('/bin/sh', ['-ec', script], {
      encoding: 'utf8',
      env: {
        PATH: `${path.dirname(tofu)}:/usr/bin:/bin`,
        HOME: work,
        TMPDIR: work,
        INFRARED_ACTION: action,
        INFRARED_MODULE_SOURCE: MODULE,
        INFRARED_STATE_SUFFIX: `cluster-${name}`,
        INFRARED_STATE_NAMESPACE: NS,
        TF_VAR_name: name,
        TF_VAR_zones: '["a"]',
        TF_IN_AUTOMATION: '1',
      },
    });
    return { status: res.status, out: `${res.stdout}\n${res.stderr}` };
  }

  it('without the empty state Secret and Lease, OpenTofu would create them: refused', () => {
    const { status, out } = run('plan', path.join(dir, 'no-state'));
    expect(status).not.toBe(0);
    expect(out).toMatch(/cannot create resource "leases"/);
  });

  it('`tofu init` with the backend LISTs every Secret of the namespace: refused', async () => {
    const s = tofuStateObjects(name, NS);
    await admin.must('POST', PATHS.Secret, s.secret);
    await admin.must('POST', PATHS.Lease, s.lease);
    const work = path.join(dir, 'init');
    fs.mkdirSync(work);
    fs.writeFileSync(
      path.join(work, 'backend.tf'),
      `terraform {\n  backend "kubernetes" {\n    secret_suffix = "cluster-${name}"\n    namespace = "${NS}"\n    config_path = "${kubeconfig}"\n  }\n}\n`,
    );
    const res = spawnSync(
      tofu,
      ['init', '-input=false', '-no-color', '-reconfigure'],
      {
        cwd: work,
        encoding: 'utf8',
        env: { HOME: work, PATH: '/usr/bin:/bin' },
      },
    );
    expect(res.status).not.toBe(0);
    expect(`${res.stdout}${res.stderr}`).toMatch(
      /cannot list resource "secrets"/,
    );
  });

  it('plan, apply, destroy as the script runs them: only get and update of its state and Lease', async () => {
    for (const action of ['plan', 'apply', 'destroy']) {
      const { status, out } = run(action, path.join(dir, action));
      expect([action, status, out.match(/forbidden.*/)?.[0]]).toEqual([
        action,
        0,
        undefined,
      ]);
    }
    const state = await admin.must(
      'GET',
      `${PATHS.Secret}/tfstate-default-cluster-${name}`,
    );
    expect(Object.keys(state.body.data)).toEqual(['tfstate']);
    const lease = await admin.must(
      'GET',
      `${PATHS.Lease}/lock-tfstate-default-cluster-${name}`,
    );
    expect(lease.body.spec.holderIdentity ?? '').toBe('');
  });
});
