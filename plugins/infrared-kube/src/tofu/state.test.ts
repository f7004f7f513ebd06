import { gzipSync } from 'node:zlib';
import { stateOutputs } from './state';

describe('stateOutputs', () => {
  it('reads the outputs of the state the kubernetes backend keeps (gzip, base64)', () => {
    const state = {
      version: 4,
      outputs: {
        kubeconfig: {
          value: 'apiVersion: v1',
          type: 'string',
          sensitive: true,
        },
      },
    };
    const data = {
      tfstate: gzipSync(Buffer.from(JSON.stringify(state))).toString('base64'),
    };
    expect(stateOutputs(data)).toEqual(state.outputs);
  });
  it('undefined without a state', () => {
    expect(stateOutputs(undefined)).toBeUndefined();
    expect(stateOutputs({})).toBeUndefined();
  });
});
