import { ConfigError, loadConfig } from './config.js';
import { allocationSettings, INCOMPLETE_CONSUMER_ID } from './allocation-settings.js';

describe('allocationSettings: upstream\'s [placement] options for claims', () => {
  it('defaults as upstream: the all-zero owner ids and 10 attempts', () => {
    expect(allocationSettings({})).toEqual({
      incompleteConsumerProjectId: INCOMPLETE_CONSUMER_ID, incompleteConsumerUserId: INCOMPLETE_CONSUMER_ID, conflictRetryCount: 10,
    });
  });

  it('reads PLACEMENT_INCOMPLETE_CONSUMER_* and PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT, and loadConfig carries them', () => {
    const env = { PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID: 'legacy-project', PLACEMENT_INCOMPLETE_CONSUMER_USER_ID: 'legacy-user', PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT: '25' };
    expect(loadConfig(env).allocations).toEqual({ incompleteConsumerProjectId: 'legacy-project', incompleteConsumerUserId: 'legacy-user', conflictRetryCount: 25 });
  });

  it('stops on a bad value, naming the variable', () => {
    for (const bad of ['0', '-1', 'ten', '1.5', '1001']) {
      expect(() => allocationSettings({ PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT: bad })).toThrow(ConfigError);
    }
    expect(() => allocationSettings({ PLACEMENT_INCOMPLETE_CONSUMER_USER_ID: 'a b' })).toThrow(/PLACEMENT_INCOMPLETE_CONSUMER_USER_ID/);
    expect(() => allocationSettings({ PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID: 'x'.repeat(256) })).toThrow(/PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID/);
  });
});
