import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { planBatches } from './planBatches';

const change = (key: string, files: string[], deletions: string[] = []) =>
  ({
    key,
    title: key,
    body: '',
    files: Object.fromEntries(files.map(f => [f, 'x'])),
    deletions,
  } as GitopsChange);

const keys = (items: GitopsChange[]) => items.map(c => c.key);

describe('planBatches', () => {
  it.each([
    {
      what: 'takes every change that fits, in order',
      queue: [change('a', ['a/1', 'a/2']), change('b', ['b/1'])],
      max: 10,
      batch: ['a', 'b'],
      rest: [],
    },
    {
      what: 'stops at the cap on paths, written and deleted',
      queue: [
        change('a', ['a/1', 'a/2']),
        change('b', ['b/1'], ['b/old']),
        change('c', ['c/1']),
      ],
      max: 3,
      batch: ['a'],
      rest: ['b', 'c'],
    },
    {
      what: 'always takes the first change, even over the cap',
      queue: [change('big', ['1', '2', '3', '4']), change('b', ['b'])],
      max: 2,
      batch: ['big'],
      rest: ['b'],
    },
    {
      what: 'leaves a second change to the same path, and all after it, for the next batch',
      queue: [
        change('add-x', ['x/app.yaml']),
        change('remove-x', [], ['x/app.yaml']),
        change('add-y', ['y/app.yaml']),
      ],
      max: 10,
      batch: ['add-x'],
      rest: ['remove-x', 'add-y'],
    },
    {
      what: 'an empty queue gives an empty batch',
      queue: [],
      max: 10,
      batch: [],
      rest: [],
    },
  ])('$what', ({ queue, max, batch, rest }) => {
    const planned = planBatches(queue, c => c, max);
    expect(keys(planned.batch)).toEqual(batch);
    expect(keys(planned.rest)).toEqual(rest);
  });
});
