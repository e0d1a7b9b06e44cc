import { describe, expect, it } from 'vitest';
import { SERVICE_RUNTIME, withServiceRuntime } from '../src/service-runtime.ts';

describe('withServiceRuntime', () => {
  it('starts a service with the small young generation and two malloc arenas', () => {
    const env = withServiceRuntime({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(env.NODE_OPTIONS).toBe('--max-semi-space-size=16');
    expect(env.MALLOC_ARENA_MAX).toBe('2');
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it("puts the caller's NODE_OPTIONS after its own flags, so the caller's same flag wins", () => {
    const env = withServiceRuntime({ NODE_OPTIONS: '--max-semi-space-size=32 --enable-source-maps' });
    expect(env.NODE_OPTIONS).toBe(
      `${SERVICE_RUNTIME.nodeOptions.join(' ')} --max-semi-space-size=32 --enable-source-maps`,
    );
  });

  it("keeps the caller's MALLOC_ARENA_MAX", () => {
    expect(withServiceRuntime({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
  });
});
