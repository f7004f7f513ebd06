import fc from 'fast-check';
import { parse } from 'yaml';
import { inspectKubeconfig } from './inspect';
import { parseJsonObjectText } from './jsonText';
import { parseKubeconfigText } from './read';

/** What the YAML parser alone makes of a text (parseKubeconfigText before the JSON path). */
function yamlOnly(text: string): unknown {
  try {
    return { doc: parse(text, { logLevel: 'error', maxAliasCount: 100 }) };
  } catch (e) {
    return { error: String((e as Error).message).split('\n')[0] };
  }
}

/**
 * The JSON path's answer must be the YAML parser's, key order included. Whether the JSON path
 * read it (the others go to the YAML parser itself).
 */
function expectSameAsYaml(text: string): boolean {
  const fast = parseJsonObjectText(text);
  if (fast === undefined) return false;
  const slow = yamlOnly(text) as { doc?: unknown };
  expect(slow).toEqual({ doc: fast });
  expect(JSON.stringify(slow.doc)).toBe(JSON.stringify(fast));
  return true;
}

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n').toString(
  'base64',
);

/** What `kubectl config view --raw -o json` prints. */
const kubectlJson = JSON.stringify(
  {
    kind: 'Config',
    apiVersion: 'v1',
    preferences: {},
    clusters: [
      {
        name: 'edge',
        cluster: {
          server: 'https://10.0.0.5:6443',
          'certificate-authority-data': CA,
        },
      },
    ],
    users: [{ name: 'edge-admin', user: { token: 'abc.def' } }],
    contexts: [
      { name: 'edge', context: { cluster: 'edge', user: 'edge-admin' } },
    ],
    'current-context': 'edge',
  },
  null,
  4,
);

describe('parseJsonObjectText (the JSON path of parseKubeconfigText)', () => {
  it('reads a kubeconfig printed as JSON, as the YAML parser does', () => {
    const doc = parseJsonObjectText(kubectlJson);
    expect(doc).toEqual(JSON.parse(kubectlJson));
    expectSameAsYaml(kubectlJson);
    expect(parseKubeconfigText(kubectlJson, 'kubeconfig')).toEqual({ doc });
  });

  it.each([
    ['no text at all', undefined as unknown as string],
    ['YAML', 'apiVersion: v1\nkind: Config\n'],
    ['a JSON list', '[{"a": "b"}]'],
    ['a key given twice (YAML refuses it)', '{"users": [], "users": []}'],
    ['a nested key given twice', '{"a": {"b": "x", "b": "y"}}'],
    ['a number', '{"token": 123}'],
    ['a negative number', '{"token": -1}'],
    ['a tab', '{\t"a": "b"}'],
    ['a byte order mark', '\ufeff{"a": "b"}'],
    ['non-ASCII text', '{"a": "é"}'],
    ['__proto__', '{"__proto__": {"a": "b"}}'],
    ['text after the object', '{"a": "b"}\n---\n{}'],
    ['a comment (YAML, not JSON)', '{"a": "b"} # note'],
    ['a key longer than YAML allows', `{"${'k'.repeat(1001)}": "v"}`],
    ['deep nesting', `${'{"a":'.repeat(40)}"x"${'}'.repeat(40)}`],
  ])('leaves %s to the YAML parser', (_, text) => {
    expect(parseJsonObjectText(text)).toBeUndefined();
  });

  it.each([
    ['escapes', '{"a": "\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"}'],
    ['colons and braces in strings', '{"a:{": "}:[", "b": "\\":"}'],
    [
      'booleans and null',
      '{"insecure-skip-tls-verify": true, "b": false, "c": null}',
    ],
    ['empty key and values', '{"": "", "e": {}, "l": []}'],
    ['minified', '{"a":{"b":["c",{"d":"e"}]}}'],
    ['CRLF line breaks', '{\r\n  "a": "b",\r\n  "c": ["d"]\r\n}\r\n'],
    ['a value on the next line', '{\n"a":\n"b"\n}'],
  ])('gives what the YAML parser gives for %s', (_, text) => {
    expect(parseJsonObjectText(text)).toBeDefined();
    expectSameAsYaml(text);
  });

  it('gives inspectKubeconfig the same answer for the JSON and the YAML of a kubeconfig', () => {
    const yamlText = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: edge',
      '  cluster:',
      '    server: https://10.0.0.5:6443',
      '    insecure-skip-tls-verify: true',
      'users:',
      '- name: edge-admin',
      '  user: {token: abc.def}',
      'contexts:',
      '- name: edge',
      '  context: {cluster: edge, user: edge-admin}',
      'current-context: edge',
    ].join('\n');
    const jsonText = JSON.stringify(parse(yamlText));
    expect(parseJsonObjectText(jsonText)).toBeDefined();
    expect(inspectKubeconfig(jsonText)).toEqual(inspectKubeconfig(yamlText));
  });

  it('never gives other than the YAML parser, for any JSON object', () => {
    const spacing = fc.constantFrom(undefined, 0, 1, 2, 4);
    let read = 0;
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })),
        spacing,
        fc.boolean(),
        (value, space, crlf) => {
          let text = JSON.stringify(value, null, space);
          if (crlf) text = text.replace(/\n/g, '\r\n');
          if (expectSameAsYaml(text)) read++;
        },
      ),
      { numRuns: 2000 },
    );
    expect(read).toBeGreaterThan(100);
  });

  it('never gives other than the YAML parser, for JSON objects of strings (a kubeconfig)', () => {
    // __proto__ goes to the YAML parser (above)
    const text = fc.string().filter(t => !t.includes('__proto__'));
    const leaf = fc.oneof(text, fc.boolean(), fc.constant(null));
    const value = fc.oneof(
      leaf,
      fc.array(leaf),
      fc.dictionary(text, fc.oneof(leaf, fc.array(leaf))),
    );
    fc.assert(
      fc.property(fc.dictionary(text, value), (doc: object) => {
        expect(expectSameAsYaml(JSON.stringify(doc, null, 2))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never gives other than the YAML parser, for JSON-like text', () => {
    const token = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      ' ',
      '\n',
      '"a"',
      '"b"',
      '""',
      '"\\\\"',
      '"\\""',
      'true',
      'null',
      '"x:y"',
      '"#"',
      ' #',
      '"\\u0041"',
    );
    let read = 0;
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), tokens => {
        if (expectSameAsYaml(`{${tokens.join('')}`)) read++;
      }),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(0);
  });
});
