import { runRegistrarPass } from './executor';
import { RegistrarMetrics, REGISTRAR_METRIC_NAMES } from './metrics';
import { passLoop } from './commandLine/passLoop';
import type { RegistrarScope } from './scope';
import {
  argo,
  k3kSecret,
  kubeconfig,
  MANAGED_BY,
  NOW,
  ns,
  options,
  ownedLabels,
} from './__testUtils__/fixtures';
import { captureLogger, recordingMeter } from './__testUtils__/recorders';
import { MemoryRegistrarApi } from './testUtils/memoryRegistrarApi';

const TARGET = 'argocd';

/** `count` registered-to-be children, and every request the API answers, as "VERB target". */
function world(count: number) {
  const api = new MemoryRegistrarApi();
  for (let i = 0; i < count; i++) addChild(api, `child-${i}`, i);
  const requests: string[] = [];
  api.fail = (verb, t) => {
    requests.push(`${verb} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`);
    return undefined;
  };
  return { api, requests };
}

function addChild(api: MemoryRegistrarApi, name: string, i: number) {
  api.addNamespace(ns(name));
  api.addSecret(
    k3kSecret(
      name,
      name,
      kubeconfig({ server: `https://10.1.${i >> 8}.${i & 255}:6443` }),
    ),
  );
}

const pass = (api: MemoryRegistrarApi, scope?: RegistrarScope) => {
  const log = captureLogger();
  const meter = recordingMeter();
  return runRegistrarPass(api, options(), {
    logger: log.logger,
    metrics: new RegistrarMetrics(meter.meter),
    now: () => NOW,
    scope,
  }).then(report => ({ report, log, meter }));
};

const only = (namespaces: string[]): RegistrarScope => ({
  namespaces,
  targetNames: [],
});

describe('a pass scoped to what changed', () => {
  it("reads only the new child's namespace and its Secret's name, and registers it", async () => {
    const { api, requests } = world(30);
    expect((await pass(api)).report.created).toBe(30);
    addChild(api, 'new-one', 200);
    requests.length = 0;

    const { report, meter } = await pass(api, only(['new-one']));

    expect(report.created).toBe(1);
    expect(api.secret(TARGET, 'cluster-new-one')).toBeDefined();
    // no LIST across namespaces: the namespace, its Secrets, the name it creates
    expect(requests.sort()).toEqual([
      'GET new-one',
      `LIST ${TARGET}/cluster-new-one`,
      'LIST secrets -n new-one',
      `POST ${TARGET}/cluster-new-one`,
    ]);
    expect(report.keys).toBe(1);
    expect(report.outcomes.map(o => o.namespace)).toEqual(['new-one']);
    // the gauges still count every registration, not only the scope's
    expect(
      meter.value(REGISTRAR_METRIC_NAMES.registrations, {
        state: 'active',
        credential_expiry: 'ok',
      }),
    ).toBe(31);
  });

  it("removes a removed child's Secret, and refuses another registrar's Secret as a full pass does", async () => {
    const { api, requests } = world(5);
    await pass(api);
    api.namespaces.delete('child-2');
    api.addSecret(
      argo('cluster-theirs', {
        labels: ownedLabels('theirs', 'elsewhere', { [MANAGED_BY]: 'another' }),
        data: { server: 'https://10.9.9.9:6443' },
      }),
    );
    addChild(api, 'theirs', 300);
    requests.length = 0;

    const { report } = await pass(api, only(['child-2', 'theirs']));

    expect(report.deleted).toBe(1);
    expect(api.secret(TARGET, 'cluster-child-2')).toBeUndefined();
    expect(report.conflicts.map(c => [c.namespace, c.reason])).toEqual([
      ['theirs', 'not_managed'],
    ]);
    expect(api.secret(TARGET, 'cluster-theirs')?.metadata.labels).toEqual(
      expect.objectContaining({ [MANAGED_BY]: 'another' }),
    );
    expect(requests.filter(r => r.startsWith('LIST secrets -n '))).toEqual(
      expect.not.arrayContaining(['LIST secrets -n child-0']),
    );
    expect(requests).not.toContain('LIST namespaces');
    expect(requests).not.toContain('LIST secrets');
  });

  it('is a full pass when no full pass came first', async () => {
    const { api, requests } = world(3);
    const { report } = await pass(api, only(['child-0']));
    expect(report.created).toBe(3);
    expect(report.scope).toBeUndefined();
    expect(requests).toContain('LIST namespaces');
  });
});

describe('passLoop with watches', () => {
  it('passes scoped on a change and in full on the interval', async () => {
    const stop = new AbortController();
    const scopes: Array<RegistrarScope | undefined> = [];
    let change: ((reason: string, scope?: RegistrarScope) => void) | undefined;
    const loop = passLoop(
      150,
      stop.signal,
      async (_signal, scope) => {
        scopes.push(scope);
        if (scopes.length === 1) {
          setTimeout(
            () => change?.('namespace new-one added', only(['new-one'])),
            10,
          );
        }
        if (scopes.length === 3) stop.abort();
        return { resourceVersion: undefined } as any;
      },
      (_signal, onChange) => {
        change = onChange;
        return {} as any;
      },
    );
    await loop;
    expect(scopes).toEqual([undefined, only(['new-one']), undefined]);
  });
});
