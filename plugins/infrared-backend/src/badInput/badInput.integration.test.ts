import { mockCredentials } from '@backstage/backend-test-utils';
import {
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
  removeTestDir,
} from '@internal/devenv';
import { RequestCounter } from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { OpenApiCheck } from '../api/__testUtils__/openApiCheck';
import { git } from '../gitops/__testUtils__/gitRepos';
import { CANARY, fileCases, type BadInputCase } from './__testUtils__/corpus';
import { generatedCases } from './__testUtils__/generated';

jest.setTimeout(180_000);

interface Answer {
  status: number;
  text: string;
  body: any;
}

/** Sends bytes exactly as given (supertest would JSON-encode a Buffer). */
function sendBytes(
  server: http.Server,
  method: string,
  url: string,
  contentType: string,
  body: Buffer,
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: method.toUpperCase(),
        path: `/api/infrared${url}`,
        headers: {
          authorization: mockCredentials.user.header(),
          'content-type': contentType,
          'content-length': body.length,
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', chunk => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, body: parsed });
        });
      },
    );
    // The server may answer (413) before it has read the whole body.
    req.on('error', reject);
    req.end(body);
  });
}

const API = '/apis/infrared.darkshift.io/v1alpha1';
/** What the runner lists before and after: every place a registration or a build writes. */
const LISTED = [
  `${API}/clusters`,
  `${API}/organizations`,
  '/api/v1/namespaces/infrared/secrets',
  '/api/v1/namespaces/argocd/secrets',
  '/apis/batch/v1/namespaces/infrared/jobs',
];

/** The template provisioning.yaml's cases are checked against. */
const TEMPLATE = {
  module: 'local/bad-input',
  title: 'Bad input',
  source: '/nonexistent/never-run',
  variables: [
    { name: 'name' },
    { name: 'count', type: 'number', default: '1' },
    { name: 'zones', type: 'list', default: '[]' },
    { name: 'tags', type: 'map', default: '{}' },
    { name: 'spot', type: 'bool', default: 'false' },
    { name: 'size', type: 'object', default: '{"cpu": 2}' },
  ],
};

/**
 * The bad-input corpus (cases/*.yaml and generated.ts) against the backend plugin on the real
 * management API server, as the ServiceAccount of deploy/rbac, with a local gitops repository:
 * every case gets a 4xx whose message names the field, no answer carries a credential of the
 * case, and nothing is written (no write request from the backend; no Cluster, Secret, Job or
 * Organization changed; the gitops repository's refs as they were).
 */
describe('the bad-input corpus on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const counter = new RequestCounter();
  const openapi = new OpenApiCheck();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-bad-input-'));
  const gitops = path.join(tmp, 'gitops.git');
  const run = uniqueName('bad');
  const org = run;
  const vars: Record<string, string> = {
    $ORG: org,
    $NS: `ir-org-${org}`,
    $PRODUCT: 'shop',
  };
  let backend: BackendOnControlPlane;

  const listed = async () => {
    const out = new Map<string, string>();
    for (const url of LISTED) {
      for (const item of (await admin.must('GET', url)).body.items) {
        const { namespace, name, resourceVersion } = item.metadata;
        out.set(`${url} ${namespace ?? ''}/${name}`, resourceVersion);
      }
    }
    return out;
  };
  /** The gitops repository's refs; none yet when no pass has published (it is made then). */
  const refs = () =>
    fs.existsSync(gitops)
      ? git([
          `--git-dir=${gitops}`,
          'for-each-ref',
          '--format=%(refname) %(objectname)',
        ])
      : '(no repository)';

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      counter,
      gitops,
      infrared: { provisioning: { templates: [TEMPLATE] } },
    });
    await admin.must('POST', `${API}/organizations`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Organization',
      metadata: { name: org },
      spec: { displayName: 'Bad input', clusterAllowlist: ['edge'] },
    });
    // The first pass: the management cluster's Cluster and the gitops repository, as on start.
    await backend.pass();
  });

  afterAll(async () => {
    await backend?.stop();
    await admin.request('DELETE', `${API}/organizations/${org}`);
    // Whatever a failing run let through, so it does not stay on the shared control plane.
    for (const key of (await listed()).keys()) {
      const [url, at] = key.split(' ');
      const name = at.split('/')[1];
      if (name.startsWith(run) || name.startsWith(`cluster-${run}`)) {
        await admin.request('DELETE', `${url}/${name}`);
      }
    }
    removeTestDir(tmp);
  });

  const send = (c: BadInputCase, index: number) => {
    const fill = (text: string) =>
      text.replace(/\$(NAME|ORG|NS|PRODUCT)/g, v =>
        v === '$NAME' ? `${run}-${index}` : vars[v],
      );
    const url = fill(c.path);
    if (c.raw !== undefined) {
      const raw =
        typeof c.raw === 'string'
          ? Buffer.from(fill(c.raw))
          : Buffer.from(fill(c.raw.toString('latin1')), 'latin1');
      return sendBytes(backend.server, c.method, url, c.contentType!, raw).then(
        res => ({ url, res }),
      );
    }
    let req = request(backend.server)
      [c.method](`/api/infrared${url}`)
      .set('Authorization', mockCredentials.user.header());
    if (c.body !== undefined) {
      req = req.send(JSON.parse(fill(JSON.stringify(c.body))));
    }
    return req.then(res => ({
      url,
      res: { status: res.status, text: res.text, body: res.body },
    }));
  };

  it('answers every case with a 4xx naming the field, and writes nothing', async () => {
    const cases = [...fileCases(), ...generatedCases()];
    expect(new Set(cases.map(c => c.id)).size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(200);

    const before = await listed();
    const refsBefore = refs();
    counter.reset();
    const started = Date.now();
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    for (const [i, c] of cases.entries()) {
      const { url, res } = await send(c, i);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const message: string = res.body?.error?.message ?? '';
      const wrong: string[] = [];
      if (res.status !== c.status) wrong.push(`status ${res.status}`);
      if (!message.includes(c.field)) wrong.push(`no "${c.field}" in it`);
      if (res.text.includes(CANARY)) wrong.push('a credential echoed');
      try {
        // WHATWG URLs read %2E%2E as .., so the spec's path is matched with the dots kept out.
        openapi.check(c.method, url.replace(/%2E/g, '_'), res.status, res.body);
      } catch (e) {
        wrong.push((e as Error).message);
      }
      if (wrong.length) {
        problems.push(
          `${c.id}: ${wrong.join(', ')}: ${res.status} ${message.slice(
            0,
            300,
          )}`,
        );
      }
    }
    const seconds = (Date.now() - started) / 1000;
    const counts = Object.fromEntries([...statuses].sort());
    // The figures the issue's closing note asks for (timings go to the bench, not to assertions).
    // eslint-disable-next-line no-console
    console.log(
      `bad-input corpus: ${cases.length} cases, answers ${JSON.stringify(
        counts,
      )}, ${seconds.toFixed(1)} s`,
    );
    expect(problems).toEqual([]);
    expect([...statuses.keys()].every(s => s >= 400 && s < 500)).toBe(true);

    const writes = Object.entries(counter.byVerb()).filter(
      ([verb]) => verb !== 'GET',
    );
    expect(writes).toEqual([]);
    const after = await listed();
    const changed = [...after].filter(
      ([key, rv]) =>
        before.get(key) !== rv && (key.includes(run) || key.includes(org)),
    );
    expect(changed).toEqual([]);
    expect(refs()).toBe(refsBefore);
  });
});
