import fc from 'fast-check';
import { fetchConcurrency, HTTP1_CONCURRENCY, MULTIPLEXED_CONCURRENCY } from '../index';

describe('fetchConcurrency', () => {
  it('keeps the browser limit of 6 on HTTP/1.1 and HTTP/1.0', () => {
    expect(HTTP1_CONCURRENCY).toBe(6);
    expect(fetchConcurrency('http/1.1')).toBe(6);
    expect(fetchConcurrency('http/1.0')).toBe(6);
  });

  it('raises it on HTTP/2 and HTTP/3', () => {
    expect(fetchConcurrency('h2')).toBe(MULTIPLEXED_CONCURRENCY);
    expect(fetchConcurrency('H2 ')).toBe(MULTIPLEXED_CONCURRENCY);
    expect(fetchConcurrency('h3')).toBe(MULTIPLEXED_CONCURRENCY);
    expect(fetchConcurrency('h3-29')).toBe(MULTIPLEXED_CONCURRENCY);
    expect(MULTIPLEXED_CONCURRENCY).toBeGreaterThan(HTTP1_CONCURRENCY);
    expect(MULTIPLEXED_CONCURRENCY).toBeLessThanOrEqual(100);
  });

  it('treats an unknown protocol as HTTP/1.1 (no timing information, another origin)', () => {
    expect(fetchConcurrency('')).toBe(6);
    expect(fetchConcurrency(undefined)).toBe(6);
    expect(fetchConcurrency(null)).toBe(6);
    expect(fetchConcurrency('spdy/3.1')).toBe(6);
  });

  it('answers one of the two limits for any text', () => {
    fc.assert(fc.property(fc.string(), (protocol) => {
      expect([HTTP1_CONCURRENCY, MULTIPLEXED_CONCURRENCY]).toContain(fetchConcurrency(protocol));
    }));
  });
});
