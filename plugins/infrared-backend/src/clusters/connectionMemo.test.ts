import {
  clusterResource,
  kubeconfigText,
  storedKubeconfigSecret,
} from './__testUtils__/fixtures';
import { ConnectionMemo } from './connectionMemo';

describe('ConnectionMemo', () => {
  const cluster = clusterResource('edge');
  const secret = storedKubeconfigSecret('edge', kubeconfigText(), {
    resourceVersion: '7',
  });

  it('resolves a Cluster once while its generation and Secret version stay', () => {
    const memo = new ConnectionMemo();
    const first = memo.resolve(cluster, secret);
    expect(first.kind).toBe('kubeconfig');
    expect(memo.resolve({ ...cluster }, { ...secret })).toBe(first);
  });

  it('reads the data of a Secret given without it (a metadata watch) once per version', async () => {
    const memo = new ConnectionMemo();
    const { data: _data, ...metadataOnly } = secret;
    const read = jest.fn(async () => secret);
    const first = await memo.resolveReading(cluster, metadataOnly, read);
    expect(first.kind).toBe('kubeconfig');
    expect(await memo.resolveReading(cluster, { ...metadataOnly }, read)).toBe(
      first,
    );
    expect(read).toHaveBeenCalledTimes(1);
    const next = {
      ...metadataOnly,
      metadata: { ...metadataOnly.metadata, resourceVersion: '8' },
    };
    await memo.resolveReading(cluster, next, read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('resolves again when the Secret changed: the new kubeconfig counts', () => {
    const memo = new ConnectionMemo();
    const first = memo.resolve(cluster, secret);
    const changed = storedKubeconfigSecret(
      'edge',
      kubeconfigText({ token: 'other-token-0123456789' }),
      { uid: secret.metadata.uid, resourceVersion: '8' },
    );
    const second = memo.resolve(cluster, changed);
    expect(second).not.toBe(first);
    expect(second.kind === 'kubeconfig' && second.argo.config.bearerToken).toBe(
      'other-token-0123456789',
    );
  });

  it('resolves again when the spec changed (spec.server overrides the kubeconfig)', () => {
    const memo = new ConnectionMemo();
    memo.resolve(cluster, secret);
    const moved = {
      ...cluster,
      spec: { ...cluster.spec, server: 'https://203.0.113.20:6443' },
    };
    const resolved = memo.resolve(moved, secret);
    expect(resolved.kind === 'kubeconfig' && resolved.argo.server).toBe(
      'https://203.0.113.20:6443',
    );
  });

  it('never keeps a missing Secret: the next pass looks again', () => {
    const memo = new ConnectionMemo();
    expect(memo.resolve(cluster, undefined).kind).toBe('unusable');
    expect(memo.resolve(cluster, secret).kind).toBe('kubeconfig');
  });
});
