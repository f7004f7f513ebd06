import { mockServices } from '@backstage/backend-test-utils';
import { ConflictError, NotFoundError } from '@backstage/errors';
import { ReconcileTrigger } from './trigger';

describe('ReconcileTrigger', () => {
  it('asks again while a pass is running, then stops', async () => {
    const calls: number[] = [];
    const triggerTask = jest.fn(async () => {
      calls.push(Date.now());
      if (calls.length < 3)
        throw new ConflictError('Task is currently running');
    });
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
      {
        retryMs: 5,
      },
    );
    trigger.request();
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(3);
  });

  it('merges requests made while one is pending into it (the pass it starts comes after them)', async () => {
    let release!: () => void;
    const triggerTask = jest
      .fn()
      .mockImplementationOnce(() => new Promise<void>(r => (release = r)))
      .mockResolvedValue(undefined);
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
    );
    trigger.request();
    trigger.request();
    trigger.request();
    release();
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(1);
  });

  it('gives up on other errors', async () => {
    const triggerTask = jest
      .fn()
      .mockRejectedValue(new NotFoundError('no task'));
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
    );
    trigger.request();
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(1);
  });
});
