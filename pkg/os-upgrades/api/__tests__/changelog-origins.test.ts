/* global jest */
import { readAllowedOrigins } from '../changelog-origins';

describe('readAllowedOrigins', () => {
  it('reads the comma-separated setting through the management store', async() => {
    const dispatch = jest.fn().mockResolvedValue({ value: 'https://cdn.example.com, https://mirror.example.org/x' });

    expect(await readAllowedOrigins({ dispatch, getters: {} })).toEqual(['https://cdn.example.com', 'https://mirror.example.org']);
    expect(dispatch).toHaveBeenCalledWith('management/find', { type: 'management.cattle.io.setting', id: 'os-upgrades-changelog-origins' });
  });

  it('treats a missing setting as an empty allow-list', async() => {
    const dispatch = jest.fn().mockRejectedValue({ status: 404 });

    expect(await readAllowedOrigins({ dispatch, getters: {} })).toEqual([]);
  });
});
