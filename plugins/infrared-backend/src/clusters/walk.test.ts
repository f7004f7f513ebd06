import fs from 'node:fs';
import path from 'node:path';

/*
 * The shape that keeps the walk from POST to Registered short (README: Architecture, the walk):
 * observe -> plan -> execute, each in one place. A change that breaks one of these lines lengthens
 * the walk; recount it in the README before changing the rule here.
 */

const here = __dirname;
const source = (file: string) => fs.readFileSync(path.join(here, file), 'utf8');

/** The non-test .ts files under a folder of clusters/, relative to clusters/. */
function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(here, folder), { withFileTypes: true })
    .filter(e => e.isFile() && e.name.endsWith('.ts'))
    .filter(e => !e.name.endsWith('.test.ts'))
    .map(e => path.join(folder, e.name));
}

/** The value (not type-only) imports of a file, as `{ names, from }`. */
function valueImports(text: string): { names: string; from: string }[] {
  const found: { names: string; from: string }[] = [];
  const re = /^import\s+(?!type\s)([\s\S]*?)\s+from\s+'([^']+)';/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // named imports that are all `type X` carry no value either
    const names = m[1]
      .replace(/[{}\s]/g, '')
      .split(',')
      .filter(n => n && !n.startsWith('type'))
      .join(',');
    if (names) found.push({ names, from: m[2] });
  }
  return found;
}

describe('the walk from POST to Registered', () => {
  it('the planner imports no gitops code (the registration files are part of the observation)', () => {
    const offenders = sources('plan').flatMap(file =>
      valueImports(source(file))
        .filter(i => i.from.includes('gitops'))
        .map(i => `${file}: ${i.names} from ${i.from}`),
    );
    expect(offenders).toEqual([]);
  });

  it('observe.ts calls no planner function', () => {
    const fromPlanner = valueImports(source('observe.ts')).filter(i =>
      /^\.\/plan(\/|$)/.test(i.from),
    );
    expect(fromPlanner).toEqual([]);
  });

  it('Registered is decided in plan/registered.ts alone', () => {
    const makers = [...sources('.'), ...sources('plan')].filter(file => {
      const text = source(file);
      return (
        /type:\s*ClusterConditionTypes\.Registered/.test(text) ||
        /type:\s*'Registered'/.test(text) ||
        /registeredCondition\(/.test(text)
      );
    });
    expect(makers.map(f => path.normalize(f))).toEqual([
      path.normalize('plan/registered.ts'),
    ]);
  });

  it('the reconciler reads only through observe.ts and writes only through apply.ts', () => {
    const text = source('reconciler.ts');
    // no Cluster or Secret request, no status write, no publish of its own
    expect(text).not.toMatch(/api\.(secrets|clusters)\.\w+\(/);
    expect(text).not.toMatch(/replaceStatus|patchMetadata|\.publish\(/);
    expect(text).not.toMatch(/prober\.probe\(/);
    expect(text.match(/observeCluster\(/g)).toHaveLength(1);
    expect(text.match(/executePlan\(/g)).toHaveLength(1);
  });
});
