/* The Cluster CRD in deploy/crds states the connection rules of -common. */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { VIEWER_SECRET_REF_RULES, viewerSecretRefProblem } from './rules';

const connection = parse(
  fs.readFileSync(
    path.resolve(__dirname, '../../../../deploy/crds/clusters.yaml'),
    'utf8',
  ),
).spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.connection;

describe('the Cluster CRD and spec.connection.viewerKubeconfigSecretRef', () => {
  const viewer = connection.properties.viewerKubeconfigSecretRef;

  it('states the Secret name and key rules of -common, key default kubeconfig', () => {
    expect(viewer.required).toEqual(['name']);
    for (const part of ['name', 'key'] as const) {
      const node = viewer.properties[part];
      expect([part, node.pattern, node.maxLength]).toEqual([
        part,
        VIEWER_SECRET_REF_RULES[part].pattern,
        VIEWER_SECRET_REF_RULES[part].maxLength,
      ]);
    }
    expect(viewer.properties.key.default).toBe('kubeconfig');
  });

  it.each([
    [{ name: 'edge-viewer' }, undefined],
    [{ name: 'edge.viewer', key: 'view_er.yaml' }, undefined],
    [{ name: 'Edge' }, /\.name must match/],
    [{ name: '' }, /\.name must match/],
    [{ name: 'a'.repeat(254) }, /\.name must match/],
    [{ name: 'edge', key: 'a/b' }, /\.key must match/],
    [{}, /\.name must match/],
    ['edge', /must be \{"name"/],
  ])('%j -> %s', (ref, problem) => {
    const found = viewerSecretRefProblem(ref);
    expect(found === undefined ? 'accepted' : found).toMatch(
      problem ?? /^accepted$/,
    );
    // the CRD's patterns give the same verdict (a string is not an object: the CRD's type refuses it)
    const crdAccepts =
      typeof ref === 'object' &&
      (['name', 'key'] as const).every(part => {
        const value = (ref as Record<string, string | undefined>)[part];
        if (value === undefined) return part === 'key';
        const node = viewer.properties[part];
        return (
          value.length <= node.maxLength && new RegExp(node.pattern).test(value)
        );
      });
    expect(crdAccepts).toBe(problem === undefined);
  });
});
