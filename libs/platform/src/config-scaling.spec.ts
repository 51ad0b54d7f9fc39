import { ConfigError, loadConfig } from './config.js';

describe('configuration: projections and workers', () => {
  it('projects inline in one process by default', () => {
    const config = loadConfig({});
    expect(config.projections).toEqual({ mode: 'inline', projector: 'off', waitMs: 5000 });
    expect(config.workers).toBe(1);
  });

  it('runs an embedded projector by default in async mode, which PLACEMENT_PROJECTOR=off leaves to others', () => {
    expect(loadConfig({ PLACEMENT_PROJECTIONS: 'async' }).projections).toEqual({ mode: 'async', projector: 'embedded', waitMs: 5000 });
    expect(loadConfig({ PLACEMENT_PROJECTIONS: 'async', PLACEMENT_PROJECTOR: 'off', PLACEMENT_PROJECTION_WAIT_MS: '800' }).projections)
      .toEqual({ mode: 'async', projector: 'off', waitMs: 800 });
    expect(loadConfig({ PLACEMENT_WORKERS: '4' }).workers).toBe(4);
  });

  it.each([
    [{ PLACEMENT_PROJECTIONS: 'later' }, 'PLACEMENT_PROJECTIONS must be inline or async'],
    [{ PLACEMENT_PROJECTIONS: 'async', PLACEMENT_PROJECTOR: 'remote' }, 'PLACEMENT_PROJECTOR must be embedded or off'],
    [{ PLACEMENT_PROJECTOR: 'embedded' }, 'PLACEMENT_PROJECTOR=embedded needs PLACEMENT_PROJECTIONS=async'],
    [{ PLACEMENT_PROJECTION_WAIT_MS: '-1' }, 'PLACEMENT_PROJECTION_WAIT_MS must be an integer'],
    [{ PLACEMENT_WORKERS: '0' }, 'PLACEMENT_WORKERS must be an integer from 1'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
