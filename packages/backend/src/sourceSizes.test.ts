import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

// The size rule's checker, a plain Node script (node scripts/sizes.js lists what it finds).
const {
  checkSizes,
  functionsOf,
  validAllowlist,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
} = require(path.join(root, 'scripts', 'sizes.js')) as {
  checkSizes: (allowlist?: Record<string, string>) => {
    offenders: Array<{ key: string; lines: number }>;
    stale: string[];
  };
  functionsOf: (
    file: string,
    text: string,
  ) => Array<{ name: string; line: number; lines: number }>;
  validAllowlist: (json: object) => Record<string, string>;
  MAX_FILE_LINES: number;
  MAX_FUNCTION_LINES: number;
};

describe('small files and functions', () => {
  it(`no non-test file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} without a reason in scripts/sizes-allowlist.json`, () => {
    const { offenders } = checkSizes();
    expect(offenders.map(o => `${o.key} (${o.lines} lines)`)).toEqual([]);
  });

  it('every reason in scripts/sizes-allowlist.json is still needed (split files leave the list)', () => {
    expect(checkSizes().stale).toEqual([]);
  });

  it('measures each function, methods and arrow functions included, by its nesting', () => {
    const text = [
      'export function outer() {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner();',
      '}',
      'class Store {',
      '  get(k: string) {',
      '    return k;',
      '  }',
      '}',
    ].join('\n');
    expect(functionsOf('x.ts', text)).toEqual([
      { name: 'outer', line: 1, lines: 6 },
      { name: 'outer.inner', line: 2, lines: 3 },
      { name: 'Store.get', line: 8, lines: 3 },
    ]);
  });

  it('takes no exception without a written reason', () => {
    expect(() => validAllowlist({ 'plugins/x/src/big.ts': '' })).toThrow(
      '"plugins/x/src/big.ts" needs a written reason',
    );
    expect(
      validAllowlist({ 'plugins/x/src/big.ts': 'one table that reads as one' }),
    ).toEqual({ 'plugins/x/src/big.ts': 'one table that reads as one' });
  });
});
