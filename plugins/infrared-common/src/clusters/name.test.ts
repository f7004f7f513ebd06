import {
  CLUSTER_NAME_MAX_LENGTH,
  CLUSTER_NAME_PATTERN,
  validateClusterName,
} from './name';

describe('validateClusterName', () => {
  it.each(['edge-us-east-1', 'a', '0', 'a1-b2', 'x'.repeat(42)])(
    'accepts %p',
    name => {
      expect(validateClusterName(name)).toBeUndefined();
    },
  );

  it.each([
    ['x'.repeat(43), /name is 43 characters long; at most 42/],
    ['', /name is required/],
    ['Edge', /only lowercase letters, digits and hyphens.*"E".*use lowercase/],
    ['edge_1', /contains "_"/],
    ['edge.1', /contains "\."/],
    ['edge 1', /contains " "/],
    ['-edge', /must start and end with a lowercase letter or digit/],
    ['edge-', /must start and end/],
    ['-', /must start and end/],
  ])('refuses %p', (name, reason) => {
    expect(validateClusterName(name)).toMatch(reason);
  });

  it('refuses a value that is not a string and names the given field', () => {
    expect(validateClusterName(42, 'metadata.name')).toBe(
      'metadata.name is required and must be a string',
    );
    expect(validateClusterName(undefined)).toMatch(/^name is required/);
  });

  it('agrees with its exported pattern and limit', () => {
    const re = new RegExp(CLUSTER_NAME_PATTERN);
    for (const name of [
      'ok-1',
      'Bad',
      '-x',
      'x-',
      'a'.repeat(43),
      'a'.repeat(42),
    ]) {
      const byConstants =
        re.test(name) && name.length <= CLUSTER_NAME_MAX_LENGTH;
      expect(validateClusterName(name) === undefined).toBe(byConstants);
    }
  });
});
