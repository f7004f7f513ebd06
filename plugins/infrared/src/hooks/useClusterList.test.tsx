import { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { mockApis, TestApiProvider } from '@backstage/frontend-test-utils';
import { InfraredApiClient } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';
import { setUpFakeApi } from '../__testUtils__/fakeApi';
import { registered } from '../__testUtils__/fixtures';
import { DEFAULT_QUERY } from '../lib/clustersQuery';
import { useClusterList } from './useClusterList';

const { state } = setUpFakeApi();

function renderList() {
  const client = new InfraredApiClient({
    discoveryApi: mockApis.discovery({ baseUrl: 'http://backstage.test' }),
    fetchApi: { fetch: (...args) => globalThis.fetch(...args) },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <TestApiProvider apis={[[infraredApiRef, client]]}>
      {children}
    </TestApiProvider>
  );
  // A long interval: the tests refresh by hand.
  return renderHook(() => useClusterList(DEFAULT_QUERY, 60_000), { wrapper });
}

const names = (list?: { name: string }[]) => list?.map(c => c.name);

describe('useClusterList', () => {
  it('keeps the same array while the answers stay the same, and takes a changed one', async () => {
    state.clusters = [registered('edge-1'), registered('edge-2')];
    const { result } = renderList();
    await waitFor(() => expect(result.current.clusters).toHaveLength(2));
    const first = result.current.clusters;

    await act(() => result.current.refresh());
    expect(state.requests.filter(r => r.path === '/v1/clusters')).toHaveLength(
      2,
    );
    // Same array, so a memoized table does not render again.
    expect(result.current.clusters).toBe(first);

    state.clusters = [registered('edge-1')];
    await act(() => result.current.refresh());
    expect(names(result.current.clusters)).toEqual(['edge-1']);
    expect(result.current.clusters).not.toBe(first);
  });

  it('shows a forgotten cluster again when the next answer still lists it', async () => {
    state.clusters = [registered('edge-1'), registered('edge-2')];
    const { result } = renderList();
    await waitFor(() => expect(result.current.clusters).toHaveLength(2));

    act(() => result.current.forget('edge-2'));
    expect(names(result.current.clusters)).toEqual(['edge-1']);

    // The server answers as before (the DELETE has not taken effect yet): edge-2 is back.
    await act(() => result.current.refresh());
    expect(names(result.current.clusters)).toEqual(['edge-1', 'edge-2']);
  });
});
