/** @jest-environment node */
// scripts/run shows the emulator's start-up banner: a newcomer must find every user to log in as.
import { USERS, userBanner } from '../../emulator/rancher/users';

describe('the emulator\'s user banner', () => {
  it('names every user with the password to log in with, the editor included', () => {
    const lines = userBanner();

    expect(lines).toHaveLength(USERS.length);
    for (const name of ['admin', 'viewer', 'editor', 'limited']) {
      const user = USERS.find((u) => u.username === name);

      expect(lines).toContain(`${ name } / ${ user?.password } (${ user?.displayName })`);
    }
  });
});
