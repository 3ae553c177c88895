import { describe, expect, it } from 'vitest';
import { type SettingsFormPlace, SettingsFormSeal } from './settings-form-seal.js';

const place: SettingsFormPlace = { level: 'channel', workspaceId: 'T1', channelId: 'C1', dm: false, userId: 'U1' };

describe('SettingsFormSeal', () => {
  it('opens what any replica holding the same secret sealed', () => {
    const metadata = new SettingsFormSeal('sigsec').seal(place);
    expect(new SettingsFormSeal('sigsec').open(metadata)).toEqual(place);
    expect(metadata.length).toBeLessThan(3000);
  });

  it('refuses metadata sealed with another secret, changed, or not sealed at all', () => {
    const seal = new SettingsFormSeal('sigsec');
    const metadata = seal.seal(place);
    expect(new SettingsFormSeal('other').open(metadata)).toBeUndefined();
    const [, mac] = metadata.split('.');
    const otherChannel = Buffer.from(JSON.stringify({ l: 'channel', w: 'T1', c: 'C9', d: false, u: 'U1' }));
    expect(seal.open(`${otherChannel.toString('base64url')}.${mac}`)).toBeUndefined();
    expect(seal.open('{"c":"C9"}')).toBeUndefined();
    expect(seal.open(`${metadata}.x`)).toBeUndefined();
    expect(seal.open('')).toBeUndefined();
  });
});
