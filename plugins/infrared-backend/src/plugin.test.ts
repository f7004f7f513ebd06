import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import request from 'supertest';
import { infraredPlugin } from './plugin';

describe('infraredPlugin', () => {
  it('answers /health to a signed-in user', async () => {
    const { server } = await startTestBackend({ features: [infraredPlugin] });
    const res = await request(server)
      .get('/api/infrared/health')
      .set('Authorization', mockCredentials.user.header());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('refuses /health without credentials', async () => {
    const { server } = await startTestBackend({
      features: [
        infraredPlugin,
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
      ],
    });
    const res = await request(server).get('/api/infrared/health');
    expect(res.status).toBe(401);
  });
});
