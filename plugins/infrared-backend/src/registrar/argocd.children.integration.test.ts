import {
  ensureDemoChild,
  eventually,
  uniqueName,
  removeTestDir,
} from '@internal/devenv';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ARGOCD_BUILD_MS,
  MGMT,
  startArgoCdBackend,
  type ArgoCdBackend,
} from '../__testUtils__/argoCdBackend';
import { REGISTRAR_TASK_ID } from './task';

jest.setTimeout(6 * 60_000);

/**
 * A registrar child (a k3k-style namespace with a kubeconfig Secret, as devenv's demo makes
 * `sandbox`) checked by the real Argo CD: the backend's registrar writes its Argo CD cluster Secret
 * and publishes its registration files through the gitops publisher, and Argo CD then monitors it
 * (Successful) with no file or Application made by the test.
 */
describe('a real Argo CD monitors a registrar child', () => {
  let w: ArgoCdBackend;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-children-'));

  beforeAll(async () => {
    w = await startArgoCdBackend({
      resyncSeconds: 10,
      infrared: cp => {
        const kubeconfigPath = path.join(tmp, 'management.kubeconfig');
        fs.writeFileSync(kubeconfigPath, cp.cluster('management').kubeconfig, {
          mode: 0o600,
        });
        return {
          managementCluster: { kubeconfigPath },
          registrar: { enabled: true, interval: '1h' },
        };
      },
    });
    await w.createRootApplication();
  }, ARGOCD_BUILD_MS);

  afterAll(async () => {
    await w?.stop();
    removeTestDir(tmp);
  });

  it('a registered child turns Successful from the files the backend published for it', async () => {
    const name = uniqueName('child');
    const child = await ensureDemoChild(
      w.cp.cluster('management'),
      w.cp.cluster('workload-a'),
      { name, host: '127.0.0.1' },
    );
    const startedAt = Date.now();
    await eventually(
      async () => {
        await w.scheduler.triggerTask(REGISTRAR_TASK_ID);
        return (await w.argoCluster(name)) !== undefined;
      },
      60_000,
      500,
    );
    // the same files as a Cluster's registration, on the default branch
    const show = (file: string) =>
      execFileSync('git', ['--git-dir', w.gitopsRepo, 'show', `main:${file}`], {
        encoding: 'utf8',
      });
    expect(
      show(`registry/clusters/${MGMT}/components/cluster-${name}.yaml`),
    ).toContain(`repoURL: ${w.gitopsUrl}`);
    expect(
      show(`registry/clusters/${name}/components/infrared.yaml`),
    ).toContain(`name: infrared-${name}`);
    expect(
      show(`registry/clusters/${name}/infrared/cluster-info.yaml`),
    ).toContain(`cluster: ${name}`);

    const connected = await eventually(
      async () => {
        const c = await w.argoCluster(name);
        return c?.info?.connectionState?.status === 'Successful' && c;
      },
      180_000,
      1000,
    ).catch(async e => {
      throw new Error(
        `${e}; Argo CD's cluster: ${JSON.stringify(
          await w.argoCluster(name),
        )}; applications: ${await w.applicationsSummary()}`,
      );
    });
    expect(connected.server).toBe(child.server);
    // eslint-disable-next-line no-console
    console.log(
      `registrar child Successful after ${(Date.now() - startedAt) / 1000} s`,
    );

    // another pass changes nothing in the repository
    const head = () =>
      execFileSync('git', ['--git-dir', w.gitopsRepo, 'rev-parse', 'main'], {
        encoding: 'utf8',
      });
    const before = head();
    await w.scheduler.triggerTask(REGISTRAR_TASK_ID);
    expect(head()).toBe(before);
  });
});
