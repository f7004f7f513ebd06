import fc from 'fast-check';
import { orgNamespace } from '../placement/org';
import {
  validateClusterName,
  validateNamespaceName,
  validateObjectName,
  validateOrganizationName,
} from './name';
import { argoSecretName, kubeconfigSecretName } from './names';

/*
 * Kubernetes' own rules, as k8s.io/apimachinery/pkg/util/validation and
 * k8s.io/apimachinery/pkg/api/validation/path state them (written out here, not taken from
 * the code under test).
 */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const isSecretName = (s: string) =>
  s.length <= 253 && DNS1123_SUBDOMAIN.test(s);
const isNamespaceName = (s: string) => s.length <= 63 && DNS1123_LABEL.test(s);
const isLabelValue = (s: string) => s.length <= 63 && LABEL_VALUE.test(s);
/** IsValidPathSegmentName, and a segment a URL carries as it is (no percent-encoding). */
const isPathSegment = (s: string) =>
  s !== '.' &&
  s !== '..' &&
  !s.includes('/') &&
  !s.includes('%') &&
  encodeURIComponent(s) === s;

/** Names: near-valid shapes most of the time, any text some of the time. */
const candidates = fc.oneof(
  fc.stringMatching(/^[a-z0-9][-a-z0-9]{0,44}$/),
  fc.stringMatching(/^[-a-z0-9.]{1,70}$/),
  fc.stringMatching(/^[-a-zA-Z0-9._%/]{1,12}$/),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom('.', '..', '../x', 'a%2Fb', 'еdge', 'ｅdge', 'a'.repeat(42)),
);

describe('the name rules against Kubernetes rules', () => {
  it('a cluster name that passes is a Secret name (its own and its Secrets), a label value and a path segment', () => {
    fc.assert(
      fc.property(candidates, name => {
        if (validateClusterName(name)) return;
        expect(isSecretName(name)).toBe(true);
        expect(isSecretName(kubeconfigSecretName(name))).toBe(true);
        expect(isSecretName(argoSecretName(name))).toBe(true);
        expect(isNamespaceName(name)).toBe(true);
        expect(isLabelValue(name)).toBe(true);
        expect(isPathSegment(name)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('an organization name that passes makes a namespace name, a label value and a path segment', () => {
    fc.assert(
      fc.property(candidates, name => {
        if (validateOrganizationName(name)) return;
        expect(isNamespaceName(orgNamespace(name))).toBe(true);
        expect(isLabelValue(name)).toBe(true);
        expect(isPathSegment(name)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('the namespace and object name rules are exactly the label and subdomain rules', () => {
    fc.assert(
      fc.property(candidates, name => {
        expect(validateNamespaceName(name) === undefined).toBe(
          isNamespaceName(name),
        );
        expect(validateObjectName(name) === undefined).toBe(isSecretName(name));
        expect(!!validateObjectName(name) || isPathSegment(name)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('a refusal names the field and says why', () => {
    fc.assert(
      fc.property(candidates, name => {
        const problem = validateClusterName(name, 'clusters[3]') ?? '';
        expect(problem === '' || problem.startsWith('clusters[3] ')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
