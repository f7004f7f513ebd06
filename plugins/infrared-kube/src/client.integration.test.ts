/*
 * Requests by path through the one client, on the devenv control plane: the same credentials,
 * counter and time bound as the generated APIs.
 */
import {
  createServiceAccountKubeconfig,
  getTestControlPlane,
  uniqueName,
} from '@internal/devenv';
import { KubeClient } from './client';
import { KubeApiError } from './errors';
import { RequestCounter } from './counter';

jest.setTimeout(60_000);

const management = getTestControlPlane().cluster('management');

describe('KubeClient requests by path', () => {
  it('sends JSON, reads JSON or text, counts each request and throws KubeApiError from must()', async () => {
    const counter = new RequestCounter();
    const client = KubeClient.fromKubeconfig(management.kubeconfig, {
      counter,
    });
    expect(client.access.server).toBe(management.server);
    expect(client.access.caData).toBe(management.caData);

    const ready = await client.request('GET', '/readyz');
    expect(ready).toEqual({ status: 200, body: 'ok' });

    const name = uniqueName('client-path');
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
    const created = await client.createIfAbsent('/api/v1/namespaces', ns);
    expect(created.status).toBe(201);
    expect(created.body.metadata.uid).toBeTruthy();
    expect((await client.createIfAbsent('/api/v1/namespaces', ns)).status).toBe(
      409,
    );

    const patched = await client.must(
      'PATCH',
      `/api/v1/namespaces/${name}`,
      { metadata: { labels: { a: 'b' } } },
      [],
      'application/merge-patch+json',
    );
    expect(patched.body.metadata.labels.a).toBe('b');

    const error = await client
      .must('GET', `/api/v1/namespaces/${name}-absent`)
      .catch(e => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: `GET /api/v1/namespaces/${name}-absent -> 404: namespaces "${name}-absent" not found`,
    });

    expect(counter.byVerb()).toEqual({ GET: 2, POST: 2, PATCH: 1 });
    await client.must('DELETE', `/api/v1/namespaces/${name}`);
  });

  it('authenticates with a bearer token as with a client certificate', async () => {
    const name = uniqueName('client-sa');
    const admin = KubeClient.fromKubeconfig(management.kubeconfig);
    await admin.must(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name },
        rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }],
      },
    );
    const kubeconfig = await createServiceAccountKubeconfig(management, {
      namespace: name,
      name: 'reader',
      clusterRole: name,
    });
    const client = KubeClient.fromKubeconfig(kubeconfig);
    expect(client.access.token).toBeTruthy();
    expect(client.access.certData).toBeUndefined();
    expect(
      (await client.request('GET', `/api/v1/namespaces/${name}`)).status,
    ).toBe(200);
    expect(
      (await client.request('GET', '/api/v1/namespaces/default/secrets'))
        .status,
    ).toBe(403);
    await admin.must('DELETE', `/api/v1/namespaces/${name}`);
    await admin.must(
      'DELETE',
      `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`,
    );
    await admin.must(
      'DELETE',
      `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${name}-reader-${name}`,
    );
  });

  it('asks a generated LIST for metadata only through callOptions({ accept })', async () => {
    const client = KubeClient.fromKubeconfig(management.kubeconfig);
    const name = uniqueName('client-accept');
    await client.must('POST', '/api/v1/namespaces', {
      metadata: { name },
    });
    await client.must('POST', `/api/v1/namespaces/${name}/secrets`, {
      metadata: { name: 's' },
      stringData: { key: 'value' },
    });
    const full = await client.core.listNamespacedSecret({ namespace: name });
    expect(full.items[0].data).toEqual({ key: 'dmFsdWU=' });
    const partial: any = await client.core.listNamespacedSecret(
      { namespace: name },
      client.callOptions({
        accept:
          'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
      }),
    );
    expect(partial.items.map((s: any) => s.metadata.name)).toEqual(['s']);
    expect(partial.items[0].data).toBeUndefined();
    await client.must('DELETE', `/api/v1/namespaces/${name}`);
  });

  it('gives up on a request after its time bound', async () => {
    const client = KubeClient.fromKubeconfig(management.kubeconfig);
    const error = await client
      .request(
        'GET',
        '/api/v1/namespaces?watch=true',
        undefined,
        undefined,
        300,
      )
      .then(async r => r)
      .catch(e => e);
    expect(error).toBeInstanceOf(Error);
  });
});
