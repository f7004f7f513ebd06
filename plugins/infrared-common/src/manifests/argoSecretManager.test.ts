import {
  argoSecretManager,
  describeArgoSecretManager,
} from './argoSecretManager';

const meta = (
  labels?: Record<string, string>,
  annotations?: Record<string, string>,
) => ({ name: 'cluster-edge', namespace: 'argocd', labels, annotations });

describe('argoSecretManager', () => {
  it.each([
    [
      'Infrared',
      meta({ 'app.kubernetes.io/managed-by': 'infrared' }),
      'infrared',
    ],
    [
      'the registrar',
      meta({
        'argocd-cluster-registrar/managed-by': 'cluster-registrar',
        'argocd-cluster-registrar/source-namespace': 'k3k-edge',
      }),
      'registrar',
    ],
    [
      'a registrar with another prefix',
      meta({ 'acme.io/managed-by': 'reg-2' }),
      'registrar',
    ],
    ['Helm', meta({ 'app.kubernetes.io/managed-by': 'Helm' }), 'tool'],
    [
      'the argocd CLI',
      meta({}, { 'managed-by': 'argocd.argoproj.io' }),
      'tool',
    ],
    [
      'a hand-made Secret',
      meta({ 'argocd.argoproj.io/secret-type': 'cluster' }),
      'hand',
    ],
    ['a Secret with no labels at all', meta(), 'hand'],
  ])('tells %s', (_what, metadata, kind) => {
    expect(argoSecretManager(metadata).kind).toBe(kind);
  });

  it('names who manages it and the label that says so', () => {
    expect(
      describeArgoSecretManager(
        meta({
          'argocd-cluster-registrar/managed-by': 'cluster-registrar',
          'argocd-cluster-registrar/source-namespace': 'k3k-edge',
        }),
      ),
    ).toBe(
      'Secret argocd/cluster-edge is managed by the child-cluster registrar (label argocd-cluster-registrar/managed-by=cluster-registrar, from namespace k3k-edge)',
    );
    expect(
      describeArgoSecretManager(
        meta({ 'app.kubernetes.io/managed-by': 'Helm' }),
      ),
    ).toBe(
      'Secret argocd/cluster-edge is managed by another tool, Helm (label app.kubernetes.io/managed-by=Helm)',
    );
    expect(describeArgoSecretManager(meta())).toBe(
      'Secret argocd/cluster-edge was made by hand (it has no managed-by label)',
    );
  });
});
